//! The seed's programs (§2–§4) as litmus kernels, each in a broken and a fixed variant.
//!
//! Run by `ptx-sync litmus` / `ptx-sync handoff` / `ptx-sync tour` (host: `host/src/programs.rs`
//! names every kernel, its roles and its forbidden outcomes). One launch runs many *instances* of a
//! program at once (Alglave et al., "GPU concurrency: weak behaviours and programming
//! assumptions", ASPLOS 2015; Levine et al., "MC Mutants", ASPLOS 2023):
//!
//! * **parallel instances**: every thread of the grid is either a *tester* — one role (P, C1, ...)
//!   of one instance — or a *stress* thread;
//! * **randomized placement**: the host draws, per launch, which thread plays which role of which
//!   instance (`slots`, the roles of one instance always in different CTAs) and where each
//!   instance's variables lie (`locs`, each variable `stride` words apart);
//! * **memory stress** in CTAs of their own (the host gives every thread of a stress CTA the
//!   stress slot, testers live in the other CTAs): stress threads store to and load from the
//!   instances' own cache lines — every word of `mem` that is not a variable (variables are the
//!   words at multiples of `stride`), so the stress hits exactly the L2 slices of the test's
//!   lines — from launch start (pre-stress: before the testers pass their start barriers) until
//!   every tester has finished;
//! * **synchronized start per instance**: the roles of one instance meet at their own bounded
//!   spin barrier (`sync[SYNC_HEAD + instance]`) before their role, not at one barrier of the
//!   whole grid that would release testers at skewed times;
//! * **L1 warm-up**: in MP, C loads `data` (`ld.global.ca`) before it tests the flag, so a stale
//!   line can be in its L1 (Alglave et al. §4: the weak outcome needs the stale value cached).
//!
//! Every wait is bounded by `%globaltimer` (`budget_ns` per launch): a wait that runs out records
//! a timeout bit in the instance's output instead of hanging the GPU.
//!
//! Kernel parameters (all kernels here, in this order; the host's `LitmusParams` is the same
//! `#[repr(C)]` layout, passed as one parameter buffer):
//!
//! | param | meaning |
//! |---|---|
//! | `slots: *const u32` | per global thread: `instance * ROLES + role`, or `u32::MAX` for stress |
//! | `mem: *mut u32` | the variables: instance `i`, variable `v` at word `(locs[i] * NV + v) * stride` |
//! | `locs: *const u32` | per instance: its location index (a permutation) |
//! | `out: *mut u32` | per instance: `OUT_WORDS` words (role results; word 3 = timeout mask) |
//! | `scratch: *mut u32` | the stress region, `scratch_words` words: the host passes `mem` itself, and the stress skips the words at multiples of `stride` (the variables) |
//! | `sync: *mut u32` | `[0]`: pre-stress quorum (the host sets it to the number of stress threads that must have run [`PRESTRESS`] rounds before testers start; each decrements it once), `[1]`: testers finished, `[2]`: testers whose start barrier timed out, `[3]`: stress threads stopped by the deadline, `[SYNC_HEAD + i]`: instance `i`'s start-barrier arrivals |
//! | `budget_ns: u64` | the time budget of every wait |
//! | `n_instances, stride, scratch_words, n_testers, stress_iters, seed: u32` | |

use crate::rt::*;
use ptx_sync::*;
use ptx_sync::sem::Scope;

/// Words of output per instance; word 3 holds the timeout mask (bit r: role r timed out).
pub const OUT_WORDS: usize = 4;
/// Words of `sync` before the per-instance start barriers.
pub const SYNC_HEAD: usize = 4;
/// Rounds a stress thread runs before it counts towards the pre-stress quorum (`sync[0]`).
pub const PRESTRESS: u32 = 256;

/// The variables of one instance and its output words.
pub struct Inst {
    base: *mut u32,
    stride: usize,
    out: *mut u32,
    deadline: Deadline,
    /// A per-instance, per-launch random number (the launch's seed hashed with the instance).
    rnd: u32,
}

impl Inst {
    #[inline(always)]
    fn ptr(&self, v: usize) -> *mut u32 {
        unsafe { self.base.add(v * self.stride) }
    }
    /// Variable `v` as ordinary data (`ld`/`st`).
    #[inline(always)]
    fn data(&self, v: usize) -> &'static Data<u32> {
        unsafe { Data::from_ptr(self.ptr(v)) }
    }
    /// Variable `v` as a strong location at scope `S`.
    #[inline(always)]
    fn at<S: Scope>(&self, v: usize) -> AtomicRef<'static, u32, S> {
        unsafe { AtomicRef::from_ptr(self.ptr(v)) }
    }
    /// A weak, L1-cached load of variable `v` whose value is dropped (`ld.global.ca`; inline asm
    /// so that it is not deleted): brings the line into this SM's L1.
    #[inline(always)]
    fn warm(&self, v: usize) {
        unsafe {
            let _x: u32;
            core::arch::asm!(
                "{{\n\t.reg .u64 g;\n\tcvta.to.global.u64 g, {p};\n\tld.global.ca.u32 {x}, [g];\n\t}}",
                p = in(reg64) self.ptr(v), x = out(reg32) _x, options(nostack, readonly));
        }
    }
    /// `nanosleep.u32 t` with a random `t` in 0..2047 (sm_70; PTX ISA, miscellaneous
    /// instructions, `nanosleep`: a sleep of about 0 to 2t ns, bounded by its operand): the
    /// once-forms' random delay before C's single flag read.
    #[inline(always)]
    fn random_delay(&self) {
        unsafe {
            core::arch::asm!("nanosleep.u32 {t};", t = in(reg32) self.rnd % 2048, options(nostack, nomem));
        }
    }
    #[inline(always)]
    fn put(&self, k: usize, x: u32) {
        unsafe { core::ptr::write_volatile(self.out.add(k), x) }
    }
    /// Spins until `f()` holds or the budget runs out; on timeout sets bit `role` of word 3.
    #[inline(always)]
    fn wait(&self, role: u32, mut f: impl FnMut() -> bool) -> bool {
        loop {
            if f() {
                return true;
            }
            if self.deadline.expired() {
                let t = unsafe { AtomicRef::<u32, Gpu>::from_ptr(self.out.add(3)) };
                let _ = t.fetch_or::<Relaxed>(1 << role);
                return false;
            }
        }
    }
}

/// The common body of every litmus kernel: role dispatch, start barrier, stress.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn harness(
    roles: u32,
    nv: u32,
    slots: *const u32,
    mem: *mut u32,
    locs: *const u32,
    out: *mut u32,
    scratch: *mut u32,
    sync: *mut u32,
    budget_ns: u64,
    n_instances: u32,
    stride: u32,
    scratch_words: u32,
    n_testers: u32,
    stress_iters: u32,
    seed: u32,
    body: impl FnOnce(u32, &Inst),
) {
    let g = global_thread_id();
    let slot = *slots.add(g as usize);
    let finished = AtomicRef::<u32, Gpu>::from_ptr(sync.add(1));
    let start = Deadline::after(budget_ns);
    let quorum = AtomicRef::<u32, Gpu>::from_ptr(sync);
    if slot == u32::MAX {
        let stopped = AtomicRef::<u32, Gpu>::from_ptr(sync.add(3));
        stress(scratch, scratch_words, stride, stress_iters, seed ^ g, finished, n_testers, &start, stopped, quorum);
        return;
    }
    let inst = slot / roles;
    let role = slot % roles;
    if inst >= n_instances {
        return;
    }
    let loc = *locs.add(inst as usize) as usize;
    let st = stride as usize;
    let i = Inst {
        base: mem.add(loc * nv as usize * st),
        stride: st,
        out: out.add(inst as usize * OUT_WORDS),
        deadline: start,
        rnd: {
            let mut h = seed ^ inst.wrapping_mul(0x9E37_79B9);
            h ^= h >> 16;
            h = h.wrapping_mul(0x85eb_ca6b);
            h ^ (h >> 13)
        },
    };
    // Pre-stress: wait until the quorum of stress threads has run PRESTRESS rounds; then this
    // instance's start barrier: its roles arrive, then go together. Both bounded: a timeout is
    // counted in sync[2] and the role runs anyway.
    let start_timeout = || AtomicRef::<u32, Gpu>::from_ptr(sync.add(2)).fetch_add::<Relaxed>(1);
    let mut late = false;
    while quorum.load::<Relaxed>() as i32 > 0 {
        if i.deadline.expired() {
            late = true;
            break;
        }
    }
    let arrived = AtomicRef::<u32, Gpu>::from_ptr(sync.add(SYNC_HEAD + inst as usize));
    let _ = arrived.fetch_add::<Relaxed>(1);
    while !late && arrived.load::<Relaxed>() < roles {
        if i.deadline.expired() {
            late = true;
        }
    }
    if late {
        start_timeout();
    }
    let i = Inst { deadline: Deadline::after(budget_ns), ..i };
    body(role, &i);
    let _ = finished.fetch_add::<Relaxed>(1);
}

/// Stress thread: stores and loads at random words of `scratch` (MC Mutants' store–load
/// pattern), never a word at a multiple of `stride` (those are the test's variables when the
/// host passes `mem` as `scratch`), until every tester is finished or `iters` rounds are done.
/// Stopped by the deadline instead: counted in `stopped`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn stress(
    scratch: *mut u32,
    words: u32,
    stride: u32,
    iters: u32,
    mut h: u32,
    finished: AtomicRef<'_, u32, Gpu>,
    n_testers: u32,
    d: &Deadline,
    stopped: AtomicRef<'_, u32, Gpu>,
    quorum: AtomicRef<'_, u32, Gpu>,
) {
    if words < 2 || stride < 2 || iters < PRESTRESS {
        // No stress to speak of: never hold the testers back.
        let _ = quorum.fetch_sub::<Relaxed>(1);
        return;
    }
    let avoid = |w: u32| if w % stride == 0 { w + 1 } else { w };
    let mut k = 0;
    while k < iters {
        if k % 32 == 0 {
            if finished.load::<Relaxed>() >= n_testers {
                return;
            }
            if d.expired() {
                let _ = stopped.fetch_add::<Relaxed>(1);
                return;
            }
        }
        h ^= h << 13;
        h ^= h >> 17;
        h ^= h << 5;
        let p = scratch.add(avoid(h % words) as usize);
        core::ptr::write_volatile(p, k);
        let _ = core::ptr::read_volatile(scratch.add(avoid((h >> 7) % words) as usize));
        k += 1;
        if k == PRESTRESS {
            let _ = quorum.fetch_sub::<Relaxed>(1);
        }
    }
}

/// Defines a litmus kernel with the common signature: `name, ROLES, NV, |role, inst| body`.
macro_rules! litmus {
    ($(#[$m:meta])* $name:ident, $roles:expr, $nv:expr, |$role:ident, $i:ident| $body:block) => {
        $(#[$m])*
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "ptx-kernel" fn $name(
            slots: *const u32, mem: *mut u32, locs: *const u32, out: *mut u32,
            scratch: *mut u32, sync: *mut u32, budget_ns: u64,
            n_instances: u32, stride: u32, scratch_words: u32, n_testers: u32,
            stress_iters: u32, seed: u32,
        ) {
            harness($roles, $nv, slots, mem, locs, out, scratch, sync, budget_ns, n_instances,
                    stride, scratch_words, n_testers, stress_iters, seed,
                    |$role: u32, $i: &Inst| $body);
        }
        // The signature is `ptx_sync_abi::LitmusParams`'s, field for field (the host's struct).
        const _: ptx_sync_abi::LitmusKernel = $name;
    };
}

// ---------------------------------------------------------------------------------------------
// Message passing across CTAs (seed §2.2, §2.3, §3.3; §3.5 footnote 15).
// Roles: 0 = P, 1 = C. Variables: 0 = data (ordinary), 1 = full (flag).
// Output: word 0 = the value C read from data after seeing full == 1.
// ---------------------------------------------------------------------------------------------

const DATA: usize = 0;
const FULL: usize = 1;

macro_rules! mp {
    ($(#[$m:meta])* $name:ident, P: |$ip:ident| $p:block, C: |$ic:ident| $c:block) => {
        litmus!($(#[$m])* $name, 2, 2, |role, i| {
            if role == 0 {
                let $ip = i;
                $p
            } else {
                let $ic = i;
                i.warm(DATA); // data's line into C's L1 before the flag test
                $c
                let v = i.data(DATA).read();
                i.put(0, v);
            }
        });
    };
}

/// MP with C reading the flag once, after a random delay, then data (Alglave et al. 2015's
/// non-spinning form: no wait, so no timeout, and the read lands anywhere in P's window).
/// Output: word 0 = data, word 1 = full as C read it.
macro_rules! mp_once {
    ($(#[$m:meta])* $name:ident, P: |$ip:ident| $p:block, C: |$ic:ident| $flag:expr) => {
        litmus!($(#[$m])* $name, 2, 2, |role, i| {
            if role == 0 {
                let $ip = i;
                $p
            } else {
                let $ic = i;
                i.warm(DATA);
                i.random_delay();
                let f: u32 = $flag;
                let v = i.data(DATA).read();
                i.put(0, v);
                i.put(1, f);
            }
        });
    };
}

mp_once!(
    /// §2.2 + §2.3 broken, once-form: relaxed flags, no fence.
    litmus_mp_plain_once,
    P: |i| { i.data(DATA).write(42); i.at::<Gpu>(FULL).store::<Relaxed>(1); },
    C: |i| i.at::<Gpu>(FULL).load::<Relaxed>()
);
mp_once!(
    /// §3.3 correct, once-form: `st.release.gpu` / `ld.acquire.gpu`.
    litmus_mp_rel_acq_once,
    P: |i| { i.data(DATA).write(42); i.at::<Gpu>(FULL).store::<Release>(1); },
    C: |i| i.at::<Gpu>(FULL).load::<Acquire>()
);
mp_once!(
    /// §3.5 footnote 15 broken, once-form: `.cta` release/acquire across CTAs.
    litmus_mp_rel_acq_cta_once,
    P: |i| { i.data(DATA).write(42); i.at::<Cta>(FULL).store::<Release>(1); },
    C: |i| i.at::<Cta>(FULL).load::<Acquire>()
);

mp!(
    /// §2.2 + §2.3, broken: `data = 42; full = 1` and `while full != 1; read data` with no fence
    /// (flags `st/ld.relaxed.gpu`).
    litmus_mp_plain,
    P: |i| { i.data(DATA).write(42); i.at::<Gpu>(FULL).store::<Relaxed>(1); },
    C: |i| { i.wait(1, || i.at::<Gpu>(FULL).load::<Relaxed>() == 1); }
);
mp!(
    /// §2.2 fixed, §2.3 still broken: `fence.sc.gpu` only in P (W→W restored, R→R not).
    litmus_mp_fence_p,
    P: |i| { i.data(DATA).write(42); fence::<Sc, Gpu>(); i.at::<Gpu>(FULL).store::<Relaxed>(1); },
    C: |i| { i.wait(1, || i.at::<Gpu>(FULL).load::<Relaxed>() == 1); }
);
mp!(
    /// §2.3 fixed, §2.2 still broken: `fence.sc.gpu` only in C.
    litmus_mp_fence_c,
    P: |i| { i.data(DATA).write(42); i.at::<Gpu>(FULL).store::<Relaxed>(1); },
    C: |i| { i.wait(1, || i.at::<Gpu>(FULL).load::<Relaxed>() == 1); fence::<Sc, Gpu>(); }
);
mp!(
    /// §2.2 + §2.3 fixed: a `fence.sc.gpu` in each (the fence pair).
    litmus_mp_fence_sc,
    P: |i| { i.data(DATA).write(42); fence::<Sc, Gpu>(); i.at::<Gpu>(FULL).store::<Relaxed>(1); },
    C: |i| { i.wait(1, || i.at::<Gpu>(FULL).load::<Relaxed>() == 1); fence::<Sc, Gpu>(); }
);
mp!(
    /// §3.3: `st.release.gpu` / `ld.acquire.gpu` — correct.
    litmus_mp_rel_acq,
    P: |i| { i.data(DATA).write(42); i.at::<Gpu>(FULL).store::<Release>(1); },
    C: |i| { i.wait(1, || i.at::<Gpu>(FULL).load::<Acquire>() == 1); }
);
mp!(
    /// §3.5 footnote 15: `st.release.cta` / `ld.acquire.cta` with P and C in *different* CTAs —
    /// broken (the scopes do not include each other; the seed measured 188 k stale reads in
    /// 6.4 M rounds).
    litmus_mp_rel_acq_cta,
    P: |i| { i.data(DATA).write(42); i.at::<Cta>(FULL).store::<Release>(1); },
    C: |i| { i.wait(1, || i.at::<Cta>(FULL).load::<Acquire>() == 1); }
);

// ---------------------------------------------------------------------------------------------
// Store buffering (seed §2.1, §3.6). Roles 0 = C1, 1 = C2. Variables 0 = done1, 1 = done2.
// Output: word 0 = C1's read of done2, word 1 = C2's read of done1. Both 0: W→R reordered.
// ---------------------------------------------------------------------------------------------

macro_rules! sb {
    ($(#[$m:meta])* $name:ident, $fence:expr) => {
        litmus!($(#[$m])* $name, 2, 2, |role, i| {
            let (mine, other) = if role == 0 { (0, 1) } else { (1, 0) };
            i.at::<Gpu>(mine).store::<Relaxed>(1);
            $fence;
            let r = i.at::<Gpu>(other).load::<Relaxed>();
            i.put(role as usize, r);
        });
    };
}

sb!(
    /// §2.1, broken: `done1 = 1; r = done2` with no fence (the write buffer lets both read 0).
    litmus_sb_plain, ()
);
sb!(
    /// §3.6, broken: `fence.acq_rel.gpu` between the write and the read — release/acquire do not
    /// order W→R; both may read 0 (PTX ISA §8.10.6).
    litmus_sb_acq_rel, fence::<AcqRel, Gpu>()
);
sb!(
    /// §2.1 / §3.6 fixed: `fence.sc.gpu` — the Fence-SC order forbids both reading 0.
    litmus_sb_sc, fence::<Sc, Gpu>()
);

// ---------------------------------------------------------------------------------------------
// Counters (seed §4.1, §4.2). Roles 0 = C1, 1 = C2, in different CTAs. Variable 0 = count.
// Output: word 0/1 = the old value C1/C2 saw. Both 0: an increment was lost.
// ---------------------------------------------------------------------------------------------

litmus!(
    /// §4.1, broken: read, then write the value + 1 (two strong accesses, not one RMW).
    litmus_count_rmw, 2, 1, |role, i| {
        let c = i.at::<Gpu>(0);
        let r = c.load::<Relaxed>();
        c.store::<Relaxed>(r + 1);
        i.put(role as usize, r);
    }
);
litmus!(
    /// §4.1 fixed / §4.2 fixed: `atom.relaxed.gpu.add` in both.
    litmus_count_atom_gpu, 2, 1, |role, i| {
        let r = i.at::<Gpu>(0).fetch_add::<Relaxed>(1);
        i.put(role as usize, r);
    }
);
litmus!(
    /// §4.2, broken: C1 uses `atom.relaxed.cta.add`, C2 `atom.relaxed.gpu.add`, different CTAs —
    /// atomicity is not guaranteed between them (PTX ISA §8.10.3).
    litmus_count_atom_cta, 2, 1, |role, i| {
        let r = if role == 0 {
            i.at::<Cta>(0).fetch_add::<Relaxed>(1)
        } else {
            i.at::<Gpu>(0).fetch_add::<Relaxed>(1)
        };
        i.put(role as usize, r);
    }
);

// ---------------------------------------------------------------------------------------------
// The P/C1/C2 hand-off (seed §1, §2.5, §3.4, §4.3, §4.4, §4.5). Roles 0 = P, 1 = C1, 2 = C2, in
// three different CTAs. Variables: data, full, done1, done2, empty, count.
// Output: word 0 = value1, word 1 = value2, word 2 = 1 if P saw the hand-back and wrote 43,
// word 3 = timeout mask. Correct: value1 == value2 == 42 and P wrote 43.
// ---------------------------------------------------------------------------------------------

const DONE1: usize = 2;
const DONE2: usize = 3;
const EMPTY: usize = 4;
const COUNT: usize = 5;

/// `$p(i)` is P's body, `$c(i, mine, other)` a consumer's, returning the value read.
macro_rules! handoff {
    ($(#[$m:meta])* $name:ident, P: |$ip:ident| $p:block, C: |$ic:ident, $role:ident, $mine:ident, $other:ident| $c:block) => {
        litmus!($(#[$m])* $name, 3, 6, |role, i| {
            if role == 0 {
                let $ip = i;
                let wrote: bool = $p;
                i.put(2, wrote as u32);
            } else {
                let $ic = i;
                let $role = role;
                let ($mine, $other) = if role == 1 { (DONE1, DONE2) } else { (DONE2, DONE1) };
                let v: u32 = $c;
                i.put(role as usize - 1, v);
            }
        });
    };
}

handoff!(
    /// §2.5: the program with all ten `fence.sc.gpu` (flags relaxed) — correct.
    litmus_handoff_2_5,
    P: |i| {
        i.data(DATA).write(42);
        fence::<Sc, Gpu>();
        i.at::<Gpu>(FULL).store::<Relaxed>(1);
        let ok = i.wait(0, || i.at::<Gpu>(EMPTY).load::<Relaxed>() == 1);
        fence::<Sc, Gpu>();
        if ok { i.data(DATA).write(43); }
        ok
    },
    C: |i, role, mine, other| {
        if !i.wait(role, || i.at::<Gpu>(FULL).load::<Relaxed>() == 1) { 0xdead } else {
            fence::<Sc, Gpu>();
            let v = i.data(DATA).read();
            fence::<Sc, Gpu>();
            i.at::<Gpu>(mine).store::<Relaxed>(1);
            fence::<Sc, Gpu>();
            if i.at::<Gpu>(other).load::<Relaxed>() == 1 {
                fence::<Sc, Gpu>();
                i.at::<Gpu>(EMPTY).store::<Relaxed>(1);
            }
            v
        }
    }
);
handoff!(
    /// §2 with every optimisation and no fence — broken in all four ways of §2.1–2.4.
    litmus_handoff_2_5_nofence,
    P: |i| {
        i.data(DATA).write(42);
        i.at::<Gpu>(FULL).store::<Relaxed>(1);
        let ok = i.wait(0, || i.at::<Gpu>(EMPTY).load::<Relaxed>() == 1);
        if ok { i.data(DATA).write(43); }
        ok
    },
    C: |i, role, mine, other| {
        if !i.wait(role, || i.at::<Gpu>(FULL).load::<Relaxed>() == 1) { 0xdead } else {
            let v = i.data(DATA).read();
            i.at::<Gpu>(mine).store::<Relaxed>(1);
            if i.at::<Gpu>(other).load::<Relaxed>() == 1 {
                i.at::<Gpu>(EMPTY).store::<Relaxed>(1);
            }
            v
        }
    }
);

/// §3.4's consumer with the W→R fence `$wr` and C2's release fence switchable.
macro_rules! consumer_3_4 {
    ($i:ident, $role:ident, $mine:ident, $other:ident, $wr:ty, c2_release: $c2rel:expr) => {
        if !$i.wait($role, || $i.at::<Gpu>(FULL).load::<Relaxed>() == 1) { 0xdead } else {
            fence::<Acquire, Gpu>();
            let v = $i.data(DATA).read();
            if $role == 1 || $c2rel {
                fence::<Release, Gpu>();
            }
            $i.at::<Gpu>($mine).store::<Relaxed>(1);
            fence::<$wr, Gpu>();
            if $i.at::<Gpu>($other).load::<Relaxed>() == 1 {
                fence::<AcqRel, Gpu>();
                $i.at::<Gpu>(EMPTY).store::<Relaxed>(1);
            }
            v
        }
    };
}

macro_rules! producer_3_4 {
    ($i:ident) => {{
        $i.data(DATA).write(42);
        fence::<Release, Gpu>();
        $i.at::<Gpu>(FULL).store::<Relaxed>(1);
        let ok = $i.wait(0, || $i.at::<Gpu>(EMPTY).load::<Relaxed>() == 1);
        fence::<Acquire, Gpu>();
        if ok { $i.data(DATA).write(43); }
        ok
    }};
}

handoff!(
    /// §3.4: release/acquire fences, `fence.acq_rel` before `empty = 1`, two `fence.sc` for the
    /// W→R pair — correct.
    litmus_handoff_3_4,
    P: |i| { producer_3_4!(i) },
    C: |i, role, mine, other| { consumer_3_4!(i, role, mine, other, Sc, c2_release: true) }
);
handoff!(
    /// §3.6, broken: the two `fence.sc` replaced by `fence.acq_rel` — both consumers may read the
    /// other's done as 0, nobody writes empty, P times out.
    litmus_handoff_3_4_no_sc,
    P: |i| { producer_3_4!(i) },
    C: |i, role, mine, other| { consumer_3_4!(i, role, mine, other, AcqRel, c2_release: true) }
);
handoff!(
    /// §3.4, broken: C2 without its `fence.release` — edge 1 of the causality chain is gone; C2's
    /// read of data may return P's 43.
    litmus_handoff_3_4_no_c2_release,
    P: |i| { producer_3_4!(i) },
    C: |i, role, mine, other| { consumer_3_4!(i, role, mine, other, Sc, c2_release: false) }
);

macro_rules! producer_rel_acq {
    ($i:ident, $flag:expr, $n:expr) => {{
        $i.data(DATA).write(42);
        $i.at::<Gpu>(FULL).store::<Release>(1);
        let ok = $i.wait(0, || $i.at::<Gpu>($flag).load::<Acquire>() == $n);
        if ok { $i.data(DATA).write(43); }
        ok
    }};
}

handoff!(
    /// §4.3: `old = atom.acq_rel.gpu.add(count, 1)`; the consumer that saw 1 writes empty with
    /// `st.release.gpu` — correct.
    litmus_handoff_4_3,
    P: |i| { producer_rel_acq!(i, EMPTY, 1) },
    C: |i, role, _mine, _other| {
        if !i.wait(role, || i.at::<Gpu>(FULL).load::<Acquire>() == 1) { 0xdead } else {
            let v = i.data(DATA).read();
            if i.at::<Gpu>(COUNT).fetch_add::<AcqRel>(1) == 1 {
                i.at::<Gpu>(EMPTY).store::<Release>(1);
            }
            v
        }
    }
);
handoff!(
    /// §4.3, broken: `atom.add` without `.sem` (relaxed) and a relaxed `empty = 1` — atomicity
    /// without ordering.
    litmus_handoff_4_3_relaxed,
    P: |i| { producer_rel_acq!(i, EMPTY, 1) },
    C: |i, role, _mine, _other| {
        if !i.wait(role, || i.at::<Gpu>(FULL).load::<Acquire>() == 1) { 0xdead } else {
            let v = i.data(DATA).read();
            if i.at::<Gpu>(COUNT).fetch_add::<Relaxed>(1) == 1 {
                i.at::<Gpu>(EMPTY).store::<Relaxed>(1);
            }
            v
        }
    }
);
handoff!(
    /// §4.4: barrier — consumers `atom.release.gpu.add`, P waits with `ld.acquire.gpu` for
    /// count == 2 — correct.
    litmus_handoff_4_4,
    P: |i| { producer_rel_acq!(i, COUNT, 2) },
    C: |i, role, _mine, _other| {
        if !i.wait(role, || i.at::<Gpu>(FULL).load::<Acquire>() == 1) { 0xdead } else {
            let v = i.data(DATA).read();
            let _ = i.at::<Gpu>(COUNT).fetch_add::<Release>(1);
            v
        }
    }
);
handoff!(
    /// §4.5: the §4.4 barrier with `red.release.gpu.add` (no result returned).
    litmus_handoff_4_5_red,
    P: |i| { producer_rel_acq!(i, COUNT, 2) },
    C: |i, role, _mine, _other| {
        if !i.wait(role, || i.at::<Gpu>(FULL).load::<Acquire>() == 1) { 0xdead } else {
            let v = i.data(DATA).read();
            i.at::<Gpu>(COUNT).red_add::<Release>(1);
            v
        }
    }
);
handoff!(
    /// §4.4, broken: `red.relaxed.gpu.add` — the count arrives but publishes nothing; P may write
    /// 43 before a consumer's read of data returns.
    litmus_handoff_4_4_relaxed,
    P: |i| { producer_rel_acq!(i, COUNT, 2) },
    C: |i, role, _mine, _other| {
        if !i.wait(role, || i.at::<Gpu>(FULL).load::<Acquire>() == 1) { 0xdead } else {
            let v = i.data(DATA).read();
            i.at::<Gpu>(COUNT).red_add::<Relaxed>(1);
            v
        }
    }
);
