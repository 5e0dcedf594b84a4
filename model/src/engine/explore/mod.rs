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
use super::graph::{EvId, Event, Graph, Kind, LocKey, MbarAct, Mem, Piece, Shared, Src, Value};
use super::mbar::{MbarError, MbarState};
use super::op::{
    Access, At, Completion, Layout, MbarOp, Op, Order, Place, Program, Reply, Space, Step, Val,
};
use crate::ast::{BarKind, Proxy, RmwOp, Scope, Sem};
use std::collections::{BTreeMap, BTreeSet};

mod leaf;
mod par;
mod perform;
mod probe;
mod resolve;
mod scorder;
mod values;
pub use par::{merge_first, Earliest, First, Pos};
pub use values::rmw_value;
use values::*;

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
    /// Most exploration steps before the test is reported as too large (each thread of the
    /// exploration counts its own).
    pub max_steps: u64,
    /// Threads that explore together: `PTX_SYNC_JOBS`, else the cores this process may use
    /// (1: this thread only). The results do not depend on it (`model/SEMANTICS.md` S9).
    pub jobs: usize,
    /// Steps after which the other threads start (a small check stays on one thread).
    pub spawn_after: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_events: 4096,
            max_steps: std::env::var("PTX_SYNC_MAX_STEPS")
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(5_000_000),
            jobs: std::env::var("PTX_SYNC_JOBS")
                .ok()
                .and_then(|s| s.parse().ok())
                .filter(|&j| j > 0)
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            spawn_after: 20_000,
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
    /// Where the execution lies in the exploration's depth-first order, the same with any number
    /// of threads: observers that keep "the first" of something keep the smallest.
    pub pos: Pos,
}

/// What sees each complete consistent execution ([`Explorer::run`]); a closure taking a
/// [`Leaf`] is one.
pub trait Observe<P> {
    /// Called with each complete consistent execution.
    fn leaf(&mut self, leaf: &Leaf<P>);
    /// Called once when this thread's part of the exploration is done, on that thread (work
    /// that can be done per thread before the parts are merged: ordering what was found).
    fn finish(&mut self) {}
}

impl<P, F: FnMut(&Leaf<P>)> Observe<P> for F {
    fn leaf(&mut self, leaf: &Leaf<P>) {
        self(leaf)
    }
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
    /// Set when `unsupported` is a limit of [`Limits`] (steps or events): what was found
    /// before it (each leaf a complete consistent execution) still holds.
    pub limit: bool,
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
    /// Loop head → (fingerprint, impure-event count, reads issued) when last there.
    /// (`true`: recorded on entering the loop, before any iteration).
    heads: BTreeMap<usize, (u64, usize, u32, bool)>,
    /// Reads issued so far (memory reads and mbarrier waits).
    nreads: u32,
    /// Set when the thread was stopped in a loop that can never exit: the hang's description.
    spin: Option<String>,
    /// Set when a clock read of this thread jumped past every time budget (a bounded wait may
    /// time out in this execution).
    jumped: bool,
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
            nreads: 0,
            spin: None,
            jumped: false,
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
    /// Wakes the thread waiting at a barrier or an mbarrier with `reply`: the waiting op is the
    /// last in `ahead` (nothing runs past a wait), its reply is known, the thread runs on.
    fn wake(&mut self, reply: Reply) {
        self.status = Status::Run;
        let last = self.ahead.len() - 1;
        self.ahead[last].1 = Some(reply);
        let (p, _) = self.front.as_mut().unwrap();
        p.resume(reply);
        let s = p.step();
        self.front.as_mut().unwrap().1 = s;
        self.advance_snap();
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

/// A lane at a warp collective: (thread, arrival event, the collective, member mask).
type WarpArrival = (usize, EvId, super::op::Warp, Val);

#[derive(Clone, Debug, Default)]
struct BarState {
    arrivals: Vec<EvId>,
    waiters: Vec<(usize, EvId)>,
    gen: u32,
}

#[derive(Clone)]
struct State<P> {
    g: Graph,
    th: Vec<Shared<Th<P>>>,
    bars: BTreeMap<(u32, u32, Option<u64>), BarState>,
    cbar: BTreeMap<(u32, u32), Vec<EvId>>,
    /// Warp collectives waiting for their lanes: (CTA, warp) → (thread, arrival, op, mask).
    warps: BTreeMap<(u32, u32), Vec<WarpArrival>>,
    warp_gen: BTreeMap<(u32, u32), u32>,
    /// Sequence number given to each write when its value becomes known.
    avail: BTreeMap<EvId, u64>,
    seq: u64,
    flags: Vec<(String, String)>,
    /// What the last partial check derived, for the leaf check of the same graph.
    checked: Option<std::rc::Rc<leaf::Checked>>,
}

enum Flow<P> {
    Go,
    Prune,
    Branch(Vec<State<P>>),
}

/// The explorer.
pub struct Explorer<'w, P: Program, O: Observe<P>> {
    world: &'w World,
    observe: O,
    terms: Vec<LocTerm>,
    limits: Limits,
    /// Results other than leaves.
    pub summary: Summary,
    nreal: usize,
    cluster_ctas: BTreeMap<u32, u32>,
    cta_of_rank: BTreeMap<(u32, u32), u32>,
    cluster_of_cta: std::rc::Rc<BTreeMap<u32, u32>>,
    rank_of_cta: BTreeMap<u32, u32>,
    known_races: BTreeSet<(EvId, EvId)>,
    abort: bool,
    _p: std::marker::PhantomData<fn() -> P>,
    /// (leaf checks, seconds, partial checks, seconds), for `PTX_SYNC_STATS`.
    stats: (u64, f64, u64, f64),
    /// Whether the checks are timed for `stats` (`PTX_SYNC_STATS` set: two clock reads per
    /// check otherwise cost about 1 % of a large check).
    timed: bool,
    /// Leaves dropped, by reason: [pending outside a loop, inconsistent, not a fair end, cut].
    dropped: [u64; 4],
    /// This thread's part of a parallel exploration.
    part: par::Part<'w>,
}

/// The clock jump that outlasts any budget (`model/SEMANTICS.md` S6).
pub const CLOCK_JUMP: Val = 1 << 40;

fn describe(g: &Graph, e: EvId) -> String {
    let ev = &g.ev[e];
    format!("P{} `{}` (line {})", ev.thread, ev.at.text, ev.at.line)
}

impl<'w, P: Program, O: Observe<P>> Explorer<'w, P, O> {
    /// Explores every execution of `threads` (one per place of `world`), calling `observe` on each
    /// complete consistent one; `terms` are the location terms whose final values are wanted.
    /// On this thread alone (`limits.jobs` is not used); see [`Explorer::run_jobs`].
    pub fn run(
        world: &'w World,
        threads: Vec<P>,
        terms: Vec<LocTerm>,
        limits: Limits,
        observe: O,
    ) -> Summary {
        let shared = par::Team::new();
        let part = par::Part::new(&shared, true, None);
        Explorer::run_part(world, threads, terms, limits, observe, part).0
    }

    /// One thread's part of an exploration (the whole of it for the primary when nobody helps).
    fn run_part(
        world: &'w World,
        threads: Vec<P>,
        terms: Vec<LocTerm>,
        limits: Limits,
        observe: O,
        part: par::Part<'w>,
    ) -> (Summary, O) {
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
            cluster_of_cta: std::rc::Rc::new(cluster_of_cta),
            rank_of_cta,
            known_races: BTreeSet::new(),
            abort: false,
            _p: std::marker::PhantomData,
            stats: (0, 0.0, 0, 0.0),
            timed: std::env::var_os("PTX_SYNC_STATS").is_some(),
            dropped: [0; 4],
            part,
        };
        let th: Vec<Shared<Th<P>>> = threads
            .into_iter()
            .zip(&world.places)
            .map(|(p, pl)| Shared::new(Th::new(Prog::User(p), *pl, None)))
            .collect();
        let mut st = State {
            g: Graph::default(),
            th,
            bars: BTreeMap::new(),
            cbar: BTreeMap::new(),
            warps: BTreeMap::new(),
            warp_gen: BTreeMap::new(),
            avail: BTreeMap::new(),
            seq: 0,
            flags: Vec::new(),
            checked: None,
        };
        st.g.po = vec![Shared::default(); nreal];
        for t in 0..nreal {
            st.th[t].refront();
        }
        ex.explore(st);
        if std::env::var_os("PTX_SYNC_STATS").is_some() {
            eprintln!(
                "steps {} executions {} leaf-checks {} ({:.3} s) partial-checks {} ({:.3} s) dropped leaves (pending outside a loop, inconsistent, not a fair end, cut) {:?}",
                ex.summary.steps,
                ex.summary.executions,
                ex.stats.0,
                ex.stats.1,
                ex.stats.2,
                ex.stats.3,
                ex.dropped
            );
        }
        ex.part.finish();
        ex.observe.finish();
        (ex.summary, ex.observe)
    }

    fn explore(&mut self, mut st: State<P>) {
        loop {
            if self.abort || self.part.stopped() {
                self.abort = true;
                return;
            }
            if self.part.idle() {
                return;
            }
            if !self.part.counts() {
                // A helper walking the part above the tasks: the primary counts those steps.
            } else if self.summary.steps == self.limits.spawn_after {
                self.summary.steps += 1;
                self.part.start_helpers();
            } else {
                self.summary.steps += 1;
            }
            if self.summary.steps > self.limits.max_steps {
                self.summary.unsupported = Some(format!(
                    "more than {} exploration steps (the test is too large)",
                    self.limits.max_steps
                ));
                self.summary.limit = true;
                self.abort = true;
                self.part.stop();
                return;
            }
            if st.g.ev.len() > self.limits.max_events {
                self.summary.unsupported = Some(format!(
                    "more than {} events in one execution",
                    self.limits.max_events
                ));
                self.summary.limit = true;
                self.abort = true;
                self.part.stop();
                return;
            }
            match self.advance(&mut st) {
                Some(Flow::Go) => continue,
                Some(Flow::Prune) => return,
                Some(Flow::Branch(v)) => {
                    self.children(v);
                    return;
                }
                None => break,
            }
        }
        // A thread outside any loop whose read waits for a write that can no longer come never
        // ends: not an execution (the leaf would drop it; dropped here, before the rest of the
        // threads are explored under it).
        if self.dead_wait(&st) {
            self.dropped[0] += 1;
            return;
        }
        // Nothing deterministic is left: a pending read chooses its write.
        if let Some((t, i)) = self.pick_pending(&st) {
            static TRACE2: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
            if *TRACE2.get_or_init(|| std::env::var_os("PTX_SYNC_TRACE2").is_some()) {
                let e = st.th[t].pending[i].ev;
                eprintln!(
                    "resolve P{t} `{}` ({} events, deferred {:?})",
                    st.g.ev[e].at.text,
                    st.g.ev.len(),
                    st.th[t].pending[i].deferred_at
                );
            }
            let v = self.resolutions(st, t, i);
            self.children(v);
            return;
        }
        if self.part.observes() {
            self.leaf(st);
        }
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
                    self.join_after(st, t, after, at);
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
                Step::LoopHead { head, at, entry } => {
                    if has_pending {
                        if entry {
                            // Entering a loop with reads still pending: the state is not
                            // compared (its values are not known yet); the thread runs on.
                            let th: &mut Th<P> = &mut st.th[t];
                            let (p, _) = th.front.as_mut().unwrap();
                            let s = p.step();
                            th.front.as_mut().unwrap().1 = s;
                            return Some(Flow::Go);
                        }
                        continue;
                    }
                    let th: &mut Th<P> = &mut st.th[t];
                    let fp = th.front.as_ref().unwrap().0.fingerprint();
                    if let Some(&(f0, imp0, reads0, _)) = th.heads.get(&head) {
                        if f0 == fp && imp0 == th.impure {
                            if reads0 == th.nreads {
                                // An iteration that read nothing and changed nothing (`bra` to
                                // itself; a loop whose only input is a clock that did not
                                // move) repeats for ever whatever the other threads do: a hang
                                // (SEMANTICS S6). The thread stops here.
                                th.spin = Some(format!(
                                    "P{t} `{}` (line {}): the loop can never exit (an iteration reads no memory and changes nothing)",
                                    at.text, at.line
                                ));
                                th.status = Status::Stopped;
                                return Some(Flow::Go);
                            }
                            // An iteration that changed nothing: explored already.
                            return Some(Flow::Prune);
                        }
                    }
                    th.heads.insert(head, (fp, th.impure, th.nreads, entry));
                    // A backward jump ends any vector instruction: the same store in the next
                    // iteration is a new program-order position, not another element.
                    th.prev_mem = None;
                    let (p, _) = th.front.as_mut().unwrap();
                    let s = p.step();
                    th.front.as_mut().unwrap().1 = s;
                    return Some(Flow::Go);
                }
                Step::Done => {
                    // A thread at its end whose only pending ops are `red`s (no value comes
                    // back) has exited: their writes are in the graph, only their place in
                    // coherence order is open. Any other pending read holds the thread back.
                    let reds_only = st.th[t]
                        .pending
                        .iter()
                        .all(|p| st.g.ev[p.ev].mem().is_some_and(|m| m.red));
                    if has_pending && !reds_only {
                        continue;
                    }
                    st.th[t].status = Status::Done;
                    // An exited thread no longer holds back a barrier that waits for the CTA.
                    let cta = st.th[t].place.cta;
                    if t < self.nreal && self.complete_bars(st, cta) {
                        return Some(Flow::Go);
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
                    self.part.stop();
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
        if matches!(&kind, Kind::Mem(m) if m.read) {
            st.th[t].nreads += 1;
        }
        let e = Event {
            thread: t,
            ord,
            place: st.th[t].place,
            kind,
            at,
        };
        let id = st.g.add(e);
        let th: &mut Th<P> = &mut st.th[t];
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
        let th: &mut Th<P> = &mut st.th[t];
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
        let (key, off, vaddr, shared) =
            self.locate_or_stop(st, t, acc.space, acc.addr, acc.size, at)?;
        Ok(Mem::access(
            key, off, acc.size, vaddr, shared, acc.proxy, acc.order,
        ))
    }

    /// [`Self::locate`], or thread `t` stopped with `Flag bad-address` naming `at` and why.
    fn locate_or_stop(
        &self,
        st: &mut State<P>,
        t: usize,
        space: Space,
        addr: Val,
        size: u8,
        at: &At,
    ) -> Result<(LocKey, u32, u32, bool), ()> {
        self.locate(st, t, space, addr, size)
            .map_err(|e| Self::bad_address(st, t, at, &e))
    }

    /// Stops thread `t` at `at` with `Flag bad-address` and the reason `why`.
    fn bad_address(st: &mut State<P>, t: usize, at: &At, why: &str) {
        let line = format!("P{t} `{}` (line {}): {why}", at.text, at.line);
        Self::stop(st, t, "bad-address", line);
    }

    /// Adds to thread `t` the end of a wait for `after` (an async group, a `cp.async` arrive's
    /// copies): a join event every one of them synchronizes with.
    fn join_after(&mut self, st: &mut State<P>, t: usize, after: Vec<EvId>, at: At) -> EvId {
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
        ev
    }
}
