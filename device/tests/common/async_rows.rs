//! The async families' catalog rows, shared by the string tests (`strings_async.rs`,
//! `rows_async.rs`).
#![allow(dead_code)]

use ptx_sync::catalog::{for_each_variant, Family, Variant};

/// The async families: spelled in `strings_async.rs` (the access families in `strings.rs`).
pub const ASYNC: &[Family] = &[
    Family::Bar,
    Family::Barrier,
    Family::BarrierCluster,
    Family::Mapa,
    Family::Getctarank,
    Family::Elect,
    Family::Mbarrier,
    Family::FenceProxyAsync,
    Family::FenceProxyTensormap,
    Family::FenceMbarrierInit,
    Family::FenceProxyAlias,
    Family::FenceSyncRestrict,
    Family::FenceProxyAsyncGeneric,
    Family::TensormapCpFenceproxy,
    Family::PrefetchTensormap,
    Family::Createpolicy,
    Family::Griddepcontrol,
    Family::Membar,
    Family::Nanosleep,
    Family::CpAsync,
    Family::CpAsyncBulk,
    Family::CpReduceAsyncBulk,
    Family::CpAsyncBulkTensor,
    Family::CpReduceAsyncBulkTensor,
    Family::StAsync,
    Family::RedAsync,
];

/// The rows spelled in `strings_arch.rs` instead: the architecture-specific ones (an `a` target
/// or an SM above sm_90) and those of `copy::blackwell`.
pub fn spelled_in_strings_arch(v: &Variant) -> bool {
    v.arch != ptx_sync::catalog::Arch::Base
        || v.sm >= 100
        || v.rust.starts_with("copy::blackwell::")
}

pub fn async_rows() -> Vec<Variant> {
    let mut v = Vec::new();
    for_each_variant(|r| {
        if ASYNC.contains(&r.family) && !spelled_in_strings_arch(&r) {
            v.push(r)
        }
    });
    v
}
