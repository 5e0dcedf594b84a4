//! The CUDA C++ (libcu++) twin of the kernel compiles with nvcc, and the line counts of
//! examples/README.md are the current ones.
#[path = "../../common/cuda.rs"]
mod common;

#[test]
fn the_cuda_twin_compiles_to_ptx_with_the_same_synchronization() {
    let ptx = common::nvcc_ptx(&common::here().join("cuda/reduction.cu"));
    assert!(ptx.contains(".entry reduce_kernel("), "{ptx}");
    // The ticket (PTX ISA §9.7.13.5 `atom{.sem}{.scope}.add`; libcu++ writes the operation
    // first, `atom.add.acq_rel.gpu`, the Rust kernel `atom.acq_rel.gpu.add`), the barrier, the
    // dynamic shared-memory window.
    for insn in ["atom.add.acq_rel.gpu.u32", "bar.sync", ".extern .shared"] {
        assert!(ptx.contains(insn), "nvcc's PTX lacks {insn}");
    }
}

#[test]
fn readme_reports_the_line_counts() {
    common::check_loc("reduction", "src/lib.rs", "cuda/reduction.cu");
}
