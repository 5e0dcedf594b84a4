//! Per-thread paths with symbolic values. Each thread is run alone: a read's value is a symbol,
//! a write's value an expression over the thread's read symbols, and every branch (and every
//! `cas`) is taken both ways with its condition recorded. The values are fixed later, per
//! reads-from choice, by evaluating these expressions ([`eval_values`]); a path whose
//! recorded conditions then fail is not an execution. Loops are unrolled up to [`UNROLL`]
//! backward jumps per label.

use crate::ast::*;

/// How many times a path may jump back to the same label before it is cut.
pub const UNROLL: usize = 2;
/// Most instructions a thread may execute on one path.
pub const MAX_STEPS: usize = 200;

/// A symbolic value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// A literal.
    Const(i64),
    /// The value returned by the read event with this index in the trace.
    Read(usize),
    /// Register arithmetic.
    Alu(AluOp, Box<Expr>, Box<Expr>),
    /// The value an RMW writes from the value it read.
    Rmw {
        /// Operation.
        op: RmwOp,
        /// The value read.
        old: Box<Expr>,
        /// Operand.
        a: Box<Expr>,
        /// Second operand (`cas`).
        b: Option<Box<Expr>>,
        /// Width.
        bits: u32,
        /// Signed.
        signed: bool,
    },
}

impl Expr {
    fn reads(&self, out: &mut Vec<usize>) {
        match self {
            Expr::Const(_) => {}
            Expr::Read(k) => out.push(*k),
            Expr::Alu(_, a, b) => {
                a.reads(out);
                b.reads(out);
            }
            Expr::Rmw { old, a, b, .. } => {
                old.reads(out);
                a.reads(out);
                if let Some(b) = b {
                    b.reads(out);
                }
            }
        }
    }

    /// Evaluates with the values of the trace's reads.
    pub fn eval(&self, read: &dyn Fn(usize) -> Option<i64>) -> Option<i64> {
        Some(match self {
            Expr::Const(v) => *v,
            Expr::Read(k) => read(*k)?,
            Expr::Alu(op, a, b) => alu(*op, a.eval(read)?, b.eval(read)?),
            Expr::Rmw {
                op,
                old,
                a,
                b,
                bits,
                signed,
            } => {
                let bv = match b {
                    Some(b) => Some(b.eval(read)?),
                    None => None,
                };
                rmw_value(*op, old.eval(read)?, a.eval(read)?, bv, *bits, *signed)?
            }
        })
    }
}

/// A condition a path assumes (a branch direction, a `cas` success or failure).
#[derive(Clone, Debug)]
pub struct Assume {
    /// Comparison.
    pub cmp: Cmp,
    /// Left side.
    pub a: Expr,
    /// Right side.
    pub b: Expr,
    /// The result the path took.
    pub holds: bool,
}

/// A barrier instance's symbolic operands.
#[derive(Clone, Debug)]
pub struct BarSym {
    /// Barrier number.
    pub id: Expr,
    /// Thread count (`None`: all threads of the CTA).
    pub count: Option<Expr>,
    /// Instance (other tool's dialect).
    pub instance: Option<i64>,
    /// Kind.
    pub kind: BarKind,
    /// `bar.red` predicate (and negation).
    pub pred: Option<(Expr, bool)>,
    /// `bar.red` result guessed on this path.
    pub result: Option<i64>,
}

/// A barrier instance's operands, evaluated.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
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
    /// `bar.red` result guessed on this path.
    pub result: Option<i64>,
}

/// What one dynamic instruction instance does.
#[derive(Clone, Debug)]
pub struct TEvent {
    /// Index of the instruction in the thread's code.
    pub pc: usize,
    /// Reads memory.
    pub read: bool,
    /// The value written, if it writes.
    pub wval: Option<Expr>,
    /// Trace indices of the reads this event depends on (data or control; No-Thin-Air).
    pub deps: Vec<usize>,
    /// Barrier operands.
    pub bar: Option<BarSym>,
    /// For barriers: the registers when the thread arrives (its state if it blocks there).
    pub regs_at: Option<Vec<Expr>>,
}

/// One path of a thread.
#[derive(Clone, Debug)]
pub struct Trace {
    /// The memory, fence and barrier events in program order (register-only steps omitted).
    pub events: Vec<TEvent>,
    /// Final register values.
    pub regs: Vec<Expr>,
    /// Conditions the path assumes.
    pub assumes: Vec<Assume>,
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

#[derive(Clone)]
struct State {
    pc: usize,
    regs: Vec<Expr>,
    ctrl: Vec<usize>,
    events: Vec<TEvent>,
    assumes: Vec<Assume>,
    back: Vec<usize>,
    steps: usize,
}

fn uniq(mut v: Vec<usize>) -> Vec<usize> {
    v.sort_unstable();
    v.dedup();
    v
}

fn reads_of(e: &Expr) -> Vec<usize> {
    let mut v = Vec::new();
    e.reads(&mut v);
    v
}

struct Run<'a> {
    test: &'a Test,
    t: usize,
    cta_threads: i64,
    out: Vec<Trace>,
    cut: usize,
}

impl Run<'_> {
    fn val(s: &State, v: &Val) -> Expr {
        match v {
            Val::Imm(x) => Expr::Const(*x),
            Val::Reg(r) => s.regs[*r].clone(),
        }
    }

    fn go(&mut self, mut s: State) {
        let code = &self.test.threads[self.t].code;
        loop {
            if s.pc >= code.len() {
                self.out.push(Trace {
                    events: s.events,
                    regs: s.regs,
                    assumes: s.assumes,
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
                    let x = Self::val(&s, a);
                    s.regs[*dst] = match (op, &x) {
                        (AluOp::Mov, _) => x,
                        _ => {
                            let y = Self::val(&s, b);
                            match (&x, &y) {
                                (Expr::Const(p), Expr::Const(q)) => Expr::Const(alu(*op, *p, *q)),
                                _ => Expr::Alu(*op, Box::new(x), Box::new(y)),
                            }
                        }
                    };
                    s.pc += 1;
                }
                Instr::Goto { target } => {
                    if !self.jump(&mut s, pc, *target) {
                        return;
                    }
                }
                Instr::Branch { cmp, a, b, target } => {
                    let x = Self::val(&s, a);
                    let y = Self::val(&s, b);
                    if let (Expr::Const(p), Expr::Const(q)) = (&x, &y) {
                        if cmp.eval(*p, *q) {
                            if !self.jump(&mut s, pc, *target) {
                                return;
                            }
                        } else {
                            s.pc += 1;
                        }
                        continue;
                    }
                    let mut deps = reads_of(&x);
                    deps.extend(reads_of(&y));
                    s.ctrl = uniq(s.ctrl.iter().copied().chain(deps).collect());
                    // taken
                    let mut n = s.clone();
                    n.assumes.push(Assume {
                        cmp: *cmp,
                        a: x.clone(),
                        b: y.clone(),
                        holds: true,
                    });
                    if self.jump(&mut n, pc, *target) {
                        self.go(n);
                    }
                    // not taken
                    s.assumes.push(Assume {
                        cmp: *cmp,
                        a: x,
                        b: y,
                        holds: false,
                    });
                    s.pc += 1;
                }
                Instr::Load { dst, .. } => {
                    let k = s.events.len();
                    s.events.push(TEvent {
                        pc,
                        read: true,
                        wval: None,
                        deps: s.ctrl.clone(),
                        bar: None,
                        regs_at: None,
                    });
                    s.regs[*dst] = Expr::Read(k);
                    s.pc += 1;
                }
                Instr::Store { val, .. } => {
                    let v = Self::val(&s, val);
                    let deps = uniq(s.ctrl.iter().copied().chain(reads_of(&v)).collect());
                    s.events.push(TEvent {
                        pc,
                        read: false,
                        wval: Some(v),
                        deps,
                        bar: None,
                        regs_at: None,
                    });
                    s.pc += 1;
                }
                Instr::Rmw {
                    op,
                    dst,
                    a,
                    b,
                    bits,
                    signed,
                    ..
                } => {
                    let k = s.events.len();
                    let x = Self::val(&s, a);
                    let y = b.as_ref().map(|b| Self::val(&s, b));
                    let mut deps: Vec<usize> = s.ctrl.clone();
                    deps.extend(reads_of(&x));
                    if let Some(y) = &y {
                        deps.extend(reads_of(y));
                    }
                    let deps = uniq(deps);
                    let w = Expr::Rmw {
                        op: *op,
                        old: Box::new(Expr::Read(k)),
                        a: Box::new(x.clone()),
                        b: y.clone().map(Box::new),
                        bits: *bits,
                        signed: *signed,
                    };
                    if *op == RmwOp::Cas {
                        // failure: a read only
                        let mut f = s.clone();
                        f.assumes.push(Assume {
                            cmp: Cmp::Eq,
                            a: Expr::Read(k),
                            b: x.clone(),
                            holds: false,
                        });
                        f.events.push(TEvent {
                            pc,
                            read: true,
                            wval: None,
                            deps: deps.clone(),
                            bar: None,
                            regs_at: None,
                        });
                        if let Some(d) = dst {
                            f.regs[*d] = Expr::Read(k);
                        }
                        f.pc += 1;
                        self.go(f);
                        s.assumes.push(Assume {
                            cmp: Cmp::Eq,
                            a: Expr::Read(k),
                            b: x,
                            holds: true,
                        });
                    }
                    s.events.push(TEvent {
                        pc,
                        read: true,
                        wval: Some(w),
                        deps,
                        bar: None,
                        regs_at: None,
                    });
                    if let Some(d) = dst {
                        s.regs[*d] = Expr::Read(k);
                    }
                    s.pc += 1;
                }
                Instr::Fence { .. }
                | Instr::ProxyFence { .. }
                | Instr::AliasFence
                | Instr::ClusterArrive { .. }
                | Instr::ClusterWait => {
                    let regs_at =
                        matches!(code[pc].instr, Instr::ClusterWait).then(|| s.regs.clone());
                    s.events.push(TEvent {
                        pc,
                        read: false,
                        wval: None,
                        deps: s.ctrl.clone(),
                        bar: None,
                        regs_at,
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
                    let results: Vec<Option<i64>> = match kind {
                        BarKind::RedPopc => (0..=self.cta_threads).map(Some).collect(),
                        BarKind::RedAnd | BarKind::RedOr => vec![Some(0), Some(1)],
                        _ => vec![None],
                    };
                    for r in results {
                        let mut n = s.clone();
                        n.events.push(TEvent {
                            pc,
                            read: false,
                            wval: None,
                            deps: n.ctrl.clone(),
                            bar: Some(BarSym {
                                id: Self::val(&n, id),
                                count: count.as_ref().map(|c| Self::val(&n, c)),
                                instance: *instance,
                                kind: *kind,
                                pred: pred.as_ref().map(|(p, neg)| (Self::val(&n, p), *neg)),
                                result: r,
                            }),
                            regs_at: Some(n.regs.clone()),
                        });
                        if let (Some(d), Some(r)) = (dst, r) {
                            // The result comes from the other threads' predicates, not from memory.
                            n.regs[*d] = Expr::Const(r);
                        }
                        n.pc += 1;
                        self.go(n);
                    }
                    return;
                }
            }
        }
    }

    fn jump(&mut self, s: &mut State, pc: usize, target: usize) -> bool {
        if target <= pc {
            s.back[target] += 1;
            if s.back[target] > UNROLL {
                self.cut += 1;
                return false;
            }
        }
        s.pc = target;
        true
    }
}

/// Enumerates every thread's paths.
pub fn paths(test: &Test) -> Paths {
    let mut traces = Vec::new();
    let mut cut = 0;
    for (t, th) in test.threads.iter().enumerate() {
        let cta_threads = test
            .threads
            .iter()
            .filter(|o| o.place.includes(Scope::Cta, &th.place))
            .count() as i64;
        let mut run = Run {
            test,
            t,
            cta_threads,
            out: Vec::new(),
            cut: 0,
        };
        run.go(State {
            pc: 0,
            regs: th.init.iter().map(|v| Expr::Const(*v)).collect(),
            ctrl: Vec::new(),
            events: Vec::new(),
            assumes: Vec::new(),
            back: vec![0; th.code.len() + 1],
            steps: 0,
        });
        cut += run.cut;
        traces.push(run.out);
    }
    Paths { traces, cut }
}

/// The values of one execution: for every event (global numbering) the value it reads and the
/// value it writes, given what each read reads from. `None` when the values depend on
/// themselves (a thin-air cycle) or a path's assumption fails.
pub struct Values {
    /// Value read by each event.
    pub rval: Vec<Option<i64>>,
    /// Value written by each event.
    pub wval: Vec<Option<i64>>,
}

/// Evaluates the values of an execution. `wexpr[e]`: the write expression of event `e` over
/// the reads of its own thread, whose global index is `base[thread] + local`; `src[e]`: the
/// write a read reads from (`None`: the initial value `init[e]`).
pub fn eval_values(
    wexpr: &[Option<&Expr>],
    is_read: &[bool],
    base_of: &[usize],
    src: &[Option<usize>],
    init: &[i64],
) -> Option<Values> {
    let n = wexpr.len();
    let mut ev = Eval {
        wexpr,
        is_read,
        base_of,
        src,
        init,
        state: vec![0; n],
        rval: vec![None; n],
        wval: vec![None; n],
    };
    for e in 0..n {
        if wexpr[e].is_some() {
            ev.write(e)?;
        }
        if is_read[e] {
            ev.read(e)?;
        }
    }
    Some(Values {
        rval: ev.rval,
        wval: ev.wval,
    })
}

struct Eval<'a> {
    wexpr: &'a [Option<&'a Expr>],
    is_read: &'a [bool],
    base_of: &'a [usize],
    src: &'a [Option<usize>],
    init: &'a [i64],
    /// 0 = not yet, 1 = in progress, 2 = done
    state: Vec<u8>,
    rval: Vec<Option<i64>>,
    wval: Vec<Option<i64>>,
}

impl Eval<'_> {
    fn read(&mut self, e: usize) -> Option<i64> {
        if !self.is_read[e] {
            return None;
        }
        if let Some(v) = self.rval[e] {
            return Some(v);
        }
        let v = match self.src[e] {
            None => self.init[e],
            Some(w) => self.write(w)?,
        };
        self.rval[e] = Some(v);
        Some(v)
    }

    fn write(&mut self, w: usize) -> Option<i64> {
        match self.state[w] {
            2 => return self.wval[w],
            1 => return None, // a value that depends on itself
            _ => {}
        }
        self.state[w] = 1;
        let b = self.base_of[w];
        let ex = self.wexpr[w]?;
        let mut locals = Vec::new();
        ex.reads(&mut locals);
        let mut known: Vec<(usize, i64)> = Vec::new();
        let mut ok = true;
        for k in locals {
            match self.read(b + k) {
                Some(v) => known.push((k, v)),
                None => ok = false,
            }
        }
        let v = if ok {
            ex.eval(&|k| known.iter().find(|(c, _)| *c == k).map(|(_, v)| *v))
        } else {
            None
        };
        self.state[w] = 2;
        self.wval[w] = v;
        v
    }
}
