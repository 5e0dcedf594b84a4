//! [`kernel!`](macro@crate::kernel): one definition of a kernel for the GPU and for CPU tests.
//!
//! A CUDA `__global__` function is the kernel; a Rust kernel crate needs the body as a function
//! its CPU tests can call (`index::launch` runs it on host threads)
//! **and** an nvptx64 entry point (`#[no_mangle] extern "ptx-kernel"`). Written by hand that is
//! a wrapper of five lines per kernel (the `docs/guide.md` shape); `kernel!` writes both from
//! one function:
//!
//! | target | what `kernel! { pub unsafe fn k(args) { body } }` defines |
//! |---|---|
//! | nvptx64 | `#[no_mangle] pub unsafe extern "ptx-kernel" fn k(args) { body }`: the `.entry k` of the PTX module (PTX ISA §11.4.1 `.entry`) |
//! | host (and `--cfg loom`) | `pub unsafe fn k(args) { body }`: what the CPU test calls inside `index::launch` |
//!
//! The kernel crate enables `abi_ptx` on nvptx64 (`#![cfg_attr(target_arch = "nvptx64", no_std,
//! feature(abi_ptx))]`, one line), as for a hand-written entry point. Parameters are what the
//! ABI passes: scalars and raw pointers (a reference or a slice is not a kernel parameter).
//!
//! No instruction of its own: the function's body is the kernel's.

/// Defines a kernel once for both targets: on nvptx64 the `extern "ptx-kernel"` entry point
/// named as the function (`#[unsafe(no_mangle)]`), elsewhere the same function as a plain
/// `unsafe fn` (or `fn`) for CPU tests (see the [module docs](mod@crate::kernel)). Doc comments and
/// attributes go on both.
///
/// No instruction of its own (PTX ISA §11.4.1 `.entry`: the kernel the driver launches).
///
/// ```
/// use ptx_sync::prelude::*;
///
/// kernel! { pub unsafe fn add_one(x: *mut u32, n: u32) {
///     grid_stride(n).for_each(|i| *x.add(i) += 1);
/// }}
///
/// // On the host, the body on CPU threads (each index once across the grid):
/// let mut v = vec![1u32; 10];
/// let p = v.as_mut_ptr() as usize; // raw pointers are not `Sync`: pass the address
/// launch(Dim3::x(2), Dim3::x(3), 0, || unsafe { add_one(p as *mut u32, 10) });
/// assert_eq!(v, [2; 10]);
/// ```
#[macro_export]
macro_rules! kernel {
    ($(#[$m:meta])* $vis:vis unsafe fn $name:ident($($arg:ident : $ty:ty),* $(,)?) $body:block) => {
        $(#[$m])*
        #[cfg(not(target_arch = "nvptx64"))]
        $vis unsafe fn $name($($arg: $ty),*) $body

        $(#[$m])*
        #[cfg(target_arch = "nvptx64")]
        #[unsafe(no_mangle)]
        $vis unsafe extern "ptx-kernel" fn $name($($arg: $ty),*) $body
    };
    ($(#[$m:meta])* $vis:vis fn $name:ident($($arg:ident : $ty:ty),* $(,)?) $body:block) => {
        $(#[$m])*
        #[cfg(not(target_arch = "nvptx64"))]
        $vis fn $name($($arg: $ty),*) $body

        $(#[$m])*
        #[cfg(target_arch = "nvptx64")]
        #[unsafe(no_mangle)]
        $vis extern "ptx-kernel" fn $name($($arg: $ty),*) $body
    };
}
