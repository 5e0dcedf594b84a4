//! Per-thread traces: each thread is run on its own with every value its reads may return (the
//! values some write of the test may store, found by a fixpoint), giving the finite set of paths
//! the thread can take. Loops are unrolled up to [`UNROLL`] backward jumps per label.

use crate::ast::*;
use crate::parse::{Error, ErrorKind};

/// How many times a path may jump back to the same label before it is cut.
pub const UNROLL: usize = 4;
/// Most instructions a thread may execute on one path.
pub const MAX_STEPS: usize = 200;
/// Most values a location may hold before the test is reported as unsupported.
pub const MAX_DOMAIN: usize = 48;

/// What one dynamic instruction instance did.
#[derive(Clone, Debug)]
pub struct TEvent {
    /// Index of the instruction in the thread's code.
    pub pc: usize,
    /// Value read (loads, RMWs; for a failed `cas` too).
    pub rval: Option<i64>,
    /// Value written (stores, RMWs that write).
    pub wval: Option<i64>,
    /// Trace indices of the reads this event depends on (data or control; No-Thin-Air).
    pub deps: Vec<usize>,
    /// For barriers: id, count (resolved), kind, predicate value, guessed `bar.red` result.
    pub bar: Option<BarEv>,
}

/// A barrier instance's resolved operands.
#[derive(Clone, Debug)]
pub struct BarEv {
    /// Barrier number.
    pub id: i64,
    /// Thread count (`None`: all threads of the CTA).
    pub count: Option<i64>,
    /// Instance (other tool's dialect).
    pub instance: Option<i64>,
    /// Kind.
    pub kind: BarKind,
    /// `bar.red` predicate.
    pub pred: bool,
    /// `bar.red` result as guessed on this path.
    pub result: Option<i64>,
}

/// One complete path of a thread.
#[derive(Clone, Debug)]
pub struct Trace {
    /// The memory, fence and barrier events in program order (register-only steps omitted).
    pub events: Vec<TEvent>,
    /// Final register values.
    pub regs: Vec<i64>,
}

/// All paths of every thread.
#[derive(Debug)]
pub struct Paths {
    /// `traces[t]`: the paths of thread t.
    pub traces: Vec<Vec<Trace>>,
    /// Paths cut at the unroll bound (not executions).
    pub cut: usize,
}

fn mask(v: i64, bits: u32) -> i64 {
    if bits >= 64 {
        v
    } else {
        v & ((1i64 << bits) - 1)
    }
}

/// The value an RMW writes (PTX ISA `atom`), or `None` for a failed `cas` (read only).
pub fn rmw_value(
    op: RmwOp,
    old: i64,
    a: i64,
    b: Option<i64>,
    bits: u32,
    signed: bool,
) -> Option<i64> {
    let (o, x) = if signed || bits >= 64 {
        (old, a)
    } else {
        (mask(old, bits), mask(a, bits))
    };
    let v = match op {
        RmwOp::Add => o.wrapping_add(x),
        RmwOp::Sub => o.wrapping_sub(x),
        RmwOp::Inc => {
            if o >= x {
                0
            } else {
                o + 1
            }
        }
        RmwOp::Dec => {
            if o == 0 || o > x {
                x
            } else {
                o - 1
            }
        }
        RmwOp::And => o & x,
        RmwOp::Or => o | x,
        RmwOp::Xor => o ^ x,
        RmwOp::Min => o.min(x),
        RmwOp::Max => o.max(x),
        RmwOp::Exch => x,
        RmwOp::Cas => {
            if o == x {
                b.unwrap_or(0)
            } else {
                return None;
            }
        }
    };
    Some(if signed && bits < 64 {
        // sign-extend the low `bits`
        let m = mask(v, bits);
        if m >> (bits - 1) & 1 == 1 {
            m - (1i64 << bits)
        } else {
            m
        }
    } else if bits < 64 {
        mask(v, bits)
    } else {
        v
    })
}

fn alu(op: AluOp, a: i64, b: i64) -> i64 {
    match op {
        AluOp::Mov => a,
        AluOp::Add => a.wrapping_add(b),
        AluOp::Sub => a.wrapping_sub(b),
        AluOp::Mul => a.wrapping_mul(b),
        AluOp::Div => {
            if b == 0 {
                0
            } else {
                a.wrapping_div(b)
            }
        }
        AluOp::And => a & b,
        AluOp::Or => a | b,
        AluOp::Xor => a ^ b,
    }
}

struct Run<'a> {
    test: &'a Test,
    t: usize,
    domain: &'a [Vec<i64>],
    cta_threads: i64,
    out: Vec<Trace>,
    written: Vec<Vec<i64>>,
    cut: usize,
}

#[derive(Clone)]
struct State {
    pc: usize,
    regs: Vec<i64>,
    taint: Vec<Vec<usize>>,
    ctrl: Vec<usize>,
    events: Vec<TEvent>,
    back: Vec<usize>,
    steps: usize,
}

fn union(a: &[usize], b: &[usize]) -> Vec<usize> {
    let mut v: Vec<usize> = a.iter().chain(b.iter()).copied().collect();
    v.sort_unstable();
    v.dedup();
    v
}

impl Run<'_> {
    fn val(&self, s: &State, v: &Val) -> (i64, Vec<usize>) {
        match v {
            Val::Imm(x) => (*x, Vec::new()),
            Val::Reg(r) => (s.regs[*r], s.taint[*r].clone()),
        }
    }

    fn go(&mut self, mut s: State) {
        let code = &self.test.threads[self.t].code;
        loop {
            if s.pc >= code.len() {
                self.out.push(Trace {
                    events: s.events,
                    regs: s.regs,
                });
                return;
            }
            s.steps += 1;
            if s.steps > MAX_STEPS {
                self.cut += 1;
                return;
            }
            let pc = s.pc;
            match &code[pc].instr {
                Instr::Nop => s.pc += 1,
                Instr::Alu { op, dst, a, b } => {
                    let (x, tx) = self.val(&s, a);
                    let (y, ty) = if *op == AluOp::Mov {
                        (0, Vec::new())
                    } else {
                        self.val(&s, b)
                    };
                    s.regs[*dst] = alu(*op, x, y);
                    s.taint[*dst] = union(&tx, &ty);
                    s.pc += 1;
                }
                Instr::Goto { target } | Instr::Branch { target, .. } => {
                    let taken = match &code[pc].instr {
                        Instr::Branch { cmp, a, b, .. } => {
                            let (x, tx) = self.val(&s, a);
                            let (y, ty) = self.val(&s, b);
                            s.ctrl = union(&s.ctrl, &union(&tx, &ty));
                            cmp.eval(x, y)
                        }
                        _ => true,
                    };
                    if taken {
                        if *target <= pc {
                            s.back[*target] += 1;
                            if s.back[*target] > UNROLL {
                                self.cut += 1;
                                return;
                            }
                        }
                        s.pc = *target;
                    } else {
                        s.pc += 1;
                    }
                }
                Instr::Load { dst, addr, .. } => {
                    let vals = self.domain[addr.phys].clone();
                    let idx = s.events.len();
                    for v in vals {
                        let mut n = s.clone();
                        n.events.push(TEvent {
                            pc,
                            rval: Some(v),
                            wval: None,
                            deps: n.ctrl.clone(),
                            bar: None,
                        });
                        n.regs[*dst] = v;
                        n.taint[*dst] = vec![idx];
                        n.pc += 1;
                        self.go(n);
                    }
                    return;
                }
                Instr::Store { addr, val, .. } => {
                    let (v, tv) = self.val(&s, val);
                    self.written[addr.phys].push(v);
                    s.events.push(TEvent {
                        pc,
                        rval: None,
                        wval: Some(v),
                        deps: union(&s.ctrl, &tv),
                        bar: None,
                    });
                    s.pc += 1;
                }
                Instr::Rmw {
                    op,
                    dst,
                    addr,
                    a,
                    b,
                    bits,
                    signed,
                    ..
                } => {
                    let (x, tx) = self.val(&s, a);
                    let (y, ty) = match b {
                        Some(b) => {
                            let (y, ty) = self.val(&s, b);
                            (Some(y), ty)
                        }
                        None => (None, Vec::new()),
                    };
                    let vals = self.domain[addr.phys].clone();
                    let idx = s.events.len();
                    for old in vals {
                        let mut n = s.clone();
                        let w = rmw_value(*op, old, x, y, *bits, *signed);
                        if let Some(w) = w {
                            self.written[addr.phys].push(w);
                        }
                        let mut deps = union(&n.ctrl, &union(&tx, &ty));
                        // The write depends on the value read (the RMW's own read).
                        deps.retain(|d| *d != idx);
                        n.events.push(TEvent {
                            pc,
                            rval: Some(old),
                            wval: w,
                            deps,
                            bar: None,
                        });
                        if let Some(d) = dst {
                            n.regs[*d] = old;
                            n.taint[*d] = vec![idx];
                        }
                        n.pc += 1;
                        self.go(n);
                    }
                    return;
                }
                Instr::Fence { .. }
                | Instr::ProxyFence { .. }
                | Instr::AliasFence
                | Instr::ClusterArrive { .. }
                | Instr::ClusterWait => {
                    s.events.push(TEvent {
                        pc,
                        rval: None,
                        wval: None,
                        deps: s.ctrl.clone(),
                        bar: None,
                    });
                    s.pc += 1;
                }
                Instr::Bar {
                    kind,
                    id,
                    count,
                    dst,
                    pred,
                    instance,
                } => {
                    let (idv, _) = self.val(&s, id);
                    let cnt = count.as_ref().map(|c| self.val(&s, c).0);
                    let pv = pred
                        .as_ref()
                        .map(|(p, neg)| (self.val(&s, p).0 != 0) != *neg)
                        .unwrap_or(false);
                    let results: Vec<Option<i64>> = match kind {
                        BarKind::RedPopc => (0..=self.cta_threads).map(Some).collect(),
                        BarKind::RedAnd | BarKind::RedOr => vec![Some(0), Some(1)],
                        _ => vec![None],
                    };
                    let idx = s.events.len();
                    for r in results {
                        let mut n = s.clone();
                        n.events.push(TEvent {
                            pc,
                            rval: None,
                            wval: None,
                            deps: n.ctrl.clone(),
                            bar: Some(BarEv {
                                id: idv,
                                count: cnt,
                                instance: *instance,
                                kind: *kind,
                                pred: pv,
                                result: r,
                            }),
                        });
                        if let (Some(d), Some(r)) = (dst, r) {
                            n.regs[*d] = r;
                            // The result comes from other threads' predicates: it is not a read.
                            n.taint[*d] = Vec::new();
                            let _ = idx;
                        }
                        n.pc += 1;
                        self.go(n);
                    }
                    return;
                }
            }
        }
    }
}

/// Enumerates every thread's paths, growing the value domains: round k lets reads return the
/// values some write can store after k earlier rounds. A value that needs a chain of k RMWs
/// needs k writes in one execution, so after as many rounds as an execution can have writes
/// every realizable value is in the domain (the rest only yields reads with no write to read
/// from, which the enumeration drops).
pub fn paths(test: &Test) -> Result<Paths, Error> {
    let mut domain: Vec<Vec<i64>> = test.phys.iter().map(|(_, v)| vec![*v]).collect();
    for round in 0.. {
        let mut traces = Vec::new();
        let mut cut = 0;
        let mut written: Vec<Vec<i64>> = vec![Vec::new(); test.phys.len()];
        let mut max_writes = 0;
        for (t, th) in test.threads.iter().enumerate() {
            let cta_threads = test
                .threads
                .iter()
                .filter(|o| o.place.includes(Scope::Cta, &th.place))
                .count() as i64;
            let mut run = Run {
                test,
                t,
                domain: &domain,
                cta_threads,
                out: Vec::new(),
                written: vec![Vec::new(); test.phys.len()],
                cut: 0,
            };
            run.go(State {
                pc: 0,
                regs: th.init.clone(),
                taint: vec![Vec::new(); th.regs.len()],
                ctrl: Vec::new(),
                events: Vec::new(),
                back: vec![0; th.code.len() + 1],
                steps: 0,
            });
            cut += run.cut;
            for (p, w) in run.written.into_iter().enumerate() {
                written[p].extend(w);
            }
            max_writes += run
                .out
                .iter()
                .map(|tr| tr.events.iter().filter(|e| e.wval.is_some()).count())
                .max()
                .unwrap_or(0);
            traces.push(run.out);
        }
        let mut grown = false;
        let mut next = domain.clone();
        for (p, w) in written.into_iter().enumerate() {
            for v in w {
                if !next[p].contains(&v) {
                    next[p].push(v);
                    grown = true;
                }
            }
            next[p].sort_unstable();
            if next[p].len() > MAX_DOMAIN {
                return Err(Error {
                    kind: ErrorKind::Unsupported,
                    file: test.file.clone(),
                    line: 0,
                    msg: format!(
                        "location {} may hold more than {MAX_DOMAIN} values",
                        test.phys[p].0
                    ),
                });
            }
        }
        if !grown || round >= max_writes {
            return Ok(Paths { traces, cut });
        }
        domain = next;
    }
    unreachable!()
}
