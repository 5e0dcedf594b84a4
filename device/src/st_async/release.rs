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
//! <!-- generated from device/isa/st_async_release.rows by device/isa/gen: do not edit (cargo xtask isa) -->
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`st_async::release::st_async_release`](crate::st_async::release::st_async_release) | `st.async.release.{gpu,sys}.global.{u16,s16,u32,s32,f32,u64,s64,f64} [g], …;` | 8.7 / sm_100 |
//! | [`st_async::release::st_async_mmio_release`](crate::st_async::release::st_async_mmio_release) | `st.async.mmio.release.sys.global.{u16,s16,u32,s32,f32,u64,s64,f64} [g], …;` | 8.7 / sm_100 |
//! | [`st_async::release::red_async_release_add`](crate::st_async::release::red_async_release_add) | `red.async.release.{gpu,sys}.global.add.{u32,s32,u64,s64} [g], …;` | 8.7 / sm_100 |
//! | [`st_async::release::red_async_mmio_release_add`](crate::st_async::release::red_async_mmio_release_add) | `red.async.mmio.release.sys.global.add.{u32,s32,u64,s64} [g], …;` | 8.7 / sm_100 |
//!
//! Host backend (`backend/host/st_async.rs`): the store / addition is a `Release` CPU atomic at
//! once (the scope erased).
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
// imports unused.
#![cfg_attr(target_arch = "nvptx64", allow(unused_imports))]

#[allow(unused_imports)]
use crate::sem::{Gpu, Scope, Sys};

// The four traits and their impls (one per type and scope), with the `asm!` leaves and the
// catalog rows: generated from device/isa/st_async_release.rows.
include!(concat!(env!("OUT_DIR"), "/isa/st_async_release.rs"));

/// Items that exist on the host and in an nvptx64 build for sm_100 at PTX 8.7 (the module docs).
macro_rules! sm100_items {
    ($($item:item)*) => {
        $(
            #[cfg(any(doc, not(target_arch = "nvptx64"), all(target_feature = "sm_100", target_feature = "ptx87")))]
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
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe {
            v.issue(dst)
        }
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
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe {
            StAsyncMmioInstr::issue(v, dst)
        }
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
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe {
            v.issue(dst)
        }
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
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe {
            RedAsyncMmioInstr::issue(v, dst)
        }
    }
}
