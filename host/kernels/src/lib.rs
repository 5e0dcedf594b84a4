//! Kernels of ptx-sync, written against the `ptx-sync` API.
//!
//! Built by `cargo xtask ptx` for `nvptx64-nvidia-cuda`: without features into `kernels.ptx`
//! (the seed's programs, the SASS-fact kernels, the comparisons with CUDA C++), with the
//! `catalog` feature into `catalog.ptx` (every instruction variant, for ptxas acceptance).
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

#[cfg(not(feature = "catalog"))]
mod facts;
#[cfg(not(feature = "catalog"))]
mod rt;
#[cfg(not(feature = "catalog"))]
mod litmus;
#[cfg(not(feature = "catalog"))]
mod deepep;
#[cfg(not(feature = "catalog"))]
mod section5;
#[cfg(not(feature = "catalog"))]
mod tiled_copy;
#[cfg(feature = "catalog")]
mod catalog_async;
#[cfg(not(feature = "catalog"))]
mod bench;
#[cfg(not(feature = "catalog"))]
mod abi_check;
