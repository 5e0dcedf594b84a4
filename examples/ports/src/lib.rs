//! Three kernels ported from CUDA C++ (`cuda/*.cu`) to `ptx_sync::prelude`, one per module:
//! a shared-memory histogram with atomics, a two-CTA flag hand-off, a shared-memory tree
//! reduction. README.md counts their lines against the CUDA C++.
#![cfg_attr(target_arch = "nvptx64", no_std)]
#![cfg_attr(target_arch = "nvptx64", feature(abi_ptx))]

pub mod block_sum;
pub mod flag_handoff;
pub mod histogram;
