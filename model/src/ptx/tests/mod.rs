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
                    Op::Clock { .. } => {
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

mod arith;
mod control;
mod memory;
mod parser;
