//! The nvptx64 backend: every operation is the inline PTX of its instruction row (the leaves'
//! `exec`/`ld`/`st`/… functions, which exist only in an nvptx64 build). The barriers hold no
//! memory here: a named barrier is its id and count, the cluster barrier nothing.

use super::{AccessBackend, BarBackend, CpAsyncBackend, Loc};
use crate::atomic::{op, AtomInstr, CasInstr, LdInstr, RedInstr, StInstr};
use crate::barrier::{
    Alignment, BarArrive, BarRedAnd, BarRedOr, BarRedPopc, BarSync, BarrierArrive, BarrierRedAnd,
    BarrierRedOr, BarrierRedPopc, BarrierSync, ClusterArriveInstr, ClusterWaitInstr,
};
use crate::copy::CpAsyncLeaf;
use crate::policy::CachePolicy;
use crate::sem::{LoadSem, RedSem, RmwSem, Scope, Space, StoreSem};
use crate::shared::SharedAddr;

/// nvptx64: the table's inline PTX.
pub(crate) struct Nvptx;

impl AccessBackend for Nvptx {
    #[inline(always)]
    fn fence<S: crate::fence::FenceInstr<Sco>, Sco: Scope>() {
        S::exec()
    }
    #[inline(always)]
    fn load<T: LdInstr<S, Sco, Sp>, S: LoadSem, Sco: Scope, Sp: Space>(l: Loc<'_, T>) -> T {
        // SAFETY: the constructor's contract (valid, aligned, in `Sp`).
        unsafe { T::ld(l.0) }
    }
    #[inline(always)]
    fn store<T: StInstr<S, Sco, Sp>, S: StoreSem, Sco: Scope, Sp: Space>(l: Loc<'_, T>, v: T) {
        unsafe { T::st(l.0, v) }
    }
    #[inline(always)]
    fn atom<T: AtomInstr<O, S, Sco, Sp>, O: op::Op, S: RmwSem, Sco: Scope, Sp: Space>(
        l: Loc<'_, T>,
        b: T,
    ) -> T {
        unsafe { T::atom(l.0, b) }
    }
    #[inline(always)]
    fn red<T: RedInstr<O, S, Sco, Sp>, O: op::Op, S: RedSem, Sco: Scope, Sp: Space>(
        l: Loc<'_, T>,
        b: T,
    ) {
        unsafe { T::red(l.0, b) }
    }
    #[inline(always)]
    fn cas<T: CasInstr<S, Sco, Sp>, S: RmwSem, Sco: Scope, Sp: Space>(
        l: Loc<'_, T>,
        current: T,
        new: T,
    ) -> Result<T, T> {
        let old = unsafe { T::cas(l.0, current, new) };
        if old.bits_eq(current) {
            Ok(old)
        } else {
            Err(old)
        }
    }
}

impl BarBackend for Nvptx {
    type Named = ();
    type Cluster = ();
    #[inline(always)]
    fn named(count: u32) {
        assert!(
            count % 32 == 0,
            "bar: thread count must be a multiple of 32 (PTX ISA §9.7.13.1)"
        );
    }
    #[inline(always)]
    fn sync(id: u32, count: u32, _: &(), aligned: bool) {
        unsafe {
            if aligned {
                BarSync::exec(id, count)
            } else {
                BarrierSync::exec(id, count)
            }
        }
    }
    #[inline(always)]
    fn arrive(id: u32, count: u32, _: &(), aligned: bool) {
        unsafe {
            if aligned {
                BarArrive::exec(id, count)
            } else {
                BarrierArrive::exec(id, count)
            }
        }
    }
    #[inline(always)]
    fn red_popc(id: u32, count: u32, _: &(), pred: bool, aligned: bool) -> u32 {
        unsafe {
            if aligned {
                BarRedPopc::exec(id, count, pred as u32)
            } else {
                BarrierRedPopc::exec(id, count, pred as u32)
            }
        }
    }
    #[inline(always)]
    fn red_and(id: u32, count: u32, _: &(), pred: bool, aligned: bool) -> bool {
        unsafe {
            if aligned {
                BarRedAnd::exec(id, count, pred as u32) != 0
            } else {
                BarrierRedAnd::exec(id, count, pred as u32) != 0
            }
        }
    }
    #[inline(always)]
    fn red_or(id: u32, count: u32, _: &(), pred: bool, aligned: bool) -> bool {
        unsafe {
            if aligned {
                BarRedOr::exec(id, count, pred as u32) != 0
            } else {
                BarrierRedOr::exec(id, count, pred as u32) != 0
            }
        }
    }
    #[inline(always)]
    fn sync_threads(aligned: bool) {
        unsafe {
            if aligned {
                BarSync::exec_all(0)
            } else {
                BarrierSync::exec_all(0)
            }
        }
    }
    #[inline(always)]
    fn cluster(_threads: u32) {}
    #[inline(always)]
    fn cluster_arrive<S: ClusterArriveInstr<A>, A: Alignment>(_: &()) -> u32 {
        unsafe { <S as ClusterArriveInstr<A>>::exec() };
        0
    }
    #[inline(always)]
    fn cluster_wait<S: ClusterWaitInstr<A>, A: Alignment>(_: &(), _gen: u32) {
        unsafe { <S as ClusterWaitInstr<A>>::exec() }
    }
}

impl CpAsyncBackend for Nvptx {
    #[inline(always)]
    unsafe fn cp_async<L: CpAsyncLeaf>(dst: SharedAddr, src: *const u8) {
        L::exec(dst.0, src as u64)
    }
    #[inline(always)]
    unsafe fn cp_async_zfill<L: CpAsyncLeaf>(dst: SharedAddr, src: *const u8, src_size: u32) {
        L::exec_zfill(dst.0, src as u64, src_size)
    }
    #[inline(always)]
    unsafe fn cp_async_hint<L: CpAsyncLeaf>(dst: SharedAddr, src: *const u8, pol: CachePolicy) {
        L::exec_hint(dst.0, src as u64, pol.0)
    }
    #[inline(always)]
    unsafe fn cp_async_zfill_hint<L: CpAsyncLeaf>(
        dst: SharedAddr,
        src: *const u8,
        src_size: u32,
        pol: CachePolicy,
    ) {
        L::exec_zfill_hint(dst.0, src as u64, src_size, pol.0)
    }
}
