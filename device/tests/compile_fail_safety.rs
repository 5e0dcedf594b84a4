//! Compile-fail cases of issue #21 (tests/ui/safety/*.rs, each names its rule): a
//! `RemoteMbarrier` to a peer's copy outliving the `ClusterShared` that owns it, a consumer
//! at the producer's state and a producer at the consumers' (pipeline roles are types), a second
//! `consumer_release` of one stage, and a `ConsumerStage` cloned to release it twice. Their
//! run-time halves (and the Miri runs) are in `host_safety.rs`. The expected messages are the
//! `.stderr` files next to them (regenerate with `TRYBUILD=overwrite` after a deliberate change,
//! and review).

#[test]
fn issue_21_misuse_does_not_compile() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/safety/*.rs");
}
