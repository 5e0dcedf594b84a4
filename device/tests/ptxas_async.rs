//! The compile-fail rules of the async families (tests/ui/async) are the PTX ISA's: ptxas 13.0
//! (sm_90) rejects each instruction the types reject, and accepts the controls — including
//! `mbarrier.arrive.release.cta.shared::cluster.b64`, the seed §5.4 bug, which is legal PTX
//! (it compiles and does not synchronize with a waiter in another CTA), so the types allow it.
//! Needs the PTX tools (`cargo xtask setup`).

mod common;
use common::*;

#[test]
fn ptxas_agrees_with_the_async_type_rules() {
    for legal in [
        "mbarrier.arrive.release.cta.shared::cta.b64 %rd2, [%r1];",
        "mbarrier.arrive.release.cta.shared::cluster.b64 _, [%r1];",
        "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r1];",
        "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p1, [%r1], %r2;",
        "mbarrier.expect_tx.relaxed.cluster.shared::cta.b64 [%r1], 16;",
        "cp.async.cg.shared::cta.global [%r1], [%rd1], 16;",
        "barrier.cluster.wait.acquire.aligned;",
        "barrier.cluster.arrive.relaxed.aligned;",
    ] {
        assert!(
            ptxas_accepts(legal),
            "control: ptxas rejects legal `{legal}`"
        );
    }
    for illegal in [
        "mbarrier.arrive.acquire.cta.shared::cta.b64 %rd2, [%r1];", // arrive_acquire
        "mbarrier.arrive.acquire.cluster.shared::cluster.b64 _, [%r1];", // remote_arrive_acquire
        "mbarrier.try_wait.parity.release.cta.shared::cta.b64 %p1, [%r1], %r2;", // try_wait_release
        "mbarrier.arrive.release.gpu.shared::cta.b64 %rd2, [%r1];", // arrive_gpu_scope
        "mbarrier.expect_tx.relaxed.sys.shared::cta.b64 [%r1], 16;", // expect_tx_sys
        "cp.async.cg.shared::cta.global [%r1], [%rd1], 4;",         // cp_async_cg_4
        "barrier.cluster.wait.release.aligned;",                    // cluster_wait_release
        "barrier.cluster.arrive.acquire.aligned;",                  // cluster_arrive_acquire
        "cp.async.bulk.prefetch.tensor.6d.L2.global.tile [%rd1, {%r1, %r1, %r1, %r1, %r1, %r1}];", // tensor_6d
    ] {
        assert!(
            !ptxas_accepts(illegal),
            "ptxas accepts `{illegal}`, which the types reject"
        );
    }
}
