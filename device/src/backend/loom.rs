//! The `--cfg loom` access backend: every `ld`/`st`/`atom`/`red`/`fence` is an access of a
//! [`model::Location`](super::model::Location) or a fence of the scope model, reported with its
//! effective scope and its PTX.

use super::{AccessBackend, WaitBackend};
use crate::atomic::{op, AtomInstr, CasInstr, LdInstr, RedInstr, Scalar, StInstr};
use crate::model::Location;
use crate::sem::{LoadSem, RedSem, RmwSem, Scope, Space, StoreSem};
use crate::wait::{Budget, Timeout};
use core::sync::atomic::Ordering;

/// How an [`AtomicRef`](crate::AtomicRef) holds its location under loom: the model's location
/// (its store log and the scope check's history), not an address.
pub(crate) type Loc<'a, T> = &'a Location<T>;

/// A strong location's storage under loom: a location of the scope model, whose accesses are
/// loom atomic accesses checked for their scope (not `const`: it registers with the model).
pub(crate) struct StrongCell<T: Scalar>(Location<T>);

impl<T: Scalar> StrongCell<T> {
    /// A cell holding `v`.
    pub(crate) fn new(v: T) -> Self {
        StrongCell(Location::new(v))
    }
    /// The location itself.
    #[inline(always)]
    pub(crate) fn loc(&self) -> Loc<'_, T> {
        &self.0
    }
}

/// Ordinary data's storage under loom: a `loom::cell::UnsafeCell`, so that loom reports an
/// access not ordered by synchronization as a data race (PTX ISA §8.7.1).
#[repr(transparent)]
pub(crate) struct DataCell<T>(loom::cell::UnsafeCell<T>);

impl<T: Copy> DataCell<T> {
    /// A cell holding `v` (registers the thread with the running model).
    pub(crate) fn new(v: T) -> Self {
        crate::model::touch();
        DataCell(loom::cell::UnsafeCell::new(v))
    }
    /// A weak read, race-checked.
    #[inline(always)]
    pub(crate) unsafe fn read(&self) -> T {
        // SAFETY: the caller's contract (no racing write; the model reports one).
        crate::model::weak_access("ld", || self.0.with(|p| unsafe { *p }))
    }
    /// A weak write, race-checked.
    #[inline(always)]
    pub(crate) unsafe fn write(&self, v: T) {
        // SAFETY: the caller's contract (no racing access; the model reports one).
        crate::model::weak_access("st", || self.0.with_mut(|p| unsafe { *p = v }))
    }
}

/// `--cfg loom`: the scope model; every access reports its effective scope and its PTX.
pub(crate) struct Loom;

impl AccessBackend for Loom {
    fn fence<S: crate::fence::FenceInstr<Sco>, Sco: Scope>() {
        super::host::fence_at(
            <S as crate::sem::FenceSem>::HOST,
            Sco::LEVEL,
            <S as crate::fence::FenceInstr<Sco>>::PTX,
        )
    }
    fn load<T: LdInstr<S, Sco, Sp>, S: LoadSem, Sco: Scope, Sp: Space>(l: Loc<'_, T>) -> T {
        let lvl = crate::model::effective_level(S::FIXED_LEVEL, Sco::LEVEL);
        l.load(lvl, S::HOST, <T as LdInstr<S, Sco, Sp>>::PTX)
    }
    fn store<T: StInstr<S, Sco, Sp>, S: StoreSem, Sco: Scope, Sp: Space>(l: Loc<'_, T>, v: T) {
        let lvl = crate::model::effective_level(S::FIXED_LEVEL, Sco::LEVEL);
        l.store(v, lvl, S::HOST, <T as StInstr<S, Sco, Sp>>::PTX)
    }
    fn atom<T: AtomInstr<O, S, Sco, Sp>, O: op::Op, S: RmwSem, Sco: Scope, Sp: Space>(
        l: Loc<'_, T>,
        b: T,
    ) -> T {
        let lvl = crate::model::effective_level(S::FIXED_LEVEL, Sco::LEVEL);
        let ptx = <T as AtomInstr<O, S, Sco, Sp>>::PTX;
        l.rmw(lvl, S::HOST, ptx, |old| T::h_apply(O::KIND, old, b))
    }
    fn red<T: RedInstr<O, S, Sco, Sp>, O: op::Op, S: RedSem, Sco: Scope, Sp: Space>(
        l: Loc<'_, T>,
        b: T,
    ) {
        let lvl = crate::model::effective_level(S::FIXED_LEVEL, Sco::LEVEL);
        let ptx = <T as RedInstr<O, S, Sco, Sp>>::PTX;
        let _ = l.rmw(lvl, S::HOST, ptx, |old| T::h_apply(O::KIND, old, b));
    }
    fn cas<T: CasInstr<S, Sco, Sp>, S: RmwSem, Sco: Scope, Sp: Space>(
        l: Loc<'_, T>,
        current: T,
        new: T,
    ) -> Result<T, T> {
        let lvl = crate::model::effective_level(S::FIXED_LEVEL, Sco::LEVEL);
        l.cas(
            lvl,
            S::HOST,
            crate::backend::host::cas_failure(S::HOST),
            <T as CasInstr<S, Sco, Sp>>::PTX,
            current,
            new,
            |a, b| a.bits_eq(b),
        )
    }
}

/// The budget is not a timeout: a model spin that returns once `done()` holds (a `deadlock: …`
/// panic when no thread can make it true).
impl WaitBackend for Loom {
    fn spin_until(_: Budget, mut done: impl FnMut() -> bool) -> Result<u64, Timeout> {
        let mut checks = 0u64;
        crate::model::spin_until(
            "ptx_sync::wait::spin_until: the condition never holds",
            || {
                checks += 1;
                done()
            },
        );
        Ok(checks)
    }
}

/// [`launch`](crate::index::launch) under `--cfg loom`: each GPU thread is a model thread placed in CTA
/// `block_idx` (linear) of cluster 0 ([`model::spawn_in`](crate::model::spawn_in)); call it
/// inside [`model::check`](crate::model::check).
///
/// ```
/// // Under `--cfg loom`: two CTAs of one thread, each a model thread placed in its CTA.
/// use ptx_sync::index::{launch, block_idx, Dim3};
/// ptx_sync::model::check(0, || launch(Dim3::x(2), Dim3::x(1), 0, || assert!(block_idx().x < 2)));
/// ```
pub fn launch<F: Fn() + Send + Sync + 'static>(
    grid: crate::index::Dim3,
    block: crate::index::Dim3,
    dyn_smem: usize,
    kernel: F,
) {
    let (nctas, nthreads) =
        crate::backend::host::cta::shape(grid, block).unwrap_or_else(|e| panic!("{e}"));
    let kernel = loom::sync::Arc::new(kernel);
    let mut hs = std::vec::Vec::new();
    for c in 0..nctas {
        let cta = crate::backend::host::cta::Cta::new(nthreads, dyn_smem)
            .unwrap_or_else(|| panic!("cannot allocate {dyn_smem} bytes of shared memory"));
        let cta = std::sync::Arc::new(cta);
        for t in 0..nthreads {
            let id = crate::index::Identity {
                tid: crate::index::Dim3::from_linear(t, block),
                ntid: block,
                ctaid: crate::index::Dim3::from_linear(c, grid),
                nctaid: grid,
            };
            let (k, cta) = (kernel.clone(), cta.clone());
            hs.push(crate::model::spawn_in(0, c, move || {
                crate::backend::host::cta::enter(id, cta);
                k()
            }));
        }
    }
    for h in hs {
        h.join();
    }
}

/// A fence with ordering `o` (`SeqCst` = `fence.sc`) at scope level `lvl` whose PTX is `what`:
/// the scope model's fence, which synchronizes only within its scope. What every fence row's
/// arm is under loom.
#[inline]
pub(crate) fn fence_at(o: Ordering, lvl: u8, what: &'static str) {
    use crate::model::FenceKind as K;
    let kind = match o {
        Ordering::SeqCst => K::Sc,
        Ordering::AcqRel => K::AcqRel,
        Ordering::Acquire => K::Acquire,
        _ => K::Release,
    };
    crate::model::fence(kind, lvl, what)
}

/// A proxy fence: a compiler fence and the copy engine's proxy check — the thread's earlier
/// generic accesses of `model::Tile`s are ordered before its later async-proxy accesses
/// (`restricted`: only those its own CTA issues, `.sync_restrict::shared::cta`).
#[inline]
pub(crate) fn proxy_fence(restricted: bool) {
    core::sync::atomic::compiler_fence(Ordering::SeqCst);
    if restricted {
        super::copy_engine::fence_proxy_async_restricted();
    } else {
        super::copy_engine::fence_proxy_async();
    }
}

/// One strong 64-bit word of a library type's host state (a barrier's generation and counts, an
/// mbarrier's state), under loom: a strong location of [`crate::model`], so that every access
/// is reported with the scope level the instruction names (`lvl`, as
/// [`Scope::LEVEL`](crate::sem::Scope::LEVEL)) and its PTX (`what`).
pub(crate) struct Word(Location<u64>);

impl Word {
    /// A word holding `v` (a location of the model).
    pub(crate) fn new(v: u64) -> Self {
        Word(Location::new(v))
    }
    /// A load with ordering `o` at scope level `lvl`.
    pub(crate) fn load(&self, lvl: i8, o: Ordering, what: &'static str) -> u64 {
        self.0.load(lvl, o, what)
    }
    /// A store with ordering `o` at scope level `lvl`.
    pub(crate) fn store(&self, v: u64, lvl: i8, o: Ordering, what: &'static str) {
        self.0.store(v, lvl, o, what)
    }
    /// One read-modify-write `f` with ordering `o` at scope level `lvl`; returns the old value.
    pub(crate) fn rmw(
        &self,
        lvl: i8,
        o: Ordering,
        what: &'static str,
        f: impl Fn(u64) -> u64,
    ) -> u64 {
        self.0.rmw(lvl, o, what, f)
    }
}

/// Waits while `cond()` holds, for the host barriers under loom: a model spin
/// ([`crate::model::spin_until`]), so a wait that can never end is a `deadlock: {what}` panic.
pub(crate) fn block_while(
    what: super::host::launch::What,
    _key: usize,
    mut cond: impl FnMut() -> bool,
) {
    crate::model::spin_until(what.text, || !cond());
}

/// After a host barrier completes: nothing (its waiters are model spins).
pub(crate) fn wake(_key: usize) {}
