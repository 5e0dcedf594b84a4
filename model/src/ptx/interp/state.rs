//! A thread's state: registers and their dependencies, special registers, local memory, and
//! the control flow between steps (`step`, `resume`).

use super::*;

impl State {
    pub(super) fn rv(&self, r: Reg) -> u64 {
        self.slots[r as usize].v
    }

    pub(super) fn sreg(&self, s: Sreg) -> u64 {
        let g = &self.geom;
        let lane = g.place.lane;
        (match s {
            Sreg::Tid(d) => g.tid[d as usize],
            Sreg::Ntid(d) => g.ntid[d as usize],
            Sreg::Ctaid(d) => g.ctaid[d as usize],
            Sreg::Nctaid(d) => g.nctaid[d as usize],
            Sreg::Clusterid(d) => g.clusterid[d as usize],
            Sreg::Nclusterid(d) => g.nclusterid[d as usize],
            Sreg::ClusterCtaid(d) => g.cluster_ctaid[d as usize],
            Sreg::ClusterNctaid(d) => g.cluster_nctaid[d as usize],
            Sreg::ClusterCtarank => g.place.rank,
            Sreg::ClusterNctarank => g.cluster_size(),
            Sreg::IsExplicitCluster => g.explicit_cluster as u32,
            Sreg::Laneid => lane,
            Sreg::Warpid => g.place.warp,
            Sreg::Nwarpid => g.nwarpid,
            Sreg::Smid | Sreg::Gridid => 0,
            Sreg::Nsmid => 1,
            Sreg::LanemaskEq => 1 << lane,
            Sreg::LanemaskLe => (((1u64 << (lane + 1)) - 1) & 0xffff_ffff) as u32,
            Sreg::LanemaskLt => ((1u64 << lane) - 1) as u32,
            Sreg::LanemaskGe => !(((1u64 << lane) - 1) as u32),
            Sreg::LanemaskGt => !((((1u64 << (lane + 1)) - 1) & 0xffff_ffff) as u32),
            Sreg::DynSmem => g.dyn_smem,
            Sreg::TotalSmem => g.total_smem,
            Sreg::WarpSz => 32,
            // Clocks are `Inst::Clock` (an op); as a plain operand they read 0.
            Sreg::Clock
            | Sreg::Clock64
            | Sreg::Globaltimer
            | Sreg::GlobaltimerLo
            | Sreg::GlobaltimerHi => 0,
        }) as u64
    }

    /// An operand's raw value (not chopped).
    pub(super) fn raw(&self, o: Opnd) -> u64 {
        match o {
            Opnd::Reg(r) => self.rv(r),
            Opnd::Not(r) => (self.rv(r) == 0) as u64,
            Opnd::Imm(v) => v,
            Opnd::Sreg(s) => self.sreg(s),
            Opnd::GenericOf(a) => Layout::cvta_shared_to_generic(a, self.geom.place.rank),
        }
    }

    /// An operand as an instruction of type `ty` sees it (chopped to the type's width).
    pub(super) fn get(&self, o: Opnd, ty: Ty) -> u64 {
        let v = self.raw(o);
        if ty.kind == Kind::Pred {
            (v != 0) as u64
        } else {
            v & ty.mask()
        }
    }

    /// The union of the dependency sets of `ops`.
    pub(super) fn deps(&self, ops: &[Opnd]) -> Deps {
        let mut dd = Deps::NONE;
        for o in ops {
            dd.union(&self.dep(*o));
        }
        dd
    }

    pub(super) fn dep(&self, o: Opnd) -> Deps {
        match o {
            Opnd::Reg(r) | Opnd::Not(r) => self.slots[r as usize].d,
            _ => Deps::NONE,
        }
    }

    /// Writes a result of type `ty` to `r` (sign- or zero-extended, then chopped to the
    /// register's width, PTX ISA §9.4.1).
    pub(super) fn write(&mut self, code: &Code, r: Reg, v: u64, ty: Ty, d: Deps) {
        let rb = code.regs[r as usize].bits as u32;
        let v = if rb == 1 {
            (v & ty.mask() != 0) as u64
        } else {
            let e = if ty.signed() {
                sext(v, ty.bits as u32)
            } else {
                v & ty.mask()
            };
            e & mask(rb)
        };
        self.slots[r as usize] = Slot { v, d };
    }

    /// Whether `a` (`size` bytes) is in the local window: `Some(byte offset)`.
    pub(super) fn local(code: &Code, a: u64, size: u64) -> Option<u64> {
        let off = a.checked_sub(GENERIC_LOCAL)?;
        (off < (1 << 32)).then_some(off).filter(|o| {
            let _ = code;
            o + size <= u32::MAX as u64
        })
    }

    /// Reads `size` bytes of local memory at offset `off` (within one 8-byte word).
    pub(super) fn local_read(
        &self,
        code: &Code,
        off: u64,
        size: u8,
    ) -> Result<(u64, Deps), String> {
        let w = (off / 8) as usize;
        let sh = (off % 8) * 8;
        if off + size as u64 > code.local_size as u64 || sh + size as u64 * 8 > 64 {
            return Err(format!(
                "a local memory access of {size} bytes at offset {off} (outside the frame or across a word)"
            ));
        }
        let s = self.slots[code.local_slot() + w];
        Ok(((s.v >> sh) & mask(size as u32 * 8), s.d))
    }

    pub(super) fn local_write(
        &mut self,
        code: &Code,
        off: u64,
        size: u8,
        v: u64,
        d: Deps,
    ) -> Result<(), String> {
        let w = (off / 8) as usize;
        let sh = (off % 8) * 8;
        if off + size as u64 > code.local_size as u64 || sh + size as u64 * 8 > 64 {
            return Err(format!(
                "a local memory access of {size} bytes at offset {off} (outside the frame or across a word)"
            ));
        }
        let s = &mut self.slots[code.local_slot() + w];
        let m = mask(size as u32 * 8) << sh;
        s.v = (s.v & !m) | ((v << sh) & m);
        if size == 8 {
            s.d = d;
        } else {
            s.d.union(&d);
        }
        Ok(())
    }

    /// The first element of a load or store of `bytes` bytes: its effective address and address
    /// dependencies, kept for the next elements; `Some(offset)` when a generic address falls in
    /// the thread's local window (private to the thread, PTX ISA §5.1.6 `.local`).
    pub(super) fn start_access(
        &mut self,
        code: &Code,
        addr: &Addr,
        space: Space,
        bytes: u64,
    ) -> Option<u64> {
        self.cur = self.eff(addr, space);
        self.cur_deps = self.addr_deps(addr);
        if space == Space::Generic {
            Self::local(code, self.cur, bytes)
        } else {
            None
        }
    }

    pub(super) fn addr_deps(&self, a: &Addr) -> Deps {
        match a.base {
            Base::Reg(r) => self.slots[r as usize].d,
            _ => Deps::NONE,
        }
    }

    /// The address an operand names in `space` (see [`Base::Var`]).
    pub(super) fn eff(&self, a: &Addr, space: Space) -> u64 {
        let base = match a.base {
            Base::Reg(r) => self.rv(r),
            Base::Abs(v) => v,
            Base::Var {
                shared: false,
                addr,
                ..
            } => addr,
            Base::Var {
                shared: true,
                addr,
                rank,
                ..
            } => match space {
                Space::SharedCta | Space::Global => addr,
                Space::SharedCluster => match rank {
                    Some(k) => Layout::mapa_shared(addr, k),
                    None => addr,
                },
                Space::Generic => {
                    Layout::cvta_shared_to_generic(addr, rank.unwrap_or(self.geom.place.rank))
                }
            },
        };
        base.wrapping_add(a.off as u64)
    }

    pub(super) fn op_deps(&self, extra: Deps) -> Deps {
        let mut d = self.ctrl;
        d.union(&extra);
        d
    }

    /// Issues op `op`: records the pending reply and numbers the op.
    pub(super) fn issue(&mut self, op: Op, at: &At, deps: Deps, pending: Pending) -> Step {
        self.pending = pending;
        self.pending_ord = self.ordinal;
        self.ordinal = self.ordinal.saturating_add(1);
        Step::Op(op, at.clone(), deps)
    }

    /// Moves to instruction `to` without a backward jump (fallthrough or forward branch): a
    /// loop head entered this way starts counting its iterations afresh.
    pub(super) fn fall(&mut self, code: &Code, to: u32) {
        self.pc = to;
        self.sub = 0;
        if let Some(&h) = code.heads.get(to as usize) {
            if h != NO_LOOP {
                self.slots[code.regs.len() + h as usize].v = 0;
                self.entered = code.entry_heads;
            }
        }
    }

    /// Takes a branch from the current instruction to `target`.
    pub(super) fn jump(&mut self, code: &Code, target: u32, at: &At) -> Option<Step> {
        if target > self.pc {
            self.fall(code, target);
            return None;
        }
        self.pc = target;
        self.sub = 0;
        let h = code.heads[target as usize];
        let slot = &mut self.slots[code.regs.len() + h as usize];
        slot.v += 1;
        if slot.v > self.unroll as u64 {
            let s = Step::Cut(at.clone());
            self.end = Some(Box::new(s.clone()));
            return Some(s);
        }
        Some(Step::LoopHead {
            head: target as usize,
            at: at.clone(),
            entry: false,
        })
    }

    pub(super) fn stop(&mut self, s: Step) -> Step {
        self.end = Some(Box::new(s.clone()));
        s
    }

    pub(super) fn unsupported(&mut self, what: String, at: &At) -> Step {
        self.stop(Step::Unsupported(what, at.clone()))
    }

    pub(super) fn resume(&mut self, code: &Code, reply: Reply) {
        let ord = Deps::one(self.pending_ord);
        match std::mem::replace(&mut self.pending, Pending::None) {
            Pending::None => {}
            Pending::Write { d, ty, p, pv, shr } => {
                if let Some(d) = d {
                    self.write(code, d, val_of(reply) >> shr, ty, ord);
                }
                if let Some(p) = p {
                    self.write(code, p, pv as u64, Ty::PRED, self.ctrl);
                }
            }
            Pending::Part { d, shift, bits } => {
                if let Some(d) = d {
                    let m = mask(bits as u32) << shift;
                    let old = self.slots[d as usize].v;
                    let v = (old & !m) | ((val_of(reply) << shift) & m);
                    let mut dd = self.slots[d as usize].d;
                    dd.union(&ord);
                    let rb = code.regs[d as usize].bits as u32;
                    self.slots[d as usize] = Slot {
                        v: v & mask(rb),
                        d: dd,
                    };
                }
            }
            Pending::Tmp => {
                self.tmp = Slot {
                    v: val_of(reply),
                    d: ord,
                };
            }
            Pending::Elect { d, p } => {
                let (b, lane) = match reply {
                    Reply::Elect(b, l) => (b, l),
                    Reply::Pred(b) => (b, 0),
                    Reply::Value(l) => (l == self.geom.place.lane as u64, l),
                    Reply::None => (false, 0),
                };
                if let Some(d) = d {
                    self.write(code, d, lane, Ty::U32, ord);
                }
                if let Some(p) = p {
                    self.write(code, p, b as u64, Ty::PRED, ord);
                }
            }
        }
        // Advance within a vector instruction, or to the next instruction.
        let n = match &code.lines[self.pc as usize].inst {
            Inst::Ld { d, .. } => d.len(),
            Inst::St { v, .. } => v.len(),
            Inst::AtomV { a, per_reg, .. } => a.len() * *per_reg as usize,
            Inst::TmapCp { .. } => 33,
            _ => 1,
        };
        self.sub += 1;
        if self.sub as usize >= n {
            let next = self.pc + 1;
            self.fall(code, next);
        }
    }

    pub(super) fn step(&mut self, code: &Code) -> Step {
        if let Some(s) = &self.end {
            return (**s).clone();
        }
        loop {
            let pc = self.pc as usize;
            let Some(line) = code.lines.get(pc) else {
                return self.stop(Step::Done);
            };
            let at = &line.at;
            if std::mem::take(&mut self.entered) {
                return Step::LoopHead {
                    head: pc,
                    at: at.clone(),
                    entry: true,
                };
            }
            if self.sub == 0 {
                if let Some((p, neg)) = line.guard {
                    let d = self.slots[p as usize].d;
                    self.ctrl.union(&d);
                    if (self.rv(p) != 0) == neg {
                        self.fall(code, pc as u32 + 1);
                        continue;
                    }
                }
            }
            match self.exec(code, line) {
                Ok(None) => {
                    let next = self.pc + 1;
                    self.fall(code, next);
                }
                Ok(Some(Flow::Jumped)) => {}
                Ok(Some(Flow::Step(s))) => return s,
                Err(what) => return self.unsupported(what, at),
            }
        }
    }
}
