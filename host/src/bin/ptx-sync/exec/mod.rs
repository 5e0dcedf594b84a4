//! Layer 3, execution: the GPU runner of the registry's programs and of litmus files, the CPU
//! runs on std threads, the tiled-copy and fence-benchmark drivers, and `gpu` (the bundled
//! kernels on the library's `ptx_sync_host::cuda`). The library's execution
//! (`ptx_sync_host::exec`: `fencebench`, `litmus_ptx`) is its own folder, `host/src/exec`.

pub mod copy;
pub mod cpu;
pub mod gpu;
pub mod litmus_file;
pub mod runner;
