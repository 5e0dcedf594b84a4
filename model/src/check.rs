//! Candidate executions and the axioms of PTX ISA chapter 8.
//!
//! The enumerator (this file's `Search`) is separate from the definitions ([`Exec::cause`]) and the
//! axioms ([`Exec::axioms`]), so each rule can be read alone next to the ISA sentence it
//! implements. Enumeration order, each level pruned by a monotone lower bound of the next:
//! thread paths → reads-from → barrier generations → Fence-SC order → coherence order → final
//! writes.

use crate::ast::*;
use crate::exec::{eval_values, paths, Assume, BarEv, BarSym, Expr};
use crate::parse::{Error, ErrorKind};
use crate::rel::{bits, Rel};
use std::collections::{BTreeMap, HashMap, HashSet};

/// The most events one execution may have (relations are 64-bit rows).
pub const MAX_EVENTS: usize = 64;
/// The most reads-from choices examined for one test before it is reported as too large.
pub const MAX_CANDIDATES: usize = 1_000_000;

/// One way the barriers complete: the sync edges, the events that never happen (after a
/// thread blocked for ever) and the events where threads block.
#[derive(Clone, Debug)]
pub struct Assignment {
    edges: Vec<(usize, usize)>,
    dead: u64,
    stuck: u64,
}

type Readers = HashMap<Option<usize>, Vec<usize>>;
type BarCache = HashMap<Vec<Option<BarEv>>, (Vec<Assignment>, Vec<String>)>;

/// A cluster-barrier event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClusterEv {
    /// `barrier.cluster.arrive` (`relaxed`: `.relaxed`).
    Arrive {
        /// `.relaxed`: no memory ordering.
        relaxed: bool,
    },
    /// `barrier.cluster.wait`.
    Wait,
}

/// One event of a candidate execution.
#[derive(Clone, Debug)]
pub struct Ev {
    /// Thread index.
    pub thread: usize,
    /// Instruction index in the thread.
    pub pc: usize,
    /// Source line.
    pub line: usize,
    /// Instruction text.
    pub text: String,
    /// The thread's placement.
    pub place: Place,
    /// Reads memory (loads, RMWs incl. `red`).
    pub read: bool,
    /// Writes memory.
    pub write: bool,
    /// An atomic operation (`atom`/`red`).
    pub atomic: bool,
    /// A `red` (its read is not returned: never part of an acquire pattern).
    pub red: bool,
    /// Semantics (memory operations).
    pub sem: Sem,
    /// Scope (strong memory operations and fences); `None` = weak.
    pub scope: Option<Scope>,
    /// Proxy of a memory operation.
    pub proxy: Proxy,
    /// Virtual address (memory operations).
    pub vaddr: usize,
    /// Physical location (memory operations).
    pub phys: usize,
    /// Value read.
    pub rval: Option<i64>,
    /// Value written.
    pub wval: Option<i64>,
    /// `fence.sem.scope`.
    pub fence: Option<FenceSem>,
    /// `fence.proxy.X`.
    pub proxy_fence: Option<Proxy>,
    /// `fence.proxy.alias`.
    pub alias_fence: bool,
    /// CTA barrier.
    pub bar: Option<BarEv>,
    /// Cluster barrier.
    pub cluster: Option<ClusterEv>,
    /// Events this one depends on (data or control).
    pub deps: Vec<usize>,
}

impl Ev {
    fn mem(&self) -> bool {
        self.read || self.write
    }
    /// Strong (PTX ISA 8.4: `.relaxed`, `.acquire`, `.release`, `.acq_rel`, `.volatile`; fences
    /// carry a scope too).
    fn strong(&self) -> bool {
        self.scope.is_some()
    }
    /// A barrier event that waits (`bar.sync`, `bar.red`, ...: not a bare arrive).
    fn bar_waits(&self) -> bool {
        self.bar.as_ref().is_some_and(|b| b.kind.waits())
    }
}

/// Which axiom an execution violates (PTX ISA 8.10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axiom {
    /// 8.10.1 Coherence.
    Coherence,
    /// 8.10.2 Fence-SC.
    FenceSc,
    /// 8.10.3 Atomicity.
    Atomicity,
    /// 8.10.4 No Thin Air.
    NoThinAir,
    /// 8.10.5 Sequential Consistency Per Location.
    ScPerLocation,
    /// 8.10.6 Causality.
    Causality,
}

/// A sync edge's origin, for witness graphs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyncKind {
    /// Release pattern → acquire pattern (8.9.4).
    Pattern,
    /// Fence-SC order (8.9.3/8.9.4).
    FenceSc,
    /// Barrier (8.9.4).
    Barrier,
}

/// One execution the model allows, kept for the witness graph.
#[derive(Clone, Debug)]
pub struct Witness {
    /// The events.
    pub events: Vec<Ev>,
    /// Reads-from: (write or `None` = initial value, read).
    pub rf: Vec<(Option<usize>, usize)>,
    /// Coherence order (transitively reduced).
    pub co: Vec<(usize, usize)>,
    /// Synchronizes-with edges.
    pub sync: Vec<(usize, usize, SyncKind)>,
    /// Data races in this execution.
    pub races: Vec<(usize, usize)>,
}

/// A final state: the observed values in `Test::observed` order.
pub type State = Vec<i64>;

/// What checking one test found.
#[derive(Clone, Debug, Default)]
pub struct Found {
    /// Distinct final states with whether they satisfy the proposition.
    pub states: BTreeMap<State, bool>,
    /// Allowed executions satisfying the proposition.
    pub positive: usize,
    /// Allowed executions not satisfying it.
    pub negative: usize,
    /// Data races (described once each).
    pub races: Vec<String>,
    /// Barrier hangs (described once each).
    pub hangs: Vec<String>,
    /// Paths cut at the unroll bound.
    pub cut: usize,
    /// Candidate executions examined (reads-from choices × barrier generations).
    pub candidates: usize,
    /// Flags other than races and hangs (mbarrier errors, bad addresses, …): (flag, description).
    pub flags: Vec<(String, String)>,
    /// First allowed execution satisfying the proposition.
    pub witness_pos: Option<Witness>,
    /// First allowed execution.
    pub witness_any: Option<Witness>,
}

/// Causality order (8.9.5) from a read (`ppcb`, the proxy-preserved base causality order) and
/// from a write (`cause`, which may start with an observation step).
#[derive(Clone, Debug)]
pub struct Causal {
    ppcb: Rel,
    cause: Rel,
}

/// The PTX model's verdict on a test.
pub fn run(test: &Test) -> Result<Found, Error> {
    // A test that needs format part 2 is the exploration engine's.
    if let Some(e) = &test.legacy {
        return Err(e.clone());
    }
    let ps = paths(test);
    let too_big = |found: &Found| found.candidates > MAX_CANDIDATES;
    let mut found = Found {
        cut: ps.cut,
        ..Found::default()
    };
    let nthreads = test.threads.len();
    let mut idx = vec![0usize; nthreads];
    if ps.traces.iter().any(|t| t.is_empty()) {
        return Ok(found);
    }
    loop {
        let exec = Exec::build(test, &ps.traces, &idx)?;
        exec.search(test, &mut found);
        if too_big(&found) {
            return Err(Error {
                kind: ErrorKind::Unsupported,
                file: test.file.clone(),
                line: 0,
                msg: format!(
                    "more than {MAX_CANDIDATES} candidate executions (reads-from choices); reduce the loop bound or the number of threads"
                ),
            });
        }
        // next combination
        let mut k = 0;
        loop {
            if k == nthreads {
                return Ok(found);
            }
            idx[k] += 1;
            if idx[k] < ps.traces[k].len() {
                break;
            }
            idx[k] = 0;
            k += 1;
        }
    }
}

/// A generation of a barrier: the events that arrive, and those that wait for it.
#[derive(Clone, Debug)]
struct Gen {
    arrivals: Vec<usize>,
    waiters: Vec<usize>,
    /// Sync edges it creates.
    edges: Vec<(usize, usize)>,
}

/// The events of one combination of thread paths and their static relations.
#[derive(Clone)]
pub struct Exec {
    ev: Vec<Ev>,
    n: usize,
    /// Symbolic write values, barrier operands, path assumptions, final registers.
    wexpr: Vec<Option<Expr>>,
    barsym: Vec<Option<BarSym>>,
    base_of: Vec<usize>,
    assumes: Vec<(usize, Assume)>,
    reg_exprs: Vec<(usize, Vec<Expr>)>,
    /// Initial value of each event's location.
    init_of: Vec<i64>,
    /// Registers when a thread reaches each barrier event (symbolic, and evaluated).
    regs_at_sym: Vec<Option<Vec<Expr>>>,
    regs_at: Vec<Option<Vec<i64>>>,
    /// Threads blocked for ever at a barrier (bit per thread).
    blocked: u64,
    po: Rel,
    /// Morally strong (PTX ISA 8.7), symmetric.
    ms: Rel,
    regs: Vec<Vec<i64>>,
    init: Vec<i64>,
    mem_mask: u64,
    write_mask: u64,
    af_mask: u64,
    /// Proxy fences that apply to each event (same proxy, same CTA; 8.9.5 proxy-preserved).
    pf_of: Vec<u64>,
    /// Release patterns: (first operation, write) (8.8).
    rel_pat: Vec<(usize, usize)>,
    /// Acquire patterns: (read, last operation) (8.8).
    acq_pat: Vec<(usize, usize)>,
    /// Program order restricted to the same virtual address and proxy.
    po_loc: Rel,
    /// Dependencies (No Thin Air).
    dep: Rel,
    sc_fences: Vec<usize>,
}

fn same_cta(a: &Place, b: &Place) -> bool {
    a.includes(Scope::Cta, b)
}

impl Exec {
    fn build(
        test: &Test,
        traces: &[Vec<crate::exec::Trace>],
        idx: &[usize],
    ) -> Result<Exec, Error> {
        let mut ev: Vec<Ev> = Vec::new();
        let mut wexpr: Vec<Option<Expr>> = Vec::new();
        let mut barsym: Vec<Option<BarSym>> = Vec::new();
        let mut base_of: Vec<usize> = Vec::new();
        let mut assumes: Vec<(usize, Assume)> = Vec::new();
        let mut reg_exprs: Vec<(usize, Vec<Expr>)> = Vec::new();
        let mut regs_at_sym: Vec<Option<Vec<Expr>>> = Vec::new();
        for (t, th) in test.threads.iter().enumerate() {
            let tr = &traces[t][idx[t]];
            let base = ev.len();
            for a in &tr.assumes {
                assumes.push((base, a.clone()));
            }
            reg_exprs.push((base, tr.regs.clone()));
            for te in &tr.events {
                wexpr.push(te.wval.clone());
                regs_at_sym.push(te.regs_at.clone());
                barsym.push(te.bar.clone());
                base_of.push(base);
                let line = &th.code[te.pc];
                let mut e = Ev {
                    thread: t,
                    pc: te.pc,
                    line: line.line,
                    text: line.text.clone(),
                    place: th.place,
                    read: false,
                    write: false,
                    atomic: false,
                    red: false,
                    sem: Sem::Weak,
                    scope: None,
                    proxy: Proxy::Generic,
                    vaddr: usize::MAX,
                    phys: usize::MAX,
                    rval: None,
                    wval: None,
                    fence: None,
                    proxy_fence: None,
                    alias_fence: false,
                    bar: None,
                    cluster: None,
                    deps: te.deps.iter().map(|d| base + d).collect(),
                };
                match &line.instr {
                    Instr::Load {
                        sem,
                        scope,
                        proxy,
                        addr,
                        ..
                    }
                    | Instr::Store {
                        sem,
                        scope,
                        proxy,
                        addr,
                        ..
                    } => {
                        e.read = matches!(line.instr, Instr::Load { .. });
                        e.write = !e.read;
                        e.sem = *sem;
                        e.scope = *scope;
                        e.proxy = *proxy;
                        e.vaddr = addr.vaddr;
                        e.phys = addr.phys;
                    }
                    Instr::Rmw {
                        sem,
                        scope,
                        dst,
                        addr,
                        ..
                    } => {
                        e.read = true;
                        e.write = te.wval.is_some();
                        e.atomic = true;
                        e.red = dst.is_none();
                        e.sem = *sem;
                        e.scope = Some(*scope);
                        e.vaddr = addr.vaddr;
                        e.phys = addr.phys;
                    }
                    Instr::Fence { sem, scope } => {
                        e.fence = Some(*sem);
                        e.scope = Some(*scope);
                    }
                    Instr::ProxyFence { proxy } => e.proxy_fence = Some(*proxy),
                    Instr::AliasFence => e.alias_fence = true,
                    Instr::ClusterArrive { relaxed } => {
                        e.cluster = Some(ClusterEv::Arrive { relaxed: *relaxed })
                    }
                    Instr::ClusterWait => e.cluster = Some(ClusterEv::Wait),
                    Instr::Bar { .. } => {}
                    _ => {}
                }
                ev.push(e);
            }
        }
        let n = ev.len();
        if n > MAX_EVENTS {
            return Err(Error {
                kind: ErrorKind::Unsupported,
                file: test.file.clone(),
                line: 0,
                msg: format!("an execution with {n} events (at most {MAX_EVENTS})"),
            });
        }
        let mut po = Rel::new(n);
        let mut ms = Rel::new(n);
        let mut po_loc = Rel::new(n);
        let mut dep = Rel::new(n);
        let mut mem_mask = 0u64;
        let mut write_mask = 0u64;
        let mut af_mask = 0u64;
        for a in 0..n {
            if ev[a].mem() {
                mem_mask |= 1 << a;
            }
            if ev[a].write {
                write_mask |= 1 << a;
            }
            if ev[a].alias_fence {
                af_mask |= 1 << a;
            }
            for &d in &ev[a].deps {
                dep.add(d, a);
            }
            for b in 0..n {
                if a == b {
                    continue;
                }
                let (x, y) = (&ev[a], &ev[b]);
                if x.thread == y.thread && a < b {
                    po.add(a, b);
                    if x.mem() && y.mem() && x.vaddr == y.vaddr && x.proxy == y.proxy {
                        po_loc.add(a, b);
                    }
                }
                if Self::morally_strong(x, y) {
                    ms.add(a, b);
                }
            }
        }
        let mut pf_of = vec![0u64; n];
        for a in 0..n {
            if !ev[a].mem() || ev[a].proxy == Proxy::Generic {
                continue;
            }
            for f in 0..n {
                if ev[f].proxy_fence == Some(ev[a].proxy) && same_cta(&ev[f].place, &ev[a].place) {
                    pf_of[a] |= 1 << f;
                }
            }
        }
        // Release and acquire patterns, PTX ISA 8.8.
        let rel_pat = pattern_pairs(&ev, &po, Pattern::Release);
        let acq_pat = pattern_pairs(&ev, &po, Pattern::Acquire);
        let sc_fences = (0..n)
            .filter(|&f| ev[f].fence == Some(FenceSem::Sc))
            .collect();
        let init: Vec<i64> = test.phys.iter().map(|p| p.1).collect();
        let init_of = ev
            .iter()
            .map(|e| {
                if e.phys == usize::MAX {
                    0
                } else {
                    init[e.phys]
                }
            })
            .collect();
        Ok(Exec {
            init,
            init_of,
            ev,
            n,
            po,
            ms,
            regs: Vec::new(),
            wexpr,
            barsym,
            base_of,
            assumes,
            reg_exprs,
            regs_at: Vec::new(),
            regs_at_sym,
            blocked: 0,
            mem_mask,
            write_mask,
            af_mask,
            pf_of,
            rel_pat,
            acq_pat,
            po_loc,
            dep,
            sc_fences,
        })
    }

    /// PTX ISA 8.7: "Two operations are said to be morally strong relative to each other if they
    /// satisfy all of the following conditions: 1. The operations are related in program order
    /// (i.e, they are both executed by the same thread), or each operation is strong and
    /// specifies a scope that includes the thread executing the other operation. 2. Both
    /// operations are performed via the same proxy. 3. If both are memory operations, then they
    /// overlap completely."
    fn morally_strong(x: &Ev, y: &Ev) -> bool {
        let scoped = |e: &Ev| e.mem() || e.fence.is_some();
        if !scoped(x) || !scoped(y) {
            return false;
        }
        let c1 = x.thread == y.thread
            || match (x.scope, y.scope) {
                (Some(sx), Some(sy)) => {
                    x.place.includes(sx, &y.place) && y.place.includes(sy, &x.place)
                }
                _ => false,
            };
        let px = if x.mem() { x.proxy } else { Proxy::Generic };
        let py = if y.mem() { y.proxy } else { Proxy::Generic };
        // PTX ISA 8.6: accesses through virtual aliases of one location are treated as if
        // performed through different proxies.
        let same_proxy = px == py && (!(x.mem() && y.mem()) || x.vaddr == y.vaddr);
        let c3 = !(x.mem() && y.mem()) || x.phys == y.phys;
        c1 && same_proxy && c3
    }

    /// Observation order, PTX ISA 8.9.2: "A write W precedes a read R in observation order if
    /// (1) R and W are morally strong and R reads the value written by W, or (2) for some atomic
    /// operation Z, W precedes Z and Z precedes R in observation order." With one event per
    /// RMW, this is the transitive closure of morally strong reads-from.
    fn observation(&self, rf: &[Option<usize>]) -> Rel {
        let mut srf = Rel::new(self.n);
        for (r, src) in rf.iter().enumerate() {
            if let Some(w) = src {
                if self.ms.has(*w, r) {
                    srf.add(*w, r);
                }
            }
        }
        srf.closure()
    }

    /// Synchronizes-with from patterns, PTX ISA 8.9.4: "A release pattern X synchronizes with
    /// an acquire pattern Y, if a write operation in X precedes a read operation in Y in
    /// observation order, and the first operation in X and the last operation in Y are morally
    /// strong."
    fn pattern_sync(&self, obs: &Rel) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        for &(f, w) in &self.rel_pat {
            for &(r, l) in &self.acq_pat {
                if obs.has(w, r) && self.ms.has(f, l) && f != l {
                    v.push((f, l));
                }
            }
        }
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Causality order, PTX ISA 8.9.5, from base causality order `bco` (the transitive closure
    /// of program order and synchronizes-with) and observation order `obs`.
    ///
    /// Proxy-preserved base causality order: "A memory operation X precedes a memory operation
    /// Y in proxy-preserved base causality order if X precedes Y in base causality order, and:
    /// X and Y are performed to the same address, using the generic proxy, or X and Y are
    /// performed to the same address, using the same proxy, and by the same thread block, or X
    /// and Y are aliases and there is an alias proxy fence along the base causality path from X
    /// to Y" — with the proxy fences of the mixed-proxy extension on the path for a non-generic
    /// X (a fence of X's proxy in X's CTA) or Y (of Y's proxy in Y's CTA).
    ///
    /// Causality order: "X precedes Y in causality order if X precedes Y in proxy-preserved base
    /// causality order, or for some operation Z, X precedes Z in observation order, and Z
    /// precedes Y in proxy-preserved base causality order."
    fn cause(&self, bco: &Rel, obs: &Rel) -> Causal {
        let n = self.n;
        let mut col = vec![0u64; n];
        for (a, row) in bco.0.iter().enumerate() {
            for b in bits(*row) {
                col[b] |= 1 << a;
            }
        }
        let mut ppcb = Rel::new(n);
        for x in bits(self.mem_mask) {
            let row = bco.0[x] & self.mem_mask;
            if row == 0 {
                continue;
            }
            let ex = &self.ev[x];
            let gx = ex.proxy == Proxy::Generic;
            let fx = bco.0[x] & self.pf_of[x];
            let after_fx = bco.post(fx);
            let ax = bco.0[x] & self.af_mask;
            let after_ax = bco.post(ax);
            let after_fx_a = bco.post(after_fx & self.af_mask);
            for y in bits(row) {
                let ey = &self.ev[y];
                if ex.phys != ey.phys {
                    continue;
                }
                let sv = ex.vaddr == ey.vaddr;
                let gy = ey.proxy == Proxy::Generic;
                let pfy = self.pf_of[y] & col[y];
                let ok = (sv && gx && gy)
                    || (sv && ex.proxy == ey.proxy && same_cta(&ex.place, &ey.place))
                    || (sv && gy && after_fx >> y & 1 == 1)
                    || (sv && gx && bco.0[x] & pfy != 0)
                    || (sv && after_fx & pfy != 0)
                    || (gx && gy && after_ax >> y & 1 == 1)
                    || (gy && after_fx_a >> y & 1 == 1)
                    || (gx && after_ax & pfy != 0)
                    || (after_fx_a & pfy != 0);
                if ok {
                    ppcb.add(x, y);
                }
            }
        }
        // The observation step starts at a write: for an RMW it is its write, which follows its
        // read; the read's own causality order is the proxy-preserved base causality order.
        let mut cause = ppcb.clone();
        for x in 0..n {
            cause.0[x] |= ppcb.post(obs.0[x]);
        }
        Causal { ppcb, cause }
    }

    /// The axioms of PTX ISA 8.10 on a candidate execution: reads-from `rf`, base causality
    /// order `bco`, coherence order `co` (transitively closed), causality order `cause`.
    fn axioms(&self, rf: &[Option<usize>], bco: &Rel, co: &Rel, c: &Causal) -> Result<(), Axiom> {
        let cause = &c.cause;
        let n = self.n;
        // 8.10.2 Fence-SC: "Fence-SC order cannot contradict causality order": with Fence-SC order
        // part of synchronizes-with, a contradiction is a cycle of base causality through a
        // fence.sc.
        for &f in &self.sc_fences {
            if bco.has(f, f) {
                return Err(Axiom::FenceSc);
            }
        }
        // 8.10.1 Coherence: "If a write W precedes an overlapping write W' in causality order,
        // then W must precede W' in coherence order." (co contains those edges by construction;
        // here: co is an order.)
        if co.reflexive_somewhere() {
            return Err(Axiom::Coherence);
        }
        let co_before = |w: Option<usize>, w2: usize| match w {
            None => true, // the initial value precedes every write
            Some(w) => co.has(w, w2),
        };
        // 8.10.6 Causality.
        for x in 0..n {
            if cause.has(x, x) {
                return Err(Axiom::Causality);
            }
        }
        for r in 0..n {
            if !self.ev[r].read {
                continue;
            }
            // "1. If a read R precedes an overlapping write W in causality order, then R cannot
            // read from W."
            if let Some(w) = rf[r] {
                if c.ppcb.has(r, w) {
                    return Err(Axiom::Causality);
                }
            }
            // "2. If a write W precedes an overlapping read R in causality order, then for any
            // byte accessed by both R and W, R cannot read from any write W' that precedes W in
            // coherence order."
            for w in bits(self.write_mask) {
                if w != r
                    && self.ev[w].phys == self.ev[r].phys
                    && cause.has(w, r)
                    && rf[r] != Some(w)
                    && co_before(rf[r], w)
                {
                    return Err(Axiom::Causality);
                }
            }
        }
        // 8.10.3 Atomicity: "When an atomic operation A and a write W overlap and are morally
        // strong, then the following two communications cannot both exist in the same
        // execution: A reads any byte from a write W' that precedes W in coherence order. A
        // follows W in coherence order."
        for a in 0..n {
            if !(self.ev[a].atomic && self.ev[a].write) {
                continue;
            }
            for w in bits(self.write_mask) {
                if w != a
                    && self.ev[w].phys == self.ev[a].phys
                    && self.ms.has(a, w)
                    && rf[a] != Some(w)
                    && co_before(rf[a], w)
                    && co.has(w, a)
                {
                    return Err(Axiom::Atomicity);
                }
            }
        }
        // 8.10.5 SC per location: "a concatenation of program order between overlapping
        // operations and morally strong relations in communication order cannot result in a
        // cycle."
        let mut com = Rel::new(n);
        for r in 0..n {
            if !self.ev[r].read {
                continue;
            }
            if let Some(w) = rf[r] {
                com.add(w, r);
            }
            for w in bits(self.write_mask) {
                if w != r
                    && self.ev[w].phys == self.ev[r].phys
                    && rf[r] != Some(w)
                    && co_before(rf[r], w)
                {
                    com.add(r, w); // from-reads
                }
            }
        }
        for (a, row) in co.0.iter().enumerate() {
            com.0[a] |= row;
        }
        let mut sc_loc = self.po_loc.clone();
        for a in 0..n {
            sc_loc.0[a] |= com.0[a] & self.ms.0[a];
        }
        if !sc_loc.acyclic() {
            return Err(Axiom::ScPerLocation);
        }
        Ok(())
    }

    /// 8.10.4 No Thin Air: "Values may not appear 'out of thin air': an execution cannot
    /// speculatively produce a value in such a way that the speculation becomes self-satisfying
    /// through chains of instruction dependencies and inter-thread communication." — no cycle
    /// of reads-from and dependencies.
    fn no_thin_air(&self, rf: &[Option<usize>]) -> bool {
        let mut r = self.dep.clone();
        for (rd, src) in rf.iter().enumerate() {
            if let Some(w) = src {
                r.add(*w, rd);
            }
        }
        r.acyclic()
    }

    /// Coherence order forced by causality (8.10.1), closed.
    fn co_forced(&self, cause: &Rel) -> Rel {
        let mut co = Rel::new(self.n);
        for w in bits(self.write_mask) {
            for w2 in bits(cause.0[w] & self.write_mask) {
                if w != w2 && self.ev[w].phys == self.ev[w2].phys {
                    co.add(w, w2);
                }
            }
        }
        co.closure()
    }

    /// 8.7.1: "Two conflicting memory operations are said to be in a data-race if they are not
    /// related in causality order and they are not morally strong."
    fn races(&self, cause: &Rel) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        for a in bits(self.mem_mask) {
            for b in bits(self.mem_mask) {
                if b <= a {
                    continue;
                }
                let (x, y) = (&self.ev[a], &self.ev[b]);
                if x.phys != y.phys || !(x.write || y.write) {
                    continue;
                }
                if !self.ms.has(a, b) && !cause.has(a, b) && !cause.has(b, a) {
                    v.push((a, b));
                }
            }
        }
        v
    }

    /// Barrier generations (PTX ISA `bar`, `barrier.cluster`; 8.9.4 "A bar{.cta}.sync or
    /// bar{.cta}.red or bar{.cta}.arrive operation synchronizes with a bar{.cta}.sync or
    /// bar{.cta}.red operation executed on the same barrier"; "A barrier.cluster.arrive operation
    /// synchronizes with a barrier.cluster.wait operation"). Returns the possible assignments of
    /// barrier events to generations that complete, and a description of the hangs.
    fn barrier_assignments(&self, test: &Test) -> (Vec<Assignment>, Vec<String>) {
        let mut hangs = Vec::new();
        // Group CTA barrier events by (CTA, instance, id); per group per thread the events in order.
        type Key = (i64, i64, i64, Option<i64>, i64);
        let mut groups: BTreeMap<Key, BTreeMap<usize, Vec<usize>>> = BTreeMap::new();
        for (i, e) in self.ev.iter().enumerate() {
            if let Some(b) = &e.bar {
                groups
                    .entry((e.place.gpu, e.place.cluster, e.place.cta, b.instance, b.id))
                    .or_default()
                    .entry(e.thread)
                    .or_default()
                    .push(i);
            }
        }
        // Each group's possible generation sequences.
        let mut per_group: Vec<Vec<(Vec<Gen>, u64)>> = Vec::new();
        for ((g, cl, cta, _inst, id), threads) in &groups {
            let place = Place {
                gpu: *g,
                cluster: *cl,
                cta: *cta,
            };
            let cta_threads = test
                .threads
                .iter()
                .filter(|t| same_cta(&t.place, &place))
                .count() as i64;
            let queues: Vec<Vec<usize>> = threads.values().cloned().collect();
            let mut results = Vec::new();
            let mut pos = vec![0usize; queues.len()];
            let mut cur = Vec::new();
            let mut leftover_msgs = Vec::new();
            self.gen_dfs(
                &queues,
                &mut pos,
                &mut cur,
                cta_threads,
                &mut results,
                &mut leftover_msgs,
                *id,
            );
            for m in leftover_msgs {
                if !hangs.contains(&m) {
                    hangs.push(m);
                }
            }
            per_group.push(results);
        }
        // Cluster barriers: generation j = every thread of the cluster's j-th arrive; a thread's
        // j-th wait waits for generation j.
        type PerThread = BTreeMap<usize, (Vec<usize>, Vec<usize>)>;
        let mut clusters: BTreeMap<(i64, i64), PerThread> = BTreeMap::new();
        for (i, e) in self.ev.iter().enumerate() {
            if let Some(c) = e.cluster {
                let ent = clusters
                    .entry((e.place.gpu, e.place.cluster))
                    .or_default()
                    .entry(e.thread)
                    .or_default();
                match c {
                    ClusterEv::Arrive { .. } => ent.0.push(i),
                    ClusterEv::Wait => ent.1.push(i),
                }
            }
        }
        let mut cluster_gens: Vec<Gen> = Vec::new();
        let mut cluster_stuck = 0u64;
        for ((g, cl), per_thread) in &clusters {
            let members: Vec<usize> = test
                .threads
                .iter()
                .enumerate()
                .filter(|(_, t)| t.place.gpu == *g && t.place.cluster == *cl)
                .map(|(i, _)| i)
                .collect();
            let max_j = per_thread
                .values()
                .map(|(a, w)| a.len().max(w.len()))
                .max()
                .unwrap_or(0);
            for j in 0..max_j {
                let arrivals: Vec<usize> = members
                    .iter()
                    .filter_map(|t| per_thread.get(t).and_then(|(a, _)| a.get(j).copied()))
                    .collect();
                let waiters: Vec<usize> = members
                    .iter()
                    .filter_map(|t| per_thread.get(t).and_then(|(_, w)| w.get(j).copied()))
                    .collect();
                if arrivals.len() < members.len() {
                    if let Some(&w) = waiters.first() {
                        let e = &self.ev[w];
                        let m = format!(
                            "{} (line {}) waits for a cluster barrier phase that only {} of the {} threads of cluster {} arrive at",
                            e.text, e.line, arrivals.len(), members.len(), cl
                        );
                        if !hangs.contains(&m) {
                            hangs.push(m);
                        }
                    }
                    for &w in &waiters {
                        cluster_stuck |= 1 << w;
                    }
                    continue;
                }
                let mut edges = Vec::new();
                for &a in &arrivals {
                    if let Some(ClusterEv::Arrive { relaxed: false }) = self.ev[a].cluster {
                        for &w in &waiters {
                            edges.push((a, w));
                        }
                    }
                }
                cluster_gens.push(Gen {
                    arrivals,
                    waiters,
                    edges,
                });
            }
        }
        // Combine the groups' choices; reject deadlocks (a cycle among generations).
        let mut out = Vec::new();
        let mut choice = vec![0usize; per_group.len()];
        if per_group.iter().any(|g| g.is_empty()) {
            return (out, hangs);
        }
        loop {
            let mut gens: Vec<Gen> = cluster_gens.clone();
            let mut seq: Vec<(usize, usize)> = Vec::new(); // same-barrier order between generations
            let mut stuck = cluster_stuck;
            for (gi, g) in per_group.iter().enumerate() {
                let start = gens.len();
                gens.extend(g[choice[gi]].0.iter().cloned());
                stuck |= g[choice[gi]].1;
                for k in start + 1..gens.len() {
                    seq.push((k - 1, k));
                }
            }
            // the events after a blocked one never happen
            let mut dead = 0u64;
            for e in bits(stuck) {
                dead |= self.po.0[e];
            }
            let dead_arrival = gens
                .iter()
                .any(|g| g.arrivals.iter().any(|&a| dead >> a & 1 == 1));
            if self.gens_acyclic(&gens, &seq) && !dead_arrival {
                out.push(Assignment {
                    edges: gens
                        .iter()
                        .flat_map(|g| g.edges.iter().copied())
                        .filter(|&(a, b)| dead >> a & 1 == 0 && dead >> b & 1 == 0)
                        .collect(),
                    dead,
                    stuck,
                });
            } else {
                let m = "barriers wait for each other in a cycle (deadlock)".to_string();
                if !hangs.contains(&m) {
                    hangs.push(m);
                }
            }
            let mut k = 0;
            loop {
                if k == per_group.len() {
                    return (out, hangs);
                }
                choice[k] += 1;
                if choice[k] < per_group[k].len() {
                    break;
                }
                choice[k] = 0;
                k += 1;
            }
        }
    }

    /// Whether generations can complete in some order: generation G must complete before G2
    /// when an arrival of G2 comes after a waiting event of G in its thread.
    fn gens_acyclic(&self, gens: &[Gen], seq: &[(usize, usize)]) -> bool {
        let m = gens.len();
        if m == 0 {
            return true;
        }
        if m > 64 {
            return true;
        }
        let mut r = Rel::new(m);
        for &(a, b) in seq {
            r.add(a, b);
        }
        for (i, g) in gens.iter().enumerate() {
            for (j, g2) in gens.iter().enumerate() {
                if i == j {
                    continue;
                }
                if g.waiters
                    .iter()
                    .any(|&w| g2.arrivals.iter().any(|&a| self.po.has(w, a)))
                {
                    r.add(i, j);
                }
            }
        }
        r.acyclic()
    }

    #[allow(clippy::too_many_arguments)]
    fn gen_dfs(
        &self,
        queues: &[Vec<usize>],
        pos: &mut Vec<usize>,
        cur: &mut Vec<Gen>,
        cta_threads: i64,
        results: &mut Vec<(Vec<Gen>, u64)>,
        hangs: &mut Vec<String>,
        id: i64,
    ) {
        if results.len() > 4096 {
            return;
        }
        let pending: Vec<usize> = (0..queues.len())
            .filter(|&q| pos[q] < queues[q].len())
            .collect();
        let mut formed = false;
        // Try every subset of pending threads as the next generation.
        let np = pending.len();
        if np > 0 && np <= 16 {
            for sub in 1u32..(1 << np) {
                let members: Vec<usize> = (0..np)
                    .filter(|i| sub >> i & 1 == 1)
                    .map(|i| pending[i])
                    .collect();
                let evs: Vec<usize> = members.iter().map(|&q| queues[q][pos[q]]).collect();
                let need = |e: usize| {
                    self.ev[e]
                        .bar
                        .as_ref()
                        .and_then(|b| b.count)
                        .unwrap_or(cta_threads)
                };
                let c = need(evs[0]);
                if evs.iter().any(|&e| need(e) != c) || c != evs.len() as i64 {
                    continue;
                }
                // bar.red: every member's result equals the reduction of the predicates.
                let reds: Vec<&BarEv> = evs
                    .iter()
                    .filter_map(|&e| self.ev[e].bar.as_ref())
                    .filter(|b| b.result.is_some())
                    .collect();
                if !reds.is_empty() {
                    let popc = evs
                        .iter()
                        .filter(|&&e| self.ev[e].bar.as_ref().map(|b| b.pred).unwrap_or(false))
                        .count() as i64;
                    let ok = reds.iter().all(|b| {
                        let want = match b.kind {
                            BarKind::RedPopc => popc,
                            BarKind::RedAnd => (popc == evs.len() as i64) as i64,
                            BarKind::RedOr => (popc > 0) as i64,
                            _ => 0,
                        };
                        b.result == Some(want)
                    });
                    if !ok {
                        formed = true; // inconsistent guess, not a hang
                        continue;
                    }
                }
                formed = true;
                let waiters: Vec<usize> = evs
                    .iter()
                    .copied()
                    .filter(|&e| self.ev[e].bar_waits())
                    .collect();
                let mut edges = Vec::new();
                for &a in &evs {
                    for &w in &waiters {
                        if a != w {
                            edges.push((a, w));
                        }
                    }
                }
                for &q in &members {
                    pos[q] += 1;
                }
                cur.push(Gen {
                    arrivals: evs.clone(),
                    waiters,
                    edges,
                });
                self.gen_dfs(queues, pos, cur, cta_threads, results, hangs, id);
                cur.pop();
                for &q in &members {
                    pos[q] -= 1;
                }
            }
        }
        if formed {
            return;
        }
        // No generation can form: the remaining waiting events hang.
        let stuck: Vec<usize> = pending
            .iter()
            .map(|&q| queues[q][pos[q]])
            .filter(|&e| self.ev[e].bar_waits())
            .collect();
        results.push((cur.clone(), stuck.iter().fold(0u64, |m, &e| m | 1 << e)));
        if !stuck.is_empty() {
            let e = &self.ev[stuck[0]];
            let need = e.bar.as_ref().and_then(|b| b.count).unwrap_or(cta_threads);
            let arriving = pending.len();
            hangs.push(format!(
                "P{} `{}` (line {}) waits at barrier {} for {} threads; {} of the {} threads of CTA {} arrive there",
                e.thread, e.text, e.line, id, need, arriving, cta_threads, e.place.cta
            ));
        }
    }

    fn search(&self, test: &Test, found: &mut Found) {
        let reads: Vec<usize> = (0..self.n).filter(|&r| self.ev[r].read).collect();
        let mut cands: Vec<Vec<Option<usize>>> = Vec::new();
        for &r in &reads {
            let er = &self.ev[r];
            let mut c = vec![None];
            for w in bits(self.write_mask) {
                let ew = &self.ev[w];
                if w == r || ew.phys != er.phys {
                    continue;
                }
                // A read never reads a same-address write it precedes in program order
                // (that would contradict causality order, 8.10.6).
                if ew.thread == er.thread && r < w && ew.vaddr == er.vaddr && ew.proxy == er.proxy {
                    continue;
                }
                c.push(Some(w));
            }
            cands.push(c);
        }
        let mut cache: BarCache = HashMap::new();
        let mut rf = vec![None; self.n];
        let mut readers: Readers = HashMap::new();
        self.rf_dfs(
            test,
            &reads,
            &cands,
            0,
            &mut rf,
            &mut readers,
            &mut cache,
            found,
        );
    }

    /// Reads-from, one read at a time. A choice is dropped at once when two morally strong
    /// atomic RMWs would read the same write that is morally strong with both, or both the
    /// initial value: one of them follows the other in coherence order and so reads a write
    /// that precedes it (Atomicity, 8.10.3).
    #[allow(clippy::too_many_arguments)]
    fn rf_dfs(
        &self,
        test: &Test,
        reads: &[usize],
        cands: &[Vec<Option<usize>>],
        k: usize,
        rf: &mut Vec<Option<usize>>,
        readers: &mut Readers,
        cache: &mut BarCache,
        found: &mut Found,
    ) {
        if found.candidates > MAX_CANDIDATES {
            return;
        }
        if k == reads.len() {
            self.at_rf(test, rf, cache, found);
            return;
        }
        let r = reads[k];
        let er = &self.ev[r];
        let rmw = er.atomic && er.write;
        for &src in &cands[k] {
            // initial values are per location: key the initial value by the location
            let key = match src {
                Some(w) => Some(w),
                None => Some(usize::MAX - er.phys),
            };
            if rmw {
                let clash = readers.get(&key).is_some_and(|v| {
                    v.iter().any(|&a| {
                        self.ms.has(a, r)
                            && match src {
                                None => true,
                                Some(w) => self.ms.has(w, a) && self.ms.has(w, r),
                            }
                    })
                });
                if clash {
                    continue;
                }
            }
            rf[r] = src;
            let slot = if rmw {
                readers.entry(key).or_default().push(r);
                Some(key)
            } else {
                None
            };
            self.rf_dfs(test, reads, cands, k + 1, rf, readers, cache, found);
            if let Some(key) = slot {
                readers.get_mut(&key).unwrap().pop();
            }
        }
        rf[r] = None;
    }

    fn at_rf(&self, test: &Test, rf: &[Option<usize>], cache: &mut BarCache, found: &mut Found) {
        found.candidates += 1;
        let is_read: Vec<bool> = self.ev.iter().map(|e| e.read).collect();
        let wex: Vec<Option<&Expr>> = self.wexpr.iter().map(|e| e.as_ref()).collect();
        let rf: &[Option<usize>] = rf;
        if let Some(vals) = eval_values(&wex, &is_read, &self.base_of, rf, &self.init_of) {
            let rv = |g: usize| vals.rval[g];
            let holds = self.assumes.iter().all(|(b, a)| {
                let rd = |k: usize| rv(b + k);
                match (a.a.eval(&rd), a.b.eval(&rd)) {
                    (Some(x), Some(y)) => a.cmp.eval(x, y) == a.holds,
                    _ => false,
                }
            });
            if holds {
                let mut cx = self.clone();
                for e in 0..self.n {
                    cx.ev[e].rval = vals.rval[e];
                    cx.ev[e].wval = vals.wval[e];
                    let b = self.base_of[e];
                    cx.ev[e].bar = self.barsym[e].as_ref().map(|s| {
                        let rd = |k: usize| rv(b + k);
                        BarEv {
                            id: s.id.eval(&rd).unwrap_or(-1),
                            count: s.count.as_ref().map(|c| c.eval(&rd).unwrap_or(-1)),
                            instance: s.instance,
                            kind: s.kind,
                            pred: s
                                .pred
                                .as_ref()
                                .map(|(p, neg)| (p.eval(&rd).unwrap_or(0) != 0) != *neg)
                                .unwrap_or(false),
                            result: s.result,
                        }
                    });
                }
                cx.regs = self
                    .reg_exprs
                    .iter()
                    .map(|(b, rs)| {
                        rs.iter()
                            .map(|x| x.eval(&|k| rv(b + k)).unwrap_or(0))
                            .collect()
                    })
                    .collect();
                cx.regs_at = (0..self.n)
                    .map(|e| {
                        let b = self.base_of[e];
                        self.regs_at_sym[e].as_ref().map(|rs| {
                            rs.iter()
                                .map(|x| x.eval(&|k| rv(b + k)).unwrap_or(0))
                                .collect()
                        })
                    })
                    .collect();
                let key: Vec<Option<BarEv>> = cx.ev.iter().map(|e| e.bar.clone()).collect();
                let (assignments, hangs) = cache
                    .entry(key)
                    .or_insert_with(|| cx.barrier_assignments(test))
                    .clone();
                for h in hangs {
                    if !found.hangs.contains(&h) {
                        found.hangs.push(h);
                    }
                }
                cx.with_rf(test, rf, &assignments, found);
            }
        }
    }

    fn with_rf(
        &self,
        test: &Test,
        rf: &[Option<usize>],
        assignments: &[Assignment],
        found: &mut Found,
    ) {
        for a in assignments {
            if a.dead == 0 {
                self.with_assignment(test, rf, &a.edges, found);
                continue;
            }
            // A thread blocked for ever at a barrier stops there: its later events never happen.
            let all = if self.n == 64 {
                u64::MAX
            } else {
                (1u64 << self.n) - 1
            };
            let live = !a.dead & all;
            let reads_dead = (0..self.n)
                .any(|r| live >> r & 1 == 1 && matches!(rf[r], Some(w) if a.dead >> w & 1 == 1));
            if reads_dead {
                continue;
            }
            let (cx, map) = self.restrict(live, a.stuck);
            let rf2: Vec<Option<usize>> = (0..self.n)
                .filter(|&e| live >> e & 1 == 1)
                .map(|e| rf[e].map(|w| map[w]))
                .collect();
            let edges2: Vec<(usize, usize)> =
                a.edges.iter().map(|&(x, y)| (map[x], map[y])).collect();
            cx.with_assignment(test, &rf2, &edges2, found);
        }
    }

    /// The execution without the events of `!live`; the registers of a thread blocked at a
    /// `stuck` event are those it had when it arrived there.
    fn restrict(&self, live: u64, stuck: u64) -> (Exec, Vec<usize>) {
        let mut map = vec![usize::MAX; self.n];
        let mut k = 0;
        for e in 0..self.n {
            if live >> e & 1 == 1 {
                map[e] = k;
                k += 1;
            }
        }
        let keep = |e: usize| live >> e & 1 == 1;
        let rm = |m: u64| -> u64 { bits(m & live).fold(0, |acc, b| acc | 1 << map[b]) };
        let rrel = |r: &Rel| -> Rel {
            Rel((0..self.n)
                .filter(|&e| keep(e))
                .map(|e| rm(r.0[e]))
                .collect())
        };
        let mut regs = self.regs.clone();
        for e in bits(stuck) {
            if let Some(r) = &self.regs_at[e] {
                regs[self.ev[e].thread] = r.clone();
            }
        }
        let ev: Vec<Ev> = (0..self.n)
            .filter(|&e| keep(e))
            .map(|e| {
                let mut x = self.ev[e].clone();
                x.deps = x
                    .deps
                    .iter()
                    .filter(|&&d| keep(d))
                    .map(|&d| map[d])
                    .collect();
                x
            })
            .collect();
        let pairs = |v: &[(usize, usize)]| -> Vec<(usize, usize)> {
            v.iter()
                .filter(|(a, b)| keep(*a) && keep(*b))
                .map(|&(a, b)| (map[a], map[b]))
                .collect()
        };
        let cx = Exec {
            n: ev.len(),
            ev,
            wexpr: Vec::new(),
            barsym: Vec::new(),
            base_of: Vec::new(),
            assumes: Vec::new(),
            reg_exprs: Vec::new(),
            regs_at_sym: Vec::new(),
            regs_at: Vec::new(),
            blocked: bits(stuck).fold(self.blocked, |m, e| m | 1 << self.ev[e].thread),
            init_of: (0..self.n)
                .filter(|&e| keep(e))
                .map(|e| self.init_of[e])
                .collect(),
            po: rrel(&self.po),
            ms: rrel(&self.ms),
            regs,
            init: self.init.clone(),
            mem_mask: rm(self.mem_mask),
            write_mask: rm(self.write_mask),
            af_mask: rm(self.af_mask),
            pf_of: (0..self.n)
                .filter(|&e| keep(e))
                .map(|e| rm(self.pf_of[e]))
                .collect(),
            rel_pat: pairs(&self.rel_pat),
            acq_pat: pairs(&self.acq_pat),
            po_loc: rrel(&self.po_loc),
            dep: rrel(&self.dep),
            sc_fences: self
                .sc_fences
                .iter()
                .filter(|&&f| keep(f))
                .map(|&f| map[f])
                .collect(),
        };
        (cx, map)
    }

    fn with_assignment(
        &self,
        test: &Test,
        rf: &[Option<usize>],
        bar_edges: &[(usize, usize)],
        found: &mut Found,
    ) {
        if !self.no_thin_air(rf) {
            return;
        }
        let obs = self.observation(rf);
        let psync = self.pattern_sync(&obs);
        let mut base = self.po.clone();
        for &(a, b) in psync.iter().chain(bar_edges.iter()) {
            base.add(a, b);
        }
        // Lower bound before choosing the Fence-SC order: more order only removes executions.
        let bco = base.closure();
        let cause = self.cause(&bco, &obs);
        let co = self.co_forced(&cause.cause);
        if self.axioms(rf, &bco, &co, &cause).is_err() {
            return;
        }
        let mut seen: HashSet<Vec<u64>> = HashSet::new();
        let mut placed = Vec::new();
        self.sc_dfs(
            test,
            rf,
            &obs,
            &base,
            &psync,
            bar_edges,
            &mut placed,
            &mut seen,
            found,
        );
    }

    /// Fence-SC order, PTX ISA 8.9.3: "an acyclic partial order, determined at runtime, that
    /// relates every pair of morally strong fence.sc operations". Enumerated as the orderings of
    /// the fences (program order kept), keeping only the morally strong pairs; each prefix is
    /// checked against the axioms with the edges it already implies.
    #[allow(clippy::too_many_arguments)]
    fn sc_dfs(
        &self,
        test: &Test,
        rf: &[Option<usize>],
        obs: &Rel,
        base: &Rel,
        psync: &[(usize, usize)],
        bar_edges: &[(usize, usize)],
        placed: &mut Vec<usize>,
        seen: &mut HashSet<Vec<u64>>,
        found: &mut Found,
    ) {
        let remaining: Vec<usize> = self
            .sc_fences
            .iter()
            .copied()
            .filter(|f| !placed.contains(f))
            .collect();
        let mut sc = Rel::new(self.n);
        for (i, &a) in placed.iter().enumerate() {
            for &b in placed[i + 1..].iter().chain(remaining.iter()) {
                if self.ms.has(a, b) {
                    sc.add(a, b);
                }
            }
        }
        let full = base.union(&sc);
        let bco = full.closure();
        let cause = self.cause(&bco, obs);
        let co = self.co_forced(&cause.cause);
        if self.axioms(rf, &bco, &co, &cause).is_err() {
            return;
        }
        if remaining.is_empty() {
            if !seen.insert(sc.0.clone()) {
                return;
            }
            let sc_pairs: Vec<(usize, usize)> = sc.pairs();
            self.co_dfs(
                test, rf, &bco, &cause, co, psync, bar_edges, &sc_pairs, found,
            );
            return;
        }
        for &f in &remaining {
            // program order among a thread's fence.sc is kept
            if remaining.iter().any(|&g| g != f && self.po.has(g, f)) {
                continue;
            }
            placed.push(f);
            self.sc_dfs(test, rf, obs, base, psync, bar_edges, placed, seen, found);
            placed.pop();
        }
    }

    /// Coherence order, PTX ISA 8.9.6: "Two overlapping write operations are related in
    /// coherence order if they are morally strong or if they are related in causality order.
    /// Two overlapping writes are unrelated in coherence order if they are in a data-race".
    #[allow(clippy::too_many_arguments)]
    fn co_dfs(
        &self,
        test: &Test,
        rf: &[Option<usize>],
        bco: &Rel,
        cause: &Causal,
        co: Rel,
        psync: &[(usize, usize)],
        bar_edges: &[(usize, usize)],
        sc_pairs: &[(usize, usize)],
        found: &mut Found,
    ) {
        if co.reflexive_somewhere() {
            return;
        }
        // first morally strong pair of writes to one location not yet ordered
        for a in bits(self.write_mask) {
            for b in bits(self.write_mask) {
                if b <= a || self.ev[a].phys != self.ev[b].phys || !self.ms.has(a, b) {
                    continue;
                }
                if co.has(a, b) || co.has(b, a) {
                    continue;
                }
                for (x, y) in [(a, b), (b, a)] {
                    let mut c2 = co.clone();
                    c2.add(x, y);
                    let c2 = c2.closure();
                    if c2.reflexive_somewhere() {
                        continue;
                    }
                    if self.axioms(rf, bco, &c2, cause).is_err() {
                        continue;
                    }
                    self.co_dfs(test, rf, bco, cause, c2, psync, bar_edges, sc_pairs, found);
                }
                return;
            }
        }
        if self.axioms(rf, bco, &co, cause).is_err() {
            return;
        }
        self.record(test, rf, cause, &co, psync, bar_edges, sc_pairs, found);
    }

    #[allow(clippy::too_many_arguments)]
    fn record(
        &self,
        test: &Test,
        rf: &[Option<usize>],
        cause: &Causal,
        co: &Rel,
        psync: &[(usize, usize)],
        bar_edges: &[(usize, usize)],
        sc_pairs: &[(usize, usize)],
        found: &mut Found,
    ) {
        // A thread blocked for ever never reaches the end: its registers have no final value,
        // so an execution in which a thread the condition observes is blocked has no state.
        let observed_blocked = test
            .observed
            .iter()
            .any(|t| matches!(t, Term::Reg(th, _) if self.blocked >> th & 1 == 1));
        if observed_blocked {
            return;
        }
        let races = self.races(&cause.cause);
        for &(a, b) in &races {
            let (x, y) = (&self.ev[a], &self.ev[b]);
            let d = format!(
                "P{} `{}` (line {}) and P{} `{}` (line {})",
                x.thread, x.text, x.line, y.thread, y.text, y.line
            );
            if !found.races.contains(&d) {
                found.races.push(d);
            }
        }
        // Final value of each location: a coherence-last write (several if racy writes are
        // unordered).
        let mut finals: Vec<Vec<i64>> = Vec::new();
        for p in 0..test.phys.len() {
            let ws: Vec<usize> = bits(self.write_mask)
                .filter(|&w| self.ev[w].phys == p)
                .collect();
            if ws.is_empty() {
                finals.push(vec![self.init[p]]);
                continue;
            }
            let mut vs: Vec<i64> = ws
                .iter()
                .filter(|&&w| !ws.iter().any(|&w2| co.has(w, w2)))
                .map(|&w| self.ev[w].wval.unwrap())
                .collect();
            vs.sort_unstable();
            vs.dedup();
            finals.push(vs);
        }
        let mut pick = vec![0usize; finals.len()];
        loop {
            let mem: Vec<i64> = pick
                .iter()
                .enumerate()
                .map(|(p, &k)| finals[p][k])
                .collect();
            let val = |t: &Term| match t {
                Term::Reg(th, r) => self.regs[*th][*r],
                Term::Loc(p) => mem[*p],
                Term::Imm(v) => *v,
                // Format part 2 terms: such a test never reaches this checker (`Test::legacy`).
                Term::Mem(_) => 0,
            };
            let sat = eval(&test.prop, &val);
            let state: State = test.observed.iter().map(val).collect();
            found.states.insert(state, sat);
            if sat {
                found.positive += 1;
            } else {
                found.negative += 1;
            }
            if (sat && found.witness_pos.is_none()) || found.witness_any.is_none() {
                let mut co_red = Vec::new();
                for (a, b) in co.pairs() {
                    if !bits(co.0[a]).any(|c| c != b && co.has(c, b)) {
                        co_red.push((a, b));
                    }
                }
                let mut sync: Vec<(usize, usize, SyncKind)> = psync
                    .iter()
                    .map(|&(a, b)| (a, b, SyncKind::Pattern))
                    .collect();
                sync.extend(sc_pairs.iter().map(|&(a, b)| (a, b, SyncKind::FenceSc)));
                sync.extend(bar_edges.iter().map(|&(a, b)| (a, b, SyncKind::Barrier)));
                let w = Witness {
                    events: self.ev.clone(),
                    rf: (0..self.n)
                        .filter(|&r| self.ev[r].read)
                        .map(|r| (rf[r], r))
                        .collect(),
                    co: co_red,
                    sync,
                    races: races.clone(),
                };
                if sat && found.witness_pos.is_none() {
                    found.witness_pos = Some(w.clone());
                }
                if found.witness_any.is_none() {
                    found.witness_any = Some(w);
                }
            }
            let mut k = 0;
            loop {
                if k == pick.len() {
                    return;
                }
                pick[k] += 1;
                if pick[k] < finals[k].len() {
                    break;
                }
                pick[k] = 0;
                k += 1;
            }
        }
    }
}

/// Evaluates the condition's proposition.
pub fn eval(p: &Prop, val: &dyn Fn(&Term) -> i64) -> bool {
    match p {
        Prop::True => true,
        Prop::False => false,
        Prop::Cmp(c, a, b) => c.eval(val(a), val(b)),
        Prop::Not(q) => !eval(q, val),
        Prop::And(a, b) => eval(a, val) && eval(b, val),
        Prop::Or(a, b) => eval(a, val) || eval(b, val),
    }
}

/// Which side of the patterns of PTX ISA 8.8 [`pattern_pairs`] lists.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pattern {
    Release,
    Acquire,
}

/// The (first, last) pairs of the release or acquire patterns on one location (PTX ISA 8.8),
/// anchored at a strong write (release: the pattern ends there) or a strong read (acquire: it
/// starts there), in the order: anchor by anchor, `(x, x)` when the anchor is itself the
/// operation, then each event ordered with it in program order (before it for release, after it
/// for acquire) that is the operation on the same location or the fence.
///
/// Release: "a release operation on M" (st.release, atom.release/acq_rel, red.release); "a
/// release or acquire-release operation on M followed by a strong write on M in program order";
/// "a release or acquire-release fence followed by a strong write on M in program order"
/// (fence.sc is also a release fence). Acquire: "an acquire operation on M" (ld.acquire,
/// atom.acquire/acq_rel); "a strong read on M followed by an acquire operation on M in program
/// order"; "a strong read on M followed by an acquire fence in program order". `red` is not a
/// read of an acquire pattern: its value is not returned (seed §4.5).
fn pattern_pairs(ev: &[Ev], po: &Rel, side: Pattern) -> Vec<(usize, usize)> {
    let rel = side == Pattern::Release;
    let (sem, fence): (&[Sem], &[FenceSem]) = if rel {
        (
            &[Sem::Release, Sem::AcqRel],
            &[FenceSem::Release, FenceSem::AcqRel, FenceSem::Sc],
        )
    } else {
        (
            &[Sem::Acquire, Sem::AcqRel],
            &[FenceSem::Acquire, FenceSem::AcqRel, FenceSem::Sc],
        )
    };
    // The operations a pattern may consist of: any access for release, a value-returning read
    // for acquire.
    let access = |e: &Ev| if rel { e.mem() } else { e.read && !e.red };
    let anchor = |e: &Ev| e.strong() && if rel { e.write } else { access(e) };
    let mut out = Vec::new();
    for x in (0..ev.len()).filter(|&x| anchor(&ev[x])) {
        if sem.contains(&ev[x].sem) {
            out.push((x, x));
        }
        for y in 0..ev.len() {
            if !(if rel { po.has(y, x) } else { po.has(x, y) }) {
                continue;
            }
            let pair = if rel { (y, x) } else { (x, y) };
            if access(&ev[y]) && sem.contains(&ev[y].sem) && ev[y].vaddr == ev[x].vaddr {
                out.push(pair);
            }
            if ev[y].fence.is_some_and(|f| fence.contains(&f)) {
                out.push(pair);
            }
        }
    }
    out
}
