//! The catalog rows of the copies (`ptx-sync show`, the tests): every row of `copy.rs`'s tables
//! and of its submodules, with operands, floors and Rust paths. Host only.

use super::*;
#[allow(unused_imports)]
use crate::instr::{asm_text, with_ops};

/// Catalog rows of this module (`ptx-sync show`). `extra` holds `src=<space>`,
/// `completion=<Mbarrier|BulkGroup>`, `multicast`, `dim=<n>`, or `<CacheOp>:<bytes>[:zfill]`.
pub(crate) fn catalog_rows(f: &mut dyn FnMut(crate::catalog::Variant)) {
    #[allow(unused_imports)]
    use crate::catalog::{Completion, Form, Marker as M, Variant};
    use crate::instr::Instr;
    // PTX ISA §9.7.9.25: `cp.async` PTX 7.0 / sm_80, PTX 7.8 for the `.shared::cta` spelling
    // (the rows with a state space); seed §5.1.
    let v = Variant {
        family: "cp.async",
        sm: 80,
        ptx_isa: 70,
        isa: "9.7.9.25",
        seed: "5.1",
        ..Variant::EMPTY
    };
    let mut f = |r: Variant| {
        f(Variant {
            ptx_isa: if r.space == M::Shared {
                r.ptx_isa.max(78)
            } else {
                r.ptx_isa
            },
            ..r
        })
    };
    // A row and, with a second `[ptx, rust]`, its `.L2::cache_hint` twin (operands `KEY hint`).
    macro_rules! row {
        ($blk:ident ($($k:tt)*) [$ptx:expr, $rust:expr] [$hptx:expr, $hrust:expr]; $v:expr) => {
            row!($blk ($($k)*) [$ptx, $rust]; $v);
            row!($blk ($($k)* hint) [$hptx, $hrust]; Variant { form: Form { cache_hint: true, ..$v.form }, ..$v });
        };
        ($blk:ident ($($k:tt)*) [$ptx:expr, $rust:expr]; $v:expr) => {
            f(with_ops!($blk; ($($k)*); Variant { ptx: $ptx, rust: $rust, ..$v }))
        };
    }
    macro_rules! cpa_v {
        ($C:ident, $n:literal) => {
            let c = Variant {
                space: M::Shared,
                form: Form {
                    cache: M::$C,
                    bytes: $n,
                    ..Form::NONE
                },
                ..v
            };
            row!(cvta (cp_async $n)
                [<$C as CpAsyncInstr<$n>>::PTX, concat!("cp_async::<", stringify!($C), ", ", $n, ">")]
                [<$C as CpAsyncInstr<$n>>::PTX_HINT, concat!("cp_async_hint::<", stringify!($C), ", ", $n, ">")];
                c);
            row!(cvta (cp_async_zfill $n)
                [<$C as CpAsyncInstr<$n>>::PTX, concat!("cp_async_zfill::<", stringify!($C), ", ", $n, ">")]
                [<$C as CpAsyncInstr<$n>>::PTX_HINT, concat!("cp_async_zfill_hint::<", stringify!($C), ", ", $n, ">")];
                Variant { form: Form { zfill: true, ..c.form }, ..c });
            cpa_v!(@pf $C $n c; Prefetch64B Prefetch128B Prefetch256B);
        };
        // `.level::prefetch_size` (PTX ISA §9.7.9.25.3): each row again per prefetch size.
        (@pf $C:ident $n:literal $c:ident; $($P:ident)*) => {$(
            let p = Variant { form: Form { prefetch: M::$P, ..$c.form }, ..$c };
            row!(cvta (cp_async $n)
                [<$C as CpAsyncPrefetchInstr<$n, $P>>::PTX, concat!("cp_async_prefetch::<", stringify!($C), ", ", $n, ", ", stringify!($P), ">")]
                [<$C as CpAsyncPrefetchInstr<$n, $P>>::PTX_HINT, concat!("cp_async_hint_prefetch::<", stringify!($C), ", ", $n, ", ", stringify!($P), ">")];
                p);
            row!(cvta (cp_async_zfill $n)
                [<$C as CpAsyncPrefetchInstr<$n, $P>>::PTX, concat!("cp_async_zfill_prefetch::<", stringify!($C), ", ", $n, ", ", stringify!($P), ">")]
                [<$C as CpAsyncPrefetchInstr<$n, $P>>::PTX_HINT, concat!("cp_async_zfill_hint_prefetch::<", stringify!($C), ", ", $n, ", ", stringify!($P), ">")];
                Variant { form: Form { zfill: true, ..p.form }, ..p });
        )*};
    }
    for_cp_async! { cpa_v }
    f(with_ops!(none; (none); Variant {
        op: "commit_group",
        ptx: CpAsyncCommitGroup::PTX,
        rust: "cp_async_commit_group",
        ..v
    }));
    f(with_ops!(none; (imm); Variant {
        op: "wait_group",
        ptx: CpAsyncWaitGroup::PTX,
        rust: "cp_async_wait_group::<N>",
        ..v
    }));
    f(with_ops!(none; (none); Variant {
        op: "wait_all",
        ptx: CpAsyncWaitAll::PTX,
        rust: "cp_async_wait_all",
        ..v
    }));
    f(with_ops!(none; (cp_mbar); Variant {
        op: "mbarrier.arrive",
        ty: "b64",
        space: M::Shared,
        ptx: CpAsyncMbarrierArrive::PTX,
        rust: "cp_async_mbarrier_arrive",
        ..v
    }));
    f(with_ops!(none; (cp_mbar); Variant {
        op: "mbarrier.arrive.noinc",
        ty: "b64",
        space: M::Shared,
        ptx: CpAsyncMbarrierArriveNoinc::PTX,
        rust: "cp_async_mbarrier_arrive_noinc",
        ..v
    }));
    // §9.7.9.25.4 (bulk copies, bulk reductions): PTX 8.0 / sm_90; seed §5.2.
    let b = Variant {
        family: "cp.async.bulk",
        sm: 90,
        ptx_isa: 80,
        isa: "9.7.9.25.4",
        seed: "5.2",
        ..v
    };
    let g2s = Form {
        src: M::Global,
        completion: Completion::Mbarrier,
        ..Form::NONE
    };
    row!(cvta (bulk_g2s) [CpAsyncBulkG2S::PTX, "cp_async_bulk_g2s"]
        [CpAsyncBulkG2SHint::PTX, "cp_async_bulk_g2s_hint"];
        Variant { space: M::SharedCluster, form: g2s, ..b });
    row!(cvta (bulk_g2s_mc) [CpAsyncBulkG2SMulticast::PTX, "cp_async_bulk_g2s_multicast"]
        [CpAsyncBulkG2SMulticastHint::PTX, "cp_async_bulk_g2s_multicast_hint"];
        Variant { space: M::SharedCluster, form: Form { multicast: true, ..g2s }, ..b });
    let s2g = Form {
        src: M::Shared,
        completion: Completion::BulkGroup,
        ..Form::NONE
    };
    row!(cvta (bulk_s2g) [CpAsyncBulkS2G::PTX, "cp_async_bulk_s2g"]
        [CpAsyncBulkS2GHint::PTX, "cp_async_bulk_s2g_hint"];
        Variant { space: M::Global, form: s2g, ..b });
    row!(none (bulk_s2c) [CpAsyncBulkS2C::PTX, "cp_async_bulk_s2c"];
        Variant { space: M::SharedCluster, form: Form { src: M::Shared, ..g2s }, ..b });
    row!(none (none) [CpAsyncBulkCommitGroup::PTX, "cp_async_bulk_commit_group"];
        Variant { op: "commit_group", ..b });
    row!(none (imm) [CpAsyncBulkWaitGroup::PTX, "cp_async_bulk_wait_group::<N>"];
        Variant { op: "wait_group", ..b });
    row!(none (imm) [CpAsyncBulkWaitGroupRead::PTX, "cp_async_bulk_wait_group_read::<N>"];
        Variant { op: "wait_group.read", ..b });
    row!(cvta (bulk_prefetch) [CpAsyncBulkPrefetch::PTX, "cp_async_bulk_prefetch"]
        [CpAsyncBulkPrefetchHint::PTX, "cp_async_bulk_prefetch_hint"];
        Variant { op: "prefetch.L2", space: M::Global, ..b });
    reduce::catalog_rows(&mut f);
    tensor_reduce::catalog_rows(&mut f);
    im2col::catalog_rows(&mut f);
    macro_rules! tensor_v {
        ($n:literal $d:literal $cs:literal [$($c:ident $i:literal),*]) => {
            let t = Variant {
                family: "cp.async.bulk.tensor",
                // §9.7.9.25.5: PTX 8.0 / sm_90; seed §5.2.
                sm: 90,
                ptx_isa: 80,
                isa: "9.7.9.25.5",
                seed: "5.2",
                form: Form {
                    dim: $n,
                    ..Form::NONE
                },
                ..v
            };
            row!(none (tensor_load $cs)
                [<[i32; $n] as TensorCoords>::PTX_LOAD, concat!("cp_async_bulk_tensor_load::<[i32; ", $n, "], _>")]
                [<[i32; $n] as TensorCoords>::PTX_LOAD_HINT, concat!("cp_async_bulk_tensor_load_hint::<[i32; ", $n, "], _>")];
                Variant { op: "load", space: M::SharedCluster, ..t });
            row!(none (tensor_load_mc $cs)
                [<[i32; $n] as TensorCoords>::PTX_LOAD_MULTICAST, concat!("cp_async_bulk_tensor_load_multicast::<[i32; ", $n, "], _>")]
                [<[i32; $n] as TensorCoords>::PTX_LOAD_MULTICAST_HINT, concat!("cp_async_bulk_tensor_load_multicast_hint::<[i32; ", $n, "], _>")];
                Variant { op: "load.multicast", space: M::SharedCluster, ..t });
            row!(none (tensor_store $cs)
                [<[i32; $n] as TensorCoords>::PTX_STORE, concat!("cp_async_bulk_tensor_store::<[i32; ", $n, "]>")]
                [<[i32; $n] as TensorCoords>::PTX_STORE_HINT, concat!("cp_async_bulk_tensor_store_hint::<[i32; ", $n, "]>")];
                Variant { op: "store", space: M::Global, ..t });
            row!(none (tensor_prefetch $cs)
                [<[i32; $n] as TensorCoords>::PTX_PREFETCH, concat!("cp_async_bulk_prefetch_tensor::<[i32; ", $n, "]>")]
                [<[i32; $n] as TensorCoords>::PTX_PREFETCH_HINT, concat!("cp_async_bulk_prefetch_tensor_hint::<[i32; ", $n, "]>")];
                Variant { op: "prefetch", space: M::Global, ..t });
        };
    }
    for_tensor_dims! { tensor_v }
}
