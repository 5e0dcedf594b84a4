//! The async families' catalog rows, shared by the string tests (`strings_async.rs`,
//! `rows_async.rs`).
#![allow(dead_code)]

use ptx_sync::catalog::{for_each_variant, Variant};

/// The async families: spelled in `strings_async.rs` (the access families in `strings.rs`).
pub const ASYNC: &[&str] = &[
    "bar",
    "barrier",
    "barrier.cluster",
    "mapa",
    "getctarank",
    "elect.sync",
    "mbarrier",
    "fence.proxy.async",
    "fence.proxy.tensormap::generic",
    "fence.mbarrier_init",
    "fence.proxy.alias",
    "fence.sync_restrict",
    "fence.proxy.async::generic",
    "tensormap.cp_fenceproxy",
    "prefetch.tensormap",
    "createpolicy",
    "griddepcontrol",
    "membar",
    "nanosleep",
    "cp.async",
    "cp.async.bulk",
    "cp.reduce.async.bulk",
    "cp.async.bulk.tensor",
    "cp.reduce.async.bulk.tensor",
    "st.async",
    "red.async",
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
