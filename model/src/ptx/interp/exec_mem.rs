//! The instructions the memory model sees (loads, stores, atomics, fences, barriers, mbarriers,
//! async copies, warp operations): each stops the thread with a [`Step::Op`].

use super::*;
use crate::ast::RmwOp;

impl State {
    /// A memory-model instruction: one op (or one per element).
    pub(super) fn exec_mem(&mut self, code: &Code, line: &Line) -> Result<Option<Flow>, String> {
        let at = &line.at;
        let step = match &line.inst {
            Inst::Ld { m, d } => {
                if let Some(off) = self.start_elements(code, m, d.len()) {
                    // Private to the thread: no op (PTX ISA §5.1.6 .local).
                    for (k, r) in d.iter().enumerate() {
                        let (v, dd) =
                            self.local_read(code, off + k as u64 * m.size() as u64, m.size())?;
                        if let Some(r) = r {
                            self.write(code, *r, v, m.ty, dd);
                        }
                    }
                    return Ok(None);
                }
                // Skip sink elements (not read, PTX ISA ld).
                while (self.sub as usize) < d.len() && d[self.sub as usize].is_none() {
                    self.sub += 1;
                }
                if self.sub as usize >= d.len() {
                    return Ok(None);
                }
                let deps = self.op_deps(self.cur_deps);
                let dst = d[self.sub as usize];
                self.issue(Op::Load(self.element(m)), at, deps, wr(dst, m.ty))
            }
            Inst::St { m, v } => {
                if let Some(off) = self.start_elements(code, m, v.len()) {
                    for (k, x) in v.iter().enumerate() {
                        let val = self.get(*x, m.ty);
                        let dd = self.dep(*x);
                        self.local_write(
                            code,
                            off + k as u64 * m.size() as u64,
                            m.size(),
                            val,
                            dd,
                        )?;
                    }
                    return Ok(None);
                }
                let k = self.sub as usize;
                let mut dd = self.cur_deps;
                dd.union(&self.dep(v[k]));
                let deps = self.op_deps(dd);
                let val = self.get(v[k], m.ty);
                self.issue(Op::Store(self.element(m), val), at, deps, Pending::None)
            }
            Inst::Atom {
                space,
                sem,
                scope,
                op,
                ty,
                d,
                addr,
                a,
                b,
                ret,
            } => {
                let acc = Access {
                    space: *space,
                    addr: self.eff(addr, *space),
                    size: ty.bits / 8,
                    proxy: Proxy::Generic,
                    order: Order {
                        sem: *sem,
                        scope: Some(*scope),
                    },
                };
                let mut dd = self.addr_deps(addr);
                dd.union(&self.dep(*a));
                dd.union(&self.dep(*b));
                let deps = self.op_deps(dd);
                let rmw = Rmw {
                    op: *op,
                    a: self.get(*a, *ty),
                    b: self.get(*b, *ty),
                    signed: ty.signed(),
                    returns: *ret,
                    float: float_of(*ty),
                };
                self.issue(Op::Rmw(acc, rmw), at, deps, wr(*d, *ty))
            }
            Inst::AtomV {
                space,
                sem,
                scope,
                op,
                ty,
                per_reg,
                d,
                addr,
                a,
                ret,
            } => {
                if self.sub == 0 {
                    self.cur = self.eff(addr, *space);
                    self.cur_deps = self.addr_deps(addr);
                }
                let k = self.sub as usize;
                let (reg, half) = (k / *per_reg as usize, k % *per_reg as usize);
                let size = ty.bits / 8;
                let shift = (half * ty.bits as usize) as u8;
                let acc = Access {
                    space: *space,
                    addr: self.cur + k as u64 * size as u64,
                    size,
                    proxy: Proxy::Generic,
                    order: Order {
                        sem: *sem,
                        scope: Some(*scope),
                    },
                };
                let mut dd = self.cur_deps;
                dd.union(&self.dep(a[reg]));
                let deps = self.op_deps(dd);
                let v = (self.raw(a[reg]) >> shift) & ty.mask();
                let rmw = Rmw {
                    op: *op,
                    a: v,
                    b: 0,
                    signed: false,
                    returns: *ret,
                    float: float_of(*ty),
                };
                let dst = d.get(reg).copied().flatten();
                self.issue(
                    Op::Rmw(acc, rmw),
                    at,
                    deps,
                    Pending::Part {
                        d: dst,
                        shift,
                        bits: ty.bits,
                    },
                )
            }
            Inst::TmapCp { dst, src, scope } => {
                let k = self.sub as u64;
                let (d0, s0) = (
                    self.eff(dst, Space::Global),
                    self.eff(src, Space::SharedCta),
                );
                let mut ad = self.addr_deps(dst);
                ad.union(&self.addr_deps(src));
                if k == 32 {
                    let deps = self.op_deps(ad);
                    self.issue(
                        Op::ProxyFence(crate::engine::op::ProxyFence::TensormapGeneric {
                            sem: crate::ast::FenceSem::Release,
                            scope: *scope,
                            addr: Some(d0),
                        }),
                        at,
                        deps,
                        Pending::None,
                    )
                } else if k.is_multiple_of(2) {
                    let deps = self.op_deps(ad);
                    let acc = Access {
                        space: Space::SharedCta,
                        addr: s0 + 4 * k,
                        size: 8,
                        proxy: Proxy::Generic,
                        order: Order::WEAK,
                    };
                    self.issue(Op::Load(acc), at, deps, Pending::Tmp)
                } else {
                    ad.union(&self.tmp.d);
                    let deps = self.op_deps(ad);
                    let acc = Access {
                        space: Space::Global,
                        addr: d0 + 4 * (k - 1),
                        size: 8,
                        proxy: Proxy::Generic,
                        order: Order::WEAK,
                    };
                    self.issue(Op::Store(acc, self.tmp.v), at, deps, Pending::None)
                }
            }
            Inst::Fence(sem, scope, r) => {
                let deps = self.op_deps(Deps::NONE);
                self.issue(Op::Fence(*sem, *scope, *r), at, deps, Pending::None)
            }
            Inst::ProxyFence(pf, addr) => {
                let mut pf = *pf;
                let mut dd = Deps::NONE;
                if let (
                    crate::engine::op::ProxyFence::TensormapGeneric { addr: slot, .. },
                    Some(a),
                ) = (&mut pf, addr)
                {
                    *slot = Some(self.raw(*a));
                    dd = self.dep(*a);
                }
                let deps = self.op_deps(dd);
                self.issue(Op::ProxyFence(pf), at, deps, Pending::None)
            }
            Inst::Bar {
                kind,
                id,
                count,
                pred,
                d,
                dty,
            } => {
                let mut dd = self.dep(*id);
                let count_v = count.map(|c| {
                    dd.union(&self.dep(c));
                    self.get(c, Ty::U32)
                });
                let pv = pred.map(|p| {
                    dd.union(&self.dep(p));
                    self.get(p, Ty::PRED) != 0
                });
                let deps = self.op_deps(dd);
                let pending = if *kind == BarKind::Sync || *kind == BarKind::Arrive {
                    Pending::None
                } else {
                    wr(*d, *dty)
                };
                self.issue(
                    Op::Bar {
                        kind: *kind,
                        id: self.get(*id, Ty::U32),
                        count: count_v,
                        pred: pv.unwrap_or(false),
                    },
                    at,
                    deps,
                    pending,
                )
            }
            Inst::ClusterArrive { relaxed } => {
                let deps = self.op_deps(Deps::NONE);
                self.issue(
                    Op::ClusterArrive { relaxed: *relaxed },
                    at,
                    deps,
                    Pending::None,
                )
            }
            Inst::ClusterWait => {
                let deps = self.op_deps(Deps::NONE);
                self.issue(Op::ClusterWait, at, deps, Pending::None)
            }
            Inst::Mbar {
                space,
                addr,
                op,
                sem,
                scope,
                d,
            } => {
                let mut dd = self.addr_deps(addr);
                let mut g = |s: &Self, o: Opnd, ty: Ty| {
                    dd.union(&s.dep(o));
                    s.get(o, ty)
                };
                let (mop, ty) = match *op {
                    MbarI::Init(c) => (
                        MbarOp::Init {
                            count: g(self, c, Ty::U32),
                        },
                        Ty::B64,
                    ),
                    MbarI::Inval => (MbarOp::Inval, Ty::B64),
                    MbarI::Arrive {
                        count,
                        tx,
                        no_complete,
                        drop,
                    } => (
                        MbarOp::Arrive {
                            count: count.map(|c| g(self, c, Ty::U32)).unwrap_or(1),
                            expect_tx: tx.map(|t| g(self, t, Ty::U32)),
                            no_complete,
                            drop,
                        },
                        Ty::B64,
                    ),
                    MbarI::ExpectTx(t) => (MbarOp::ExpectTx(g(self, t, Ty::U32)), Ty::B64),
                    MbarI::CompleteTx(t) => (MbarOp::CompleteTx(g(self, t, Ty::U32)), Ty::B64),
                    MbarI::Wait {
                        parity,
                        try_wait,
                        v,
                    } => {
                        if parity {
                            (
                                MbarOp::WaitParity {
                                    parity: g(self, v, Ty::U32) & 1,
                                    try_wait,
                                },
                                Ty::PRED,
                            )
                        } else {
                            (
                                MbarOp::WaitState {
                                    state: g(self, v, Ty::B64),
                                    try_wait,
                                },
                                Ty::PRED,
                            )
                        }
                    }
                };
                let deps = self.op_deps(dd);
                let a = self.eff(addr, *space);
                self.issue(
                    Op::Mbar {
                        space: *space,
                        addr: a,
                        op: mop,
                        sem: *sem,
                        scope: *scope,
                    },
                    at,
                    deps,
                    Pending::Write {
                        d: *d,
                        ty,
                        p: None,
                        pv: false,
                        shr: 0,
                    },
                )
            }
            Inst::PendingCount { d, state } => {
                let deps = self.op_deps(self.dep(*state));
                let s = self.get(*state, Ty::B64);
                self.issue(Op::PendingCount(s), at, deps, wr(Some(*d), Ty::U32))
            }
            Inst::CpAsync {
                dst,
                src,
                size,
                src_size,
            } => {
                let mut dd = self.addr_deps(dst);
                dd.union(&self.addr_deps(src));
                let n = match src_size {
                    Some(o) => {
                        dd.union(&self.dep(*o));
                        self.get(*o, Ty::U32)
                    }
                    None => *size as u64,
                };
                if n > *size as u64 {
                    return Err(format!(
                        "cp.async src-size {n} exceeds cp-size {size} (PTX ISA cp.async)"
                    ));
                }
                let (d0, s0) = (
                    self.eff(dst, Space::SharedCta),
                    self.eff(src, Space::Global),
                );
                // The first src-size bytes are read, the rest zero-filled (PTX ISA cp.async); a
                // piece straddling src-size is split into bytes.
                let mut moves = Vec::with_capacity(*size as usize / 4 + 4);
                pieces(*size as u64, |off, sz| {
                    let end = off + sz as u64;
                    if off < n && end > n {
                        for o in off..end {
                            moves.push(Move {
                                src: (o < n).then_some((Space::Global, s0 + o)),
                                dst: Some((Space::SharedCta, d0 + o)),
                                size: 1,
                            });
                        }
                    } else {
                        moves.push(Move {
                            src: (end <= n).then_some((Space::Global, s0 + off)),
                            dst: Some((Space::SharedCta, d0 + off)),
                            size: sz,
                        });
                    }
                });
                let deps = self.op_deps(dd);
                self.issue(
                    Op::Copy(Copy {
                        moves,
                        proxy: Proxy::Generic,
                        reduce: None,
                        completion: Completion::AsyncGroup,
                        multicast: None,
                        tx_bytes: *size as u64,
                    }),
                    at,
                    deps,
                    Pending::None,
                )
            }
            Inst::Commit { bulk } => {
                let deps = self.op_deps(Deps::NONE);
                self.issue(Op::Commit { bulk: *bulk }, at, deps, Pending::None)
            }
            Inst::WaitGroup { bulk, n, read, all } => {
                let deps = self.op_deps(Deps::NONE);
                self.issue(
                    Op::WaitGroup {
                        bulk: *bulk,
                        n: *n,
                        read: *read,
                        all: *all,
                    },
                    at,
                    deps,
                    Pending::None,
                )
            }
            Inst::CpAsyncMbarArrive { space, addr, noinc } => {
                let deps = self.op_deps(self.addr_deps(addr));
                let a = self.eff(addr, *space);
                self.issue(
                    Op::AsyncMbarArrive {
                        space: *space,
                        addr: a,
                        noinc: *noinc,
                    },
                    at,
                    deps,
                    Pending::None,
                )
            }
            Inst::Bulk {
                dir,
                dst,
                src,
                size,
                bar,
                mask,
                reduce,
            } => {
                let mut dd = self.addr_deps(dst);
                dd.union(&self.addr_deps(src));
                dd.union(&self.dep(*size));
                let n = self.get(*size, Ty::U32);
                if !n.is_multiple_of(16) {
                    return Err(format!(
                        "bulk copy size {n} is not a multiple of 16 (PTX ISA cp.async.bulk)"
                    ));
                }
                let mc = mask.map(|m| {
                    dd.union(&self.dep(m));
                    self.get(m, Ty::B16) as u16
                });
                let (dspace, d0) = cast(mc, dir.dst, self.eff(dst, dir.dst));
                let s0 = self.eff(src, dir.src);
                let completion = match bar {
                    Some(b) => {
                        dd.union(&self.addr_deps(b));
                        let bs = if dir.dst == Space::SharedCluster && mc.is_none() {
                            Space::SharedCluster
                        } else {
                            Space::SharedCta
                        };
                        let (sp, ba) = cast(mc, bs, self.eff(b, bs));
                        Completion::Mbarrier(sp, ba)
                    }
                    None => Completion::BulkGroup,
                };
                let step = match reduce {
                    Some((_, ty)) => (ty.bits / 8) as u64,
                    None => 4,
                };
                let mut moves = Vec::with_capacity((n / step) as usize);
                let mut off = 0;
                while off < n {
                    moves.push(Move {
                        src: Some((dir.src, s0 + off)),
                        dst: Some((dspace, d0 + off)),
                        size: step as u8,
                    });
                    off += step;
                }
                let deps = self.op_deps(dd);
                let copy = async_copy(moves, *reduce, completion, mc, n);
                self.issue(copy, at, deps, Pending::None)
            }
            Inst::Tensor {
                load,
                smem,
                smem_space,
                tmap,
                coords,
                bar,
                mask,
                reduce,
            } => {
                let ta = self.raw(*tmap);
                let Some(tm) = code.layout.tmap_at(ta) else {
                    return Err(format!(
                        "a tensor copy through a tensor map the checker does not know (address {ta:#x}: not a declared `@ tensormap`)"
                    ));
                };
                let mut dd = self.dep(*tmap);
                let cs: Vec<i64> = coords
                    .iter()
                    .map(|c| {
                        dd.union(&self.dep(*c));
                        sext(self.get(*c, Ty::S32), 32) as i64
                    })
                    .collect();
                if cs.len() != tm.dims.len() {
                    return Err(format!(
                        "a {}d copy through a {}d tensor map",
                        cs.len(),
                        tm.dims.len()
                    ));
                }
                let mc = mask.map(|m| {
                    dd.union(&self.dep(m));
                    self.get(m, Ty::B16) as u16
                });
                dd.union(&self.addr_deps(smem));
                let (sspace, s0) = cast(mc, *smem_space, self.eff(smem, *smem_space));
                let base = code.layout.addr_of(tm.data);
                let e = tm.elem as u64;
                let (bw, bh) = (
                    tm.boxdim[0] as i64,
                    tm.boxdim.get(1).copied().unwrap_or(1) as i64,
                );
                let (w, h) = (
                    tm.dims[0] as i64,
                    tm.dims.get(1).copied().unwrap_or(1) as i64,
                );
                let (x0, y0) = (cs[0], cs.get(1).copied().unwrap_or(0));
                let mut moves = Vec::with_capacity((bw * bh) as usize);
                for j in 0..bh {
                    for i in 0..bw {
                        let (x, y) = (x0 + i, y0 + j);
                        let inb = (0..w).contains(&x) && (0..h).contains(&y);
                        let g = inb.then(|| (Space::Global, base + ((y * w + x) as u64) * e));
                        let s = Some((sspace, s0 + ((j * bw + i) as u64) * e));
                        moves.push(if *load {
                            Move {
                                src: g,
                                dst: s,
                                size: tm.elem,
                            }
                        } else {
                            Move {
                                src: s,
                                dst: g,
                                size: tm.elem,
                            }
                        });
                    }
                }
                let completion = match bar {
                    Some(b) => {
                        dd.union(&self.addr_deps(b));
                        let (sp, ba) = cast(mc, *smem_space, self.eff(b, *smem_space));
                        Completion::Mbarrier(sp, ba)
                    }
                    None => Completion::BulkGroup,
                };
                let deps = self.op_deps(dd);
                let copy = async_copy(moves, *reduce, completion, mc, (bw * bh) as u64 * e);
                self.issue(copy, at, deps, Pending::None)
            }
            Inst::StAsync {
                order,
                ty,
                addr,
                v,
                bar,
                rmw,
            } => {
                if self.sub == 0 {
                    self.cur = self.eff(addr, Space::SharedCluster);
                    self.cur_deps = self.addr_deps(addr);
                    self.cur_deps.union(&self.addr_deps(bar));
                }
                // One op for the whole vector: its complete-tx counts every element's bytes.
                let size = ty.bits / 8;
                let acc = Access {
                    space: Space::SharedCluster,
                    addr: self.cur,
                    size,
                    proxy: Proxy::Async,
                    order: *order,
                };
                let mut dd = self.cur_deps;
                for &x in v.iter() {
                    dd.union(&self.dep(x));
                }
                let deps = self.op_deps(dd);
                let vals: Vec<u64> = v.iter().map(|&x| self.get(x, *ty)).collect();
                let rmw = rmw.map(|op| Rmw {
                    op,
                    a: 0,
                    b: 0,
                    signed: ty.signed(),
                    returns: false,
                    float: float_of(*ty),
                });
                let b = self.eff(bar, Space::SharedCluster);
                self.issue(
                    Op::StAsync {
                        access: acc,
                        vals,
                        rmw,
                        bar: b,
                    },
                    at,
                    deps,
                    Pending::None,
                )
            }
            Inst::Warp { op, mask, d } => {
                let mut dd = self.dep(*mask);
                let m = self.get(*mask, Ty::B32);
                let (w, pending) = match *op {
                    WarpI::Sync => (Warp::Sync, Pending::None),
                    WarpI::ActiveMask => (Warp::ActiveMask, wr(*d, Ty::B32)),
                    WarpI::Elect { p } => (Warp::Elect, Pending::Elect { d: *d, p }),
                    WarpI::Vote(mode, a) => {
                        dd.union(&self.dep(a));
                        let ty = if mode == crate::engine::op::VoteMode::Ballot {
                            Ty::B32
                        } else {
                            Ty::PRED
                        };
                        (Warp::Vote(mode, self.get(a, Ty::PRED)), wr(*d, ty))
                    }
                    WarpI::Shfl { mode, a, b, c, p } => {
                        dd.union(&self.dep(a));
                        dd.union(&self.dep(b));
                        dd.union(&self.dep(c));
                        let (bv, cv) = (self.get(b, Ty::B32), self.get(c, Ty::B32));
                        let pv = shfl_in_range(mode, self.geom.place.lane, bv as u32, cv as u32);
                        (
                            Warp::Shfl(mode, self.get(a, Ty::B32), bv, cv),
                            Pending::Write {
                                d: *d,
                                ty: Ty::B32,
                                p,
                                pv,
                                shr: 0,
                            },
                        )
                    }
                };
                let deps = self.op_deps(dd);
                self.issue(Op::Warp(w, m), at, deps, pending)
            }
            other => return Err(format!("instruction {other:?}")),
        };
        Ok(Some(Flow::Step(step)))
    }
}

/// A multicast copy's shared-memory side (PTX ISA §9.7.9.25 `.multicast::cluster`): with a mask
/// the address is each destination CTA's own (its rank bits dropped), in `.shared::cta`; without
/// one, the address in the space the instruction names.
fn cast(mc: Option<u16>, space: Space, a: u64) -> (Space, u64) {
    if mc.is_some() {
        (Space::SharedCta, a & ((1 << RANK_SHIFT) - 1))
    } else {
        (space, a)
    }
}

/// An async-proxy copy (PTX ISA §9.7.9.25 `cp.async.bulk`, `cp.reduce.async.bulk` and their
/// tensor forms): its moves, the reduction `(op, element type)` each destination element gets,
/// how it completes, its multicast mask, and the bytes it counts toward an mbarrier's tx-count.
fn async_copy(
    moves: Vec<Move>,
    reduce: Option<(RmwOp, Ty)>,
    completion: Completion,
    multicast: Option<u16>,
    tx_bytes: Val,
) -> Op {
    Op::Copy(Copy {
        moves,
        proxy: Proxy::Async,
        reduce: reduce.map(|(op, ty)| Rmw {
            op,
            a: 0,
            b: 0,
            signed: ty.signed(),
            returns: false,
            float: float_of(ty),
        }),
        completion,
        multicast,
        tx_bytes,
    })
}

impl State {
    /// At the first element of a `ld`/`st` of `n` elements: computes the address and its
    /// dependencies; `Some(offset)` when the elements are the thread's local memory, which the
    /// caller reads or writes itself (no op).
    fn start_elements(&mut self, code: &Code, m: &MemRef, n: usize) -> Option<u64> {
        if self.sub != 0 {
            return None;
        }
        self.start_access(code, &m.addr, m.space, m.size() as u64 * n as u64)
    }

    /// The access of element `self.sub` of a `ld`/`st`.
    fn element(&self, m: &MemRef) -> Access {
        Access {
            space: m.space,
            addr: self.cur.wrapping_add(self.sub as u64 * m.size() as u64),
            size: m.size(),
            proxy: m.proxy,
            order: m.order,
        }
    }
}
