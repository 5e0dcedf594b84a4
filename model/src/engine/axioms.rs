//! The definitions and axioms of PTX ISA chapter 8 on an execution graph.
//!
//! Each definition is a function whose doc quotes the sentence it implements. Reads-from is part
//! of the graph; Fence-SC order and coherence order are not: an execution is consistent when
//! *some* Fence-SC order and *some* coherence order satisfy the axioms (§8.9.3: "determined at
//! runtime"; §8.9.6: "There exists a partial transitive order …"). [`Checker`] searches them.

use super::bits::Rel;
use super::graph::{
    fence_covers, includes, EvId, Event, Graph, Kind, LocKey, Mem, Shared, Src, Value,
};
use super::op::{ProxyFence, Restrict};
use crate::ast::{FenceSem, Proxy, Sem};

/// A list of edges.
pub type Edges = Vec<(EvId, EvId)>;

/// Which axiom an execution violates (PTX ISA §8.10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axiom {
    /// §8.10.1 Coherence.
    Coherence,
    /// §8.10.2 Fence-SC.
    FenceSc,
    /// §8.10.3 Atomicity.
    Atomicity,
    /// §8.10.5 Sequential Consistency Per Location.
    ScPerLocation,
    /// §8.10.6 Causality.
    Causality,
}

/// Where a synchronizes-with edge comes from (witness graphs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyncKind {
    /// A release pattern with an acquire pattern (§8.9.4).
    Pattern,
    /// Fence-SC order (§8.9.3/§8.9.4).
    FenceSc,
    /// Barriers, cluster barriers, async issue/completion joins.
    Barrier,
}

/// The relations that depend only on the graph (not on Fence-SC or coherence order).
#[derive(Clone)]
pub struct Base {
    /// Number of events.
    pub n: usize,
    /// Observation order (§8.9.2), write → read.
    pub obs: Rel,
    /// Synchronizes-with from barriers and the other graph-recorded synchronization
    /// ([`Graph::sync`], shared with the graph, not copied).
    pub barrier: Shared<Vec<(EvId, EvId)>>,
    /// Synchronizes-with from release and acquire patterns (§8.9.4).
    pub patterns: Edges,
    /// Narrow edges (restricted fences): the source alone precedes the target.
    pub narrow: Vec<(EvId, EvId)>,
    /// The `fence.sc` events.
    pub sc: Shared<Vec<EvId>>,
    /// Program-order edges between consecutive positions.
    pub po_edges: Shared<Vec<(EvId, EvId)>>,
    /// Proxy fences (events), for proxy-preserved order.
    pub pfences: Shared<Vec<EvId>>,
    /// Memory events by location.
    pub by_key: Shared<Vec<(LocKey, Vec<EvId>)>>,
    /// Whether a release pattern and an acquire pattern (§8.8) may form among these events
    /// whatever the reads return (false: no pattern synchronizes, and none is looked for).
    pub patterns_possible: bool,
    /// Per entry of `by_key`: whether two of its events may race — they overlap, one writes, and
    /// they are not morally strong (§8.7.1; what the events alone decide, shared like `by_key`).
    pub racy: Shared<Vec<bool>>,
}

impl Base {
    /// Synchronizes-with (barriers, then patterns), each edge with where it comes from.
    pub fn sw(&self) -> Vec<(EvId, EvId, SyncKind)> {
        let barrier = self.barrier.iter().map(|&(a, b)| (a, b, SyncKind::Barrier));
        let patterns = self
            .patterns
            .iter()
            .map(|&(a, b)| (a, b, SyncKind::Pattern));
        barrier.chain(patterns).collect()
    }
}

/// What a consistent execution allows: the races and the final values.
#[derive(Clone, Debug, Default)]
pub struct Verdict {
    /// Data races (pairs, both directions normalised `a < b`), with whether mixed-size.
    pub races: Vec<(EvId, EvId, bool)>,
    /// For each location byte asked about: the writes that may be coherence-last.
    pub finals: Vec<Vec<Src>>,
    /// The Fence-SC order chosen (for the witness).
    pub sc_edges: Vec<(EvId, EvId)>,
    /// A coherence order (transitively reduced pairs), for the witness.
    pub co: Vec<(Src, EvId)>,
}

/// The checker for one graph.
pub struct Checker<'a> {
    /// The graph.
    pub g: &'a Graph,
    /// Cluster of each CTA.
    pub cluster_of: &'a dyn Fn(u32) -> u32,
    base: std::borrow::Cow<'a, Base>,
}

/// Whether two events are morally strong relative to each other (PTX ISA §8.7: "The operations
/// are related in program order (i.e, they are both executed by the same thread), or each
/// operation is strong and specifies a scope that includes the thread executing the other
/// operation. Both operations are performed via the same proxy. If both are memory operations,
/// then they overlap completely."). Virtual aliases count as different proxies (§8.6).
pub fn morally_strong(x: &Event, y: &Event) -> bool {
    let scoped = |e: &Event| matches!(e.kind, Kind::Mem(_) | Kind::Fence(..));
    if !scoped(x) || !scoped(y) {
        return false;
    }
    let same_thread = x.thread == y.thread;
    let scopes = match (x.scope(), y.scope()) {
        (Some(sx), Some(sy)) => {
            includes(sx, &x.place, &y.place) && includes(sy, &y.place, &x.place)
        }
        _ => false,
    };
    if !(same_thread || scopes) {
        return false;
    }
    match (x.mem(), y.mem()) {
        (Some(a), Some(b)) => a.proxy == b.proxy && a.vaddr == b.vaddr && a.same_bytes(b),
        (Some(a), None) | (None, Some(a)) => a.proxy == Proxy::Generic,
        (None, None) => true,
    }
}

fn is_release_sem(s: Sem) -> bool {
    matches!(s, Sem::Release | Sem::AcqRel)
}
fn is_acquire_sem(s: Sem) -> bool {
    matches!(s, Sem::Acquire | Sem::AcqRel)
}
fn release_fence(e: &Event) -> bool {
    matches!(
        e.kind,
        Kind::Fence(FenceSem::Release | FenceSem::AcqRel | FenceSem::Sc, _, _)
    )
}
fn acquire_fence(e: &Event) -> bool {
    matches!(
        e.kind,
        Kind::Fence(FenceSem::Acquire | FenceSem::AcqRel | FenceSem::Sc, _, _)
    )
}

/// A read that may start an acquire pattern: strong, returns its value (not `red`, §8.8 "this
/// strong read does not form an acquire pattern"), and for an mbarrier wait only when it returned
/// True (§9.7.13.15.16: "When mbarrier.test_wait and mbarrier.try_wait operations with .acquire
/// qualifier returns True, they form the acquire pattern").
fn acquire_read(e: &Event) -> bool {
    let Some(m) = e.mem() else { return false };
    m.read && m.strong() && !m.red && m.rf.is_some() && wait_ok(m)
}

/// [`acquire_read`] whatever the read returns (it may start an acquire pattern once chosen).
fn may_acquire_read(e: &Event) -> bool {
    let Some(m) = e.mem() else { return false };
    m.read && m.strong() && !m.red
}

fn wait_ok(m: &Mem) -> bool {
    use super::graph::MbarAct;
    match m.mbar {
        Some(MbarAct::WaitParity(_) | MbarAct::WaitState(_)) => m.rval == Some(Value::Bits(1)),
        _ => true,
    }
}

impl<'a> Checker<'a> {
    /// Prepares the graph's fixed relations.
    pub fn new(g: &'a Graph, cluster_of: &'a dyn Fn(u32) -> u32) -> Self {
        Self::new_from(g, cluster_of, None)
    }

    /// [`Self::new`], sharing with `prior` — the base relations of a graph with the same events
    /// that only differed in what reads read (events are only ever appended) — the relations
    /// that depend on the events alone: program order, the fences, the locations.
    pub fn new_from(
        g: &'a Graph,
        cluster_of: &'a dyn Fn(u32) -> u32,
        prior: Option<&Base>,
    ) -> Self {
        let base = Self::compute_base(g, prior.filter(|b| b.n == g.ev.len()));
        Checker {
            g,
            cluster_of,
            base: std::borrow::Cow::Owned(base),
        }
    }

    /// A checker for `g` with the base relations computed already (by [`Self::new`] for this
    /// very graph, then [`Self::into_base`]).
    pub fn with_base(g: &'a Graph, cluster_of: &'a dyn Fn(u32) -> u32, base: &'a Base) -> Self {
        Checker {
            g,
            cluster_of,
            base: std::borrow::Cow::Borrowed(base),
        }
    }

    /// The base relations, kept for [`Self::with_base`].
    pub fn into_base(self) -> Base {
        self.base.into_owned()
    }

    /// The base relations.
    pub fn base(&self) -> &Base {
        &self.base
    }

    fn compute_base(g: &Graph, prior: Option<&Base>) -> Base {
        let n = g.ev.len();
        let obs = Self::observation(g);
        let possible = match prior {
            Some(p) => p.patterns_possible,
            None => {
                !Self::release_patterns_of(g, true).is_empty()
                    && !Self::acquire_patterns_of(g, true).is_empty()
            }
        };
        let (patterns, mut narrow) = if possible {
            Self::pattern_sync(g, &obs)
        } else {
            (Vec::new(), Vec::new())
        };
        debug_assert!(possible || Self::pattern_sync(g, &obs) == (Vec::new(), Vec::new()));
        narrow.extend(g.narrow.iter().copied());
        if let Some(p) = prior {
            return Base {
                patterns_possible: possible,
                n,
                obs,
                barrier: g.sync.clone(),
                patterns,
                narrow,
                sc: p.sc.clone(),
                po_edges: p.po_edges.clone(),
                pfences: p.pfences.clone(),
                by_key: p.by_key.clone(),
                racy: p.racy.clone(),
            };
        }
        // Program order: each event before the next position's events (the elements of one
        // vector access share a position: "executed in an unspecified order", §8.2.4).
        let mut po_edges = Vec::with_capacity(n);
        for list in &g.po {
            // Groups of events at one position, as ranges of `list`: every event of a group
            // precedes every event of the next.
            let mut prev = 0..0;
            let mut i = 0;
            while i < list.len() {
                let ord = g.ev[list[i]].ord;
                let mut j = i + 1;
                while j < list.len() && g.ev[list[j]].ord == ord {
                    j += 1;
                }
                for &a in &list[prev.clone()] {
                    for &b in &list[i..j] {
                        po_edges.push((a, b));
                    }
                }
                prev = i..j;
                i = j;
            }
        }
        let mut mems: Vec<(LocKey, EvId)> = Vec::with_capacity(n);
        let mut pfences = Vec::new();
        let mut sc = Vec::new();
        for (i, e) in g.ev.iter().enumerate() {
            match &e.kind {
                Kind::Mem(m) => mems.push((m.key, i)),
                Kind::ProxyFence(_) | Kind::Join { .. } => pfences.push(i),
                Kind::Fence(FenceSem::Sc, _, _) => sc.push(i),
                _ => {}
            }
        }
        // By location key (keys increasing, events increasing within a key).
        mems.sort_unstable();
        let mut by_key: Vec<(LocKey, Vec<EvId>)> = Vec::new();
        let mut i = 0;
        while i < mems.len() {
            let k = mems[i].0;
            let j = i + mems[i..].iter().take_while(|x| x.0 == k).count();
            by_key.push((k, mems[i..j].iter().map(|x| x.1).collect()));
            i = j;
        }
        let racy = by_key
            .iter()
            .map(|(_, evs)| {
                evs.iter().enumerate().any(|(i, &a)| {
                    evs[i + 1..].iter().any(|&b| {
                        let (ma, mb) = (g.ev[a].mem().unwrap(), g.ev[b].mem().unwrap());
                        ma.overlaps(mb)
                            && (ma.write || mb.write)
                            && !morally_strong(&g.ev[a], &g.ev[b])
                    })
                })
            })
            .collect();
        Base {
            n,
            obs,
            barrier: g.sync.clone(),
            patterns,
            narrow,
            patterns_possible: possible,
            racy: Shared::new(racy),
            sc: Shared::new(sc),
            po_edges: Shared::new(po_edges),
            pfences: Shared::new(pfences),
            by_key: Shared::new(by_key),
        }
    }

    /// Observation order, PTX ISA §8.9.2: "A write W precedes a read R in observation order if
    /// R and W are morally strong and R reads the value written by W, or For some atomic
    /// operation Z, W precedes Z and Z precedes R in observation order."
    fn observation(g: &Graph) -> Rel {
        let n = g.ev.len();
        let mut srf = Rel::new(n);
        for (r, e) in g.ev.iter().enumerate() {
            let Some(m) = e.mem() else { continue };
            let Some(pieces) = &m.rf else { continue };
            if let [p] = pieces.as_slice() {
                if let Src::Ev(w) = p.src {
                    if w != r && morally_strong(&g.ev[w], e) {
                        srf.add(w, r);
                    }
                }
            }
        }
        // Chains through atomic read-modify-writes (one event each).
        let atomic: Vec<bool> =
            g.ev.iter()
                .map(|e| e.mem().is_some_and(|m| m.atomic && m.write && m.read))
                .collect();
        if !atomic.iter().any(|&a| a) {
            return srf;
        }
        let mut obs = srf.clone();
        let mut succ: Vec<usize> = Vec::new();
        loop {
            let mut grew = false;
            for w in 0..n {
                succ.clear();
                succ.extend(obs.succ(w).filter(|&z| atomic[z]));
                for &z in &succ {
                    grew |= obs.union_row_from(w, &srf, z);
                }
            }
            if !grew {
                break;
            }
        }
        obs
    }

    /// Synchronizes-with from patterns, PTX ISA §8.9.4: "A release pattern X synchronizes with an
    /// acquire pattern Y, if a write operation in X precedes a read operation in Y in observation
    /// order, and the first operation in X and the last operation in Y are morally strong."
    /// Patterns are §8.8's. A restricted fence (`.op_restrict`, `.sync_restrict`) contributes edges
    /// only from (release) or to (acquire) the operations it restricts to.
    fn pattern_sync(g: &Graph, obs: &Rel) -> (Edges, Edges) {
        let rel = Self::release_patterns(g);
        let acq = Self::acquire_patterns(g);
        let mut wide = Vec::new();
        let mut narrow = Vec::new();
        for &(f, w) in &rel {
            for &(r, l) in &acq {
                if w != r && obs.has(w, r) && morally_strong(&g.ev[f], &g.ev[l]) && f != l {
                    let restricted = matches!(g.ev[f].kind, Kind::Fence(_, _, Some(_)));
                    for s in Self::restricted_sources(g, f) {
                        for t in Self::restricted_targets(g, l) {
                            if restricted {
                                narrow.push((s, t));
                            } else {
                                wide.push((s, t));
                            }
                        }
                    }
                }
            }
        }
        for v in [&mut wide, &mut narrow] {
            v.sort_unstable();
            v.dedup();
        }
        (wide, narrow)
    }

    /// The events a restricted release fence `f` orders (public for the explorer's cluster
    /// barriers).
    pub fn restricted(g: &Graph, f: EvId) -> Vec<EvId> {
        Self::restricted_sources(g, f)
    }

    /// §8.8: "A release pattern on a location M consists of one of the following: A release
    /// operation on M …; Or a release or acquire-release operation on M followed by a strong write
    /// on M in program order …; Or a release or acquire-release memory fence followed by a strong
    /// write on M in program order". `fence.sc` and `membar` count as release fences.
    pub fn release_patterns(g: &Graph) -> Vec<(EvId, EvId)> {
        Self::release_patterns_of(g, false)
    }

    /// [`Self::release_patterns`]; `any_value`: as if every write's value were known (the
    /// patterns that may form once the reads are chosen).
    fn release_patterns_of(g: &Graph, any_value: bool) -> Vec<(EvId, EvId)> {
        let mut out = Vec::new();
        for list in &g.po {
            for (i, &w) in list.iter().enumerate() {
                let Some(mw) = g.ev[w].mem() else { continue };
                if !(mw.write && mw.strong() && (any_value || mw.wval.is_some())) {
                    continue;
                }
                if is_release_sem(mw.order.sem) {
                    out.push((w, w));
                }
                for &f in &list[..i] {
                    let e = &g.ev[f];
                    if e.ord >= g.ev[w].ord {
                        continue;
                    }
                    if release_fence(e) {
                        out.push((f, w));
                    } else if let Some(mf) = e.mem() {
                        if is_release_sem(mf.order.sem) && mf.vaddr == mw.vaddr && mf.overlaps(mw) {
                            out.push((f, w));
                        }
                    }
                }
            }
        }
        out
    }

    /// §8.8: "An acquire pattern on a location M consists of one of the following: An acquire
    /// operation on M …; Or a strong read on M followed by an acquire operation on M in program
    /// order …; Or a strong read on M followed by an acquire memory fence in program order".
    pub fn acquire_patterns(g: &Graph) -> Vec<(EvId, EvId)> {
        Self::acquire_patterns_of(g, false)
    }

    /// [`Self::acquire_patterns`]; `any_value`: as if every read had returned a value that
    /// forms a pattern (the patterns that may form once the reads are chosen).
    fn acquire_patterns_of(g: &Graph, any_value: bool) -> Vec<(EvId, EvId)> {
        let mut out = Vec::new();
        for list in &g.po {
            for (i, &r) in list.iter().enumerate() {
                if !(acquire_read(&g.ev[r]) || any_value && may_acquire_read(&g.ev[r])) {
                    continue;
                }
                let mr = g.ev[r].mem().unwrap();
                if is_acquire_sem(mr.order.sem) {
                    out.push((r, r));
                }
                for &l in &list[i + 1..] {
                    let e = &g.ev[l];
                    if e.ord <= g.ev[r].ord {
                        continue;
                    }
                    if acquire_fence(e) {
                        out.push((r, l));
                    } else if let Some(ml) = e.mem() {
                        if ml.read
                            && is_acquire_sem(ml.order.sem)
                            && ml.vaddr == mr.vaddr
                            && ml.overlaps(mr)
                            && (any_value || wait_ok(ml))
                        {
                            out.push((r, l));
                        }
                    }
                }
            }
        }
        out
    }

    /// The events whose effect a release pattern starting at `f` carries: `f` itself, or for a
    /// restricted fence the operations it is restricted to, in its thread before it (§9.7.13.4:
    /// "the synchronizing effect of the fence only applies to the prior mbarrier.init operations
    /// executed by the same thread"; "the effect of the fence only applies to operations performed
    /// on objects in .shared::cta state space").
    fn restricted_sources(g: &Graph, f: EvId) -> Vec<EvId> {
        let Kind::Fence(_, _, Some(r)) = g.ev[f].kind else {
            return vec![f];
        };
        let t = g.ev[f].thread;
        let ord = g.ev[f].ord;
        let place = g.ev[f].place;
        g.po[t]
            .iter()
            .copied()
            .filter(|&x| g.ev[x].ord < ord)
            .filter(|&x| match (&g.ev[x].kind, r) {
                (Kind::Mem(m), Restrict::MbarrierInit) => {
                    matches!(m.mbar, Some(super::graph::MbarAct::Init(_)))
                }
                (Kind::Mem(m), Restrict::SharedCta) => m.shared && m.key.1 == place.cta,
                (Kind::Mem(m), Restrict::SharedCluster) => m.shared,
                _ => false,
            })
            .collect()
    }

    /// The events an acquire pattern ending at `l` makes visible to: `l`, or for a restricted
    /// acquire fence the later operations on the state space it is restricted to.
    fn restricted_targets(g: &Graph, l: EvId) -> Vec<EvId> {
        let Kind::Fence(_, _, Some(r)) = g.ev[l].kind else {
            return vec![l];
        };
        let t = g.ev[l].thread;
        let ord = g.ev[l].ord;
        let place = g.ev[l].place;
        g.po[t]
            .iter()
            .copied()
            .filter(|&x| g.ev[x].ord > ord)
            .filter(|&x| match (&g.ev[x].kind, r) {
                (Kind::Mem(m), Restrict::SharedCluster) => m.shared,
                (Kind::Mem(m), Restrict::SharedCta) => m.shared && m.key.1 == place.cta,
                _ => false,
            })
            .collect()
    }

    /// Base causality order (§8.9.5: "X precedes Y in program order, or X synchronizes with Y,
    /// or …" transitively), with the given Fence-SC edges, closed.
    pub fn bco(&self, sc: &[(EvId, EvId)]) -> Rel {
        let mut r = self.bco_edges();
        for &(a, b) in sc {
            r.add(a, b);
        }
        r.close();
        r
    }

    /// The direct edges of base causality order without Fence-SC edges (program order's and
    /// synchronizes-with's), not closed.
    pub fn bco_edges(&self) -> Rel {
        let mut r = Rel::new(self.base.n);
        for &(a, b) in self.base.po_edges.iter() {
            r.add(a, b);
        }
        for &(a, b) in self.base.barrier.iter().chain(&self.base.patterns) {
            r.add(a, b);
        }
        r
    }

    /// [`Self::bco`] without Fence-SC edges, from its direct edges `edges`
    /// ([`Self::bco_edges`]), grown from `prior` when given: the closed order of a graph this
    /// one extends, and that graph's direct edges. Events and edges only ever get added (a new
    /// event between two of a thread's events replaces their edge by two through it), so this
    /// graph's order is the closure of the prior order with the edges it lacks. Checked: every
    /// prior edge must hold in the result, else (and when more than a few edges are new) the
    /// order is computed afresh.
    pub fn bco_from(&self, edges: &Rel, prior: Option<(&Rel, &Rel)>) -> Rel {
        let n = self.base.n;
        // The same direct edges: the same closed order (a read's choice of its write changes
        // none when it makes no synchronization).
        if let Some((rel, _)) = prior.filter(|(rel, old)| rel.n() == n && *old == edges) {
            return rel.clone();
        }
        if let Some((rel, old)) = prior.filter(|(rel, _)| rel.n() <= n) {
            // Worth it only when few edges are new: each costs a pass over the rows.
            const LIMIT: usize = 8;
            let mut new: Vec<(EvId, EvId)> = Vec::new();
            'rows: for a in 0..n {
                for (k, &w) in edges.row(a).iter().enumerate() {
                    let o = if a < old.n() {
                        old.row(a).get(k).copied().unwrap_or(0)
                    } else {
                        0
                    };
                    let mut m = w & !o;
                    while m != 0 {
                        new.push((a, k * 64 + m.trailing_zeros() as usize));
                        m &= m - 1;
                        if new.len() > LIMIT {
                            break 'rows;
                        }
                    }
                }
            }
            if new.len() <= LIMIT {
                let mut r = rel.grown(n);
                for (a, b) in new {
                    r.add_closed(a, b);
                }
                let kept = (0..old.n()).all(|a| {
                    let (ro, rr) = (old.row(a), r.row(a));
                    ro.iter().zip(rr).all(|(&o, &x)| o & !x == 0)
                });
                if kept {
                    debug_assert!(
                        r == {
                            let mut f = edges.clone();
                            f.close();
                            f
                        }
                    );
                    return r;
                }
            }
        }
        let mut r = edges.clone();
        r.close();
        r
    }

    /// The pairs of `fence.sc` that are morally strong (§8.9.3: "relates every pair of morally
    /// strong fence.sc operations").
    pub fn sc_pairs(&self) -> Vec<(EvId, EvId)> {
        let sc = &self.base.sc;
        let mut v = Vec::with_capacity(sc.len() * sc.len().saturating_sub(1) / 2);
        // Two fences (no proxy, no bytes): morally strong when of one thread or each one's
        // scope includes the other's thread (`morally_strong`, inlined: this runs per check).
        let scoped: Vec<(usize, Option<crate::ast::Scope>, &super::op::Place)> = sc
            .iter()
            .map(|&a| {
                let e = &self.g.ev[a];
                (e.thread, e.scope(), &e.place)
            })
            .collect();
        for (i, &a) in sc.iter().enumerate() {
            let (ta, sa, pa) = scoped[i];
            for (k, &b) in sc.iter().enumerate().skip(i + 1) {
                let (tb, sb, pb) = scoped[k];
                let ms = ta == tb
                    || matches!((sa, sb), (Some(x), Some(y)) if includes(x, pa, pb) && includes(y, pb, pa));
                debug_assert_eq!(ms, morally_strong(&self.g.ev[a], &self.g.ev[b]));
                if ms {
                    v.push((a, b));
                }
            }
        }
        v
    }

    /// Proxy-preserved base causality order (§8.9.5): "A memory operation X precedes a memory
    /// operation Y in proxy-preserved base causality order if X precedes Y in base causality
    /// order, and: X and Y are performed to the same address, using the generic proxy, or X and Y
    /// are performed to the same address, using the same proxy, and by the same thread block, or X
    /// and Y are aliases and there is an alias proxy fence along the base causality path from X to
    /// Y." — with proxy fences converting between the generic proxy and the others along the path
    /// (`model/SEMANTICS.md` S4).
    pub fn ppbco(&self, bco: &Rel, x: EvId, y: EvId) -> bool {
        bco.has(x, y) && self.preserved(bco, x, y, y)
    }

    /// The proxy part of proxy-preserved order for `x` before `y` along a base-causality path
    /// that reaches `end` (`y` itself, or the issue of the async operation `y` belongs to): the
    /// conversions x's proxy → generic → y's proxy each need a proxy fence on the path, in order.
    fn preserved(&self, bco: &Rel, x: EvId, y: EvId, end: EvId) -> bool {
        let (ex, ey) = (&self.g.ev[x], &self.g.ev[y]);
        let (Some(mx), Some(my)) = (ex.mem(), ey.mem()) else {
            return false;
        };
        if !mx.overlaps(my) {
            return false;
        }
        let alias = mx.vaddr != my.vaddr;
        let same_cta = ex.place.cta == ey.place.cta && ex.place.gpu == ey.place.gpu;
        let direct = !alias && mx.proxy == my.proxy && (mx.proxy == Proxy::Generic || same_cta);
        if direct {
            return true;
        }
        // Required conversions, in path order: x's proxy → generic, generic → y's proxy.
        let mut steps: Vec<(Proxy, EvId)> = Vec::new();
        if mx.proxy != Proxy::Generic {
            steps.push((mx.proxy, x));
        }
        if my.proxy != Proxy::Generic {
            steps.push((my.proxy, y));
        }
        let fences = &self.base.pfences;
        let ok_fence = |f: EvId, proxy: Proxy, at: EvId, to_async: bool| -> bool {
            let ef = &self.g.ev[f];
            let m = self.g.ev[at].mem().unwrap();
            match (&ef.kind, proxy) {
                // The end of an async-group wait is the implicit generic-async proxy fence that
                // follows the completion of the operations it waits for (§9.7.9.25.2).
                (Kind::Join { .. }, Proxy::Async) => !to_async,
                (Kind::ProxyFence(ProxyFence::Async(space)), Proxy::Async) => {
                    fence_covers(*space, &ef.place, m, self.cluster_of)
                }
                // The uni-directional generic → async fence (`fence.proxy.async::generic`).
                (Kind::ProxyFence(ProxyFence::AsyncGeneric { restrict, .. }), Proxy::Async) => {
                    let space = match restrict {
                        Restrict::SharedCta => super::op::Space::SharedCta,
                        _ => super::op::Space::SharedCluster,
                    };
                    to_async && fence_covers(Some(space), &ef.place, m, self.cluster_of)
                }
                (Kind::ProxyFence(ProxyFence::Surface), Proxy::Surface)
                | (Kind::ProxyFence(ProxyFence::Texture), Proxy::Texture)
                | (Kind::ProxyFence(ProxyFence::Constant), Proxy::Constant) => {
                    ef.place.cta == self.g.ev[at].place.cta
                }
                _ => false,
            }
        };
        // Walk the conversions: each needs a fence after the previous point on the path.
        let mut from = x;
        for (proxy, at) in steps {
            let to_async = at == y;
            let next = fences.iter().copied().find(|&f| {
                bco.has(from, f)
                    && (f == end || bco.has(f, end))
                    && ok_fence(f, proxy, at, to_async)
            });
            match next {
                Some(f) => from = f,
                None => return false,
            }
        }
        if alias {
            // An alias fence on the path (anywhere between x and the end).
            return fences.iter().any(|&f| {
                matches!(self.g.ev[f].kind, Kind::ProxyFence(ProxyFence::Alias))
                    && bco.has(x, f)
                    && (f == end || bco.has(f, end))
            });
        }
        true
    }

    /// Whether `x` precedes `y` in causality order (one pair of `cause`).
    pub fn cause_pair(&self, bco: &Rel, x: EvId, y: EvId) -> bool {
        self.ppbco(bco, x, y) || self.base.obs.succ(x).any(|z| self.ppbco(bco, z, y))
    }

    /// [`Self::cause`] for a graph whose events and base causality order `bco` are those of a
    /// graph whose causality order was `prior`, and whose observation order differs from that
    /// graph's only by edges between the accesses `evs` of one location (a read of `evs` chose
    /// its write): causality order relates only overlapping accesses, and observation order
    /// only accesses of one location, so only the rows of `evs` change; they are computed
    /// again. `None` when the graph has async operations or narrow edges (their
    /// proxy-preserved edges are not only base causality order's): compute it afresh.
    pub fn cause_at(&self, bco: &Rel, prior: &Rel, evs: &[EvId]) -> Option<(Rel, Rel)> {
        let n = self.base.n;
        if !self.g.issued.is_empty() || !self.base.narrow.is_empty() || prior.n() != n {
            return None;
        }
        let mut pp = Rel::new(n);
        for &x in evs {
            for &y in evs {
                if x != y && self.ppbco(bco, x, y) {
                    pp.add(x, y);
                }
            }
        }
        let mut cause = prior.clone();
        for &x in evs {
            cause.clear_row(x);
            cause.union_row_from(x, &pp, x);
            for z in self.base.obs.succ(x) {
                cause.union_row_from(x, &pp, z);
            }
        }
        debug_assert!(cause == self.cause(bco).1, "cause_at differs from cause");
        Some((pp, cause))
    }

    /// Causality order over memory events (§8.9.5: "X precedes Y in proxy-preserved base
    /// causality order, or For some operation Z, X precedes Z in observation order, and Z
    /// precedes Y in proxy-preserved base causality order."). Returns (ppbco, cause), both only
    /// between overlapping memory events.
    pub fn cause(&self, bco: &Rel) -> (Rel, Rel) {
        let n = self.base.n;
        let mut pp = Rel::new(n);
        for (_, evs) in self.base.by_key.iter() {
            for &x in evs {
                for &y in evs {
                    if x != y && self.ppbco(bco, x, y) {
                        pp.add(x, y);
                    }
                }
            }
        }
        // Asynchronous operations (§8.9.1.1): "ordered after prior instructions in the same
        // thread … but they are not part of the program order for that thread", and the
        // completion "does not transitively establish ordering with respect to prior instructions
        // from the issuing thread". So what precedes the issue precedes the async operation's own
        // accesses — in causality order, not in base causality order (nothing is transitive
        // through the async operation).
        for &(i, child) in &self.g.issued {
            let mbar_only = self.g.mbar_issues.contains(&i);
            for &y in self.g.po.get(child).map_or(&[][..], |v| v.as_slice()) {
                let Some(my) = self.g.ev[y].mem() else {
                    continue;
                };
                let Some((_, evs)) = self.base.by_key.iter().find(|(k, _)| *k == my.key) else {
                    continue;
                };
                for &x in evs {
                    // x precedes the issue: in base causality order, or through a narrow edge
                    // whose target precedes it.
                    let before = bco.has(x, i)
                        || self
                            .base
                            .narrow
                            .iter()
                            .any(|&(s, t)| s == x && (t == i || bco.has(t, i)));
                    if x != y
                        && self.g.ev[x].thread != child
                        && (!mbar_only || self.g.ev[x].mem().is_some_and(|m| m.mbar.is_some()))
                        && before
                        && self.preserved(bco, x, y, i)
                    {
                        pp.add(x, y);
                    }
                }
            }
        }
        // Narrow edges: the source precedes the target and what follows it.
        for &(s, t) in &self.base.narrow {
            let Some(ms) = self.g.ev[s].mem() else {
                continue;
            };
            let Some((_, evs)) = self.base.by_key.iter().find(|(k, _)| *k == ms.key) else {
                continue;
            };
            for &y in evs {
                if y != s && (y == t || bco.has(t, y)) && self.preserved(bco, s, y, t) {
                    pp.add(s, y);
                }
            }
        }
        let mut cause = pp.clone();
        for x in 0..n {
            if self.base.obs.row_empty(x) {
                continue;
            }
            for z in self.base.obs.succ(x) {
                // Only relations between overlapping memory events.
                cause.union_row_from(x, &pp, z);
            }
        }
        (pp, cause)
    }
}

/// A coherence-order problem for one location key: which writes, and what the axioms require.
#[derive(Clone, Debug, Default)]
pub struct CoProblem {
    /// Write events to the key (the initial write is implicit, before all).
    pub writes: Vec<EvId>,
    /// Pairs (indices into `writes`) that must be ordered one way or the other.
    pub must_order: Vec<(usize, usize)>,
    /// Required edges.
    pub req: Vec<(usize, usize)>,
    /// Forbidden edges (after closure); `usize::MAX` = the initial write.
    pub forbid: Vec<(usize, usize)>,
    /// Atomicity triples (w', w, a): not (w' co w and w co a); w' may be `usize::MAX` (init).
    pub atomic: Vec<(usize, usize, usize)>,
    /// Reads with their sources, for the SC-per-location cycle check: (read event, the range of
    /// its source write indices in [`Self::srcs`]).
    pub reads: Vec<(EvId, std::ops::Range<usize>)>,
    /// The reads' source write indices (`usize::MAX` = init), one range per read.
    pub srcs: Vec<usize>,
}

/// The initial write's index in a [`CoProblem`].
pub const INIT: usize = usize::MAX;

impl CoProblem {
    /// Empties the problem, keeping its buffers (one problem is filled per location).
    pub fn clear(&mut self) {
        self.writes.clear();
        self.must_order.clear();
        self.req.clear();
        self.forbid.clear();
        self.atomic.clear();
        self.reads.clear();
        self.srcs.clear();
    }

    /// The source write indices of read `k` ([`Self::reads`]).
    pub fn read_srcs(&self, k: usize) -> &[usize] {
        &self.srcs[self.reads[k].1.clone()]
    }

    /// Every strict order on `writes` that satisfies the problem, as closed relations, each
    /// passed to `f`; stops when `f` returns false. Returns whether any was found.
    pub fn solve(&self, f: &mut dyn FnMut(&Rel) -> bool) -> bool {
        let k = self.writes.len();
        let mut co = Rel::new(k);
        for &(a, b) in &self.req {
            co.add(a, b);
        }
        co.close();
        if co.reflexive_somewhere() || !self.partial_ok(&co) {
            return false;
        }
        let mut found = false;
        self.dfs(co, 0, &mut found, f);
        found
    }

    /// Whether the required edges, closed, break no constraint (a necessary condition).
    pub fn partial_consistent(&self) -> bool {
        let mut co = Rel::new(self.writes.len());
        for &(a, b) in &self.req {
            co.add(a, b);
        }
        co.close();
        !co.reflexive_somewhere() && self.partial_ok(&co)
    }

    fn partial_ok(&self, co: &Rel) -> bool {
        let has = |a: usize, b: usize| -> bool {
            if a == INIT {
                return b != INIT;
            }
            if b == INIT {
                return false;
            }
            co.has(a, b)
        };
        self.forbid.iter().all(|&(a, b)| !has(a, b))
            && self
                .atomic
                .iter()
                .all(|&(wp, w, a)| !(has(wp, w) && has(w, a)))
    }

    fn dfs(&self, co: Rel, i: usize, found: &mut bool, f: &mut dyn FnMut(&Rel) -> bool) -> bool {
        // Find the next pair still unordered.
        let mut j = i;
        while j < self.must_order.len() {
            let (a, b) = self.must_order[j];
            if !co.has(a, b) && !co.has(b, a) {
                break;
            }
            j += 1;
        }
        if j == self.must_order.len() {
            *found = true;
            return f(&co);
        }
        let (a, b) = self.must_order[j];
        for (x, y) in [(a, b), (b, a)] {
            let mut c = co.clone();
            c.add(x, y);
            c.close();
            if !c.reflexive_somewhere() && self.partial_ok(&c) && !self.dfs(c, j + 1, found, f) {
                return false;
            }
        }
        true
    }
}
