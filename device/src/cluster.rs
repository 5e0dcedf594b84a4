//! Thread-block clusters: special registers, `mapa`, `getctarank`, `elect.sync`.
//!
//! PTX ISA §10.13-10.24 (special registers `%cluster_ctarank`, `%cluster_nctarank`,
//! `%clusterid`, `%nclusterid`, `%cluster_ctaid`, `%cluster_nctaid`), §9.7.9.22 (`mapa`),
//! §9.7.9.23 (`getctarank`), §9.7.12.16 (`elect.sync`). Seed §5.4 (a consumer in CTA B arrives
//! on CTA A's `empty` through a `.shared::cluster` address).
//!
//! The special registers ([`SREGS`]): one `mov.u32 r, %reg;` each (PTX 7.8, sm_90) —
//! [`cluster_ctarank`], [`cluster_nctarank`], [`clusterid_x`] …, [`nclusterid_x`] …,
//! [`cluster_ctaid_x`] …, [`cluster_nctaid_x`] …. The instructions ([`elect_sync`] is
//! [`elect_sync_lane`]'s flag):
//!
//! <!-- generated from device/isa/cluster.rows by device/isa/gen: do not edit (cargo xtask isa) -->
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`mapa`] | `mapa.shared::cluster.u32 d, a, r;` | 7.8 / sm_90 |
//! | [`mapa_generic`] | `mapa.u64 d64, a64, r;` | 7.8 / sm_90 |
//! | [`getctarank`] | `getctarank.shared::cluster.u32 d, a;` | 7.8 / sm_90 |
//! | [`getctarank_generic`] | `getctarank.u64 d, a64;` | 7.8 / sm_90 |
//! | [`elect_sync_lane`] | `elect.sync l\|p, mask;` | 8.0 / sm_90 |
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

#[allow(unused_imports)] // `RawShared`: the generated leaves' operand type
use crate::shared::{ClusterAddr, RawShared, SharedAddr};

// The markers and leaves of the special registers, `mapa`, `getctarank` and `elect.sync`
// (host arms: `backend/host/{cluster,warp}.rs`), and their catalog rows: device/isa/cluster.rows.
include!(concat!(env!("OUT_DIR"), "/isa/cluster.rs"));

/// `%cluster_ctarank`: this CTA's rank in its cluster (PTX 7.8, sm_90).
/// ```
/// // On the host, outside a launch: CTA 0 of a cluster of one, in a grid of one cluster.
/// assert_eq!(ptx_sync::cluster::cluster_ctarank(), 0);
/// ```
#[inline(always)]
pub fn cluster_ctarank() -> u32 {
    unsafe { ClusterCtarank::read() }
}
/// `%cluster_nctarank`: the number of CTAs in the cluster (PTX 7.8, sm_90).
/// ```
/// // On the host, outside a launch: CTA 0 of a cluster of one, in a grid of one cluster.
/// assert_eq!(ptx_sync::cluster::cluster_nctarank(), 1);
/// ```
#[inline(always)]
pub fn cluster_nctarank() -> u32 {
    unsafe { ClusterNctarank::read() }
}
/// `%clusterid.x` (PTX 7.8, sm_90).
/// ```
/// // On the host, outside a launch: CTA 0 of a cluster of one, in a grid of one cluster.
/// assert_eq!(ptx_sync::cluster::clusterid_x(), 0);
/// ```
#[inline(always)]
pub fn clusterid_x() -> u32 {
    unsafe { ClusteridX::read() }
}
/// `%clusterid.y` (PTX 7.8, sm_90).
/// ```
/// // On the host, outside a launch: CTA 0 of a cluster of one, in a grid of one cluster.
/// assert_eq!(ptx_sync::cluster::clusterid_y(), 0);
/// ```
#[inline(always)]
pub fn clusterid_y() -> u32 {
    unsafe { ClusteridY::read() }
}
/// `%clusterid.z` (PTX 7.8, sm_90).
/// ```
/// // On the host, outside a launch: CTA 0 of a cluster of one, in a grid of one cluster.
/// assert_eq!(ptx_sync::cluster::clusterid_z(), 0);
/// ```
#[inline(always)]
pub fn clusterid_z() -> u32 {
    unsafe { ClusteridZ::read() }
}
/// `%nclusterid.x` (PTX 7.8, sm_90).
/// ```
/// // On the host, outside a launch: CTA 0 of a cluster of one, in a grid of one cluster.
/// assert_eq!(ptx_sync::cluster::nclusterid_x(), 1);
/// ```
#[inline(always)]
pub fn nclusterid_x() -> u32 {
    unsafe { NclusteridX::read() }
}
/// `%nclusterid.y` (PTX 7.8, sm_90).
/// ```
/// // On the host, outside a launch: CTA 0 of a cluster of one, in a grid of one cluster.
/// assert_eq!(ptx_sync::cluster::nclusterid_y(), 1);
/// ```
#[inline(always)]
pub fn nclusterid_y() -> u32 {
    unsafe { NclusteridY::read() }
}
/// `%nclusterid.z` (PTX 7.8, sm_90).
/// ```
/// // On the host, outside a launch: CTA 0 of a cluster of one, in a grid of one cluster.
/// assert_eq!(ptx_sync::cluster::nclusterid_z(), 1);
/// ```
#[inline(always)]
pub fn nclusterid_z() -> u32 {
    unsafe { NclusteridZ::read() }
}
/// `%cluster_ctaid.x`: this CTA's position in its cluster (PTX 7.8, sm_90).
/// ```
/// // On the host, outside a launch: CTA 0 of a cluster of one, in a grid of one cluster.
/// assert_eq!(ptx_sync::cluster::cluster_ctaid_x(), 0);
/// ```
#[inline(always)]
pub fn cluster_ctaid_x() -> u32 {
    unsafe { ClusterCtaidX::read() }
}
/// `%cluster_ctaid.y` (PTX 7.8, sm_90).
/// ```
/// // On the host, outside a launch: CTA 0 of a cluster of one, in a grid of one cluster.
/// assert_eq!(ptx_sync::cluster::cluster_ctaid_y(), 0);
/// ```
#[inline(always)]
pub fn cluster_ctaid_y() -> u32 {
    unsafe { ClusterCtaidY::read() }
}
/// `%cluster_ctaid.z` (PTX 7.8, sm_90).
/// ```
/// // On the host, outside a launch: CTA 0 of a cluster of one, in a grid of one cluster.
/// assert_eq!(ptx_sync::cluster::cluster_ctaid_z(), 0);
/// ```
#[inline(always)]
pub fn cluster_ctaid_z() -> u32 {
    unsafe { ClusterCtaidZ::read() }
}
/// `%cluster_nctaid.x`: the cluster's shape (PTX 7.8, sm_90).
/// ```
/// // On the host, outside a launch: CTA 0 of a cluster of one, in a grid of one cluster.
/// assert_eq!(ptx_sync::cluster::cluster_nctaid_x(), 1);
/// ```
#[inline(always)]
pub fn cluster_nctaid_x() -> u32 {
    unsafe { ClusterNctaidX::read() }
}
/// `%cluster_nctaid.y` (PTX 7.8, sm_90).
/// ```
/// // On the host, outside a launch: CTA 0 of a cluster of one, in a grid of one cluster.
/// assert_eq!(ptx_sync::cluster::cluster_nctaid_y(), 1);
/// ```
#[inline(always)]
pub fn cluster_nctaid_y() -> u32 {
    unsafe { ClusterNctaidY::read() }
}
/// `%cluster_nctaid.z` (PTX 7.8, sm_90).
/// ```
/// // On the host, outside a launch: CTA 0 of a cluster of one, in a grid of one cluster.
/// assert_eq!(ptx_sync::cluster::cluster_nctaid_z(), 1);
/// ```
#[inline(always)]
pub fn cluster_nctaid_z() -> u32 {
    unsafe { ClusterNctaidZ::read() }
}

/// Every special register of this module: `(marker name, PTX register)`.
pub const SREGS: &[(&str, &str)] = {
    use crate::instr::Instr;
    &[
        ("ClusterCtarank", ClusterCtarank::PTX),
        ("ClusterNctarank", ClusterNctarank::PTX),
        ("ClusteridX", ClusteridX::PTX),
        ("ClusteridY", ClusteridY::PTX),
        ("ClusteridZ", ClusteridZ::PTX),
        ("NclusteridX", NclusteridX::PTX),
        ("NclusteridY", NclusteridY::PTX),
        ("NclusteridZ", NclusteridZ::PTX),
        ("ClusterCtaidX", ClusterCtaidX::PTX),
        ("ClusterCtaidY", ClusterCtaidY::PTX),
        ("ClusterCtaidZ", ClusterCtaidZ::PTX),
        ("ClusterNctaidX", ClusterNctaidX::PTX),
        ("ClusterNctaidY", ClusterNctaidY::PTX),
        ("ClusterNctaidZ", ClusterNctaidZ::PTX),
    ]
};

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
    ClusterAddr(unsafe { MapaShared::exec(a.0, cta) })
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
    unsafe { MapaGeneric::exec(p as u64, cta) as *mut T }
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
    unsafe { GetctarankShared::exec(a.0) }
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
    unsafe { GetctarankGeneric::exec(p as u64) }
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
/// `mask` in the caller's simulated warp (`index::launch` (host builds); outside one a
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
    let (e, l) = unsafe { ElectSync::exec(mask) };
    (e != 0, l)
}

#[cfg(not(target_arch = "nvptx64"))]
pub use crate::backend::host::cluster::ClusterShared;
