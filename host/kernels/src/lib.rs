//! Kernels of ptx-sync, written against the `ptx-sync` API.
//!
//! Built by `cargo xtask ptx` for `nvptx64-nvidia-cuda`: without features into `kernels.ptx`
//! (the seed's programs, the SASS-fact kernels, the comparisons with CUDA C++), with the
//! `catalog` feature into `catalog.ptx` (every instruction variant, for ptxas acceptance), with
//! `catalog_arch` and `-Ctarget-cpu=sm_90a` / `sm_100a` into `catalog_sm90a.ptx` /
//! `catalog_sm100a.ptx` (the architecture-specific rows).
#![no_std]
#![feature(abi_ptx, asm_experimental_arch)]
#![allow(clippy::missing_safety_doc)]

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // `trap` aborts the kernel; the host reports the launch failure with the program's name.
    unsafe { core::arch::asm!("trap;", options(noreturn)) }
}

#[cfg(feature = "catalog")]
mod catalog;

#[cfg(feature = "catalog_arch")]
mod catalog_arch;
#[cfg(feature = "catalog")]
mod catalog_async;
#[cfg(not(any(feature = "catalog", feature = "catalog_arch")))]
mod deepep;
#[cfg(not(any(feature = "catalog", feature = "catalog_arch")))]
mod facts;
#[cfg(not(any(feature = "catalog", feature = "catalog_arch")))]
mod litmus;
#[cfg(not(any(feature = "catalog", feature = "catalog_arch")))]
mod rt;
#[cfg(not(any(feature = "catalog", feature = "catalog_arch")))]
mod section5;
#[cfg(not(any(feature = "catalog", feature = "catalog_arch")))]
mod tiled_copy;
// The sm_90a / sm_100a operations compared with CUDA C++ (device/tests/cpp_compare.rs).
#[cfg(not(any(feature = "catalog", feature = "catalog_arch")))]
mod abi_check;
#[cfg(not(any(feature = "catalog", feature = "catalog_arch")))]
mod bench;
#[cfg(feature = "catalog")]
mod catalog_blackwell;
#[cfg(feature = "catalog_arch")]
mod facts_arch;
// The seed's programs at model-check size (`ptx-sync check`, issue #22).
#[cfg(not(any(feature = "catalog", feature = "catalog_arch")))]
mod kcheck;
// The planted bugs of issue #22 as small kernels of their own (`ptx-sync check`).
#[cfg(not(any(feature = "catalog", feature = "catalog_arch")))]
mod kcheck_planted;
