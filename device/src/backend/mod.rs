//! The backend seam: what each operation of the typed API does on each target, in one place.
//!
//! The families (`atomic`, `barrier`, `mbarrier`, `copy`, …) carry no `#[cfg]` in their method
//! bodies: every method is one call of `Active`, the backend this build selects —
//!
//! | build | backend | what an operation is |
//! |---|---|---|
//! | `nvptx64` | `Nvptx` (`nvptx.rs`) | the instruction's inline PTX, from its row (`asm!`) |
//! | host | `Host` (`host/`) | `core::sync::atomic` with the semantic's `Ordering` (scope and space erased); counting barriers over a state word; the copy engine copies at issue |
//! | `--cfg loom` | `Loom` (`loom.rs`) over `model` (`ptx_sync::model`) | loom's atomics, with the scope of every access, fence and barrier checked by the scope model; copies on engine threads |
//!
//! The traits here are the seam: `AccessBackend` (`ld`/`st`/`atom`/`red`/`fence`),
//! `BarBackend` (the CTA and cluster barriers), `MbarBackend` (`mbarrier/backend.rs`),
//! `CpAsyncBackend` (`cp.async`), `WaitBackend` (`wait::spin_until`). Host and loom share their
//! barrier, mbarrier and copy arms: those read and write a `host::Word`, a CPU atomic on the host
//! and a location of the scope model under loom.
//!
//! Where a backend provides items rather than operations, one `use … as …` picks the module
//! that defines them: `cells` (`cell.rs` or `loom.rs`: the storage of `Strong`/`Data` and
//! `Loc`), `shared_ops` (`nvptx/mod.rs` or `host/shared.rs`: `RawShared` and the address
//! conversions), the access rows' leaf traits (`nvptx/access.rs` or `host/leaf.rs`), `plat` in
//! `host/mod.rs` (`host/native.rs` or `loom.rs`: fences, `Word`, the blocking wait), `engine` in
//! `copy_engine.rs` (performed at issue, or on a loom thread); `const_fn!` makes a constructor
//! `const` where the cells allow it, `origin.rs` the token/stage check.
//!
//! # Layouts that change under `--cfg loom`
//!
//! Every other type has one layout on every backend. These differ, each because loom (or the
//! scope model) must see the accesses, and loom's cells are neither `const`-constructible nor
//! laid out as the value:
//!
//! | type | host (and nvptx64) | `--cfg loom` | why |
//! |---|---|---|---|
//! | [`Strong<T>`](crate::Strong) (its `StrongCell`) | `UnsafeCell<T>`, aligned to `size_of::<T>()`, `repr(C)` | a `model::Location<T>` | each access is a loom atomic access plus the scope check's history; no `from_ptr`/`as_ptr` (a loom atomic has no address to view memory through) |
//! | [`Data<T>`](crate::Data) (its `DataCell`) | `UnsafeCell<T>`, `repr(transparent)` | `loom::cell::UnsafeCell<T>` | loom reports unordered weak accesses as data races (PTX ISA §8.7.1) |
//! | [`AtomicRef`](crate::AtomicRef)'s location (`Loc`) | a generic pointer | `&model::Location<T>` | the model's location, not an address |
//! | `host::Word` (the barriers' and mbarriers' state) | `AtomicU64` (`const fn new`) | a `model::Location<u64>` (not `const`) | barrier words are strong accesses at the instruction's scope |
//!
//! So under loom `Strong::new`, `Data::new` and `Mbarrier::new` are not `const fn`, and
//! `Strong::from_ptr`, `AtomicRef::from_ptr`/`as_ptr` do not exist. (Not a loom difference: an
//! mbarrier `Token` and a pipeline `ConsumerStage` carry their origin's address on the host and
//! in debug builds, nothing in an nvptx64 release build — `origin.rs`.)

use crate::atomic::{op, AtomInstr, CasInstr, LdInstr, RedInstr, StInstr};
use crate::copy::CpAsyncLeaf;
use crate::policy::CachePolicy;
use crate::sem::{LoadSem, RedSem, RmwSem, Scope, Space, StoreSem};
use crate::shared::SharedAddr;
use crate::wait::{Budget, Timeout};
#[cfg(not(loom))]
mod cell;
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) mod copy_engine;
#[cfg(not(target_arch = "nvptx64"))]
#[doc(hidden)]
pub mod host;
#[cfg(loom)]
pub(crate) mod loom;
#[cfg(loom)]
pub mod model;
#[cfg(target_arch = "nvptx64")]
pub(crate) mod nvptx;
mod origin;
pub(crate) use origin::Origin;

/// A constructor that is `const` where the backend's cells are (nvptx64, host) and not under
/// loom, whose cells register with the running model (`const_fn! { /// docs pub fn new(…) … }`):
/// one definition of `Strong::new` and `Data::new` (the layout table above).
#[cfg(not(loom))]
macro_rules! const_fn {
    ($(#[$m:meta])* $vis:vis fn $($rest:tt)*) => { $(#[$m])* $vis const fn $($rest)* };
}
/// A constructor that is `const` where the backend's cells are (see the other definition).
#[cfg(loom)]
macro_rules! const_fn {
    ($(#[$m:meta])* $vis:vis fn $($rest:tt)*) => { $(#[$m])* $vis fn $($rest)* };
}
pub(crate) use const_fn;

#[cfg(not(target_arch = "nvptx64"))]
pub use host::leaf::{AtomLeaf, CasLeaf, LdLeaf, RedLeaf, StLeaf};
#[cfg(not(target_arch = "nvptx64"))]
use host::shared as shared_ops;
/// Shared memory's addresses (`shared.rs`): the raw value of a `.shared` address and the
/// conversions — the `cvta`/`cvt` of nvptx64 (`nvptx.rs`), the identity on the host
/// (`host/shared.rs`, also under loom). The `shared_array!` and `dynamic_smem!` macros expand
/// to the same target's `__ptx_sync_smem_decl!`/`__ptx_sync_smem_addr!`/
/// `__ptx_sync_dynamic_smem!`, defined beside these.
#[cfg(target_arch = "nvptx64")]
use nvptx as shared_ops;
/// The access instructions' leaf traits (supertraits of `LdInstr`…`RedInstr`): the rows'
/// `asm!` on nvptx64 (`nvptx/access.rs`), empty elsewhere (`host/leaf.rs`).
#[cfg(target_arch = "nvptx64")]
pub use nvptx::access::{AtomLeaf, CasLeaf, LdLeaf, RedLeaf, StLeaf};
/// The dynamic window's address: used by `shared::dynamic_smem`, which an nvptx64 build has only
/// with the `dynamic-smem` feature (a kernel crate without it has no use for the import).
#[cfg(any(not(target_arch = "nvptx64"), feature = "dynamic-smem", doc))]
pub(crate) use shared_ops::dyn_smem;
pub use shared_ops::RawShared;
pub(crate) use shared_ops::{generic_to_shared, shared_to_generic};

/// The backend of this build — the one place the target is chosen.
#[cfg(target_arch = "nvptx64")]
pub(crate) type Active = nvptx::Nvptx;
/// The backend of this build — the one place the target is chosen.
#[cfg(all(not(target_arch = "nvptx64"), not(loom)))]
pub(crate) type Active = host::Host;
/// The backend of this build — the one place the target is chosen.
#[cfg(loom)]
pub(crate) type Active = loom::Loom;

#[cfg(loom)]
pub use self::loom::launch;
/// The simulated launch of this build (`index::launch`): host threads, or loom's model threads.
#[cfg(all(not(target_arch = "nvptx64"), not(loom)))]
pub use host::cta::launch;

/// The storage of [`Strong`](crate::Strong) and [`Data`](crate::Data) and how an
/// [`AtomicRef`](crate::AtomicRef) holds its location ([`Loc`]): the native cells (`cell.rs`,
/// nvptx64 and host: the value's bytes, a pointer) or loom's (`loom.rs`: a location of the scope
/// model, a reference to it) — the one place the choice is made.
#[cfg(not(loom))]
use cell as cells;
pub(crate) use cells::{DataCell, Loc, StrongCell};
#[cfg(loom)]
use loom as cells;

/// The operations of the access family and of `fence`, one implementation per backend.
pub(crate) trait AccessBackend {
    fn fence<S: crate::fence::FenceInstr<Sco>, Sco: Scope>();
    fn load<T: LdInstr<S, Sco, Sp>, S: LoadSem, Sco: Scope, Sp: Space>(l: Loc<'_, T>) -> T;
    fn store<T: StInstr<S, Sco, Sp>, S: StoreSem, Sco: Scope, Sp: Space>(l: Loc<'_, T>, v: T);
    fn atom<T: AtomInstr<O, S, Sco, Sp>, O: op::Op, S: RmwSem, Sco: Scope, Sp: Space>(
        l: Loc<'_, T>,
        b: T,
    ) -> T;
    fn red<T: RedInstr<O, S, Sco, Sp>, O: op::Op, S: RedSem, Sco: Scope, Sp: Space>(
        l: Loc<'_, T>,
        b: T,
    );
    fn cas<T: CasInstr<S, Sco, Sp>, S: RmwSem, Sco: Scope, Sp: Space>(
        l: Loc<'_, T>,
        current: T,
        new: T,
    ) -> Result<T, T>;
}

/// What the CTA and cluster barriers do on one backend
/// ([`NamedBarrier`](crate::barrier::NamedBarrier), [`ClusterBarrier`](crate::barrier::ClusterBarrier)).
pub(crate) trait BarBackend {
    /// The state a named barrier holds (nothing on the device, the counting barrier on the host).
    type Named;
    /// The state a cluster barrier holds.
    type Cluster;
    /// A named barrier's state for `count` threads (checks the backend's count rule).
    fn named(count: u32) -> Self::Named;
    /// `bar.sync` (`aligned`) or `barrier.sync` of barrier `id` for `count` threads.
    fn sync(id: u32, count: u32, h: &Self::Named, aligned: bool);
    /// `bar.arrive` (`aligned`) or `barrier.arrive`.
    fn arrive(id: u32, count: u32, h: &Self::Named, aligned: bool);
    /// `bar.red.popc.u32` (`aligned`) or `barrier.red.popc.u32`.
    fn red_popc(id: u32, count: u32, h: &Self::Named, pred: bool, aligned: bool) -> u32;
    /// `bar.red.and.pred` (`aligned`) or `barrier.red.and.pred`.
    fn red_and(id: u32, count: u32, h: &Self::Named, pred: bool, aligned: bool) -> bool;
    /// `bar.red.or.pred` (`aligned`) or `barrier.red.or.pred`.
    fn red_or(id: u32, count: u32, h: &Self::Named, pred: bool, aligned: bool) -> bool;
    /// `bar.sync 0` (`aligned`) or `barrier.sync 0`: the whole CTA.
    fn sync_threads(aligned: bool);
    /// A cluster barrier's state for `threads` participants.
    fn cluster(threads: u32) -> Self::Cluster;
    /// `barrier.cluster.arrive{.sem}{.aligned}`; returns the phase it arrived in.
    fn cluster_arrive<S: crate::barrier::ClusterArriveInstr<A>, A: crate::barrier::Alignment>(
        c: &Self::Cluster,
    ) -> u32;
    /// `barrier.cluster.wait{.sem}{.aligned}` for the arrival in phase `gen`.
    fn cluster_wait<S: crate::barrier::ClusterWaitInstr<A>, A: crate::barrier::Alignment>(
        c: &Self::Cluster,
        generation: u32,
    );
}

/// `cp.async` (`copy::cp_async*`) of one form `L` (cache operator, size, prefetch size): the
/// form's leaf on the device; on the host the copy engine's copy of `L::BYTES` bytes (past
/// `src_size` zero-filled), completing in the issuing thread's `cp.async` group — the cache
/// hint and the prefetch size are performance hints and change nothing there. The caller has
/// checked `src_size <= L::BYTES`.
pub(crate) trait CpAsyncBackend {
    /// `cp.async … [d], [s], cp-size;`
    unsafe fn cp_async<L: CpAsyncLeaf>(dst: SharedAddr, src: *const u8);
    /// `cp.async … [d], [s], cp-size, src-size;`
    unsafe fn cp_async_zfill<L: CpAsyncLeaf>(dst: SharedAddr, src: *const u8, src_size: u32);
    /// `cp.async….L2::cache_hint … [d], [s], cp-size, policy;`
    unsafe fn cp_async_hint<L: CpAsyncLeaf>(dst: SharedAddr, src: *const u8, pol: CachePolicy);
    /// `cp.async….L2::cache_hint … [d], [s], cp-size, src-size, policy;`
    unsafe fn cp_async_zfill_hint<L: CpAsyncLeaf>(
        dst: SharedAddr,
        src: *const u8,
        src_size: u32,
        pol: CachePolicy,
    );
}

/// A bounded wait ([`wait::spin_until`](crate::wait::spin_until)) on one backend: on nvptx64 a
/// spin measured with the GPU's clocks, on the host one that counts iterations, under loom a
/// model spin.
pub(crate) trait WaitBackend {
    /// Checks `done()` until it holds (`Ok(checks)`) or `budget` is spent.
    fn spin_until(budget: Budget, done: impl FnMut() -> bool) -> Result<u64, Timeout>;
}
