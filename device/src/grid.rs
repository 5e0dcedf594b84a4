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
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`griddepcontrol_wait`] | `griddepcontrol.wait;` | 7.8 / sm_90 |
//! | [`griddepcontrol_launch_dependents`] | `griddepcontrol.launch_dependents;` | 7.8 / sm_90 |
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

use crate::instr::instr;
#[cfg(target_arch = "nvptx64")]
use core::arch::asm;

/// The table of `griddepcontrol` rows. One row per instruction:
///
/// ```text
/// /// doc
/// rust_fn: Marker = "op", sm N, ptx X.Y, isa "§", seed "§";
/// ```
///
/// From each row: the marker `Marker: Instr`, the `pub fn rust_fn()` whose `asm!` pastes the
/// mnemonic `griddepcontrol.op`, the catalog row and an entry of the exported list `ptx_sync::griddepcontrol_rows!(leaf)`
/// (`leaf!(rust_fn)` per row), which the catalog kernels instantiate.
macro_rules! grid_rows {
    (($d:tt) $( $(#[$m:meta])* $f:ident: $Name:ident = $op:literal,
       sm $sm:literal, ptx $ptx:literal, isa $isa:literal, seed $seed:literal; )*) => {
        $( grid_rows! { @row ($(#[$m])*) $f $Name (concat!("griddepcontrol.", $op)) $sm $ptx $isa $seed } )*
        grid_rows! { @list ($d) $( $f $Name $op $sm $ptx $isa $seed; )* }
    };
    (@row ($(#[$m:meta])*) $f:ident $Name:ident ($($mn:tt)*) $sm:literal $ptx:literal $isa:literal $seed:literal) => {
            instr! {
                #[doc = concat!("The marker of `", $($mn)*, ";` (see [`", stringify!($f), "`]).")]
                $Name = ($($mn)*);
                fn exec() => m {
                    // Not `nomem`: the wait makes the prerequisite grids' writes visible.
                    asm!($crate::instr::asm_text!(none; (none); m!()), options(nostack, preserves_flags));
                }
            }
            $(#[$m])*
            ///
            #[doc = concat!("Emits `", $($mn)*, ";` — sm_", $sm, ", PTX ", stringify!($ptx),
                            "; PTX ISA §", $isa, ", seed §", $seed, ".")]
            /// Host and `--cfg loom`: a compiler fence (no programmatic dependent launch on the CPU).
            ///
            /// ```
            #[doc = concat!("ptx_sync::grid::", stringify!($f), "();")]
            #[doc = concat!("assert_eq!(<ptx_sync::grid::", stringify!($Name),
                            " as ptx_sync::instr::Instr>::PTX, \"", $($mn)*, "\");")]
            /// ```
            #[inline(always)]
            pub fn $f() {
                crate::instr::exec_or!($Name, {
                    let _ = <$Name as crate::instr::Instr>::PTX;
                    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
                })
            }
    };
    (@list ($d:tt) $( $f:ident $Name:ident $op:literal $sm:literal $ptx:literal $isa:literal $seed:literal; )*) => {
        /// The catalog rows of `griddepcontrol`.
        #[cfg(not(target_arch = "nvptx64"))]
        const GRID_ROWS: &[crate::catalog::Variant] = &[$(
            crate::instr::plain_row!("griddepcontrol", <$Name as crate::instr::Instr>::PTX,
                concat!("grid::", stringify!($f), "()");
                sm $sm, ptx $ptx, isa $isa, seed $seed, op: $op)
        ),*];

        /// The row list of `griddepcontrol`: `griddepcontrol_rows!(leaf)` calls `leaf!(rust_fn)` per row.
        #[doc(hidden)]
        #[macro_export]
        macro_rules! griddepcontrol_rows {
            ($d leaf:ident) => { $( $d leaf!($f); )* };
        }
    };
}

grid_rows! { ($)
    /// Waits until all prerequisite grids of this grid have completed and their memory
    /// operations are performed and visible to this grid (programmatic dependent launch). Call
    /// it before the first access that depends on a prerequisite's results. Without the launch
    /// attribute the grid starts after its prerequisites completed and the wait returns at once.
    griddepcontrol_wait: GriddepcontrolWait = "wait",
        sm 90, ptx 7.8, isa "9.7.13.13", seed "1";
    /// Signals that the dependents of this grid may be scheduled once every CTA of this grid
    /// has executed it or completed. It orders no memory: the dependents still call
    /// [`griddepcontrol_wait`] before reading this grid's results.
    griddepcontrol_launch_dependents: GriddepcontrolLaunchDependents = "launch_dependents",
        sm 90, ptx 7.8, isa "9.7.13.13", seed "1";
}

/// Catalog rows of this module (`ptx-sync show`).
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) fn catalog_rows(f: &mut dyn FnMut(crate::catalog::Variant)) {
    for r in GRID_ROWS {
        f(*r);
    }
}
