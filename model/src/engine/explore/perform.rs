//! Performing a thread's operations: memory accesses, fences, barriers, mbarriers, async copies
//! and warp collectives.

use super::*;

impl<'w, P: Program, O: Observe<P>> Explorer<'w, P, O> {
    /// Performs an op of thread `t`.
    pub(super) fn perform(&mut self, st: &mut State<P>, t: usize, op: Op, at: At) -> Flow<P> {
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
                Flow::Go
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
                if let crate::engine::op::ProxyFence::AsyncGeneric { sem, restrict } = k {
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
                Flow::Go
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
                let th: &mut Th<P> = &mut st.th[t];
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
                    let th: &mut Th<P> = &mut st.th[t];
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
                let ev = self.join_after(st, t, after, at);
                let th: &mut Th<P> = &mut st.th[t];
                if !read {
                    if bulk {
                        th.bgroups.drain(..k);
                    } else {
                        th.groups.drain(..k);
                    }
                }
                Self::push_op(st, t, Some(ev), Some(Reply::None));
                Flow::Go
            }
            Op::AsyncMbarArrive { space, addr, noinc } => {
                let prior: Vec<usize> = st.th[t]
                    .groups
                    .iter()
                    .flatten()
                    .chain(st.th[t].open.iter())
                    .copied()
                    .collect();
                let place = match self.locate_or_stop(st, t, space, addr, 8, &at) {
                    Ok(((_, cta), ..)) => self.place_of_cta(cta, st.th[t].place),
                    Err(()) => return Flow::Go,
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
                st.th.push(Shared::new(th));
                st.g.po.push(Shared::default());
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
                let dst_rank =
                    match self.locate_or_stop(st, t, access.space, access.addr, access.size, &at) {
                        Ok(((_, cta), ..)) => self.rank_of_cta.get(&cta).copied().unwrap_or(0),
                        Err(()) => return Flow::Go,
                    };
                let size = access.size as u64;
                let c = crate::engine::op::Copy {
                    moves: (0..vals.len() as u64)
                        .map(|k| crate::engine::op::Move {
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
            Op::Clock { jump } => {
                let prev = st.th[t].clock;
                let mut out = Vec::new();
                let choices: Vec<Val> = match prev {
                    None => vec![1 << 32],
                    Some(v) if jump => vec![v, v + CLOCK_JUMP],
                    Some(v) => vec![v],
                };
                for v in choices {
                    let mut s = st.clone();
                    if prev.is_some_and(|p| v != p) {
                        s.th[t].jumped = true;
                    }
                    s.th[t].clock = Some(v);
                    Self::push_op(&mut s, t, None, Some(Reply::Value(v)));
                    out.push(s);
                }
                Flow::Branch(out)
            }
            Op::Warp(w, mask) => self.warp(st, t, w, mask, at),
        }
    }

    pub(super) fn place_of_cta(&self, cta: u32, like: Place) -> Place {
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
    pub(super) fn cluster_sources(&self, st: &State<P>, a: EvId) -> Vec<(EvId, bool)> {
        let Kind::ClusterArrive { relaxed, .. } = st.g.ev[a].kind else {
            return vec![];
        };
        if !relaxed {
            return vec![(a, false)];
        }
        let t = st.g.ev[a].thread;
        let ord = st.g.ev[a].ord;
        let mut out = Vec::new();
        for &f in st.g.po[t].iter() {
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

    /// A warp collective (PTX ISA §9.7.13.2 `bar.warp.sync`, §9.7.13.9 `vote.sync`, §9.7.9.6
    /// `shfl.sync`, §9.7.13.14 `elect.sync`, §9.7.13.11 `activemask`): every lane of `mask` must
    /// reach one; then each gets its result. Only `bar.warp.sync` orders memory ("guarantees
    /// memory ordering among threads participating in barrier"): its arrivals synchronize with
    /// every lane's continuation, as a barrier's.
    pub(super) fn warp(
        &mut self,
        st: &mut State<P>,
        t: usize,
        w: crate::engine::op::Warp,
        mask: Val,
        at: At,
    ) -> Flow<P> {
        use crate::engine::op::Warp;
        let p = st.th[t].place;
        if let Warp::ActiveMask = w {
            // The lanes of the warp that have not exited.
            let m = (0..self.nreal)
                .filter(|&u| {
                    let q = st.th[u].place;
                    q.cta == p.cta
                        && q.warp == p.warp
                        && !matches!(st.th[u].status, Status::Done | Status::Stopped)
                })
                .fold(0u64, |m, u| m | 1 << st.th[u].place.lane);
            Self::push_op(st, t, None, Some(Reply::Value(m)));
            return Flow::Go;
        }
        if mask >> p.lane & 1 == 0 {
            Self::stop(
                st,
                t,
                "bad-warp",
                format!(
                    "P{t} `{}` (line {}): its own lane is not in the member mask",
                    at.text, at.line
                ),
            );
            return Flow::Go;
        }
        let key = (p.cta, p.warp);
        let gen = *st.warp_gen.get(&key).unwrap_or(&0);
        let ev = self.add_event(
            st,
            t,
            Kind::Warp {
                key: (p.cta, p.warp, gen),
                sync: matches!(w, Warp::Sync),
            },
            at,
        );
        st.th[t].impure += 1;
        st.warps.entry(key).or_default().push((t, ev, w, mask));
        st.th[t].ahead.push((Some(ev), None));
        st.th[t].status = Status::Bar(ev);
        // Complete when every lane of the mask has arrived.
        let lanes: Vec<usize> = (0..self.nreal)
            .filter(|&u| {
                let q = st.th[u].place;
                q.cta == p.cta && q.warp == p.warp && mask >> q.lane & 1 == 1
            })
            .collect();
        let arrived = &st.warps[&key];
        if !lanes.iter().all(|&u| arrived.iter().any(|a| a.0 == u)) {
            return Flow::Go;
        }
        let arr = st.warps.remove(&key).unwrap();
        st.warp_gen.insert(key, gen + 1);
        let lane_of = |u: usize| st.th[u].place.lane;
        let vals: Vec<(u32, u64)> = arr
            .iter()
            .map(|a| {
                let v = match a.2 {
                    Warp::Vote(_, v) | Warp::Shfl(_, v, _, _) => v,
                    _ => 0,
                };
                (lane_of(a.0), v)
            })
            .collect();
        let lowest = vals.iter().map(|v| v.0).min().unwrap_or(0) as u64;
        let replies: Vec<Reply> = arr
            .iter()
            .map(|arrival| match arrival.2 {
                Warp::Sync | Warp::ActiveMask => Reply::None,
                Warp::Elect => Reply::Elect(lane_of(arrival.0) as u64 == lowest, lowest),
                Warp::Vote(mode, _) => {
                    let ones: Vec<bool> = vals.iter().map(|v| v.1 != 0).collect();
                    let r = match mode {
                        crate::engine::op::VoteMode::All => ones.iter().all(|b| *b) as u64,
                        crate::engine::op::VoteMode::Any => ones.iter().any(|b| *b) as u64,
                        crate::engine::op::VoteMode::Uni => {
                            (ones.iter().all(|b| *b) || ones.iter().all(|b| !*b)) as u64
                        }
                        crate::engine::op::VoteMode::Ballot => vals
                            .iter()
                            .filter(|v| v.1 != 0)
                            .fold(0u64, |m, v| m | 1 << v.0),
                    };
                    Reply::Value(r)
                }
                Warp::Shfl(mode, own, b, c) => {
                    let src = shfl_source(mode, lane_of(arrival.0), b as u32, c as u32);
                    let v = vals.iter().find(|v| v.0 == src).map_or(own, |v| v.1);
                    Reply::Value(v)
                }
            })
            .collect();
        let sync_edges = matches!(arr[0].2, Warp::Sync);
        for (k, &(u, e, _, _)) in arr.iter().enumerate() {
            if sync_edges {
                let at = st.g.ev[e].at.clone();
                let wait = self.add_event(
                    st,
                    u,
                    Kind::BarWait {
                        cta: p.cta,
                        id: 1000 + p.warp,
                        gen,
                    },
                    at,
                );
                for a in &arr {
                    st.g.sync.push((a.1, wait));
                }
            }
            st.th[u].wake(replies[k]);
        }
        if sync_edges {
            return Flow::Go;
        }
        Flow::Go
    }

    /// A CTA barrier arrival (PTX ISA §9.7.13.1). Arrivals that name the same thread count form
    /// a generation (different counts never complete each other: the ISA requires them equal); a
    /// generation with an explicit count completes at that many arrivals, one with no count when
    /// every thread of the CTA arrived or exited ("wait for non-exited threads").
    #[allow(clippy::too_many_arguments)]
    pub(super) fn bar(
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
            return Flow::Go;
        }
        Flow::Go
    }

    /// Completes every generation of CTA `cta`'s barriers that can complete; whether any did.
    pub(super) fn complete_bars(&mut self, st: &mut State<P>, cta: u32) -> bool {
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

    pub(super) fn complete_bar(&mut self, st: &mut State<P>, key: (u32, u32, Option<u64>)) {
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
            st.th[wt].wake(reply);
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn mbar(
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
            Self::bad_address(st, t, &at, "an mbarrier object must be in shared memory");
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
                    Flow::Go
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
                Flow::Go
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
    pub(super) fn copy(
        &mut self,
        st: &mut State<P>,
        t: usize,
        c: crate::engine::op::Copy,
        at: At,
    ) -> Flow<P> {
        self.spawn(st, t, c, None, at)
    }

    pub(super) fn spawn(
        &mut self,
        st: &mut State<P>,
        t: usize,
        c: crate::engine::op::Copy,
        value: Option<Vec<Val>>,
        at: At,
    ) -> Flow<P> {
        let p = st.th[t].place;
        let ev = self.add_event(st, t, Kind::Issue { child: st.th.len() }, at.clone());
        st.th[t].impure += 1;
        // Destinations: one per CTA of a multicast mask, else one.
        let mut copies: Vec<(crate::engine::op::Copy, Place)> = Vec::new();
        match c.multicast {
            Some(mask) => {
                for r in 0..16u32 {
                    if mask >> r & 1 == 0 {
                        continue;
                    }
                    let Some(&cta) = self.cta_of_rank.get(&(p.cluster, r)) else {
                        let why = format!("ctaMask names rank {r}, not in the cluster");
                        Self::bad_address(st, t, &at, &why);
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
                    Completion::Mbarrier(space, a) => {
                        match self.locate_or_stop(st, t, space, a, 8, &at) {
                            Ok(((_, cta), ..)) => self.place_of_cta(cta, p),
                            Err(()) => return Flow::Go,
                        }
                    }
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
                                if (a - crate::engine::op::GENERIC_SHARED)
                                    >> crate::engine::op::RANK_SHIFT
                                    == 0 =>
                            {
                                (
                                    Space::SharedCluster,
                                    Layout::mapa_shared(
                                        a - crate::engine::op::GENERIC_SHARED,
                                        p.rank,
                                    ),
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
            st.th.push(Shared::new(th));
            st.g.po.push(Shared::default());
            match completion {
                Completion::AsyncGroup => st.th[t].open.push(child),
                Completion::BulkGroup => st.th[t].bopen.push(child),
                Completion::Mbarrier(..) => {}
            }
        }
        Self::push_op(st, t, Some(ev), Some(Reply::None));
        Flow::Go
    }
}
