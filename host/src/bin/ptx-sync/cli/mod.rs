//! Layer 5, the command line: argument checks, `ptx-sync build`, `ptx-sync setup` and the guided
//! tour.

pub mod args;
pub mod build_cmd;
pub mod check_cmd;
pub mod setup_cmd;
pub mod tour;
