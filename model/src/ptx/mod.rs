//! The thread side of the exploration engine: one PTX instruction IR ([`ir`]), one instruction
//! parser ([`parse`]), one interpreter ([`interp`]) — used by the litmus front end (FORMAT parts
//! 1 and 2) and by compiled `.ptx` modules ([`module`], issue #22).
//!
//! A litmus cell and a kernel's instruction go through the same [`parse::parse_line`]; the
//! result runs in an [`interp::Thread`], which implements
//! [`engine::op::Program`](crate::engine::op::Program).

pub mod asm;
pub mod interp;
pub mod ir;
pub mod module;
pub mod parse;

#[cfg(test)]
mod tests;

pub use interp::{Code, Geom, RegInfo, Thread};
