//! Compile-fail cases for the async families (tests/ui/async/*.rs, each names its rule): a token
//! of another barrier type, a parity where a token is expected, `Acquire` on arrive, `Release` on
//! a wait, scopes beyond `.cluster` on mbarrier operations, `cp.async.cg` of 4 bytes, the cluster
//! barrier's semantics, waiting twice on one arrival, a 6-d tensor copy, a pipeline at `.gpu`
//! scope, `pending_count` on an ordinary arrive's token (defined only on a `.noComplete` state,
//! PTX ISA §9.7.13.15.18), a `RemoteMbarrier` outliving its `Mbarrier`, `SharedArray::get` and
//! `fence_proxy_tensormap_acquire` without `unsafe`, `membar` at the cluster scope (no such level), an acquiring or `.gpu` `arrive_drop`, a `sync_restrict` fence with the other semantic/space pairing, `tensormap_cp_fenceproxy` and `prefetch_tensormap` without `unsafe`, `createpolicy` with a priority pair PTX lacks, a `cp.reduce.async.bulk` operator/type pair, element type or destination the ISA's table lacks (`.inc` on `i32`, `u8`, `f32` into `.shared::cluster`), a tensor reduction with `Exch` or `.im2col_no_offs` below 3d, an `.im2col` load of a 2d tensor or with other than `D − 2` offsets, `tensormap.replace` with `ord` 5, a `u64` `.rank`, `.shared::cluster`, a register `field3` value or without `unsafe`, `clusterlaunchcontrol.try_cancel` and the unchecked `get_first_ctaid` without `unsafe`, a gather4 into global memory, a 6-d `.cta_group` load, a `st.async` value or `red.async` op/type outside the ISA's table, either without `unsafe`, the aligned CTA barrier (`NamedBarrier::new_aligned`, `sync_threads_aligned`) without `unsafe` or from the safe `new`, a `.release` `st.async`/`red.async` at another scope than `.gpu`/`.sys` or adding a float, a `cp_async_prefetch` of 8 bytes with `.cg` or with a cache operator as its prefetch size. The expected messages are the `.stderr`
//! files next to them (regenerate with `TRYBUILD=overwrite` after a deliberate change, and
//! review).

#[test]
fn async_misuse_does_not_compile() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/async/*.rs");
}
