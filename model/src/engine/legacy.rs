//! Runs a test parsed into the part-1 AST (`ast::Instr`) on the engine, and reports in the
//! checker's `Found` form. Each litmus thread is an interpreter of its `ast::Line`s.

use super::explore::{Explorer, Leaf, Limits, LocTerm, World};
use super::op::{
    Access, At, Layout, Op, Order, Place, Program, ProxyFence, Reply, Rmw, Space, Step, Val,
};
use crate::ast::{AluOp, Instr, Line, Proxy, Quantifier, Term, Test};
use crate::check::{eval, Found};
use crate::parse::{Error, ErrorKind};
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

/// How many times a thread may jump back to one label before its path is cut.
pub const UNROLL: u32 = 4;

/// A part-1 litmus thread as a [`Program`].
#[derive(Clone, Debug)]
pub struct LegacyThread {
    code: Rc<Vec<Line>>,
    /// Address of each virtual name index (`Name::vaddr`).
    addrs: Rc<Vec<Val>>,
    pc: usize,
    regs: Vec<i64>,
    /// Per register: the op ordinals its value depends on.
    taint: Vec<Vec<u32>>,
    ctrl: Vec<u32>,
    ord: u32,
    loops: BTreeMap<usize, u32>,
    /// The destination of the op in flight.
    dst: Option<usize>,
    /// `bar.red`'s destination.
    pending_taint: u32,
}

fn union(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut v: Vec<u32> = a.iter().chain(b).copied().collect();
    v.sort_unstable();
    v.dedup();
    v
}

impl LegacyThread {
    fn val(&self, v: &crate::ast::Val) -> (i64, Vec<u32>) {
        match v {
            crate::ast::Val::Imm(i) => (*i, vec![]),
            crate::ast::Val::Reg(r) => (self.regs[*r], self.taint[*r].clone()),
        }
    }
    fn at(&self) -> At {
        let l = &self.code[self.pc];
        At {
            line: l.line,
            text: l.text.clone(),
            src: None,
        }
    }
    fn access(
        &self,
        name: &crate::ast::Name,
        sem: crate::ast::Sem,
        scope: Option<crate::ast::Scope>,
        proxy: Proxy,
    ) -> Access {
        Access {
            space: Space::Generic,
            addr: self.addrs[name.vaddr],
            size: 8,
            proxy,
            order: Order { sem, scope },
        }
    }
    fn op(&mut self, op: Op, deps: Vec<u32>, dst: Option<usize>) -> Step {
        let at = self.at();
        self.dst = dst;
        self.pending_taint = self.ord;
        self.ord += 1;
        self.pc += 1;
        Step::Op(op, at, union(&deps, &self.ctrl))
    }
    fn jump(&mut self, target: usize) -> Option<Step> {
        if target <= self.pc {
            let n = self.loops.entry(target).or_insert(0);
            *n += 1;
            if *n > UNROLL {
                return Some(Step::Cut(self.at()));
            }
            let at = self.at();
            self.pc = target;
            return Some(Step::LoopHead { head: target, at });
        }
        self.pc = target;
        None
    }
}

impl Program for LegacyThread {
    fn step(&mut self) -> Step {
        loop {
            if self.pc >= self.code.len() {
                return Step::Done;
            }
            let instr = self.code[self.pc].instr.clone();
            match instr {
                Instr::Load {
                    sem,
                    scope,
                    proxy,
                    dst,
                    addr,
                } => {
                    let a = self.access(&addr, sem, scope, proxy);
                    return self.op(Op::Load(a), vec![], Some(dst));
                }
                Instr::Store {
                    sem,
                    scope,
                    proxy,
                    addr,
                    val,
                } => {
                    let (v, t) = self.val(&val);
                    let a = self.access(&addr, sem, scope, proxy);
                    return self.op(Op::Store(a, v as u64), t, None);
                }
                Instr::Rmw {
                    sem,
                    scope,
                    op,
                    dst,
                    addr,
                    a,
                    b,
                    bits: _,
                    signed,
                } => {
                    let (av, at) = self.val(&a);
                    let (bv, bt) = b.as_ref().map(|b| self.val(b)).unwrap_or((0, vec![]));
                    let acc = self.access(&addr, sem, Some(scope), Proxy::Generic);
                    let rmw = Rmw {
                        op,
                        a: av as u64,
                        b: bv as u64,
                        signed,
                        returns: dst.is_some(),
                    };
                    return self.op(Op::Rmw(acc, rmw), union(&at, &bt), dst);
                }
                Instr::Fence { sem, scope } => {
                    return self.op(Op::Fence(sem, scope, None), vec![], None)
                }
                Instr::ProxyFence { proxy } => {
                    let k = match proxy {
                        Proxy::Surface => ProxyFence::Surface,
                        Proxy::Texture => ProxyFence::Texture,
                        Proxy::Constant => ProxyFence::Constant,
                        _ => ProxyFence::Async(None),
                    };
                    return self.op(Op::ProxyFence(k), vec![], None);
                }
                Instr::AliasFence => {
                    return self.op(Op::ProxyFence(ProxyFence::Alias), vec![], None)
                }
                Instr::Bar {
                    kind,
                    id,
                    count,
                    dst,
                    pred,
                    instance: _,
                } => {
                    let (idv, t1) = self.val(&id);
                    let (cv, t2) = count
                        .as_ref()
                        .map(|c| self.val(c))
                        .map_or((None, vec![]), |(v, t)| (Some(v), t));
                    let (pv, t3) = pred
                        .as_ref()
                        .map(|(v, neg)| {
                            let (x, t) = self.val(v);
                            (((x != 0) != *neg), t)
                        })
                        .unwrap_or((false, vec![]));
                    let op = Op::Bar {
                        kind,
                        id: idv as u64,
                        count: cv.map(|c| c.max(0) as u64),
                        pred: pv,
                    };
                    return self.op(op, union(&union(&t1, &t2), &t3), dst);
                }
                Instr::ClusterArrive { relaxed } => {
                    return self.op(Op::ClusterArrive { relaxed }, vec![], None)
                }
                Instr::ClusterWait => return self.op(Op::ClusterWait, vec![], None),
                Instr::Alu { op, dst, a, b } => {
                    let (x, tx) = self.val(&a);
                    let (y, ty) = self.val(&b);
                    let v = match op {
                        AluOp::Mov => x,
                        AluOp::Add => x.wrapping_add(y),
                        AluOp::Sub => x.wrapping_sub(y),
                        AluOp::Mul => x.wrapping_mul(y),
                        AluOp::Div => {
                            if y == 0 {
                                0
                            } else {
                                x.wrapping_div(y)
                            }
                        }
                        AluOp::And => x & y,
                        AluOp::Or => x | y,
                        AluOp::Xor => x ^ y,
                    };
                    self.regs[dst] = v;
                    self.taint[dst] = if op == AluOp::Mov {
                        tx
                    } else {
                        union(&tx, &ty)
                    };
                    self.pc += 1;
                }
                Instr::Branch { cmp, a, b, target } => {
                    let (x, tx) = self.val(&a);
                    let (y, ty) = self.val(&b);
                    self.ctrl = union(&self.ctrl, &union(&tx, &ty));
                    if cmp.eval(x, y) {
                        if let Some(s) = self.jump(target) {
                            return s;
                        }
                    } else {
                        self.pc += 1;
                    }
                }
                Instr::Goto { target } => {
                    if let Some(s) = self.jump(target) {
                        return s;
                    }
                }
                Instr::Nop => self.pc += 1,
            }
        }
    }

    fn resume(&mut self, reply: Reply) {
        let v = match reply {
            Reply::Value(v) => v as i64,
            Reply::Pred(b) => b as i64,
            Reply::Elect(b, _) => b as i64,
            Reply::None => return,
        };
        if let Some(d) = self.dst.take() {
            self.regs[d] = v;
            self.taint[d] = vec![self.pending_taint];
        }
    }

    fn fingerprint(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.pc.hash(&mut h);
        self.regs.hash(&mut h);
        h.finish()
    }

    fn reg(&self, r: usize) -> Val {
        self.regs[r] as Val
    }
}

/// The world, threads and location terms of a part-1 test.
pub fn build(test: &Test) -> (World, Vec<LegacyThread>, Vec<LocTerm>) {
    let mut layout = Layout::default();
    // One 8-byte global variable per physical location; generic aliases get their own address.
    let mut phys_var = Vec::new();
    for (name, init) in &test.phys {
        let v = layout.add(name, false, 8, (*init as u64).to_le_bytes().to_vec());
        phys_var.push(v);
    }
    let mut addrs = vec![0; test.n_vaddr];
    for n in &test.names {
        if addrs[n.vaddr] != 0 {
            continue;
        }
        let base = phys_var[n.phys];
        let root = &test.phys[n.phys].0;
        let is_root = test
            .names
            .iter()
            .any(|m| m.vaddr == n.vaddr && &m.name == root);
        let var = if is_root {
            base
        } else {
            layout.add_alias(&n.name, base)
        };
        addrs[n.vaddr] = layout.addr_of(var);
    }
    let addrs = Rc::new(addrs);
    // Places: CTA rank = position among the cluster's CTAs.
    let mut ctas: BTreeMap<(i64, i64), Vec<i64>> = BTreeMap::new();
    for t in &test.threads {
        let v = ctas.entry((t.place.gpu, t.place.cluster)).or_default();
        if !v.contains(&t.place.cta) {
            v.push(t.place.cta);
        }
    }
    for v in ctas.values_mut() {
        v.sort_unstable();
    }
    let mut cta_ids: BTreeMap<(i64, i64, i64), u32> = BTreeMap::new();
    let mut cluster_ids: BTreeMap<(i64, i64), u32> = BTreeMap::new();
    let places: Vec<Place> = test
        .threads
        .iter()
        .map(|t| {
            let p = t.place;
            let n = cta_ids.len() as u32;
            let cta = *cta_ids.entry((p.gpu, p.cluster, p.cta)).or_insert(n);
            let n = cluster_ids.len() as u32;
            let cluster = *cluster_ids.entry((p.gpu, p.cluster)).or_insert(n);
            let rank = ctas[&(p.gpu, p.cluster)]
                .iter()
                .position(|&c| c == p.cta)
                .unwrap() as u32;
            Place {
                gpu: p.gpu as u32,
                cluster,
                cta,
                rank,
                warp: t.id as u32,
                lane: 0,
            }
        })
        .collect();
    let threads = test
        .threads
        .iter()
        .map(|t| LegacyThread {
            code: Rc::new(t.code.clone()),
            addrs: addrs.clone(),
            pc: 0,
            regs: t.init.clone(),
            taint: vec![Vec::new(); t.init.len()],
            ctrl: Vec::new(),
            ord: 0,
            loops: BTreeMap::new(),
            dst: None,
            pending_taint: 0,
        })
        .collect();
    let terms = (0..test.phys.len())
        .map(|p| LocTerm {
            var: phys_var[p] as u32,
            cta: u32::MAX,
            off: 0,
            size: 8,
        })
        .collect();
    (World { layout, places }, threads, terms)
}

/// Checks a part-1 test on the engine.
pub fn run(test: &Test) -> Result<Found, Error> {
    let (world, threads, terms) = build(test);
    let mut found = Found::default();
    let observed_locs: Vec<usize> = test
        .observed
        .iter()
        .filter_map(|t| match t {
            Term::Loc(p) => Some(*p),
            _ => None,
        })
        .collect();
    // Only the observed locations' final values are asked for.
    let asked: Vec<LocTerm> = observed_locs.iter().map(|&p| terms[p]).collect();
    let summary = Explorer::run(
        &world,
        threads,
        asked,
        Limits::default(),
        |leaf: &Leaf<LegacyThread>| {
            for &(a, b, _) in &leaf.races {
                let (x, y) = (&leaf.graph.ev[a], &leaf.graph.ev[b]);
                let d = format!(
                    "P{} `{}` (line {}) and P{} `{}` (line {})",
                    x.thread, x.at.text, x.at.line, y.thread, y.at.text, y.at.line
                );
                if !found.races.contains(&d) {
                    found.races.push(d);
                }
            }
            let blocked = test
                .observed
                .iter()
                .any(|t| matches!(t, Term::Reg(th, _) if leaf.threads[*th].is_none()));
            if blocked {
                return;
            }
            // Every combination of final values, per alternative.
            for alt in &leaf.finals {
                let sets: Vec<Vec<u64>> = alt.iter().map(|s| s.iter().copied().collect()).collect();
                let mut pick = vec![0usize; sets.len()];
                loop {
                    let val = |t: &Term| -> i64 {
                        match t {
                            Term::Reg(th, r) => leaf.threads[*th].unwrap().reg(*r) as i64,
                            Term::Loc(p) => {
                                let k = observed_locs.iter().position(|q| q == p).unwrap();
                                sets[k][pick[k]] as i64
                            }
                            Term::Imm(v) => *v,
                        }
                    };
                    let sat = eval(&test.prop, &val);
                    let state: Vec<i64> = test.observed.iter().map(val).collect();
                    found.states.insert(state, sat);
                    if sat {
                        found.positive += 1;
                    } else {
                        found.negative += 1;
                    }
                    let mut k = 0;
                    while k < pick.len() {
                        pick[k] += 1;
                        if pick[k] < sets[k].len() {
                            break;
                        }
                        pick[k] = 0;
                        k += 1;
                    }
                    if k == pick.len() {
                        break;
                    }
                }
            }
        },
    );
    if let Some(u) = summary.unsupported {
        return Err(Error {
            kind: ErrorKind::Unsupported,
            file: test.file.clone(),
            line: 0,
            msg: u,
        });
    }
    found.hangs = summary.hangs.into_iter().collect();
    found.cut = summary.cut;
    found.candidates = summary.steps as usize;
    let _ = Quantifier::Exists;
    Ok(found)
}
