//! Exploration: threads run against the model, one event at a time, and only consistent
//! partial executions are ever extended.
//!
//! Each thread runs in program order, except that it *runs ahead* of a load whose value is not
//! chosen yet: later loads, stores, RMWs and fences that depend on no pending load (PTX ISA
//! §8.10.4's "chains of instruction dependencies") are added at once, so load buffering is
//! reachable without guessing values. When no thread can add anything, the first pending load
//! chooses the write it reads from among those in the graph, or waits for one that is not there
//! yet. After every choice the partial execution is checked against the axioms (they only get
//! stricter as events are added) and pruned. Complete executions are checked in full: some
//! Fence-SC order and some coherence order must satisfy every axiom ([`super::axioms`]).
//!
//! Spin loops: an iteration that returns to a loop head with the thread's state unchanged having
//! only read is never explored twice. A thread left waiting for ever in a fair execution is a
//! hang (`model/SEMANTICS.md` S6).

use super::asyncop::{AsyncKind, AsyncProg};
use super::axioms::{morally_strong, Checker, CoProblem, SyncKind, INIT};
use super::bits::Rel;
use super::graph::{EvId, Event, Graph, Kind, LocKey, MbarAct, Mem, Piece, Src, Value};
use super::mbar::{MbarError, MbarState};
use super::op::{
    Access, At, Completion, Layout, MbarOp, Op, Order, Place, Program, Reply, Space, Step, Val,
};
use crate::ast::{BarKind, Proxy, RmwOp, Scope, Sem};
use std::collections::{BTreeMap, BTreeSet};

/// Where the threads run and what memory they share.
#[derive(Clone, Debug)]
pub struct World {
    /// The address space.
    pub layout: Layout,
    /// Each thread's place (index = thread number).
    pub places: Vec<Place>,
}

/// Limits of one exploration.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Most events in one execution.
    pub max_events: usize,
    /// Most exploration steps before the test is reported as too large.
    pub max_steps: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_events: 4096,
            max_steps: 5_000_000,
        }
    }
}

/// A location term of the final condition: bytes `off..off+size` of variable `var` (for a shared
/// variable, the copy of CTA `cta`; `u32::MAX` for global memory).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LocTerm {
    /// Variable.
    pub var: u32,
    /// CTA owning the copy.
    pub cta: u32,
    /// Offset.
    pub off: u32,
    /// Size in bytes.
    pub size: u8,
}

/// One complete, consistent execution as the observer sees it.
pub struct Leaf<'a, P> {
    /// The graph.
    pub graph: &'a Graph,
    /// The real threads' final interpreter states (`None`: the thread did not finish).
    pub threads: Vec<Option<&'a P>>,
    /// The possible final values of the asked location terms: one alternative per Fence-SC
    /// order that gave different sets (within one alternative the terms are independent: any
    /// combination of their values is a final state).
    pub finals: Vec<Vec<BTreeSet<u64>>>,
    /// Data races (event pairs, mixed-size).
    pub races: Vec<(EvId, EvId, bool)>,
    /// Synchronizes-with edges (with the Fence-SC order chosen).
    pub sync: Vec<(EvId, EvId, SyncKind)>,
    /// A coherence order (pairs of write events).
    pub co: Vec<(EvId, EvId)>,
    /// Flags raised in this execution: (flag, description).
    pub flags: &'a [(String, String)],
}

/// What the exploration reports besides leaves.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Hangs, described once each.
    pub hangs: BTreeSet<String>,
    /// Other flags (mbarrier errors, bad addresses, barrier counts, traps): (flag, description).
    pub flags: BTreeSet<(String, String)>,
    /// Executions cut at the unroll bound.
    pub cut: usize,
    /// Something not modelled (`unsupported: …`).
    pub unsupported: Option<String>,
    /// Exploration steps.
    pub steps: u64,
    /// Complete consistent executions.
    pub executions: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Status {
    Run,
    /// Waiting at a CTA barrier (its event).
    Bar(EvId),
    Done,
    Stopped,
    Cut,
}

#[derive(Clone, Debug)]
struct Pending {
    ord: u32,
    ev: EvId,
    /// Set when the read declined every write available then: it may only read a write whose
    /// value became known later (sequence number ≥ this).
    deferred_at: Option<u64>,
}

#[derive(Clone, Debug)]
enum Prog<P> {
    User(P),
    Async(AsyncProg),
}

impl<P: Program> Prog<P> {
    fn step(&mut self) -> Step {
        match self {
            Prog::User(p) => p.step(),
            Prog::Async(p) => p.step(),
        }
    }
    fn resume(&mut self, r: Reply) {
        match self {
            Prog::User(p) => p.resume(r),
            Prog::Async(p) => p.resume(r),
        }
    }
    fn fingerprint(&self) -> u64 {
        match self {
            Prog::User(p) => p.fingerprint(),
            Prog::Async(p) => p.fingerprint(),
        }
    }
    /// The next step that is not a loop head (for replays).
    fn step_op(&mut self) -> Step {
        loop {
            match self.step() {
                Step::LoopHead { .. } => continue,
                s => return s,
            }
        }
    }
}

#[derive(Clone, Debug)]
struct Th<P> {
    place: Place,
    /// Interpreter positioned before op `snap_ord`; every earlier op is resolved.
    snap: Prog<P>,
    snap_ord: u32,
    /// Ops from `snap_ord` on that have been performed: (event, reply when known).
    ahead: Vec<(Option<EvId>, Option<Reply>)>,
    pending: Vec<Pending>,
    /// Interpreter after `ahead` (with placeholder replies), and its next step.
    front: Option<(Prog<P>, Step)>,
    status: Status,
    /// Loop head → (fingerprint, impure-event count) when last there.
    heads: BTreeMap<usize, (u64, usize)>,
    impure: usize,
    groups: Vec<Vec<usize>>,
    open: Vec<usize>,
    bgroups: Vec<Vec<usize>>,
    bopen: Vec<usize>,
    clock: Option<Val>,
    cluster_arrivals: u32,
    /// Async threads: the issue event (edge to the first event), threads to join first.
    issue: Option<EvId>,
    join_first: Vec<usize>,
    started: bool,
    last_ev: Option<EvId>,
    last_read: Option<EvId>,
    /// Events added so far (their program-order positions).
    nev: u32,
    /// The last memory event's op ordinal, source and position (vector elements).
    prev_mem: Option<(u32, At, u32)>,
}

impl<P: Program> Th<P> {
    fn new(p: Prog<P>, place: Place, issue: Option<EvId>) -> Self {
        Th {
            place,
            snap: p,
            snap_ord: 0,
            ahead: Vec::new(),
            pending: Vec::new(),
            front: None,
            status: Status::Run,
            heads: BTreeMap::new(),
            impure: 0,
            groups: Vec::new(),
            open: Vec::new(),
            bgroups: Vec::new(),
            bopen: Vec::new(),
            clock: None,
            cluster_arrivals: 0,
            issue,
            join_first: Vec::new(),
            started: false,
            last_ev: None,
            last_read: None,
            nev: 0,
            prev_mem: None,
        }
    }
    fn next_ord(&self) -> u32 {
        self.snap_ord + self.ahead.len() as u32
    }
    /// Recomputes the frontier: replay `ahead` from the snapshot (placeholders for pending reads)
    /// and take the next step.
    fn refront(&mut self) {
        let mut p = self.snap.clone();
        for (_, r) in &self.ahead {
            let _ = p.step_op();
            p.resume(r.unwrap_or(Reply::Value(0)));
        }
        let s = p.step();
        self.front = Some((p, s));
    }
    /// Moves the snapshot past every resolved op at its head.
    fn advance_snap(&mut self) {
        while let Some((_, Some(r))) = self.ahead.first() {
            let r = *r;
            let _ = self.snap.step_op();
            self.snap.resume(r);
            self.ahead.remove(0);
            self.snap_ord += 1;
        }
    }
    fn pending_ords(&self) -> impl Iterator<Item = u32> + '_ {
        self.pending.iter().map(|p| p.ord)
    }
}

#[derive(Clone, Debug, Default)]
struct BarState {
    arrivals: Vec<EvId>,
    waiters: Vec<(usize, EvId)>,
    gen: u32,
}

#[derive(Clone)]
struct State<P> {
    g: Graph,
    th: Vec<Th<P>>,
    bars: BTreeMap<(u32, u32, Option<u64>), BarState>,
    cbar: BTreeMap<(u32, u32), Vec<EvId>>,
    /// Sequence number given to each write when its value becomes known.
    avail: BTreeMap<EvId, u64>,
    seq: u64,
    flags: Vec<(String, String)>,
}

enum Flow<P> {
    Go,
    Prune,
    Branch(Vec<State<P>>),
}

/// The explorer.
pub struct Explorer<'w, P: Program, O: FnMut(&Leaf<P>)> {
    world: &'w World,
    observe: O,
    terms: Vec<LocTerm>,
    limits: Limits,
    /// Results other than leaves.
    pub summary: Summary,
    nreal: usize,
    cluster_ctas: BTreeMap<u32, u32>,
    cta_of_rank: BTreeMap<(u32, u32), u32>,
    cluster_of_cta: BTreeMap<u32, u32>,
    rank_of_cta: BTreeMap<u32, u32>,
    known_races: BTreeSet<(EvId, EvId)>,
    abort: bool,
    _p: std::marker::PhantomData<fn() -> P>,
    /// (leaf checks, seconds, partial checks, seconds), for `PTX_SYNC_STATS`.
    stats: (u64, f64, u64, f64),
}

/// The clock jump that outlasts any budget (`model/SEMANTICS.md` S6).
pub const CLOCK_JUMP: Val = 1 << 40;

fn describe(g: &Graph, e: EvId) -> String {
    let ev = &g.ev[e];
    format!("P{} `{}` (line {})", ev.thread, ev.at.text, ev.at.line)
}

impl<'w, P: Program, O: FnMut(&Leaf<P>)> Explorer<'w, P, O> {
    /// Explores every execution of `threads` (one per place of `world`), calling `observe` on each
    /// complete consistent one; `terms` are the location terms whose final values are wanted.
    pub fn run(
        world: &'w World,
        threads: Vec<P>,
        terms: Vec<LocTerm>,
        limits: Limits,
        observe: O,
    ) -> Summary {
        let nreal = threads.len();
        let mut ctas: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
        let mut cta_of_rank = BTreeMap::new();
        let mut cluster_of_cta = BTreeMap::new();
        let mut rank_of_cta = BTreeMap::new();
        for p in &world.places {
            ctas.entry(p.cluster).or_default().insert(p.cta);
            cta_of_rank.insert((p.cluster, p.rank), p.cta);
            cluster_of_cta.insert(p.cta, p.cluster);
            rank_of_cta.insert(p.cta, p.rank);
        }
        let mut ex = Explorer {
            world,
            observe,
            terms,
            limits,
            summary: Summary::default(),
            nreal,
            cluster_ctas: ctas.into_iter().map(|(c, s)| (c, s.len() as u32)).collect(),
            cta_of_rank,
            cluster_of_cta,
            rank_of_cta,
            known_races: BTreeSet::new(),
            abort: false,
            _p: std::marker::PhantomData,
            stats: (0, 0.0, 0, 0.0),
        };
        let th: Vec<Th<P>> = threads
            .into_iter()
            .zip(&world.places)
            .map(|(p, pl)| Th::new(Prog::User(p), *pl, None))
            .collect();
        let mut st = State {
            g: Graph::default(),
            th,
            bars: BTreeMap::new(),
            cbar: BTreeMap::new(),
            avail: BTreeMap::new(),
            seq: 0,
            flags: Vec::new(),
        };
        st.g.po = vec![Vec::new(); nreal];
        for t in 0..nreal {
            st.th[t].refront();
        }
        ex.explore(st);
        if std::env::var_os("PTX_SYNC_STATS").is_some() {
            eprintln!(
                "steps {} executions {} leaf-checks {} ({:.3} s) partial-checks {} ({:.3} s)",
                ex.summary.steps,
                ex.summary.executions,
                ex.stats.0,
                ex.stats.1,
                ex.stats.2,
                ex.stats.3
            );
        }
        ex.summary
    }

    fn explore(&mut self, mut st: State<P>) {
        loop {
            if self.abort {
                return;
            }
            self.summary.steps += 1;
            if self.summary.steps > self.limits.max_steps {
                self.summary.unsupported = Some(format!(
                    "more than {} exploration steps (the test is too large)",
                    self.limits.max_steps
                ));
                self.abort = true;
                return;
            }
            if st.g.ev.len() > self.limits.max_events {
                self.summary.unsupported = Some(format!(
                    "more than {} events in one execution",
                    self.limits.max_events
                ));
                self.abort = true;
                return;
            }
            match self.advance(&mut st) {
                Some(Flow::Go) => continue,
                Some(Flow::Prune) => return,
                Some(Flow::Branch(v)) => {
                    for s in v {
                        self.explore(s);
                    }
                    return;
                }
                None => break,
            }
        }
        // Nothing deterministic is left: a pending read chooses its write.
        if let Some((t, i)) = self.pick_pending(&st) {
            if std::env::var_os("PTX_SYNC_TRACE2").is_some() {
                let e = st.th[t].pending[i].ev;
                eprintln!(
                    "resolve P{t} `{}` ({} events, deferred {:?})",
                    st.g.ev[e].at.text,
                    st.g.ev.len(),
                    st.th[t].pending[i].deferred_at
                );
            }
            for s in self.resolutions(&st, t, i) {
                self.explore(s);
            }
            return;
        }
        self.leaf(st);
    }

    /// Takes one deterministic step of some thread; `None` when no thread can.
    fn advance(&mut self, st: &mut State<P>) -> Option<Flow<P>> {
        for t in 0..st.th.len() {
            if st.th[t].status != Status::Run {
                continue;
            }
            if !st.th[t].join_first.is_empty() {
                // cp.async.mbarrier.arrive's async arrive-on waits for the thread's prior cp.async.
                let jf = st.th[t].join_first.clone();
                if jf.iter().all(|&a| st.th[a].status == Status::Done) {
                    let after: Vec<EvId> = jf.iter().filter_map(|&a| st.th[a].last_ev).collect();
                    let at = At {
                        line: 0,
                        text: "cp.async.mbarrier.arrive (join)".into(),
                        src: None,
                    };
                    let ev = self.add_event(
                        st,
                        t,
                        Kind::Join {
                            after: after.clone(),
                        },
                        at,
                    );
                    for a in after {
                        st.g.sync.push((a, ev));
                    }
                    st.th[t].join_first.clear();
                    return Some(Flow::Go);
                }
                continue;
            }
            let Some((_, step)) = &st.th[t].front else {
                continue;
            };
            let has_pending = !st.th[t].pending.is_empty();
            match step.clone() {
                Step::Op(op, at, deps) => {
                    if has_pending {
                        let dep = st.th[t].pending_ords().any(|p| deps.contains(p));
                        let speculable = matches!(
                            op,
                            Op::Load(_)
                                | Op::Store(..)
                                | Op::Rmw(..)
                                | Op::Fence(..)
                                | Op::ProxyFence(_)
                                | Op::ClusterArrive { .. }
                                | Op::Bar {
                                    kind: BarKind::Arrive,
                                    ..
                                }
                                | Op::Mbar {
                                    op: MbarOp::Arrive { .. }
                                        | MbarOp::ExpectTx(_)
                                        | MbarOp::CompleteTx(_)
                                        | MbarOp::WaitParity { .. }
                                        | MbarOp::WaitState { .. },
                                    ..
                                }
                        );
                        if dep || !speculable {
                            continue;
                        }
                    }
                    if !self.ready(st, t, &op) {
                        continue;
                    }
                    return Some(self.perform(st, t, op, at));
                }
                Step::LoopHead { head, .. } => {
                    if has_pending {
                        continue;
                    }
                    let th = &mut st.th[t];
                    let fp = th.front.as_ref().unwrap().0.fingerprint();
                    if let Some(&(f0, imp0)) = th.heads.get(&head) {
                        if f0 == fp && imp0 == th.impure {
                            // An iteration that changed nothing: explored already.
                            return Some(Flow::Prune);
                        }
                    }
                    th.heads.insert(head, (fp, th.impure));
                    let (p, _) = th.front.as_mut().unwrap();
                    let s = p.step();
                    th.front.as_mut().unwrap().1 = s;
                    return Some(Flow::Go);
                }
                Step::Done => {
                    if has_pending {
                        continue;
                    }
                    st.th[t].status = Status::Done;
                    // An exited thread no longer holds back a barrier that waits for the CTA.
                    let cta = st.th[t].place.cta;
                    if t < self.nreal && self.complete_bars(st, cta) {
                        return Some(self.check_partial(st));
                    }
                    return Some(Flow::Go);
                }
                Step::Cut(_) => {
                    if has_pending {
                        continue;
                    }
                    st.th[t].status = Status::Cut;
                    return Some(Flow::Go);
                }
                Step::Trap(at) => {
                    if has_pending {
                        continue;
                    }
                    st.flags.push((
                        "trap".into(),
                        format!("P{t} reached `{}` (line {})", at.text, at.line),
                    ));
                    st.th[t].status = Status::Stopped;
                    return Some(Flow::Go);
                }
                Step::Unsupported(what, at) => {
                    if has_pending {
                        continue;
                    }
                    self.summary.unsupported = Some(format!("{what} (line {})", at.line));
                    self.abort = true;
                    return Some(Flow::Prune);
                }
            }
        }
        None
    }

    /// Whether an op can be performed now (joins and cluster waits wait for their condition).
    fn ready(&self, st: &State<P>, t: usize, op: &Op) -> bool {
        let th = &st.th[t];
        match op {
            Op::WaitGroup { bulk, n, read, all } => {
                let groups = if *bulk { &th.bgroups } else { &th.groups };
                let k = groups.len().saturating_sub(*n as usize);
                let open: &[usize] = if *all { &th.open } else { &[] };
                groups[..k].iter().flatten().chain(open).all(|&a| {
                    let at = &st.th[a];
                    if *read {
                        at.status == Status::Done || self.reads_done(st, a)
                    } else {
                        at.status == Status::Done
                    }
                })
            }
            Op::ClusterWait => {
                // A wait with no arrive before it waits for a phase its own arrival is part of:
                // it never completes.
                let c = th.place.cluster;
                th.cluster_arrivals > 0
                    && self.cluster_phase_complete(st, c, th.cluster_arrivals - 1)
            }
            _ => true,
        }
    }

    fn reads_done(&self, st: &State<P>, a: usize) -> bool {
        let th = &st.th[a];
        match &th.front {
            Some((_, Step::Op(Op::Load(_), ..))) => false,
            _ => th.pending.is_empty(),
        }
    }

    /// Whether every thread of the cluster arrived at `phase` or exited (PTX ISA §9.7.13.3: the
    /// wait is for "all non-exited threads of the cluster").
    fn cluster_phase_complete(&self, st: &State<P>, cluster: u32, phase: u32) -> bool {
        (0..self.nreal).all(|u| {
            let th = &st.th[u];
            th.place.cluster != cluster
                || th.cluster_arrivals > phase
                || matches!(th.status, Status::Done)
        })
    }

    fn cluster_size(&self, cluster: u32) -> u32 {
        self.cluster_ctas.get(&cluster).copied().unwrap_or(1)
    }

    /// Resolves an access's address for thread `t`.
    fn locate(
        &self,
        st: &State<P>,
        t: usize,
        space: Space,
        addr: Val,
        size: u8,
    ) -> Result<(LocKey, u32, u32, bool), String> {
        let p = st.th[t].place;
        let loc = self
            .world
            .layout
            .resolve(space, addr, size, p.rank, self.cluster_size(p.cluster))
            .map_err(|e| format!("{e:?}"))?;
        let var = &self.world.layout.vars[loc.var as usize];
        let cta = match loc.rank {
            Some(r) => *self
                .cta_of_rank
                .get(&(p.cluster, r))
                .ok_or_else(|| format!("no CTA of rank {r} in the cluster"))?,
            None => u32::MAX,
        };
        Ok(((loc.var, cta), loc.off, loc.vaddr, var.shared))
    }

    fn add_event(&self, st: &mut State<P>, t: usize, kind: Kind, at: At) -> EvId {
        // The elements of one vector access (consecutive ops of one instruction) share one
        // program-order position (PTX ISA §8.2.4: "executed in an unspecified order").
        let opo = st.th[t].next_ord();
        let is_mem = matches!(kind, Kind::Mem(_)) && t < self.nreal;
        let ord = match &st.th[t].prev_mem {
            Some((o, a, ord)) if is_mem && *o + 1 == opo && *a == at => *ord,
            _ => {
                st.th[t].nev += 1;
                st.th[t].nev - 1
            }
        };
        st.th[t].prev_mem = is_mem.then(|| (opo, at.clone(), ord));
        let e = Event {
            thread: t,
            ord,
            place: st.th[t].place,
            kind,
            at,
        };
        let id = st.g.add(e);
        let th = &mut st.th[t];
        if !th.started {
            th.started = true;
            if let Some(i) = th.issue {
                st.g.issued.push((i, t));
            }
        }
        th.last_ev = Some(id);
        id
    }

    fn mark_avail(st: &mut State<P>, w: EvId) {
        st.seq += 1;
        st.avail.insert(w, st.seq);
    }

    /// Records an op as performed with `reply` (`None`: pending) and moves the frontier on.
    fn push_op(st: &mut State<P>, t: usize, ev: Option<EvId>, reply: Option<Reply>) {
        let th = &mut st.th[t];
        let ord = th.next_ord();
        th.ahead.push((ev, reply));
        if reply.is_none() {
            th.pending.push(Pending {
                ord,
                ev: ev.expect("a pending op has an event"),
                deferred_at: None,
            });
        }
        let (p, _) = th.front.as_mut().unwrap();
        p.resume(reply.unwrap_or(Reply::Value(0)));
        let s = p.step();
        th.front.as_mut().unwrap().1 = s;
        th.advance_snap();
    }

    fn summary_unsupported_later(&self, flags: &mut Vec<(String, String)>, at: &At) {
        flags.push((
            "unsupported".into(),
            format!(
                "`{}` (line {}): half-precision atomic arithmetic",
                at.text, at.line
            ),
        ));
    }

    fn stop(st: &mut State<P>, t: usize, flag: &str, what: String) {
        st.flags.push((flag.to_string(), what));
        st.th[t].status = Status::Stopped;
    }

    fn mem_event(&self, st: &mut State<P>, t: usize, acc: &Access, at: &At) -> Result<Mem, ()> {
        match self.locate(st, t, acc.space, acc.addr, acc.size) {
            Ok((key, off, vaddr, shared)) => Ok(Mem {
                key,
                off,
                size: acc.size,
                vaddr,
                shared,
                proxy: acc.proxy,
                order: acc.order,
                read: false,
                write: false,
                atomic: false,
                red: false,
                rmw: None,
                mbar: None,
                wval: None,
                rf: None,
                rval: None,
            }),
            Err(e) => {
                Self::stop(
                    st,
                    t,
                    "bad-address",
                    format!("P{t} `{}` (line {}): {e}", at.text, at.line),
                );
                Err(())
            }
        }
    }

    /// Performs an op of thread `t`.
    fn perform(&mut self, st: &mut State<P>, t: usize, op: Op, at: At) -> Flow<P> {
        match op {
            Op::Load(acc) => {
                let Ok(mut m) = self.mem_event(st, t, &acc, &at) else {
                    return Flow::Go;
                };
                m.read = true;
                let ev = self.add_event(st, t, Kind::Mem(m), at);
                Self::push_op(st, t, Some(ev), None);
                Flow::Go
            }
            Op::Store(acc, v) => {
                let Ok(mut m) = self.mem_event(st, t, &acc, &at) else {
                    return Flow::Go;
                };
                m.write = true;
                m.wval = Some(Value::Bits(v & mask(acc.size)));
                let ev = self.add_event(st, t, Kind::Mem(m), at);
                st.th[t].impure += 1;
                Self::mark_avail(st, ev);
                Self::push_op(st, t, Some(ev), Some(Reply::None));
                self.check_partial(st)
            }
            Op::Rmw(acc, rmw) => {
                let Ok(mut m) = self.mem_event(st, t, &acc, &at) else {
                    return Flow::Go;
                };
                m.read = true;
                m.write = true;
                m.atomic = true;
                m.red = !rmw.returns;
                m.rmw = Some(rmw);
                let ev = self.add_event(st, t, Kind::Mem(m), at);
                st.th[t].impure += 1;
                Self::push_op(st, t, Some(ev), None);
                Flow::Go
            }
            Op::Fence(sem, scope, r) => {
                let ev = self.add_event(st, t, Kind::Fence(sem, scope, r), at);
                Self::push_op(st, t, Some(ev), Some(Reply::None));
                Flow::Go
            }
            Op::ProxyFence(k) => {
                let ev = self.add_event(st, t, Kind::ProxyFence(k), at.clone());
                if let super::op::ProxyFence::AsyncGeneric { sem, restrict } = k {
                    // Also a release (acquire) fence at cluster scope restricted to the space.
                    self.add_event(st, t, Kind::Fence(sem, Scope::Cluster, Some(restrict)), at);
                }
                Self::push_op(st, t, Some(ev), Some(Reply::None));
                Flow::Go
            }
            Op::Bar {
                kind,
                id,
                count,
                pred,
            } => self.bar(st, t, kind, id, count, pred, at),
            Op::ClusterArrive { relaxed } => {
                let p = st.th[t].place;
                let phase = st.th[t].cluster_arrivals;
                st.th[t].cluster_arrivals += 1;
                let ev = self.add_event(
                    st,
                    t,
                    Kind::ClusterArrive {
                        relaxed,
                        cluster: p.cluster,
                        phase,
                    },
                    at,
                );
                st.th[t].impure += 1;
                st.cbar.entry((p.cluster, phase)).or_default().push(ev);
                Self::push_op(st, t, Some(ev), Some(Reply::None));
                Flow::Go
            }
            Op::ClusterWait => {
                let p = st.th[t].place;
                let phase = st.th[t].cluster_arrivals - 1;
                let ev = self.add_event(
                    st,
                    t,
                    Kind::ClusterWait {
                        cluster: p.cluster,
                        phase,
                    },
                    at,
                );
                st.th[t].impure += 1;
                for a in st
                    .cbar
                    .get(&(p.cluster, phase))
                    .cloned()
                    .unwrap_or_default()
                {
                    for (s, narrow) in self.cluster_sources(st, a) {
                        if narrow {
                            st.g.narrow.push((s, ev));
                        } else {
                            st.g.sync.push((s, ev));
                        }
                    }
                }
                Self::push_op(st, t, Some(ev), Some(Reply::None));
                self.check_partial(st)
            }
            Op::Mbar {
                space,
                addr,
                op,
                sem,
                scope,
            } => self.mbar(st, t, space, addr, op, sem, scope, at),
            Op::Copy(c) => self.copy(st, t, c, at),
            Op::Commit { bulk } => {
                let th = &mut st.th[t];
                if bulk {
                    let g = std::mem::take(&mut th.bopen);
                    th.bgroups.push(g);
                } else {
                    let g = std::mem::take(&mut th.open);
                    th.groups.push(g);
                }
                Self::push_op(st, t, None, Some(Reply::None));
                Flow::Go
            }
            Op::WaitGroup { bulk, n, read, all } => {
                if all {
                    let th = &mut st.th[t];
                    let g = std::mem::take(&mut th.open);
                    th.groups.push(g);
                }
                let th = &st.th[t];
                let groups = if bulk { &th.bgroups } else { &th.groups };
                let k = groups.len().saturating_sub(n as usize);
                let waited: Vec<usize> = groups[..k].iter().flatten().copied().collect();
                let after: Vec<EvId> = waited
                    .iter()
                    .filter_map(|&a| {
                        if read && st.th[a].status != Status::Done {
                            st.th[a].last_read
                        } else if read {
                            st.th[a].last_read.or(st.th[a].last_ev)
                        } else {
                            st.th[a].last_ev
                        }
                    })
                    .collect();
                let ev = self.add_event(
                    st,
                    t,
                    Kind::Join {
                        after: after.clone(),
                    },
                    at,
                );
                for a in after {
                    st.g.sync.push((a, ev));
                }
                let th = &mut st.th[t];
                if !read {
                    if bulk {
                        th.bgroups.drain(..k);
                    } else {
                        th.groups.drain(..k);
                    }
                }
                Self::push_op(st, t, Some(ev), Some(Reply::None));
                self.check_partial(st)
            }
            Op::AsyncMbarArrive { space, addr, noinc } => {
                let prior: Vec<usize> = st.th[t]
                    .groups
                    .iter()
                    .flatten()
                    .chain(st.th[t].open.iter())
                    .copied()
                    .collect();
                let place = match self.locate(st, t, space, addr, 8) {
                    Ok(((_, cta), ..)) => self.place_of_cta(cta, st.th[t].place),
                    Err(e) => {
                        Self::stop(
                            st,
                            t,
                            "bad-address",
                            format!("P{t} `{}` (line {}): {e}", at.text, at.line),
                        );
                        return Flow::Go;
                    }
                };
                let child = st.th.len();
                // Without `.noinc` the pending count is incremented at issue (§9.7.13.15.15).
                let inc = if noinc {
                    None
                } else {
                    let acc = Access {
                        space,
                        addr,
                        size: 8,
                        proxy: Proxy::Generic,
                        order: Order {
                            sem: Sem::Relaxed,
                            scope: Some(Scope::Cta),
                        },
                    };
                    let Ok(mut m) = self.mem_event(st, t, &acc, &at) else {
                        return Flow::Go;
                    };
                    m.read = true;
                    m.write = true;
                    m.atomic = true;
                    m.mbar = Some(MbarAct::PendingInc);
                    Some(self.add_event(st, t, Kind::Mem(m), at.clone()))
                };
                // The async arrive-on is ordered only after the prior cp.async of the thread (its
                // join) — and, so that it sees the object at all, after the thread's prior
                // operations on the mbarrier itself (`model/SEMANTICS.md` S3).
                let issue = self.add_event(st, t, Kind::Issue { child }, at.clone());
                st.g.mbar_issues.push(issue);
                let mut th = Th::new(
                    Prog::Async(AsyncProg::new(
                        AsyncKind::Arrive {
                            space: Space::SharedCluster,
                            addr: Layout::mapa_shared(addr, place.rank),
                        },
                        at.clone(),
                    )),
                    place,
                    Some(issue),
                );
                th.join_first = prior;
                th.refront();
                st.th.push(th);
                st.g.po.push(Vec::new());
                st.th[t].impure += 1;
                match inc {
                    None => Self::push_op(st, t, None, Some(Reply::None)),
                    Some(ev) => Self::push_op(st, t, Some(ev), None),
                }
                Flow::Go
            }
            Op::StAsync {
                access,
                vals,
                rmw,
                bar,
            } => {
                let dst_rank = match self.locate(st, t, access.space, access.addr, access.size) {
                    Ok(((_, cta), ..)) => self.rank_of_cta.get(&cta).copied().unwrap_or(0),
                    Err(e) => {
                        Self::stop(
                            st,
                            t,
                            "bad-address",
                            format!("P{t} `{}` (line {}): {e}", at.text, at.line),
                        );
                        return Flow::Go;
                    }
                };
                let size = access.size as u64;
                let c = super::op::Copy {
                    moves: (0..vals.len() as u64)
                        .map(|k| super::op::Move {
                            src: None,
                            dst: Some((access.space, access.addr + k * size)),
                            size: access.size,
                        })
                        .collect(),
                    proxy: access.proxy,
                    reduce: rmw,
                    completion: Completion::Mbarrier(
                        Space::SharedCluster,
                        Layout::mapa_shared(bar, dst_rank),
                    ),
                    multicast: None,
                    tx_bytes: size * vals.len() as u64,
                };
                self.spawn(st, t, c, Some(vals), at)
            }
            Op::PendingCount(state) => {
                // The token is the engine's: bits 32–63 hold the pending count before the arrive.
                Self::push_op(st, t, None, Some(Reply::Value(state >> 32)));
                Flow::Go
            }
            Op::Clock => {
                let prev = st.th[t].clock;
                let mut out = Vec::new();
                let choices: Vec<Val> = match prev {
                    None => vec![1 << 32],
                    Some(v) => vec![v, v + CLOCK_JUMP],
                };
                for v in choices {
                    let mut s = st.clone();
                    s.th[t].clock = Some(v);
                    Self::push_op(&mut s, t, None, Some(Reply::Value(v)));
                    out.push(s);
                }
                Flow::Branch(out)
            }
            Op::Warp(..) => {
                self.summary.unsupported = Some(format!(
                    "warp collective `{}` (line {}) is not modelled yet",
                    at.text, at.line
                ));
                self.abort = true;
                Flow::Prune
            }
        }
    }

    fn place_of_cta(&self, cta: u32, like: Place) -> Place {
        let cluster = self
            .cluster_of_cta
            .get(&cta)
            .copied()
            .unwrap_or(like.cluster);
        Place {
            gpu: like.gpu,
            cluster,
            cta,
            rank: self.rank_of_cta.get(&cta).copied().unwrap_or(0),
            warp: u32::MAX,
            lane: u32::MAX,
        }
    }

    /// The events whose effect a cluster-barrier arrival carries to a wait of its phase: the
    /// arrival itself (`.release`, the default), or — for `.relaxed`, which "does not provide any
    /// memory ordering" — the operations covered by release fences before it in its thread
    /// (`model/SEMANTICS.md` S5).
    /// … as (event, narrow): a narrow source orders only itself (restricted fences).
    fn cluster_sources(&self, st: &State<P>, a: EvId) -> Vec<(EvId, bool)> {
        let Kind::ClusterArrive { relaxed, .. } = st.g.ev[a].kind else {
            return vec![];
        };
        if !relaxed {
            return vec![(a, false)];
        }
        let t = st.g.ev[a].thread;
        let ord = st.g.ev[a].ord;
        let mut out = Vec::new();
        for &f in &st.g.po[t] {
            if st.g.ev[f].ord >= ord {
                break;
            }
            if let Kind::Fence(fs, _, r) = st.g.ev[f].kind {
                if matches!(
                    fs,
                    crate::ast::FenceSem::Release
                        | crate::ast::FenceSem::AcqRel
                        | crate::ast::FenceSem::Sc
                ) {
                    match r {
                        None => out.push((f, false)),
                        // A restricted fence orders only the operations it is restricted to.
                        Some(_) => {
                            for x in Checker::restricted(&st.g, f) {
                                out.push((x, true));
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// A CTA barrier arrival (PTX ISA §9.7.13.1). Arrivals that name the same thread count form
    /// a generation (different counts never complete each other: the ISA requires them equal); a
    /// generation with an explicit count completes at that many arrivals, one with no count when
    /// every thread of the CTA arrived or exited ("wait for non-exited threads").
    #[allow(clippy::too_many_arguments)]
    fn bar(
        &mut self,
        st: &mut State<P>,
        t: usize,
        kind: BarKind,
        id: Val,
        count: Option<Val>,
        pred: bool,
        at: At,
    ) -> Flow<P> {
        let p = st.th[t].place;
        if id > 15 || count == Some(0) {
            Self::stop(
                st,
                t,
                "bad-barrier",
                format!(
                    "P{t} `{}` (line {}): barrier {id}, count {count:?}",
                    at.text, at.line
                ),
            );
            return Flow::Go;
        }
        let key = (p.cta, id as u32, count);
        let gen = st.bars.get(&key).map_or(0, |b| b.gen);
        let ev = self.add_event(
            st,
            t,
            Kind::Bar {
                kind,
                cta: p.cta,
                id: id as u32,
                count,
                pred,
                gen,
            },
            at.clone(),
        );
        st.th[t].impure += 1;
        let b = st.bars.entry(key).or_default();
        b.arrivals.push(ev);
        if kind.waits() {
            b.waiters.push((t, ev));
            // The reply comes at completion.
            st.th[t].ahead.push((Some(ev), None));
            st.th[t].status = Status::Bar(ev);
        } else {
            Self::push_op(st, t, Some(ev), Some(Reply::None));
        }
        if self.complete_bars(st, p.cta) {
            return self.check_partial(st);
        }
        Flow::Go
    }

    /// Completes every generation of CTA `cta`'s barriers that can complete; whether any did.
    fn complete_bars(&mut self, st: &mut State<P>, cta: u32) -> bool {
        let keys: Vec<(u32, u32, Option<u64>)> = st
            .bars
            .iter()
            .filter(|(k, b)| k.0 == cta && !b.arrivals.is_empty())
            .map(|(k, _)| *k)
            .collect();
        let mut any = false;
        for key in keys {
            let b = &st.bars[&key];
            let done = match key.2 {
                Some(c) => b.arrivals.len() as u64 >= c,
                None => (0..self.nreal).all(|u| {
                    st.th[u].place.cta != cta
                        || st.th[u].status == Status::Done
                        || b.arrivals.iter().any(|&a| st.g.ev[a].thread == u)
                }),
            };
            if done {
                self.complete_bar(st, key);
                any = true;
            }
        }
        any
    }

    fn complete_bar(&mut self, st: &mut State<P>, key: (u32, u32, Option<u64>)) {
        let b = st.bars.get_mut(&key).unwrap();
        let arrivals = std::mem::take(&mut b.arrivals);
        let waiters = std::mem::take(&mut b.waiters);
        let gen = b.gen;
        b.gen += 1;
        let popc = arrivals
            .iter()
            .filter(|&&a| matches!(st.g.ev[a].kind, Kind::Bar { pred: true, .. }))
            .count() as u64;
        for &(wt, we) in &waiters {
            let at = st.g.ev[we].at.clone();
            let wait = self.add_event(
                st,
                wt,
                Kind::BarWait {
                    cta: key.0,
                    id: key.1,
                    gen,
                },
                at,
            );
            for &a in &arrivals {
                st.g.sync.push((a, wait));
            }
            let reply = match st.g.ev[we].kind {
                Kind::Bar {
                    kind: BarKind::RedPopc,
                    ..
                } => Reply::Value(popc),
                Kind::Bar {
                    kind: BarKind::RedAnd,
                    ..
                } => Reply::Value((popc == arrivals.len() as u64) as u64),
                Kind::Bar {
                    kind: BarKind::RedOr,
                    ..
                } => Reply::Value((popc > 0) as u64),
                _ => Reply::None,
            };
            let th = &mut st.th[wt];
            th.status = Status::Run;
            // The waiting op is the last in `ahead` (nothing runs past a barrier wait).
            let last = th.ahead.len() - 1;
            th.ahead[last].1 = Some(reply);
            let (p, _) = th.front.as_mut().unwrap();
            p.resume(reply);
            let s = p.step();
            th.front.as_mut().unwrap().1 = s;
            th.advance_snap();
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn mbar(
        &mut self,
        st: &mut State<P>,
        t: usize,
        space: Space,
        addr: Val,
        op: MbarOp,
        sem: Sem,
        scope: Scope,
        at: At,
    ) -> Flow<P> {
        let acc = Access {
            space,
            addr,
            size: 8,
            proxy: Proxy::Generic,
            order: Order::WEAK,
        };
        let Ok(mut m) = self.mem_event(st, t, &acc, &at) else {
            return Flow::Go;
        };
        if !m.shared {
            // §9.7.13.15.9–16: "If the address specified by addr does not fall within the address
            // window of .shared::cta state space then the behavior is undefined."
            Self::stop(
                st,
                t,
                "bad-address",
                format!(
                    "P{t} `{}` (line {}): an mbarrier object must be in shared memory",
                    at.text, at.line
                ),
            );
            return Flow::Go;
        }
        let strong = Order {
            sem,
            scope: Some(scope),
        };
        match op {
            MbarOp::Init { count } => match MbarState::init(count) {
                Ok(s) => {
                    m.write = true;
                    m.mbar = Some(MbarAct::Init(count));
                    m.wval = Some(Value::Mbar(s));
                    let ev = self.add_event(st, t, Kind::Mem(m), at);
                    st.th[t].impure += 1;
                    Self::mark_avail(st, ev);
                    Self::push_op(st, t, Some(ev), Some(Reply::None));
                    self.check_partial(st)
                }
                Err(e) => {
                    Self::stop(
                        st,
                        t,
                        e.flag(),
                        format!("P{t} `{}` (line {}): count {count}", at.text, at.line),
                    );
                    Flow::Go
                }
            },
            MbarOp::Inval => {
                m.write = true;
                m.mbar = Some(MbarAct::Inval);
                m.wval = Some(Value::Bits(0));
                let ev = self.add_event(st, t, Kind::Mem(m), at);
                st.th[t].impure += 1;
                Self::mark_avail(st, ev);
                Self::push_op(st, t, Some(ev), Some(Reply::None));
                self.check_partial(st)
            }
            MbarOp::WaitParity { parity, .. } | MbarOp::WaitState { state: parity, .. } => {
                m.read = true;
                m.order = strong;
                m.mbar = Some(match op {
                    MbarOp::WaitParity { .. } => MbarAct::WaitParity(parity),
                    _ => MbarAct::WaitState(parity & 0xffff_ffff),
                });
                let ev = self.add_event(st, t, Kind::Mem(m), at);
                Self::push_op(st, t, Some(ev), None);
                Flow::Go
            }
            MbarOp::Arrive {
                count,
                expect_tx,
                no_complete,
                drop,
            } => {
                m.read = true;
                m.write = true;
                m.atomic = true;
                m.order = strong;
                m.mbar = Some(MbarAct::Arrive {
                    count,
                    expect_tx,
                    drop,
                    no_complete,
                });
                let ev = self.add_event(st, t, Kind::Mem(m), at);
                st.th[t].impure += 1;
                Self::push_op(st, t, Some(ev), None);
                Flow::Go
            }
            MbarOp::ExpectTx(n) | MbarOp::CompleteTx(n) => {
                m.read = true;
                m.write = true;
                m.atomic = true;
                m.order = strong;
                m.mbar = Some(if matches!(op, MbarOp::ExpectTx(_)) {
                    MbarAct::ExpectTx(n)
                } else {
                    MbarAct::CompleteTx(n)
                });
                let ev = self.add_event(st, t, Kind::Mem(m), at);
                st.th[t].impure += 1;
                Self::push_op(st, t, Some(ev), None);
                Flow::Go
            }
        }
    }

    /// Issues an async copy: one async thread per destination CTA.
    fn copy(&mut self, st: &mut State<P>, t: usize, c: super::op::Copy, at: At) -> Flow<P> {
        self.spawn(st, t, c, None, at)
    }

    fn spawn(
        &mut self,
        st: &mut State<P>,
        t: usize,
        c: super::op::Copy,
        value: Option<Vec<Val>>,
        at: At,
    ) -> Flow<P> {
        let p = st.th[t].place;
        let ev = self.add_event(st, t, Kind::Issue { child: st.th.len() }, at.clone());
        st.th[t].impure += 1;
        // Destinations: one per CTA of a multicast mask, else one.
        let mut copies: Vec<(super::op::Copy, Place)> = Vec::new();
        match c.multicast {
            Some(mask) => {
                for r in 0..16u32 {
                    if mask >> r & 1 == 0 {
                        continue;
                    }
                    let Some(&cta) = self.cta_of_rank.get(&(p.cluster, r)) else {
                        Self::stop(
                            st,
                            t,
                            "bad-address",
                            format!(
                                "P{t} `{}` (line {}): ctaMask names rank {r}, not in the cluster",
                                at.text, at.line
                            ),
                        );
                        return Flow::Go;
                    };
                    let mut cc = c.clone();
                    cc.multicast = None;
                    for mv in &mut cc.moves {
                        if let Some((_, a)) = mv.dst {
                            mv.dst = Some((Space::SharedCluster, Layout::mapa_shared(a, r)));
                        }
                    }
                    if let Completion::Mbarrier(_, a) = cc.completion {
                        cc.completion =
                            Completion::Mbarrier(Space::SharedCluster, Layout::mapa_shared(a, r));
                    }
                    copies.push((cc, self.place_of_cta(cta, p)));
                }
            }
            None => {
                let place = match c.completion {
                    Completion::Mbarrier(space, a) => match self.locate(st, t, space, a, 8) {
                        Ok(((_, cta), ..)) => self.place_of_cta(cta, p),
                        Err(e) => {
                            Self::stop(
                                st,
                                t,
                                "bad-address",
                                format!("P{t} `{}` (line {}): {e}", at.text, at.line),
                            );
                            return Flow::Go;
                        }
                    },
                    _ => self.place_of_cta(p.cta, p),
                };
                // Addresses the async thread uses are resolved from its own place: turn the
                // issuing thread's CTA-relative shared addresses into cluster addresses.
                let mut cc = c.clone();
                let fix = |sp: Space, a: Val| -> (Space, Val) {
                    match sp {
                        Space::SharedCta => (Space::SharedCluster, Layout::mapa_shared(a, p.rank)),
                        Space::Generic => match Layout::cvta_generic_to_shared(a) {
                            Some(_)
                                if (a - super::op::GENERIC_SHARED) >> super::op::RANK_SHIFT
                                    == 0 =>
                            {
                                (
                                    Space::SharedCluster,
                                    Layout::mapa_shared(a - super::op::GENERIC_SHARED, p.rank),
                                )
                            }
                            _ => (sp, a),
                        },
                        _ => (sp, a),
                    }
                };
                for mv in &mut cc.moves {
                    mv.src = mv.src.map(|(s, a)| fix(s, a));
                    mv.dst = mv.dst.map(|(s, a)| fix(s, a));
                }
                if let Completion::Mbarrier(s, a) = cc.completion {
                    let (s, a) = fix(s, a);
                    cc.completion = Completion::Mbarrier(s, a);
                }
                copies.push((cc, place));
            }
        }
        for (cc, place) in copies {
            let child = st.th.len();
            let completion = cc.completion;
            let mut prog = AsyncProg::new(AsyncKind::Copy(cc), at.clone());
            if let Some(v) = &value {
                prog.preset(v.clone());
            }
            let mut th = Th::new(Prog::Async(prog), place, Some(ev));
            th.refront();
            st.th.push(th);
            st.g.po.push(Vec::new());
            match completion {
                Completion::AsyncGroup => st.th[t].open.push(child),
                Completion::BulkGroup => st.th[t].bopen.push(child),
                Completion::Mbarrier(..) => {}
            }
        }
        Self::push_op(st, t, Some(ev), Some(Reply::None));
        Flow::Go
    }

    /// The first pending read that may choose now: (thread, index in its pending list).
    fn pick_pending(&self, st: &State<P>) -> Option<(usize, usize)> {
        for (t, th) in st.th.iter().enumerate() {
            // A stopped thread's earlier loads still read something (an error in a later
            // instruction it ran ahead to does not undo them).
            if matches!(th.status, Status::Cut) {
                continue;
            }
            for (i, p) in th.pending.iter().enumerate() {
                match p.deferred_at {
                    None => return Some((t, i)),
                    Some(seq) => {
                        let m = st.g.ev[p.ev].mem().unwrap();
                        let newer = st.avail.iter().any(|(&w, &s)| {
                            s > seq && st.g.ev[w].mem().is_some_and(|wm| wm.overlaps(m))
                        });
                        if newer {
                            return Some((t, i));
                        }
                    }
                }
            }
        }
        None
    }

    /// The states after pending read `i` of thread `t` chooses each write it may read (and,
    /// when a later write could still come, after it declines them all).
    fn resolutions(&mut self, st: &State<P>, t: usize, i: usize) -> Vec<State<P>> {
        self.resolve_one(st, t, i, true)
    }

    /// The states after pending read `i` of thread `t` chooses each write it may read (and, with
    /// `defer`, when a later write could still come, after it declines them all).
    fn resolve_one(&mut self, st: &State<P>, t: usize, i: usize, defer: bool) -> Vec<State<P>> {
        let p = st.th[t].pending[i].clone();
        let r = p.ev;
        let m = st.g.ev[r].mem().unwrap().clone();
        let min_seq = p.deferred_at.map_or(0, |s| s + 1);
        // Candidate writes per byte segment.
        let writes: Vec<EvId> = st
            .avail
            .iter()
            .filter(|&(&w, &s)| {
                w != r && s >= min_seq && st.g.ev[w].mem().is_some_and(|wm| wm.overlaps(&m))
            })
            .map(|(&w, _)| w)
            .collect();
        let mut bounds: BTreeSet<u32> = [0, m.size as u32].into();
        for &w in &writes {
            let wm = st.g.ev[w].mem().unwrap();
            for b in [wm.off, wm.off + wm.size as u32] {
                if b > m.off && b < m.off + m.size as u32 {
                    bounds.insert(b - m.off);
                }
            }
        }
        let bounds: Vec<u32> = bounds.into_iter().collect();
        let mut segs: Vec<Vec<Piece>> = Vec::new();
        for w in bounds.windows(2) {
            let (lo, hi) = (w[0], w[1]);
            let mut opts = Vec::new();
            if p.deferred_at.is_none() {
                opts.push(Piece {
                    lo: lo as u8,
                    hi: hi as u8,
                    src: Src::Init,
                });
            }
            for &wr in &writes {
                let wm = st.g.ev[wr].mem().unwrap();
                if wm.off <= m.off + lo && m.off + hi <= wm.off + wm.size as u32 {
                    opts.push(Piece {
                        lo: lo as u8,
                        hi: hi as u8,
                        src: Src::Ev(wr),
                    });
                }
            }
            segs.push(opts);
        }
        // A deferred read must take at least one newer write: its options above only hold newer
        // writes, but a segment no newer write covers keeps its old sources.
        let mut out = Vec::new();
        let mut choice = vec![0usize; segs.len()];
        if segs.iter().all(|s| !s.is_empty()) {
            loop {
                let pieces: Vec<Piece> = choice
                    .iter()
                    .enumerate()
                    .map(|(k, &c)| segs[k][c])
                    .collect();
                let mut s = st.clone();
                if self.resolve(&mut s, t, i, pieces) {
                    if let Flow::Go = self.check_partial(&mut s) {
                        if self.sc_feasible(&s.g) {
                            out.push(s);
                        }
                    }
                }
                let mut k = 0;
                loop {
                    if k == segs.len() {
                        break;
                    }
                    choice[k] += 1;
                    if choice[k] < segs[k].len() {
                        break;
                    }
                    choice[k] = 0;
                    k += 1;
                }
                if k == segs.len() {
                    break;
                }
            }
        }
        // Declining every available write is useful only if another write may still come — or
        // if the thread spins: waiting for ever is then how a hang shows (the leaf's probe
        // decides whether that wait is fair).
        if defer && (self.future_write_possible(st, t, r) || self.may_loop(&st.th[t])) {
            let mut s = st.clone();
            s.th[t].pending[i].deferred_at = Some(s.seq);
            out.push(s);
        }
        out
    }

    fn future_write_possible(&self, st: &State<P>, _t: usize, r: EvId) -> bool {
        let m = st.g.ev[r].mem().unwrap();
        // A pending RMW (other than `r`) on the location will write once resolved.
        let pending_rmw = st.th.iter().any(|th| {
            th.pending.iter().any(|p| {
                p.ev != r
                    && st.g.ev[p.ev]
                        .mem()
                        .is_some_and(|pm| pm.write && pm.overlaps(m))
            })
        });
        // A thread that may still reach a write (the interpreter says so from where it is).
        pending_rmw
            || st.th.iter().any(|th| match (&th.status, &th.front) {
                (Status::Run | Status::Bar(_), Some((_, Step::Done))) => false,
                (Status::Run | Status::Bar(_), Some((Prog::User(p), _))) => p.may_write(),
                (Status::Run | Status::Bar(_), Some((Prog::Async(_), _))) => true,
                _ => false,
            })
    }

    /// Sets the read's sources and value, computes what an RMW writes and what the thread gets
    /// back. Returns false when the state is not an execution (never: errors stop the thread).
    fn resolve(&self, st: &mut State<P>, t: usize, i: usize, pieces: Vec<Piece>) -> bool {
        let p = st.th[t].pending.remove(i);
        let r = p.ev;
        let layout = &self.world.layout;
        let init = |key: LocKey, off: u32| -> u8 {
            layout.vars[key.0 as usize]
                .init
                .get(off as usize)
                .copied()
                .unwrap_or(0)
        };
        {
            let m = st.g.ev[r].mem_mut().unwrap();
            m.rf = Some(pieces);
        }
        let rval = st.g.read_value(r, &init).unwrap_or(Value::Bits(0));
        let at = st.g.ev[r].at.clone();
        let m = st.g.ev[r].mem().unwrap().clone();
        let size = m.size;
        let mut reply = Reply::Value(0);
        let mut wval = None;
        let mut error: Option<(MbarError, String)> = None;
        match (m.mbar, rval) {
            (None, Value::Bits(v)) => {
                reply = if m.red { Reply::None } else { Reply::Value(v) };
                if let Some(rmw) = m.rmw {
                    match rmw_value(rmw, v, size) {
                        Some(w) => wval = Some(Value::Bits(w & mask(size))),
                        None => {
                            self.summary_unsupported_later(&mut st.flags, &at);
                            wval = Some(Value::Bits(v));
                        }
                    }
                }
            }
            (None, Value::Mbar(_)) => {
                error = Some((
                    MbarError::Misuse,
                    "a plain access to an mbarrier object".into(),
                ));
                wval = m.write.then_some(rval);
            }
            (Some(_), Value::Bits(_)) => {
                error = Some((MbarError::Uninit, "not a valid mbarrier object".into()));
                wval = m.write.then_some(rval);
            }
            (Some(act), Value::Mbar(s)) => {
                let res: Result<(Option<MbarState>, Reply), MbarError> = match act {
                    MbarAct::Arrive {
                        count,
                        expect_tx,
                        drop,
                        no_complete,
                    } => s.arrive(count, expect_tx, drop, no_complete).map(|(n, _)| {
                        (Some(n), Reply::Value(s.token() | (s.pending as u64) << 32))
                    }),
                    MbarAct::ExpectTx(n) => s.expect_tx(n).map(|n| (Some(n), Reply::None)),
                    MbarAct::CompleteTx(n) => s.complete_tx(n).map(|(n, _)| (Some(n), Reply::None)),
                    MbarAct::PendingInc => s.pending_inc().map(|n| (Some(n), Reply::None)),
                    MbarAct::WaitParity(par) => Ok((None, Reply::Pred(s.wait_parity(par)))),
                    MbarAct::WaitState(tok) => s.wait_token(tok).map(|b| (None, Reply::Pred(b))),
                    MbarAct::Init(_) | MbarAct::Inval => Ok((None, Reply::None)),
                };
                match res {
                    Ok((n, rep)) => {
                        reply = rep;
                        wval = n.map(Value::Mbar);
                    }
                    Err(e) => {
                        error = Some((e, format!("state {s:?}")));
                        wval = m.write.then_some(rval);
                    }
                }
            }
        }
        {
            let mm = st.g.ev[r].mem_mut().unwrap();
            mm.rval = Some(match (mm.mbar, reply) {
                (Some(_), Reply::Pred(b)) => Value::Bits(b as u64),
                _ => rval,
            });
            if mm.write {
                mm.wval = wval;
            }
        }
        if m.write {
            Self::mark_avail(st, r);
        }
        let th = &mut st.th[t];
        if th.snap_ord <= p.ord {
            let k = (p.ord - th.snap_ord) as usize;
            th.ahead[k].1 = Some(reply);
        }
        if m.mbar.is_none() && m.read {
            th.last_read = Some(r);
        }
        th.advance_snap();
        th.refront();
        if let Some((e, what)) = error {
            Self::stop(
                st,
                t,
                e.flag(),
                format!("P{t} `{}` (line {}): {what}", at.text, at.line),
            );
        }
        true
    }

    /// Prunes a partial execution that already violates an axiom (with no Fence-SC order and only
    /// the coherence edges every execution extending it must have).
    fn check_partial(&mut self, st: &mut State<P>) -> Flow<P> {
        let t0 = std::time::Instant::now();
        let r = self.check_partial_inner(st);
        self.stats.2 += 1;
        self.stats.3 += t0.elapsed().as_secs_f64();
        r
    }

    fn check_partial_inner(&self, st: &mut State<P>) -> Flow<P> {
        let cl = |c: u32| self.cluster_of_cta.get(&c).copied().unwrap_or(c);
        let ch = Checker::new(&st.g, &cl);
        let bco = ch.bco(&[]);
        if self.necessary(&st.g, &ch, &bco) {
            Flow::Go
        } else {
            Flow::Prune
        }
    }

    /// A necessary condition for consistency under base causality order `bco` (closed): no cycle,
    /// the causality axiom on reads-from, and coherence constraints that do not contradict each
    /// other. Extending `bco` (more events, more Fence-SC edges) only adds constraints.
    fn necessary(&self, g: &Graph, ch: &Checker, bco: &Rel) -> bool {
        if bco.reflexive_somewhere() {
            return false;
        }
        let (pp, cause) = ch.cause(bco);
        if cause.reflexive_somewhere() {
            return false;
        }
        ch.base().by_key.iter().all(|(_, evs)| {
            self.co_problem(g, ch, evs, &pp, &cause)
                .is_some_and(|cp| cp.partial_consistent())
        })
    }

    /// The coherence problem of one location (None: a violation found while building it).
    fn co_problem(
        &self,
        g: &Graph,
        _ch: &Checker,
        evs: &[EvId],
        pp: &Rel,
        cause: &Rel,
    ) -> Option<CoProblem> {
        let writes: Vec<EvId> = evs
            .iter()
            .copied()
            .filter(|&e| g.ev[e].mem().is_some_and(|m| m.write && m.wval.is_some()))
            .collect();
        let idx = |e: EvId| writes.iter().position(|&w| w == e);
        let mut cp = CoProblem {
            writes: writes.clone(),
            ..Default::default()
        };
        let mem = |e: EvId| g.ev[e].mem().unwrap();
        for (i, &a) in writes.iter().enumerate() {
            for (j, &b) in writes.iter().enumerate() {
                if i < j && mem(a).overlaps(mem(b)) {
                    let ms =
                        morally_strong(&g.ev[a], &g.ev[b]) || mixed_atomics(&g.ev[a], &g.ev[b]);
                    if ms || cause.has(a, b) || cause.has(b, a) {
                        cp.must_order.push((i, j));
                    }
                }
                if i != j && cause.has(a, b) && mem(a).overlaps(mem(b)) {
                    cp.req.push((i, j));
                }
            }
        }
        for &r in evs {
            let mr = mem(r);
            let Some(pieces) = &mr.rf else { continue };
            if !mr.read {
                continue;
            }
            let src_idx = |s: Src| match s {
                Src::Init => Some(INIT),
                Src::Ev(w) => idx(w),
            };
            // Causality 1: "If a read R precedes an overlapping write W in causality order, then
            // R cannot read from W."
            for pc in pieces {
                if let Src::Ev(w) = pc.src {
                    if pp.has(r, w) {
                        return None;
                    }
                }
            }
            // Causality 2: "If a write W precedes an overlapping read R in causality order, then
            // for any byte accessed by both R and W, R cannot read from any write W' that
            // precedes W in coherence order."
            for &w in &writes {
                if w == r || !cause.has(w, r) {
                    continue;
                }
                let mw = mem(w);
                for pc in pieces {
                    let (lo, hi) = (mr.off + pc.lo as u32, mr.off + pc.hi as u32);
                    if hi <= mw.off || mw.off + mw.size as u32 <= lo || pc.src == Src::Ev(w) {
                        continue;
                    }
                    match src_idx(pc.src) {
                        Some(INIT) => return None,
                        Some(s) => cp.forbid.push((s, idx(w).unwrap())),
                        None => {}
                    }
                }
            }
            // Atomicity of RMWs: "A reads any byte from a write W' that precedes W in coherence
            // order. A follows W in coherence order." cannot both hold for a morally strong W.
            if mr.atomic && mr.write {
                if let Some(ai) = idx(r) {
                    for pc in pieces {
                        let Some(s) = src_idx(pc.src) else { continue };
                        for (wi, &w) in writes.iter().enumerate() {
                            if w == r
                                || Some(wi) == Some(s)
                                || !(morally_strong(&g.ev[w], &g.ev[r])
                                    || mixed_atomics(&g.ev[w], &g.ev[r]))
                            {
                                continue;
                            }
                            cp.atomic.push((s, wi, ai));
                        }
                    }
                }
            }
            // Single-copy atomicity: a morally strong read does not read some bytes from W and
            // others from a write before W.
            if pieces.len() > 1 {
                for p1 in pieces {
                    let Src::Ev(w1) = p1.src else { continue };
                    if !morally_strong(&g.ev[w1], &g.ev[r]) {
                        continue;
                    }
                    for p2 in pieces {
                        if p2.src == p1.src {
                            continue;
                        }
                        match src_idx(p2.src) {
                            Some(INIT) => return None,
                            Some(s) => cp.forbid.push((s, idx(w1).unwrap())),
                            None => {}
                        }
                    }
                }
            }
            cp.reads
                .push((r, pieces.iter().filter_map(|p| src_idx(p.src)).collect()));
        }
        Some(cp)
    }
}

/// PTX ISA §8.7.2 "Atomicity of mixed-size RMW operations": "for every pair of overlapping
/// atomic operations A1 and A2 such that each specifies a scope that includes the other: Either
/// the read-modify-write operation specified by A1 is performed completely before A2 is
/// initiated, or vice versa … irrespective of whether the two operations A1 and A2 overlap
/// partially or completely."
fn mixed_atomics(a: &Event, b: &Event) -> bool {
    let (Some(ma), Some(mb)) = (a.mem(), b.mem()) else {
        return false;
    };
    let rmw = |m: &Mem| m.atomic && m.read && m.write;
    let scopes = match (ma.order.scope, mb.order.scope) {
        (Some(x), Some(y)) => {
            super::graph::includes(x, &a.place, &b.place)
                && super::graph::includes(y, &b.place, &a.place)
        }
        _ => false,
    };
    rmw(ma)
        && rmw(mb)
        && ma.overlaps(mb)
        && ma.proxy == mb.proxy
        && (scopes || a.thread == b.thread)
}

fn mask(size: u8) -> u64 {
    if size >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * size as u32)) - 1
    }
}

/// The value an RMW writes (PTX ISA §9.7.13.5 `atom`), at the access's width; `None` for a
/// half-precision float operation (not modelled).
pub fn rmw_value(r: super::op::Rmw, old: u64, size: u8) -> Option<u64> {
    use super::op::Float;
    if let Some(f) = r.float {
        let (o, a) = (old, r.a);
        return match (f, r.op) {
            (Float::F32, op) => {
                let (x, y) = (f32::from_bits(o as u32), f32::from_bits(a as u32));
                let z = match op {
                    RmwOp::Add => x + y,
                    RmwOp::Min => x.min(y),
                    RmwOp::Max => x.max(y),
                    RmwOp::Exch => y,
                    _ => return None,
                };
                Some(z.to_bits() as u64)
            }
            (Float::F64, op) => {
                let (x, y) = (f64::from_bits(o), f64::from_bits(a));
                let z = match op {
                    RmwOp::Add => x + y,
                    RmwOp::Min => x.min(y),
                    RmwOp::Max => x.max(y),
                    RmwOp::Exch => y,
                    _ => return None,
                };
                Some(z.to_bits())
            }
            _ => None,
        };
    }
    Some(int_rmw(r, old, size))
}

fn int_rmw(r: super::op::Rmw, old: u64, size: u8) -> u64 {
    let bits = 8 * size as u32;
    let sx = |v: u64| -> i64 {
        if bits >= 64 {
            v as i64
        } else {
            ((v << (64 - bits)) as i64) >> (64 - bits)
        }
    };
    let m = mask(size);
    let (old, a, b) = (old & m, r.a & m, r.b & m);
    match r.op {
        RmwOp::Add => old.wrapping_add(a),
        RmwOp::Sub => old.wrapping_sub(a),
        RmwOp::Inc => {
            if old >= a {
                0
            } else {
                old + 1
            }
        }
        RmwOp::Dec => {
            if old == 0 || old > a {
                a
            } else {
                old - 1
            }
        }
        RmwOp::And => old & a,
        RmwOp::Or => old | a,
        RmwOp::Xor => old ^ a,
        RmwOp::Min => {
            if r.signed {
                if sx(old) <= sx(a) {
                    old
                } else {
                    a
                }
            } else {
                old.min(a)
            }
        }
        RmwOp::Max => {
            if r.signed {
                if sx(old) >= sx(a) {
                    old
                } else {
                    a
                }
            } else {
                old.max(a)
            }
        }
        RmwOp::Exch => a,
        RmwOp::Cas => {
            if old == a {
                b
            } else {
                old
            }
        }
    }
}

/// The state of the search for Fence-SC orders of one execution.
struct ScSearch {
    acc: Option<Full>,
    cands: Vec<(EvId, EvId)>,
    need_terms: bool,
}

/// What the full check of a complete execution found (merged over the Fence-SC orders examined).
struct Full {
    /// Flags found by the full check (mbarrier misuse).
    flags: Vec<(String, String)>,
    finals: Vec<Vec<BTreeSet<u64>>>,
    races: Vec<(EvId, EvId, bool)>,
    sync: Vec<(EvId, EvId, SyncKind)>,
    co: Vec<(EvId, EvId)>,
    /// Per location key, the coherence-maximal writes of the first solution (for fairness).
    maximal: BTreeMap<LocKey, Vec<EvId>>,
}

impl<'w, P: Program, O: FnMut(&Leaf<P>)> Explorer<'w, P, O> {
    fn leaf(&mut self, st: State<P>) {
        let trace = std::env::var_os("PTX_SYNC_TRACE").is_some();
        if trace {
            eprintln!(
                "leaf: {} events, statuses {:?}",
                st.g.ev.len(),
                st.th.iter().map(|t| t.status.clone()).collect::<Vec<_>>()
            );
        }
        if trace {
            for (i, e) in st.g.ev.iter().enumerate() {
                eprintln!(
                    "  e{i} P{} ord {} `{}` {:?}",
                    e.thread,
                    e.ord,
                    e.at.text,
                    e.mem().map(|m| (m.key, m.rf.clone(), m.wval))
                );
            }
            eprintln!("  sync {:?} issued {:?}", st.g.sync, st.g.issued);
        }
        // A read left waiting outside any loop never gets its write: not an execution.
        if st.th.iter().any(|th| {
            !th.pending.is_empty()
                && th.status != Status::Stopped
                && th.heads.is_empty()
                && !self.may_loop(th)
        }) {
            return;
        }
        let Some(full) = self.full(&st) else {
            if trace {
                eprintln!("  inconsistent");
            }
            return;
        };
        let mut hangs: Vec<String> = Vec::new();
        let mut blocked = vec![false; st.th.len()];
        for (t, th) in st.th.iter().enumerate() {
            if !th.pending.is_empty() {
                match self.probe(&st, t, &full) {
                    Some(line) => {
                        hangs.push(line);
                        blocked[t] = true;
                    }
                    // Reading the coherence-last writes lets it go on: not a fair end.
                    None => return,
                }
                continue;
            }
            match &th.status {
                Status::Bar(e) => {
                    let (id, count) = match st.g.ev[*e].kind {
                        Kind::Bar { id, count, .. } => (id, count),
                        _ => (0, None),
                    };
                    let who = match count {
                        Some(c) => format!("{c} threads"),
                        None => "every thread of its CTA".to_string(),
                    };
                    hangs.push(format!(
                        "{} waits at barrier {id} for {who}: it never completes",
                        describe(&st.g, *e)
                    ));
                    blocked[t] = true;
                }
                Status::Run => {
                    if let Some((_, Step::Op(op, at, _))) = &th.front {
                        let what = match op {
                            Op::ClusterWait => "the cluster barrier phase never completes",
                            Op::WaitGroup { .. } => "the async copies it waits for never complete",
                            _ => "it can never continue",
                        };
                        hangs.push(format!("P{t} `{}` (line {}): {what}", at.text, at.line));
                        blocked[t] = true;
                    } else if !th.join_first.is_empty() {
                        hangs.push(format!("P{t}: cp.async.mbarrier.arrive never arrives"));
                        blocked[t] = true;
                    }
                }
                _ => {}
            }
        }
        if st.th.iter().any(|th| th.status == Status::Cut) {
            self.summary.cut += 1;
            return;
        }
        self.summary.executions += 1;
        for h in hangs {
            self.summary.hangs.insert(h);
        }
        let mut all_flags = st.flags.clone();
        all_flags.extend(full.flags.iter().cloned());
        for f in &all_flags {
            self.summary.flags.insert(f.clone());
        }
        let threads: Vec<Option<&P>> = (0..self.nreal)
            .map(|t| {
                let th = &st.th[t];
                match (&th.status, &th.front) {
                    (Status::Done, Some((Prog::User(p), _))) if !blocked[t] => Some(p),
                    _ => None,
                }
            })
            .collect();
        let leaf = Leaf {
            graph: &st.g,
            threads,
            finals: full.finals,
            races: full.races,
            sync: full.sync,
            co: full.co,
            flags: &all_flags,
        };
        (self.observe)(&leaf);
    }

    /// Whether the thread may still loop (only then can a read left pending at the end be a
    /// spin that waits for ever).
    fn may_loop(&self, th: &Th<P>) -> bool {
        match &th.snap {
            Prog::User(p) => p.may_loop(),
            Prog::Async(_) => false,
        }
    }

    /// A thread left with a pending read at the end: run it on with the coherence-last values.
    /// `Some(description)` if it then spins for ever (a hang in a fair execution), `None` if it
    /// would go on (this end is not fair).
    fn probe(&self, st: &State<P>, t: usize, full: &Full) -> Option<String> {
        let mut th = st.th[t].clone();
        let layout = &self.world.layout;
        let value_of = |m: &Mem| -> Reply {
            let mut v = 0u64;
            for b in 0..m.size as u32 {
                let at = m.off + b;
                let w = full.maximal.get(&m.key).and_then(|ws| {
                    ws.iter().copied().find(|&w| {
                        let wm = st.g.ev[w].mem().unwrap();
                        wm.off <= at && at < wm.off + wm.size as u32
                    })
                });
                let byte = match w {
                    Some(w) => {
                        let wm = st.g.ev[w].mem().unwrap();
                        match wm.wval {
                            Some(Value::Mbar(s)) => {
                                return match m.mbar {
                                    Some(MbarAct::WaitParity(p)) => Reply::Pred(s.wait_parity(p)),
                                    Some(MbarAct::WaitState(k)) => {
                                        Reply::Pred(s.wait_token(k).unwrap_or(false))
                                    }
                                    _ => Reply::Value(0),
                                }
                            }
                            Some(val) => val.byte(at - wm.off),
                            None => 0,
                        }
                    }
                    None => layout.vars[m.key.0 as usize]
                        .init
                        .get(at as usize)
                        .copied()
                        .unwrap_or(0),
                };
                v |= (byte as u64) << (8 * b);
            }
            Reply::Value(v)
        };
        let first = th.pending.first()?.clone();
        let at = st.g.ev[first.ev].at.clone();
        for p in th.pending.clone() {
            let m = st.g.ev[p.ev].mem().unwrap();
            if m.write {
                return None; // a pending RMW would write: progress
            }
            let k = (p.ord - th.snap_ord) as usize;
            th.ahead[k].1 = Some(value_of(m));
        }
        th.pending.clear();
        th.advance_snap();
        th.refront();
        let (mut prog, mut step) = th.front.take()?;
        let mut heads = th.heads.clone();
        for _ in 0..256 {
            match step {
                Step::LoopHead { head, .. } => {
                    let fp = prog.fingerprint();
                    if heads
                        .get(&head)
                        .is_some_and(|&(f, imp)| f == fp && imp == th.impure)
                    {
                        return Some(format!(
                            "P{t} `{}` (line {}): the loop can wait for ever (its reads see the last writes and it does not exit)",
                            at.text, at.line
                        ));
                    }
                    heads.insert(head, (fp, th.impure));
                }
                Step::Op(Op::Load(acc), ..) => {
                    let Ok((key, off, _, _)) = self.locate(st, t, acc.space, acc.addr, acc.size)
                    else {
                        return None;
                    };
                    let m = Mem {
                        key,
                        off,
                        size: acc.size,
                        vaddr: 0,
                        shared: false,
                        proxy: acc.proxy,
                        order: acc.order,
                        read: true,
                        write: false,
                        atomic: false,
                        red: false,
                        rmw: None,
                        mbar: None,
                        wval: None,
                        rf: None,
                        rval: None,
                    };
                    prog.resume(value_of(&m));
                }
                Step::Op(
                    Op::Mbar {
                        space,
                        addr,
                        op: op @ (MbarOp::WaitParity { .. } | MbarOp::WaitState { .. }),
                        ..
                    },
                    ..,
                ) => {
                    let Ok((key, off, _, _)) = self.locate(st, t, space, addr, 8) else {
                        return None;
                    };
                    let mbar = Some(match op {
                        MbarOp::WaitParity { parity, .. } => MbarAct::WaitParity(parity),
                        MbarOp::WaitState { state, .. } => MbarAct::WaitState(state & 0xffff_ffff),
                        _ => unreachable!(),
                    });
                    let m = Mem {
                        key,
                        off,
                        size: 8,
                        vaddr: 0,
                        shared: true,
                        proxy: Proxy::Generic,
                        order: Order::WEAK,
                        read: true,
                        write: false,
                        atomic: false,
                        red: false,
                        rmw: None,
                        mbar,
                        wval: None,
                        rf: None,
                        rval: None,
                    };
                    prog.resume(value_of(&m));
                }
                Step::Op(Op::Fence(..) | Op::ProxyFence(_), ..) => prog.resume(Reply::None),
                Step::Op(Op::Clock, ..) => {
                    prog.resume(Reply::Value(th.clock.unwrap_or(1 << 32)));
                }
                _ => return None,
            }
            step = prog.step();
        }
        None
    }

    /// The full check of a complete execution: some Fence-SC order and some coherence order
    /// satisfy every axiom. Merges what every such order allows when the final values or new
    /// races depend on it.
    fn full(&mut self, st: &State<P>) -> Option<Full> {
        let t0 = std::time::Instant::now();
        let r = self.full_inner(st);
        self.stats.0 += 1;
        self.stats.1 += t0.elapsed().as_secs_f64();
        r
    }

    fn full_inner(&mut self, st: &State<P>) -> Option<Full> {
        let map = self.cluster_of_cta.clone();
        let cl = move |c: u32| map.get(&c).copied().unwrap_or(c);
        let ch = Checker::new(&st.g, &cl);
        let pairs = ch.sc_pairs();
        let bco0 = ch.bco(&[]);
        if bco0.reflexive_somewhere() {
            return None;
        }
        // Races that some Fence-SC order might leave: those under the smallest causality order
        // that no earlier execution reported. The search below looks for an order that keeps
        // each of them unordered, and stops as soon as one consistent order is known and no
        // candidate (nor a final value) can still come out differently.
        let (_, cause0) = ch.cause(&bco0);
        let cands: Vec<(EvId, EvId)> = self
            .races(&st.g, &ch, &cause0)
            .into_iter()
            .map(|(a, b, _)| (a, b))
            .filter(|p| !self.known_races.contains(p))
            .collect();
        let mut free: Vec<(EvId, EvId)> = pairs
            .into_iter()
            .filter(|&(a, b)| !bco0.has(a, b) && !bco0.has(b, a))
            .collect();
        free.sort_unstable();
        let quick = self.derive_sc(&st.g, &ch, &free)?;
        // When one consistent order settles everything (no new race to look for, no final value
        // asked), try a linear extension of the derived edges first.
        if cands.is_empty() && self.terms.is_empty() {
            let edges = self.linear_sc(&ch, &free, &quick);
            let bco = ch.bco(&edges);
            if !bco.reflexive_somewhere() {
                if let Some(f) = self.evaluate(st, &ch, &bco, &edges) {
                    return Some(f);
                }
            }
        }
        let forced = self.probe_sc(&st.g, &ch, &free)?;
        let mut search = ScSearch {
            acc: None,
            cands,
            need_terms: !self.terms.is_empty(),
        };
        let mut edges: Vec<(EvId, EvId)> = forced;
        self.sc_dfs(st, &ch, &free, 0, &mut edges, &mut search);
        if let Some(a) = &search.acc {
            for &(x, y, _) in &a.races {
                self.known_races.insert((x, y));
            }
        }
        search.acc
    }

    /// Failed-literal probing of the Fence-SC order: an orientation of a pair that alone breaks a
    /// necessary condition forces the other one in every consistent order. Repeats until nothing
    /// changes. `None`: no Fence-SC order can be consistent.
    fn probe_sc(
        &self,
        g: &Graph,
        ch: &Checker,
        free: &[(EvId, EvId)],
    ) -> Option<Vec<(EvId, EvId)>> {
        let mut forced: Vec<(EvId, EvId)> = Vec::new();
        loop {
            let base = ch.bco(&forced);
            if !self.necessary(g, ch, &base) {
                return None;
            }
            let mut changed = false;
            for &(a, b) in free {
                if base.has(a, b) || base.has(b, a) {
                    continue;
                }
                let ok = |x: EvId, y: EvId| {
                    let mut e = forced.clone();
                    e.push((x, y));
                    self.necessary(g, ch, &ch.bco(&e))
                };
                match (ok(a, b), ok(b, a)) {
                    (false, false) => return None,
                    (true, false) => forced.push((a, b)),
                    (false, true) => forced.push((b, a)),
                    (true, true) => continue,
                }
                changed = true;
                break;
            }
            if !changed {
                return Some(forced);
            }
        }
    }

    /// Whether some Fence-SC order may still be consistent (probing only).
    fn sc_feasible(&self, g: &Graph) -> bool {
        let cl = |c: u32| self.cluster_of_cta.get(&c).copied().unwrap_or(c);
        let ch = Checker::new(g, &cl);
        let bco0 = ch.bco(&[]);
        let free: Vec<(EvId, EvId)> = ch
            .sc_pairs()
            .into_iter()
            .filter(|&(a, b)| !bco0.has(a, b) && !bco0.has(b, a))
            .collect();
        free.is_empty() || self.derive_sc(g, &ch, &free).is_some()
    }

    /// Fence-SC edges every consistent execution must have, derived from communication (a cheap
    /// fixpoint, like the `psc` relation of RC11): if `Fb` before `Fa` in Fence-SC order would put
    /// a write before a read that reads something coherence-before it (or a read before the write
    /// it reads from), then `Fa` precedes `Fb` (§8.9.4 makes Fence-SC order part of base
    /// causality order; §8.10.6 then forbids the communication). `None`: a cycle — no Fence-SC
    /// order can be consistent.
    fn derive_sc(
        &self,
        g: &Graph,
        ch: &Checker,
        free: &[(EvId, EvId)],
    ) -> Option<Vec<(EvId, EvId)>> {
        use super::bits::row_iter;
        let n = g.ev.len();
        // For each write W: the reads that read something coherence-before W (init sources only,
        // and sources causally before W under the smallest causality order).
        let bco0 = ch.bco(&[]);
        let (_, cause0) = ch.cause(&bco0);
        let mut frby = Rel::new(n);
        let mut rfrom: Vec<Vec<EvId>> = vec![Vec::new(); n];
        for (_, evs) in &ch.base().by_key {
            for &r in evs {
                let mr = g.ev[r].mem().unwrap();
                let Some(pieces) = (mr.read).then_some(mr.rf.as_ref()).flatten() else {
                    continue;
                };
                for &w in evs {
                    let mw = g.ev[w].mem().unwrap();
                    if w == r || !mw.write || mw.vaddr != mr.vaddr || !mw.overlaps(mr) {
                        continue;
                    }
                    if mw.proxy != Proxy::Generic || mr.proxy != Proxy::Generic {
                        continue;
                    }
                    for p in pieces {
                        match p.src {
                            Src::Init => frby.add(w, r),
                            Src::Ev(s) if s != w && cause0.has(s, w) => frby.add(w, r),
                            Src::Ev(s) if s == w => rfrom[r].push(w),
                            _ => {}
                        }
                    }
                }
            }
        }
        let mut forced: Vec<(EvId, EvId)> = Vec::new();
        loop {
            let bco = ch.bco(&forced);
            if bco.reflexive_somewhere() {
                return None;
            }
            // Per fence f: what precedes it (the reads too early for them, the writes they read
            // from, as sets) and what follows it.
            let fences: BTreeSet<EvId> = free.iter().flat_map(|&(a, b)| [a, b]).collect();
            let words = n.div_ceil(64).max(1);
            let mut fr_before: BTreeMap<EvId, Vec<u64>> = BTreeMap::new();
            let mut rf_before: BTreeMap<EvId, Vec<u64>> = BTreeMap::new();
            let mut after: BTreeMap<EvId, Vec<u64>> = BTreeMap::new();
            for &f in &fences {
                let mut frb = vec![0u64; words];
                let mut rfb = vec![0u64; words];
                for x in 0..n {
                    if !(x == f || bco.has(x, f)) || g.ev[x].mem().is_none() {
                        continue;
                    }
                    for (k, w) in frby.row(x).iter().enumerate() {
                        frb[k] |= w;
                    }
                    for &w in &rfrom[x] {
                        rfb[w / 64] |= 1 << (w % 64);
                    }
                }
                let mut a: Vec<u64> = bco.row(f).to_vec();
                a[f / 64] |= 1 << (f % 64);
                fr_before.insert(f, frb);
                rf_before.insert(f, rfb);
                after.insert(f, a);
            }
            let hit = |x: &[u64], y: &[u64]| x.iter().zip(y).any(|(a, b)| a & b != 0);
            // Would `fb` before `fa` break something? (`fb`'s predecessors before `fa`'s successors.)
            let breaks = |fa: EvId, fb: EvId| -> bool {
                hit(&fr_before[&fb], &after[&fa]) || hit(&rf_before[&fb], &after[&fa])
            };
            let _ = row_iter;
            let mut changed = false;
            for &(a, b) in free {
                if bco.has(a, b) || bco.has(b, a) {
                    continue;
                }
                match (breaks(a, b), breaks(b, a)) {
                    (true, true) => return None,
                    (true, false) => forced.push((a, b)),
                    (false, true) => forced.push((b, a)),
                    (false, false) => continue,
                }
                changed = true;
            }
            if !changed {
                return Some(forced);
            }
        }
    }

    /// A total Fence-SC order extending base causality order and `forced`: the fences in a
    /// topological order of (bco ∪ forced), as edges between consecutive morally strong pairs.
    fn linear_sc(
        &self,
        ch: &Checker,
        free: &[(EvId, EvId)],
        forced: &[(EvId, EvId)],
    ) -> Vec<(EvId, EvId)> {
        let bco = ch.bco(forced);
        let mut edges = forced.to_vec();
        for &(a, b) in free {
            if bco.has(a, b) || bco.has(b, a) {
                continue;
            }
            // Order unrelated pairs by a fixed rule consistent with bco: count predecessors.
            let pa = (0..bco.n()).filter(|&x| bco.has(x, a)).count();
            let pb = (0..bco.n()).filter(|&x| bco.has(x, b)).count();
            if (pa, a) < (pb, b) {
                edges.push((a, b));
            } else {
                edges.push((b, a));
            }
        }
        edges
    }

    /// Depth-first over the orientations of the unordered pairs of morally strong `fence.sc`
    /// (§8.9.3). Returns false to stop the whole search.
    fn sc_dfs(
        &mut self,
        st: &State<P>,
        ch: &Checker,
        free: &[(EvId, EvId)],
        i: usize,
        edges: &mut Vec<(EvId, EvId)>,
        search: &mut ScSearch,
    ) -> bool {
        let bco = ch.bco(edges);
        if bco.reflexive_somewhere() {
            return true;
        }
        if search.acc.is_some() && !search.need_terms {
            // Orders only grow: a candidate ordered now stays ordered below.
            let open = search
                .cands
                .iter()
                .any(|&(a, b)| !ch.cause_pair(&bco, a, b) && !ch.cause_pair(&bco, b, a));
            if !open {
                return true;
            }
        }
        let mut j = i;
        while j < free.len() && (bco.has(free[j].0, free[j].1) || bco.has(free[j].1, free[j].0)) {
            j += 1;
        }
        if j == free.len() {
            if let Some(f) = self.evaluate(st, ch, &bco, edges) {
                search
                    .cands
                    .retain(|&(a, b)| !f.races.iter().any(|&(x, y, _)| (x, y) == (a, b)));
                match &mut search.acc {
                    None => search.acc = Some(f),
                    Some(a) => {
                        for alt in f.finals {
                            if !a.finals.contains(&alt) {
                                a.finals.push(alt);
                            }
                        }
                        for r in f.races {
                            if !a.races.contains(&r) {
                                a.races.push(r);
                            }
                        }
                        for x in f.flags {
                            if !a.flags.contains(&x) {
                                a.flags.push(x);
                            }
                        }
                    }
                }
            }
            return search.need_terms || !search.cands.is_empty() || search.acc.is_none();
        }
        let (a, b) = free[j];
        for (x, y) in [(a, b), (b, a)] {
            edges.push((x, y));
            let go = self.sc_dfs(st, ch, free, j + 1, edges, search);
            edges.pop();
            if !go {
                return false;
            }
        }
        true
    }

    /// The data races under causality order `cause` (PTX ISA §8.7.1: "Two conflicting memory
    /// operations are said to be in a data-race if they are not related in causality order and
    /// they are not morally strong.").
    fn races(&self, g: &Graph, ch: &Checker, cause: &Rel) -> Vec<(EvId, EvId, bool)> {
        let mut v = Vec::new();
        for (_, evs) in &ch.base().by_key {
            for (i, &a) in evs.iter().enumerate() {
                for &b in &evs[i + 1..] {
                    let (ma, mb) = (g.ev[a].mem().unwrap(), g.ev[b].mem().unwrap());
                    if !ma.overlaps(mb) || !(ma.write || mb.write) {
                        continue;
                    }
                    if ma.rf.is_none() && ma.read && !ma.write
                        || mb.rf.is_none() && mb.read && !mb.write
                    {
                        continue;
                    }
                    if morally_strong(&g.ev[a], &g.ev[b]) || cause.has(a, b) || cause.has(b, a) {
                        continue;
                    }
                    v.push((a.min(b), a.max(b), !ma.same_bytes(mb)));
                }
            }
        }
        v
    }

    /// Checks one complete execution with a Fence-SC order: coherence per location, races, final
    /// values.
    fn evaluate(
        &self,
        st: &State<P>,
        ch: &Checker,
        bco: &Rel,
        sc: &[(EvId, EvId)],
    ) -> Option<Full> {
        let g = &st.g;
        let (pp, cause) = ch.cause(bco);
        if cause.reflexive_somewhere() {
            return None;
        }
        let mut finals: Vec<BTreeSet<u64>> = vec![BTreeSet::new(); self.terms.len()];
        let mut flags: Vec<(String, String)> = Vec::new();
        let mut co_pairs = Vec::new();
        let mut maximal = BTreeMap::new();
        let layout = &self.world.layout;
        for (key, evs) in &ch.base().by_key {
            let cp = self.co_problem(g, ch, evs, &pp, &cause)?;
            let terms: Vec<(usize, LocTerm)> = self
                .terms
                .iter()
                .copied()
                .enumerate()
                .filter(|(_, tm)| (tm.var, tm.cta) == *key)
                .collect();
            let mut first: Option<Rel> = None;
            let mut vals: Vec<BTreeSet<u64>> = vec![BTreeSet::new(); terms.len()];
            cp.solve(&mut |co: &Rel| {
                if !sc_per_location(g, &cp, co) {
                    return true;
                }
                if first.is_none() {
                    first = Some(co.clone());
                }
                for (k, (_, tm)) in terms.iter().enumerate() {
                    vals[k].extend(final_values(g, &cp, co, tm, layout));
                }
                !terms.is_empty()
            });
            let co = first?;
            // §9.7.13.15.9: "The behavior of performing an mbarrier.init operation on a memory
            // location containing a valid mbarrier object is undefined"; a plain write over a
            // valid object is the same misuse (§9.7.13.15.3: it "must be invalidated to
            // repurpose its memory").
            for (i, &w) in cp.writes.iter().enumerate() {
                let mw = g.ev[w].mem().unwrap();
                if !(mw.mbar.is_none() || matches!(mw.mbar, Some(MbarAct::Init(_)))) {
                    continue;
                }
                let over_valid = (0..cp.writes.len()).any(|j| {
                    co.has(j, i)
                        && !(0..cp.writes.len()).any(|k| co.has(j, k) && co.has(k, i))
                        && matches!(g.ev[cp.writes[j]].mem().unwrap().wval, Some(Value::Mbar(_)))
                });
                if over_valid {
                    let e = &g.ev[w];
                    flags.push((
                        "mbarrier-misuse".to_string(),
                        format!(
                            "P{} `{}` (line {}): writes over a valid mbarrier object",
                            e.thread, e.at.text, e.at.line
                        ),
                    ));
                }
            }
            for (i, &a) in cp.writes.iter().enumerate() {
                for (j, &b) in cp.writes.iter().enumerate() {
                    if co.has(i, j) {
                        co_pairs.push((a, b));
                    }
                }
            }
            let maxw: Vec<EvId> = (0..cp.writes.len())
                .filter(|&i| !(0..cp.writes.len()).any(|j| co.has(i, j)))
                .map(|i| cp.writes[i])
                .collect();
            maximal.insert(*key, maxw);
            for (k, (ti, _)) in terms.iter().enumerate() {
                finals[*ti] = std::mem::take(&mut vals[k]);
            }
        }
        // Terms on locations nobody accessed keep their initial value.
        for (ti, tm) in self.terms.iter().enumerate() {
            if finals[ti].is_empty() {
                let mut v = 0u64;
                for b in 0..tm.size as u32 {
                    let byte = layout.vars[tm.var as usize]
                        .init
                        .get((tm.off + b) as usize)
                        .copied()
                        .unwrap_or(0);
                    v |= (byte as u64) << (8 * b);
                }
                finals[ti].insert(v);
            }
        }
        let races = self.races(g, ch, &cause);
        let mut sync = ch.base().sw.clone();
        sync.extend(sc.iter().map(|&(a, b)| (a, b, SyncKind::FenceSc)));
        Some(Full {
            flags,
            finals: vec![finals],
            races,
            sync,
            co: co_pairs,
            maximal,
        })
    }
}

/// Sequential Consistency per Location (PTX ISA §8.10.5): "a concatenation of program order
/// between overlapping operations and morally strong relations in communication order cannot
/// result in a cycle", for a coherence order `co` of the location's writes.
fn sc_per_location(g: &Graph, cp: &CoProblem, co: &Rel) -> bool {
    // Nodes: the writes, then the reads.
    let mut nodes: Vec<EvId> = cp.writes.clone();
    for (r, _) in &cp.reads {
        if !nodes.contains(r) {
            nodes.push(*r);
        }
    }
    let n = nodes.len();
    let pos = |e: EvId| nodes.iter().position(|&x| x == e);
    let mut rel = Rel::new(n);
    let mem = |e: EvId| g.ev[e].mem().unwrap();
    for i in 0..n {
        for j in 0..n {
            if i != j && g.po_before(nodes[i], nodes[j]) && mem(nodes[i]).overlaps(mem(nodes[j])) {
                rel.add(i, j);
            }
        }
    }
    let ms = |a: EvId, b: EvId| morally_strong(&g.ev[a], &g.ev[b]);
    for (i, &a) in cp.writes.iter().enumerate() {
        for (j, &b) in cp.writes.iter().enumerate() {
            if co.has(i, j) && ms(a, b) {
                rel.add(i, j);
            }
        }
    }
    for (r, srcs) in &cp.reads {
        let ri = pos(*r).unwrap();
        let mr = mem(*r);
        for &s in srcs {
            if s != INIT {
                let w = cp.writes[s];
                if w != *r && ms(w, *r) {
                    rel.add(s, ri);
                }
            }
            // from-reads: r → every morally strong write after its source.
            for (j, &w) in cp.writes.iter().enumerate() {
                if w == *r || !ms(*r, w) || !mr.overlaps(mem(w)) {
                    continue;
                }
                let after = if s == INIT { true } else { co.has(s, j) };
                if after {
                    rel.add(ri, j);
                }
            }
        }
    }
    rel.acyclic()
}

/// The values a location term may end with under coherence order `co`: the coherence-last
/// writes covering it (PTX ISA §8.9.6; a location whose last writes race keeps either value).
fn final_values(g: &Graph, cp: &CoProblem, co: &Rel, tm: &LocTerm, layout: &Layout) -> Vec<u64> {
    let covers = |w: EvId, b: u32| {
        let m = g.ev[w].mem().unwrap();
        m.off <= b && b < m.off + m.size as u32
    };
    // Per byte, the maximal writes covering it.
    let mut per_byte: Vec<Vec<u8>> = Vec::new();
    let mut whole: Option<Vec<u64>> = Some(Vec::new());
    let mut max_sets: Vec<Vec<usize>> = Vec::new();
    for b in tm.off..tm.off + tm.size as u32 {
        let cands: Vec<usize> = (0..cp.writes.len())
            .filter(|&i| covers(cp.writes[i], b))
            .collect();
        let maxes: Vec<usize> = cands
            .iter()
            .copied()
            .filter(|&i| !cands.iter().any(|&j| co.has(i, j)))
            .collect();
        let mut vals = Vec::new();
        if maxes.is_empty() {
            vals.push(
                layout.vars[tm.var as usize]
                    .init
                    .get(b as usize)
                    .copied()
                    .unwrap_or(0),
            );
        }
        for &i in &maxes {
            let m = g.ev[cp.writes[i]].mem().unwrap();
            vals.push(m.wval.map_or(0, |v| v.byte(b - m.off)));
        }
        per_byte.push(vals);
        max_sets.push(maxes);
    }
    // Same-size last writes: no tearing — one value per write.
    if max_sets.iter().all(|s| s == &max_sets[0]) && !max_sets[0].is_empty() {
        for &i in &max_sets[0] {
            let m = g.ev[cp.writes[i]].mem().unwrap();
            let mut v = 0u64;
            for (k, b) in (tm.off..tm.off + tm.size as u32).enumerate() {
                v |= (m.wval.map_or(0, |x| x.byte(b - m.off)) as u64) << (8 * k);
            }
            whole.as_mut().unwrap().push(v);
        }
        return whole.unwrap();
    }
    let mut out = vec![0u64];
    for (k, vals) in per_byte.iter().enumerate() {
        let mut next = Vec::new();
        for &o in &out {
            for &b in vals {
                next.push(o | (b as u64) << (8 * k));
            }
        }
        next.sort_unstable();
        next.dedup();
        out = next;
    }
    out
}
