//! Layer 1, the program registry: every program of the seed as data (kernel, roles, seed
//! section, expected verdict) and how an instance's output words become an outcome.

pub mod programs;
