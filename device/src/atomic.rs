//! Typed strong accesses: `ld`, `st`, `atom`, `red` — [`AtomicRef`].
//!
//! PTX ISA §9.7.9.8 (`ld`), §9.7.9.10 (`st`), §9.7.13.5 (`atom`), §9.7.13.6 (`red`), and the
//! memory model of chapter 8 (§8.4 strong operations, §8.8 release/acquire patterns). Seed §3.5
//! (flags must be strong), §4.1–4.5 (atomicity, scope of atomicity, `.sem` on atom, barrier, `red`).
//!
//! Every instruction this module can emit is one row of an `access` table of the instruction
//! rows (`device/isa/{ld,st,atom,red}.rows`, schema `device/isa/README.md`): the generator spells
//! the row's mnemonic (for example `atom.acq_rel.gpu.add.u32`) once, as the associated constant
//! `PTX` of the instruction trait ([`LdInstr`], [`StInstr`], [`AtomInstr`], [`CasInstr`],
//! [`RedInstr`]), which tests and `ptx-sync show` read, in the row's `asm!` template (its leaf,
//! `backend/nvptx/access.rs`) and in its catalog row (`catalog::for_each_variant`, host).
//!
//! # Types and the PTX type token
//!
//! | Rust | `ld`/`st` | `add` | `min`/`max` | `and`/`or`/`xor`, `exch`, `cas` | `inc`/`dec` |
//! |---|---|---|---|---|---|
//! | `u16` | `.u16` | – | – | `cas` only: `.b16` (PTX 6.3, sm_70) | – |
//! | `i16` | `.s16` | – | – | `cas` only: `.b16` (PTX 6.3, sm_70) | – |
//! | `u32` | `.u32` | `.u32` | `.u32` | `.b32` | `.u32` |
//! | `i32` | `.s32` | `.s32` | `.s32` | `.b32` | – |
//! | `u64` | `.u64` | `.u64` | `.u64` | `.b64` | – |
//! | `i64` | `.s64` | `.u64` (PTX has no `add.s64`; two's complement is the same) | `.s64` | `.b64` | – |
//! | `f32` | `.f32` | `.f32` | – | `exch`/`cas` only: `.b32` | – |
//! | `f64` | `.f64` | `.f64` | – | `exch`/`cas` only: `.b64` | – |
//! | [`F16`], [`Bf16`] | `.b16` | `.add.noftz.f16` / `.bf16` | – | `cas` only: `.b16` | – |
//! | [`F16x2`], [`Bf16x2`] | `.b32` | `.add.noftz.f16x2` / `.bf16x2` | – | `exch`/`cas` only: `.b32` | – |
//! | `u128` ([`b128`]) | `.b128` | – | – | `exch`/`cas` only: `.b128` (sm_90) | – |
//! | [`vector::V2U32`] … [`vector::V4I16`] | `.v2`/`.v4` `.u32`/`.s32`/`.f32`/`.u16`/`.s16`, `.v2` `.u64`/`.s64`/`.f64` | `V2F32`/`V4F32`: `.add.v2.f32`/`.v4.f32`, `Global`/`Generic` only (sm_90, PTX 8.1) | – | – | – |
//! | [`vector::V2F16`] … [`vector::V4Bf16x2`] (`.v2/.v4/.v8` of `F16`/`Bf16`, `.v2/.v4` of `F16x2`/`Bf16x2`) | `.v2`/`.v4`: `.b16`/`.b32` (no `.v8`) | `.add.noftz.v8.f16` …, `Global`/`Generic` only (sm_90, PTX 8.1) | `.min.noftz`/`.max.noftz` likewise | – | – |
//!
//! A vector ([`vector`]) is loaded or stored by one instruction but is one memory operation per
//! element (PTX ISA §8): it is not an atomic 64- or 128-bit access.
//!
//! The half types ([`half`]) are bit wrappers (Rust has no stable `f16`): `add.noftz` keeps
//! subnormals (the ISA requires `.noftz` on them), a packed pair is atomic per element, and the
//! host adds in `f32` with one rounding to the half (the device's result). Floors:
//! `add.noftz.f16x2` PTX 6.2 / sm_60, `add.noftz.f16` and `cas.b16` 6.3 / sm_70,
//! `add.noftz.bf16{,x2}` 7.8 / sm_90 (§9.7.13.5/6 version notes; with a `.sem`: sm_70 / 6.0).
//!
//! A "–" does not compile. `fetch_sub` is `atom.add` of the negation (PTX has no `atom.sub`).
//!
//! # Example
//!
//! ```
//! use ptx_sync::{AtomicRef, Strong, Gpu, Acquire, Release, Relaxed, AcqRel};
//!
//! let flag = Strong::new(0u32);
//! let full: AtomicRef<u32, Gpu> = AtomicRef::new(&flag);
//! full.store::<Release>(1);                 // st.release.gpu.u32
//! assert_eq!(full.load::<Acquire>(), 1);    // ld.acquire.gpu.u32
//! assert_eq!(full.fetch_add::<AcqRel>(2), 1); // atom.acq_rel.gpu.add.u32
//! full.red_add::<Relaxed>(1);               // red.relaxed.gpu.add.u32
//! assert_eq!(full.load::<Relaxed>(), 4);
//! assert_eq!(<u32 as ptx_sync::atomic::LdInstr<Acquire, Gpu, ptx_sync::Generic>>::PTX,
//!            "ld.acquire.gpu.u32");
//! ```
//!
//! Sequentially consistent accesses are [`AtomicRef::load_sc`], [`store_sc`](AtomicRef::store_sc),
//! the `fetch_*_sc`, [`swap_sc`](AtomicRef::swap_sc) and
//! [`compare_exchange_sc`](AtomicRef::compare_exchange_sc): `fence.sc.scope` then the
//! `ld.acquire` / `st.relaxed` / `atom.acquire` — libcu++'s `memory_order_seq_cst` (PTX has no
//! `.sc` access).
//!
//! `load::<Release>()` does not compile — PTX has no `ld.release`:
//!
//! ```compile_fail
//! use ptx_sync::{AtomicRef, Strong, Gpu, Release};
//! let flag = Strong::new(0u32);
//! let full: AtomicRef<u32, Gpu> = AtomicRef::new(&flag);
//! let _ = full.load::<Release>();
//! ```

use core::marker::PhantomData;

use crate::sem::{Generic, LoadSem, RedSem, RmwSem, Scope, Space, StoreSem};

pub mod b128;
mod cell;
pub mod half;
pub mod op;
mod scalar;
mod seq_cst;
mod table;
pub mod vector;
pub use cell::{Data, Strong};
pub use half::{Bf16, Bf16x2, F16x2, F16};
#[doc(hidden)]
pub use scalar::{Align4, Align8, ScalarHost};
pub use scalar::{Negate, Scalar};
#[allow(unused_imports)]
pub use table::{AtomInstr, CasInstr, LdInstr, RedInstr, StInstr};

// ---------------------------------------------------------------------------------------------
// AtomicRef: every method is one call of the build's backend (`crate::backend`).
// ---------------------------------------------------------------------------------------------

use crate::backend::{AccessBackend, Active, Loc};

/// A strong location seen at scope `Sco` through state space `Sp` — the PTX analogue of
/// `cuda::atomic_ref<T, Scope>`. The semantic is a type parameter of each call
/// (`load::<Acquire>()`), checked at compile time against what PTX allows.
///
/// On `nvptx64` each method is one inline PTX instruction (plus a `cvta.to.<space>` for a
/// non-generic space); elsewhere it is the `core::sync::atomic` operation with the same ordering.
pub struct AtomicRef<'a, T: Scalar, Sco: Scope, Sp: Space = Generic> {
    loc: Loc<'a, T>,
    _m: PhantomData<(Sco, Sp)>,
}

impl<T: Scalar, Sco: Scope, Sp: Space> Clone for AtomicRef<'_, T, Sco, Sp> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: Scalar, Sco: Scope, Sp: Space> Copy for AtomicRef<'_, T, Sco, Sp> {}
unsafe impl<T: Scalar, Sco: Scope, Sp: Space> Send for AtomicRef<'_, T, Sco, Sp> {}
unsafe impl<T: Scalar, Sco: Scope, Sp: Space> Sync for AtomicRef<'_, T, Sco, Sp> {}

impl<'a, T: Scalar, Sco: Scope> AtomicRef<'a, T, Sco, Generic> {
    /// A generic-addressed reference to `cell` at scope `Sco`.
    ///
    /// No instruction. Generic addressing: the access instructions carry no state-space token
    /// (`ld.acquire.gpu.u32`); use [`new_in`](Self::new_in) for `.global`/`.shared::cta`. Same as
    /// [`Strong::at`].
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{AtomicRef, Strong, Cluster, Relaxed};
    /// let s = Strong::new(1i64);
    /// let r: AtomicRef<i64, Cluster> = AtomicRef::new(&s);
    /// assert_eq!(r.load::<Relaxed>(), 1); // ld.relaxed.cluster.s64 (PTX 7.8, sm_90)
    /// ```
    pub fn new(cell: &'a Strong<T>) -> Self {
        AtomicRef {
            loc: cell.c.loc(),
            _m: PhantomData,
        }
    }
}

impl<'a, T: Scalar, Sco: Scope, Sp: Space> AtomicRef<'a, T, Sco, Sp> {
    /// A reference to `cell` addressed through state space `Sp`.
    ///
    /// # Safety
    /// `cell` must lie in `Sp` (e.g. in the CTA's shared memory for [`Shared`](crate::Shared)); a generic
    /// pointer outside that window makes the space-qualified instruction access the wrong memory.
    ///
    /// No instruction; each access then spells `Sp` (`.global`, `.shared::cta`,
    /// `.shared::cluster`: PTX ISA §9.7.9.8) and, on the device, is preceded by
    /// `cvta.to.<space>`. Host: the space is erased.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{AtomicRef, Strong, Gpu, Global, Relaxed, atomic::LdInstr};
    /// let s = Strong::new(4u32);
    /// let g = unsafe { AtomicRef::<u32, Gpu, Global>::new_in(&s) }; // s is in global memory on the device
    /// assert_eq!(g.load::<Relaxed>(), 4);
    /// assert_eq!(<u32 as LdInstr<Relaxed, Gpu, Global>>::PTX, "ld.relaxed.gpu.global.u32");
    /// ```
    pub unsafe fn new_in(cell: &'a Strong<T>) -> Self {
        AtomicRef {
            loc: cell.c.loc(),
            _m: PhantomData,
        }
    }

    /// A reference to the location at the generic address `p`.
    ///
    /// # Safety
    /// `p` must be valid and aligned for `T` for `'a`, lie in `Sp`, and be accessed only by
    /// strong operations while shared.
    ///
    /// No instruction (a cast).
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{AtomicRef, Gpu, AcqRel, Relaxed};
    /// let mut counter = 0u32; // a kernel parameter pointing into global memory
    /// let r = unsafe { AtomicRef::<u32, Gpu>::from_ptr(&mut counter) };
    /// assert_eq!(r.fetch_add::<AcqRel>(1), 0);
    /// assert_eq!(r.load::<Relaxed>(), 1);
    /// ```
    #[cfg(not(loom))]
    pub unsafe fn from_ptr(p: *mut T) -> Self {
        AtomicRef {
            loc: (p, PhantomData),
            _m: PhantomData,
        }
    }

    /// The generic address.
    ///
    /// No instruction.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{AtomicRef, Strong, Gpu};
    /// let s = Strong::new(0u32);
    /// assert_eq!(AtomicRef::<u32, Gpu>::new(&s).as_ptr(), s.as_ptr());
    /// ```
    #[cfg(not(loom))]
    pub fn as_ptr(&self) -> *mut T {
        self.loc.0
    }

    /// `ld{.sem}{.scope}{.space}.type` — a load with semantic `S` ∈ {`Weak`, `Volatile`,
    /// `Relaxed`, `Acquire`}. A spin on a flag must use a strong semantic (seed §3.5: a `Weak`
    /// spin loop is deleted). `load::<Release>()`, `load::<AcqRel>()` and `load::<Sco>()` do not
    /// compile (PTX has no `ld.release`, `ld.sc`).
    ///
    /// PTX (`Generic` space, `u32`): `ld.u32` (`Weak`), `ld.volatile.u32`, `ld.relaxed.gpu.u32`,
    /// `ld.acquire.gpu.u32`. SASS (ptxas 13.0.88, sm_90, `docs/fence-costs.md`): `ld.relaxed.cta` →
    /// `LD.E.STRONG.SM`; `ld.relaxed.gpu` → `LD.E.STRONG.GPU`; `ld.acquire.gpu` →
    /// `LD.E.STRONG.GPU CCTL.IVALL` (the acquire is the L1 invalidate); `ld.acquire.cta` →
    /// `LD.E.STRONG.SM` only. Floor: PTX 6.0 / sm_70 (`.cluster`: 7.8 / sm_90). PTX ISA §9.7.9.8,
    /// §8.8; seed §3 (acquire), §3.5 (strong flag loads).
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Acquire, Relaxed, Weak, Generic, atomic::LdInstr};
    /// let flag = Strong::new(1u32);
    /// let r = flag.at::<Gpu>();
    /// assert_eq!(r.load::<Acquire>(), 1);
    /// assert_eq!(r.load::<Relaxed>() + r.load::<Weak>(), 2);
    /// assert_eq!(<u32 as LdInstr<Acquire, Gpu, Generic>>::PTX, "ld.acquire.gpu.u32");
    /// assert_eq!(<u32 as LdInstr<Weak, Gpu, Generic>>::PTX, "ld.u32");
    /// assert_eq!(<u32 as LdInstr<ptx_sync::Volatile, Gpu, Generic>>::PTX, "ld.volatile.u32");
    /// ```
    ///
    /// ```compile_fail
    /// let flag = ptx_sync::Strong::new(1u32);
    /// let _ = flag.at::<ptx_sync::Gpu>().load::<ptx_sync::Release>(); // PTX has no ld.release
    /// ```
    #[inline(always)]
    pub fn load<S: LoadSem>(&self) -> T
    where
        T: LdInstr<S, Sco, Sp>,
    {
        Active::load::<T, S, Sco, Sp>(self.loc)
    }

    /// `st{.sem}{.scope}{.space}.type` — a store with `S` ∈ {`Weak`, `Volatile`, `Relaxed`,
    /// `Release`}. `store::<Acquire>()` does not compile (PTX has no `st.acquire`).
    ///
    /// PTX (`Generic`, `u32`): `st.u32`, `st.volatile.u32`, `st.relaxed.gpu.u32`,
    /// `st.release.gpu.u32`. SASS (ptxas 13.0.88, sm_90, `docs/fence-costs.md`):
    /// `st.relaxed.gpu` → `ST.E.STRONG.GPU`; `st.release.cta` → `MEMBAR.ALL.CTA ST.E.STRONG.SM`;
    /// `st.release.gpu` → `MEMBAR.ALL.GPU ERRBAR CGAERRBAR ST.E.STRONG.GPU`. Floor: PTX 6.0 /
    /// sm_70 (`.cluster`: 7.8 / sm_90). PTX ISA §9.7.9.10, §8.8; seed §3 (the producer's release).
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Acquire, Release, wait::{spin_until, Budget}};
    /// let flag = Strong::new(0u32);
    /// std::thread::scope(|s| {
    ///     s.spawn(|| flag.at::<Gpu>().store::<Release>(1)); // st.release.gpu.u32
    ///     let r = spin_until(Budget::iterations(1 << 30), || flag.at::<Gpu>().load::<Acquire>() == 1);
    ///     assert!(r.is_ok());
    /// });
    /// ```
    ///
    /// ```compile_fail
    /// let flag = ptx_sync::Strong::new(0u32);
    /// flag.at::<ptx_sync::Gpu>().store::<ptx_sync::Acquire>(1); // PTX has no st.acquire
    /// ```
    #[inline(always)]
    pub fn store<S: StoreSem>(&self, v: T)
    where
        T: StInstr<S, Sco, Sp>,
    {
        Active::store::<T, S, Sco, Sp>(self.loc, v)
    }

    #[inline(always)]
    fn atom<O: op::Op, S: RmwSem>(&self, b: T) -> T
    where
        T: AtomInstr<O, S, Sco, Sp>,
    {
        Active::atom::<T, O, S, Sco, Sp>(self.loc, b)
    }

    #[inline(always)]
    fn red<O: op::Op, S: RedSem>(&self, b: T)
    where
        T: RedInstr<O, S, Sco, Sp>,
    {
        Active::red::<T, O, S, Sco, Sp>(self.loc, b)
    }

    /// `atom{.sem}{.scope}{.space}.add.type` — returns the old value. Atomicity holds only
    /// against accesses whose scope includes this thread (seed §4.2).
    ///
    /// `S` ∈ {`Relaxed`, `Acquire`, `Release`, `AcqRel`}; types: all six scalars (`i64` adds as
    /// `.u64`). `Weak`/`Volatile` do not compile (an `atom` is always strong). SASS (ptxas 13.0.88,
    /// sm_90, `docs/fence-costs.md`, `u32`): `atom.relaxed.gpu.add` → `ATOM.E.ADD.STRONG.GPU`;
    /// `atom.acq_rel.gpu.add` → `MEMBAR.ALL.GPU ERRBAR CGAERRBAR ATOM.E.ADD.STRONG.GPU CCTL.IVALL`.
    /// Floor: PTX 6.0 / sm_70 (`.cluster`: 7.8 / sm_90). PTX ISA §9.7.13.5; seed §4.1–4.3.
    ///
    /// # Examples
    ///
    /// A last-block-done counter: every block adds one, the block that sees `n - 1` is last.
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, AcqRel, Generic, atomic::{op, AtomInstr}};
    /// let done = Strong::new(0u32);
    /// let last = std::thread::scope(|s| {
    ///     let h: Vec<_> = (0..4).map(|_| s.spawn(|| done.at::<Gpu>().fetch_add::<AcqRel>(1) == 3)).collect();
    ///     h.into_iter().map(|h| h.join().unwrap()).filter(|&l| l).count()
    /// });
    /// assert_eq!(last, 1);
    /// assert_eq!(<u32 as AtomInstr<op::Add, AcqRel, Gpu, Generic>>::PTX, "atom.acq_rel.gpu.add.u32");
    /// ```
    ///
    /// ```compile_fail
    /// let c = ptx_sync::Strong::new(0u32);
    /// let _ = c.at::<ptx_sync::Gpu>().fetch_add::<ptx_sync::Weak>(1); // atom has no weak form
    /// ```
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn fetch_add<S: RmwSem>(&self, v: T) -> T
    where
        T: AtomInstr<op::Add, S, Sco, Sp>,
    {
        self.atom::<op::Add, S>(v)
    }

    /// `atom{.sem}{.scope}{.space}.add.type` of `-v` (PTX has no `atom.sub`).
    ///
    /// Semantics, scopes, SASS and floor as [`fetch_add`](Self::fetch_add) (it is that
    /// instruction). PTX ISA §9.7.13.5; seed §4.1.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Relaxed};
    /// let c = Strong::new(10i32);
    /// assert_eq!(c.at::<Gpu>().fetch_sub::<Relaxed>(3), 10); // atom.relaxed.gpu.add.s32 of -3
    /// assert_eq!(c.at::<Gpu>().load::<Relaxed>(), 7);
    /// ```
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn fetch_sub<S: RmwSem>(&self, v: T) -> T
    where
        T: AtomInstr<op::Add, S, Sco, Sp> + Negate,
    {
        self.atom::<op::Add, S>(v.negate())
    }

    /// `atom{.sem}{.scope}{.space}.min.type` (integers only).
    ///
    /// `S` ∈ {`Relaxed`, `Acquire`, `Release`, `AcqRel`}; `u32`/`i32`/`u64`/`i64` (`.u32`, `.s32`,
    /// `.u64`, `.s64`). `f32`/`f64` do not compile (PTX has no `atom.min.f32` in this table).
    /// SASS: not recorded in the repo (the costs snapshot measures `.add`). Floor: PTX 6.0 /
    /// sm_70 (`.cluster`: 7.8 / sm_90). PTX ISA §9.7.13.5; seed §4.1.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Relaxed, Generic, atomic::{op, AtomInstr}};
    /// let m = Strong::new(5i32);
    /// assert_eq!(m.at::<Gpu>().fetch_min::<Relaxed>(-2), 5);
    /// assert_eq!(m.at::<Gpu>().load::<Relaxed>(), -2);
    /// assert_eq!(<i32 as AtomInstr<op::Min, Relaxed, Gpu, Generic>>::PTX, "atom.relaxed.gpu.min.s32");
    /// ```
    ///
    /// ```compile_fail
    /// let m = ptx_sync::Strong::new(1.0f32);
    /// let _ = m.at::<ptx_sync::Gpu>().fetch_min::<ptx_sync::Relaxed>(0.5);
    /// ```
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn fetch_min<S: RmwSem>(&self, v: T) -> T
    where
        T: AtomInstr<op::Min, S, Sco, Sp>,
    {
        self.atom::<op::Min, S>(v)
    }

    /// `atom{.sem}{.scope}{.space}.max.type` (integers only).
    ///
    /// As [`fetch_min`](Self::fetch_min) (`.max`): integers only, the same semantics and floor;
    /// SASS not recorded in the repo. PTX ISA §9.7.13.5; seed §4.1.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Release, Relaxed};
    /// let m = Strong::new(5u64);
    /// assert_eq!(m.at::<Gpu>().fetch_max::<Release>(9), 5); // atom.release.gpu.max.u64
    /// assert_eq!(m.at::<Gpu>().load::<Relaxed>(), 9);
    /// ```
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn fetch_max<S: RmwSem>(&self, v: T) -> T
    where
        T: AtomInstr<op::Max, S, Sco, Sp>,
    {
        self.atom::<op::Max, S>(v)
    }

    /// `atom{.sem}{.scope}{.space}.and.bN` (integers only).
    ///
    /// `S` ∈ {`Relaxed`, `Acquire`, `Release`, `AcqRel`}; `.b32` for `u32`/`i32`, `.b64` for
    /// `u64`/`i64`; floats do not compile. SASS not recorded in the repo. Floor: PTX 6.0 / sm_70
    /// (`.cluster`: 7.8 / sm_90). PTX ISA §9.7.13.5; seed §4.1.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Cta, Relaxed, Generic, atomic::{op, AtomInstr}};
    /// let bits = Strong::new(0b1110u32);
    /// assert_eq!(bits.at::<Cta>().fetch_and::<Relaxed>(0b0111), 0b1110);
    /// assert_eq!(bits.at::<Cta>().load::<Relaxed>(), 0b0110);
    /// assert_eq!(<u32 as AtomInstr<op::And, Relaxed, Cta, Generic>>::PTX, "atom.relaxed.cta.and.b32");
    /// ```
    ///
    /// ```compile_fail
    /// let f = ptx_sync::Strong::new(1.0f64);
    /// let _ = f.at::<ptx_sync::Gpu>().fetch_and::<ptx_sync::Relaxed>(2.0);
    /// ```
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn fetch_and<S: RmwSem>(&self, v: T) -> T
    where
        T: AtomInstr<op::And, S, Sco, Sp>,
    {
        self.atom::<op::And, S>(v)
    }

    /// `atom{.sem}{.scope}{.space}.or.bN` (integers only).
    ///
    /// As [`fetch_and`](Self::fetch_and) (`.or`). PTX ISA §9.7.13.5; seed §4.1.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, AcqRel, Relaxed};
    /// let bits = Strong::new(0b0001u64);
    /// assert_eq!(bits.at::<Gpu>().fetch_or::<AcqRel>(0b1000), 0b0001); // atom.acq_rel.gpu.or.b64
    /// assert_eq!(bits.at::<Gpu>().load::<Relaxed>(), 0b1001);
    /// ```
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn fetch_or<S: RmwSem>(&self, v: T) -> T
    where
        T: AtomInstr<op::Or, S, Sco, Sp>,
    {
        self.atom::<op::Or, S>(v)
    }

    /// `atom{.sem}{.scope}{.space}.xor.bN` (integers only).
    ///
    /// As [`fetch_and`](Self::fetch_and) (`.xor`). PTX ISA §9.7.13.5; seed §4.1.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Relaxed};
    /// let b = Strong::new(-1i32);
    /// assert_eq!(b.at::<Gpu>().fetch_xor::<Relaxed>(-1), -1); // atom.relaxed.gpu.xor.b32
    /// assert_eq!(b.at::<Gpu>().load::<Relaxed>(), 0);
    /// ```
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn fetch_xor<S: RmwSem>(&self, v: T) -> T
    where
        T: AtomInstr<op::Xor, S, Sco, Sp>,
    {
        self.atom::<op::Xor, S>(v)
    }

    /// `atom{.sem}{.scope}{.space}.exch.bN` — stores `v`, returns the old value.
    ///
    /// `S` ∈ {`Relaxed`, `Acquire`, `Release`, `AcqRel`}; all six scalars (`.b32`/`.b64`, floats
    /// by their bits). SASS not recorded in the repo. Floor: PTX 6.0 / sm_70 (`.cluster`: 7.8 /
    /// sm_90). PTX ISA §9.7.13.5; seed §4.1.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, AcqRel, Relaxed, Generic, atomic::{op, AtomInstr}};
    /// let slot = Strong::new(1.5f32);
    /// assert_eq!(slot.at::<Gpu>().swap::<AcqRel>(2.5), 1.5);
    /// assert_eq!(slot.at::<Gpu>().load::<Relaxed>(), 2.5);
    /// assert_eq!(<f32 as AtomInstr<op::Exch, AcqRel, Gpu, Generic>>::PTX, "atom.acq_rel.gpu.exch.b32");
    /// ```
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn swap<S: RmwSem>(&self, v: T) -> T
    where
        T: AtomInstr<op::Exch, S, Sco, Sp>,
    {
        self.atom::<op::Exch, S>(v)
    }

    /// `atom{.sem}{.scope}{.space}.inc.u32` — `old >= bound ? 0 : old + 1`, returns `old`.
    ///
    /// `S` ∈ {`Relaxed`, `Acquire`, `Release`, `AcqRel`}; `u32` only (other types do not compile:
    /// PTX has only `atom.inc.u32`). A ring index in one instruction. SASS not recorded in the
    /// repo. Floor: PTX 6.0 / sm_70 (`.cluster`: 7.8 / sm_90). PTX ISA §9.7.13.5; seed §4.1.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Relaxed, Generic, atomic::{op, AtomInstr}};
    /// let i = Strong::new(2u32);
    /// assert_eq!(i.at::<Gpu>().fetch_inc::<Relaxed>(2), 2); // 2 >= 2: wraps to 0
    /// assert_eq!(i.at::<Gpu>().fetch_inc::<Relaxed>(2), 0);
    /// assert_eq!(i.at::<Gpu>().load::<Relaxed>(), 1);
    /// assert_eq!(<u32 as AtomInstr<op::Inc, Relaxed, Gpu, Generic>>::PTX, "atom.relaxed.gpu.inc.u32");
    /// ```
    ///
    /// ```compile_fail
    /// let i = ptx_sync::Strong::new(0u64);
    /// let _ = i.at::<ptx_sync::Gpu>().fetch_inc::<ptx_sync::Relaxed>(3); // no atom.inc.u64
    /// ```
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn fetch_inc<S: RmwSem>(&self, bound: T) -> T
    where
        T: AtomInstr<op::Inc, S, Sco, Sp>,
    {
        self.atom::<op::Inc, S>(bound)
    }

    /// `atom{.sem}{.scope}{.space}.dec.u32` — `(old == 0 || old > bound) ? bound : old - 1`.
    ///
    /// As [`fetch_inc`](Self::fetch_inc) (`.dec`, `u32` only), returns `old`. PTX ISA §9.7.13.5;
    /// seed §4.1.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Relaxed};
    /// let i = Strong::new(0u32);
    /// assert_eq!(i.at::<Gpu>().fetch_dec::<Relaxed>(3), 0); // 0: wraps to the bound
    /// assert_eq!(i.at::<Gpu>().load::<Relaxed>(), 3);
    /// ```
    #[must_use = "an atom returns the old value: use the red_* form (`red`) when it is not needed (seed §4.5)"]
    #[inline(always)]
    pub fn fetch_dec<S: RmwSem>(&self, bound: T) -> T
    where
        T: AtomInstr<op::Dec, S, Sco, Sp>,
    {
        self.atom::<op::Dec, S>(bound)
    }

    /// `atom{.sem}{.scope}{.space}.cas.bN` — if the value is bitwise `current`, writes `new`.
    /// `Ok(old)` on success, `Err(old)` otherwise. One semantic for both outcomes, as in PTX.
    ///
    /// `S` ∈ {`Relaxed`, `Acquire`, `Release`, `AcqRel`}; all six scalars (`.b32`/`.b64`, floats
    /// compared by bits). There is no separate failure ordering (PTX has one `.sem`). SASS not
    /// recorded in the repo. Floor: PTX 6.0 / sm_70 (`.cluster`: 7.8 / sm_90). PTX ISA §9.7.13.5;
    /// seed §4.1–4.3.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, AcqRel, Generic, atomic::CasInstr};
    /// let lock = Strong::new(0u32);
    /// assert_eq!(lock.at::<Gpu>().compare_exchange::<AcqRel>(0, 1), Ok(0)); // taken
    /// assert_eq!(lock.at::<Gpu>().compare_exchange::<AcqRel>(0, 1), Err(1)); // already held
    /// assert_eq!(<u32 as CasInstr<AcqRel, Gpu, Generic>>::PTX, "atom.acq_rel.gpu.cas.b32");
    /// ```
    #[must_use = "a cas returns whether it wrote and the old value"]
    #[inline(always)]
    pub fn compare_exchange<S: RmwSem>(&self, current: T, new: T) -> Result<T, T>
    where
        T: CasInstr<S, Sco, Sp>,
    {
        Active::cas::<T, S, Sco, Sp>(self.loc, current, new)
    }

    /// `red{.sem}{.scope}{.space}.add.type` — no result, `S` ∈ {`Relaxed`, `Release`}. SASS
    /// `REDG` on `.global`; on a generic address ptxas 13.0 emits an `ATOM` whose result is
    /// dropped. `red_add::<Acquire>()` does not compile: red cannot acquire (seed §4.5).
    ///
    /// Types: all six scalars (as `fetch_add`). `Weak`, `Acquire` and `AcqRel` do not compile.
    /// SASS (ptxas 13.0.88, sm_90, `docs/fence-costs.md`, `u32`, generic address):
    /// `red.relaxed.gpu.add` → `ATOM.E.ADD.STRONG.GPU`; `red.release.gpu.add` →
    /// `MEMBAR.ALL.GPU ERRBAR CGAERRBAR ATOM.E.ADD.STRONG.GPU`. Floor: PTX 6.0 / sm_70
    /// (`.cluster`: 7.8 / sm_90). PTX ISA §9.7.13.6; seed §4.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Relaxed, Generic, atomic::{op, RedInstr}};
    /// let hist = Strong::new(0u64);
    /// std::thread::scope(|s| for _ in 0..4 { s.spawn(|| hist.at::<Gpu>().red_add::<Relaxed>(5)); });
    /// assert_eq!(hist.at::<Gpu>().load::<Relaxed>(), 20);
    /// assert_eq!(<u64 as RedInstr<op::Add, Relaxed, Gpu, Generic>>::PTX, "red.relaxed.gpu.add.u64");
    /// ```
    ///
    /// ```compile_fail
    /// let c = ptx_sync::Strong::new(0u32);
    /// c.at::<ptx_sync::Gpu>().red_add::<ptx_sync::Acquire>(1); // red cannot acquire
    /// ```
    #[inline(always)]
    pub fn red_add<S: RedSem>(&self, v: T)
    where
        T: RedInstr<op::Add, S, Sco, Sp>,
    {
        self.red::<op::Add, S>(v)
    }
    /// `red{.sem}{.scope}{.space}.add.type` of `-v`.
    ///
    /// `S` ∈ {`Relaxed`, `Release`}; SASS and floor as [`red_add`](Self::red_add) (it is that
    /// instruction). PTX ISA §9.7.13.6; seed §4.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Release, Relaxed};
    /// let c = Strong::new(8i64);
    /// c.at::<Gpu>().red_sub::<Release>(3); // red.release.gpu.add.u64 of -3
    /// assert_eq!(c.at::<Gpu>().load::<Relaxed>(), 5);
    /// ```
    #[inline(always)]
    pub fn red_sub<S: RedSem>(&self, v: T)
    where
        T: RedInstr<op::Add, S, Sco, Sp> + Negate,
    {
        self.red::<op::Add, S>(v.negate())
    }
    /// `red{.sem}{.scope}{.space}.min.type`.
    ///
    /// `S` ∈ {`Relaxed`, `Release`}; integers only (floats do not compile). SASS not recorded in
    /// the repo. Floor: PTX 6.0 / sm_70 (`.cluster`: 7.8 / sm_90). PTX ISA §9.7.13.6; seed §4.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Relaxed, Generic, atomic::{op, RedInstr}};
    /// let lo = Strong::new(100u32);
    /// lo.at::<Gpu>().red_min::<Relaxed>(7);
    /// assert_eq!(lo.at::<Gpu>().load::<Relaxed>(), 7);
    /// assert_eq!(<u32 as RedInstr<op::Min, Relaxed, Gpu, Generic>>::PTX, "red.relaxed.gpu.min.u32");
    /// ```
    #[inline(always)]
    pub fn red_min<S: RedSem>(&self, v: T)
    where
        T: RedInstr<op::Min, S, Sco, Sp>,
    {
        self.red::<op::Min, S>(v)
    }
    /// `red{.sem}{.scope}{.space}.max.type`.
    ///
    /// As [`red_min`](Self::red_min) (`.max`). PTX ISA §9.7.13.6; seed §4.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Relaxed};
    /// let hi = Strong::new(-5i32);
    /// hi.at::<Gpu>().red_max::<Relaxed>(3); // red.relaxed.gpu.max.s32
    /// assert_eq!(hi.at::<Gpu>().load::<Relaxed>(), 3);
    /// ```
    #[inline(always)]
    pub fn red_max<S: RedSem>(&self, v: T)
    where
        T: RedInstr<op::Max, S, Sco, Sp>,
    {
        self.red::<op::Max, S>(v)
    }
    /// `red{.sem}{.scope}{.space}.and.bN`.
    ///
    /// `S` ∈ {`Relaxed`, `Release`}; `.b32`/`.b64` integers only. SASS not recorded in the repo.
    /// Floor: PTX 6.0 / sm_70 (`.cluster`: 7.8 / sm_90). PTX ISA §9.7.13.6; seed §4.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Cta, Relaxed};
    /// let m = Strong::new(0xffu32);
    /// m.at::<Cta>().red_and::<Relaxed>(0x0f); // red.relaxed.cta.and.b32
    /// assert_eq!(m.at::<Cta>().load::<Relaxed>(), 0x0f);
    /// ```
    #[inline(always)]
    pub fn red_and<S: RedSem>(&self, v: T)
    where
        T: RedInstr<op::And, S, Sco, Sp>,
    {
        self.red::<op::And, S>(v)
    }
    /// `red{.sem}{.scope}{.space}.or.bN`.
    ///
    /// As [`red_and`](Self::red_and) (`.or`). PTX ISA §9.7.13.6; seed §4.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Release, Relaxed};
    /// let m = Strong::new(0u64);
    /// m.at::<Gpu>().red_or::<Release>(1 << 40); // red.release.gpu.or.b64
    /// assert_eq!(m.at::<Gpu>().load::<Relaxed>(), 1 << 40);
    /// ```
    #[inline(always)]
    pub fn red_or<S: RedSem>(&self, v: T)
    where
        T: RedInstr<op::Or, S, Sco, Sp>,
    {
        self.red::<op::Or, S>(v)
    }
    /// `red{.sem}{.scope}{.space}.xor.bN`.
    ///
    /// As [`red_and`](Self::red_and) (`.xor`). PTX ISA §9.7.13.6; seed §4.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Relaxed};
    /// let m = Strong::new(0b1010u32);
    /// m.at::<Gpu>().red_xor::<Relaxed>(0b1111); // red.relaxed.gpu.xor.b32
    /// assert_eq!(m.at::<Gpu>().load::<Relaxed>(), 0b0101);
    /// ```
    #[inline(always)]
    pub fn red_xor<S: RedSem>(&self, v: T)
    where
        T: RedInstr<op::Xor, S, Sco, Sp>,
    {
        self.red::<op::Xor, S>(v)
    }
    /// `red{.sem}{.scope}{.space}.inc.u32`.
    ///
    /// `S` ∈ {`Relaxed`, `Release`}; `u32` only. SASS not recorded in the repo. Floor: PTX 6.0 /
    /// sm_70 (`.cluster`: 7.8 / sm_90). PTX ISA §9.7.13.6; seed §4.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Relaxed};
    /// let i = Strong::new(3u32);
    /// i.at::<Gpu>().red_inc::<Relaxed>(3); // 3 >= 3: wraps to 0
    /// assert_eq!(i.at::<Gpu>().load::<Relaxed>(), 0);
    /// ```
    ///
    /// ```compile_fail
    /// let i = ptx_sync::Strong::new(3i32);
    /// i.at::<ptx_sync::Gpu>().red_inc::<ptx_sync::Relaxed>(3); // red.inc is .u32 only
    /// ```
    #[inline(always)]
    pub fn red_inc<S: RedSem>(&self, bound: T)
    where
        T: RedInstr<op::Inc, S, Sco, Sp>,
    {
        self.red::<op::Inc, S>(bound)
    }
    /// `red{.sem}{.scope}{.space}.dec.u32`.
    ///
    /// As [`red_inc`](Self::red_inc) (`.dec`, `u32` only). PTX ISA §9.7.13.6; seed §4.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Strong, Gpu, Relaxed};
    /// let i = Strong::new(2u32);
    /// i.at::<Gpu>().red_dec::<Relaxed>(5);
    /// assert_eq!(i.at::<Gpu>().load::<Relaxed>(), 1);
    /// ```
    #[inline(always)]
    pub fn red_dec<S: RedSem>(&self, bound: T)
    where
        T: RedInstr<op::Dec, S, Sco, Sp>,
    {
        self.red::<op::Dec, S>(bound)
    }
}
