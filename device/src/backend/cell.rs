//! The native cells of [`Strong`](crate::Strong) and [`Data`](crate::Data) (nvptx64 and host, not
//! `--cfg loom`): the value's own bytes, so that a kernel may view memory as either with
//! `from_ptr`. Their loom counterparts are in `loom.rs`; `mod.rs` selects one set.

use crate::atomic::Scalar;
use core::cell::UnsafeCell;
use core::marker::PhantomData;

/// How an [`AtomicRef`](crate::AtomicRef) holds its location: a generic pointer.
pub(crate) type Loc<'a, T> = (*mut T, PhantomData<&'a T>);

/// A strong location's storage: exactly `T`, aligned to `size_of::<T>()` (an 8-byte PTX access
/// needs 8, also where the host aligns `u64` to 4).
#[repr(C)]
pub(crate) struct StrongCell<T: Scalar> {
    _align: [T::Align; 0],
    v: UnsafeCell<T>,
}

// Every 8-byte location is 8-aligned and as large as its value, on every target.
const _: () = {
    use crate::Strong;
    use core::mem::{align_of, size_of};
    assert!(align_of::<Strong<u64>>() == 8 && size_of::<Strong<u64>>() == 8);
    assert!(align_of::<Strong<i64>>() == 8 && align_of::<Strong<f64>>() == 8);
    assert!(align_of::<Strong<u32>>() == 4 && size_of::<Strong<u32>>() == 4);
};

impl<T: Scalar> StrongCell<T> {
    /// A cell holding `v`.
    pub(crate) const fn new(v: T) -> Self {
        StrongCell {
            _align: [],
            v: UnsafeCell::new(v),
        }
    }
    /// The generic address of the value.
    pub(crate) const fn get(&self) -> *mut T {
        self.v.get()
    }
    /// How an [`AtomicRef`](crate::AtomicRef) holds the location: its address.
    #[inline(always)]
    pub(crate) fn loc(&self) -> Loc<'_, T> {
        (self.get(), PhantomData)
    }
}

/// Ordinary data's storage: the value, read and written with plain (weak) accesses.
#[repr(transparent)]
pub(crate) struct DataCell<T>(UnsafeCell<T>);

impl<T: Copy> DataCell<T> {
    /// A cell holding `v`.
    pub(crate) const fn new(v: T) -> Self {
        DataCell(UnsafeCell::new(v))
    }
    /// The generic address of the value.
    pub(crate) const fn get(&self) -> *mut T {
        self.0.get()
    }
    /// A weak read.
    #[inline(always)]
    pub(crate) unsafe fn read(&self) -> T {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe { core::ptr::read(self.0.get()) }
    }
    /// A weak write.
    #[inline(always)]
    pub(crate) unsafe fn write(&self, v: T) {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe { core::ptr::write(self.0.get(), v) }
    }
}
