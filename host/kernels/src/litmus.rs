//! The seed's programs (§2–§4) as litmus kernels, each in a broken and a fixed variant.
//!
//! The programs themselves are in `programs/` (`ptx_sync_programs`, one source for the GPU, the
//! CPU runs and loom); this file is the GPU harness and one kernel per program of its registry.
//!
//! Run by `ptx-sync litmus` / `ptx-sync handoff` / `ptx-sync tour` (host: `host/src/bin/ptx-sync/registry/programs.rs`
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
//! | `sync: *mut u32` | `[0]`: pre-stress quorum (the host sets it to the number of stress threads that must have run [`PRESTRESS`] rounds before testers start; each decrements it once), `[1]`: testers finished, `[2]`: testers whose start barrier timed out, `[3]`: stress threads stopped by the deadline, `[SYNC_HEAD + i]`: instance `i`'s start-barrier arrivals, `[SYNC_HEAD + n_instances + i]`: instance `i`'s done count — each role adds 1 after its results are written, so the host counts an instance only when all its roles reported (an instance none of whose threads ran is counted apart, not read as outcome 0) |
//! | `budget_ns: u64` | the time budget of every wait |
//! | `n_instances, stride, scratch_words, n_testers, stress_iters, seed: u32` | |

use crate::rt::*;
use ptx_sync::*;
use ptx_sync_programs::{Env, Litmus, Mem};

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
    /// A weak, L1-cached load of `p` whose value is dropped (`ld.global.ca`; inline asm so that
    /// it is not deleted): brings the line into this SM's L1.
    #[inline(always)]
    fn warm(&self, p: *mut u32) {
        unsafe {
            let _x: u32;
            core::arch::asm!(
                "{{\n\t.reg .u64 g;\n\tcvta.to.global.u64 g, {p};\n\tld.global.ca.u32 {x}, [g];\n\t}}",
                p = in(reg64) p, x = out(reg32) _x, options(nostack, readonly));
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
        stress(
            scratch,
            scratch_words,
            stride,
            stress_iters,
            seed ^ g,
            finished,
            n_testers,
            &start,
            stopped,
            quorum,
        );
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
    let i = Inst {
        deadline: Deadline::after(budget_ns),
        ..i
    };
    body(role, &i);
    // This role's results are written: count it in the instance's done word (the host reads it
    // after the kernel has completed, which makes every write of the grid visible to it).
    let done =
        AtomicRef::<u32, Gpu>::from_ptr(sync.add(SYNC_HEAD + n_instances as usize + inst as usize));
    let _ = done.fetch_add::<Relaxed>(1);
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

/// The harness's view of one role: its [`Env`] (bounded waits that record the role's timeout
/// bit, L1 warm-up, random delay) over the instance.
struct Role<'a> {
    i: &'a Inst,
    role: u32,
}

impl Env for Role<'_> {
    #[inline(always)]
    fn wait(&self, _what: &'static str, done: impl FnMut() -> bool) -> bool {
        self.i.wait(self.role, done)
    }
    #[inline(always)]
    fn warm(&self, d: &Data<u32>) {
        self.i.warm(d.as_ptr())
    }
    #[inline(always)]
    fn delay(&self) {
        self.i.random_delay()
    }
}

impl Mem for Inst {
    #[inline(always)]
    fn data(&self, v: usize) -> &Data<u32> {
        unsafe { Data::from_ptr(self.ptr(v)) }
    }
    #[inline(always)]
    fn flag(&self, v: usize) -> &Strong<u32> {
        unsafe { Strong::from_ptr(self.ptr(v)) }
    }
    #[inline(always)]
    fn put(&self, k: usize, x: u32) {
        unsafe { core::ptr::write_volatile(self.out.add(k), x) }
    }
}

/// One kernel per program of the registry (`ptx_sync_programs::for_each_litmus!`), with the
/// common signature; its body is the harness around the program's own roles
/// (`ptx_sync_programs`: the same source the CPU runs and the loom suite use).
macro_rules! litmus_kernels {
    ($($name:ident: $T:path),* $(,)?) => {$(
        #[doc = concat!("The litmus kernel of [`", stringify!($T), "`].")]
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "ptx-kernel" fn $name(
            slots: *const u32, mem: *mut u32, locs: *const u32, out: *mut u32,
            scratch: *mut u32, sync: *mut u32, budget_ns: u64,
            n_instances: u32, stride: u32, scratch_words: u32, n_testers: u32,
            stress_iters: u32, seed: u32,
        ) {
            let shape = <$T as Litmus>::SHAPE;
            harness(shape.roles(), shape.vars(), slots, mem, locs, out, scratch, sync, budget_ns,
                    n_instances, stride, scratch_words, n_testers, stress_iters, seed,
                    |role: u32, i: &Inst| <$T as Litmus>::role(role, &Role { i, role }, i));
        }
        // The signature is `ptx_sync_abi::LitmusParams`'s, field for field (the host's struct).
        const _: ptx_sync_abi::LitmusKernel = $name;
    )*};
}

ptx_sync_programs::for_each_litmus!(litmus_kernels);
