//! Complete executions: the full check (Fence-SC and coherence orders), races, final values,
//! and whether a waiting thread hangs.

use super::*;
use std::rc::Rc;

/// The state of the search for Fence-SC orders of one execution.
pub(super) struct ScSearch {
    pub(super) acc: Option<Full>,
    pub(super) cands: Vec<(EvId, EvId)>,
    pub(super) need_terms: bool,
}

/// What the full check of a complete execution found (merged over the Fence-SC orders examined).
pub(super) struct Full {
    /// Flags found by the full check (mbarrier misuse).
    pub(super) flags: Vec<(String, String)>,
    pub(super) finals: Vec<Vec<BTreeSet<u64>>>,
    pub(super) races: Vec<(EvId, EvId, bool)>,
    sync: Vec<(EvId, EvId, SyncKind)>,
    co: Vec<(EvId, EvId)>,
    /// Per location key, the coherence-maximal writes of the first solution (for fairness; only
    /// when some thread has a read pending).
    maximal: BTreeMap<LocKey, Vec<EvId>>,
}

/// The most events of a graph whose [`Checked`] a state keeps (its relations take n²/8 bytes
/// each: 32 KiB at this size).
pub(super) const KEEP_MAX_EVENTS: usize = 512;

/// What a partial check derived about the Fence-SC order of a graph, kept for the leaf check of
/// the same graph (the last choice of a read usually completes the execution).
pub(super) struct Checked {
    /// The graph it was derived from: events and edge lists only ever grow, and reads choose
    /// their writes only before a partial check, so equal lengths mean the same graph.
    stamp: [usize; 5],
    /// Base causality order without Fence-SC edges (closed).
    bco0: Rel,
    /// Its direct edges ([`Checker::bco_edges`]), from which a later graph's grows.
    edges0: Rel,
    /// The narrow edges of the graph's synchronization (restricted fences).
    narrow: Vec<(EvId, EvId)>,
    /// Causality order without Fence-SC edges.
    cause0: Rel,
    /// The morally strong pairs of `fence.sc` unordered by base causality order, sorted
    /// (shared with the graphs that extend this one).
    free: Rc<[(EvId, EvId)]>,
    /// The fences of those pairs, increasing.
    fences: Rc<[EvId]>,
    /// Per event (graphs of at most 64 events; else empty), its partners in those pairs that
    /// come after it, as one word ([`super::scorder::fences_of`]).
    upper: Rc<[u64]>,
    /// The Fence-SC edges derived from communication ([`Explorer::derive_sc`]).
    forced: Vec<(EvId, EvId)>,
    /// Base causality order with `forced` (closed).
    bco: Rel,
    /// The derivation's `early` rows (at most 64 events; else empty).
    early: Vec<u64>,
    /// The checker's base relations for this graph (set by the partial check).
    base: Option<crate::engine::axioms::Base>,
}

fn stamp(g: &Graph) -> [usize; 5] {
    [
        g.ev.len(),
        g.sync.len(),
        g.narrow.len(),
        g.issued.len(),
        g.mbar_issues.len(),
    ]
}

impl Checked {
    /// Whether `self`, derived for a graph that a read's choice of its write then extended
    /// (`g` is that graph, `ch` its checker, `bco0` its base causality order), holds for `g`
    /// everything but what that read changed: the same events and edge lists, the same base
    /// causality order and narrow edges. Then causality order only grew, and only between
    /// accesses of the read's location (observation order gained edges into the read alone).
    pub(super) fn extends_to(&self, g: &Graph, ch: &Checker, bco0: &Rel) -> bool {
        self.stamp == stamp(g) && self.bco0 == *bco0 && self.narrow == ch.base().narrow
    }

    /// From base causality order without Fence-SC edges (`bco0`, closed and acyclic) and the
    /// causality order under it: the free pairs and the derived edges. `None`: no Fence-SC order
    /// can be consistent. `parent`: what was derived before a read chose its write, when it
    /// [`Self::extends_to`] this graph — its free pairs are this graph's and its derived edges
    /// still hold (what derives them only grew), so the derivation goes on from them. `only`:
    /// the accesses of that read's location (their `early` rows are the only ones computed
    /// again).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn derive<P: Program, O: Observe<P>>(
        ex: &Explorer<'_, P, O>,
        g: &Graph,
        ch: &Checker,
        bco0: Rel,
        edges0: Rel,
        cause0: Rel,
        parent: Option<&Checked>,
        only: Option<&[EvId]>,
    ) -> Option<Checked> {
        let (free, fences, upper) = match parent {
            Some(p) => (p.free.clone(), p.fences.clone(), p.upper.clone()),
            None => {
                let mut free: Vec<(EvId, EvId)> = ch
                    .sc_pairs()
                    .into_iter()
                    .filter(|&(a, b)| !bco0.has(a, b) && !bco0.has(b, a))
                    .collect();
                free.sort_unstable();
                let (fences, upper) = super::scorder::fences_of(&free, g.ev.len());
                (Rc::from(free), Rc::from(fences), Rc::from(upper))
            }
        };
        let (forced, bco, early) = if free.is_empty() {
            (Vec::new(), bco0.clone(), Vec::new())
        } else {
            let start = parent.map(|p| super::scorder::Derived {
                forced: &p.forced,
                bco: &p.bco,
                early: &p.early,
                only,
            });
            ex.derive_sc(g, ch, (&free, &fences, &upper), &bco0, &cause0, start)?
        };
        Some(Checked {
            stamp: stamp(g),
            bco0,
            edges0,
            narrow: ch.base().narrow.clone(),
            cause0,
            free,
            fences,
            upper,
            forced,
            bco,
            early,
            base: None,
        })
    }

    /// The closed base causality order (without Fence-SC edges) and its direct edges, from
    /// which a graph extending this one grows its own ([`Checker::bco_from`]).
    pub(super) fn prior_bco(&self) -> (&Rel, &Rel) {
        (&self.bco0, &self.edges0)
    }

    /// Causality order without Fence-SC edges.
    pub(super) fn cause0(&self) -> &Rel {
        &self.cause0
    }

    /// The checker's base relations kept for this graph.
    pub(super) fn base(&self) -> Option<&crate::engine::axioms::Base> {
        self.base.as_ref()
    }

    /// Keeps the checker's base relations (of the same graph) for the leaf check.
    pub(super) fn keep_base(&mut self, base: crate::engine::axioms::Base) {
        self.base = Some(base);
    }
}

impl<'w, P: Program, O: Observe<P>> Explorer<'w, P, O> {
    pub(super) fn leaf(&mut self, st: State<P>) {
        static TRACE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        let trace = *TRACE.get_or_init(|| std::env::var_os("PTX_SYNC_TRACE").is_some());
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
            self.dropped[0] += 1;
            return;
        }
        let Some(full) = self.full(&st) else {
            if trace {
                eprintln!("  inconsistent");
            }
            self.dropped[1] += 1;
            return;
        };
        let mut hangs: Vec<String> = Vec::new();
        let mut blocked = vec![false; st.th.len()];
        for (t, th) in st.th.iter().enumerate() {
            if let Some(h) = &th.spin {
                hangs.push(h.clone());
                blocked[t] = true;
                continue;
            }
            if !th.pending.is_empty() {
                let mut max = |k: LocKey, _: u32, _: u8| Ok(full.maximal.get(&k).cloned());
                match self.probe(&st, t, &mut max) {
                    Some(line) => {
                        hangs.push(line);
                        blocked[t] = true;
                    }
                    // Reading the coherence-last writes lets it go on: not a fair end.
                    None => {
                        self.dropped[2] += 1;
                        return;
                    }
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
            self.dropped[3] += 1;
            return;
        }
        self.summary.executions += 1;
        // A bounded wait is judged as the unbounded wait it bounds (issue #22 §2): an execution
        // in which some clock jumped past the budgets (a wait may have timed out) is explored
        // for races and final values, but a thread left waiting in it is waiting for what the
        // timed-out thread did not do. The same waits without the jump are explored too, and
        // a wait that can never end is reported there.
        let jumped = st.th.iter().any(|th| th.jumped);
        for h in hangs {
            if !jumped {
                self.summary.hangs.insert(h);
            }
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
        let pos = self.part.pos();
        let leaf = Leaf {
            pos,
            graph: &st.g,
            threads,
            finals: full.finals,
            races: full.races,
            sync: full.sync,
            co: full.co,
            flags: &all_flags,
        };
        self.observe.leaf(&leaf);
    }

    /// Whether the thread may still loop (only then can a read left pending at the end be a
    /// spin that waits for ever).
    pub(super) fn may_loop(&self, th: &Th<P>) -> bool {
        match &th.snap {
            Prog::User(p) => p.may_loop(),
            Prog::Async(_) => false,
        }
    }

    /// Whether the read `p` of thread `th` lies in a loop (a spin may repeat it).
    pub(super) fn repeats(&self, st: &State<P>, th: &Th<P>, p: &Pending) -> bool {
        match &th.snap {
            Prog::User(u) => u.repeats(st.g.ev[p.ev].at.line),
            Prog::Async(_) => false,
        }
    }

    /// The full check of a complete execution: some Fence-SC order and some coherence order
    /// satisfy every axiom. Merges what every such order allows when the final values or new
    /// races depend on it.
    pub(super) fn full(&mut self, st: &State<P>) -> Option<Full> {
        let t0 = self.timed.then(std::time::Instant::now);
        let r = self.full_inner(st);
        self.stats.0 += 1;
        self.stats.1 += t0.map_or(0.0, |t| t.elapsed().as_secs_f64());
        r
    }

    pub(super) fn full_inner(&mut self, st: &State<P>) -> Option<Full> {
        let map = self.cluster_of_cta.clone();
        let cl = move |c: u32| map.get(&c).copied().unwrap_or(c);
        // The partial check of this very graph derived the Fence-SC edges already.
        let cached = st.checked.clone().filter(|c| c.stamp == stamp(&st.g));
        let ch = match cached.as_ref().and_then(|c| c.base.as_ref()) {
            Some(b) => Checker::with_base(&st.g, &cl, b),
            None => Checker::new(&st.g, &cl),
        };
        let computed;
        let c: &Checked = match &cached {
            Some(c) => c,
            None => {
                let edges0 = ch.bco_edges();
                let prior = st.checked.as_deref().map(|p| p.prior_bco());
                let bco0 = ch.bco_from(&edges0, prior);
                if bco0.reflexive_somewhere() {
                    return None;
                }
                let (_, cause0) = ch.cause(&bco0);
                computed = Checked::derive(self, &st.g, &ch, bco0, edges0, cause0, None, None)?;
                &computed
            }
        };
        let free = &c.free;
        // Races that some Fence-SC order might leave: those under the smallest causality order
        // that no earlier execution reported. The search below looks for an order that keeps
        // each of them unordered, and stops as soon as one consistent order is known and no
        // candidate (nor a final value) can still come out differently.
        let cands: Vec<(EvId, EvId)> = self
            .races(&st.g, &ch, &c.cause0)
            .into_iter()
            .map(|(a, b, _)| (a, b))
            .filter(|p| !self.known_races.contains(p))
            .collect();
        // When one consistent order settles everything (no new race to look for, no final value
        // asked), try a linear extension of the derived edges first.
        if cands.is_empty() && self.terms.is_empty() {
            let (edges, bco) =
                self.linear_sc((free, &c.fences, &c.upper), &c.forced, c.bco.clone());
            if !bco.reflexive_somewhere() {
                if let Some(f) = self.evaluate(st, &ch, &bco, &edges) {
                    return Some(f);
                }
            }
        }
        let forced = self.probe_sc(&st.g, &ch, free)?;
        let mut search = ScSearch {
            acc: None,
            cands,
            need_terms: !self.terms.is_empty(),
        };
        let mut edges: Vec<(EvId, EvId)> = forced;
        self.sc_dfs(st, &ch, free, 0, &mut edges, &mut search);
        if let Some(a) = &search.acc {
            for &(x, y, _) in &a.races {
                self.known_races.insert((x, y));
            }
        }
        search.acc
    }

    /// The data races under causality order `cause` (PTX ISA §8.7.1: "Two conflicting memory
    /// operations are said to be in a data-race if they are not related in causality order and
    /// they are not morally strong.").
    pub(super) fn races(&self, g: &Graph, ch: &Checker, cause: &Rel) -> Vec<(EvId, EvId, bool)> {
        let mut v = Vec::new();
        let racy = &ch.base().racy;
        for (k, (_, evs)) in ch.base().by_key.iter().enumerate() {
            // No two of its events conflict without being morally strong.
            if !racy[k] {
                continue;
            }
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
    pub(super) fn evaluate(
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
        let mut cp = CoProblem::default();
        let pending = st.th.iter().any(|th| !th.pending.is_empty());
        for (loc, (key, evs)) in ch.base().by_key.iter().enumerate() {
            let strong = !ch.base().racy[loc];
            let asked = self.terms.iter().any(|tm| (tm.var, tm.cta) == *key);
            let fast = if strong && !asked {
                one_write(g, evs, &pp, &cause)
            } else {
                None
            };
            // Debug builds go on to the general check and compare (the model tests run them).
            if let (Some((ok, w)), false) = (fast, cfg!(debug_assertions)) {
                if !ok {
                    return None;
                }
                if pending {
                    maximal.insert(*key, vec![w]);
                }
                continue;
            }
            if !self.co_problem(g, ch, evs, &pp, &cause, &mut cp) {
                debug_assert!(fast.is_none_or(|(ok, _)| !ok), "one_write: consistent");
                return None;
            }
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
                if !sc_per_location(g, &cp, co, strong) {
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
            debug_assert!(
                fast.is_none_or(|(ok, _)| ok == first.is_some()),
                "one_write disagrees"
            );
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
            // Asked only when a thread is left waiting (the leaf's fairness probe).
            if st.th.iter().any(|th| !th.pending.is_empty()) {
                let maxw: Vec<EvId> = (0..cp.writes.len())
                    .filter(|&i| !(0..cp.writes.len()).any(|j| co.has(i, j)))
                    .map(|i| cp.writes[i])
                    .collect();
                maximal.insert(*key, maxw);
            }
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
        let mut sync = ch.base().sw();
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

/// The check of one location in the common simple case, without a coherence problem: one write
/// `w` (a plain store), every other access a plain read of the same bytes through the generic
/// proxy at the same address reading them from one write (or the initial value), each access by
/// a different thread, every conflicting pair morally strong (the caller knows: `Base::racy`).
/// Then coherence order is fixed (init before `w`), Coherence and Atomicity ask nothing, SC per
/// location has no cycle (no program order among the accesses, and no read both reads from `w`
/// and reads what precedes it), and the location is consistent exactly when Causality holds
/// (§8.10.6): no read reads from `w` while preceding it (`pp`), and none reads the initial value
/// while `w` precedes it (`cause`). Returns (consistent, `w`); `None` when the case does not
/// apply (the general check decides).
fn one_write(g: &Graph, evs: &[EvId], pp: &Rel, cause: &Rel) -> Option<(bool, EvId)> {
    let m0 = g.ev[evs[0]].mem()?;
    let mut w = None;
    let mut threads = 0u64;
    for &e in evs {
        let ev = &g.ev[e];
        let m = ev.mem()?;
        if ev.thread >= 64 || threads >> ev.thread & 1 == 1 {
            return None;
        }
        threads |= 1 << ev.thread;
        if m.proxy != Proxy::Generic
            || m.vaddr != m0.vaddr
            || m.off != m0.off
            || m.size != m0.size
            || m.mbar.is_some()
            || m.atomic
            || m.red
        {
            return None;
        }
        match (m.read, m.write) {
            (false, true) if w.is_none() && m.wval.is_some() => w = Some(e),
            (true, false) if m.rf.as_ref().is_some_and(|p| p.len() == 1) => {}
            _ => return None,
        }
    }
    let w = w?;
    let mut ok = true;
    for &r in evs {
        let Some(pieces) = g.ev[r].mem().and_then(|m| m.rf.as_ref()) else {
            continue;
        };
        match pieces[0].src {
            Src::Ev(s) if s == w => ok &= !pp.has(r, w),
            Src::Ev(_) => return None,
            Src::Init => ok &= !cause.has(w, r),
        }
    }
    Some((ok, w))
}

/// Sequential Consistency per Location (PTX ISA §8.10.5): "a concatenation of program order
/// between overlapping operations and morally strong relations in communication order cannot
/// result in a cycle", for a coherence order `co` of the location's writes.
///
/// `strong`: every two overlapping accesses of the location of which one writes are morally
/// strong ([`crate::engine::axioms::Base::racy`] is false there): the pairs asked about all
/// conflict, so overlapping is then the whole question (morally strong accesses overlap
/// completely, §8.7).
pub(super) fn sc_per_location(g: &Graph, cp: &CoProblem, co: &Rel, strong: bool) -> bool {
    // Nodes: the writes, then the reads (a read-modify-write is one node, its write's).
    // Up to 16 nodes on the stack (arrays zeroed per call: kept small), more on the heap.
    const SMALL: usize = 16;
    let mut nodes: Vec<EvId> = Vec::new();
    let mut stack = [0 as EvId; SMALL];
    let mut len = cp.writes.len();
    let fits = len + cp.reads.len() <= SMALL;
    if fits {
        stack[..len].copy_from_slice(&cp.writes);
    } else {
        nodes.extend_from_slice(&cp.writes);
    }
    let mut read_node = [0usize; SMALL];
    let mut read_nodes: Vec<usize> = Vec::new();
    for (k, (r, _)) in cp.reads.iter().enumerate() {
        let at = if fits {
            stack[..len].iter().position(|x| x == r)
        } else {
            nodes.iter().position(|x| x == r)
        };
        let i = at.unwrap_or_else(|| {
            if fits {
                stack[len] = *r;
            } else {
                nodes.push(*r);
            }
            len += 1;
            len - 1
        });
        if fits {
            read_node[k] = i;
        } else {
            read_nodes.push(i);
        }
    }
    let nodes: &[EvId] = if fits { &stack[..len] } else { &nodes };
    let read_node: &[usize] = if fits {
        &read_node[..cp.reads.len()]
    } else {
        &read_nodes
    };
    let n = nodes.len();
    let mem = |e: EvId| g.ev[e].mem().unwrap();
    let ms = |a: EvId, b: EvId| {
        if strong {
            debug_assert_eq!(mem(a).overlaps(mem(b)), morally_strong(&g.ev[a], &g.ev[b]));
            mem(a).overlaps(mem(b))
        } else {
            morally_strong(&g.ev[a], &g.ev[b])
        }
    };
    let edges = |add: &mut dyn FnMut(usize, usize)| {
        for i in 0..n {
            for j in 0..n {
                if i != j
                    && g.po_before(nodes[i], nodes[j])
                    && mem(nodes[i]).overlaps(mem(nodes[j]))
                {
                    add(i, j);
                }
            }
        }
        for (i, &a) in cp.writes.iter().enumerate() {
            for (j, &b) in cp.writes.iter().enumerate() {
                if co.has(i, j) && ms(a, b) {
                    add(i, j);
                }
            }
        }
        for (k, (r, _)) in cp.reads.iter().enumerate() {
            let ri = read_node[k];
            let mr = mem(*r);
            for &s in cp.read_srcs(k) {
                if s != INIT {
                    let w = cp.writes[s];
                    if w != *r && ms(w, *r) {
                        add(s, ri);
                    }
                }
                // from-reads: r → every morally strong write after its source.
                for (j, &w) in cp.writes.iter().enumerate() {
                    if w == *r || !ms(*r, w) || !mr.overlaps(mem(w)) {
                        continue;
                    }
                    let after = if s == INIT { true } else { co.has(s, j) };
                    if after {
                        add(ri, j);
                    }
                }
            }
        }
    };
    if n <= 64 {
        // One word per node: close by Warshall's rows, then look for a node reaching itself.
        let mut small = [0u64; SMALL];
        let mut big: Vec<u64> = Vec::new();
        let m: &mut [u64] = if n <= SMALL {
            &mut small[..n]
        } else {
            big.resize(n, 0);
            &mut big
        };
        edges(&mut |i, j| m[i] |= 1 << j);
        for k in 0..n {
            let rk = m[k];
            for row in m[..n].iter_mut() {
                if *row >> k & 1 == 1 {
                    *row |= rk;
                }
            }
        }
        return (0..n).all(|i| m[i] >> i & 1 == 0);
    }
    let mut rel = Rel::new(n);
    edges(&mut |i, j| rel.add(i, j));
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
