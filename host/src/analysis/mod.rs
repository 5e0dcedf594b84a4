//! Layer 3, analysis: outcome counting and histograms, and the PTX of a program read from its
//! compiled kernel.

pub mod hist;
pub mod kernel_ptx;
