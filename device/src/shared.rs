//! Shared memory: static `.shared` arrays, the dynamic `.extern .shared` window, and the three
//! address forms (generic, `.shared::cta`, `.shared::cluster`).
//!
//! PTX ISA §5.1.5 (shared state space), §9.7.9.21 (`cvta`), §9.7.9.22 (`mapa`, in
//! [`cluster`](crate::cluster)). Seed §5 (`data`, `full`, `empty` live in shared memory).
//!
//! Rust statics cannot be placed in address space 3, so [`shared_array!`](crate::shared_array)
//! declares the array in PTX with `global_asm!(".shared .align A .b8 SYM[BYTES];")` and reads its
//! address with `mov.u32 r, SYM;` (a 32-bit `.shared::cta` address). The async instructions
//! (`mbarrier`, `cp.async`, `cp.async.bulk`) take such **typed 32-bit addresses**
//! ([`SharedAddr`], [`ClusterAddr`]), never generic pointers; [`to_shared`] converts a generic
//! pointer with `cvta.to.shared::cta.u64` + `cvt.u32.u64` (one pure asm, so the compiler may
//! reuse it).
//!
//! | from → to | PTX | PTX ISA / SM |
//! |---|---|---|
//! | generic → `.shared::cta` ([`to_shared`]) | `cvta.to.shared::cta.u64`, `cvt.u32.u64` | 7.8 / sm_90 |
//! | `.shared::cta` → generic ([`SharedAddr::to_generic`]) | `cvt.u64.u32`, `cvta.shared::cta.u64` | 7.8 / sm_90 |
//! | own `.shared::cta` → `.shared::cluster` ([`SharedAddr::to_cluster`]) | none (same value, PTX ISA §5.1.5) | 7.8 / sm_90 |
//! | `.shared::cta` → a peer CTA's `.shared::cluster` | `mapa.shared::cluster.u32` ([`crate::cluster::mapa`]) | 7.8 / sm_90 |
//!
//! On the host a [`SharedAddr`] is the generic address itself (a `usize`), [`shared_array!`](crate::shared_array) is a
//! plain static, and the conversions are the identity.

pub use crate::backend::RawShared;

/// A 32-bit address in the executing CTA's `.shared::cta` window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(transparent)]
pub struct SharedAddr(pub RawShared);

/// A 32-bit address in the cluster's `.shared::cluster` window (any CTA of the cluster).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(transparent)]
pub struct ClusterAddr(pub RawShared);

impl SharedAddr {
    /// The address `bytes` further on.
    ///
    /// ```
    /// use ptx_sync::shared::SharedAddr;
    /// assert_eq!(SharedAddr(0x100).offset(8), SharedAddr(0x108));
    /// ```
    #[inline(always)]
    pub const fn offset(self, bytes: u32) -> Self {
        SharedAddr(self.0 + bytes as RawShared)
    }
    /// The raw value.
    ///
    /// ```
    /// assert_eq!(ptx_sync::shared::SharedAddr(0x40).raw(), 0x40);
    /// ```
    #[inline(always)]
    pub const fn raw(self) -> RawShared {
        self.0
    }
    /// This CTA's own `.shared::cta` address is a valid `.shared::cluster` address of the same
    /// location (PTX ISA §5.1.5): no instruction.
    ///
    /// ```
    /// use ptx_sync::shared::{ClusterAddr, SharedAddr};
    /// assert_eq!(SharedAddr(0x80).to_cluster(), ClusterAddr(0x80));
    /// ```
    #[inline(always)]
    pub const fn to_cluster(self) -> ClusterAddr {
        ClusterAddr(self.0)
    }
    /// Back to a generic pointer: `cvt.u64.u32` + `cvta.shared::cta.u64` (PTX 7.8, sm_90).
    /// Host: the address itself.
    ///
    /// ```
    /// let x = 5u32;
    /// let a = ptx_sync::shared::to_shared(&x);
    /// assert_eq!(a.to_generic::<u32>() as *const u32, &x as *const u32);
    /// ```
    #[inline(always)]
    pub fn to_generic<T>(self) -> *mut T {
        crate::backend::shared_to_generic(self.0) as *mut T
    }
}

impl ClusterAddr {
    /// The address `bytes` further on.
    ///
    /// ```
    /// use ptx_sync::shared::ClusterAddr;
    /// assert_eq!(ClusterAddr(0x100).offset(4).raw(), 0x104);
    /// ```
    #[inline(always)]
    pub const fn offset(self, bytes: u32) -> Self {
        ClusterAddr(self.0 + bytes as RawShared)
    }
    /// The raw value.
    ///
    /// ```
    /// assert_eq!(ptx_sync::shared::ClusterAddr(7).raw(), 7);
    /// ```
    #[inline(always)]
    pub const fn raw(self) -> RawShared {
        self.0
    }
}

/// Generic → `.shared::cta`: `cvta.to.shared::cta.u64` then `cvt.u32.u64` (PTX 7.8, sm_90). `p`
/// must point into this CTA's shared memory for the result to mean anything (PTX leaves other
/// inputs undefined); every user of the address is `unsafe` for that reason. Host: identity.
///
/// ```
/// let x = 0u64;
/// assert_eq!(ptx_sync::shared::to_shared(&x).raw(), &x as *const u64 as usize);
/// ```
#[inline(always)]
pub fn to_shared<T>(p: *const T) -> SharedAddr {
    SharedAddr(crate::backend::generic_to_shared(p as *const u8))
}

/// Types that may be handed out as `&T` from uninitialized shared memory
/// ([`SharedArray::get`]): their every access goes through inline PTX or atomics (interior
/// mutability), never a Rust read of the bytes before initialization by the protocol.
///
/// # Safety
/// Implement only for types whose all bit patterns are valid and which are `Sync`.
pub unsafe trait SharedCell: Sync {}
// Not under loom: loom's atomics carry model state that uninitialized memory does not have.
#[cfg(not(loom))]
unsafe impl<Tag> SharedCell for crate::mbarrier::Mbarrier<Tag> {}
#[cfg(not(loom))]
unsafe impl<T: crate::Scalar> SharedCell for crate::Strong<T> {}

/// A static `.shared` array declared with [`shared_array!`](crate::shared_array).
pub trait SharedArray: Copy {
    /// The element type.
    type Elem;
    /// Number of elements.
    const LEN: usize;
    /// The array's `.shared::cta` address (`mov.u32 r, SYM;`).
    fn addr(self) -> SharedAddr;
    /// The generic address of the first element.
    #[inline(always)]
    fn as_ptr(self) -> *mut Self::Elem {
        self.addr().to_generic()
    }
    /// The `.shared::cta` address of element `i` (panics if `i >= LEN`).
    #[inline(always)]
    fn elem_addr(self, i: usize) -> SharedAddr {
        assert!(i < Self::LEN);
        self.addr()
            .offset((i * core::mem::size_of::<Self::Elem>()) as u32)
    }
    /// A shared reference to element `i`, for interior-mutable cells (mbarriers, strong flags);
    /// panics if `i >= LEN`. The lifetime `'k` is the caller's: at most the kernel's run.
    ///
    /// # Safety
    /// The array's storage starts **uninitialised** (as `.shared` memory does, PTX ISA §5.1.5):
    /// the element must be initialised before anything reads it through the reference — an
    /// [`Mbarrier`](crate::Mbarrier) by [`init`](crate::Mbarrier::init) before any other
    /// operation (an mbarrier operation on an uninitialised object is undefined, PTX ISA
    /// §9.7.13.15), a [`Strong`](crate::Strong) by a store before any load or RMW — and the
    /// initialisation must be ordered before the other threads' uses (`bar.sync`, seed §5.4).
    ///
    /// The reference must not be used after the kernel ends: shared memory lives as long as its
    /// CTA (PTX ISA §5.1.5), and on the host a CTA's copy of the array is freed when the
    /// `index::launch` that ran it returns — keep `'k` inside the
    /// kernel body (do not store the reference anywhere that outlives the launch).
    ///
    /// No instruction beyond [`addr`](Self::addr)'s `mov.u32 r, SYM;` and the generic
    /// conversion (`cvta.shared::cta.u64`).
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{shared_array, shared::SharedArray, index::{launch, thread_idx, Dim3}};
    /// use ptx_sync::{barrier::sync_threads, Mbarrier, Phase, Release, Acquire, Cta, wait::Budget};
    /// shared_array!(static BAR: [Mbarrier; 1], align 8);
    /// launch(Dim3::x(2), Dim3::x(2), 0, || {
    ///     // SAFETY: thread 0 inits before `sync_threads`, every use is after it, in the kernel.
    ///     let b = unsafe { BAR.get(0) }; // this CTA's copy
    ///     if thread_idx().x == 0 {
    ///         b.init(2);
    ///     }
    ///     sync_threads();
    ///     let _ = b.arrive::<Release, Cta>();
    ///     assert!(b.wait_parity::<Acquire, Cta>(Phase::ZERO, Budget::iterations(1 << 30)).is_ok());
    /// });
    /// ```
    #[inline(always)]
    unsafe fn get<'k>(self, i: usize) -> &'k Self::Elem
    where
        Self::Elem: SharedCell,
    {
        assert!(i < Self::LEN);
        unsafe { &*self.as_ptr().add(i) }
    }
}

/// Declares a static `.shared` array: `shared_array!(pub static NAME: [T; N], align A);`.
///
/// Device: `global_asm!(".shared .align A .b8 __ptx_sync_smem_NAME[N*size_of T];")` (the name is
/// a PTX module symbol, so it must be unique in the kernel crate), and `NAME` is a unit value
/// implementing [`SharedArray`](crate::shared::SharedArray). Host: a plain aligned static, and
/// inside an `index::launch` (host) one zeroed copy per simulated CTA (as each
/// CTA has its own shared memory on the GPU; alignment up to 1024).
/// The contents start uninitialized (as `.shared` does); hand out references only through
/// the `unsafe` [`SharedArray::get`](crate::shared::SharedArray::get) for [`SharedCell`] types
/// (its contract: initialise before use, and no use after the kernel).
///
/// ```
/// use ptx_sync::{shared_array, Mbarrier, shared::SharedArray};
/// shared_array!(static BARS: [Mbarrier; 4], align 8);
/// // SAFETY: `init` is the first operation on the barrier.
/// let b: &Mbarrier = unsafe { BARS.get(2) };
/// b.init(1);
/// assert_eq!(BARS.elem_addr(1).raw() - BARS.addr().raw(), 8);
/// ```
#[macro_export]
macro_rules! shared_array {
    ($(#[$m:meta])* $vis:vis static $name:ident : [$T:ty; $N:expr], align $al:literal) => {
        $(#[$m])*
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy)]
        $vis struct $name;
        $crate::__ptx_sync_smem_decl!($name, $T, $N, $al);
        impl $crate::shared::SharedArray for $name {
            type Elem = $T;
            const LEN: usize = $N;
            #[inline(always)]
            fn addr(self) -> $crate::shared::SharedAddr {
                $crate::__ptx_sync_smem_addr!($name, $T, $N, $al)
            }
        }
    };
}

/// The PTX declaration of the dynamic shared-memory window, written once: every module that
/// reads the window must contain it (`.extern .shared` cannot be declared in a function body,
/// PTX ISA §5.1.5; repeating it at module scope is allowed).
pub const DYN_SMEM_DECL: &str = crate::__dyn_smem_ptx!(decl);

/// The one text of the window's declaration and of its read (used by the function, the macro
/// and [`DYN_SMEM_DECL`]).
#[doc(hidden)]
#[macro_export]
macro_rules! __dyn_smem_ptx {
    (decl) => {
        ".extern .shared .align 1024 .b8 __ptx_sync_dyn_smem[];"
    };
    (read) => {
        "mov.u32 {a}, __ptx_sync_dyn_smem;"
    };
}

// The declaration is emitted only when asked for: a module that never reads the window has no
// `.extern .shared` (an unused one made ptxas fail for `crate-type = ["cdylib", "rlib"]`).
#[cfg(all(target_arch = "nvptx64", feature = "dynamic-smem"))]
core::arch::global_asm!(crate::__dyn_smem_ptx!(decl));

/// The dynamic shared-memory window: `mov.u32 r, __ptx_sync_dyn_smem;` after the module-scope
/// declaration [`DYN_SMEM_DECL`] (`.extern .shared .align 1024 .b8 __ptx_sync_dyn_smem[];`, PTX
/// ISA §5.1.5, all SMs). Its size is the launch's dynamic shared-memory bytes; it is 1024-byte
/// aligned (what TMA's swizzled boxes need).
///
/// On the device this function exists with the cargo feature **`dynamic-smem`** (which puts the
/// declaration in the module); without the feature use the macro
/// [`dynamic_smem!`](crate::dynamic_smem), which declares it in the calling crate. Host: the
/// window of the calling thread's CTA in an `index::launch` (a CTA of
/// its own, zeroed, `dyn_smem` bytes), or an empty window outside one.
///
/// ```
/// use ptx_sync::index::{launch, Dim3};
/// use ptx_sync::shared::dynamic_smem;
/// launch(Dim3::x(2), Dim3::x(1), 64, || {
///     assert_eq!(dynamic_smem().raw() % 1024, 0);
///     let w = dynamic_smem().to_generic::<u8>();
///     assert_eq!(unsafe { *w.add(63) }, 0); // zeroed, 64 bytes
/// });
/// ```
#[cfg(any(not(target_arch = "nvptx64"), feature = "dynamic-smem", doc))]
#[inline(always)]
pub fn dynamic_smem() -> SharedAddr {
    SharedAddr(crate::backend::dyn_smem())
}

/// The dynamic shared-memory window as a [`SharedAddr`], declared in the **calling** crate:
/// `global_asm!` of [`DYN_SMEM_DECL`] next to the call, then `mov.u32 r, __ptx_sync_dyn_smem;`.
/// Only modules that use it declare the window. The calling crate enables
/// `#![feature(asm_experimental_arch)]` on nvptx64 (the macro's `asm!` expands there). Host:
/// [`shared::dynamic_smem`](crate::shared::dynamic_smem).
///
/// ```
/// use ptx_sync::index::{launch, Dim3};
/// launch(Dim3::x(1), Dim3::x(1), 2048, || {
///     let w: ptx_sync::shared::SharedAddr = ptx_sync::dynamic_smem!();
///     assert_eq!(w.raw() % 1024, 0);
/// });
/// ```
#[macro_export]
macro_rules! dynamic_smem {
    () => {
        $crate::__ptx_sync_dynamic_smem!()
    };
}

/// Host: the calling thread's CTA copy of the `shared_array!` static at `key` (`bytes` long,
/// zeroed at its first use in the CTA), or `key` itself outside an
/// [`index::launch`](crate::index::launch). Used by [`shared_array!`](crate::shared_array).
///
/// ```
/// use ptx_sync::index::{launch, Dim3};
/// static S: u64 = 0;
/// let key = &S as *const u64 as usize;
/// assert_eq!(ptx_sync::shared::host_cta_static(key, 8), key); // outside a launch
/// launch(Dim3::x(2), Dim3::x(1), 0, || assert_ne!(ptx_sync::shared::host_cta_static(key, 8), key));
/// ```
#[cfg(not(target_arch = "nvptx64"))]
#[doc(hidden)]
pub fn host_cta_static(key: usize, bytes: usize) -> usize {
    crate::backend::host::cta::cta_static(key, bytes)
}

/// The whole array as a slice, for [`SharedCell`] element types.
///
/// # Safety
/// As [`SharedArray::get`], for every element: each is initialised before it is read, and the
/// slice is not used after the kernel ends (`'k` stays inside the kernel body).
///
/// ```
/// use ptx_sync::{shared_array, shared::shared_slice, Mbarrier};
/// shared_array!(static BARS: [Mbarrier; 3], align 8);
/// // SAFETY: every barrier is `init`ed before any other use.
/// let bars = unsafe { shared_slice(BARS) };
/// bars.iter().for_each(|b| b.init(1));
/// assert_eq!(bars.len(), 3);
/// ```
pub unsafe fn shared_slice<'k, A: SharedArray>(a: A) -> &'k [A::Elem]
where
    A::Elem: SharedCell,
{
    unsafe { core::slice::from_raw_parts(a.as_ptr(), A::LEN) }
}
