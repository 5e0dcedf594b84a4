//! The sm_100 forms (PTX 8.7): `st.async{.mmio}.release.{gpu,sys}.global.type [a], b;` and
//! `red.async{.mmio}.release.{gpu,sys}.global.add.type [a], b;` — asynchronous **release** stores
//! and additions to global memory, without an mbarrier.
//!
//! PTX ISA §9.7.9.12 / §9.7.13.7 ("When `.sem` is `.release`"): a strong memory operation with
//! `.release` semantics at `.scope`; `.mmio` only with `.sys`; `.ss` must be `.global`; no
//! completion mechanism ("the completion of the store synchronizes with the end of the CTA").
//! `st.async` types: `.b16/.u16/.s16`, `.b32/.u32/.s32/.f32`, `.b64/.u64/.s64/.f64` (this crate:
//! `u16 i16 u32 i32 f32 u64 i64 f64`; the `.b8/.u8/.s8` forms need an 8-bit register, which
//! `asm!` cannot name, and are not offered); `red.async`: `.add` on `.u32 .s32 .u64 .s64`
//! (the grammar's `.scope = {.gpu, .cluster}` contradicts its notes, "`.gpu` and `.sys` scopes";
//! ptxas 13.0 rejects `.cluster` with `.release` and takes `.gpu`/`.sys`).
//! PTX 8.7, sm_100 (portable: plain sm_100 and sm_100a assemble it; ptxas 13.0 rejects it on
//! sm_90 and at PTX 8.6). On nvptx64 the items exist only in a build for sm_100 at PTX 8.7
//! (`-C target-cpu=sm_100a -C target-feature=+ptx87`; the catalog's `catalog_sm100a` build).
//!
//! Host backend: the store / addition is a `Release` CPU atomic at once (the scope erased).
//!
//! ```
//! use ptx_sync::st_async::release::{st_async_release, red_async_release_add};
//! use ptx_sync::{Gpu, Sys};
//! let (mut x, mut n) = (0u32, 1u64);
//! unsafe { st_async_release::<Gpu, _>(&mut x, 7) };     // st.async.release.gpu.global.u32
//! unsafe { red_async_release_add::<Sys, _>(&mut n, 2) }; // red.async.release.sys.global.add.u64
//! assert_eq!((x, n), (7, 3));
//! ```
// The rows exist on nvptx only with `target_feature = "sm_100"`: an sm_90 build leaves the
// row and host macros below unused.
#![cfg_attr(target_arch = "nvptx64", allow(unused_macros, unused_imports))]

#[allow(unused_imports)]
use crate::instr::{asm_text, with_ops};
#[allow(unused_imports)]
use crate::sem::{tok, Gpu, Scope, Sys};
#[cfg(target_arch = "nvptx64")]
use core::arch::asm;

/// `st.async.release.scope.global.type` for one (type, scope ∈ {`Gpu`, `Sys`}).
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "PTX has no `st.async.release.{Sco}.global` of `{Self}`",
    note = "PTX ISA §9.7.9.12: `.scope = {{ .gpu, .sys }}`, 16/32/64-bit types, no vectors"
)]
pub unsafe trait StAsyncReleaseInstr<Sco: Scope>: super::sealed::Sealed + Copy {
    /// e.g. `"st.async.release.gpu.global.u32"`.
    const PTX: &'static str;
    #[doc(hidden)]
    unsafe fn issue(self, p: *mut Self);
}

/// `st.async.mmio.release.sys.global.type` for one type (`.mmio` requires `.sys`).
///
/// # Safety
/// Implemented only by this crate's table.
pub unsafe trait StAsyncMmioInstr: super::sealed::Sealed + Copy {
    /// e.g. `"st.async.mmio.release.sys.global.u32"`.
    const PTX: &'static str;
    #[doc(hidden)]
    unsafe fn issue(self, p: *mut Self);
}

/// `red.async.release.scope.global.add.type` for one (type, scope ∈ {`Gpu`, `Sys`}).
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "PTX has no `red.async.release.{Sco}.global.add` of `{Self}`",
    note = "PTX ISA §9.7.13.7: `.add` on `.u32 .s32 .u64 .s64`, `.scope = {{ .gpu, .sys }}`"
)]
pub unsafe trait RedAsyncReleaseInstr<Sco: Scope>: super::sealed::Sealed + Copy {
    /// e.g. `"red.async.release.gpu.global.add.u32"`.
    const PTX: &'static str;
    #[doc(hidden)]
    unsafe fn issue(self, p: *mut Self);
}

/// `red.async.mmio.release.sys.global.add.type` for one type.
///
/// # Safety
/// Implemented only by this crate's table.
pub unsafe trait RedAsyncMmioInstr: super::sealed::Sealed + Copy {
    /// e.g. `"red.async.mmio.release.sys.global.add.u32"`.
    const PTX: &'static str;
    #[doc(hidden)]
    unsafe fn issue(self, p: *mut Self);
}

/// The `st.async.release` rows: `$leaf! { bits Type "ptx-type" }`. Exported as
/// `ptx_sync::st_async_release_rows!(leaf)` (the `catalog_sm100a` kernel instantiates it).
#[doc(hidden)]
#[macro_export]
macro_rules! st_async_release_rows {
    ($leaf:ident) => {
        $leaf! { 16 u16 "u16" }
        $leaf! { 16 i16 "s16" }
        $leaf! { 32 u32 "u32" }
        $leaf! { 32 i32 "s32" }
        $leaf! { 32 f32 "f32" }
        $leaf! { 64 u64 "u64" }
        $leaf! { 64 i64 "s64" }
        $leaf! { 64 f64 "f64" }
    };
}

/// The `red.async.release` rows (`.add` only): `$leaf! { bits Type "ptx-type" }`. Exported as
/// `ptx_sync::red_async_release_rows!(leaf)`.
#[doc(hidden)]
#[macro_export]
macro_rules! red_async_release_rows {
    ($leaf:ident) => {
        $leaf! { 32 u32 "u32" }
        $leaf! { 32 i32 "s32" }
        $leaf! { 64 u64 "u64" }
        $leaf! { 64 i64 "s64" }
    };
}

macro_rules! st_mn {
    ($mmio:literal $Sco:ident $pt:literal) => {
        concat!(
            "st.async",
            $mmio,
            tok!(Release),
            tok!($Sco),
            tok!(Global),
            ".",
            $pt
        )
    };
}
macro_rules! red_mn {
    ($mmio:literal $Sco:ident $pt:literal) => {
        concat!(
            "red.async",
            $mmio,
            tok!(Release),
            tok!($Sco),
            tok!(Global),
            ".add.",
            $pt
        )
    };
}

/// The asm of one row: the `.global` pointer converted with `cvta` (block `cvta`), the value
/// in the register class of its width.
#[allow(unused_macros)]
macro_rules! rel_asm {
    (16 $key:ident ($($mn:tt)*) $p:ident $v:expr) => {
        asm!(asm_text!(cvta; (st_global16); $($mn)*), gp = in(reg64) $p, h = in(reg16) $v, options(nostack, preserves_flags))
    };
    (32 $key:ident ($($mn:tt)*) $p:ident $v:expr) => {
        asm!(asm_text!(cvta; (st_global); $($mn)*), gp = in(reg64) $p, v = in(reg32) $v, options(nostack, preserves_flags))
    };
    (64 $key:ident ($($mn:tt)*) $p:ident $v:expr) => {
        asm!(asm_text!(cvta; (st_global64); $($mn)*), gp = in(reg64) $p, w = in(reg64) $v, options(nostack, preserves_flags))
    };
}

/// Host: the CPU atomic of a type's bits and the conversions.
macro_rules! host_atomic {
    (u16) => {
        core::sync::atomic::AtomicU16
    };
    (i16) => {
        core::sync::atomic::AtomicI16
    };
    (u32) => {
        core::sync::atomic::AtomicU32
    };
    (i32) => {
        core::sync::atomic::AtomicI32
    };
    (f32) => {
        core::sync::atomic::AtomicU32
    };
    (u64) => {
        core::sync::atomic::AtomicU64
    };
    (i64) => {
        core::sync::atomic::AtomicI64
    };
    (f64) => {
        core::sync::atomic::AtomicU64
    };
}
macro_rules! host_bits {
    (f32 $v:expr) => {
        $v.to_bits()
    };
    (f64 $v:expr) => {
        $v.to_bits()
    };
    ($t:ident $v:expr) => {
        $v
    };
}
macro_rules! host_ptr {
    (f32 $p:expr) => {
        $p as *mut u32
    };
    (f64 $p:expr) => {
        $p as *mut u64
    };
    ($t:ident $p:expr) => {
        $p
    };
}

/// One row's impl of one of the four traits: the `PTX` text, and `issue` (the table's inline PTX
/// on nvptx64, `$host` on the host) — the one place the four forms' backends are chosen.
macro_rules! rel_impl {
    ($Tr:path, $T:ident, $bits:tt, ($($mn:tt)*), |$s:ident, $p:ident| $host:expr) => {
        #[cfg(any(not(target_arch = "nvptx64"), all(target_feature = "sm_100", target_feature = "ptx87")))]
        unsafe impl $Tr for $T {
            const PTX: &'static str = $($mn)*;
            #[inline(always)]
            unsafe fn issue(self, p: *mut Self) {
                #[cfg(target_arch = "nvptx64")]
                {
                    let a = p as u64;
                    rel_asm!($bits k ($($mn)*) a self)
                }
                #[cfg(not(target_arch = "nvptx64"))]
                {
                    let ($s, $p) = (self, p);
                    $host
                }
            }
        }
    };
}

macro_rules! st_rel_leaf {
    ($bits:tt $T:ident $pt:literal) => {
        st_rel_leaf! { @ $bits $T $pt Gpu }
        st_rel_leaf! { @ $bits $T $pt Sys }
        rel_impl!(StAsyncMmioInstr, $T, $bits, (st_mn!(".mmio" Sys $pt)),
            |v, p| <$T as StAsyncReleaseInstr<Sys>>::issue(v, p));
    };
    (@ $bits:tt $T:ident $pt:literal $Sco:ident) => {
        rel_impl!(StAsyncReleaseInstr<$Sco>, $T, $bits, (st_mn!("" $Sco $pt)),
            |v, p| <host_atomic!($T)>::from_ptr(host_ptr!($T p))
                .store(host_bits!($T v), core::sync::atomic::Ordering::Release));
    };
}
crate::st_async_release_rows! { st_rel_leaf }

macro_rules! red_rel_leaf {
    ($bits:tt $T:ident $pt:literal) => {
        red_rel_leaf! { @ $bits $T $pt Gpu }
        red_rel_leaf! { @ $bits $T $pt Sys }
        rel_impl!(RedAsyncMmioInstr, $T, $bits, (red_mn!(".mmio" Sys $pt)),
            |v, p| <$T as RedAsyncReleaseInstr<Sys>>::issue(v, p));
    };
    (@ $bits:tt $T:ident $pt:literal $Sco:ident) => {
        rel_impl!(RedAsyncReleaseInstr<$Sco>, $T, $bits, (red_mn!("" $Sco $pt)),
            |v, p| {
                let _ = <host_atomic!($T)>::from_ptr(p)
                    .fetch_add(v, core::sync::atomic::Ordering::Release);
            });
    };
}
crate::red_async_release_rows! { red_rel_leaf }

/// Items that exist on the host and in an nvptx64 build for sm_100 at PTX 8.7 (the module docs).
macro_rules! sm100_items {
    ($($item:item)*) => {
        $(
            #[cfg(any(not(target_arch = "nvptx64"), all(target_feature = "sm_100", target_feature = "ptx87")))]
            $item
        )*
    };
}

sm100_items! {
    /// `st.async.release.scope.global.type [dst], v;` — an asynchronous release store to global
    /// memory at scope `Sco` ∈ {[`Gpu`], [`Sys`]}; `T` ∈ {`u16`, `i16`, `u32`, `i32`, `f32`, `u64`,
    /// `i64`, `f64`}. PTX 8.7, sm_100; PTX ISA §9.7.9.12; seed §3.5 (a release store). SASS: not
    /// recorded in the repo.
    ///
    /// # Safety
    /// `dst` is a generic address in the `.global` window (undefined behaviour otherwise, PTX ISA
    /// §9.7.9.12), aligned to and valid for `T`. Host: a live, aligned `T`.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::st_async::release::{st_async_release, StAsyncReleaseInstr};
    /// use ptx_sync::Sys;
    /// let mut x = 0.0f64;
    /// unsafe { st_async_release::<Sys, _>(&mut x, 1.5) };
    /// assert_eq!(x, 1.5);
    /// assert_eq!(<i16 as StAsyncReleaseInstr<Sys>>::PTX, "st.async.release.sys.global.s16");
    /// ```
    ///
    /// ```compile_fail
    /// // `.cluster` is not a scope of the release form (PTX ISA §9.7.9.12)
    /// unsafe { ptx_sync::st_async::release::st_async_release::<ptx_sync::Cluster, _>(&mut 0u32, 1) };
    /// ```
    #[inline(always)]
    pub unsafe fn st_async_release<Sco: Scope, T: StAsyncReleaseInstr<Sco>>(dst: *mut T, v: T) {
        v.issue(dst)
    }

    /// `st.async.mmio.release.sys.global.type [dst], v;` — [`st_async_release`] as an mmio operation
    /// (PTX ISA §8 "mmio operation"; `.mmio` requires `.sys`). PTX 8.7, sm_100; PTX ISA §9.7.9.12;
    /// seed §3.5. SASS: not recorded in the repo. Host: as `st_async_release::<Sys, _>`.
    ///
    /// # Safety
    /// As [`st_async_release`]; `dst` an mmio location as the program requires.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::st_async::release::{st_async_mmio_release, StAsyncMmioInstr};
    /// let mut x = 0u32;
    /// unsafe { st_async_mmio_release(&mut x, 3) };
    /// assert_eq!(x, 3);
    /// assert_eq!(<u32 as StAsyncMmioInstr>::PTX, "st.async.mmio.release.sys.global.u32");
    /// ```
    #[inline(always)]
    pub unsafe fn st_async_mmio_release<T: StAsyncMmioInstr>(dst: *mut T, v: T) {
        StAsyncMmioInstr::issue(v, dst)
    }

    /// `red.async.release.scope.global.add.type [dst], v;` — an asynchronous release addition to
    /// global memory at scope `Sco` ∈ {[`Gpu`], [`Sys`]}; `T` ∈ {`u32`, `i32`, `u64`, `i64`}. PTX
    /// 8.7, sm_100; PTX ISA §9.7.13.7; seed §4.5. SASS: not recorded in the repo.
    ///
    /// # Safety
    /// As [`st_async_release`].
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::st_async::release::{red_async_release_add, RedAsyncReleaseInstr};
    /// use ptx_sync::Gpu;
    /// let mut n = -1i64;
    /// unsafe { red_async_release_add::<Gpu, _>(&mut n, 5) };
    /// assert_eq!(n, 4);
    /// assert_eq!(<i64 as RedAsyncReleaseInstr<Gpu>>::PTX, "red.async.release.gpu.global.add.s64");
    /// ```
    ///
    /// ```compile_fail
    /// // red.async.release adds only integers
    /// unsafe { ptx_sync::st_async::release::red_async_release_add::<ptx_sync::Gpu, _>(&mut 0f32, 1.0) };
    /// ```
    #[inline(always)]
    pub unsafe fn red_async_release_add<Sco: Scope, T: RedAsyncReleaseInstr<Sco>>(dst: *mut T, v: T) {
        v.issue(dst)
    }

    /// `red.async.mmio.release.sys.global.add.type [dst], v;` — [`red_async_release_add`] as an
    /// mmio operation (`.mmio` requires `.sys`). PTX 8.7, sm_100; PTX ISA §9.7.13.7; seed §4.5.
    /// SASS: not recorded in the repo. Host: as `red_async_release_add::<Sys, _>`.
    ///
    /// # Safety
    /// As [`st_async_release`].
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::st_async::release::{red_async_mmio_release_add, RedAsyncMmioInstr};
    /// let mut n = 1u32;
    /// unsafe { red_async_mmio_release_add(&mut n, 1) };
    /// assert_eq!(n, 2);
    /// assert_eq!(<u32 as RedAsyncMmioInstr>::PTX, "red.async.mmio.release.sys.global.add.u32");
    /// ```
    #[inline(always)]
    pub unsafe fn red_async_mmio_release_add<T: RedAsyncMmioInstr>(dst: *mut T, v: T) {
        RedAsyncMmioInstr::issue(v, dst)
    }
}

/// Catalog rows of the sm_100 forms (`ptx-sync show`): portable sm_100 rows
/// (`Variant::sm` = 100, PTX 8.7), built in `catalog_sm100a`.
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) fn catalog_rows(f: &mut dyn FnMut(crate::catalog::Variant)) {
    use crate::catalog::{Family, Marker as M, Variant};
    let base = Variant {
        sem: M::Release,
        space: M::Global,
        sm: 100,
        ptx_isa: 87,
        ..Variant::of(Family::StAsyncRelease)
    };
    macro_rules! st_row {
        ($bits:tt $T:ident $pt:literal) => {
            st_row!(@@ $T "" Gpu (<$T as StAsyncReleaseInstr<Gpu>>::PTX) concat!("st_async::release::st_async_release::<Gpu, ", stringify!($T), ">"), $bits);
            st_row!(@@ $T "" Sys (<$T as StAsyncReleaseInstr<Sys>>::PTX) concat!("st_async::release::st_async_release::<Sys, ", stringify!($T), ">"), $bits);
            st_row!(@@ $T "mmio" Sys (<$T as StAsyncMmioInstr>::PTX) concat!("st_async::release::st_async_mmio_release::<", stringify!($T), ">"), $bits);
        };
        (@@ $T:ident $op:literal $Sco:ident ($ptx:expr) $rust:expr, 16) => {
            f(with_ops!(cvta; (st_global16); Variant { family: Family::StAsyncRelease, op: $op, ty: stringify!($T), scope: M::$Sco, ptx: $ptx, rust: $rust, isa: "9.7.9.12", seed: "3.5", ..base }))
        };
        (@@ $T:ident $op:literal $Sco:ident ($ptx:expr) $rust:expr, 32) => {
            f(with_ops!(cvta; (st_global); Variant { family: Family::StAsyncRelease, op: $op, ty: stringify!($T), scope: M::$Sco, ptx: $ptx, rust: $rust, isa: "9.7.9.12", seed: "3.5", ..base }))
        };
        (@@ $T:ident $op:literal $Sco:ident ($ptx:expr) $rust:expr, 64) => {
            f(with_ops!(cvta; (st_global64); Variant { family: Family::StAsyncRelease, op: $op, ty: stringify!($T), scope: M::$Sco, ptx: $ptx, rust: $rust, isa: "9.7.9.12", seed: "3.5", ..base }))
        };
    }
    crate::st_async_release_rows! { st_row }
    macro_rules! red_row {
        ($bits:tt $T:ident $pt:literal) => {
            red_row!(@@ $T "add" Gpu (<$T as RedAsyncReleaseInstr<Gpu>>::PTX) concat!("st_async::release::red_async_release_add::<Gpu, ", stringify!($T), ">"), $bits);
            red_row!(@@ $T "add" Sys (<$T as RedAsyncReleaseInstr<Sys>>::PTX) concat!("st_async::release::red_async_release_add::<Sys, ", stringify!($T), ">"), $bits);
            red_row!(@@ $T "mmio.add" Sys (<$T as RedAsyncMmioInstr>::PTX) concat!("st_async::release::red_async_mmio_release_add::<", stringify!($T), ">"), $bits);
        };
        (@@ $T:ident $op:literal $Sco:ident ($ptx:expr) $rust:expr, 32) => {
            f(with_ops!(cvta; (st_global); Variant { family: Family::RedAsyncRelease, op: $op, ty: stringify!($T), scope: M::$Sco, ptx: $ptx, rust: $rust, isa: "9.7.13.7", seed: "4.5", ..base }))
        };
        (@@ $T:ident $op:literal $Sco:ident ($ptx:expr) $rust:expr, 64) => {
            f(with_ops!(cvta; (st_global64); Variant { family: Family::RedAsyncRelease, op: $op, ty: stringify!($T), scope: M::$Sco, ptx: $ptx, rust: $rust, isa: "9.7.13.7", seed: "4.5", ..base }))
        };
    }
    crate::red_async_release_rows! { red_row }
}
