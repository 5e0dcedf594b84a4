//! Layer 2, execution: the GPU runner of the registry's programs and of litmus files, the CPU
//! runs on std threads, the tiled-copy and fence-benchmark drivers, and `gpu` (the bundled
//! kernels on the library's `ptx_sync_host::cuda`). The library's part of the layer lives in this folder too, declared in
//! `lib.rs` (`ptx_sync_host::exec`): `fencebench.rs`, `litmus_ptx.rs`.

pub mod copy;
pub mod cpu;
pub mod gpu;
pub mod litmus_file;
pub mod runner;
