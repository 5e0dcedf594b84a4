//! The CUDA C++ (libcu++) twin of the kernel compiles with nvcc, and the line counts of
//! examples/README.md are the current ones.
#[path = "../../common/cuda.rs"]
mod common;

#[test]
fn the_cuda_twin_compiles_to_ptx_with_the_same_synchronization() {
    let ptx = common::nvcc_ptx(&common::here().join("cuda/handoff.cu"));
    assert!(ptx.contains(".entry handoff_kernel("), "{ptx}");
    // The PTX the Rust kernel emits for the same three accesses (PTX ISA §9.7.13.x grammar).
    for insn in ["st.release.gpu", "ld.acquire.gpu", ".release.gpu"] {
        assert!(ptx.contains(insn), "nvcc's PTX lacks {insn}");
    }
}

#[test]
fn readme_reports_the_line_counts() {
    common::check_loc("handoff", "src/lib.rs", "cuda/handoff.cu");
}
