//! The CUDA C++ (libcu++) twin of the kernel compiles with nvcc, and the line counts of
//! examples/README.md are the current ones.
#[path = "../../common/cuda.rs"]
mod common;

#[test]
fn the_cuda_twin_compiles_to_ptx_with_the_same_synchronization() {
    let ptx = common::nvcc_ptx(&common::here().join("cuda/tiled_copy.cu"));
    for s in 1..=4 {
        assert!(ptx.contains(&format!(".entry tiled_copy_s{s}(")), "{ptx}");
    }
    // The ring's instructions (PTX ISA §9.7.13.15 mbarrier, §9.7.9.25.5 cp.async.bulk.tensor,
    // §9.7.13.4.2 fence.proxy), spelled as the ISA grammar does.
    for insn in [
        "mbarrier.try_wait.parity",
        "mbarrier.arrive.expect_tx.release.cta.shared::cta.b64",
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes",
        "fence.proxy.async.shared::cta",
        "fence.proxy.tensormap::generic.acquire.gpu",
    ] {
        assert!(ptx.contains(insn), "nvcc's PTX lacks {insn}");
    }
}

#[test]
fn readme_reports_the_line_counts() {
    common::check_loc("tiled-copy", "src/lib.rs", "cuda/tiled_copy.cu");
}
