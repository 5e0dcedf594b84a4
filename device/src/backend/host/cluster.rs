//! The host's (and `--cfg loom`'s) clusters: the per-CTA copies of a `.shared::cta` variable that
//! a [`ClusterShared`] declares, which the host arms of `mapa`, `getctarank` and the multicast
//! copies read ([`peer`], [`rank`]).

/// Host: the per-CTA copies of the variables that [`ClusterShared`] guards (id, size in bytes,
/// base address per cluster rank).
static HOST_CLUSTER: std::sync::Mutex<std::vec::Vec<(usize, usize, std::vec::Vec<usize>)>> =
    std::sync::Mutex::new(std::vec::Vec::new());

fn host_lookup<R>(a: usize, f: impl FnOnce(usize, &[usize]) -> R) -> Option<R> {
    let v = HOST_CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    v.iter()
        .find_map(|(_, n, bases)| {
            let r = bases.iter().position(|&b| a >= b && a < b + n)?;
            Some((a - bases[r], bases.as_slice()))
        })
        .map(|(off, bases)| f(off, bases))
}

/// Host: the address of the CTA of rank `rank`'s copy of the variable holding `a`, if a
/// [`ClusterShared`] declares one (the host's `mapa`).
pub(crate) fn peer(a: usize, rank: u32) -> Option<usize> {
    host_lookup(a, |off, bases| bases.get(rank as usize).map(|b| b + off)).flatten()
}

/// Host: the rank of the CTA whose copy of a [`ClusterShared`] variable holds `a`.
pub(crate) fn rank(a: usize) -> Option<u32> {
    host_lookup(a, |off, bases| {
        bases.iter().position(|&b| b + off == a).map(|r| r as u32)
    })
    .flatten()
}

/// Host (and `--cfg loom`) models of a cluster: owns one object per CTA of the cluster and
/// declares object `r` as the copy in the CTA of cluster rank `r` of one `.shared::cta`
/// variable, for as long as the guard lives. The host has one address space (a variable of a
/// `shared_array!` has one address), so a model of several CTAs allocates one object per CTA and
/// declares them here: then [`mapa`](crate::cluster::mapa) / [`mapa_generic`](crate::cluster::mapa_generic) of an address in rank `r`'s copy, with
/// rank `q`, give the same offset in rank `q`'s copy (so
/// [`Mbarrier::remote`](crate::Mbarrier::remote) reaches the peer CTA's barrier),
/// [`getctarank`](crate::cluster::getctarank) gives `r`, and
/// [`cp_async_bulk_g2s_with`](crate::copy::cp_async_bulk_g2s_with) with `Mods::multicast` into
/// such a copy
/// writes the copy of every CTA of its mask and completes the transaction bytes on each CTA's
/// copy of the barrier (the barrier declared too; PTX ISA §9.7.9.25.4: "copied to the same CTA-
/// relative offset as `dstMem` in the shared memory of each destination CTA", the mbarrier
/// "signaled is also at the same CTA-relative offset"). Addresses outside every declared
/// variable keep the host's cluster of one CTA (`mapa` the identity).
///
/// The guard **owns** the copies (they are reached by indexing it: `g[r]`, a slice of the
/// copies), so every view made from a copy — a [`RemoteMbarrier`](crate::RemoteMbarrier) of
/// `g[0].remote(1)`, which points at `g[1]` — borrows the guard and cannot outlive the copy
/// it points to: dropping the guard while such a view lives does not compile. Memory that is
/// not one Rust object (a `model::Tile`'s) is declared with the `unsafe`
/// [`from_raw`](Self::from_raw) (`T = ()`).
///
/// No instruction (the host's stand-in for the cluster's distributed shared memory window,
/// PTX ISA §9.7.9.22, §9.7.9.25.4). Seed §5.4.
///
/// # Examples
///
/// ```
/// use ptx_sync::{cluster::{ClusterShared, getctarank}, Mbarrier, Phase, Release, Acquire, Cluster};
/// // CTA 0's and CTA 1's copy of one barrier variable.
/// let bars = ClusterShared::new([Mbarrier::<()>::new(), Mbarrier::new()]);
/// let (a, b) = (&bars[0], &bars[1]);
/// a.init(1);
/// b.init(1);
/// b.remote(0).arrive::<Release, Cluster>(); // mapa: CTA 1's `b` → CTA 0's `a`
/// assert!(a.try_wait_parity::<Acquire, Cluster>(Phase::ZERO));
/// assert!(!b.try_wait_parity::<Acquire, Cluster>(Phase::ZERO));
/// assert_eq!(getctarank(a.remote(1).addr()), 1);
/// ```
///
/// A view of a peer's copy cannot outlive the guard that owns the copy:
///
/// ```compile_fail
/// use ptx_sync::{cluster::ClusterShared, Mbarrier, Release, Cluster};
/// let r;
/// {
///     let bars = ClusterShared::new([Mbarrier::<()>::new(), Mbarrier::new()]);
///     r = bars[0].remote(1); // points at bars[1]
/// } // `bars` dropped here while `r` still borrows it
/// r.arrive::<Release, Cluster>();
/// ```
pub struct ClusterShared<T = ()> {
    id: usize,
    /// The copies, one per CTA (`len` of them; none for [`from_raw`](Self::from_raw)): a raw
    /// allocation, so that moving the guard moves no copy and retags nothing (the declared
    /// addresses stay valid, also for Miri's aliasing models).
    ptr: core::ptr::NonNull<T>,
    len: usize,
    _own: core::marker::PhantomData<T>,
}

// SAFETY: the guard owns its copies as a `Box<[T]>` would.
unsafe impl<T: Send> Send for ClusterShared<T> {}
unsafe impl<T: Sync> Sync for ClusterShared<T> {}

impl<T> ClusterShared<T> {
    /// Takes `per_cta[r]` as CTA rank `r`'s copy of one variable (each `size_of::<T>()` bytes)
    /// and declares them until the guard is dropped; the copies are `self[r]`.
    ///
    /// No instruction. Seed §5.4.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::cluster::{mapa_generic, ClusterShared};
    /// let g = ClusterShared::new([[0u32; 4], [0u32; 4]]);
    /// assert_eq!(mapa_generic(g[0].as_ptr(), 1), g[1].as_ptr() as *mut u32);
    /// let a = g[0].as_ptr() as usize;
    /// drop(g);
    /// assert_eq!(mapa_generic(a as *const u32, 1) as usize, a); // undeclared: the identity
    /// ```
    pub fn new<const N: usize>(per_cta: [T; N]) -> Self {
        let layout = std::alloc::Layout::new::<[T; N]>();
        let ptr = if layout.size() == 0 {
            core::ptr::NonNull::<T>::dangling()
        } else {
            // SAFETY: `layout` has a non-zero size.
            let p = unsafe { std::alloc::alloc(layout) } as *mut [T; N];
            if p.is_null() {
                std::alloc::handle_alloc_error(layout)
            }
            // SAFETY: `p` is a fresh allocation for `[T; N]`.
            unsafe { p.write(per_cta) };
            // SAFETY: not null (checked above).
            unsafe { core::ptr::NonNull::new_unchecked(p as *mut T) }
        };
        // `as usize` exposes the allocation's provenance: `mapa` rebuilds pointers into it.
        let bases: std::vec::Vec<usize> = (0..N)
            .map(|r| unsafe { ptr.as_ptr().add(r) } as usize)
            .collect();
        ClusterShared {
            id: declare(core::mem::size_of::<T>(), &bases),
            ptr,
            len: N,
            _own: core::marker::PhantomData,
        }
    }
}

impl ClusterShared {
    /// Declares `bytes` bytes at `bases[r]` as CTA rank `r`'s copy (for memory that is not one
    /// Rust object, such as a `model::Tile`'s); the guard owns nothing (`self` is an empty
    /// slice).
    ///
    /// # Safety
    /// Each range stays valid (not moved, not freed) while the guard lives **and** while any
    /// view reached through the declaration lives (a [`RemoteMbarrier`](crate::RemoteMbarrier)
    /// made by `remote` from an address in a declared range points into another range). The
    /// ranges must not overlap another declared variable.
    ///
    /// No instruction. Seed §5.4.
    ///
    /// # Examples
    ///
    /// ```
    /// let (a, b) = ([0u8; 16], [0u8; 16]);
    /// let bases = [a.as_ptr() as usize, b.as_ptr() as usize];
    /// let _g = unsafe { ptx_sync::cluster::ClusterShared::from_raw(16, &bases) };
    /// ```
    pub unsafe fn from_raw(bytes: usize, bases: &[usize]) -> Self {
        ClusterShared {
            id: declare(bytes, bases),
            ptr: core::ptr::NonNull::dangling(),
            len: 0,
            _own: core::marker::PhantomData,
        }
    }
}

/// Adds a declaration of `bytes` bytes at each of `bases` to [`HOST_CLUSTER`]; returns its id.
fn declare(bytes: usize, bases: &[usize]) -> usize {
    use core::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    let mut v = HOST_CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    v.push((id, bytes.max(1), bases.to_vec()));
    id
}

impl<T> core::ops::Deref for ClusterShared<T> {
    type Target = [T];
    /// The copies: `self[r]` is CTA rank `r`'s.
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialised copies (or `len == 0`), owned by `self`.
        unsafe { core::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> Drop for ClusterShared<T> {
    fn drop(&mut self) {
        // Undeclared first: no `mapa` reaches the copies once they are dropped.
        {
            let mut v = HOST_CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
            v.retain(|e| e.0 != self.id);
        }
        if self.len == 0 {
            return;
        }
        let layout = std::alloc::Layout::array::<T>(self.len).expect("the layout `new` used");
        // SAFETY: `ptr` holds `len` initialised copies, allocated by `new` with this layout (a
        // `[T; len]`) unless it has size 0; nothing borrows them any more (`&mut self`).
        unsafe {
            core::ptr::drop_in_place(core::ptr::slice_from_raw_parts_mut(
                self.ptr.as_ptr(),
                self.len,
            ));
            if layout.size() != 0 {
                std::alloc::dealloc(self.ptr.as_ptr() as *mut u8, layout);
            }
        }
    }
}
