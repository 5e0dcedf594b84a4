//! Programmatic dependent launch (PDL): `griddepcontrol.wait`, `griddepcontrol.launch_dependents`.
//!
//! PTX ISA §9.7.13.13 ("Parallel Synchronization and Communication Instructions:
//! griddepcontrol"). A grid launched with the programmatic-dependent-launch attribute (host
//! side: `ptx_sync_host::cuda::LaunchConfig::programmatic_dependent_launch`, which sets
//! `CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION`) may start while the grid before it
//! in the stream (its *prerequisite*) still runs. Two instructions split the dependency:
//!
//! * the prerequisite executes [`griddepcontrol_launch_dependents`] once its dependents may be
//!   *scheduled* — this says nothing about its memory: it is not a release, and the dependent
//!   may not read what the prerequisite wrote after it (or before it);
//! * the dependent executes [`griddepcontrol_wait`] before its first access to the
//!   prerequisite's results: it waits until **all** prerequisite grids have completed and their
//!   memory operations are performed and visible to the current grid. Everything the dependent
//!   does before the wait must not depend on the prerequisite.
//!
//! Seed §1 (hand-off between producers and consumers): PDL is a hand-off between whole grids,
//! where the grid completion, not a flag, is the release.
//!
//! <!-- generated from device/isa/grid.rows by device/isa/gen: do not edit (cargo xtask isa) -->
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`grid::griddepcontrol_wait()`](crate::grid::griddepcontrol_wait) | `griddepcontrol.wait;` | 7.8 / sm_90 |
//! | [`grid::griddepcontrol_launch_dependents()`](crate::grid::griddepcontrol_launch_dependents) | `griddepcontrol.launch_dependents;` | 7.8 / sm_90 |
//!
//! Host and `--cfg loom`: there is no programmatic dependent launch on the CPU (a CPU "grid"
//! that depends on another is started after the other is joined, and the join is what orders its
//! memory), so both are compiler fences and order nothing by themselves.
//!
//! ```
//! use ptx_sync::grid::*;
//! // prerequisite kernel, after its last write the dependent does not read:
//! griddepcontrol_launch_dependents(); // griddepcontrol.launch_dependents;
//! // dependent kernel, before it reads the prerequisite's output:
//! griddepcontrol_wait(); // griddepcontrol.wait;
//! assert_eq!(<GriddepcontrolWait as ptx_sync::instr::Instr>::PTX, "griddepcontrol.wait");
//! ```

// The rows of `device/isa/grid.rows`: the markers with their `asm!` leaves, the catalog rows.
include!(concat!(env!("OUT_DIR"), "/isa/grid.rs"));

/// Waits until all prerequisite grids of this grid have completed and their memory
/// operations are performed and visible to this grid (programmatic dependent launch). Call it
/// before the first access that depends on a prerequisite's results. Without the launch
/// attribute the grid starts after its prerequisites completed and the wait returns at once.
///
/// Emits `griddepcontrol.wait;` — sm_90, PTX 7.8; PTX ISA §9.7.13.13, seed §1. Host and `--cfg
/// loom`: a compiler fence (no programmatic dependent launch on the CPU).
///
/// ```
/// ptx_sync::grid::griddepcontrol_wait();
/// assert_eq!(<ptx_sync::grid::GriddepcontrolWait as ptx_sync::instr::Instr>::PTX, "griddepcontrol.wait");
/// ```
#[inline(always)]
pub fn griddepcontrol_wait() {
    // SAFETY: no operand; the instruction has no precondition.
    unsafe { GriddepcontrolWait::exec() }
}

/// Signals that the dependents of this grid may be scheduled once every CTA of this grid has
/// executed it or completed. It orders no memory: the dependents still call
/// [`griddepcontrol_wait`] before reading this grid's results.
///
/// Emits `griddepcontrol.launch_dependents;` — sm_90, PTX 7.8; PTX ISA §9.7.13.13, seed §1.
/// Host and `--cfg loom`: a compiler fence (no programmatic dependent launch on the CPU).
///
/// ```
/// ptx_sync::grid::griddepcontrol_launch_dependents();
/// assert_eq!(<ptx_sync::grid::GriddepcontrolLaunchDependents as ptx_sync::instr::Instr>::PTX,
///            "griddepcontrol.launch_dependents");
/// ```
#[inline(always)]
pub fn griddepcontrol_launch_dependents() {
    // SAFETY: no operand; the instruction has no precondition.
    unsafe { GriddepcontrolLaunchDependents::exec() }
}
