//! The kernel checker on small modules written here: the expected values come from the PTX ISA
//! by hand (each test says which section).

use ptx_sync_model::kernel::{check_kernel, KernelCheck, KernelOutcome};
use ptx_sync_model::ptx::module::{Bind, Launch};

/// What precedes every kernel's text below.
const HEADER: &str = ".version 8.6\n.target sm_90\n.address_size 64\n";

/// Checks `entry` of the module [`HEADER`] + `body` under `assert` at a 1-D launch `grid` ×
/// `block`, parameter `k` a zeroed buffer of `bufs[k]` bytes.
fn check(
    body: &str,
    entry: &str,
    [grid, block]: [u32; 2],
    bufs: &[u32],
    assert: &str,
) -> KernelOutcome {
    let mut launch = Launch::new([grid, 1, 1], [block, 1, 1]);
    for (k, &bytes) in bufs.iter().enumerate() {
        launch.params.push((k, Bind::Buf(bytes)));
    }
    let check = KernelCheck {
        entry: entry.into(),
        launch,
        assert: Some(assert.into()),
    };
    let ptx = format!("{HEADER}{body}");
    check_kernel(&ptx, "t.ptx", &check).unwrap_or_else(|e| panic!("{e}"))
}

/// One CTA of `block` threads, one buffer of `bytes` bytes.
fn run(body: &str, entry: &str, block: u32, bytes: u32, assert: &str) -> KernelOutcome {
    check(body, entry, [1, block], &[bytes], assert)
}

const WARP: &str = r#"
.visible .entry w(.param .u64 p0)
{
  .reg .b32 %r<10>; .reg .b64 %rd<4>; .reg .pred %p<3>;
  ld.param.u64 %rd1, [p0];
  mov.u32 %r1, %laneid;
  mul.lo.u32 %r2, %r1, 10;
  shfl.sync.idx.b32 %r3, %r2, 2, 31, 0xf;
  and.b32 %r4, %r1, 1;
  setp.ne.u32 %p1, %r4, 0;
  vote.sync.ballot.b32 %r5, %p1, 0xf;
  elect.sync %r6|%p2, 0xf;
  mul.wide.u32 %rd2, %r1, 16;
  add.s64 %rd3, %rd1, %rd2;
  st.u32 [%rd3], %r3;
  st.u32 [%rd3+4], %r5;
  st.u32 [%rd3+8], %r6;
  selp.u32 %r7, 1, 0, %p2;
  st.u32 [%rd3+12], %r7;
  ret;
}
"#;

#[test]
fn warp_collectives_give_each_lane_its_isa_result() {
    // shfl.sync.idx with b = 2, c = 31 (no segments): every lane reads lane 2's value, 20
    // (§9.7.9.6); vote.sync.ballot of "lane is odd" over lanes 0..3 is 0b1010 = 10 (§9.7.13.9);
    // elect.sync elects the lowest lane of the mask, 0 (§9.7.13.14).
    let o = run(
        WARP,
        "w",
        4,
        64,
        "forall (p0[0] == 20 /\\ p0[4] == 20 /\\ p0[8] == 20 /\\ p0[12] == 20 /\\ p0[1] == 10 /\\ p0[13] == 10 /\\ p0[2] == 0 /\\ p0[10] == 0 /\\ p0[3] == 1 /\\ p0[7] == 0 /\\ p0[15] == 0)",
    );
    assert!(
        o.races.is_empty() && o.hangs.is_empty() && o.flags.is_empty(),
        "{}",
        o.herd()
    );
    assert!(o.holds(), "{}", o.herd());
    assert!(o.executions >= 1);
}

const WARP_SYNC: &str = r#"
.visible .entry ws(.param .u64 p0)
{
  .reg .b32 %r<4>; .reg .b64 %rd<2>; .reg .pred %p<2>;
  ld.param.u64 %rd1, [p0];
  mov.u32 %r1, %laneid;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra READER;
  st.u32 [%rd1], 7;
  bar.warp.sync 3;
  ret;
READER:
  bar.warp.sync 3;
  ld.u32 %r2, [%rd1];
  st.u32 [%rd1+4], %r2;
  ret;
}
"#;

#[test]
fn bar_warp_sync_orders_memory_between_its_lanes() {
    // §9.7.13.2: "bar.warp.sync also guarantee memory ordering among threads participating in
    // barrier": lane 1 reads lane 0's write, and the two accesses are not a race.
    let o = run(WARP_SYNC, "ws", 2, 8, "forall (p0[1] == 7)");
    assert!(o.races.is_empty() && o.hangs.is_empty(), "{}", o.herd());
    assert!(o.holds(), "{}", o.herd());
    // Without the barrier in the reader, the read races with the write and may miss it.
    let broken = WARP_SYNC.replace("READER:\n  bar.warp.sync 3;", "READER:");
    let o = run(&broken, "ws", 2, 8, "forall (p0[1] == 7)");
    assert!(!o.races.is_empty(), "{}", o.herd());
    assert!(!o.holds(), "{}", o.herd());
}

const SPIN_TIMEOUT: &str = r#"
.visible .entry spin(.param .u64 p0)
{
  .reg .b32 %r<4>; .reg .b64 %rd<6>; .reg .pred %p<3>;
  ld.param.u64 %rd1, [p0];
  mov.u64 %rd2, %globaltimer;
WAIT:
  ld.relaxed.gpu.u32 %r1, [%rd1];
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  mov.u64 %rd3, %globaltimer;
  sub.s64 %rd4, %rd3, %rd2;
  setp.lt.u64 %p2, %rd4, 1000000000;
  @%p2 bra WAIT;
  st.u32 [%rd1+4], 1;
DONE:
  ret;
}
"#;

#[test]
fn a_bounded_wait_on_a_flag_nobody_sets_is_a_hang_and_its_timeout_path_is_explored() {
    // One thread waits for a flag that no thread writes. The bound is a %globaltimer budget:
    // the model judges the wait as the unbounded wait it bounds (a hang, issue #22 §2) and still
    // explores the timeout path (which writes p0[1] = 1).
    let o = run(SPIN_TIMEOUT, "spin", 1, 8, "exists (p0[1] == 1)");
    assert!(!o.hangs.is_empty(), "{}", o.herd());
    assert!(o.holds(), "the timeout path: {}", o.herd());
}

/// A launch of `grid` one-thread CTAs with two zeroed 8-byte buffers (parameters 0 and 1).
fn run_grid(body: &str, entry: &str, grid: u32, assert: &str) -> KernelOutcome {
    check(body, entry, [grid, 1], &[8, 8], assert)
}

/// CTA 0 sets `f1` and waits (unbounded) for `f2`; CTA 1 waits for `f1` with a %globaltimer
/// budget, then sets `f2` — or gives up (`exit`) when the budget runs out.
const TIMEOUT_UPSTREAM: &str = r#"
.visible .entry cas(.param .u64 p0, .param .u64 p1)
{ .reg .pred %p<5>; .reg .b32 %r<8>; .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [p0]; mov.u32 %r1, %ctaid.x; setp.ne.u32 %p1, %r1, 0; @%p1 bra T1;
  st.relaxed.gpu.u32 [%rd1], 1;
W0: ld.relaxed.gpu.u32 %r2, [%rd1+4]; setp.eq.u32 %p2, %r2, 0; @%p2 bra W0; ret;
T1: mov.u64 %rd2, %globaltimer;
W1: ld.relaxed.gpu.u32 %r3, [%rd1]; setp.ne.u32 %p3, %r3, 0; @%p3 bra GO;
  mov.u64 %rd3, %globaltimer; sub.s64 %rd4, %rd3, %rd2; setp.lt.u64 %p4, %rd4, 1000000000; @%p4 bra W1;
  exit;
GO: st.relaxed.gpu.u32 [%rd1+4], 1; ret; }
"#;

#[test]
fn a_wait_downstream_of_a_timeout_is_not_a_hang() {
    // Judged as the unbounded wait it bounds (issue #22 §2), CTA 1's wait ends: CTA 0's
    // relaxed.gpu store of f1 is eventually seen by the repeated relaxed.gpu read (SEMANTICS
    // S6), so CTA 1 sets f2 and CTA 0's wait ends too. Only the timeout path leaves CTA 0
    // waiting, and that is the hardware's timeout, not a hang of the protocol. All accesses
    // are relaxed.gpu (morally strong, §8.7): no race. Both flags end at 1 in every execution
    // that is not a timeout; the timeout path (f2 stays 0) is still explored.
    let o = run_grid(TIMEOUT_UPSTREAM, "cas", 2, "exists (p0[1] == 0)");
    assert!(o.hangs.is_empty(), "no hang expected:\n{}", o.herd());
    assert!(o.races.is_empty(), "{}", o.herd());
    assert!(
        o.holds(),
        "the timeout path (f2 never set) is explored:\n{}",
        o.herd()
    );
}

/// A sense-reversal grid barrier: each CTA reads the generation, arrives (acq_rel add), the
/// last arriver resets the count and bumps the generation (release), the others wait for the
/// generation to change (acquire).
const GRID_BARRIER: &str = r#"
.visible .entry gb(.param .u64 p0, .param .u64 p1)
{ .reg .pred %p<5>; .reg .b32 %r<13>; .reg .b64 %rd<18>;
  ld.param.u64 %rd13, [p0]; ld.param.u64 %rd2, [p1]; mov.u32 %r1, %ctaid.x; add.s64 %rd6, %rd13, 4;
  ld.acquire.gpu.u32 %r2, [%rd6];
  atom.acq_rel.gpu.add.u32 %r3, [%rd13], 1; setp.ne.b32 %p2, %r3, 1; @%p2 bra WAIT;
  st.relaxed.gpu.u32 [%rd13], 0; add.s32 %r10, %r2, 1; st.release.gpu.u32 [%rd6], %r10; bra DONE;
WAIT: ld.acquire.gpu.u32 %r6, [%rd6]; setp.ne.b32 %p3, %r6, %r2; @%p3 bra DONE; bra.uni WAIT;
DONE: mul.wide.u32 %rd14, %r1, 4; add.s64 %rd15, %rd2, %rd14; st.u32 [%rd15], %r2; ret; }
"#;

#[test]
fn a_read_before_a_spin_loop_is_not_taken_for_one_of_its_reads() {
    // The waiter's first read of the generation precedes its own arrive, which precedes the
    // last arriver's bump (atomicity of the acq_rel adds, §8.10.3, and release/acquire
    // through them, §8.9.4), so it reads 0 (§8.10.6: it cannot read a write that follows it in
    // causality order); the loop's repeated read eventually returns the bump (S6) and the
    // wait ends: no hang. Both CTAs record generation 0.
    let o = run_grid(GRID_BARRIER, "gb", 2, "forall (p1[0] == 0 /\\ p1[1] == 0)");
    assert!(o.hangs.is_empty(), "no hang expected:\n{}", o.herd());
    assert!(o.holds(), "{}", o.herd());
}

/// CTA 0 publishes a flag; CTA 1 reads it once and, if it was 0, loops: `bra.uni` to itself
/// (LLVM's hoisted weak spin) or a loop whose only input is %globaltimer.
const NO_READ_LOOPS: &str = r#"
.visible .entry selfloop(.param .u64 p0, .param .u64 p1)
{ .reg .pred %p<5>; .reg .b32 %r<8>; .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [p0]; mov.u32 %r1, %ctaid.x; setp.ne.u32 %p1, %r1, 0; @%p1 bra T1;
  st.release.gpu.u32 [%rd1], 1; ret;
T1: ld.relaxed.gpu.u32 %r2, [%rd1]; setp.ne.u32 %p2, %r2, 0; @%p2 bra DONE;
L: bra.uni L;
DONE: ret; }
.visible .entry timeronly(.param .u64 p0, .param .u64 p1)
{ .reg .pred %p<5>; .reg .b32 %r<8>; .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [p0]; mov.u32 %r1, %ctaid.x; setp.ne.u32 %p1, %r1, 0; @%p1 bra T1;
  st.release.gpu.u32 [%rd1], 1; ret;
T1: ld.relaxed.gpu.u32 %r2, [%rd1]; mov.u64 %rd2, %globaltimer;
L: setp.ne.u32 %p2, %r2, 0; @%p2 bra DONE;
  mov.u64 %rd3, %globaltimer; sub.s64 %rd4, %rd3, %rd2; setp.lt.u64 %p4, %rd4, 1000000000; @%p4 bra L;
  st.relaxed.gpu.u32 [%rd1+4], 1;
DONE: ret; }
"#;

#[test]
fn a_loop_that_reads_no_memory_is_a_hang_when_it_cannot_exit() {
    // When CTA 1's single read returns 0 (the initial value: nothing orders it after CTA 0's
    // store), `bra.uni L` to itself never exits whatever the other threads do: a hang (S6).
    // The timer-only loop is the same wait bounded by %globaltimer: judged as the unbounded
    // wait it bounds it is a hang too, and its timeout path (p0[1] = 1) is explored. The
    // accesses are strong and morally strong (§8.7): no race.
    let o = run_grid(NO_READ_LOOPS, "selfloop", 2, "exists (p0[0] == 1)");
    assert_eq!(o.hangs.len(), 1, "{}", o.herd());
    assert!(o.hangs[0].contains("bra.uni L"), "{}", o.hangs[0]);
    assert!(o.races.is_empty(), "{}", o.herd());
    let o = run_grid(NO_READ_LOOPS, "timeronly", 2, "exists (p0[1] == 1)");
    assert_eq!(o.hangs.len(), 1, "{}", o.herd());
    assert!(o.races.is_empty(), "{}", o.herd());
    assert!(o.holds(), "the timeout path is explored:\n{}", o.herd());
}

/// nvcc declares a kernel's `__shared__` variables inside the entry's body.
const BODY_SHARED: &str = r#"
.visible .entry bs(.param .u64 p0, .param .u64 p1)
{
  .reg .pred %p<3>; .reg .b32 %r<8>; .reg .b64 %rd<4>;
  .shared .align 4 .b8 _ZZ2bsE4slot[4];
  ld.param.u64 %rd1, [p0];
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra C;
  st.shared.u32 [_ZZ2bsE4slot], 7;
C:
  bar.sync 0;
  ld.shared.u32 %r2, [_ZZ2bsE4slot];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.u32 [%rd3], %r2;
  ret;
}
"#;

#[test]
fn a_shared_variable_declared_in_the_entry_body_is_the_ctas() {
    // PTX ISA §5.1.5: `.shared` is per CTA whatever the declaration's scope. Thread 0 stores 7
    // before `bar.sync 0`, which orders it before both threads' loads (§8.9.4, barriers
    // synchronize their participants): both read 7 and nothing races.
    let o = check(
        BODY_SHARED,
        "bs",
        [1, 2],
        &[8, 8],
        "forall (p0[0] == 7 /\\ p0[1] == 7)",
    );
    assert!(o.races.is_empty() && o.hangs.is_empty(), "{}", o.herd());
    assert!(o.holds(), "{}", o.herd());
}

/// Every thread stores its number + 1 into word 0, then reads word 0 into word `1 + tid`:
/// weak (`st.u32`/`ld.u32`) or, in `many_relaxed`, `.relaxed.gpu`.
const MANY: &str = r#"
.visible .entry many(.param .u64 p0)
{ .reg .b32 %r<6>; .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [p0]; mov.u32 %r1, %tid.x; add.u32 %r2, %r1, 1;
  mul.wide.u32 %rd2, %r2, 4; add.s64 %rd3, %rd1, %rd2;
  st.u32 [%rd1], %r2; ld.u32 %r3, [%rd1]; st.u32 [%rd3], %r3; ret; }
.visible .entry many_relaxed(.param .u64 p0)
{ .reg .b32 %r<6>; .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [p0]; mov.u32 %r1, %tid.x; add.u32 %r2, %r1, 1;
  mul.wide.u32 %rd2, %r2, 4; add.s64 %rd3, %rd1, %rd2;
  st.relaxed.gpu.u32 [%rd1], %r2; ld.relaxed.gpu.u32 %r3, [%rd1]; st.u32 [%rd3], %r3; ret; }
"#;

#[test]
fn a_check_stopped_at_its_step_limit_reports_the_flags_it_found() {
    // Six threads, each a store and a load of one word: thousands of executions, so 3,000
    // steps stop the check long before the end. The weak accesses of different threads
    // conflict and are not morally strong (PTX ISA §8.7.1): a data race in the first complete
    // execution. It is reported, the outcome says the check is incomplete (no clean verdict),
    // and the CLI's exit code is 3.
    let ptx = format!("{HEADER}{MANY}");
    let run = |entry: &str, steps: Option<u64>| {
        let mut launch = Launch::new([1, 1, 1], [6, 1, 1]);
        launch.params.push((0, Bind::Buf(32)));
        launch.max_steps = steps;
        let check = KernelCheck {
            entry: entry.into(),
            launch,
            assert: Some("exists (p0[1] == 2)".into()),
        };
        check_kernel(&ptx, "t.ptx", &check)
    };
    let o = run("many", Some(3_000)).unwrap_or_else(|e| panic!("{e}"));
    assert!(!o.races.is_empty(), "{}", o.herd());
    assert!(o.incomplete.is_some() && !o.decided(), "{}", o.herd());
    assert!(o.executions > 0, "{}", o.herd());
    assert!(o.herd().contains("\nIncomplete many ("), "{}", o.herd());
    // The same accesses `.relaxed.gpu` are morally strong: nothing found by the limit, so the
    // limit is the answer (not decided), as before.
    let e = run("many_relaxed", Some(3_000)).expect_err("no flag: the limit is an error");
    assert!(e.msg.contains("3000 exploration steps"), "{e}");
    // `exists (p0[1] == 2)`: thread 0 reads thread 1's store in some execution. Whether the
    // executions explored by the limit hold one is not decided here; unlimited, it holds.
    let full = run("many_relaxed", None).unwrap_or_else(|e| panic!("{e}"));
    assert!(full.decided() && full.holds(), "{}", full.herd());
}

/// Each thread ORs bit `tid` into `p0[0]` with `red.relaxed.gpu.or`; in `reds_read`, thread 0
/// then reads the word into `p1[0]`.
const REDS: &str = r#"
.visible .entry reds(.param .u64 p0, .param .u64 p1)
{ .reg .b32 %r<6>; .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [p0]; mov.u32 %r1, %tid.x; shl.b32 %r2, 1, %r1;
  red.relaxed.gpu.global.or.b32 [%rd1], %r2; ret; }
.visible .entry reds_read(.param .u64 p0, .param .u64 p1)
{ .reg .b32 %r<6>; .reg .b64 %rd<6>; .reg .pred %p<2>;
  ld.param.u64 %rd1, [p0]; ld.param.u64 %rd2, [p1]; mov.u32 %r1, %tid.x; shl.b32 %r2, 1, %r1;
  red.relaxed.gpu.global.or.b32 [%rd1], %r2;
  setp.ne.u32 %p1, %r1, 0; @%p1 bra END;
  ld.relaxed.gpu.global.u32 %r3, [%rd1]; st.relaxed.gpu.global.u32 [%rd2], %r3;
END: ret; }
"#;

#[test]
fn reds_that_nobody_reads_are_placed_in_one_order() {
    // Four `red.or`s of different bits and no read of the word: the final value is 15 in any
    // coherence order (or is commutative and associative), no value between two of them is
    // read, and no other access can follow: the model places them in one order (SEMANTICS S8),
    // one execution instead of 4! = 24.
    let o = check(REDS, "reds", [1, 4], &[8, 8], "forall (p0[0] == 15)");
    assert!(o.holds() && o.decided(), "{}", o.herd());
    assert!(o.races.is_empty(), "{}", o.herd());
    assert_eq!(o.executions, 1, "{}", o.herd());
    // A read of the word sees the values between the reds: every order is explored. Thread 0
    // reads after its own red (bit 0 set, §8.10.4 coherence with its program order) and may
    // see any subset of the other bits: 1 alone, and all of them.
    for (v, holds) in [(1, true), (15, true), (2, false)] {
        let o = check(
            REDS,
            "reds_read",
            [1, 4],
            &[8, 8],
            &format!("exists (p1[0] == {v})"),
        );
        assert_eq!(o.holds(), holds, "p1[0] == {v}:\n{}", o.herd());
        assert!(o.executions > 1, "{}", o.herd());
    }
}
