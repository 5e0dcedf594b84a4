//! Layer 3, analysis: outcome counting and histograms, and the PTX of a program read from its
//! compiled kernel. The library's part of the layer lives in this folder too, declared in
//! `lib.rs` (`ptx_sync_host::analysis`): `sass.rs`, `ptx_cfg.rs`, `inspect.rs`, `costs.rs` (the
//! SASS cost table).

pub mod hist;
pub mod kernel_ptx;
