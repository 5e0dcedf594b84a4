//! The interpreter's tests: control flow: guards, branches, loop heads, traps.

use super::*;

// ----------------------------------------------------------------------- control and loops

#[test]
fn guards_branches_and_exit() {
    // @!p skips when p is true; exit ends the thread before the last store.
    let (mut t, mut m) = kthread(&[
        "setp.eq.s32 %p1, 1, 1;",
        "@!%p1 st.global.u32 [x], 1;",
        "@%p1 st.global.u32 [x], 2;",
        "bra.uni END;",
        "st.global.u32 [x], 3;",
        "END:",
        "exit;",
        "st.global.u32 [x], 4;",
    ]);
    let s = run(&mut t, &mut m);
    let vals: Vec<u64> = ops(&s)
        .iter()
        .filter_map(|o| match o {
            Op::Store(_, v) => Some(*v),
            _ => None,
        })
        .collect();
    assert_eq!(vals, vec![2]);
    assert_eq!(s.last(), Some(&Step::Done));
    // After the end, step keeps saying Done.
    assert_eq!(t.step(), Step::Done);
}

#[test]
fn backward_branches_report_loop_heads_and_cut_past_the_bound() {
    // A spin loop whose load always returns 0: each backward jump is a LoopHead (head = the
    // label's index 0); with unroll 2 the third jump is a Cut.
    let code = kcode(
        layout_xs(),
        &[
            "L:",
            "ld.relaxed.gpu.global.u32 %r1, [x];",
            "setp.eq.s32 %p1, %r1, 0;",
            "@%p1 bra L;",
        ],
    );
    let mut t = Thread::new(code, Geom::single(Place::default()), &[], 2);
    let mut heads = 0;
    let mut fps = vec![];
    loop {
        match t.step() {
            Step::Op(..) => t.resume(Reply::Value(0)),
            Step::LoopHead { head, at, .. } => {
                assert_eq!((head, at.line), (0, 4));
                heads += 1;
                fps.push(t.fingerprint());
            }
            Step::Cut(at) => {
                assert_eq!(at.line, 4);
                break;
            }
            s => panic!("{s:?}"),
        }
    }
    assert_eq!(heads, 2);
    // Same pc and registers at each head: equal fingerprints (counters are not hashed).
    assert_eq!(fps[0], fps[1]);
    assert!(matches!(t.step(), Step::Cut(_)));
}

/// A bounded spin on `x`: `%rd2` the start time, `%rd3` the time after a failed read.
const BOUNDED_SPIN: &[&str] = &[
    "mov.u64 %rd1, 0;",
    "mov.u64 %rd2, %globaltimer;",
    "W:",
    "ld.relaxed.gpu.global.u32 %r1, [x];",
    "setp.ne.u32 %p1, %r1, 0;",
    "@%p1 bra D;",
    "mov.u64 %rd3, %globaltimer;",
    "sub.s64 %rd4, %rd3, %rd2;",
    "setp.lt.u64 %p2, %rd4, 1000;",
    "@%p2 bra W;",
    "D:",
];

#[test]
fn a_kernel_loop_head_is_compared_on_entry_on_its_live_registers() {
    // A bounded spin: the clock value `%rd3` and the comparison `%p2` are written before they
    // are read in every iteration, so they are dead at the head; `%rd2` (the start) and `%rd1`
    // (the address) are live. With `entry_heads` the entry is a LoopHead too, and after one
    // failed iteration the state at the head is the entry's (the failed wait is not explored
    // twice).
    let text = BOUNDED_SPIN;
    let code = kcode(layout_xs(), text);
    let mut kc = (*code).clone();
    kc.observe_end = false;
    kc.entry_heads = true;
    let mut t = Thread::new(Arc::new(kc), Geom::single(Place::default()), &[], 4);
    let mut heads = vec![];
    for _ in 0..40 {
        match t.step() {
            Step::Op(Op::Clock { .. }, ..) => t.resume(Reply::Value(1 << 32)),
            Step::Op(..) => t.resume(Reply::Value(0)),
            Step::LoopHead { entry, .. } => {
                heads.push((entry, t.fingerprint()));
                if heads.len() == 2 {
                    break;
                }
            }
            s => panic!("{s:?}"),
        }
    }
    assert_eq!(heads.len(), 2, "{heads:?}");
    assert!(
        heads[0].0 && !heads[1].0,
        "entry, then the backward branch: {heads:?}"
    );
    assert_eq!(
        heads[0].1, heads[1].1,
        "dead registers do not tell the states apart"
    );
    // The same code with its registers observed at the end (a litmus thread): `%rd3` is live
    // on the exit path, the states differ, and no entry is reported.
    let mut t = Thread::new(code, Geom::single(Place::default()), &[], 4);
    let mut fps = vec![];
    for _ in 0..40 {
        match t.step() {
            Step::Op(Op::Clock { .. }, ..) => t.resume(Reply::Value(1 << 32)),
            Step::Op(..) => t.resume(Reply::Value(0)),
            Step::LoopHead { entry, .. } => {
                assert!(!entry);
                fps.push(t.fingerprint());
                if fps.len() == 2 {
                    break;
                }
            }
            s => panic!("{s:?}"),
        }
    }
    assert_eq!(fps[0], fps[1], "two iterations end in the same state");
}

#[test]
fn elect_and_shfl_define_their_predicates_and_instructions_name_what_they_read() {
    let mut env = KEnv::new(layout_xs());
    let mut one = |t: &str| parse_line(t, At::default(), &mut env).unwrap().inst;
    let elect = one("elect.sync %r1|%p1, 0xffffffff;");
    let shfl = one("shfl.sync.idx.b32 %r2|%p2, %r3, 0, 31, 0xffffffff;");
    let st = one("st.relaxed.gpu.global.u32 [%rd1], %r4;");
    let reg = |n: &str| env.regs.iter().position(|r| r.name == n).unwrap() as Reg;
    let mut d = vec![];
    assert!(elect.defs(&mut d));
    assert_eq!(d, vec![reg("%r1"), reg("%p1")]);
    d.clear();
    assert!(shfl.defs(&mut d));
    assert_eq!(d, vec![reg("%r2"), reg("%p2")]);
    let mut u = vec![];
    assert!(shfl.uses(&mut u));
    assert_eq!(u, vec![reg("%r3")]);
    u.clear();
    assert!(st.uses(&mut u));
    assert_eq!(u, vec![reg("%rd1"), reg("%r4")]);
}

#[test]
fn a_loop_entered_again_counts_afresh() {
    // Outer loop 3 times, inner loop 2 times per entry; unroll 2 suffices for the inner loop
    // only if its counter restarts at each entry (and the outer does 2 back jumps).
    let (mut t, mut m) = kthread(&[
        "mov.u32 %r1, 0;",
        "OUTER:",
        "mov.u32 %r2, 0;",
        "INNER:",
        "add.u32 %r2, %r2, 1;",
        "setp.lt.u32 %p1, %r2, 3;",
        "@%p1 bra INNER;",
        "add.u32 %r1, %r1, 1;",
        "setp.lt.u32 %p2, %r1, 3;",
        "@%p2 bra OUTER;",
    ]);
    t = {
        let code = t.code().clone();
        Thread::new(code, Geom::single(Place::default()), &[], 2)
    };
    let s = run(&mut t, &mut m);
    assert_eq!(s.last(), Some(&Step::Done), "{s:?}");
    assert_eq!(
        s.iter()
            .filter(|x| matches!(x, Step::LoopHead { .. }))
            .count(),
        2 * 3 + 2
    );
}

#[test]
fn trap_and_unsupported_stop_the_thread() {
    let (mut t, mut m) = kthread(&["trap;"]);
    assert!(matches!(run(&mut t, &mut m).last(), Some(Step::Trap(at)) if at.line == 1));
    // Half conversions and arithmetic are not modelled: a parse-time `unsupported`.
    assert!(kparse("cvt.rn.f16.f32 %rs1, %f1;").unwrap_err().unsupported);
    assert!(kparse("add.f16 %rs1, %rs2, %rs3;").unwrap_err().unsupported);
    assert!(kparse("neg.bf16 %rs1, %rs2;").unwrap_err().unsupported);
}

#[test]
fn cloned_threads_share_code_and_diverge_independently() {
    let code = kcode(
        layout_xs(),
        &["ld.global.u32 %r1, [x];", "add.u32 %r2, %r1, 1;"],
    );
    let mut a = Thread::new(code, Geom::single(Place::default()), &[], 4);
    assert!(matches!(a.step(), Step::Op(Op::Load(_), _, _)));
    let mut b = a.clone();
    assert!(Arc::ptr_eq(a.code(), b.code()));
    a.resume(Reply::Value(1));
    b.resume(Reply::Value(10));
    assert_eq!((a.step(), b.step()), (Step::Done, Step::Done));
    let r2 = a.code().reg("%r2").unwrap() as usize;
    assert_eq!((a.reg(r2), b.reg(r2)), (2, 11));
    assert_ne!(a.fingerprint(), b.fingerprint());
}

#[test]
fn a_clock_read_may_jump_only_where_an_earlier_clock_value_is_compared_with_it() {
    // Two bounded waits in a row (SEMANTICS S6, "Which clock reads may jump"). Derived by hand:
    // line 2 is the thread's first read (nothing earlier to compare with); line 3 (`%clock64`)
    // is never used; line 8 is compared with line 2's `%rd2`, live across it (a jump there is
    // the timeout); line 13, the second wait's start, has no earlier clock value live across
    // it (`%rd2` is dead after the first wait): a jump there moves every later read with it.
    // Line 18 is compared with line 13's `%rd5`.
    // BOUNDED_SPIN with an unused `%clock64` read after its start, then a second spin.
    let mut text = BOUNDED_SPIN.to_vec();
    text.insert(2, "mov.u64 %rd9, %clock64;");
    text.extend([
        "mov.u64 %rd5, %globaltimer;",
        "V:",
        "ld.relaxed.gpu.global.u32 %r2, [y];",
        "setp.ne.u32 %p3, %r2, 0;",
        "@%p3 bra E;",
        "mov.u64 %rd6, %globaltimer;",
        "sub.s64 %rd7, %rd6, %rd5;",
        "setp.lt.u64 %p4, %rd7, 1000;",
        "@%p4 bra V;",
        "E:",
    ]);
    let mut kc = (*kcode(layout_xs(), &text)).clone();
    kc.observe_end = false;
    let jumps: Vec<usize> = (0..kc.lines.len())
        .filter(|&k| kc.may_jump(k))
        .map(|k| kc.lines[k].at.line)
        .collect();
    assert_eq!(jumps, vec![8, 18]);
    // A clock value stored to memory leaves the registers: the argument no longer holds and
    // every clock read may jump.
    let mut stored = text.to_vec();
    stored.insert(13, "st.relaxed.gpu.global.u64 [y], %rd5;");
    let mut kc = (*kcode(layout_xs(), &stored)).clone();
    kc.observe_end = false;
    let clocks = kc
        .lines
        .iter()
        .filter(|l| matches!(l.inst, Inst::Clock { .. }))
        .count();
    let jumps = (0..kc.lines.len()).filter(|&k| kc.may_jump(k)).count();
    assert_eq!((clocks, jumps), (5, 5));
}
