//! Layer 3, analysis: outcome counting and histograms.

pub mod hist;
