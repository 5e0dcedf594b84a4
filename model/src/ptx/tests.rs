//! Unit tests of the IR, parser and interpreter. Every expected value is worked out by hand from
//! the PTX ISA text cited next to it (not from the code under test).

use super::asm::Asm;
use super::interp::{Code, Geom, RegInfo, Thread};
use super::ir::*;
use super::parse::{parse_line, Env, PErr, Param, VarRef};
use crate::ast::{BarKind, FenceSem, Proxy, RmwOp, Scope, Sem};
use crate::engine::op::*;
use std::collections::HashMap;
use std::sync::Arc;

/// A kernel-dialect environment: registers named as LLVM names them, with their widths
/// (`%r` 32, `%rd` 64, `%rs` 16, `%p` pred, `%f` 32, `%fd` 64), labels `L0`…, a layout.
struct KEnv {
    regs: Vec<RegInfo>,
    map: HashMap<String, Reg>,
    labels: HashMap<String, u32>,
    layout: Layout,
    params: HashMap<String, Vec<u8>>,
}

impl KEnv {
    fn new(layout: Layout) -> KEnv {
        KEnv {
            regs: vec![],
            map: HashMap::new(),
            labels: HashMap::new(),
            layout,
            params: HashMap::new(),
        }
    }
}

fn kbits(name: &str) -> Option<u8> {
    let t = name.strip_prefix('%')?;
    let (p, d) = t.split_at(t.find(|c: char| c.is_ascii_digit())?);
    if !d.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some(match p {
        "r" | "f" => 32,
        "rd" | "fd" => 64,
        "rs" => 16,
        "p" => 1,
        _ => return None,
    })
}

impl Env for KEnv {
    fn litmus(&self) -> bool {
        false
    }
    fn reg(&mut self, name: &str) -> Option<Reg> {
        if let Some(&r) = self.map.get(name) {
            return Some(r);
        }
        let bits = kbits(name)?;
        let r = self.regs.len() as Reg;
        self.regs.push(RegInfo {
            name: name.into(),
            bits,
        });
        self.map.insert(name.into(), r);
        Some(r)
    }
    fn is_pred(&self, r: Reg) -> bool {
        self.regs[r as usize].bits == 1
    }
    fn var(&mut self, name: &str, _a: bool) -> Option<VarRef> {
        VarRef::of_layout(&self.layout, name)
    }
    fn param(&mut self, name: &str) -> Option<Param> {
        self.params.get(name).cloned().map(Param::Value)
    }
    fn label(&self, name: &str) -> Option<u32> {
        self.labels.get(name).copied()
    }
}

/// Assembles kernel-dialect lines (labels `NAME:` are no-op lines).
fn kcode(layout: Layout, text: &[&str]) -> Arc<Code> {
    let mut env = KEnv::new(layout);
    kcode_env(&mut env, text)
}

fn kcode_env(env: &mut KEnv, text: &[&str]) -> Arc<Code> {
    for (i, t) in text.iter().enumerate() {
        if let Some(l) = t.trim().strip_suffix(':') {
            env.labels.insert(l.to_string(), i as u32);
        }
    }
    let lines = text
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let at = At {
                line: i + 1,
                text: Arc::from(*t),
                src: None,
            };
            parse_line(t, at, env).unwrap_or_else(|e| panic!("`{t}`: {}", e.msg))
        })
        .collect();
    Arc::new(Code::new(
        lines,
        env.regs.clone(),
        Arc::new(env.layout.clone()),
    ))
}

fn kparse(text: &str) -> Result<Inst, PErr> {
    let mut env = KEnv::new(layout_xs());
    env.labels.insert("L".into(), 0);
    parse_line(text, At::default(), &mut env).map(|l| l.inst)
}

fn lparse(text: &str) -> Result<Inst, PErr> {
    let mut l = layout_xs();
    let mut a = Asm::new(&mut l, &[], &[]);
    a.assemble(&[(1, "L:".into()), (2, text.into())])
        .map(|v| v[1].inst.clone())
        .map_err(|e| e.1)
}

/// x: global 8 bytes; y: global 16 bytes; s: shared 16 bytes; bar: shared 8 bytes.
fn layout_xs() -> Layout {
    let mut l = Layout::default();
    l.add("x", false, 8, vec![]);
    l.add("y", false, 16, vec![]);
    l.add("s", true, 16, vec![]);
    l.add("bar", true, 8, vec![]);
    l
}

/// A sequential memory for running one thread: bytes per resolved location, every op
/// performed at once in program order.
struct Mem {
    layout: Arc<Layout>,
    bytes: HashMap<(u32, Option<u32>, u32), u8>,
    clock: u64,
    cluster: u32,
}

impl Mem {
    fn new(layout: Arc<Layout>) -> Mem {
        Mem {
            layout,
            bytes: HashMap::new(),
            clock: 0,
            cluster: 1,
        }
    }
    fn key(&self, sp: Space, addr: u64, rank: u32) -> (u32, Option<u32>, u32) {
        let l = self
            .layout
            .resolve(sp, addr, 1, rank, self.cluster)
            .unwrap_or_else(|e| panic!("address {addr:#x} in {sp:?}: {e:?}"));
        (l.var, l.rank, l.off)
    }
    fn read(&self, sp: Space, addr: u64, size: u8, rank: u32) -> u64 {
        let mut v = 0;
        for i in 0..size as u64 {
            let k = self.key(sp, addr + i, rank);
            let init = self.layout.vars[k.0 as usize].init[k.2 as usize];
            v |= (*self.bytes.get(&k).unwrap_or(&init) as u64) << (8 * i);
        }
        v
    }
    fn write(&mut self, sp: Space, addr: u64, size: u8, v: u64, rank: u32) {
        for i in 0..size as u64 {
            let k = self.key(sp, addr + i, rank);
            self.bytes.insert(k, (v >> (8 * i)) as u8);
        }
    }
}

/// Runs a thread to its end against `mem`, returning every step (ops with their deps).
fn run(t: &mut Thread, mem: &mut Mem) -> Vec<Step> {
    let rank = t.geom().place.rank;
    let lane = t.geom().place.lane as u64;
    let mut out = vec![];
    for _ in 0..10_000 {
        let s = t.step();
        out.push(s.clone());
        match s {
            Step::Op(op, _, _) => {
                let reply = match op {
                    Op::Load(a) => Reply::Value(mem.read(a.space, a.addr, a.size, rank)),
                    Op::Store(a, v) => {
                        mem.write(a.space, a.addr, a.size, v, rank);
                        Reply::None
                    }
                    Op::Rmw(a, r) => {
                        let old = mem.read(a.space, a.addr, a.size, rank);
                        let bits = a.size as u32 * 8;
                        let new = match r.op {
                            RmwOp::Add => old.wrapping_add(r.a),
                            RmwOp::Exch => r.a,
                            RmwOp::Cas => {
                                if old == r.a {
                                    r.b
                                } else {
                                    old
                                }
                            }
                            RmwOp::Inc => {
                                if old >= r.a {
                                    0
                                } else {
                                    old + 1
                                }
                            }
                            _ => old,
                        } & mask(bits);
                        mem.write(a.space, a.addr, a.size, new, rank);
                        if r.returns {
                            Reply::Value(old)
                        } else {
                            Reply::None
                        }
                    }
                    Op::Clock => {
                        mem.clock += 10;
                        Reply::Value(mem.clock)
                    }
                    Op::Mbar { op, .. } => match op {
                        MbarOp::WaitParity { .. } | MbarOp::WaitState { .. } => Reply::Pred(true),
                        _ => Reply::Value(0x77),
                    },
                    Op::Copy(c) => {
                        for m in &c.moves {
                            let v = match m.src {
                                Some((sp, a)) => mem.read(sp, a, m.size, rank),
                                None => 0,
                            };
                            if let Some((sp, a)) = m.dst {
                                mem.write(sp, a, m.size, v, rank);
                            }
                        }
                        Reply::None
                    }
                    Op::Warp(w, _) => match w {
                        Warp::ActiveMask => Reply::Value(1 << lane),
                        Warp::Elect => Reply::Elect(true, lane),
                        Warp::Vote(VoteMode::Ballot, v) => Reply::Value(v << lane),
                        Warp::Vote(_, v) => Reply::Pred(v != 0),
                        Warp::Shfl(_, a, _, _) => Reply::Value(a),
                        Warp::Sync => Reply::None,
                    },
                    Op::Bar { kind, pred, .. } => match kind {
                        BarKind::RedPopc => Reply::Value(pred as u64),
                        BarKind::RedAnd | BarKind::RedOr => Reply::Value(pred as u64),
                        _ => Reply::None,
                    },
                    Op::PendingCount(s) => Reply::Value(s & 0xff),
                    _ => Reply::None,
                };
                t.resume(reply);
            }
            Step::LoopHead { .. } => {}
            _ => return out,
        }
    }
    panic!("the thread did not finish");
}

fn kthread(text: &[&str]) -> (Thread, Mem) {
    let code = kcode(layout_xs(), text);
    let mem = Mem::new(code.layout.clone());
    (
        Thread::new(code, Geom::single(Place::default()), &[], 4),
        mem,
    )
}

fn reg(t: &Thread, name: &str) -> u64 {
    let r = t
        .code()
        .reg(name)
        .unwrap_or_else(|| panic!("no register {name}"));
    t.reg(r as usize)
}

/// Runs kernel-dialect lines and returns the named registers' final values.
fn eval(text: &[&str], names: &[&str]) -> Vec<u64> {
    let (mut t, mut m) = kthread(text);
    let steps = run(&mut t, &mut m);
    assert_eq!(steps.last(), Some(&Step::Done), "{steps:?}");
    names.iter().map(|n| reg(&t, n)).collect()
}

fn ops(steps: &[Step]) -> Vec<Op> {
    steps
        .iter()
        .filter_map(|s| match s {
            Step::Op(o, _, _) => Some(o.clone()),
            _ => None,
        })
        .collect()
}

// ---------------------------------------------------------------- integer arithmetic (§9.7.1)

#[test]
fn add_sub_wrap_at_the_type_width() {
    // add.u32: 0xffffffff + 1 wraps to 0 in 32 bits; sub.s64 0 - 1 = all ones.
    let v = eval(
        &[
            "mov.b32 %r1, 4294967295;",
            "add.u32 %r2, %r1, 1;",
            "mov.b64 %rd1, 0;",
            "sub.s64 %rd2, %rd1, 1;",
            "add.sat.s32 %r3, 2147483647, 1;",
            "sub.sat.s32 %r4, -2147483648, 1;",
        ],
        &["%r2", "%rd2", "%r3", "%r4"],
    );
    // .sat (PTX ISA add): "limits the result to MININT..MAXINT" for .s32.
    assert_eq!(v, vec![0, u64::MAX, 0x7fff_ffff, 0x8000_0000]);
}

#[test]
fn mul_lo_hi_wide_and_mad() {
    // 0xffffffff * 0xffffffff = 0xfffffffe_00000001: .lo = 1, .hi = 0xfffffffe (PTX ISA mul).
    // mul.wide.s32 -2 * 3 = -6 as a 64-bit value; mad.lo.s32 7*6 + -2 = 40;
    // mad.hi.u32 0x80000000 * 4 + 1: (0x2_0000_0000 >> 32) + 1 = 3; mad.wide.u32 0xffffffff*2 + 1.
    let v = eval(
        &[
            "mul.lo.u32 %r1, 4294967295, 4294967295;",
            "mul.hi.u32 %r2, 4294967295, 4294967295;",
            "mul.wide.s32 %rd1, -2, 3;",
            "mad.lo.s32 %r3, 7, 6, -2;",
            "mad.hi.u32 %r4, 2147483648, 4, 1;",
            "mad.wide.u32 %rd2, 4294967295, 2, 1;",
            "mul.hi.s32 %r5, -2, 1073741824;",
        ],
        &["%r1", "%r2", "%rd1", "%r3", "%r4", "%rd2", "%r5"],
    );
    // mul.hi.s32 -2 * 2^30 = -2^31 = 0xffffffff_80000000: high half 0xffffffff.
    assert_eq!(
        v,
        vec![
            1,
            0xffff_fffe,
            (-6i64) as u64,
            40,
            3,
            0x1_ffff_ffff,
            0xffff_ffff
        ]
    );
}

#[test]
fn div_rem_truncate_toward_zero_and_division_by_zero_is_unsupported() {
    // PTX ISA div/rem: signed division truncates toward zero: -7/2 = -3, -7 rem 2 = -1.
    let v = eval(
        &[
            "div.s32 %r1, -7, 2;",
            "rem.s32 %r2, -7, 2;",
            "div.u32 %r3, 4294967289, 2;",
        ],
        &["%r1", "%r2", "%r3"],
    );
    assert_eq!(v, vec![0xffff_fffd, 0xffff_ffff, 0x7fff_fffc]);
    let (mut t, mut m) = kthread(&["mov.b32 %r1, 0;", "div.u32 %r2, 5, %r1;"]);
    let s = run(&mut t, &mut m);
    assert!(
        matches!(s.last(), Some(Step::Unsupported(w, at)) if w.contains("division by zero") && at.line == 2),
        "{s:?}"
    );
}

#[test]
fn shifts_clamp_and_shr_is_arithmetic_for_signed_types() {
    // PTX ISA shl/shr: "Shift amounts greater than the register width N are clamped to N";
    // shr.s fills with the sign bit.
    let v = eval(
        &[
            "shl.b32 %r1, 1, 32;",
            "shl.b32 %r2, 3, 4;",
            "shr.s32 %r3, -8, 1;",
            "shr.u32 %r4, 2147483648, 31;",
            "shr.s32 %r5, -1, 40;",
            "shr.b64 %rd1, -1, 63;",
        ],
        &["%r1", "%r2", "%r3", "%r4", "%r5", "%rd1"],
    );
    assert_eq!(v, vec![0, 48, 0xffff_fffc, 1, 0xffff_ffff, 1]);
}

#[test]
fn bit_instructions_follow_the_isa_pseudocode() {
    // bfe.u32 0x12345678, pos 8, len 8 = 0x56; bfe.s32 0xf000, pos 12, len 4: field 0xf, sign
    // bit a[15] = 1, so every bit is 1 (PTX ISA bfe semantics).
    // bfi.b32 a=0xab into b=0xffff0000 at pos 4, len 8 = 0xffff0ab0.
    // popc 0xf0f0 = 8; clz 1 = 31; brev 1 = 0x80000000; bfind.u32 0x10 = 4, .shiftamt = 31-4;
    // bfind.u32 0 = 0xffffffff; bfind.s32 -1: ~a = 0 → 0xffffffff.
    let v = eval(
        &[
            "bfe.u32 %r1, 305419896, 8, 8;",
            "bfe.s32 %r2, 61440, 12, 4;",
            "bfi.b32 %r3, 171, 4294901760, 4, 8;",
            "popc.b32 %r4, 61680;",
            "clz.b32 %r5, 1;",
            "brev.b32 %r6, 1;",
            "bfind.u32 %r7, 16;",
            "bfind.shiftamt.u32 %r8, 16;",
            "bfind.u32 %r9, 0;",
            "bfind.s32 %r10, -1;",
            "cnot.b32 %r11, 0;",
            "not.b32 %r12, 0;",
            "popc.b64 %r13, -1;",
        ],
        &[
            "%r1", "%r2", "%r3", "%r4", "%r5", "%r6", "%r7", "%r8", "%r9", "%r10", "%r11", "%r12",
            "%r13",
        ],
    );
    assert_eq!(
        v,
        vec![
            0x56,
            0xffff_ffff,
            0xffff_0ab0,
            8,
            31,
            0x8000_0000,
            4,
            27,
            0xffff_ffff,
            0xffff_ffff,
            1,
            0xffff_ffff,
            64
        ]
    );
}

#[test]
fn prmt_selects_bytes_as_the_isa_table_says() {
    // {b, a} = {0x77665544, 0x33221100}: bytes 0..7 = 00 11 22 33 44 55 66 77.
    // Default mode, c = 0x5410: d.b0 = byte 0, d.b1 = byte 1, d.b2 = byte 4, d.b3 = byte 5.
    // c = 0x4448 with a = 0x80: d.b0: ctl 8 = sign of byte 0 (0x80) replicated → 0xff;
    // d.b1..b3: ctl 4 = byte 4 = b's low byte = 0.
    // f4e with c=1: bytes 1,2,3,4 → 0x44332211. b4e with c=0: d.b0..b3 = 0,7,6,5 → 0x55667700.
    let v = eval(
        &[
            "prmt.b32 %r1, 857870592, 2003195204, 21520;",
            "prmt.b32 %r2, 128, 0, 17480;",
            "prmt.b32.f4e %r3, 857870592, 2003195204, 1;",
            "prmt.b32.b4e %r4, 857870592, 2003195204, 0;",
        ],
        &["%r1", "%r2", "%r3", "%r4"],
    );
    assert_eq!(v, vec![0x5544_1100, 0xff, 0x4433_2211, 0x5566_7700]);
}

#[test]
fn cvt_extends_chops_saturates_and_rounds() {
    // PTX ISA cvt: s32 → s64 sign-extends; u32 → u64 zero-extends; u64 → u32 chops;
    // .sat clamps to the destination range; float → int rounds (.rzi toward zero, .rni to
    // nearest even, .rmi down) and saturates, NaN → 0; s32 → f32 .rn rounds to nearest even.
    let v = eval(
        &[
            "mov.b32 %r1, -1;",
            "cvt.s64.s32 %rd1, %r1;",
            "cvt.u64.u32 %rd2, %r1;",
            "cvt.u32.u64 %r2, 81985529216486895;",
            "cvt.sat.u8.s32 %r3, -5;",
            "cvt.sat.u8.s32 %r4, 300;",
            "cvt.rn.f32.s32 %f1, 16777217;",
            "cvt.rzi.s32.f32 %r5, 0fC02CCCCD;",
            "cvt.rni.s32.f32 %r6, 0f40200000;",
            "cvt.rni.s32.f32 %r7, 0f40600000;",
            "cvt.rmi.s32.f32 %r8, 0fC02CCCCD;",
            "cvt.rzi.s32.f32 %r9, 0f7FC00000;",
            "cvt.rzi.s32.f32 %r10, 0f4F32D05E;",
            "cvt.f64.f32 %fd1, 0f3F800000;",
            "cvt.s32.s8 %r11, 128;",
        ],
        &[
            "%rd1", "%rd2", "%r2", "%r3", "%r4", "%f1", "%r5", "%r6", "%r7", "%r8", "%r9", "%r10",
            "%fd1", "%r11",
        ],
    );
    assert_eq!(
        v,
        vec![
            u64::MAX,
            0xffff_ffff,
            0x89ab_cdef,
            0,
            255,
            0x4b80_0000, // 16777216.0
            0xffff_fffe, // -2.7 → -2
            2,           // 2.5 → 2 (ties to even)
            4,           // 3.5 → 4
            0xffff_fffd, // floor(-2.7) = -3
            0,           // NaN → 0
            0x7fff_ffff, // 3e9 saturates
            0x3ff0_0000_0000_0000,
            0xffff_ff80, // s8 0x80 = -128, sign-extended
        ]
    );
}

#[test]
fn floats_compute_as_ieee() {
    // 1.5 + 2.25 = 3.75 (0x40700000); 1/3 rounded to nearest = 0x3eaaaaab; fma(2, 3, 1) = 7;
    // min(NaN, 1) = 1 and min(-0, +0) = -0 (PTX ISA min: "-0.0 < +0.0"); max(-0, +0) = +0;
    // 0.5 * 4 = 2.0 in f64; sqrt.rn(2.25) = 1.5; neg 1.0 = -1.0; .sat clamps 3.75 to 1.0.
    let v = eval(
        &[
            "add.f32 %f1, 0f3FC00000, 0f40100000;",
            "div.rn.f32 %f2, 0f3F800000, 0f40400000;",
            "fma.rn.f32 %f3, 0f40000000, 0f40400000, 0f3F800000;",
            "min.f32 %f4, 0f7FC00000, 0f3F800000;",
            "min.f32 %f5, 0f80000000, 0f00000000;",
            "max.f32 %f6, 0f80000000, 0f00000000;",
            "mul.f64 %fd1, 0d3FE0000000000000, 0d4010000000000000;",
            "sqrt.rn.f32 %f7, 0f40100000;",
            "neg.f32 %f8, 0f3F800000;",
            "add.sat.f32 %f9, 0f3FC00000, 0f40100000;",
            "setp.lt.f32 %p1, 0f7FC00000, 0f3F800000;",
            "setp.ltu.f32 %p2, 0f7FC00000, 0f3F800000;",
        ],
        &[
            "%f1", "%f2", "%f3", "%f4", "%f5", "%f6", "%fd1", "%f7", "%f8", "%f9", "%p1", "%p2",
        ],
    );
    assert_eq!(
        v,
        vec![
            0x4070_0000,
            0x3eaa_aaab,
            0x40e0_0000,
            0x3f80_0000,
            0x8000_0000,
            0x0000_0000,
            0x4000_0000_0000_0000,
            0x3fc0_0000,
            0xbf80_0000,
            0x3f80_0000,
            0, // ordered comparison with NaN is false (§9.3.1.2)
            1, // unordered: true
        ]
    );
}

#[test]
fn setp_selp_slct_and_predicate_logic() {
    // setp.lt.s32 -1 < 0 true; setp.lt.u32 0xffffffff < 0 false; setp.hi.u32 5 > 3 true;
    // setp.ne.and.s32 p|q, 1, 2, c=false: p = (1!=2) & false = 0, q = !(1!=2) & false = 0;
    // setp.eq.or.b32 p|q, 1, 2, true: p = false | true = 1, q = true | true = 1.
    let v = eval(
        &[
            "setp.lt.s32 %p1, -1, 0;",
            "setp.lt.u32 %p2, -1, 0;",
            "setp.hi.u32 %p3, 5, 3;",
            "setp.ne.b32 %p10, 1, 1;",
            "setp.ne.and.s32 %p4|%p5, 1, 2, %p10;",
            "setp.eq.or.b32 %p6|%p7, 1, 2, !%p10;",
            "selp.b32 %r1, 10, 20, %p1;",
            "selp.b32 %r2, 10, 20, %p2;",
            "slct.u32.s32 %r3, 1, 2, -1;",
            "slct.u32.s32 %r4, 1, 2, 0;",
            "and.pred %p8, %p1, %p3;",
            "xor.pred %p9, %p1, %p3;",
            "not.pred %p11, %p9;",
            "or.pred %p12, %p2, %p9;",
        ],
        &[
            "%p1", "%p2", "%p3", "%p4", "%p5", "%p6", "%p7", "%r1", "%r2", "%r3", "%r4", "%p8",
            "%p9", "%p11", "%p12",
        ],
    );
    assert_eq!(v, vec![1, 0, 1, 0, 0, 1, 1, 10, 20, 2, 1, 1, 0, 1, 0]);
}

#[test]
fn registers_hold_the_destination_width_with_sign_or_zero_extension() {
    // PTX ISA §9.4.1: a destination wider than the type is sign-extended for signed types and
    // zero-extended otherwise. ld.s8 of 0xff into a 32-bit register → 0xffffffff; ld.u8 → 0xff;
    // a litmus register (64 bits) loaded with ld.s16 of 0x8000 → sign-extended to 64 bits.
    let mut l = layout_xs();
    l.vars[0].init = vec![0xff, 0x00, 0x80, 0, 0, 0, 0, 0];
    let code = kcode(
        l,
        &[
            "ld.s8 %r1, [x];",
            "ld.u8 %r2, [x];",
            "ld.global.s16 %rd1, [x+1];",
        ],
    );
    let mut m = Mem::new(code.layout.clone());
    let mut t = Thread::new(code, Geom::single(Place::default()), &[], 4);
    run(&mut t, &mut m);
    assert_eq!(
        (reg(&t, "%r1"), reg(&t, "%r2"), reg(&t, "%rd1")),
        (0xffff_ffff, 0xff, 0xffff_ffff_ffff_8000)
    );
}

// ------------------------------------------------------------------ memory ops and their deps

#[test]
fn vectors_are_one_access_per_element_in_ascending_addresses_and_sinks_are_skipped() {
    // PTX ISA §8.2.4: a vector access is a set of scalar accesses; FORMAT part 2: issued in
    // ascending address order. ld.v4 with `_` (PTX ISA ld: "data … is not read").
    let (mut t, mut m) = kthread(&[
        "mov.u64 %rd1, y;",
        "st.global.v4.b32 [%rd1], {1, 2, 3, 4};",
        "ld.global.v4.b32 {%r1, _, %r3, %r4}, [y];",
    ]);
    let s = run(&mut t, &mut m);
    let y = layout_xs().addr_of(1);
    let o = ops(&s);
    let store_addrs: Vec<u64> = o
        .iter()
        .filter_map(|o| match o {
            Op::Store(a, v) => Some((a.addr - y) * 100 + v),
            _ => None,
        })
        .collect();
    assert_eq!(store_addrs, vec![1, 402, 803, 1204]);
    let load_addrs: Vec<u64> = o
        .iter()
        .filter_map(|o| match o {
            Op::Load(a) => Some(a.addr - y),
            _ => None,
        })
        .collect();
    assert_eq!(load_addrs, vec![0, 8, 12]);
    assert_eq!((reg(&t, "%r1"), reg(&t, "%r3"), reg(&t, "%r4")), (1, 3, 4));
}

#[test]
fn deps_carry_data_address_and_control_dependencies() {
    // op 0: ld x → %r1 (deps {}); op 1: st [y], %r1 (data dep on 0); op 2: ld %rd2 ← [x]
    // (deps {}); op 3: ld [%rd2] (address dep on 2: %rd2 came from op 2); the branch on %r1
    // makes every later op control-dependent on 0; op 4: st [x], 5 (deps {0}).
    let mut l = layout_xs();
    let yaddr = l.addr_of(1);
    l.vars[0].init = yaddr.to_le_bytes().to_vec();
    let code = kcode(
        l,
        &[
            "ld.global.u32 %r1, [x];",
            "st.global.u32 [y], %r1;",
            "ld.global.u64 %rd2, [x];",
            "ld.global.u32 %r2, [%rd2];",
            "setp.eq.s32 %p1, %r1, 7;",
            "@%p1 bra DONE;",
            "st.global.u32 [x], 5;",
            "DONE:",
        ],
    );
    let mut m = Mem::new(code.layout.clone());
    let mut t = Thread::new(code, Geom::single(Place::default()), &[], 4);
    let deps: Vec<Vec<u32>> = run(&mut t, &mut m)
        .iter()
        .filter_map(|s| match s {
            Step::Op(_, _, d) => Some(d.to_vec()),
            _ => None,
        })
        .collect();
    assert_eq!(deps, vec![vec![], vec![0], vec![], vec![2], vec![0]]);
}

#[test]
fn deps_sets_are_exact_below_128_and_over_approximate_above() {
    let mut d = Deps::NONE;
    d.insert(3);
    d.insert(127);
    assert_eq!(d.to_vec(), vec![3, 127]);
    d.insert(130);
    // 128..=130 are claimed (the documented over-approximation); nothing above 130.
    assert_eq!(d.to_vec(), vec![3, 127, 128, 129, 130]);
    assert!(!d.contains(131) && !d.contains(4));
    assert_eq!(d.len(), 5);
}

#[test]
fn atom_red_defaults_and_cas_operands() {
    // PTX ISA atom: no .sem = .relaxed, no .scope = .gpu; cas(r, s, t) = r == s ? t : r.
    let (mut t, mut m) = kthread(&[
        "atom.global.add.u32 %r1, [x], 5;",
        "atom.acq_rel.cta.global.cas.b32 %r2, [x], 5, 9;",
        "red.release.sys.global.add.u32 [x], 1;",
        "atom.exch.b64 %rd1, [y], -1;",
    ]);
    let s = run(&mut t, &mut m);
    let o = ops(&s);
    let Op::Rmw(a0, r0) = &o[0] else { panic!() };
    assert_eq!(
        (a0.order, a0.space, a0.size, r0.op, r0.a, r0.returns),
        (
            Order {
                sem: Sem::Relaxed,
                scope: Some(Scope::Gpu)
            },
            Space::Global,
            4,
            RmwOp::Add,
            5,
            true
        )
    );
    let Op::Rmw(a1, r1) = &o[1] else { panic!() };
    assert_eq!(
        (a1.order.sem, a1.order.scope, r1.op, r1.a, r1.b),
        (Sem::AcqRel, Some(Scope::Cta), RmwOp::Cas, 5, 9)
    );
    let Op::Rmw(a2, r2) = &o[2] else { panic!() };
    assert_eq!((a2.order.sem, r2.returns), (Sem::Release, false));
    let Op::Rmw(a3, r3) = &o[3] else { panic!() };
    assert_eq!((a3.space, a3.size, r3.a), (Space::Generic, 8, u64::MAX));
    // 0 + 5 = 5, then cas 5 → 9, then +1 = 10; %r1 = 0, %r2 = 5.
    assert_eq!((reg(&t, "%r1"), reg(&t, "%r2")), (0, 5));
    assert_eq!(m.read(Space::Global, layout_xs().addr_of(0), 4, 0), 10);
}

#[test]
fn fences_membar_and_proxy_fences() {
    // PTX ISA fence: no .sem = .acq_rel; membar.gl = fence.sc.gpu.
    let (mut t, mut m) = kthread(&[
        "fence.gpu;",
        "membar.gl;",
        "fence.sc.cluster;",
        "fence.mbarrier_init.release.cluster;",
        "fence.acquire.sync_restrict::shared::cluster.cluster;",
        "fence.proxy.async.shared::cta;",
        "fence.proxy.async;",
        "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;",
        "fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;",
        "fence.proxy.alias;",
    ]);
    let o = ops(&run(&mut t, &mut m));
    assert_eq!(
        o,
        vec![
            Op::Fence(FenceSem::AcqRel, Scope::Gpu, None),
            Op::Fence(FenceSem::Sc, Scope::Gpu, None),
            Op::Fence(FenceSem::Sc, Scope::Cluster, None),
            Op::Fence(
                FenceSem::Release,
                Scope::Cluster,
                Some(Restrict::MbarrierInit)
            ),
            Op::Fence(
                FenceSem::Acquire,
                Scope::Cluster,
                Some(Restrict::SharedCluster)
            ),
            Op::ProxyFence(ProxyFence::Async(Some(Space::SharedCta))),
            Op::ProxyFence(ProxyFence::Async(None)),
            Op::ProxyFence(ProxyFence::AsyncGeneric {
                sem: FenceSem::Release,
                restrict: Restrict::SharedCta
            }),
            Op::ProxyFence(ProxyFence::TensormapGeneric {
                sem: FenceSem::Acquire,
                scope: Scope::Gpu,
                addr: Some(0)
            }),
            Op::ProxyFence(ProxyFence::Alias),
        ]
    );
}

#[test]
fn mbarrier_defaults_and_operands() {
    // PTX ISA mbarrier.arrive: .release.cta by default; waits .acquire.cta; expect_tx .relaxed.
    let (mut t, mut m) = kthread(&[
        "mbarrier.init.shared::cta.b64 [bar], 2;",
        "mbarrier.arrive.shared::cta.b64 %rd1, [bar];",
        "mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [bar], 64;",
        "mbarrier.try_wait.parity.shared::cta.b64 %p1, [bar], 1;",
        "mbarrier.test_wait.relaxed.cluster.shared::cta.b64 %p2, [bar], %rd1;",
        "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], 16;",
        "mbarrier.arrive_drop.noComplete.shared::cta.b64 %rd2, [bar], 3;",
        "mbarrier.pending_count.b64 %r1, %rd1;",
    ]);
    let s = run(&mut t, &mut m);
    let bar = layout_xs().addr_of(3);
    // A row each: the space the instruction names (`.shared::cluster` only on the expect_tx
    // arrive), its operation, and its semantics and scope (written, or the defaults above).
    let mbar = |space, op, sem, scope| Op::Mbar {
        space,
        addr: bar,
        op,
        sem,
        scope,
    };
    let (cta, cluster) = (Space::SharedCta, Space::SharedCluster);
    let arrive = |count, expect_tx, no_complete, drop| MbarOp::Arrive {
        count,
        expect_tx,
        no_complete,
        drop,
    };
    let got: Vec<Op> = ops(&s)
        .into_iter()
        .filter(|o| matches!(o, Op::Mbar { .. }))
        .collect();
    assert_eq!(
        got,
        vec![
            mbar(cta, MbarOp::Init { count: 2 }, Sem::Weak, Scope::Cta),
            mbar(cta, arrive(1, None, false, false), Sem::Release, Scope::Cta),
            mbar(
                cluster,
                arrive(1, Some(64), false, false),
                Sem::Release,
                Scope::Cluster
            ),
            mbar(
                cta,
                MbarOp::WaitParity {
                    parity: 1,
                    try_wait: true
                },
                Sem::Acquire,
                Scope::Cta
            ),
            mbar(
                cta,
                MbarOp::WaitState {
                    state: 0x77,
                    try_wait: false
                },
                Sem::Relaxed,
                Scope::Cluster
            ),
            mbar(cta, MbarOp::ExpectTx(16), Sem::Relaxed, Scope::Cta),
            mbar(cta, arrive(3, None, true, true), Sem::Release, Scope::Cta),
        ]
    );
    assert!(ops(&s).contains(&Op::PendingCount(0x77)));
    assert_eq!((reg(&t, "%p1"), reg(&t, "%r1")), (1, 0x77));
}

#[test]
fn async_copies_split_into_pieces_with_their_completion() {
    // cp.async 16 bytes with src-size 6: bytes 0..6 read, 6..16 zero-filled (PTX ISA cp.async);
    // pieces of 4 bytes, the one straddling byte 6 split into bytes.
    let mut l = layout_xs();
    l.vars[1].init = (1..=16).collect();
    let code = kcode(
        l,
        &[
            "cp.async.ca.shared::cta.global [s], [y], 16, 6;",
            "cp.async.commit_group;",
            "cp.async.wait_group 0;",
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [s], [y], 16, [bar];",
            "cp.async.bulk.global.shared::cta.bulk_group [y], [s], 16;",
            "cp.async.bulk.commit_group;",
            "cp.async.bulk.wait_group.read 1;",
            "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [bar];",
        ],
    );
    let mut m = Mem::new(code.layout.clone());
    let mut t = Thread::new(code.clone(), Geom::single(Place::default()), &[], 4);
    let s = run(&mut t, &mut m);
    let o = ops(&s);
    let (sa, ya, ba) = (
        code.layout.addr_of(2),
        code.layout.addr_of(1),
        code.layout.addr_of(3),
    );
    let Op::Copy(c0) = &o[0] else { panic!("{o:?}") };
    let got: Vec<(Option<u64>, u64, u8)> = c0
        .moves
        .iter()
        .map(|m| (m.src.map(|x| x.1 - ya), m.dst.unwrap().1 - sa, m.size))
        .collect();
    assert_eq!(
        got,
        vec![
            (Some(0), 0, 4),
            (Some(4), 4, 1),
            (Some(5), 5, 1),
            (None, 6, 1),
            (None, 7, 1),
            (None, 8, 4),
            (None, 12, 4)
        ]
    );
    assert_eq!(
        (c0.proxy, c0.completion),
        (Proxy::Generic, Completion::AsyncGroup)
    );
    // Performed alone, the first copy leaves bytes 1..6 then zeros in s.
    let mut m0 = Mem::new(code.layout.clone());
    let mut t0 = Thread::new(code.clone(), Geom::single(Place::default()), &[], 4);
    let Step::Op(Op::Copy(c), _, _) = t0.step() else {
        panic!()
    };
    for mv in &c.moves {
        let v = mv.src.map_or(0, |(sp, a)| m0.read(sp, a, mv.size, 0));
        let (sp, a) = mv.dst.unwrap();
        m0.write(sp, a, mv.size, v, 0);
    }
    assert_eq!(m0.read(Space::SharedCta, sa, 8, 0), 0x0000_0605_0403_0201);
    assert_eq!(o[1], Op::Commit { bulk: false });
    assert_eq!(
        o[2],
        Op::WaitGroup {
            bulk: false,
            n: 0,
            read: false,
            all: false
        }
    );
    let Op::Copy(c3) = &o[3] else { panic!() };
    assert_eq!(
        (c3.proxy, c3.completion, c3.tx_bytes, c3.moves.len()),
        (
            Proxy::Async,
            Completion::Mbarrier(Space::SharedCluster, ba),
            16,
            4
        )
    );
    let Op::Copy(c4) = &o[4] else { panic!() };
    assert_eq!(c4.completion, Completion::BulkGroup);
    assert_eq!(c4.moves[0].dst, Some((Space::Global, ya)));
    assert_eq!(
        o[6],
        Op::WaitGroup {
            bulk: true,
            n: 1,
            read: true,
            all: false
        }
    );
    assert_eq!(
        o[7],
        Op::AsyncMbarArrive {
            space: Space::SharedCta,
            addr: ba,
            noinc: true
        }
    );
}

#[test]
fn tensor_copies_move_the_box_row_major_and_zero_fill_outside() {
    // A 2d map over a 3x2 tensor of .b32 with a 2x2 box; loading at (2, 1): elements (2,1),
    // (3,1) [outside: x = 3 ≥ W], (2,2), (3,2) [outside: y = 2 ≥ H] → one element read.
    let mut l = Layout::default();
    let data = l.add("g", false, 24, (0..24).collect());
    let tv = l.add("t", false, 128, vec![]);
    l.add("sm", true, 16, vec![]);
    l.add("bar", true, 8, vec![]);
    l.tmaps.push(TensorMap {
        var: tv,
        data,
        elem: 4,
        dims: vec![3, 2],
        boxdim: vec![2, 2],
    });
    let code = kcode(
        l,
        &["cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [sm], [t, {2, 1}], [bar];"],
    );
    let mut m = Mem::new(code.layout.clone());
    let mut t = Thread::new(code.clone(), Geom::single(Place::default()), &[], 4);
    let o = ops(&run(&mut t, &mut m));
    let Op::Copy(c) = &o[0] else { panic!() };
    let g = code.layout.addr_of(data);
    let srcs: Vec<Option<u64>> = c.moves.iter().map(|m| m.src.map(|s| s.1 - g)).collect();
    // element (2,1) is at (1*3 + 2) * 4 = 20.
    assert_eq!(srcs, vec![Some(20), None, None, None]);
    assert_eq!(c.tx_bytes, 16);
    assert_eq!(
        m.read(Space::SharedCta, code.layout.addr_of(2), 8, 0),
        0x1716_1514
    );
}

#[test]
fn addresses_of_shared_variables_follow_the_space_and_the_cta() {
    // A thread of rank 1 in a cluster of 2: [s] in .shared::cta names its own copy; [s@0] in
    // .shared::cluster names rank 0's copy (FORMAT part 2); cvta/mapa give the Layout's
    // numbers (engine::op::Layout docs).
    let l = layout_xs();
    let sa = l.addr_of(2);
    let code = kcode(
        l,
        &[
            "mov.u32 %r1, s;",
            "cvta.shared::cta.u64 %rd1, %r1;",
            "cvta.to.shared::cta.u64 %rd2, %rd1;",
            "mapa.shared::cluster.u32 %r2, %r1, 0;",
            "mapa.u64 %rd3, %rd1, 0;",
            "getctarank.shared::cluster.u32 %r3, %r2;",
            "getctarank.u64 %r4, %rd1;",
            "isspacep.shared::cta %p1, %rd3;",
            "isspacep.shared::cluster %p2, %rd3;",
            "isspacep.global %p3, %rd3;",
            "st.shared::cluster.u32 [s@0+4], 1;",
            "ld.shared::cta.u32 %r5, [s];",
        ],
    );
    let place = Place {
        rank: 1,
        ..Place::default()
    };
    let mut g = Geom::single(place);
    g.cluster_nctaid = [2, 1, 1];
    let mut m = Mem::new(code.layout.clone());
    m.cluster = 2;
    let mut t = Thread::new(code, g, &[], 4);
    let o = ops(&run(&mut t, &mut m));
    let gen1 = GENERIC_SHARED + ((2u64 << RANK_SHIFT) | sa);
    assert_eq!(
        [
            reg(&t, "%r1"),
            reg(&t, "%rd1"),
            reg(&t, "%rd2"),
            reg(&t, "%r2"),
            reg(&t, "%rd3"),
            reg(&t, "%r3"),
            reg(&t, "%r4"),
            reg(&t, "%p1"),
            reg(&t, "%p2"),
            reg(&t, "%p3"),
        ],
        [
            sa,
            gen1,
            sa,
            (1u64 << RANK_SHIFT) | sa,
            GENERIC_SHARED + ((1u64 << RANK_SHIFT) | sa),
            0,
            1,
            0,
            1,
            0
        ]
    );
    assert_eq!(
        o[0],
        Op::Store(
            Access {
                space: Space::SharedCluster,
                addr: (1u64 << RANK_SHIFT) | (sa + 4),
                size: 4,
                proxy: Proxy::Generic,
                order: Order::WEAK
            },
            1
        )
    );
}

#[test]
fn special_registers_and_clocks() {
    let code = kcode(
        Layout::default(),
        &[
            "mov.u32 %r1, %tid.y;",
            "mov.u32 %r2, %laneid;",
            "mov.u32 %r3, %cluster_ctarank;",
            "mov.u32 %r4, %lanemask_lt;",
            "mov.u64 %rd1, %globaltimer;",
            "mov.u64 %rd2, %clock64;",
            "mov.u32 %r5, %smid;",
            "mov.u32 %r6, %nctaid.x;",
        ],
    );
    let mut g = Geom::single(Place {
        rank: 2,
        lane: 5,
        ..Place::default()
    });
    g.tid = [5, 3, 0];
    g.nctaid = [4, 1, 1];
    let mut m = Mem::new(code.layout.clone());
    let mut t = Thread::new(code, g, &[], 4);
    let s = run(&mut t, &mut m);
    // %lanemask_lt of lane 5: bits 0..4 set = 0x1f (PTX ISA §10.12).
    assert_eq!(
        [
            reg(&t, "%r1"),
            reg(&t, "%r2"),
            reg(&t, "%r3"),
            reg(&t, "%r4"),
            reg(&t, "%rd1"),
            reg(&t, "%rd2"),
            reg(&t, "%r5"),
            reg(&t, "%r6")
        ],
        [3, 5, 2, 0x1f, 10, 20, 0, 4]
    );
    assert_eq!(ops(&s), vec![Op::Clock, Op::Clock]);
}

#[test]
fn warp_collectives_are_ops_with_their_lane_semantics() {
    // shfl.sync.down with b = 1, c = 0x1f on lane 31: j = 32 > maxLane 31 → p false; on lane 3
    // p true (PTX ISA shfl.sync pseudocode).
    let text = [
        "activemask.b32 %r1;",
        "elect.sync %r2|%p1, -1;",
        "vote.sync.ballot.b32 %r3, %p1, -1;",
        "shfl.sync.down.b32 %r4|%p2, 42, 1, 31, -1;",
        "bar.warp.sync -1;",
    ];
    for (lane, p2) in [(3u32, 1u64), (31, 0)] {
        let code = kcode(Layout::default(), &text);
        let mut m = Mem::new(code.layout.clone());
        let mut t = Thread::new(
            code,
            Geom::single(Place {
                lane,
                ..Place::default()
            }),
            &[],
            4,
        );
        let o = ops(&run(&mut t, &mut m));
        assert_eq!(o[0], Op::Warp(Warp::ActiveMask, 0xffff_ffff));
        assert_eq!(
            o[3],
            Op::Warp(Warp::Shfl(ShflMode::Down, 42, 1, 31), 0xffff_ffff)
        );
        assert_eq!(o[4], Op::Warp(Warp::Sync, 0xffff_ffff));
        assert_eq!(
            [
                reg(&t, "%r1"),
                reg(&t, "%r2"),
                reg(&t, "%p1"),
                reg(&t, "%r3"),
                reg(&t, "%p2")
            ],
            [1 << lane, lane as u64, 1, 1 << lane, p2]
        );
    }
}

#[test]
fn barriers_pass_their_operands() {
    let (mut t, mut m) = kthread(&[
        "bar.sync 1, 64;",
        "barrier.arrive.aligned 2, 32;",
        "setp.eq.s32 %p1, 1, 1;",
        "bar.red.popc.u32 %r1, 3, !%p1;",
        "barrier.cluster.arrive.relaxed.aligned;",
        "barrier.cluster.wait;",
        "bar.sync 0;",
    ]);
    let s = run(&mut t, &mut m);
    assert_eq!(
        ops(&s),
        vec![
            Op::Bar {
                kind: BarKind::Sync,
                id: 1,
                count: Some(64),
                pred: false
            },
            Op::Bar {
                kind: BarKind::Arrive,
                id: 2,
                count: Some(32),
                pred: false
            },
            Op::Bar {
                kind: BarKind::RedPopc,
                id: 3,
                count: None,
                pred: false
            },
            Op::ClusterArrive { relaxed: true },
            Op::ClusterWait,
            Op::Bar {
                kind: BarKind::Sync,
                id: 0,
                count: None,
                pred: false
            },
        ]
    );
}

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

#[test]
fn a_kernel_loop_head_is_compared_on_entry_on_its_live_registers() {
    // A bounded spin: the clock value `%rd3` and the comparison `%p2` are written before they
    // are read in every iteration, so they are dead at the head; `%rd2` (the start) and `%rd1`
    // (the address) are live. With `entry_heads` the entry is a LoopHead too, and after one
    // failed iteration the state at the head is the entry's (the failed wait is not explored
    // twice).
    let text = [
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
    let code = kcode(layout_xs(), &text);
    let mut kc = (*code).clone();
    kc.observe_end = false;
    kc.entry_heads = true;
    let mut t = Thread::new(Arc::new(kc), Geom::single(Place::default()), &[], 4);
    let mut heads = vec![];
    for _ in 0..40 {
        match t.step() {
            Step::Op(Op::Clock, ..) => t.resume(Reply::Value(1 << 32)),
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
            Step::Op(Op::Clock, ..) => t.resume(Reply::Value(1 << 32)),
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

// ------------------------------------------------------------------------------ the parser

#[test]
fn parse_errors_say_what_was_expected() {
    // PTX ISA bar: "sixteen barriers numbered 0..15"; a thread count must be positive.
    let e = kparse("bar.sync 16;").unwrap_err();
    assert!(
        !e.unsupported && e.msg.contains("out of range 0–15"),
        "{e:?}"
    );
    let e = lparse("bar.cta.sync 0, 0").unwrap_err();
    assert!(e.msg.contains("must be positive"), "{e:?}");
    let e = lparse("bar.cta.sync 0, -2").unwrap_err();
    assert!(e.msg.contains("must be positive"), "{e:?}");
    // In a kernel a count is a multiple of the warp size.
    assert!(kparse("bar.sync 0, 48;")
        .unwrap_err()
        .msg
        .contains("multiple of the warp size"));
    assert!(kparse("bar.sync 0, 64;").is_ok());
    // atom.inc/.dec are .u32 only.
    let e = kparse("atom.global.inc.s64 %rd1, [x], 3;").unwrap_err();
    assert!(e.msg.contains(".u32 only"), "{e:?}");
    assert!(kparse("atom.global.dec.u64 %rd1, [x], 3;").is_err());
    assert!(kparse("atom.global.inc.u32 %r1, [x], 3;").is_ok());
    // A literal that fits neither the signed nor the unsigned 32-bit range.
    let e = kparse("st.global.u32 [x], 5000000000;").unwrap_err();
    assert!(e.msg.contains("does not fit .u32"), "{e:?}");
    assert!(kparse("st.global.u32 [x], 4294967295;").is_ok());
    assert!(kparse("st.global.s32 [x], -2147483648;").is_ok());
    assert!(kparse("st.global.s32 [x], -2147483649;").is_err());
    assert!(lparse("st x, 4294967296").is_err());
    // Semantics and scopes.
    assert!(kparse("ld.release.gpu.u32 %r1, [x];")
        .unwrap_err()
        .msg
        .contains("ld has no `.release`"));
    assert!(kparse("ld.acquire.u32 %r1, [x];")
        .unwrap_err()
        .msg
        .contains("needs a scope"));
    assert!(kparse("red.acquire.gpu.add.u32 [x], 1;")
        .unwrap_err()
        .msg
        .contains("red has no"));
    assert!(kparse("fence.sc;")
        .unwrap_err()
        .msg
        .contains("needs a scope"));
    // A name not in the space named.
    assert!(kparse("ld.global.u32 %r1, [s];")
        .unwrap_err()
        .msg
        .contains("not in the .global"));
    assert!(kparse("ld.shared::cta.u32 %r1, [s@1];").is_err());
    // Operand counts.
    assert!(kparse("add.u32 %r1, %r2;")
        .unwrap_err()
        .msg
        .contains("takes 3 operand"));
    // setp on bit types: eq/ne only (§9.3.1.1).
    assert!(kparse("setp.lt.b32 %p1, %r1, %r2;").is_err());
    // Unknown instructions are unsupported, not errors.
    let e = kparse("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [s], 32;").unwrap_err();
    assert!(e.unsupported, "{e:?}");
}

#[test]
fn litmus_extras_parse_to_their_meanings() {
    // FORMAT part 2: untyped ld/st/atom/red are 32-bit; .volatile is relaxed.sys.
    let i = lparse("ld.volatile r0, x").unwrap();
    let Inst::Ld {
        m: MemRef {
            order, ty, space, ..
        },
        ..
    } = i
    else {
        panic!()
    };
    assert_eq!(
        (order, ty, space),
        (
            Order {
                sem: Sem::Relaxed,
                scope: Some(Scope::Sys)
            },
            Ty::U32,
            Space::Generic
        )
    );
    let Inst::Atom { ty, sem, scope, .. } = lparse("atom.add r1, [x+4], 2").unwrap() else {
        panic!()
    };
    assert_eq!((ty, sem, scope), (Ty::U32, Sem::Relaxed, Scope::Gpu));
    assert!(matches!(
        lparse("beq r1, 2, L").unwrap(),
        Inst::CmpBra { target: 0, .. }
    ));
    assert!(matches!(lparse("goto L").unwrap(), Inst::Bra { target: 0 }));
    assert!(matches!(
        lparse("add r2, r1, 1").unwrap(),
        Inst::Bin {
            ty: Ty {
                kind: Kind::S,
                bits: 64
            },
            ..
        }
    ));
    assert!(matches!(
        lparse("membar.cta").unwrap(),
        Inst::Fence(FenceSem::Sc, Scope::Cta, None)
    ));
    let Inst::Ld {
        m: MemRef { proxy, .. },
        ..
    } = lparse("suld.weak r0, x").unwrap()
    else {
        panic!()
    };
    assert_eq!(proxy, Proxy::Surface);
    let Inst::Ld {
        m: MemRef { proxy, .. },
        ..
    } = lparse("ld.const r0, x").unwrap()
    else {
        panic!()
    };
    assert_eq!(proxy, Proxy::Constant);
    // `[x@1]`: rank 1's copy; `_` sink.
    let Inst::Mbar { addr, d, space, .. } =
        lparse("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [bar@1]").unwrap()
    else {
        panic!()
    };
    assert_eq!((d, space), (None, Space::SharedCluster));
    assert!(matches!(addr.base, Base::Var { rank: Some(1), .. }));
    // The other tool's `ld r0, 1` is a move.
    assert!(matches!(
        lparse("ld r0, 1").unwrap(),
        Inst::Mov {
            a: Opnd::Imm(1),
            ..
        }
    ));
    // Guards.
    let mut l = layout_xs();
    let mut a = Asm::new(&mut l, &[], &[]);
    let v = a
        .assemble(&[(1, "L:".into()), (2, "@!p0 bra L".into())])
        .unwrap();
    let p0 = a.register("p0").unwrap();
    assert_eq!(v[1].guard, Some((p0, true)));
    assert!(a.regs[p0 as usize].bits == 1);
}

#[test]
fn address_operands() {
    let Inst::Ld {
        m: MemRef { addr, .. },
        ..
    } = kparse("ld.u32 %r1, [%rd1+-28];").unwrap()
    else {
        panic!()
    };
    assert_eq!(addr.off, -28);
    assert!(matches!(addr.base, Base::Reg(_)));
    let Inst::St {
        m: MemRef { addr, .. },
        ..
    } = kparse("st.global.u32 [y+8], 1;").unwrap()
    else {
        panic!()
    };
    assert_eq!(addr.off, 8);
    assert!(matches!(
        addr.base,
        Base::Var {
            var: 1,
            shared: false,
            ..
        }
    ));
    let Inst::Ld {
        m: MemRef { addr, .. },
        ..
    } = kparse("ld.u32 %r1, [4096];").unwrap()
    else {
        panic!()
    };
    assert_eq!(addr.base, Base::Abs(4096));
}

#[test]
fn vector_and_packed_atomics_are_one_rmw_per_element() {
    // PTX ISA atom: vector/packed atomics are atomic per scalar element. .v2.f32 add: elements
    // at y and y+4; .f16x2: the low half (0x4000 = 2.0) at y, the high half (0x3c00 = 1.0) at
    // y+2; the old halves come back into the destination's halves.
    let code = kcode(
        layout_xs(),
        &[
            "mov.b32 %r3, 1065353216;",
            "atom.relaxed.gpu.global.add.v2.f32 {%r1, %r2}, [y], {%r3, %r3};",
            "mov.b32 %r5, 1006649344;",
            "atom.global.add.noftz.f16x2 %r4, [y], %r5;",
        ],
    );
    let mut t = Thread::new(code.clone(), Geom::single(Place::default()), &[], 4);
    let y = code.layout.addr_of(1);
    let mut got = vec![];
    let mut k = 0u64;
    loop {
        match t.step() {
            Step::Op(Op::Rmw(a, r), _, _) => {
                got.push((a.addr - y, a.size, r.a, r.float, r.returns));
                k += 1;
                t.resume(Reply::Value(0x1110 + k));
            }
            Step::Done => break,
            s => panic!("{s:?}"),
        }
    }
    assert_eq!(
        got,
        vec![
            (0, 4, 0x3f80_0000, Some(Float::F32), true),
            (4, 4, 0x3f80_0000, Some(Float::F32), true),
            (0, 2, 0x4000, Some(Float::F16), true),
            (2, 2, 0x3c00, Some(Float::F16), true),
        ]
    );
    assert_eq!(
        (reg(&t, "%r1"), reg(&t, "%r2"), reg(&t, "%r4")),
        (0x1111, 0x1112, 0x1114_1113)
    );
    // Only .add (and .min/.max on halves) exist in vector form.
    assert!(kparse("atom.global.min.v2.f32 {%r1, %r2}, [y], {%r3, %r3};").is_err());
}

#[test]
fn tensormap_cp_fenceproxy_copies_128_bytes_then_fences() {
    // PTX ISA §9.7.13.16: copy 128 bytes shared::cta → global in the generic proxy, then a
    // generic → tensormap release fence on dst.
    let mut l = Layout::default();
    let g = l.add("g", false, 128, vec![]);
    let sm = l.add("sm", true, 128, (0..128).collect());
    let code = kcode(
        l,
        &["tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [g], [sm], 128;"],
    );
    let mut m = Mem::new(code.layout.clone());
    let mut t = Thread::new(code.clone(), Geom::single(Place::default()), &[], 4);
    let s = run(&mut t, &mut m);
    let o = ops(&s);
    assert_eq!(o.len(), 33);
    let ga = code.layout.addr_of(g);
    assert_eq!(
        o[32],
        Op::ProxyFence(ProxyFence::TensormapGeneric {
            sem: FenceSem::Release,
            scope: Scope::Gpu,
            addr: Some(ga)
        })
    );
    // The store of the last word carries the data dependency on its load (op 30).
    let Step::Op(_, _, d) = s
        .iter()
        .filter(|x| matches!(x, Step::Op(..)))
        .nth(31)
        .unwrap()
    else {
        panic!()
    };
    assert!(d.contains(30));
    assert_eq!(m.read(Space::Global, ga + 120, 8, 0), 0x7f7e_7d7c_7b7a_7978);
    let _ = sm;
}

#[test]
fn tensor_reductions_carry_their_operation() {
    let mut l = Layout::default();
    let data = l.add("g", false, 32, vec![]);
    let tv = l.add("t", false, 128, vec![]);
    l.add("sm", true, 32, vec![]);
    l.tmaps.push(TensorMap {
        var: tv,
        data,
        elem: 4,
        dims: vec![8],
        boxdim: vec![4],
    });
    let code = kcode(
        l,
        &["cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group [t, {6}], [sm];"],
    );
    let mut t = Thread::new(code.clone(), Geom::single(Place::default()), &[], 4);
    let Step::Op(Op::Copy(c), _, _) = t.step() else {
        panic!()
    };
    assert_eq!(c.reduce.map(|r| r.op), Some(RmwOp::Add));
    assert_eq!(c.completion, Completion::BulkGroup);
    // Box of 4 at x = 6 over 8 elements: elements 6, 7 written, 8 and 9 outside (not written).
    let g = code.layout.addr_of(data);
    let dsts: Vec<Option<u64>> = c.moves.iter().map(|m| m.dst.map(|d| d.1 - g)).collect();
    assert_eq!(dsts, vec![Some(24), Some(28), None, None]);
}
