//! Shared memory on the host (also under loom): a `.shared` address is the generic address
//! itself, the conversions are the identity, a `shared_array!` is a static (one copy per
//! simulated CTA inside an `index::launch`) and the dynamic window the CTA's own.

/// The raw value of a shared address: `u32` on the device, `usize` (a host pointer) elsewhere.
pub type RawShared = usize;

/// `.shared::cta` → generic: the address itself.
#[inline(always)]
pub(crate) fn shared_to_generic(a: usize) -> *mut u8 {
    a as *mut u8
}

/// Generic → `.shared::cta`: the address itself.
#[inline(always)]
pub(crate) fn generic_to_shared(p: *const u8) -> usize {
    p as usize
}

/// The calling thread's CTA's dynamic window (empty outside a launch).
#[inline(always)]
pub(crate) fn dyn_smem() -> usize {
    super::cta::dyn_smem()
}

/// `shared_array!`'s declaration: none on the host (the static is in `__ptx_sync_smem_addr!`).
#[doc(hidden)]
#[macro_export]
macro_rules! __ptx_sync_smem_decl {
    ($name:ident, $T:ty, $N:expr, $al:literal) => {};
}

/// `shared_array!`'s address: an aligned static, per simulated CTA inside an `index::launch`.
#[doc(hidden)]
#[macro_export]
macro_rules! __ptx_sync_smem_addr {
    ($name:ident, $T:ty, $N:expr, $al:literal) => {{
        #[repr(C, align($al))]
        struct Store(::core::cell::UnsafeCell<::core::mem::MaybeUninit<[$T; $N]>>);
        unsafe impl Sync for Store {}
        static STORE: Store = Store(::core::cell::UnsafeCell::new(
            ::core::mem::MaybeUninit::uninit(),
        ));
        // Per simulated CTA inside an `index::launch`, the static itself outside.
        $crate::shared::SharedAddr($crate::shared::host_cta_static(
            STORE.0.get() as usize,
            ::core::mem::size_of::<Store>(),
        ))
    }};
}

/// `dynamic_smem!`: [`shared::dynamic_smem`](crate::shared::dynamic_smem).
#[doc(hidden)]
#[macro_export]
macro_rules! __ptx_sync_dynamic_smem {
    () => {
        $crate::shared::dynamic_smem()
    };
}
