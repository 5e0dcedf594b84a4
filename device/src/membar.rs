//! `membar.level` — the old-style memory barrier, the PTX ISA's synonym of `fence.sc` at a scope.
//!
//! PTX ISA §9.7.13.4 (`membar`/`fence`): `membar.level;` with `.level = { .cta, .gl, .sys }`;
//! "on sm_70 and higher `membar` is a synonym for `fence.sc`", with `.cta` ↔ `.cta`, `.gl` ↔
//! `.gpu`, `.sys` ↔ `.sys` (and no `.cluster` level: `membar::<Cluster>()` does not compile).
//! Seed §2 and §3.6: `fence.sc` is the one fence that orders W→R. Offered so that code ported
//! from CUDA's `__threadfence*()` era (which emitted `membar`) maps one to one; new code can use
//! [`fence::<Sc, _>`](crate::fence()) — same SASS (`MEMBAR.SC.*`).
//!
//! <!-- generated from device/isa/membar.rows by device/isa/gen: do not edit (cargo xtask isa) -->
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`membar::membar`](crate::membar::membar) | `membar.{cta,gl};` | 1.4 / sm_20 |
//! | [`membar::membar::<Sys>()`](crate::membar::membar) | `membar.sys;` | 2.0 / sm_20 |
//!
//! Host: `fence::<Sc, Sco>()` (`core::sync::atomic::fence(SeqCst)`); under `--cfg loom` the
//! model's SC fence at the scope — exactly what the instruction is.
//!
//! ```
//! use ptx_sync::{membar::{membar, MembarInstr}, Gpu};
//! membar::<Gpu>(); // membar.gl;
//! assert_eq!(<Gpu as MembarInstr>::PTX, "membar.gl");
//! ```
//!
//! There is no `membar.cluster`:
//!
//! ```compile_fail
//! ptx_sync::membar::membar::<ptx_sync::Cluster>();
//! ```

use crate::sem::Scope;

// The rows of `device/isa/membar.rows`: the trait `MembarInstr` with one impl per level, the
// catalog rows.
include!(concat!(env!("OUT_DIR"), "/isa/membar.rs"));

/// `membar.level;` — `fence.sc` at scope `Sco` (the ISA's synonym, see the module table).
/// `Sco` ∈ {[`Cta`] (`membar.cta`), [`Gpu`] (`membar.gl`), [`Sys`] (`membar.sys`)}; PTX 1.4
/// (`.sys` 2.0), sm_20; PTX ISA §9.7.13.4, seed §2/§3.6. Host: `fence::<Sc, Sco>()`.
///
/// ```
/// ptx_sync::membar::membar::<ptx_sync::Sys>(); // membar.sys;
/// ```
#[inline(always)]
pub fn membar<Sco: MembarInstr>()
where
    crate::sem::Sc: crate::fence::FenceInstr<Sco>,
{
    // SAFETY: no operand; the instruction has no precondition.
    unsafe { Sco::exec() }
}
