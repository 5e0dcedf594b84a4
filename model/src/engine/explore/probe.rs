//! The fairness probe: a thread left waiting is run on with the coherence-last values of what it
//! reads, to tell a spin that waits for ever (a hang) from an end that is not fair (SEMANTICS S6).

use super::*;

impl<'w, P: Program, O: Observe<P>> Explorer<'w, P, O> {
    /// A thread left with a pending read at the end: run it on with the coherence-last values.
    /// `Some(description)` if it then spins for ever (a hang in a fair execution), `None` if it
    /// would go on (this end is not fair).
    ///
    /// `max(key, off, size)` gives the coherence-maximal writes of a location (of those bytes,
    /// at least; `None`: it has none);
    /// `Err(())` when they are not known yet — then the probe answers `None` too (the caller
    /// that asks before the end treats that as "unknown").
    pub(super) fn probe(
        &self,
        st: &State<P>,
        t: usize,
        max: &mut dyn FnMut(LocKey, u32, u8) -> Result<Option<Vec<EvId>>, ()>,
    ) -> Option<String> {
        let mut th = st.th[t].clone();
        let layout = &self.world.layout;
        let mut value_of = |m: &Mem| -> Option<Reply> {
            let ws = max(m.key, m.off, m.size).ok()?;
            let mut v = 0u64;
            for b in 0..m.size as u32 {
                let at = m.off + b;
                let w = ws.as_ref().and_then(|ws| {
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
                                return Some(match m.mbar {
                                    Some(MbarAct::WaitParity(p)) => Reply::Pred(s.wait_parity(p)),
                                    Some(MbarAct::WaitState(k)) => {
                                        Reply::Pred(s.wait_token(k).unwrap_or(false))
                                    }
                                    _ => Reply::Value(0),
                                })
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
            Some(Reply::Value(v))
        };
        let first = th.pending.first()?.clone();
        let at = st.g.ev[first.ev].at.clone();
        // The pending reads (op ordinal, line): the coherence-last value is the one a fair
        // execution ends with only for a read the loop repeats (a read repeated for ever
        // eventually sees the last write, SEMANTICS S6). A pending read before the loop's
        // repeated reads that the loop does not repeat must take a value of its own: then this
        // is not an end. (Pending reads after them ran ahead of the loop: the loop does not
        // depend on them.)
        let pending_lines: Vec<(u32, usize)> = th
            .pending
            .iter()
            .map(|p| (p.ord, st.g.ev[p.ev].at.line))
            .collect();
        let mut repeated: BTreeSet<usize> = BTreeSet::new();
        for p in th.pending.clone() {
            let m = st.g.ev[p.ev].mem().unwrap();
            if m.write {
                return None; // a pending RMW would write: progress
            }
            let k = (p.ord - th.snap_ord) as usize;
            th.ahead[k].1 = Some(value_of(m)?);
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
                    // A state recorded on entering the loop is not one the probe's run came
                    // back to: the probe compares only the ends of iterations.
                    if heads
                        .get(&head)
                        .is_some_and(|&(f, imp, _, entry)| !entry && f == fp && imp == th.impure)
                    {
                        let first_spin = pending_lines
                            .iter()
                            .filter(|(_, l)| repeated.contains(l))
                            .map(|&(o, _)| o)
                            .min();
                        let before_loop = pending_lines.iter().any(|&(o, l)| {
                            !repeated.contains(&l) && first_spin.is_none_or(|f| o < f)
                        });
                        if before_loop {
                            return None;
                        }
                        return Some(format!(
                            "P{t} `{}` (line {}): the loop can wait for ever (its reads see the last writes and it does not exit)",
                            at.text, at.line
                        ));
                    }
                    heads.insert(head, (fp, th.impure, 0, false));
                }
                Step::Op(Op::Load(acc), ref lat, _) => {
                    repeated.insert(lat.line);
                    let Ok((key, off, _, _)) = self.locate(st, t, acc.space, acc.addr, acc.size)
                    else {
                        return None;
                    };
                    let m = Mem {
                        read: true,
                        ..Mem::access(key, off, acc.size, 0, false, acc.proxy, acc.order)
                    };
                    prog.resume(value_of(&m)?);
                }
                Step::Op(
                    Op::Mbar {
                        space,
                        addr,
                        op: op @ (MbarOp::WaitParity { .. } | MbarOp::WaitState { .. }),
                        ..
                    },
                    ref lat,
                    _,
                ) => {
                    repeated.insert(lat.line);
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
                    prog.resume(value_of(&m)?);
                }
                Step::Op(Op::Fence(..) | Op::ProxyFence(_), ..) => prog.resume(Reply::None),
                Step::Op(Op::Clock { .. }, ..) => {
                    prog.resume(Reply::Value(th.clock.unwrap_or(1 << 32)));
                }
                _ => return None,
            }
            step = prog.step();
        }
        None
    }
}
