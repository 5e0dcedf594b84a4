//! Pending loads choosing the write they read, and the partial consistency check after each
//! choice.

use super::*;

impl<'w, P: Program, O: Observe<P>> Explorer<'w, P, O> {
    /// The first pending read that may choose now: (thread, index in its pending list).
    ///
    /// Reads whose value no thread waits for are picked last: the mbarrier operations of async
    /// threads (a copy's `complete_tx`), then `red`s. Their choices do not depend on
    /// when they are made (a later write stays reachable by declining the ones there are), and
    /// made last they see every write the other reads' choices bring, so fewer of their
    /// choices are declined and taken again.
    pub(super) fn pick_pending(&self, st: &State<P>) -> Option<(usize, usize)> {
        for pass in 0..3 {
            for (t, th) in st.th.iter().enumerate() {
                // A stopped thread's earlier loads still read something (an error in a later
                // instruction it ran ahead to does not undo them).
                if matches!(th.status, Status::Cut) {
                    continue;
                }
                for (i, p) in th.pending.iter().enumerate() {
                    let late = match st.g.ev[p.ev].mem() {
                        Some(m) if m.red => 2,
                        Some(m) if m.mbar.is_some() && t >= self.nreal => 1,
                        _ => 0,
                    };
                    if late != pass {
                        continue;
                    }
                    if p.deferred_at.is_none() || Self::newer_write(st, p) {
                        return Some((t, i));
                    }
                }
            }
        }
        None
    }

    /// Whether a write of the deferred read `p`'s bytes became known after it declined every
    /// write there was (then it may choose again).
    fn newer_write(st: &State<P>, p: &Pending) -> bool {
        let (Some(seq), Some(m)) = (p.deferred_at, st.g.ev[p.ev].mem()) else {
            return false;
        };
        st.avail
            .iter()
            .any(|(&w, &s)| s > seq && st.g.ev[w].mem().is_some_and(|wm| wm.overlaps(m)))
    }

    /// Whether pending read `p` waits: it declined every write there was and no newer write of
    /// its bytes has come since.
    fn waits(st: &State<P>, p: &Pending) -> bool {
        p.deferred_at.is_some() && !Self::newer_write(st, p)
    }

    /// Whether a thread that cannot loop waits, in a read that declined every write there was,
    /// for a write of its bytes that no thread that may go on can still make
    /// ([`Self::may_go_on`]), or a spin waits for ever where the coherence-last writes of its
    /// settled locations let it exit ([`Self::goes_on_when_settled`]): then every end of the
    /// state is one the leaf drops.
    pub(super) fn dead_wait(&self, st: &State<P>) -> bool {
        let mut active: Option<Vec<bool>> = None;
        for (t, th) in st.th.iter().enumerate() {
            if th.status == Status::Stopped || th.pending.is_empty() {
                continue;
            }
            if !th.heads.is_empty() || self.may_loop(th) {
                // A spin whose reads all wait, on settled locations whose last writes let it
                // exit: the leaf's fairness probe drops every end of this state.
                let waits = |p: &Pending| {
                    Self::waits(st, p) && !st.g.ev[p.ev].mem().is_some_and(|m| m.write)
                };
                if th.status == Status::Run
                    && th.pending.iter().all(waits)
                    && self.goes_on_when_settled(st, t, 0)
                {
                    return true;
                }
                // Its first pending read is no spin's (no loop repeats it) and waits for a
                // write no thread that may go on can make: it never gets one, and the leaf's
                // fairness probe would drop every end of this state (a read the loop does not
                // repeat must take a value of its own).
                if let Some(p) = th.pending.iter().min_by_key(|p| p.ord) {
                    if Self::waits(st, p) && !self.repeats(st, th, p) {
                        let m = st.g.ev[p.ev].mem().unwrap();
                        let active = active.get_or_insert_with(|| self.may_go_on(st));
                        if !self.writes_from(
                            st,
                            active,
                            m.key,
                            m.off as u64,
                            m.size as u64,
                            Some(p.ev),
                        ) {
                            return true;
                        }
                    }
                }
                continue;
            }
            for p in th.pending.iter().filter(|p| Self::waits(st, p)) {
                let m = st.g.ev[p.ev].mem().unwrap();
                let active = active.get_or_insert_with(|| self.may_go_on(st));
                if !self.writes_from(st, active, m.key, m.off as u64, m.size as u64, Some(p.ev)) {
                    return true;
                }
            }
        }
        false
    }

    /// The states after pending read `i` of thread `t` chooses each write it may read (and,
    /// when a later write could still come, after it declines them all).
    /// `st` becomes the last of them (one copy fewer per choice point).
    pub(super) fn resolutions(&mut self, st: State<P>, t: usize, i: usize) -> Vec<State<P>> {
        if self.reds_commute(&st, st.th[t].pending[i].ev) {
            let now = self.resolve_one(st.clone(), t, i, false);
            if !now.is_empty() {
                return now;
            }
        }
        self.resolve_one(st, t, i, true)
    }

    /// Whether the pending `red` `r` may take the write it can read now, without also
    /// exploring it declining that write for a later one (`model/SEMANTICS.md` S8, "Reds that
    /// commute"): its operation is commutative and associative on integers (`add`, `and`, `or`,
    /// `xor`, `min`, `max`); every access of its bytes in the graph is a `red` of the same
    /// operation, type and bytes (so no read sees a value between two of them, and the last
    /// value is the same in any order); and nothing else can happen any more — every thread
    /// has ended, stopped, waits at a barrier or for a cluster or async phase, or waits in a
    /// read for a write no thread can still make. Then the remaining executions differ only
    /// in the order of these reds among themselves, and one order stands for all. When taking
    /// the write there is now contradicts causality order (another pending `red` of the bytes
    /// must come first), the caller explores every choice as usual.
    fn reds_commute(&self, st: &State<P>, r: EvId) -> bool {
        let Some(m) = st.g.ev[r].mem() else {
            return false;
        };
        let Some(rmw) = m.rmw.filter(|x| {
            m.red
                && !x.returns
                && x.float.is_none()
                && matches!(
                    x.op,
                    RmwOp::Add | RmwOp::And | RmwOp::Or | RmwOp::Xor | RmwOp::Min | RmwOp::Max
                )
        }) else {
            return false;
        };
        let same = |e: &Mem| {
            e.red
                && e.off == m.off
                && e.size == m.size
                && e.rmw.is_some_and(|y| {
                    !y.returns && y.op == rmw.op && y.signed == rmw.signed && y.float.is_none()
                })
        };
        let others_commute = st.g.ev.iter().all(|e| match e.mem() {
            Some(e) if e.key == m.key && e.overlaps(m) => same(e),
            _ => true,
        });
        if !others_commute {
            return false;
        }
        let active = self.may_go_on(st);
        // Threads at their end with ops still pending: they end once those are placed, which
        // may complete a barrier, a cluster phase or an async group another thread waits for.
        let finishing =
            |th: &Th<P>| th.status == Status::Run && matches!(th.front, Some((_, Step::Done)));
        let any_finishing = st.th.iter().any(|th| finishing(th));
        st.th.iter().enumerate().all(|(u, th)| match th.status {
            Status::Done | Status::Stopped | Status::Cut => true,
            Status::Bar(_) => !any_finishing,
            Status::Run => {
                if finishing(th) {
                    // Adds no event: its pending ops are in the graph (checked above).
                    return true;
                }
                if !th.pending.is_empty() {
                    return !active[u];
                }
                if !th.join_first.is_empty() {
                    return false;
                }
                match &th.front {
                    Some((_, Step::Op(op, ..))) => !any_finishing && !self.ready(st, u, op),
                    _ => false,
                }
            }
        })
    }

    /// The states after pending read `i` of thread `t` chooses each write it may read (and, with
    /// `defer`, when a later write could still come, after it declines them all).
    pub(super) fn resolve_one(
        &mut self,
        st: State<P>,
        t: usize,
        i: usize,
        defer: bool,
    ) -> Vec<State<P>> {
        // Declining every available write is useful only if another write may still come — or
        // if the thread spins: waiting for ever is then how a hang shows (the leaf's probe
        // decides whether that wait is fair).
        let decline = defer
            && (self.future_write_possible(&st, t, st.th[t].pending[i].ev)
                || (self.may_loop(&st.th[t]) && !self.goes_on_when_settled(&st, t, i)));
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
        // The choices, in the odometer's order; the last state explored takes `st` itself.
        let mut choices: Vec<Vec<Piece>> = Vec::new();
        if segs.iter().all(|s| !s.is_empty()) {
            loop {
                choices.push(
                    choice
                        .iter()
                        .enumerate()
                        .map(|(k, &c)| segs[k][c])
                        .collect(),
                );
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
        let mut st = Some(st);
        let last = choices.len();
        for (k, pieces) in choices.into_iter().enumerate() {
            let mut s = match (k + 1 == last && !decline, &mut st) {
                (true, s) => s.take().expect("the state is taken once"),
                (false, s) => s.as_ref().expect("the state is kept").clone(),
            };
            if self.resolve(&mut s, t, i, pieces) {
                if let Flow::Go = self.check_partial(&mut s, r) {
                    out.push(s);
                }
            }
        }
        if let (true, Some(mut s)) = (decline, st) {
            s.th[t].pending[i].deferred_at = Some(s.seq);
            out.push(s);
        }
        out
    }

    pub(super) fn future_write_possible(&self, st: &State<P>, _t: usize, r: EvId) -> bool {
        let m = st.g.ev[r].mem().unwrap();
        self.writes_may_come(st, m.key, m.off as u64, m.size as u64, Some(r))
    }

    /// Whether a write of bytes `off..off+size` of location `key` may still be added: a pending
    /// RMW (other than `except`) on them, or a thread (or async operation) that may still
    /// reach a write the interpreter cannot rule out for them ([`Program::may_write_to`]).
    pub(super) fn writes_may_come(
        &self,
        st: &State<P>,
        key: LocKey,
        off: u64,
        size: u64,
        except: Option<EvId>,
    ) -> bool {
        let active = self.may_go_on(st);
        self.writes_from(st, &active, key, off, size, except)
    }

    /// The threads that may still go on: a thread whose pending reads all wait for a newer
    /// write (it declined every write there was) goes on only if one of those may still come
    /// from a thread that may go on; every other thread may (a least fixpoint from the threads
    /// that are not waiting so).
    fn may_go_on(&self, st: &State<P>) -> Vec<bool> {
        // Waiting: every pending read declined every write there was and no newer write of its
        // bytes has come since (one that has lets it go on at the next resolution).
        let waiting = |th: &Th<P>| {
            th.status == Status::Run
                && !th.pending.is_empty()
                && th.pending.iter().all(|p| Self::waits(st, p))
        };
        let mut active: Vec<bool> = st.th.iter().map(|th| !waiting(th)).collect();
        loop {
            let mut changed = false;
            for t in 0..st.th.len() {
                if active[t] {
                    continue;
                }
                let wakes = st.th[t].pending.iter().any(|p| {
                    let m = st.g.ev[p.ev].mem().unwrap();
                    self.writes_from(st, &active, m.key, m.off as u64, m.size as u64, Some(p.ev))
                });
                if wakes {
                    active[t] = true;
                    changed = true;
                }
            }
            if !changed {
                return active;
            }
        }
    }

    /// Whether one of the `active` threads may still write bytes `off..off+size` of `key`
    /// (see [`Self::writes_may_come`]).
    fn writes_from(
        &self,
        st: &State<P>,
        active: &[bool],
        key: LocKey,
        off: u64,
        size: u64,
        except: Option<EvId>,
    ) -> bool {
        let within = |pm: &Mem| {
            pm.key == key
                && (pm.off as u64) < off.saturating_add(size)
                && off < pm.off as u64 + pm.size as u64
        };
        let pending_rmw = st.th.iter().zip(active).any(|(th, &a)| {
            a && th.pending.iter().any(|p| {
                Some(p.ev) != except && st.g.ev[p.ev].mem().is_some_and(|pm| pm.write && within(pm))
            })
        });
        if pending_rmw {
            return true;
        }
        // A write of another variable, or of other bytes of this one, or of another CTA's copy,
        // is no write of these bytes (a multicast counts for every CTA's copy).
        st.th.iter().zip(active).filter(|(_, &a)| a).any(|(th, _)| {
            let cluster_size = self.cluster_size(th.place.cluster);
            let mut hit = |space: Space, addr: Option<Val>, n: u64, every_cta: bool| -> bool {
                // An address not known yet is any location of its state space.
                let Some(addr) = addr else {
                    let shared = self.world.layout.vars[key.0 as usize].shared;
                    return match space {
                        Space::Global => !shared,
                        Space::SharedCta | Space::SharedCluster => shared,
                        _ => true,
                    };
                };
                let Ok(loc) =
                    self.world
                        .layout
                        .resolve(space, addr, 1, th.place.rank, cluster_size)
                else {
                    return true;
                };
                let cta = match loc.rank {
                    Some(r) if !every_cta => self.cta_of_rank.get(&(th.place.cluster, r)).copied(),
                    _ => None,
                };
                loc.var == key.0
                    && cta.is_none_or(|c| c == key.1)
                    && (loc.off as u64) < off.saturating_add(size)
                    && off < (loc.off as u64).saturating_add(n)
            };
            // The step the engine holds (the program has already moved past it), then what the
            // program may still do.
            let front = |hit: &mut dyn FnMut(Space, Option<Val>, u64, bool) -> bool| match &th.front
            {
                Some((_, Step::Op(op, ..))) => match op {
                    Op::Load(_)
                    | Op::Fence(..)
                    | Op::ProxyFence(_)
                    | Op::Bar { .. }
                    | Op::ClusterArrive { .. }
                    | Op::ClusterWait
                    | Op::Commit { .. }
                    | Op::WaitGroup { .. }
                    | Op::PendingCount(_)
                    | Op::Clock { .. }
                    | Op::Warp(..) => false,
                    Op::Store(acc, _) | Op::Rmw(acc, _) => {
                        hit(acc.space, Some(acc.addr), acc.size as u64, false)
                    }
                    Op::Mbar { space, addr, .. } => hit(*space, Some(*addr), 8, false),
                    _ => true,
                },
                _ => false,
            };
            match (&th.status, &th.front) {
                (Status::Run | Status::Bar(_), Some((_, Step::Done))) => false,
                (Status::Run | Status::Bar(_), Some((Prog::User(p), _))) => {
                    front(&mut hit) || p.may_write_to(&mut hit)
                }
                (Status::Run | Status::Bar(_), Some((Prog::Async(p), _))) => {
                    front(&mut hit) || p.may_write_to(&mut hit)
                }
                _ => false,
            }
        })
    }

    /// The coherence-maximal write of bytes `off..off+size` of location `key` as it will be at
    /// the end, when that is already known: no write of them may still come, every write of
    /// them covers exactly them, and they form one chain (every write but one is read by an RMW).
    /// `Some(None)`: they have no write. `None`: not known yet.
    fn settled_max(
        &self,
        st: &State<P>,
        key: LocKey,
        off: u32,
        size: u8,
    ) -> Option<Option<Vec<EvId>>> {
        if self.writes_may_come(st, key, off as u64, size as u64, None) {
            return None;
        }
        let writes: Vec<EvId> = (0..st.g.ev.len())
            .filter(|&e| {
                st.g.ev[e].mem().is_some_and(|m| {
                    m.write
                        && m.key == key
                        && m.off < off + size as u32
                        && off < m.off + m.size as u32
                })
            })
            .collect();
        if writes.is_empty() {
            return Some(None);
        }
        let mut read: BTreeSet<EvId> = BTreeSet::new();
        for &w in &writes {
            let m = st.g.ev[w].mem().unwrap();
            if m.wval.is_none() || m.off != off || m.size != size {
                return None;
            }
            if m.read {
                for p in m.rf.as_ref()? {
                    if let Src::Ev(e) = p.src {
                        read.insert(e);
                    }
                }
            }
        }
        let last: Vec<EvId> = writes.into_iter().filter(|w| !read.contains(w)).collect();
        (last.len() == 1).then_some(Some(last))
    }

    /// Whether thread `t`, if its pending read `i` declined every write and the thread waited
    /// for ever, could not end a fair execution: every location its wait reads is settled
    /// ([`Self::settled_max`]) and reading the coherence-last writes lets it go on — exactly
    /// what the leaf's probe would find, so that branch would be dropped there. Only asked
    /// when the thread's other pending reads wait already (as they would at the end).
    pub(super) fn goes_on_when_settled(&self, st: &State<P>, t: usize, i: usize) -> bool {
        if st.th[t]
            .pending
            .iter()
            .enumerate()
            .any(|(k, p)| k != i && p.deferred_at.is_none())
        {
            return false;
        }
        let mut unknown = false;
        let mut max = |k: LocKey, off: u32, size: u8| match self.settled_max(st, k, off, size) {
            Some(v) => Ok(v),
            None => {
                unknown = true;
                Err(())
            }
        };
        let hang = self.probe(st, t, &mut max);
        !unknown && hang.is_none()
    }

    /// Sets the read's sources and value, computes what an RMW writes and what the thread gets
    /// back. Returns false when the state is not an execution (never: errors stop the thread).
    pub(super) fn resolve(
        &self,
        st: &mut State<P>,
        t: usize,
        i: usize,
        pieces: Vec<Piece>,
    ) -> bool {
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
        let th: &mut Th<P> = &mut st.th[t];
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
    /// the coherence edges every execution extending it must have). Called after a read chooses
    /// its write: a new store, fence, barrier completion or wait adds an event with no successor
    /// yet, and constraints only point into it — it cannot break a consistent partial execution.
    pub(super) fn check_partial(&mut self, st: &mut State<P>, read: EvId) -> Flow<P> {
        let t0 = self.timed.then(std::time::Instant::now);
        let r = self.check_partial_inner(st, read);
        self.stats.2 += 1;
        self.stats.3 += t0.map_or(0.0, |t| t.elapsed().as_secs_f64());
        r
    }

    /// The partial check and whether some Fence-SC order may still be consistent (the Fence-SC
    /// edges derived from communication, [`Self::derive_sc`], form no cycle), on one
    /// [`Checker`]: base causality order and causality order are computed once for both.
    ///
    /// `read` chose its write last. When the state before that choice passed this check and
    /// the choice changed neither base causality order nor the events
    /// ([`leaf::Checked::extends_to`]), only the read's location can break the coherence
    /// conditions (causality order grew only there), and the Fence-SC derivation goes on from
    /// the edges derived before.
    pub(super) fn check_partial_inner(&self, st: &mut State<P>, read: EvId) -> Flow<P> {
        let cl = |c: u32| self.cluster_of_cta.get(&c).copied().unwrap_or(c);
        let parent = st.checked.take();
        let ch = Checker::new_from(&st.g, &cl, parent.as_deref().and_then(|p| p.base()));
        let edges = ch.bco_edges();
        let bco = ch.bco_from(&edges, parent.as_deref().map(|p| p.prior_bco()));
        let parent = parent.filter(|p| p.extends_to(&st.g, &ch, &bco));
        let only = match (&parent, st.g.ev[read].mem()) {
            (Some(_), Some(m)) => Some(m.key),
            _ => None,
        };
        // That location's accesses, looked up once for causality order and the derivation.
        let only_evs = only.and_then(|k| ch.base().by_key.iter().find(|(key, _)| *key == k));
        let only_evs = only_evs.map(|(_, evs)| evs.as_slice());
        let prior = parent.as_deref().map(|p| p.cause0()).zip(only_evs);
        let Some(cause) = self.necessary_cause_from(&st.g, &ch, &bco, only, prior) else {
            return Flow::Prune;
        };
        let derived = leaf::Checked::derive(
            self,
            &st.g,
            &ch,
            bco,
            edges,
            cause,
            parent.as_deref(),
            only_evs,
        );
        match derived {
            Some(mut c) => {
                // Kept only for graphs whose relations are small: every state on the search's
                // stack holds its own (a few n²-bit relations), and memory stays bounded by the
                // depth of one execution.
                if st.g.ev.len() <= leaf::KEEP_MAX_EVENTS {
                    c.keep_base(ch.into_base());
                    st.checked = Some(std::rc::Rc::new(c));
                }
                Flow::Go
            }
            None => Flow::Prune,
        }
    }

    /// A necessary condition for consistency under base causality order `bco` (closed): no cycle,
    /// the causality axiom on reads-from, and coherence constraints that do not contradict each
    /// other. Extending `bco` (more events, more Fence-SC edges) only adds constraints.
    pub(super) fn necessary(&self, g: &Graph, ch: &Checker, bco: &Rel) -> bool {
        self.necessary_cause(g, ch, bco, None).is_some()
    }

    /// [`Self::necessary`], returning the causality order it computed when the condition holds;
    /// with `only`, the coherence conditions are asked of that location alone (the others are
    /// known to hold).
    pub(super) fn necessary_cause(
        &self,
        g: &Graph,
        ch: &Checker,
        bco: &Rel,
        only: Option<LocKey>,
    ) -> Option<Rel> {
        self.necessary_cause_from(g, ch, bco, only, None)
    }

    /// [`Self::necessary_cause`], with `prior`: the causality order of the graph this one
    /// extends when only the location `only` changed, and that location's accesses
    /// ([`Checker::cause_at`]).
    pub(super) fn necessary_cause_from(
        &self,
        g: &Graph,
        ch: &Checker,
        bco: &Rel,
        only: Option<LocKey>,
        prior: Option<(&Rel, &[EvId])>,
    ) -> Option<Rel> {
        if bco.reflexive_somewhere() {
            return None;
        }
        let (pp, cause) = prior
            .and_then(|(p, evs)| ch.cause_at(bco, p, evs))
            .unwrap_or_else(|| ch.cause(bco));
        if cause.reflexive_somewhere() {
            return None;
        }
        let mut cp = CoProblem::default();
        let ok = ch
            .base()
            .by_key
            .iter()
            .enumerate()
            .all(|(loc, (key, evs))| {
                if only.is_some_and(|k| k != *key) {
                    return true;
                }
                let strong = !ch.base().racy[loc];
                if !self.co_problem(g, ch, evs, &pp, &cause, &mut cp) {
                    return false;
                }
                if !cp.partial_consistent() {
                    return false;
                }
                // SC per location (§8.10.5) holds of a partial execution's reads and writes under
                // some coherence order, or of no extension: later events only add edges. Asked only
                // of locations with read-modify-writes (atomics, mbarrier objects), where a chain
                // fixes most of the order and a wrong read is common; elsewhere the search for an
                // order costs more than the leaf's check it would save.
                let rmw = evs
                    .iter()
                    .any(|&e| g.ev[e].mem().is_some_and(|m| m.read && m.write));
                if !rmw {
                    return true;
                }
                let mut ok = false;
                cp.solve(&mut |co: &Rel| {
                    ok = super::leaf::sc_per_location(g, &cp, co, strong);
                    !ok
                });
                ok
            });
        ok.then_some(cause)
    }

    /// The coherence problem of one location, into `cp` (emptied first; false: a violation
    /// found while building it).
    pub(super) fn co_problem(
        &self,
        g: &Graph,
        _ch: &Checker,
        evs: &[EvId],
        pp: &Rel,
        cause: &Rel,
        cp: &mut CoProblem,
    ) -> bool {
        cp.clear();
        let mut writes = std::mem::take(&mut cp.writes);
        writes.extend(
            evs.iter()
                .copied()
                .filter(|&e| g.ev[e].mem().is_some_and(|m| m.write && m.wval.is_some())),
        );
        let ok = Self::co_constraints(g, evs, pp, cause, &writes, cp);
        cp.writes = writes;
        ok
    }

    /// The constraints of [`Self::co_problem`] on the location's `writes`.
    fn co_constraints(
        g: &Graph,
        evs: &[EvId],
        pp: &Rel,
        cause: &Rel,
        writes: &[EvId],
        cp: &mut CoProblem,
    ) -> bool {
        let idx = |e: EvId| writes.iter().position(|&w| w == e);
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
                        return false;
                    }
                }
            }
            // Causality 2: "If a write W precedes an overlapping read R in causality order, then
            // for any byte accessed by both R and W, R cannot read from any write W' that
            // precedes W in coherence order."
            for &w in writes {
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
                        Some(INIT) => return false,
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
                            Some(INIT) => return false,
                            Some(s) => cp.forbid.push((s, idx(w1).unwrap())),
                            None => {}
                        }
                    }
                }
            }
            let start = cp.srcs.len();
            cp.srcs.extend(pieces.iter().filter_map(|p| src_idx(p.src)));
            cp.reads.push((r, start..cp.srcs.len()));
        }
        true
    }
}
