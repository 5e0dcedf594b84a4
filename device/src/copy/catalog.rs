//! The catalog rows of the copies (`ptx-sync show`, the tests): every row of `copy.rs`'s tables
//! and of its submodules, with operands, floors and Rust paths. Host only.

use super::*;
#[allow(unused_imports)]
use crate::instr::{asm_text, with_ops};

/// Catalog rows of this module (`ptx-sync show`). `extra` holds `src=<space>`,
/// `completion=<Mbarrier|BulkGroup>`, `multicast`, `dim=<n>`, or `<CacheOp>:<bytes>[:zfill]`.
pub(crate) fn catalog_rows(f: &mut dyn FnMut(crate::catalog::Variant)) {
    #[allow(unused_imports)]
    use crate::catalog::{Completion, Family, Form, Marker as M, Variant};
    // PTX ISA §9.7.9.25: `cp.async` PTX 7.0 / sm_80, PTX 7.8 for the `.shared::cta` spelling
    // (the rows with a state space); seed §5.1.
    let v = Variant {
        sm: 80,
        ptx_isa: 70,
        isa: "9.7.9.25",
        seed: "5.1",
        ..Variant::of(Family::CpAsync)
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
    // §9.7.9.25.4 (bulk copies, bulk reductions): PTX 8.0 / sm_90; seed §5.2.
    reduce::catalog_rows(&mut f);
    tensor_reduce::catalog_rows(&mut f);
}
