//! The exploration engine: threads (any [`op::Program`]) run against the PTX memory model.
//!
//! [`op`] is the seam between a thread's interpreter and the engine.

pub mod op;
