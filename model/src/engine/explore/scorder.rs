//! The Fence-SC order of a complete or partial execution (PTX ISA §8.9.3: "relates every pair of
//! morally strong fence.sc operations"): edges derived from communication, failed-literal
//! probing, a linear extension, and the search over the pairs left open.

use super::leaf::ScSearch;
use super::*;

impl<'w, P: Program, O: Observe<P>> Explorer<'w, P, O> {
    /// Failed-literal probing of the Fence-SC order: an orientation of a pair that alone breaks a
    /// necessary condition forces the other one in every consistent order. Repeats until nothing
    /// changes. `None`: no Fence-SC order can be consistent.
    pub(super) fn probe_sc(
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

    /// Fence-SC edges every consistent execution must have, derived from communication (a cheap
    /// fixpoint, like the `psc` relation of RC11): if `Fb` before `Fa` in Fence-SC order would put
    /// a write before a read that reads something coherence-before it (or a read before the write
    /// it reads from), then `Fa` precedes `Fb` (§8.9.4 makes Fence-SC order part of base
    /// causality order; §8.10.6 then forbids the communication). `None`: a cycle — no Fence-SC
    /// order can be consistent.
    ///
    /// `start`: the derivation of a graph this one extends ([`Derived`]): its edges hold here
    /// and the rounds go on from them. Returns the edges, base causality order with them, and
    /// (graphs of at most 64 events) the `early` rows, for the derivations that extend this one.
    pub(super) fn derive_sc(
        &self,
        g: &Graph,
        ch: &Checker,
        sets: (&[(EvId, EvId)], &[EvId], &[u64]),
        bco0: &Rel,
        cause0: &Rel,
        start: Option<Derived<'_>>,
    ) -> Option<Derivation> {
        let r = self.derive_sc_rounds(g, ch, sets, bco0, cause0, start.as_ref(), true);
        // Debug builds (the model tests) check the first round's restriction: asking every
        // pair gives the same edges.
        #[cfg(debug_assertions)]
        {
            let all = self.derive_sc_rounds(g, ch, sets, bco0, cause0, start.as_ref(), false);
            debug_assert!(
                r.as_ref().map(|x| (&x.0, &x.1)) == all.as_ref().map(|x| (&x.0, &x.1)),
                "derive_sc: the first round's restriction changed the derivation"
            );
        }
        r
    }

    /// [`Self::derive_sc`]'s rounds; `restrict`: the first round after `start` asks only the
    /// pairs whose fences may have changed.
    #[allow(clippy::too_many_arguments)]
    fn derive_sc_rounds(
        &self,
        g: &Graph,
        ch: &Checker,
        (free, fences, upper): (&[(EvId, EvId)], &[EvId], &[u64]),
        bco0: &Rel,
        cause0: &Rel,
        start: Option<&Derived<'_>>,
        restrict: bool,
    ) -> Option<Derivation> {
        let n = g.ev.len();
        // Edges derived already (for a smaller graph whose derivation this one extends) hold.
        let (mut forced, mut bco) = match start {
            Some(d) => (d.forced.to_vec(), d.bco.clone()),
            None => (Vec::new(), bco0.clone()),
        };
        if n <= 64 {
            // The same rounds on single words (at most 64 events: the common case), on the stack.
            let mut early = [0u64; 64];
            match start.and_then(|d| d.only.filter(|_| d.early.len() == n).map(|k| (d, k))) {
                Some((d, evs)) => {
                    // The prior rows, those of the location's accesses again.
                    early[..n].copy_from_slice(d.early);
                    for &x in evs {
                        early[x] = 0;
                    }
                    Self::early_pairs_at(g, evs, cause0, &mut |w, r| early[w] |= 1 << r);
                    #[cfg(debug_assertions)]
                    {
                        let mut all = [0u64; 64];
                        Self::early_pairs(g, ch, cause0, &mut |w, r| all[w] |= 1 << r);
                        debug_assert!(all == early, "derive_sc: early rows outside the location");
                    }
                }
                None => Self::early_pairs(g, ch, cause0, &mut |w, r| early[w] |= 1 << r),
            }
            // The first round asks only the pairs with a fence whose `before` set may differ
            // from the fixpoint `start` reached: a fence at or after an event whose `early` row
            // changed (`bco` is `start`'s, so `after` is too, and a pair of unchanged fences
            // was settled there). Every later round asks every pair.
            let fm = fences.iter().fold(0u64, |m, &f| m | 1 << f);
            // The fences asked in the next round, as events.
            let mut ask = fm;
            if let Some(d) = start.filter(|d| restrict && d.early.len() == n) {
                ask = 0;
                for (x, (&e, &pe)) in early[..n].iter().zip(d.early).enumerate() {
                    if e != pe {
                        ask |= (bco.row(x)[0] | 1 << x) & fm;
                    }
                }
            }
            let mut srcs = [0 as EvId; 64];
            let mut ns = 0;
            for (x, &e) in early[..n].iter().enumerate() {
                if e != 0 {
                    srcs[ns] = x;
                    ns += 1;
                }
            }
            let mut slot = [0usize; 64];
            for (i, &f) in fences.iter().enumerate() {
                slot[f] = i;
            }
            if ask == 0 {
                // No fence's `before` set changed: `start`'s fixpoint holds as it is.
                return Some((forced, bco, early[..n].to_vec()));
            }
            let nf = fences.len();
            let (mut before, mut after, mut rows) = ([0u64; 64], [0u64; 64], [0u64; 64]);
            loop {
                before[..nf].fill(0);
                for &x in &srcs[..ns] {
                    let ex = early[x];
                    let mut bits = bco.row(x)[0] & fm | fm & 1 << x;
                    while bits != 0 {
                        before[slot[bits.trailing_zeros() as usize]] |= ex;
                        bits &= bits - 1;
                    }
                }
                for (i, &f) in fences.iter().enumerate() {
                    rows[i] = bco.row(f)[0];
                    after[i] = rows[i] | 1 << f;
                }
                let mut changed = false;
                let ask_ev = std::mem::replace(&mut ask, fm);
                // The free pairs in their sorted order: each fence's later partners, fences
                // increasing; a pair is asked when one of its fences is.
                for &a in fences {
                    let i = slot[a];
                    let mut partners = upper[a];
                    if ask_ev >> a & 1 == 0 {
                        partners &= ask_ev;
                    }
                    while partners != 0 {
                        let b = partners.trailing_zeros() as usize;
                        partners &= partners - 1;
                        let j = slot[b];
                        // Ordered already (`rows` follows `bco` within the round; `after` and
                        // `before` are the round's start, as in the general rounds below).
                        if rows[i] >> b & 1 == 1 || rows[j] >> a & 1 == 1 {
                            continue;
                        }
                        let Some((x, y)) =
                            orient(a, b, before[j] & after[i] != 0, before[i] & after[j] != 0)?
                        else {
                            continue;
                        };
                        forced.push((x, y));
                        bco.add_closed(x, y);
                        for (r, &f) in rows[..nf].iter_mut().zip(fences) {
                            *r = bco.row(f)[0];
                        }
                        changed = true;
                    }
                }
                if !changed {
                    return Some((forced, bco, early[..n].to_vec()));
                }
            }
        }
        // For each write W: the reads that read something coherence-before W (init sources only,
        // and sources causally before W under the smallest causality order `cause0`, the
        // causality order under `bco0`, base causality order without Fence-SC edges); for each
        // read, the writes it reads from. Both keyed by the event that precedes a fence.
        let mut early = Rel::new(n);
        Self::early_pairs(g, ch, cause0, &mut |w, r| early.add(w, r));
        // The events with something to put before a fence.
        let mut srcs: Vec<EvId> = Vec::with_capacity(n);
        srcs.extend((0..n).filter(|&x| !early.row_empty(x)));
        let words = n.div_ceil(64).max(1);
        // Per fence (by its index in `fences`): what precedes it (the reads too early for the
        // writes there, the writes the reads there read from) and what follows it.
        let mut before = vec![0u64; fences.len() * words];
        let mut after = vec![0u64; fences.len() * words];
        let mut slot = vec![0usize; n];
        let mut fmask = vec![0u64; words];
        for (i, &f) in fences.iter().enumerate() {
            slot[f] = i;
            fmask[f / 64] |= 1 << (f % 64);
        }
        loop {
            before.fill(0);
            // Each event's row goes to the fences at or after it (the fences in its row of
            // `bco`, and itself if a fence).
            for &x in &srcs {
                let ex = early.row(x);
                let bx = bco.row(x);
                for k in 0..words {
                    let mut bits = bx[k] & fmask[k];
                    if x / 64 == k && fmask[k] >> (x % 64) & 1 == 1 {
                        bits |= 1 << (x % 64);
                    }
                    while bits != 0 {
                        let f = k * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        let i = slot[f];
                        for (b, e) in before[i * words..(i + 1) * words].iter_mut().zip(ex) {
                            *b |= e;
                        }
                    }
                }
            }
            for (i, &f) in fences.iter().enumerate() {
                let a = &mut after[i * words..(i + 1) * words];
                a.copy_from_slice(bco.row(f));
                a[f / 64] |= 1 << (f % 64);
            }
            // Would the fence in slot `j` before the one in slot `i` break something? (Its
            // predecessors before the other's successors.)
            let breaks = |i: usize, j: usize| -> bool {
                let (b, a) = (
                    &before[j * words..(j + 1) * words],
                    &after[i * words..(i + 1) * words],
                );
                b.iter().zip(a).any(|(x, y)| x & y != 0)
            };
            // Edges found are added to `bco` at once (the sets above only grow with it: what
            // they miss now is found in the next round).
            let mut changed = false;
            for &(a, b) in free {
                let (i, j) = (slot[a], slot[b]);
                if bco.has(a, b) || bco.has(b, a) {
                    continue;
                }
                let Some((x, y)) = orient(a, b, breaks(i, j), breaks(j, i))? else {
                    continue;
                };
                forced.push((x, y));
                bco.add_closed(x, y);
                changed = true;
            }
            if !changed {
                return Some((forced, bco, Vec::new()));
            }
        }
    }

    /// The pairs of [`Self::derive_sc`]'s `early` relation, each passed to `add`: for each
    /// write W, (W, R) for the reads R that read something coherence-before W (init sources
    /// only, and sources causally before W under the smallest causality order `cause0`); for
    /// each read R, (R, W) for the writes W it reads from. Generic-proxy accesses of one
    /// address only.
    fn early_pairs(g: &Graph, ch: &Checker, cause0: &Rel, add: &mut dyn FnMut(EvId, EvId)) {
        for (_, evs) in ch.base().by_key.iter() {
            Self::early_pairs_at(g, evs, cause0, add);
        }
    }

    /// [`Self::early_pairs`] of the accesses `evs` of one location.
    fn early_pairs_at(g: &Graph, evs: &[EvId], cause0: &Rel, add: &mut dyn FnMut(EvId, EvId)) {
        for &r in evs {
            let mr = g.ev[r].mem().unwrap();
            let Some(pieces) = (mr.read).then_some(mr.rf.as_ref()).flatten() else {
                continue;
            };
            if mr.proxy != Proxy::Generic {
                continue;
            }
            for &w in evs {
                let mw = g.ev[w].mem().unwrap();
                if w == r || !mw.write || mw.vaddr != mr.vaddr || !mw.overlaps(mr) {
                    continue;
                }
                if mw.proxy != Proxy::Generic {
                    continue;
                }
                for p in pieces {
                    match p.src {
                        Src::Init => add(w, r),
                        Src::Ev(s) if s != w && cause0.has(s, w) => add(w, r),
                        Src::Ev(s) if s == w => add(r, w),
                        _ => {}
                    }
                }
            }
        }
    }

    /// A total Fence-SC order extending base causality order and `forced`: the fences in a
    /// topological order of (bco ∪ forced), as edges between the unordered morally strong pairs;
    /// `bco` is base causality order with `forced` (closed). Returns the edges with base
    /// causality order under them (closed).
    pub(super) fn linear_sc(
        &self,
        (free, fences, upper): (&[(EvId, EvId)], &[EvId], &[u64]),
        forced: &[(EvId, EvId)],
        bco: Rel,
    ) -> (Vec<(EvId, EvId)>, Rel) {
        // Order unrelated pairs by a fixed rule consistent with bco: count predecessors (an
        // event's count exceeds that of every event before it, so the edges form no cycle).
        // One pass over the rows: each row adds one to the count of every fence in it; the
        // fences of `free` start at 1 (0: not a fence of `free`).
        let n = bco.n();
        let mut mask = vec![0u64; n.div_ceil(64).max(1)];
        let mut preds: Vec<usize> = vec![0; n];
        for &f in fences {
            mask[f / 64] |= 1 << (f % 64);
            preds[f] = 1;
        }
        for x in 0..n {
            for (k, (&r, &m)) in bco.row(x).iter().zip(&mask).enumerate() {
                let mut bits = r & m;
                while bits != 0 {
                    preds[k * 64 + bits.trailing_zeros() as usize] += 1;
                    bits &= bits - 1;
                }
            }
        }
        // The fences in that order: when each is free with, or ordered to, the next, the chain
        // of consecutive pairs closes to the same order as every pair (each pair's edge is the
        // chain between them), with one closed addition per fence instead of one per pair; the
        // edges listed (for the witness) are then the chain's links that are free pairs, the
        // order's transitive reduction as for coherence.
        let mut chain: Vec<EvId> = fences.to_vec();
        chain.sort_unstable_by_key(|&f| (preds[f], f));
        // Free partners per fence, one word each when the graph has at most 64 events.
        let is_free = |x: EvId, y: EvId| {
            if upper.len() == n && n <= 64 {
                upper[x.min(y)] >> x.max(y) & 1 == 1
            } else {
                free.binary_search(&(x, y)).is_ok() || free.binary_search(&(y, x)).is_ok()
            }
        };
        let linked = chain.windows(2).all(|p| {
            let (x, y) = (p[0], p[1]);
            bco.has(x, y) || bco.has(y, x) || is_free(x, y)
        });
        let mut edges = forced.to_vec();
        let mut out = bco;
        if linked && n <= 64 && chain.len() > 1 {
            // The same closure in one pass (graphs of at most 64 events: one word per row).
            // The chain is a linear extension of `bco`, so a new path from an event goes
            // through the first chain fence it reaches: from the back, each chain fence's row
            // is its own, the next fence and that fence's row; then every other event's row
            // gets the rows of the chain fences in it.
            for p in chain.windows(2) {
                if !out.has(p[0], p[1]) && is_free(p[0], p[1]) {
                    edges.push((p[0], p[1]));
                }
            }
            #[cfg(debug_assertions)]
            let expected = {
                let mut r = out.clone();
                for p in chain.windows(2) {
                    if !r.has(p[0], p[1]) {
                        r.add_closed(p[0], p[1]);
                    }
                }
                r
            };
            let mut cm = 0u64;
            for &f in &chain {
                cm |= 1 << f;
            }
            for k in (0..chain.len() - 1).rev() {
                let (a, b) = (chain[k], chain[k + 1]);
                let rb = out.row(b)[0] | 1 << b;
                out.row_mut(a)[0] |= rb;
            }
            for x in 0..n {
                let mut bits = out.row(x)[0] & cm;
                if cm >> x & 1 == 1 || bits == 0 {
                    continue;
                }
                let mut add = 0u64;
                while bits != 0 {
                    add |= out.row(bits.trailing_zeros() as usize)[0];
                    bits &= bits - 1;
                }
                out.row_mut(x)[0] |= add;
            }
            #[cfg(debug_assertions)]
            debug_assert!(out == expected, "linear_sc's one-pass closure");
        } else if linked {
            for p in chain.windows(2) {
                if !out.has(p[0], p[1]) {
                    if is_free(p[0], p[1]) {
                        edges.push((p[0], p[1]));
                    }
                    out.add_closed(p[0], p[1]);
                }
            }
        } else {
            for &(a, b) in free {
                if out.has(a, b) || out.has(b, a) {
                    continue;
                }
                let e = if (preds[a], a) < (preds[b], b) {
                    (a, b)
                } else {
                    (b, a)
                };
                edges.push(e);
                out.add_closed(e.0, e.1);
            }
        }
        (edges, out)
    }

    /// Depth-first over the orientations of the unordered pairs of morally strong `fence.sc`
    /// (§8.9.3). Returns false to stop the whole search.
    pub(super) fn sc_dfs(
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
}

/// The fences of the pairs `free` (events below `n`, each pair `(a, b)` with `a < b`),
/// increasing; and when `n` is at most 64, per event its partners after it, one word each (the
/// pairs in their sorted order are each event's partners in increasing order, events
/// increasing).
pub(super) fn fences_of(free: &[(EvId, EvId)], n: usize) -> (Vec<EvId>, Vec<u64>) {
    if n <= 64 {
        let mut m = 0u64;
        let mut upper = vec![0u64; n];
        for &(a, b) in free {
            m |= 1 << a | 1 << b;
            upper[a.min(b)] |= 1 << a.max(b);
        }
        (crate::engine::bits::row_iter(&[m]).collect(), upper)
    } else {
        let mut in_free = crate::engine::bits::BitSet::new(n);
        for &(a, b) in free {
            in_free.insert(a);
            in_free.insert(b);
        }
        (in_free.iter().collect(), Vec::new())
    }
}

/// The edge two unordered fences `a`, `b` must have, from whether `b` before `a` would break
/// something (`ab`) and whether `a` before `b` would (`ba`): `None` both would (no Fence-SC
/// order can be consistent), `Some(None)` neither.
fn orient(a: EvId, b: EvId, ab: bool, ba: bool) -> Option<Option<(EvId, EvId)>> {
    match (ab, ba) {
        (true, true) => None,
        (true, false) => Some(Some((a, b))),
        (false, true) => Some(Some((b, a))),
        (false, false) => Some(None),
    }
}

/// What [`Explorer::derive_sc`] returns: the edges derived, base causality order with them
/// (closed), and the `early` rows (empty above 64 events).
pub(super) type Derivation = (Vec<(EvId, EvId)>, Rel, Vec<u64>);

/// What a derivation of the Fence-SC edges ([`Explorer::derive_sc`]) of a graph reached, for the
/// derivations of the graphs that extend it.
pub(super) struct Derived<'a> {
    /// The edges derived.
    pub(super) forced: &'a [(EvId, EvId)],
    /// Base causality order with them (closed).
    pub(super) bco: &'a Rel,
    /// The `early` rows of that graph (empty: not kept, more than 64 events).
    pub(super) early: &'a [u64],
    /// The accesses of the one location whose reads changed since (a read there chose its
    /// write): `early` pairs relate accesses of one location, so only their rows change.
    pub(super) only: Option<&'a [EvId]>,
}
