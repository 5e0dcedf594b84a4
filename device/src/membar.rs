//! `membar.level` — the old-style memory barrier, the PTX ISA's synonym of `fence.sc` at a scope.
//!
//! PTX ISA §9.7.13.4 (`membar`/`fence`): `membar.level;` with `.level = { .cta, .gl, .sys }`;
//! "on sm_70 and higher `membar` is a synonym for `fence.sc`", with `.cta` ↔ `.cta`, `.gl` ↔
//! `.gpu`, `.sys` ↔ `.sys` (and no `.cluster` level: `membar::<Cluster>()` does not compile).
//! Seed §2 and §3.6: `fence.sc` is the one fence that orders W→R. Offered so that code ported
//! from CUDA's `__threadfence*()` era (which emitted `membar`) maps one to one; new code can use
//! [`fence::<Sc, _>`](crate::fence()) — same SASS (`MEMBAR.SC.*`).
//!
//! | call | PTX | same as | PTX ISA / SM |
//! |---|---|---|---|
//! | [`membar::<Cta>`](membar) | `membar.cta;` | `fence.sc.cta;` | 1.4 / sm_20 (fence.sc semantics from sm_70) |
//! | [`membar::<Gpu>`](membar) | `membar.gl;` | `fence.sc.gpu;` | 1.4 / sm_20 |
//! | [`membar::<Sys>`](membar) | `membar.sys;` | `fence.sc.sys;` | 2.0 / sm_20 |
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

use crate::sem::tok;
use crate::sem::{Cta, Gpu, Scope, Sys};
#[cfg(target_arch = "nvptx64")]
use core::arch::asm;

/// `membar.level` for one scope.
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "PTX has no `membar` level for scope `{Self}`",
    label = "not a membar level",
    note = "PTX ISA §9.7.13.4: `.level = {{.cta, .gl, .sys}}` (Cta, Gpu, Sys); use `fence::<Sc, Cluster>()` for the cluster"
)]
pub unsafe trait MembarInstr: Scope {
    /// The exact instruction text without the `;`, e.g. `"membar.gl"`.
    const PTX: &'static str;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    fn exec();
}

/// The membar table: one row per level — the scope marker, the `tok!` of its level (`Gl` is
/// `.gl`, membar's spelling of the `.gpu` level), the row's floors. Exported as the row list
/// `ptx_sync::membar_rows!(leaf)` (`leaf! { Scope Level, sm N, ptx X.Y }` per row), which the
/// catalog kernels instantiate.
#[doc(hidden)]
#[macro_export]
macro_rules! membar_rows {
    ($leaf:ident) => {
        $leaf! { Cta Cta, sm 20, ptx 1.4 }
        $leaf! { Gpu Gl, sm 20, ptx 1.4 }
        $leaf! { Sys Sys, sm 20, ptx 2.0 }
    };
}

macro_rules! membar_leaf {
    ($Sco:ident $L:ident, sm $sm:literal, ptx $ptx:literal) => {
        membar_leaf! { @ (concat!("membar", tok!($L))) $Sco }
    };
    (@ ($($mn:tt)*) $Sco:ident) => {
        unsafe impl MembarInstr for $Sco {
            const PTX: &'static str = $($mn)*;
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            fn exec() {
                unsafe { asm!(crate::instr::asm_text!(none; (none); $($mn)*), options(nostack, preserves_flags)) }
            }
        }
    };
}
crate::membar_rows! { membar_leaf }

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
    #[cfg(target_arch = "nvptx64")]
    Sco::exec();
    #[cfg(not(target_arch = "nvptx64"))]
    crate::fence::fence::<crate::sem::Sc, Sco>();
}

#[allow(unused)]
fn _markers(_: (Cta, Gpu, Sys)) {}

/// Catalog rows of this module (`ptx-sync show`).
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) fn catalog_rows(f: &mut dyn FnMut(crate::catalog::Variant)) {
    use crate::catalog::Marker as M;
    macro_rules! row {
        ($Sco:ident $L:ident, sm $sm:literal, ptx $ptx:literal) => {
            f(crate::instr::plain_row!("membar", <$Sco as MembarInstr>::PTX,
                concat!("membar::membar::<", stringify!($Sco), ">()");
                sm $sm, ptx $ptx, isa "9.7.13.4", seed "3.6", scope: M::$Sco));
        };
    }
    crate::membar_rows! { row }
}
