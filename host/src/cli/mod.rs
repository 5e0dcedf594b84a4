//! Layer 5, the command line: argument checks and the guided tour.

pub mod args;
pub mod tour;
