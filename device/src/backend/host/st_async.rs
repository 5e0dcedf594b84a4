//! The host arms of `st.async` / `red.async` ([`crate::st_async`], the rows of
//! `device/isa/st_async.rows` and `st_async_release.rows`): the store or reduction happens at
//! issue; the mbarrier forms then perform the complete-tx of their bytes on the peer's barrier
//! as a `Release` RMW (under `--cfg loom` at `.cluster` scope) — the completion the copy engine
//! performs for an async copy. The data itself is plain memory, under loom too (a CPU atomic
//! where the ISA's operation is one), not a model location.

use super::{HostScalar, RmwKind};
use crate::mbarrier::RemoteMbarrier;
use crate::shared::ClusterAddr;
use core::sync::atomic::Ordering::{self, Relaxed, Release};

/// A value the `red.async` reductions and the `.release` forms access atomically: the CPU
/// atomic of its bits over plain memory.
pub(crate) trait Cell: Copy {
    /// An atomic store of `v` at `p` with ordering `o`.
    ///
    /// # Safety
    /// `p` is live and aligned for `Self`.
    unsafe fn store(p: *mut Self, v: Self, o: Ordering);
    /// `*p = f(*p)` as one atomic RMW with ordering `o`.
    ///
    /// # Safety
    /// As [`Cell::store`].
    unsafe fn update(p: *mut Self, o: Ordering, f: impl FnMut(Self) -> Self);
}

macro_rules! cell {
    ($($T:ident $A:ident $B:ident;)*) => {$(
        impl Cell for $T {
            unsafe fn store(p: *mut Self, v: Self, o: Ordering) {
                // SAFETY: the caller keeps this function's contract (its `# Safety`).
                unsafe {
                    core::sync::atomic::$A::from_ptr(p as *mut $B).store(v.to_bits(), o)
                }
            }
            unsafe fn update(p: *mut Self, o: Ordering, mut f: impl FnMut(Self) -> Self) {
                // SAFETY: the caller keeps this function's contract (its `# Safety`).
                unsafe {
                    let _ = core::sync::atomic::$A::from_ptr(p as *mut $B)
                        .fetch_update(o, Relaxed, |x| Some(f($T::from_bits(x)).to_bits()));
                }
            }
        }
    )*};
}

/// The integers' bits are their value.
trait Bits: Sized {
    fn to_bits(self) -> Self {
        self
    }
    fn from_bits(b: Self) -> Self {
        b
    }
}
impl Bits for u16 {}
impl Bits for i16 {}
impl Bits for u32 {}
impl Bits for i32 {}
impl Bits for u64 {}
impl Bits for i64 {}

cell! {
    u16 AtomicU16 u16;
    i16 AtomicI16 i16;
    u32 AtomicU32 u32;
    i32 AtomicI32 i32;
    f32 AtomicU32 u32;
    u64 AtomicU64 u64;
    i64 AtomicI64 i64;
    f64 AtomicU64 u64;
}

/// `st.async…mbarrier::complete_tx::bytes [dst], v, [bar]`: the store of `v` (`bytes` wide),
/// then the complete-tx of `bytes` on `bar`. A misaligned `dst` panics.
///
/// # Safety
/// `dst` points to live memory of `T`, `bar` to a live `Mbarrier`.
pub(crate) unsafe fn st<T: Copy, Tag>(
    dst: ClusterAddr,
    v: T,
    bytes: u32,
    bar: RemoteMbarrier<'_, Tag>,
) {
    let what = "st.async: the address must be aligned to the stored size (PTX ISA §9.7.9.12)";
    // SAFETY: the caller's contract; `dst` checked aligned first.
    with_complete_tx(dst, bytes, bar, what, || unsafe {
        core::ptr::write(dst.0 as *mut T, v)
    });
}

/// Panics with `misaligned` unless `dst` is aligned to `bytes`; then `access`, then the
/// complete-tx of `bytes` on `bar` (the async store's order: the data, then the barrier).
fn with_complete_tx<Tag>(
    dst: ClusterAddr,
    bytes: u32,
    bar: RemoteMbarrier<'_, Tag>,
    misaligned: &str,
    access: impl FnOnce(),
) {
    assert!(dst.0.is_multiple_of(bytes as usize), "{misaligned}");
    access();
    bar.local().h_complete_tx(bytes);
}

/// `red.async.relaxed.cluster…complete_tx::bytes.op.type [dst], v, [bar]`: a relaxed CPU atomic
/// RMW with the PTX operation's arithmetic (`k`), then the complete-tx of `bytes` on `bar`. A
/// misaligned `dst` panics.
///
/// # Safety
/// As [`st`].
pub(crate) unsafe fn red<T: Cell + HostScalar, Tag>(
    dst: ClusterAddr,
    v: T,
    k: RmwKind,
    bytes: u32,
    bar: RemoteMbarrier<'_, Tag>,
) {
    let what = "red.async: the address must be aligned to the operand (PTX ISA §9.7.13.7)";
    // SAFETY: the caller's contract; `dst` checked aligned first.
    with_complete_tx(dst, bytes, bar, what, || unsafe {
        T::update(dst.0 as *mut T, Relaxed, |x| T::h_apply(k, x, v))
    });
}

/// `st.async{.mmio}.release.scope.global.type [p], v`: a `Release` store (the scope erased).
///
/// # Safety
/// `p` is live and aligned for `T`.
pub(crate) unsafe fn release_store<T: Cell>(p: *mut T, v: T) {
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { T::store(p, v, Release) }
}

/// `red.async{.mmio}.release.scope.global.add.type [p], v`: a `Release` wrapping addition.
///
/// # Safety
/// As [`release_store`].
pub(crate) unsafe fn release_add<T: Cell + HostScalar>(p: *mut T, v: T) {
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { T::update(p, Release, |x| T::h_apply(RmwKind::Add, x, v)) }
}
