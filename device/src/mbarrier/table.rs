//! The mbarrier instructions: the markers of the fixed forms (`init`, `inval`, the
//! `.noComplete` arrives, `pending_count`) and the traits [`ArriveInstr`], [`RemoteArriveInstr`],
//! [`WaitInstr`], [`TxInstr`] implemented for the legal (semantic, scope) rows, with their
//! `asm!` (PTX ISA §9.7.13.15).

use crate::instr::instr;
#[allow(unused_imports)]
use crate::instr::{asm_text, with_ops};
use crate::sem::tok;
#[allow(unused_imports)]
use crate::sem::{Acquire, Cluster, Cta, Relaxed, Release, Scope, Sem};
#[cfg(target_arch = "nvptx64")]
use core::arch::asm;
#[cfg(not(target_arch = "nvptx64"))]
use core::sync::atomic::Ordering;

instr! {
    /// `mbarrier.init.shared::cta.b64 [a], count;` (PTX 7.8 for the `.shared::cta` spelling, sm_80).
    MbarrierInit = ("mbarrier.init", tok!(Shared), ".b64");
    fn exec(a: u32, n: u32) => m {
        asm!(asm_text!(none; (mbar_a_n); m!()), a = in(reg32) a, n = in(reg32) n, options(nostack, preserves_flags));
    }
}
instr! {
    /// `mbarrier.inval.shared::cta.b64 [a];` (PTX 7.8, sm_80).
    MbarrierInval = ("mbarrier.inval", tok!(Shared), ".b64");
    fn exec(a: u32) => m {
        asm!(asm_text!(none; (mbar_a); m!()), a = in(reg32) a, options(nostack, preserves_flags));
    }
}
instr! {
    /// `mbarrier.pending_count.b64 n, state;` (PTX 7.0, sm_80).
    MbarrierPendingCount = ("mbarrier.pending_count.b64");
    fn exec(s: u64) -> u32 => m {
        let n: u32;
        asm!(asm_text!(none; (mbar_pending); m!()), d = out(reg32) n, x = in(reg64) s, options(pure, nomem, nostack, preserves_flags));
        n
    }
}

instr! {
    /// `mbarrier.arrive.noComplete.release.cta.shared::cta.b64 state, [a], count;` — `count`
    /// arrivals that must not complete the phase (PTX ISA §9.7.13.15.15: `.noComplete` takes only
    /// `{.release}{.cta}`, and the behaviour is undefined if the arrival completes the phase).
    /// PTX 7.0 (`.release.cta`: 8.0, `::cta`: 7.8), sm_80.
    MbarrierArriveNoComplete = ("mbarrier.arrive.noComplete", tok!(Release), tok!(Cta), tok!(Shared), ".b64");
    fn exec(a: u32, n: u32) -> u64 => m {
        let s: u64;
        asm!(asm_text!(none; (mbar_state_n); m!()), s = out(reg64) s, a = in(reg32) a, n = in(reg32) n, options(nostack, preserves_flags));
        s
    }
}
instr! {
    /// `mbarrier.arrive_drop.noComplete.release.cta.shared::cta.b64 state, [a], count;`
    /// (PTX ISA §9.7.13.15.16). PTX 7.0 (`.release.cta`: 8.0), sm_80.
    MbarrierArriveDropNoComplete = ("mbarrier.arrive_drop.noComplete", tok!(Release), tok!(Cta), tok!(Shared), ".b64");
    fn exec(a: u32, n: u32) -> u64 => m {
        let s: u64;
        asm!(asm_text!(none; (mbar_state_n); m!()), s = out(reg64) s, a = in(reg32) a, n = in(reg32) n, options(nostack, preserves_flags));
        s
    }
}

/// The arrive family at one (semantic, scope) on a local (`.shared::cta`) barrier:
/// `mbarrier.arrive`, `mbarrier.arrive_drop`, `mbarrier.arrive.expect_tx`.
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "PTX has no `mbarrier.arrive{{.sem}}{{.scope}}` for `{Self}` at `{Sco}`: an arrive takes Release or Relaxed, at Cta or Cluster",
    label = "an mbarrier arrive releases; it cannot acquire",
    note = "PTX ISA §9.7.13.15.15: `.sem = {{.release, .relaxed}}`, `.scope = {{.cta, .cluster}}`; acquire with `try_wait::<Acquire, _>` (seed §5.2)"
)]
pub unsafe trait ArriveInstr<Sco: Scope>: Sem {
    /// `mbarrier.arrive.sem.scope.shared::cta.b64`
    const PTX: &'static str;
    /// `mbarrier.arrive_drop.sem.scope.shared::cta.b64`
    const PTX_DROP: &'static str;
    /// `mbarrier.arrive.expect_tx.sem.scope.shared::cta.b64`
    const PTX_EXPECT_TX: &'static str;
    #[doc(hidden)]
    #[cfg(not(target_arch = "nvptx64"))]
    const HOST: Ordering;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn arrive(a: u32) -> u64;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn arrive_n(a: u32, n: u32) -> u64;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn arrive_drop(a: u32) -> u64;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn arrive_expect_tx(a: u32, tx: u32) -> u64;
}

/// The arrive family on a barrier addressed through `.shared::cluster` (this CTA's or a peer's):
/// `mbarrier.arrive{.expect_tx}.sem.scope.shared::cluster.b64 _, [a]{, n};` (no state result).
///
/// Scope `Cta` is legal PTX but does not synchronize with a waiter in another CTA (seed §5.4):
/// use `Cluster` when the barrier's owner is a peer CTA.
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "PTX has no `mbarrier.arrive{{.sem}}{{.scope}}.shared::cluster` for `{Self}` at `{Sco}`: a remote arrive takes Release or Relaxed",
    label = "a remote arrive releases; it cannot acquire",
    note = "PTX ISA §9.7.13.15.15; seed §5.4: use `arrive::<Release, Cluster>()` on a peer CTA's barrier"
)]
pub unsafe trait RemoteArriveInstr<Sco: Scope>: Sem {
    /// `mbarrier.arrive.sem.scope.shared::cluster.b64`
    const PTX: &'static str;
    /// `mbarrier.arrive.expect_tx.sem.scope.shared::cluster.b64`
    const PTX_EXPECT_TX: &'static str;
    #[doc(hidden)]
    #[cfg(not(target_arch = "nvptx64"))]
    const HOST: Ordering;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn arrive(a: u32);
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn arrive_n(a: u32, n: u32);
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn arrive_expect_tx(a: u32, tx: u32);
}

/// The wait family at one (semantic, scope): `mbarrier.{try,test}_wait{.parity}.sem.scope.shared::cta.b64`.
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "PTX has no `mbarrier.try_wait{{.sem}}{{.scope}}` for `{Self}` at `{Sco}`: a wait takes Acquire or Relaxed, at Cta or Cluster",
    label = "an mbarrier wait acquires; it cannot release",
    note = "PTX ISA §9.7.13.15.17: `.sem = {{.acquire, .relaxed}}`, `.scope = {{.cta, .cluster}}`; release with `arrive::<Release, _>` (seed §5.2)"
)]
pub unsafe trait WaitInstr<Sco: Scope>: Sem {
    /// `mbarrier.try_wait.sem.scope.shared::cta.b64`
    const PTX_TRY: &'static str;
    /// `mbarrier.try_wait.parity.sem.scope.shared::cta.b64`
    const PTX_TRY_PARITY: &'static str;
    /// `mbarrier.test_wait.sem.scope.shared::cta.b64`
    const PTX_TEST: &'static str;
    /// `mbarrier.test_wait.parity.sem.scope.shared::cta.b64`
    const PTX_TEST_PARITY: &'static str;
    #[doc(hidden)]
    #[cfg(not(target_arch = "nvptx64"))]
    const HOST: Ordering;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn try_wait(a: u32, s: u64) -> bool;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn try_wait_hint(a: u32, s: u64, ns: u32) -> bool;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn try_wait_parity(a: u32, p: u32) -> bool;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn try_wait_parity_hint(a: u32, p: u32, ns: u32) -> bool;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn test_wait(a: u32, s: u64) -> bool;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn test_wait_parity(a: u32, p: u32) -> bool;
}

/// `mbarrier.expect_tx` / `mbarrier.complete_tx` at one scope (semantic is always `.relaxed`),
/// on `.shared::cta` and `.shared::cluster` addresses.
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "PTX has no `mbarrier.expect_tx.relaxed{{.scope}}` at `{Self}`: tx operations take Cta or Cluster",
    note = "PTX ISA §9.7.13.15.13-14"
)]
pub unsafe trait TxInstr: Scope {
    /// `mbarrier.expect_tx.relaxed.scope.shared::cta.b64`
    const PTX_EXPECT: &'static str;
    /// `mbarrier.complete_tx.relaxed.scope.shared::cta.b64`
    const PTX_COMPLETE: &'static str;
    /// `mbarrier.expect_tx.relaxed.scope.shared::cluster.b64`
    const PTX_EXPECT_CLUSTER: &'static str;
    /// `mbarrier.complete_tx.relaxed.scope.shared::cluster.b64`
    const PTX_COMPLETE_CLUSTER: &'static str;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn expect(a: u32, tx: u32);
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn complete(a: u32, tx: u32);
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn expect_cluster(a: u32, tx: u32);
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn complete_cluster(a: u32, tx: u32);
}

/// Arrive rows: (semantic, host ordering) × scope.
macro_rules! for_mbar_arrive {
    ($leaf:ident) => {
        $leaf! { Release Release, Cta }
        $leaf! { Release Release, Cluster }
        $leaf! { Relaxed Relaxed, Cta }
        $leaf! { Relaxed Relaxed, Cluster }
    };
}
#[allow(unused_imports)]
pub(crate) use for_mbar_arrive;

/// Wait rows: (semantic, host ordering) × scope.
macro_rules! for_mbar_wait {
    ($leaf:ident) => {
        $leaf! { Acquire Acquire, Cta }
        $leaf! { Acquire Acquire, Cluster }
        $leaf! { Relaxed Relaxed, Cta }
        $leaf! { Relaxed Relaxed, Cluster }
    };
}
#[allow(unused_imports)]
pub(crate) use for_mbar_wait;

/// tx rows: scope.
macro_rules! for_mbar_tx {
    ($leaf:ident) => {
        $leaf! { Cta }
        $leaf! { Cluster }
    };
}
#[allow(unused_imports)]
pub(crate) use for_mbar_tx;

macro_rules! arrive_leaf {
    ($S:ident $O:ident, $Sco:ident) => {
        arrive_leaf! { @ (concat!("mbarrier.arrive", tok!($S), tok!($Sco), tok!(Shared), ".b64"))
                         (concat!("mbarrier.arrive_drop", tok!($S), tok!($Sco), tok!(Shared), ".b64"))
                         (concat!("mbarrier.arrive.expect_tx", tok!($S), tok!($Sco), tok!(Shared), ".b64"))
                         $S $O $Sco }
        arrive_leaf! { @r (concat!("mbarrier.arrive", tok!($S), tok!($Sco), tok!(SharedCluster), ".b64"))
                          (concat!("mbarrier.arrive.expect_tx", tok!($S), tok!($Sco), tok!(SharedCluster), ".b64"))
                          $S $O $Sco }
    };
    (@ ($($a:tt)*) ($($d:tt)*) ($($e:tt)*) $S:ident $O:ident $Sco:ident) => {
        unsafe impl ArriveInstr<$Sco> for $S {
            const PTX: &'static str = $($a)*;
            const PTX_DROP: &'static str = $($d)*;
            const PTX_EXPECT_TX: &'static str = $($e)*;
            #[cfg(not(target_arch = "nvptx64"))]
            const HOST: Ordering = Ordering::$O;
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn arrive(a: u32) -> u64 {
                let s: u64;
                asm!(asm_text!(none; (mbar_state); $($a)*), s = out(reg64) s, a = in(reg32) a, options(nostack, preserves_flags));
                s
            }
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn arrive_n(a: u32, n: u32) -> u64 {
                let s: u64;
                asm!(asm_text!(none; (mbar_state_n); $($a)*), s = out(reg64) s, a = in(reg32) a, n = in(reg32) n, options(nostack, preserves_flags));
                s
            }
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn arrive_drop(a: u32) -> u64 {
                let s: u64;
                asm!(asm_text!(none; (mbar_state); $($d)*), s = out(reg64) s, a = in(reg32) a, options(nostack, preserves_flags));
                s
            }
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn arrive_expect_tx(a: u32, tx: u32) -> u64 {
                let s: u64;
                asm!(asm_text!(none; (mbar_state_tx); $($e)*), s = out(reg64) s, a = in(reg32) a, tx = in(reg32) tx, options(nostack, preserves_flags));
                s
            }
        }
    };
    (@r ($($a:tt)*) ($($e:tt)*) $S:ident $O:ident $Sco:ident) => {
        unsafe impl RemoteArriveInstr<$Sco> for $S {
            const PTX: &'static str = $($a)*;
            const PTX_EXPECT_TX: &'static str = $($e)*;
            #[cfg(not(target_arch = "nvptx64"))]
            const HOST: Ordering = Ordering::$O;
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn arrive(a: u32) {
                asm!(asm_text!(none; (mbar_sink); $($a)*), a = in(reg32) a, options(nostack, preserves_flags));
            }
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn arrive_n(a: u32, n: u32) {
                asm!(asm_text!(none; (mbar_sink_n); $($a)*), a = in(reg32) a, n = in(reg32) n, options(nostack, preserves_flags));
            }
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn arrive_expect_tx(a: u32, tx: u32) {
                asm!(asm_text!(none; (mbar_sink_tx); $($e)*), a = in(reg32) a, tx = in(reg32) tx, options(nostack, preserves_flags));
            }
        }
    };
}
for_mbar_arrive! { arrive_leaf }

/// `{ .reg .pred p; <mn> p, [a], <x>{, ns}; selp.u32 d, 1, 0, p; }` with the operands of
/// `aops!($ops)`; `$x` is the state (`x`) or the parity (`ph`).
#[allow(unused_macros)]
macro_rules! wait_asm {
    (($($mn:tt)*), $ops:ident, $a:expr, $xn:ident = $x:expr, $cls:ident) => {{
        let r: u32;
        asm!(asm_text!(pred_out; ($ops); $($mn)*),
             d = out(reg32) r, a = in(reg32) $a, $xn = in($cls) $x, options(nostack, preserves_flags));
        r != 0
    }};
    (($($mn:tt)*), $ops:ident, $a:expr, $xn:ident = $x:expr, $cls:ident, $ns:expr) => {{
        let r: u32;
        asm!(asm_text!(pred_out; ($ops); $($mn)*),
             d = out(reg32) r, a = in(reg32) $a, $xn = in($cls) $x, ns = in(reg32) $ns, options(nostack, preserves_flags));
        r != 0
    }};
}

macro_rules! wait_leaf {
    ($S:ident $O:ident, $Sco:ident) => {
        wait_leaf! { @ (concat!("mbarrier.try_wait", tok!($S), tok!($Sco), tok!(Shared), ".b64"))
                       (concat!("mbarrier.try_wait.parity", tok!($S), tok!($Sco), tok!(Shared), ".b64"))
                       (concat!("mbarrier.test_wait", tok!($S), tok!($Sco), tok!(Shared), ".b64"))
                       (concat!("mbarrier.test_wait.parity", tok!($S), tok!($Sco), tok!(Shared), ".b64"))
                       $S $O $Sco }
    };
    (@ ($($t:tt)*) ($($tp:tt)*) ($($x:tt)*) ($($xp:tt)*) $S:ident $O:ident $Sco:ident) => {
        unsafe impl WaitInstr<$Sco> for $S {
            const PTX_TRY: &'static str = $($t)*;
            const PTX_TRY_PARITY: &'static str = $($tp)*;
            const PTX_TEST: &'static str = $($x)*;
            const PTX_TEST_PARITY: &'static str = $($xp)*;
            #[cfg(not(target_arch = "nvptx64"))]
            const HOST: Ordering = Ordering::$O;
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn try_wait(a: u32, s: u64) -> bool { wait_asm!(($($t)*), mbar_wait, a, x = s, reg64) }
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn try_wait_hint(a: u32, s: u64, ns: u32) -> bool { wait_asm!(($($t)*), mbar_wait_hint, a, x = s, reg64, ns) }
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn try_wait_parity(a: u32, p: u32) -> bool { wait_asm!(($($tp)*), mbar_wait_parity, a, ph = p, reg32) }
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn try_wait_parity_hint(a: u32, p: u32, ns: u32) -> bool { wait_asm!(($($tp)*), mbar_wait_parity_hint, a, ph = p, reg32, ns) }
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn test_wait(a: u32, s: u64) -> bool { wait_asm!(($($x)*), mbar_wait, a, x = s, reg64) }
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn test_wait_parity(a: u32, p: u32) -> bool { wait_asm!(($($xp)*), mbar_wait_parity, a, ph = p, reg32) }
        }
    };
}
for_mbar_wait! { wait_leaf }

macro_rules! tx_leaf {
    ($Sco:ident) => {
        tx_leaf! { @ (concat!("mbarrier.expect_tx", tok!(Relaxed), tok!($Sco), tok!(Shared), ".b64"))
                     (concat!("mbarrier.complete_tx", tok!(Relaxed), tok!($Sco), tok!(Shared), ".b64"))
                     (concat!("mbarrier.expect_tx", tok!(Relaxed), tok!($Sco), tok!(SharedCluster), ".b64"))
                     (concat!("mbarrier.complete_tx", tok!(Relaxed), tok!($Sco), tok!(SharedCluster), ".b64"))
                     $Sco }
    };
    (@ ($($e:tt)*) ($($c:tt)*) ($($ec:tt)*) ($($cc:tt)*) $Sco:ident) => {
        unsafe impl TxInstr for $Sco {
            const PTX_EXPECT: &'static str = $($e)*;
            const PTX_COMPLETE: &'static str = $($c)*;
            const PTX_EXPECT_CLUSTER: &'static str = $($ec)*;
            const PTX_COMPLETE_CLUSTER: &'static str = $($cc)*;
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn expect(a: u32, tx: u32) {
                asm!(asm_text!(none; (mbar_a_tx); $($e)*), a = in(reg32) a, tx = in(reg32) tx, options(nostack, preserves_flags));
            }
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn complete(a: u32, tx: u32) {
                asm!(asm_text!(none; (mbar_a_tx); $($c)*), a = in(reg32) a, tx = in(reg32) tx, options(nostack, preserves_flags));
            }
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn expect_cluster(a: u32, tx: u32) {
                asm!(asm_text!(none; (mbar_a_tx); $($ec)*), a = in(reg32) a, tx = in(reg32) tx, options(nostack, preserves_flags));
            }
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn complete_cluster(a: u32, tx: u32) {
                asm!(asm_text!(none; (mbar_a_tx); $($cc)*), a = in(reg32) a, tx = in(reg32) tx, options(nostack, preserves_flags));
            }
        }
    };
}
for_mbar_tx! { tx_leaf }
