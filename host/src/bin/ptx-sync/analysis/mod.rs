//! Layer 2, analysis: outcome counting and histograms, and the PTX of a program read from its
//! compiled kernel. The library's analysis (`ptx_sync_host::analysis`: SASS reading, the PTX
//! control-flow graph, `show --ptx`, the SASS cost table) is its own folder, `host/src/analysis`.

pub mod hist;
pub mod kernel_ptx;
pub mod litmus_obs;
