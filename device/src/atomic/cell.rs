//! How memory is declared: [`Strong`] locations (flags, counters: accessed through an
//! [`AtomicRef`](super::AtomicRef)) and ordinary [`Data`] (the payload a flag protects).

use super::Scalar;
use crate::backend::{DataCell, StrongCell};
use crate::sem::{Generic, Scope};
use crate::AtomicRef;

/// A strong location: a flag, counter or any word that threads access concurrently (seed §3.1
/// "special" operations). Access it through an [`AtomicRef`] with a scope.
///
/// `#[repr(C)]`, exactly the size of `T` and aligned to it (`align(8)` for the 64-bit types
/// even on a 32-bit host, whose `u64` is 4-aligned: an 8-byte `ld`/`atom` needs 8) on the device
/// and on the host (so a kernel may view global memory as `Strong<T>` with
/// [`Strong::from_ptr`]); under `--cfg loom` it is a loom atomic so that
/// loom explores its interleavings (not the layout of `T` there: it also carries the access
/// history of the scope check, `ptx_sync::model`).
#[repr(C)]
pub struct Strong<T: Scalar> {
    /// The value's bytes, or under loom the scope model's location (`backend::StrongCell`).
    pub(crate) c: StrongCell<T>,
}

// SAFETY: every access goes through strong (atomic) instructions.
unsafe impl<T: Scalar> Sync for Strong<T> {}
unsafe impl<T: Scalar> Send for Strong<T> {}

impl<T: Scalar> Strong<T> {
    crate::backend::const_fn! {
        /// A new strong location holding `v`.
        ///
        /// No instruction: the value is the location's initial contents (a `const fn`, so a
        /// `static` can hold one; a kernel views global memory with [`Strong::from_ptr`] instead).
        /// Under `--cfg loom` it is a location of the scope model and the constructor is not
        /// `const` (it registers with the running model). Seed §3 (special accesses).
        ///
        /// # Examples
        ///
        /// ```
        /// use ptx_sync::{Strong, Gpu, Relaxed};
        /// static HITS: Strong<u32> = Strong::new(0);
        /// HITS.at::<Gpu>().red_add::<Relaxed>(2); // red.relaxed.gpu.add.u32
        /// assert_eq!(HITS.at::<Gpu>().load::<Relaxed>(), 2);
        /// ```
        pub fn new(v: T) -> Self {
            Strong {
                c: StrongCell::new(v),
            }
        }
    }
    /// Views memory at `p` as a strong location (a kernel parameter pointing into global memory).
    ///
    /// # Safety
    /// `p` must be valid for `'a`, aligned to `size_of::<T>()` (8 for the 64-bit types, which
    /// a 32-bit host's `u64` alignment does not give), and accessed only through strong
    /// operations while shared.
    ///
    /// No instruction (a cast). The usual way into global memory: a kernel's `*mut u32` parameter.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, AcqRel, Relaxed};
    /// let mut words = [0u64; 2]; // stands for a kernel parameter pointing into global memory
    /// let w: &Strong<u64> = unsafe { Strong::from_ptr(words.as_mut_ptr()) };
    /// assert_eq!(w.at::<Gpu>().fetch_add::<AcqRel>(7), 0); // atom.acq_rel.gpu.add.u64
    /// assert_eq!(w.at::<Gpu>().load::<Relaxed>(), 7);
    /// ```
    #[cfg(not(loom))]
    pub unsafe fn from_ptr<'a>(p: *mut T) -> &'a Self {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe { &*(p as *const Self) }
    }
    /// The generic address of the location.
    ///
    /// No instruction.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{AtomicRef, Strong, Gpu, Relaxed};
    /// let s = Strong::new(3u32);
    /// let r = unsafe { AtomicRef::<u32, Gpu>::from_ptr(s.as_ptr()) };
    /// assert_eq!((r.load::<Relaxed>(), r.as_ptr()), (3, s.as_ptr()));
    /// ```
    #[cfg(not(loom))]
    pub const fn as_ptr(&self) -> *mut T {
        self.c.get()
    }
    /// An [`AtomicRef`] with scope `Sco` and generic addressing.
    ///
    /// No instruction: the scope is a type, and each access through the view spells it
    /// (`.cta`, `.cluster` (PTX 7.8, sm_90), `.gpu`, `.sys`; seed §4.2: atomicity and ordering
    /// hold only among threads inside the scope). A non-[`Scope`] type does not compile.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Cta, Sys, Release, Generic, atomic::StInstr};
    /// let flag = Strong::new(0u32);
    /// flag.at::<Cta>().store::<Release>(1); // st.release.cta.u32 (SASS MEMBAR.ALL.CTA ST.E.STRONG.SM)
    /// flag.at::<Sys>().store::<Release>(2); // st.release.sys.u32
    /// assert_eq!(<u32 as StInstr<Release, Cta, Generic>>::PTX, "st.release.cta.u32");
    /// assert_eq!(<u32 as StInstr<Release, Sys, Generic>>::PTX, "st.release.sys.u32");
    /// ```
    ///
    /// ```compile_fail
    /// let flag = ptx_sync::Strong::new(0u32);
    /// let _ = flag.at::<ptx_sync::Release>(); // a semantic is not a scope
    /// ```
    pub fn at<Sco: Scope>(&self) -> AtomicRef<'_, T, Sco, Generic> {
        AtomicRef::new(self)
    }
}

/// Ordinary (weak) data: the payload a flag protects (seed §3.1 "ordinary" operations, the
/// `data` of the hand-off). Reads and writes are plain `ld`/`st`.
///
/// Under `--cfg loom` it is a `loom::cell::UnsafeCell`, so an access not ordered by
/// synchronization is reported as a data race — the PTX ISA's data race among weak accesses
/// (§8.7.1).
#[repr(transparent)]
pub struct Data<T> {
    /// The value, or under loom a race-checked cell (`backend::DataCell`).
    v: DataCell<T>,
}

unsafe impl<T: Send> Sync for Data<T> {}
unsafe impl<T: Send> Send for Data<T> {}

impl<T: Copy> Data<T> {
    crate::backend::const_fn! {
        /// New ordinary data.
        ///
        /// No instruction. `Data` is what a flag protects: only weak `ld`/`st` touch it, so every
        /// access must be ordered by a synchronizing pair (seed §3). Under `--cfg loom` it is a
        /// tracked cell, so an unordered access is reported as a data race (PTX ISA §8.7.1), and
        /// the constructor is not `const`.
        ///
        /// # Examples
        ///
        /// ```
        /// static PAYLOAD: ptx_sync::Data<[u32; 4]> = ptx_sync::Data::new([0; 4]);
        /// unsafe { PAYLOAD.write([1, 2, 3, 4]) };
        /// assert_eq!(unsafe { PAYLOAD.read() }[3], 4);
        /// ```
        pub fn new(v: T) -> Self {
            Data {
                v: DataCell::new(v),
            }
        }
    }
    /// Views memory at `p` as ordinary data.
    ///
    /// # Safety
    /// `p` must be valid and aligned for `T` for `'a`.
    ///
    /// No instruction (a cast).
    ///
    /// # Examples
    ///
    /// ```
    /// let mut buf = [0u32; 8]; // a kernel's output buffer
    /// let d: &ptx_sync::Data<[u32; 8]> = unsafe { ptx_sync::Data::from_ptr(&mut buf) };
    /// unsafe { d.write([7; 8]) };
    /// assert_eq!(unsafe { d.read() }, [7; 8]);
    /// ```
    #[cfg(not(loom))]
    pub unsafe fn from_ptr<'a>(p: *mut T) -> &'a Self {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe { &*(p as *const Self) }
    }
    /// The generic address of the data.
    ///
    /// No instruction.
    ///
    /// # Examples
    ///
    /// ```
    /// let d = ptx_sync::Data::new(9u16);
    /// assert_eq!(unsafe { *d.as_ptr() }, 9);
    /// ```
    #[cfg(not(loom))]
    pub const fn as_ptr(&self) -> *mut T {
        self.v.get()
    }
    /// A weak read (`ld`): the value, if the protocol ordered this read after the write it must
    /// see.
    ///
    /// # Safety
    /// No conflicting write may be unordered with this read (that would be a data race, PTX ISA
    /// §8.7.1; loom reports it).
    ///
    /// PTX: a weak `ld.type` (no `.sem`, no `.scope`: PTX ISA §9.7.9.8, sm_20); it can be
    /// reordered, merged or hoisted by ptxas, so it never serves as a flag (seed §3.5). Seed §3
    /// (the data of the hand-off, ordered by an acquire).
    ///
    /// # Examples
    ///
    /// The consumer's side of the hand-off (seed §3), with std threads on the host:
    ///
    /// ```
    /// use ptx_sync::{Data, Strong, Gpu, Acquire, Release, wait::{spin_until, Budget}};
    /// let (data, flag) = (Data::new(0u64), Strong::new(0u32));
    /// std::thread::scope(|s| {
    ///     s.spawn(|| {
    ///         unsafe { data.write(42) };            // st.u64 (weak)
    ///         flag.at::<Gpu>().store::<Release>(1); // st.release.gpu.u32
    ///     });
    ///     s.spawn(|| {
    ///         let ok = spin_until(Budget::iterations(1 << 30), || flag.at::<Gpu>().load::<Acquire>() == 1);
    ///         assert!(ok.is_ok());                  // ld.acquire.gpu.u32 saw the release
    ///         assert_eq!(unsafe { data.read() }, 42); // ordered after the write: no race
    ///     });
    /// });
    /// ```
    #[inline(always)]
    pub unsafe fn read(&self) -> T {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe { self.v.read() }
    }
    /// A weak write (`st`).
    ///
    /// # Safety
    /// No conflicting access may be unordered with this write.
    ///
    /// PTX: a weak `st.type` (PTX ISA §9.7.9.10, sm_20). Publish it with a release store or a
    /// release fence before the flag (seed §3).
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Data, Strong, Gpu, Acquire, Release};
    /// let (data, flag) = (Data::new([0u8; 16]), Strong::new(0u32));
    /// std::thread::scope(|s| {
    ///     s.spawn(|| {
    ///         unsafe { data.write([5; 16]) };       // weak st
    ///         flag.at::<Gpu>().store::<Release>(1); // st.release.gpu.u32 publishes it
    ///     });
    /// });
    /// // The scope joined the thread (a synchronization); an acquire load would be needed otherwise.
    /// assert_eq!(flag.at::<Gpu>().load::<Acquire>(), 1);
    /// assert_eq!(unsafe { data.read() }, [5; 16]);
    /// ```
    #[inline(always)]
    pub unsafe fn write(&self, v: T) {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe { self.v.write(v) }
    }
}
