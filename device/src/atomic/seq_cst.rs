//! Sequentially consistent accesses, spelled as NVIDIA's atomic ABI spells them. PTX has no
//! `ld.sc`, `st.sc` or `atom.sc` (`load::<Sc>()` still does not compile); a C++
//! `memory_order_seq_cst` access is a `fence.sc` at the access's scope followed by the access.
//! The mapping is libcu++'s for sm_70 and later (`cuda::atomic_ref<T, thread_scope_X>` with
//! `memory_order_seq_cst`; CCCL `cuda/std/__atomic/functions/cuda_ptx_generated.h`, the
//! `NV_PROVIDES_SM_70` arm of each `*_memory_order_dispatch`), so a libcu++ port maps one to one
//! and the SASS is the same (`device/tests/cpp_compare.rs`, `docs/zero-cost.md`):
//!
//! | call | PTX | C++ (libcu++) |
//! |---|---|---|
//! | [`load_sc`](AtomicRef::load_sc) | `fence.sc.scope; ld.acquire.scope.type` | `load(memory_order_seq_cst)` |
//! | [`store_sc`](AtomicRef::store_sc) | `fence.sc.scope; st.relaxed.scope.type` | `store(v, memory_order_seq_cst)` |
//! | [`fetch_add_sc`](AtomicRef::fetch_add_sc) and the other `fetch_*_sc`, [`swap_sc`](AtomicRef::swap_sc) | `fence.sc.scope; atom.acquire.scope.op.type` | `fetch_op(v, memory_order_seq_cst)`, `exchange` |
//! | [`compare_exchange_sc`](AtomicRef::compare_exchange_sc) | `fence.sc.scope; atom.acquire.scope.cas.bN` | `compare_exchange_strong(e, v, memory_order_seq_cst)` |
//!
//! Why this is enough (PTX ISA §8.9.3 Fence-SC order, §8.8 release and acquire patterns; seed
//! §2, §3.6): the leading `fence.sc` orders every earlier access of the thread before the access
//! and takes part in Fence-SC order, so two SC accesses of two threads are ordered by their
//! fences (store buffering, seed §3.6, is forbidden); `fence.sc` followed by a strong write is a
//! release pattern, so the store needs no `.release` and the RMW only `.acquire` for its read.
//! The store is `st.relaxed`, not `st.release`, and the RMW `atom.acquire`, not
//! `atom.acq_rel`: that is what libcu++ emits. SM/PTX floors are those of the parts: sm_70, PTX
//! 6.0 (`.cluster` scope sm_90, PTX 7.8). Both parts are table rows (`fence` and `ld`/`st`/`atom`);
//! the composition adds no instruction text of its own.
//!
//! Host: `fence(SeqCst)` then the acquire/relaxed access; under `--cfg loom` the model's
//! `fence.sc` at the scope then the access — the PTX mapping itself, not a C++ `SeqCst` access.
//!
//! ```
//! use ptx_sync::{Strong, Gpu};
//! // one thread's half of store buffering (seed §3.6): with SC accesses on both threads, at
//! // least one of them reads the other's store
//! let (x, y) = (Strong::new(0u32), Strong::new(0u32));
//! x.at::<Gpu>().store_sc(1);                        // fence.sc.gpu; st.relaxed.gpu.u32
//! let r = y.at::<Gpu>().load_sc();                  // fence.sc.gpu; ld.acquire.gpu.u32
//! assert_eq!(r, 0);
//! assert_eq!(x.at::<Gpu>().fetch_add_sc(2), 1);     // fence.sc.gpu; atom.acquire.gpu.add.u32
//! assert_eq!(x.at::<Gpu>().compare_exchange_sc(3, 4), Ok(3));
//! ```

use super::*;
use crate::fence::{fence, FenceInstr};
use crate::sem::{Acquire, Relaxed, Sc};

macro_rules! fetch_sc {
    ($( $(#[$m:meta])* $f:ident => $base:ident, $O:ident $(+ $extra:ident)?; )*) => {$(
        $(#[$m])*
        #[doc = concat!("`fence.sc.scope;` then [`", stringify!($base), "::<Acquire>`](Self::",
                        stringify!($base), ") — libcu++'s `memory_order_seq_cst` form (see the module docs of `atomic::seq_cst`).")]
        #[must_use = "an atom returns the old value"]
        #[inline(always)]
        pub fn $f(&self, v: T) -> T
        where
            T: AtomInstr<op::$O, Acquire, Sco, Sp> $(+ $extra)?,
            Sc: FenceInstr<Sco>,
        {
            fence::<Sc, Sco>();
            self.$base::<Acquire>(v)
        }
    )*};
}

impl<T: Scalar, Sco: Scope, Sp: Space> AtomicRef<'_, T, Sco, Sp> {
    /// `fence.sc.scope; ld.acquire.scope{.space}.type` — a sequentially consistent load, as
    /// libcu++ compiles `atomic_ref<T, thread_scope_X>::load(memory_order_seq_cst)` (sm_70+).
    /// PTX has no `ld.sc`. PTX ISA §8.9.3, §9.7.13.4, §9.7.9.8; seed §3.6.
    ///
    /// ```
    /// let f = ptx_sync::Strong::new(7u64);
    /// assert_eq!(f.at::<ptx_sync::Sys>().load_sc(), 7); // fence.sc.sys; ld.acquire.sys.u64
    /// ```
    #[inline(always)]
    pub fn load_sc(&self) -> T
    where
        T: LdInstr<Acquire, Sco, Sp>,
        Sc: FenceInstr<Sco>,
    {
        fence::<Sc, Sco>();
        self.load::<Acquire>()
    }

    /// `fence.sc.scope; st.relaxed.scope{.space}.type` — a sequentially consistent store, as
    /// libcu++ compiles `store(v, memory_order_seq_cst)` (sm_70+): the fence makes the relaxed
    /// store a release (a fence followed by a strong write, PTX ISA §8.8). PTX has no `st.sc`.
    /// PTX ISA §8.9.3, §9.7.13.4, §9.7.9.10; seed §3.6.
    ///
    /// ```
    /// let f = ptx_sync::Strong::new(0u32);
    /// f.at::<ptx_sync::Cta>().store_sc(5); // fence.sc.cta; st.relaxed.cta.u32
    /// assert_eq!(f.at::<ptx_sync::Cta>().load_sc(), 5);
    /// ```
    #[inline(always)]
    pub fn store_sc(&self, v: T)
    where
        T: StInstr<Relaxed, Sco, Sp>,
        Sc: FenceInstr<Sco>,
    {
        fence::<Sc, Sco>();
        self.store::<Relaxed>(v)
    }

    fetch_sc! {
        /// A sequentially consistent `fetch_add`.
        ///
        /// ```
        /// let f = ptx_sync::Strong::new(1u32);
        /// assert_eq!(f.at::<ptx_sync::Gpu>().fetch_add_sc(1), 1); // fence.sc.gpu; atom.acquire.gpu.add.u32
        /// ```
        fetch_add_sc => fetch_add, Add;
        /// A sequentially consistent `fetch_sub` (`atom.add` of `-v`).
        fetch_sub_sc => fetch_sub, Add + Negate;
        /// A sequentially consistent `fetch_min`.
        fetch_min_sc => fetch_min, Min;
        /// A sequentially consistent `fetch_max`.
        fetch_max_sc => fetch_max, Max;
        /// A sequentially consistent `fetch_and`.
        fetch_and_sc => fetch_and, And;
        /// A sequentially consistent `fetch_or`.
        fetch_or_sc => fetch_or, Or;
        /// A sequentially consistent `fetch_xor`.
        fetch_xor_sc => fetch_xor, Xor;
        /// A sequentially consistent `swap` (`atom.acquire.scope.exch.bN`; C++ `exchange`).
        swap_sc => swap, Exch;
    }

    /// `fence.sc.scope; atom.acquire.scope{.space}.cas.bN` — a sequentially consistent
    /// compare-and-swap, as libcu++ compiles `compare_exchange_strong(e, v,
    /// memory_order_seq_cst)` (sm_70+; one semantic for both outcomes, as in PTX). PTX ISA
    /// §8.9.3, §9.7.13.5; seed §3.6, §4.3.
    ///
    /// ```
    /// let f = ptx_sync::Strong::new(1u32);
    /// assert_eq!(f.at::<ptx_sync::Gpu>().compare_exchange_sc(0, 2), Err(1));
    /// ```
    #[must_use = "a cas returns whether it wrote and the old value"]
    #[inline(always)]
    pub fn compare_exchange_sc(&self, current: T, new: T) -> Result<T, T>
    where
        T: CasInstr<Acquire, Sco, Sp>,
        Sc: FenceInstr<Sco>,
    {
        fence::<Sc, Sco>();
        self.compare_exchange::<Acquire>(current, new)
    }
}
