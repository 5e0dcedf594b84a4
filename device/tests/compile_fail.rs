//! One compile-fail case per illegal-combination rule (tests/ui/*.rs, each names its rule), with
//! the expected compiler message in the `.stderr` next to it. `ptxas_catalog.rs` checks that
//! ptxas rejects the same instructions. Regenerate messages with `TRYBUILD=overwrite` after a
//! deliberate change and review them.

#[test]
fn illegal_combinations_do_not_compile() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
