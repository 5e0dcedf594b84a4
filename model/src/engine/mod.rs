//! The exploration engine: threads (any [`op::Program`]) run against the PTX memory model.
//!
//! [`op`] is the seam between a thread's interpreter and the engine; [`explore`] builds the
//! executions; [`axioms`] holds the definitions and axioms of PTX ISA chapter 8; [`mbar`] the
//! mbarrier object; [`asyncop`] the asynchronous operations.

pub mod asyncop;
pub mod axioms;
pub mod bits;
pub mod explore;
pub mod graph;
pub mod litmus;
pub mod mbar;
pub mod op;
