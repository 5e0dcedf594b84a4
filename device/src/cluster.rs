//! Thread-block clusters: special registers, `mapa`, `getctarank`, `elect.sync`.
//!
//! PTX ISA §10.13-10.24 (special registers `%cluster_ctarank`, `%cluster_nctarank`,
//! `%clusterid`, `%nclusterid`, `%cluster_ctaid`, `%cluster_nctaid`), §9.7.9.22 (`mapa`),
//! §9.7.9.23 (`getctarank`), §9.7.12.16 (`elect.sync`). Seed §5.4 (a consumer in CTA B arrives
//! on CTA A's `empty` through a `.shared::cluster` address).
//!
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`cluster_ctarank`] … | `mov.u32 r, %cluster_ctarank;` … | 7.8 / sm_90 |
//! | [`mapa`] | `mapa.shared::cluster.u32 d, a, rank;` | 7.8 / sm_90 |
//! | [`mapa_generic`] | `mapa.u64 d, a, rank;` | 7.8 / sm_90 |
//! | [`getctarank`] | `getctarank.shared::cluster.u32 d, a;` | 7.8 / sm_90 |
//! | [`getctarank_generic`] | `getctarank.u64 d, a;` | 7.8 / sm_90 |
//! | [`elect_sync`] | `elect.sync d\|p, mask;` | 8.0 / sm_90 |
//!
//! Host: a cluster of one CTA of one thread per warp: rank 0 of 1, ids 0, `mapa` is the
//! identity and `elect_sync` elects the caller — except for the memory a `ClusterShared` (host
//! and loom only) declares as one `.shared::cta` variable of every CTA of a cluster (a host or
//! loom model of a cluster, seed §5.4): there `mapa`, `mapa_generic` and `getctarank` map
//! between the CTAs' copies, and a `.multicast::cluster` copy writes the copy of every CTA of
//! its mask.
//!
//! ```
//! use ptx_sync::cluster::*;
//! assert_eq!(cluster_ctarank(), 0);
//! assert_eq!(cluster_nctarank(), 1);
//! assert!(elect_sync(u32::MAX));
//! ```

use crate::instr::instr;
#[allow(unused_imports)]
use crate::instr::{asm_text, with_ops};
use crate::sem::tok;
use crate::shared::{ClusterAddr, SharedAddr};
#[cfg(target_arch = "nvptx64")]
use core::arch::asm;

macro_rules! sregs {
    ($( $(#[$m:meta])* $Name:ident $fname:ident $tok:literal host $h:expr; )*) => {
        $(
            instr! {
                $(#[$m])*
                $Name = ($tok);
                fn read() -> u32 => m {
                    let r: u32;
                    asm!(concat!("mov.u32 {r}, ", m!(), ";"), r = out(reg32) r, options(pure, nomem, nostack, preserves_flags));
                    r
                }
            }
            $(#[$m])*
            #[inline(always)]
            pub fn $fname() -> u32 {
                #[cfg(target_arch = "nvptx64")]
                unsafe { $Name::read() }
                #[cfg(not(target_arch = "nvptx64"))]
                { $h }
            }
        )*
        /// Every special register of this module: `(marker name, PTX register)`.
        pub const SREGS: &[(&str, &str)] = &[$( (stringify!($Name), <$Name as crate::instr::Instr>::PTX) ),*];
    };
}

sregs! {
    /// `%cluster_ctarank`: this CTA's rank in its cluster (PTX 7.8, sm_90).
    ClusterCtarank cluster_ctarank "%cluster_ctarank" host 0;
    /// `%cluster_nctarank`: the number of CTAs in the cluster (PTX 7.8, sm_90).
    ClusterNctarank cluster_nctarank "%cluster_nctarank" host 1;
    /// `%clusterid.x` (PTX 7.8, sm_90).
    ClusteridX clusterid_x "%clusterid.x" host 0;
    /// `%clusterid.y` (PTX 7.8, sm_90).
    ClusteridY clusterid_y "%clusterid.y" host 0;
    /// `%clusterid.z` (PTX 7.8, sm_90).
    ClusteridZ clusterid_z "%clusterid.z" host 0;
    /// `%nclusterid.x` (PTX 7.8, sm_90).
    NclusteridX nclusterid_x "%nclusterid.x" host 1;
    /// `%nclusterid.y` (PTX 7.8, sm_90).
    NclusteridY nclusterid_y "%nclusterid.y" host 1;
    /// `%nclusterid.z` (PTX 7.8, sm_90).
    NclusteridZ nclusterid_z "%nclusterid.z" host 1;
    /// `%cluster_ctaid.x`: this CTA's position in its cluster (PTX 7.8, sm_90).
    ClusterCtaidX cluster_ctaid_x "%cluster_ctaid.x" host 0;
    /// `%cluster_ctaid.y` (PTX 7.8, sm_90).
    ClusterCtaidY cluster_ctaid_y "%cluster_ctaid.y" host 0;
    /// `%cluster_ctaid.z` (PTX 7.8, sm_90).
    ClusterCtaidZ cluster_ctaid_z "%cluster_ctaid.z" host 0;
    /// `%cluster_nctaid.x`: the cluster's shape (PTX 7.8, sm_90).
    ClusterNctaidX cluster_nctaid_x "%cluster_nctaid.x" host 1;
    /// `%cluster_nctaid.y` (PTX 7.8, sm_90).
    ClusterNctaidY cluster_nctaid_y "%cluster_nctaid.y" host 1;
    /// `%cluster_nctaid.z` (PTX 7.8, sm_90).
    ClusterNctaidZ cluster_nctaid_z "%cluster_nctaid.z" host 1;
}

instr! {
    /// `mapa.shared::cluster.u32 d, a, rank;` (PTX 7.8, sm_90).
    MapaShared = ("mapa", tok!(SharedCluster), ".u32");
    fn exec(a: u32, r: u32) -> u32 => m {
        let d: u32;
        asm!(asm_text!(none; (mapa32); m!()), d = out(reg32) d, a = in(reg32) a, r = in(reg32) r, options(pure, nomem, nostack, preserves_flags));
        d
    }
}
instr! {
    /// `mapa.u64 d, a, rank;` — generic address form (PTX 7.8, sm_90).
    MapaGeneric = ("mapa.u64");
    fn exec(a: u64, r: u32) -> u64 => m {
        let d: u64;
        asm!(asm_text!(none; (mapa64); m!()), d64 = out(reg64) d, a64 = in(reg64) a, r = in(reg32) r, options(pure, nomem, nostack, preserves_flags));
        d
    }
}
instr! {
    /// `getctarank.shared::cluster.u32 d, a;` (PTX 7.8, sm_90).
    GetctarankShared = ("getctarank", tok!(SharedCluster), ".u32");
    fn exec(a: u32) -> u32 => m {
        let d: u32;
        asm!(asm_text!(none; (rank32); m!()), d = out(reg32) d, a = in(reg32) a, options(pure, nomem, nostack, preserves_flags));
        d
    }
}
instr! {
    /// `getctarank.u64 d, a;` — generic address form (PTX 7.8, sm_90).
    GetctarankGeneric = ("getctarank.u64");
    fn exec(a: u64) -> u32 => m {
        let d: u32;
        asm!(asm_text!(none; (rank64); m!()), d = out(reg32) d, a64 = in(reg64) a, options(pure, nomem, nostack, preserves_flags));
        d
    }
}
instr! {
    /// `elect.sync d|p, mask;` — elects one lane of `mask` (PTX 8.0, sm_90).
    ElectSync = ("elect.sync");
    fn exec(mask: u32) -> (u32, u32) => m {
        let (e, l): (u32, u32);
        asm!(asm_text!(pred_e; (elect); m!()),
             e = out(reg32) e, l = out(reg32) l, mask = in(reg32) mask, options(nostack, preserves_flags));
        (e, l)
    }
}

/// `mapa.shared::cluster.u32`: this CTA's `.shared::cta` address `a` → the same offset in the
/// shared memory of the CTA of rank `cta` (a `.shared::cluster` address). Host: identity.
///
/// PTX 7.8 / sm_90; `cta` must be a rank of this cluster (below [`cluster_nctarank`]). SASS:
/// not recorded in the repo. PTX ISA §9.7.9.22; seed §5.4 (the address of the leader's `empty`).
///
/// # Examples
///
/// ```
/// use ptx_sync::{cluster::{mapa, getctarank, MapaShared}, instr::Instr, shared::to_shared};
/// let word = 0u64;
/// let local = to_shared(&word);
/// let leader = mapa(local, 0);  // host: the identity (a cluster of one CTA)
/// assert_eq!(getctarank(leader), 0);
/// assert_eq!(MapaShared::PTX, "mapa.shared::cluster.u32");
/// ```
#[inline(always)]
pub fn mapa(a: SharedAddr, cta: u32) -> ClusterAddr {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        ClusterAddr(MapaShared::exec(a.0, cta))
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        ClusterAddr(host_peer(a.0, cta).unwrap_or(a.0))
    }
}

/// `mapa.u64`: a generic pointer into this CTA's shared memory → the generic pointer of the
/// same offset in CTA `cta` (distributed shared memory). Host: identity.
///
/// PTX 7.8 / sm_90. SASS: not recorded in the repo. PTX ISA §9.7.9.22; seed §5.4.
///
/// # Examples
///
/// ```
/// use ptx_sync::{cluster::{mapa_generic, MapaGeneric}, instr::Instr, Strong, Cluster, Relaxed};
/// let slot = Strong::new(0u32); // on the device: in this CTA's shared memory
/// let peer = unsafe { Strong::from_ptr(mapa_generic(slot.as_ptr(), 0)) };
/// peer.at::<Cluster>().store::<Relaxed>(4); // st.relaxed.cluster.u32 into the peer's smem
/// assert_eq!(slot.at::<Cluster>().load::<Relaxed>(), 4);
/// assert_eq!(MapaGeneric::PTX, "mapa.u64");
/// ```
#[inline(always)]
pub fn mapa_generic<T>(p: *const T, cta: u32) -> *mut T {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        MapaGeneric::exec(p as u64, cta) as *mut T
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        host_peer(p as usize, cta).unwrap_or(p as usize) as *mut T
    }
}

/// `getctarank.shared::cluster.u32`: the rank of the CTA owning `.shared::cluster` address `a`.
///
/// PTX 7.8 / sm_90. SASS: not recorded in the repo. PTX ISA §9.7.9.23; seed §5.4.
///
/// # Examples
///
/// ```
/// use ptx_sync::{cluster::{getctarank, GetctarankShared}, instr::Instr, Mbarrier};
/// let b: Mbarrier = Mbarrier::new();
/// assert_eq!(getctarank(b.remote(0).addr()), 0);
/// assert_eq!(GetctarankShared::PTX, "getctarank.shared::cluster.u32");
/// ```
#[inline(always)]
pub fn getctarank(a: ClusterAddr) -> u32 {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        GetctarankShared::exec(a.0)
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        host_rank(a.0).unwrap_or(0)
    }
}

/// `getctarank.u64`: the rank of the CTA owning generic shared address `p`.
///
/// PTX 7.8 / sm_90. SASS: not recorded in the repo. PTX ISA §9.7.9.23; seed §5.4.
///
/// # Examples
///
/// ```
/// use ptx_sync::{cluster::{getctarank_generic, GetctarankGeneric}, instr::Instr};
/// let x = 0u32;
/// assert_eq!(getctarank_generic(&x), 0); // host: one CTA
/// assert_eq!(GetctarankGeneric::PTX, "getctarank.u64");
/// ```
#[inline(always)]
pub fn getctarank_generic<T>(p: *const T) -> u32 {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        GetctarankGeneric::exec(p as u64)
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        host_rank(p as usize).unwrap_or(0)
    }
}

/// `elect.sync _|p, mask;` — `true` in exactly one lane of `mask` (all lanes of `mask` must
/// execute it). Host: `true` in the lowest lane of `mask` of the caller's simulated warp.
///
/// PTX 8.0 / sm_90. SASS: not recorded in the repo. PTX ISA §9.7.12.16; seed §5.2 (one elected
/// thread issues the TMA copy and arms `full`).
///
/// # Examples
///
/// ```
/// use ptx_sync::{cluster::{elect_sync, ElectSync}, instr::Instr};
/// if elect_sync(u32::MAX) {
///     // the one producer thread of the warp
/// }
/// assert_eq!(ElectSync::PTX, "elect.sync");
/// ```
#[inline(always)]
pub fn elect_sync(mask: u32) -> bool {
    elect_sync_lane(mask).0
}

/// `elect.sync d|p, mask;` — `(elected?, elected lane id)`. Host: the rendezvous of the lanes of
/// `mask` in the caller's simulated warp ([`index::launch`](crate::index::launch); outside one a
/// warp of one), then the lowest of them is elected.
///
/// PTX 8.0 / sm_90. SASS: not recorded in the repo. PTX ISA §9.7.12.16.
///
/// # Examples
///
/// ```
/// let (elected, lane) = ptx_sync::cluster::elect_sync_lane(0xffff_ffff);
/// assert!(elected && lane == 0); // host: the caller is lane 0 and elected
/// ```
#[inline(always)]
pub fn elect_sync_lane(mask: u32) -> (bool, u32) {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        let (e, l) = ElectSync::exec(mask);
        (e != 0, l)
    }
    #[cfg(not(target_arch = "nvptx64"))]
    crate::backend::host::warp::elect(mask)
}

/// Catalog rows of this module (`ptx-sync show`).
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) fn catalog_rows(f: &mut dyn FnMut(crate::catalog::Variant)) {
    #[allow(unused_imports)]
    use crate::catalog::{Completion, Form, Marker as M, Variant};
    use crate::instr::Instr;
    let v = Variant::EMPTY;
    // The special registers (`SREGS`) are read with `mov.u32`: not instruction variants, so
    // they are not rows; `tests/strings_async.rs` checks `SREGS` against the PTX ISA names.
    f(with_ops!(none; (mapa32); Variant {
        family: "mapa",
        sm: 90,
        ptx_isa: 78,
        isa: "9.7.9.22",
        seed: "5.4",
        ty: "u32",
        space: M::SharedCluster,
        ptx: MapaShared::PTX,
        rust: "mapa",
        ..v
    }));
    f(with_ops!(none; (mapa64); Variant {
        family: "mapa",
        sm: 90,
        ptx_isa: 78,
        isa: "9.7.9.22",
        seed: "5.4",
        ty: "u64",
        space: M::Generic,
        ptx: MapaGeneric::PTX,
        rust: "mapa_generic",
        ..v
    }));
    f(with_ops!(none; (rank32); Variant {
        family: "getctarank",
        sm: 90,
        ptx_isa: 78,
        isa: "9.7.9.23",
        seed: "5.4",
        ty: "u32",
        space: M::SharedCluster,
        ptx: GetctarankShared::PTX,
        rust: "getctarank",
        ..v
    }));
    f(with_ops!(none; (rank64); Variant {
        family: "getctarank",
        sm: 90,
        ptx_isa: 78,
        isa: "9.7.9.23",
        seed: "5.4",
        ty: "u64",
        space: M::Generic,
        ptx: GetctarankGeneric::PTX,
        rust: "getctarank_generic",
        ..v
    }));
    f(with_ops!(pred_e; (elect); Variant {
        family: "elect.sync",
        sm: 90,
        ptx_isa: 80,
        isa: "9.7.12.16",
        seed: "5.4",
        ptx: ElectSync::PTX,
        rust: "elect_sync",
        ..v
    }));
}

/// Host: the per-CTA copies of the variables that [`ClusterShared`] guards (id, size in bytes,
/// base address per cluster rank).
#[cfg(not(target_arch = "nvptx64"))]
static HOST_CLUSTER: std::sync::Mutex<std::vec::Vec<(usize, usize, std::vec::Vec<usize>)>> =
    std::sync::Mutex::new(std::vec::Vec::new());

#[cfg(not(target_arch = "nvptx64"))]
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
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) fn host_peer(a: usize, rank: u32) -> Option<usize> {
    host_lookup(a, |off, bases| bases.get(rank as usize).map(|b| b + off)).flatten()
}

/// Host: the rank of the CTA whose copy of a [`ClusterShared`] variable holds `a`.
#[cfg(not(target_arch = "nvptx64"))]
fn host_rank(a: usize) -> Option<u32> {
    host_lookup(a, |off, bases| {
        bases.iter().position(|&b| b + off == a).map(|r| r as u32)
    })
    .flatten()
}

/// Host (and `--cfg loom`) models of a cluster: owns one object per CTA of the cluster and
/// declares object `r` as the copy in the CTA of cluster rank `r` of one `.shared::cta`
/// variable, for as long as the guard lives. The host has one address space (a variable of a
/// `shared_array!` has one address), so a model of several CTAs allocates one object per CTA and
/// declares them here: then [`mapa`] / [`mapa_generic`] of an address in rank `r`'s copy, with
/// rank `q`, give the same offset in rank `q`'s copy (so
/// [`Mbarrier::remote`](crate::Mbarrier::remote) reaches the peer CTA's barrier),
/// [`getctarank`] gives `r`, and
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
#[cfg(not(target_arch = "nvptx64"))]
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
#[cfg(not(target_arch = "nvptx64"))]
unsafe impl<T: Send> Send for ClusterShared<T> {}
#[cfg(not(target_arch = "nvptx64"))]
unsafe impl<T: Sync> Sync for ClusterShared<T> {}

#[cfg(not(target_arch = "nvptx64"))]
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

#[cfg(not(target_arch = "nvptx64"))]
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
#[cfg(not(target_arch = "nvptx64"))]
fn declare(bytes: usize, bases: &[usize]) -> usize {
    use core::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    let mut v = HOST_CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
    v.push((id, bytes.max(1), bases.to_vec()));
    id
}

#[cfg(not(target_arch = "nvptx64"))]
impl<T> core::ops::Deref for ClusterShared<T> {
    type Target = [T];
    /// The copies: `self[r]` is CTA rank `r`'s.
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialised copies (or `len == 0`), owned by `self`.
        unsafe { core::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

#[cfg(not(target_arch = "nvptx64"))]
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
