//! `ptx-sync-abi`: the kernel parameter ABI, written once for both sides of a launch.
//!
//! A kernel's parameters are declared once with [`kernel_params!`]: the macro writes the
//! `#[repr(C)]` struct the host fills (device pointers as `u64`, the CUDA `CUdeviceptr`), its
//! [`KernelParams`] table (each field's name, offset and size, taken from the struct itself with
//! `core::mem::offset_of!`, so the table cannot disagree with the layout), a compile-time check
//! that the struct has no padding byte, and on `nvptx64` optionally the kernel's function-pointer
//! type (`unsafe extern "ptx-kernel" fn(...)`, the same fields in the same order with their device
//! types). A kernel crate ties a kernel to the declaration with one line,
//! `const _: ptx_sync_abi::LitmusKernel = my_kernel;` (a signature that differs does not compile),
//! and the host (`ptx_sync_host::cuda`) compares the table field by field with the kernel's
//! `.param` list in the PTX before a launch.
//!
//! PTX lays out a kernel's parameter space in declaration order, each parameter at its own
//! alignment (PTX ISA §5.1.6.1 "Kernel Function Parameters", and the CUDA driver API's
//! `CU_LAUNCH_PARAM_BUFFER_POINTER`: "the parameters ... must be aligned in the buffer as they
//! are in the kernel"): a padding-free `#[repr(C)]` struct of the same fields has exactly that
//! layout.
//!
//! `no_std`, no dependency; the `bytemuck` feature (the host enables it) makes each declared
//! struct `bytemuck::Pod`.
//!
//! ```
//! ptx_sync_abi::kernel_params! {
//!     /// `scale(out: *mut f32, n: u32, k: f32)`.
//!     pub struct ScaleParams {
//!         pub out: *mut f32,
//!         pub n: u32,
//!         pub k: f32,
//!     }
//! }
//! use ptx_sync_abi::KernelParams;
//! let names: Vec<_> = ScaleParams::FIELDS.iter().map(|f| (f.name, f.offset, f.size)).collect();
//! assert_eq!(names, [("out", 0, 8), ("n", 8, 4), ("k", 12, 4)]);
//! let p = ScaleParams { out: 0x1000, n: 3, k: 2.0 };
//! assert_eq!(p.as_bytes().len(), 16);
//! ```
#![no_std]
#![cfg_attr(target_arch = "nvptx64", feature(abi_ptx))]

/// One field of a parameter struct: what the host check compares with one `.param` of the PTX.
///
/// ```
/// use ptx_sync_abi::{Field, KernelParams, Pointee, S5Params};
/// assert_eq!(
///     S5Params::FIELDS[2],
///     Field { name: "status", offset: 16, size: 8, ty: "*mut u32", pointee: Some(Pointee { size: 4, align: 4 }) }
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The field's name in the struct.
    pub name: &'static str,
    /// Its byte offset in the struct (`core::mem::offset_of!`).
    pub offset: usize,
    /// Its size in bytes.
    pub size: usize,
    /// Its device type as declared (`"*mut u32"`, `"u64"`).
    pub ty: &'static str,
    /// For a device pointer (`*const T`, `*mut T`): the size and alignment of `T`; `None` for a
    /// value. The host compares it with the PTX's `.ptr` attribute (PTX ISA §5.1.6.3) and with
    /// the memory the pointer is given at launch.
    pub pointee: Option<Pointee>,
}

/// What a pointer parameter points to: `size_of::<T>()` and `align_of::<T>()` of its `T`.
///
/// ```
/// assert_eq!(<*mut u64 as ptx_sync_abi::Abi>::POINTEE, Some(ptx_sync_abi::Pointee { size: 8, align: 8 }));
/// assert_eq!(<u64 as ptx_sync_abi::Abi>::POINTEE, None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pointee {
    /// `size_of::<T>()`.
    pub size: usize,
    /// `align_of::<T>()`.
    pub align: usize,
}

/// A `#[repr(C)]` parameter struct whose fields, in order, are the kernel's parameters.
///
/// Implemented by [`kernel_params!`]; implement it by hand only as that macro does.
///
/// # Safety
/// `Self` is `#[repr(C)]`, has no padding byte, every field is a plain integer or float (every
/// bit pattern valid), and [`FIELDS`](Self::FIELDS) lists every field in declaration order with
/// its true offset and size.
///
/// ```
/// ptx_sync_abi::kernel_params! { pub struct P { pub a: u64, pub b: u32, pub c: u32 } }
/// use ptx_sync_abi::KernelParams;
/// assert_eq!(P::FIELDS[2].offset, 12);
/// ```
pub unsafe trait KernelParams: Copy + 'static {
    /// The fields, in declaration order.
    const FIELDS: &'static [Field];

    /// The struct's bytes: the kernel's parameter buffer.
    ///
    /// ```
    /// ptx_sync_abi::kernel_params! { pub struct P { pub a: u32, pub b: u32 } }
    /// use ptx_sync_abi::KernelParams;
    /// assert_eq!(P { a: 1, b: 2 }.as_bytes(), [1, 0, 0, 0, 2, 0, 0, 0]);
    /// ```
    fn as_bytes(&self) -> &[u8] {
        // SAFETY: the trait's contract: no padding, so every byte is initialised.
        unsafe {
            core::slice::from_raw_parts(
                self as *const Self as *const u8,
                core::mem::size_of::<Self>(),
            )
        }
    }
}

/// The host representation of a kernel parameter type: integers and floats as themselves,
/// device pointers (`*const T`, `*mut T`: 64-bit on `nvptx64`) as `u64`.
///
/// ```
/// let _: <*mut u32 as ptx_sync_abi::Abi>::Host = 0x7f00_0000_u64;
/// let _: <u32 as ptx_sync_abi::Abi>::Host = 7_u32;
/// ```
///
/// # Safety
/// `Host` is a plain integer or float type with the size and alignment of the device type on
/// `nvptx64`.
pub unsafe trait Abi {
    /// The type of the field in the host struct.
    type Host: Copy + Default + PartialEq + core::fmt::Debug + 'static;
    /// `Some` for a device pointer: what it points to ([`Pointee`]).
    const POINTEE: Option<Pointee> = None;
}

macro_rules! abi_same {
    ($($t:ty)*) => {$(
        // SAFETY: the same type on both sides.
        unsafe impl Abi for $t { type Host = $t; }
    )*};
}
abi_same!(u8 u16 u32 u64 i8 i16 i32 i64 f32 f64);
// SAFETY: nvptx64 pointers are 64-bit, 8-aligned (the `.u64` parameters of the PTX).
unsafe impl<T> Abi for *const T {
    type Host = u64;
    const POINTEE: Option<Pointee> = Some(Pointee {
        size: core::mem::size_of::<T>(),
        align: core::mem::align_of::<T>(),
    });
}
// SAFETY: as above.
unsafe impl<T> Abi for *mut T {
    type Host = u64;
    const POINTEE: Option<Pointee> = Some(Pointee {
        size: core::mem::size_of::<T>(),
        align: core::mem::align_of::<T>(),
    });
}

#[cfg(feature = "bytemuck")]
#[doc(hidden)]
pub use bytemuck;

#[cfg(feature = "bytemuck")]
#[doc(hidden)]
#[macro_export]
macro_rules! __pod {
    ($n:ident) => {
        // SAFETY: kernel_params! asserts that the struct has no padding, and every field is an
        // `Abi::Host` type (integers and floats).
        unsafe impl $crate::bytemuck::Zeroable for $n {}
        // SAFETY: as above.
        unsafe impl $crate::bytemuck::Pod for $n {}
    };
}

#[cfg(not(feature = "bytemuck"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __pod {
    ($n:ident) => {};
}

#[cfg(target_arch = "nvptx64")]
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_ty {
    ($vis:vis [] ($($t:ty),*)) => {};
    ($vis:vis [$k:ident] ($($t:ty),*)) => {
        /// The kernel's function type (the struct's fields as its parameters, in order).
        $vis type $k = unsafe extern "ptx-kernel" fn($($t),*);
    };
}

#[cfg(not(target_arch = "nvptx64"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __kernel_ty {
    ($vis:vis [$($k:ident)?] ($($t:ty),*)) => {};
}

/// Declares kernel parameter structs: `struct Name [as KernelType] { field: DeviceType, ... }`.
///
/// For each: a `#[repr(C)]` struct with the fields' host types ([`Abi::Host`]: pointers become
/// `u64`), deriving `Clone, Copy, Debug, Default, PartialEq`; its [`KernelParams`] impl with the
/// field table; a compile-time assertion that the struct has no padding (add explicit fields, or
/// reorder, until it has none); `bytemuck::Pod` with the `bytemuck` feature; and with
/// `as KernelType`, on `nvptx64` only, `type KernelType = unsafe extern "ptx-kernel" fn(DeviceType, ...)`.
///
/// A field whose name starts with `_` is explicit padding (bytes of the parameter buffer that no
/// `.param` covers): the host check skips it. The `as KernelType` alias lists every field, so a
/// struct with `_` fields declares no alias.
///
/// ```
/// ptx_sync_abi::kernel_params! {
///     pub struct CopyParams { pub src: *const u32, pub dst: *mut u32, pub n: u32, pub _pad: u32 }
/// }
/// assert_eq!(core::mem::size_of::<CopyParams>(), 24);
/// ```
///
/// Padding does not compile:
///
/// ```compile_fail
/// ptx_sync_abi::kernel_params! { pub struct Bad { pub a: u32, pub b: u64 } }
/// ```
#[macro_export]
macro_rules! kernel_params {
    ($(
        $(#[$m:meta])*
        $vis:vis struct $name:ident $(as $kty:ident)? {
            $( $(#[$fm:meta])* $fvis:vis $f:ident : $t:ty ),* $(,)?
        }
    )*) => {$(
        $(#[$m])*
        #[repr(C)]
        #[derive(Clone, Copy, Debug, Default, PartialEq)]
        $vis struct $name {
            $( $(#[$fm])* $fvis $f: <$t as $crate::Abi>::Host, )*
        }
        // SAFETY: repr(C); no padding (asserted below); fields are `Abi::Host` types; the table
        // is taken from the struct with offset_of!/size_of.
        unsafe impl $crate::KernelParams for $name {
            const FIELDS: &'static [$crate::Field] = &[$(
                $crate::Field {
                    name: stringify!($f),
                    offset: ::core::mem::offset_of!($name, $f),
                    size: ::core::mem::size_of::<<$t as $crate::Abi>::Host>(),
                    ty: stringify!($t),
                    pointee: <$t as $crate::Abi>::POINTEE,
                },
            )*];
        }
        const _: () = assert!(
            ::core::mem::size_of::<$name>() == 0 $(+ ::core::mem::size_of::<<$t as $crate::Abi>::Host>())*,
            concat!("kernel_params!: ", stringify!($name), " has padding bytes (reorder the fields or add explicit `_pad` fields)")
        );
        $crate::__pod!($name);
        $crate::__kernel_ty!($vis [$($kty)?] ($($t),*));
    )*};
}

kernel_params! {
    /// The litmus kernels (`host/kernels/src/litmus.rs`): `slots`, `mem`, `locs`, `out`,
    /// `scratch`, `sync` (device pointers), the wait budget, then the run's sizes and seed.
    ///
    /// ```
    /// assert_eq!(core::mem::size_of::<ptx_sync_abi::LitmusParams>(), 80);
    /// ```
    pub struct LitmusParams as LitmusKernel {
        /// Per global thread: `instance * ROLES + role`, or `u32::MAX` for stress.
        pub slots: *const u32,
        /// The variables.
        pub mem: *mut u32,
        /// Per instance: its location index.
        pub locs: *const u32,
        /// Per instance: the output words.
        pub out: *mut u32,
        /// The stress region.
        pub scratch: *mut u32,
        /// Quorum, finished count, timeout counters, start-barrier arrivals, per-instance done
        /// counts.
        pub sync: *mut u32,
        /// The time budget of every wait, ns of `%globaltimer`.
        pub budget_ns: u64,
        /// Instances in the run.
        pub n_instances: u32,
        /// Words between variables.
        pub stride: u32,
        /// Words of the stress region.
        pub scratch_words: u32,
        /// Tester threads.
        pub n_testers: u32,
        /// Stress iterations.
        pub stress_iters: u32,
        /// Seed of the run.
        pub seed: u32,
    }

    /// `deepep_barrier` (`host/kernels/src/deepep.rs`).
    ///
    /// ```
    /// assert_eq!(core::mem::size_of::<ptx_sync_abi::DeepepParams>(), 48);
    /// ```
    pub struct DeepepParams as DeepepKernel {
        /// Per instance and rank, the row of counters.
        pub rows: *mut i32,
        /// Per CTA: `instance << 8 | rank`, or `u32::MAX`.
        pub cta_rank: *const u32,
        /// Per instance: the rank that never arrives, or `u32::MAX`.
        pub missing: *const u32,
        /// Per instance and rank: the result bits.
        pub out: *mut u32,
        /// The wait budget, ns.
        pub budget_ns: u64,
        /// Ranks per instance (≤ 32).
        pub n_ranks: u32,
        /// Instances.
        pub n_instances: u32,
    }

    /// The §5 kernels (`host/kernels/src/section5.rs`): `(src, out, status)`.
    ///
    /// ```
    /// let p = ptx_sync_abi::S5Params { src: 0x1000, out: 0x2000, status: 0x3000 };
    /// assert_eq!(ptx_sync_abi::KernelParams::as_bytes(&p).len(), 24);
    /// ```
    pub struct S5Params as S5Kernel {
        /// The source words.
        pub src: *const u32,
        /// The output words.
        pub out: *mut u32,
        /// The status word: bits of the waits that timed out.
        pub status: *mut u32,
    }

    /// The tiled-copy kernels (`host/kernels/src/tiled_copy.rs`): `(tmap: *const CUtensorMap,
    /// out, width, height, status)`.
    ///
    /// ```
    /// assert_eq!(core::mem::size_of::<ptx_sync_abi::TiledParams>(), 32);
    /// ```
    pub struct TiledParams {
        /// The tensor map, in global memory.
        pub tmap: *const u8,
        /// The output matrix.
        pub out: *mut u32,
        /// Columns.
        pub width: u32,
        /// Rows.
        pub height: u32,
        /// The status word: non-zero when a pipeline wait timed out.
        pub status: *mut u32,
    }

    /// `bench_fence_*` (`host/kernels/src/bench.rs`).
    ///
    /// ```
    /// assert_eq!(core::mem::size_of::<ptx_sync_abi::BenchParams>(), 40);
    /// ```
    pub struct BenchParams as BenchKernel {
        /// Per warp: cycles.
        pub out: *mut u64,
        /// The stored-to buffer.
        pub buf: *mut u32,
        /// The contended word.
        pub hot: *mut u32,
        /// The stop flag.
        pub done: *mut u32,
        /// Iterations.
        pub iters: u32,
        /// Stores per iteration.
        pub stores: u32,
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::vec::Vec;

    #[test]
    fn bundled_layouts() {
        let f = |fs: &[Field]| fs.iter().map(|f| (f.offset, f.size)).collect::<Vec<_>>();
        assert_eq!(core::mem::size_of::<LitmusParams>(), 80);
        assert_eq!(LitmusParams::FIELDS.len(), 13);
        assert_eq!(LitmusParams::FIELDS[6].name, "budget_ns");
        assert_eq!(f(LitmusParams::FIELDS)[7], (56, 4));
        assert_eq!(
            f(DeepepParams::FIELDS),
            [(0, 8), (8, 8), (16, 8), (24, 8), (32, 8), (40, 4), (44, 4)]
        );
        assert_eq!(
            f(TiledParams::FIELDS),
            [(0, 8), (8, 8), (16, 4), (20, 4), (24, 8)]
        );
        assert_eq!(core::mem::size_of::<BenchParams>(), 40);
        assert_eq!(f(S5Params::FIELDS), [(0, 8), (8, 8), (16, 8)]);
    }
}
