//! The nvptx64 backend: every operation is the inline PTX of its instruction row (the leaves'
//! `exec`/`ld`/`st`/… functions, which exist only in an nvptx64 build). The barriers hold no
//! memory here: a named barrier is its id and count, the cluster barrier nothing.

pub mod access;

use super::{AccessBackend, BarBackend, CpAsyncBackend, Loc, WaitBackend};
use crate::atomic::{op, AtomInstr, CasInstr, LdInstr, RedInstr, StInstr};
use crate::barrier::{
    Alignment, BarArrive, BarRedAnd, BarRedOr, BarRedPopc, BarSync, BarrierArrive, BarrierRedAnd,
    BarrierRedOr, BarrierRedPopc, BarrierSync, ClusterArriveInstr, ClusterWaitInstr,
};
use crate::copy::CpAsyncLeaf;
use crate::policy::CachePolicy;
use crate::sem::{LoadSem, RedSem, RmwSem, Scope, Space, StoreSem};
use crate::shared::SharedAddr;
use crate::wait::{clock64, globaltimer, nanosleep, Budget, Timeout};

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
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe { L::exec(dst.0, src as u64) }
    }
    #[inline(always)]
    unsafe fn cp_async_zfill<L: CpAsyncLeaf>(dst: SharedAddr, src: *const u8, src_size: u32) {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe { L::exec_zfill(dst.0, src as u64, src_size) }
    }
    #[inline(always)]
    unsafe fn cp_async_hint<L: CpAsyncLeaf>(dst: SharedAddr, src: *const u8, pol: CachePolicy) {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe { L::exec_hint(dst.0, src as u64, pol.0) }
    }
    #[inline(always)]
    unsafe fn cp_async_zfill_hint<L: CpAsyncLeaf>(
        dst: SharedAddr,
        src: *const u8,
        src_size: u32,
        pol: CachePolicy,
    ) {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe { L::exec_zfill_hint(dst.0, src as u64, src_size, pol.0) }
    }
}

/// The budget in `%globaltimer` nanoseconds, `%clock64` cycles and iterations; the backoff
/// `nanosleep`.
impl WaitBackend for Nvptx {
    #[inline(always)]
    fn spin_until(budget: Budget, mut done: impl FnMut() -> bool) -> Result<u64, Timeout> {
        let (t0, c0) = (globaltimer(), clock64());
        let mut checks = 0u64;
        loop {
            checks += 1;
            if done() {
                return Ok(checks);
            }
            if budget.iterations != 0 && checks >= budget.iterations {
                return Err(Timeout { checks });
            }
            if budget.nanos != 0 && globaltimer().wrapping_sub(t0) > budget.nanos {
                return Err(Timeout { checks });
            }
            if budget.cycles != 0 && clock64().wrapping_sub(c0) > budget.cycles {
                return Err(Timeout { checks });
            }
            if budget.backoff != 0 {
                nanosleep(budget.backoff);
            }
        }
    }
}

/// The raw value of a shared address: `u32` on the device, `usize` (a host pointer) elsewhere.
pub type RawShared = u32;

/// `.shared::cta` → generic: `cvt.u64.u32` + `cvta.shared::cta.u64` (PTX 7.8, sm_90).
#[inline(always)]
pub(crate) fn shared_to_generic(a: u32) -> *mut u8 {
    unsafe {
        let p: u64;
        core::arch::asm!(
            "{{ .reg .b64 t; cvt.u64.u32 t, {a}; cvta.shared::cta.u64 {p}, t; }}",
            a = in(reg32) a, p = out(reg64) p,
            options(pure, nomem, nostack, preserves_flags)
        );
        p as *mut u8
    }
}

/// Generic → `.shared::cta`: `cvta.to.shared::cta.u64` + `cvt.u32.u64` (PTX 7.8, sm_90).
#[inline(always)]
pub(crate) fn generic_to_shared(p: *const u8) -> u32 {
    unsafe {
        let a: u32;
        core::arch::asm!(
            "{{ .reg .b64 t; cvta.to.shared::cta.u64 t, {p}; cvt.u32.u64 {a}, t; }}",
            p = in(reg64) p, a = out(reg32) a,
            options(pure, nomem, nostack, preserves_flags)
        );
        a
    }
}

/// The dynamic window: `mov.u32 r, __ptx_sync_dyn_smem;` (declared by the `dynamic-smem`
/// feature's `global_asm!`).
#[inline(always)]
#[cfg_attr(not(feature = "dynamic-smem"), allow(dead_code))]
pub(crate) fn dyn_smem() -> u32 {
    let a: u32;
    unsafe {
        core::arch::asm!(crate::__dyn_smem_ptx!(read), a = out(reg32) a,
                         options(pure, nomem, nostack, preserves_flags));
    }
    a
}

/// `shared_array!`'s declaration: `.shared .align A .b8 __ptx_sync_smem_NAME[BYTES];`.
#[doc(hidden)]
#[macro_export]
macro_rules! __ptx_sync_smem_decl {
    ($name:ident, $T:ty, $N:expr, $al:literal) => {
        ::core::arch::global_asm!(
            concat!(".shared .align {al} .b8 __ptx_sync_smem_", stringify!($name), "[{bytes}];"),
            al = const $al,
            bytes = const ($N) * ::core::mem::size_of::<$T>(),
        );
    };
}

/// `shared_array!`'s address: `mov.u32 r, __ptx_sync_smem_NAME;`.
#[doc(hidden)]
#[macro_export]
macro_rules! __ptx_sync_smem_addr {
    ($name:ident, $T:ty, $N:expr, $al:literal) => {
        unsafe {
            let a: u32;
            ::core::arch::asm!(
                concat!("mov.u32 {a}, __ptx_sync_smem_", stringify!($name), ";"),
                a = out(reg32) a, options(pure, nomem, nostack, preserves_flags)
            );
            $crate::shared::SharedAddr(a)
        }
    };
}

/// `dynamic_smem!`: the window's declaration in the calling crate, then its read.
#[doc(hidden)]
#[macro_export]
macro_rules! __ptx_sync_dynamic_smem {
    () => {{
        ::core::arch::global_asm!($crate::__dyn_smem_ptx!(decl));
        let a: u32;
        unsafe {
            ::core::arch::asm!($crate::__dyn_smem_ptx!(read), a = out(reg32) a,
                               options(pure, nomem, nostack, preserves_flags));
        }
        $crate::shared::SharedAddr(a)
    }};
}
