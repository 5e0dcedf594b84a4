//! The catalog rows of the mbarrier (`ptx-sync show`, the tests): every row of `table.rs`, with
//! its operands, floors and Rust path. Host only.

use super::*;
#[allow(unused_imports)]
use crate::instr::{asm_text, with_ops};

/// Catalog rows of this module (`ptx-sync show`).
pub(crate) fn catalog_rows(f: &mut dyn FnMut(crate::catalog::Variant)) {
    #[allow(unused_imports)]
    use crate::catalog::{Completion, Form, Marker as M, Variant};
    use crate::instr::Instr;
    let v = Variant {
        family: "mbarrier",
        ty: "b64",
        isa: "9.7.13.15",
        seed: "5.2",
        ..Variant::EMPTY
    };
    // Each row's floors, from its own fields (PTX ISA §9.7.13.15's notes): sm_80, PTX 7.0; the
    // `.shared::cta` spelling 7.8; `.release`/`.acquire` 8.0; sm_90 / 8.0 for a count on
    // `arrive`, `expect_tx`, `complete_tx`, `try_wait` and `.cluster`/`.shared::cluster`;
    // `.relaxed` 8.6 (except on `expect_tx`/`complete_tx`, which have only `.relaxed`, from 8.0).
    let mut f = |r: Variant| {
        let max = |(a, b): (u16, u16), (c, d): (u16, u16)| (a.max(c), b.max(d));
        let mut fl = (80, 70);
        if r.space == M::Shared {
            fl = max(fl, (80, 78));
        }
        if matches!(r.sem, M::Release | M::Acquire) {
            fl = max(fl, (80, 80));
        }
        let sm90 = r.scope == M::Cluster
            || r.space == M::SharedCluster
            || r.op.contains("try_wait")
            || r.op.contains("_tx")
            || (r.op == "arrive" && r.form.count);
        if sm90 {
            fl = max(fl, (90, 80));
        }
        if r.sem == M::Relaxed && !matches!(r.op, "expect_tx" | "complete_tx") {
            fl = max(fl, (90, 86));
        }
        f(Variant {
            sm: fl.0,
            ptx_isa: fl.1,
            ..r
        })
    };
    f(with_ops!(none; (mbar_a_n); Variant {
        op: "init",
        rust: "Mbarrier::init",
        space: M::Shared,
        form: Form::COUNT,
        ptx: MbarrierInit::PTX,
        ..v
    }));
    f(with_ops!(none; (mbar_a); Variant {
        op: "inval",
        rust: "Mbarrier::inval",
        space: M::Shared,
        ptx: MbarrierInval::PTX,
        ..v
    }));
    f(with_ops!(none; (mbar_pending); Variant {
        op: "pending_count",
        rust: "Mbarrier::pending_count",
        ptx: MbarrierPendingCount::PTX,
        ..v
    }));
    f(with_ops!(none; (mbar_state_n); Variant {
        op: "arrive.noComplete",
        rust: "Mbarrier::arrive_no_complete",
        sem: M::Release,
        scope: M::Cta,
        space: M::Shared,
        form: Form::COUNT,
        ptx: MbarrierArriveNoComplete::PTX,
        ..v
    }));
    f(with_ops!(none; (mbar_state_n); Variant {
        op: "arrive_drop.noComplete",
        rust: "Mbarrier::arrive_drop_no_complete",
        sem: M::Release,
        scope: M::Cta,
        space: M::Shared,
        form: Form::COUNT,
        ptx: MbarrierArriveDropNoComplete::PTX,
        ..v
    }));
    macro_rules! arrive_v {
        ($S:ident $O:ident, $Sco:ident) => {
            let (sem, scope) = (M::$S, M::$Sco);
            let w = Variant {
                sem,
                scope,
                space: M::Shared,
                ..v
            };
            f(with_ops!(none; (mbar_state); Variant {
                op: "arrive",
                ptx: <$S as ArriveInstr<$Sco>>::PTX,
                rust: concat!(
                    "Mbarrier::arrive::<",
                    stringify!($S),
                    ", ",
                    stringify!($Sco),
                    ">"
                ),
                ..w
            }));
            f(with_ops!(none; (mbar_state_n); Variant {
                op: "arrive",
                form: Form::COUNT,
                ptx: <$S as ArriveInstr<$Sco>>::PTX,
                rust: concat!(
                    "Mbarrier::arrive_n::<",
                    stringify!($S),
                    ", ",
                    stringify!($Sco),
                    ">"
                ),
                ..w
            }));
            f(with_ops!(none; (mbar_state); Variant {
                op: "arrive_drop",
                ptx: <$S as ArriveInstr<$Sco>>::PTX_DROP,
                rust: concat!(
                    "Mbarrier::arrive_drop::<",
                    stringify!($S),
                    ", ",
                    stringify!($Sco),
                    ">"
                ),
                ..w
            }));
            f(with_ops!(none; (mbar_state_tx); Variant {
                op: "arrive.expect_tx",
                form: Form::TX,
                ptx: <$S as ArriveInstr<$Sco>>::PTX_EXPECT_TX,
                rust: concat!(
                    "Mbarrier::arrive_expect_tx::<",
                    stringify!($S),
                    ", ",
                    stringify!($Sco),
                    ">"
                ),
                ..w
            }));
            let r = Variant {
                space: M::SharedCluster,
                ..w
            };
            f(with_ops!(none; (mbar_sink); Variant {
                op: "arrive",
                ptx: <$S as RemoteArriveInstr<$Sco>>::PTX,
                rust: concat!(
                    "RemoteMbarrier::arrive::<",
                    stringify!($S),
                    ", ",
                    stringify!($Sco),
                    ">"
                ),
                ..r
            }));
            f(with_ops!(none; (mbar_sink_n); Variant {
                op: "arrive",
                form: Form::COUNT,
                ptx: <$S as RemoteArriveInstr<$Sco>>::PTX,
                rust: concat!(
                    "RemoteMbarrier::arrive_n::<",
                    stringify!($S),
                    ", ",
                    stringify!($Sco),
                    ">"
                ),
                ..r
            }));
            f(with_ops!(none; (mbar_sink_tx); Variant {
                op: "arrive.expect_tx",
                form: Form::TX,
                ptx: <$S as RemoteArriveInstr<$Sco>>::PTX_EXPECT_TX,
                rust: concat!(
                    "RemoteMbarrier::arrive_expect_tx::<",
                    stringify!($S),
                    ", ",
                    stringify!($Sco),
                    ">"
                ),
                ..r
            }));
        };
    }
    for_mbar_arrive! { arrive_v }
    macro_rules! wait_v {
        ($S:ident $O:ident, $Sco:ident) => {
            let w = Variant {
                sem: M::$S,
                scope: M::$Sco,
                space: M::Shared,
                ..v
            };
            f(with_ops!(pred_out; (mbar_wait); Variant {
                op: "try_wait",
                ptx: <$S as WaitInstr<$Sco>>::PTX_TRY,
                rust: concat!(
                    "Mbarrier::try_wait::<",
                    stringify!($S),
                    ", ",
                    stringify!($Sco),
                    ">"
                ),
                ..w
            }));
            f(with_ops!(pred_out; (mbar_wait_hint); Variant {
                op: "try_wait",
                form: Form::HINT,
                ptx: <$S as WaitInstr<$Sco>>::PTX_TRY,
                rust: concat!(
                    "Mbarrier::try_wait_hint::<",
                    stringify!($S),
                    ", ",
                    stringify!($Sco),
                    ">"
                ),
                ..w
            }));
            f(with_ops!(pred_out; (mbar_wait_parity); Variant {
                op: "try_wait.parity",
                ptx: <$S as WaitInstr<$Sco>>::PTX_TRY_PARITY,
                rust: concat!(
                    "Mbarrier::try_wait_parity::<",
                    stringify!($S),
                    ", ",
                    stringify!($Sco),
                    ">"
                ),
                ..w
            }));
            f(with_ops!(pred_out; (mbar_wait_parity_hint); Variant {
                op: "try_wait.parity",
                form: Form::HINT,
                ptx: <$S as WaitInstr<$Sco>>::PTX_TRY_PARITY,
                rust: concat!(
                    "Mbarrier::try_wait_parity_hint::<",
                    stringify!($S),
                    ", ",
                    stringify!($Sco),
                    ">"
                ),
                ..w
            }));
            f(with_ops!(pred_out; (mbar_wait); Variant {
                op: "test_wait",
                ptx: <$S as WaitInstr<$Sco>>::PTX_TEST,
                rust: concat!(
                    "Mbarrier::test_wait::<",
                    stringify!($S),
                    ", ",
                    stringify!($Sco),
                    ">"
                ),
                ..w
            }));
            f(with_ops!(pred_out; (mbar_wait_parity); Variant {
                op: "test_wait.parity",
                ptx: <$S as WaitInstr<$Sco>>::PTX_TEST_PARITY,
                rust: concat!(
                    "Mbarrier::test_wait_parity::<",
                    stringify!($S),
                    ", ",
                    stringify!($Sco),
                    ">"
                ),
                ..w
            }));
        };
    }
    for_mbar_wait! { wait_v }
    macro_rules! tx_v {
        ($Sco:ident) => {
            let w = Variant {
                sem: M::Relaxed,
                scope: M::$Sco,
                ..v
            };
            f(with_ops!(none; (mbar_a_tx); Variant {
                op: "expect_tx",
                space: M::Shared,
                rust: concat!("Mbarrier::expect_tx::<", stringify!($Sco), ">"),
                ptx: <$Sco as TxInstr>::PTX_EXPECT,
                ..w
            }));
            f(with_ops!(none; (mbar_a_tx); Variant {
                op: "complete_tx",
                space: M::Shared,
                rust: concat!("Mbarrier::complete_tx::<", stringify!($Sco), ">"),
                ptx: <$Sco as TxInstr>::PTX_COMPLETE,
                ..w
            }));
            f(with_ops!(none; (mbar_a_tx); Variant {
                op: "expect_tx",
                space: M::SharedCluster,
                rust: concat!("RemoteMbarrier::expect_tx::<", stringify!($Sco), ">"),
                ptx: <$Sco as TxInstr>::PTX_EXPECT_CLUSTER,
                ..w
            }));
            f(with_ops!(none; (mbar_a_tx); Variant {
                op: "complete_tx",
                space: M::SharedCluster,
                rust: concat!("RemoteMbarrier::complete_tx::<", stringify!($Sco), ">"),
                ptx: <$Sco as TxInstr>::PTX_COMPLETE_CLUSTER,
                ..w
            }));
        };
    }
    for_mbar_tx! { tx_v }
}
