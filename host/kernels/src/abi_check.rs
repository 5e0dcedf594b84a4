//! Each kernel's signature against its parameter struct in `ptx-sync-abi` (the struct the host
//! fills): a kernel whose parameters differ in type or order from the declaration does not
//! compile. The litmus and bench kernels are tied inside their defining macros.

use ptx_sync_abi::{DeepepKernel, S5Kernel};

const _: DeepepKernel = crate::deepep::deepep_barrier;

const _: [S5Kernel; 9] = [
    crate::section5::s51_cp_async_bug,
    crate::section5::s51_cp_async_fix,
    crate::section5::s52_tma_bug,
    crate::section5::s52_tma_fix,
    crate::section5::s53_reuse_bug,
    crate::section5::s53_reuse_fix,
    crate::section5::s54_cluster_cta,
    crate::section5::s54_cluster_fix,
    crate::section5::s54_init_bug,
];
