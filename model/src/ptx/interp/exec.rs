//! One instruction executed: the local ones (arithmetic, predicates, branches, conversions) run
//! here; the rest go to [`State::exec_mem`].

use super::*;

impl State {
    /// Runs one instruction. `Ok(None)`: local, fall through; `Ok(Some(Jumped))`: pc already
    /// moved; `Ok(Some(Step))`: return this step.
    pub(super) fn exec(&mut self, code: &Code, line: &Line) -> Result<Option<Flow>, String> {
        let at = &line.at;
        match &line.inst {
            Inst::Nop => {}
            Inst::Unsupported(w) => return Err(w.clone()),
            Inst::Mov { ty, d, a } => {
                let v = self.get(*a, *ty);
                let dd = self.dep(*a);
                self.write(code, *d, v, *ty, dd);
            }
            Inst::Pack { bits, d, parts } => {
                let et = Ty::new(Kind::B, *bits);
                let mut v = 0u64;
                let mut dd = Deps::NONE;
                for (i, p) in parts.iter().enumerate() {
                    v |= self.get(*p, et) << (*bits as u32 * i as u32);
                    dd.union(&self.dep(*p));
                }
                let ty = Ty::new(Kind::B, bits * parts.len() as u8);
                self.write(code, *d, v, ty, dd);
            }
            Inst::Unpack { bits, ds, a } => {
                let v = self.raw(*a);
                let dd = self.dep(*a);
                let et = Ty::new(Kind::B, *bits);
                for (i, d) in ds.iter().enumerate() {
                    if let Some(d) = d {
                        let e = (v >> (*bits as u32 * i as u32)) & et.mask();
                        self.write(code, *d, e, et, dd);
                    }
                }
            }
            Inst::Clock { d, which } => {
                let ty = match which {
                    Sreg::Clock64 | Sreg::Globaltimer => Ty::U64,
                    _ => Ty::U32,
                };
                let shr = if *which == Sreg::GlobaltimerHi { 32 } else { 0 };
                let deps = self.op_deps(Deps::NONE);
                return Ok(Some(Flow::Step(self.issue(
                    Op::Clock {
                        jump: code.may_jump(self.pc as usize),
                    },
                    at,
                    deps,
                    Pending::Write {
                        d: Some(*d),
                        ty,
                        p: None,
                        pv: false,
                        shr,
                    },
                ))));
            }
            Inst::Un { fm, op, ty, d, a } => {
                let v = self.un(*op, *ty, *fm, self.get(*a, *ty));
                let rty = match op {
                    UnOp::Popc | UnOp::Clz | UnOp::Bfind { .. } => Ty::U32,
                    _ => *ty,
                };
                let dd = self.dep(*a);
                self.write(code, *d, v, rty, dd);
            }
            Inst::Bin {
                fm,
                op,
                ty,
                d,
                a,
                b,
            } => {
                let bt = if matches!(op, BinOp::Shl | BinOp::Shr) {
                    Ty::U32
                } else {
                    *ty
                };
                let (x, y) = (self.get(*a, *ty), self.get(*b, bt));
                let v = self.bin(*op, *ty, *fm, x, y)?;
                let rty = if *op == BinOp::MulWide {
                    Ty::new(ty.kind, ty.bits * 2)
                } else {
                    *ty
                };
                let dd = self.deps(&[*a, *b]);
                self.write(code, *d, v, rty, dd);
            }
            Inst::Mad {
                fm,
                mode,
                ty,
                d,
                a,
                b,
                c,
            } => {
                let wide = Ty::new(ty.kind, ty.bits.saturating_mul(2).min(64));
                let (x, y) = (self.get(*a, *ty), self.get(*b, *ty));
                let z = self.get(*c, if *mode == MadMode::Wide { wide } else { *ty });
                let bits = ty.bits as u32;
                let s = ty.signed();
                let (v, rty) = match mode {
                    MadMode::Lo => (x.wrapping_mul(y).wrapping_add(z), *ty),
                    MadMode::Hi => (mul_hi(x, y, bits, s).wrapping_add(z), *ty),
                    MadMode::Wide => {
                        let p = if s {
                            (sext(x, bits) as i64).wrapping_mul(sext(y, bits) as i64) as u64
                        } else {
                            x.wrapping_mul(y)
                        };
                        (p.wrapping_add(z), wide)
                    }
                    MadMode::Fma => (
                        match ty.bits {
                            32 => f32_out(
                                f32_of(x, fm.ftz).mul_add(f32_of(y, fm.ftz), f32_of(z, fm.ftz)),
                                *fm,
                            ),
                            _ => f64_out(
                                f64::from_bits(x).mul_add(f64::from_bits(y), f64::from_bits(z)),
                                *fm,
                            ),
                        },
                        *ty,
                    ),
                };
                let dd = self.deps(&[*a, *b, *c]);
                self.write(code, *d, v, rty, dd);
            }
            Inst::Bfe { ty, d, a, pos, len } => {
                let v = bfe(
                    self.get(*a, *ty),
                    self.get(*pos, Ty::U32) as u32,
                    self.get(*len, Ty::U32) as u32,
                    ty.bits as u32,
                    ty.signed(),
                );
                let dd = self.deps(&[*a, *pos, *len]);
                self.write(code, *d, v, *ty, dd);
            }
            Inst::Bfi {
                ty,
                d,
                a,
                b,
                pos,
                len,
            } => {
                let v = bfi(
                    self.get(*a, *ty),
                    self.get(*b, *ty),
                    self.get(*pos, Ty::U32) as u32,
                    self.get(*len, Ty::U32) as u32,
                    ty.bits as u32,
                );
                let dd = self.deps(&[*a, *b, *pos, *len]);
                self.write(code, *d, v, *ty, dd);
            }
            Inst::Prmt { mode, d, a, b, c } => {
                let v = prmt(
                    *mode,
                    self.get(*a, Ty::B32) as u32,
                    self.get(*b, Ty::B32) as u32,
                    self.get(*c, Ty::B32) as u32,
                );
                let dd = self.deps(&[*a, *b, *c]);
                self.write(code, *d, v as u64, Ty::B32, dd);
            }
            Inst::Cvt {
                dty,
                sty,
                rnd,
                sat,
                ftz,
                d,
                a,
            } => {
                let v = cvt(self.get(*a, *sty), *dty, *sty, *rnd, *sat, *ftz);
                let dd = self.dep(*a);
                self.write(code, *d, v, *dty, dd);
            }
            Inst::Setp {
                ftz,
                cmp,
                ty,
                p,
                q,
                a,
                b,
                comb,
            } => {
                let (x, y) = (self.get(*a, *ty), self.get(*b, *ty));
                let t = if ty.float() {
                    let (fx, fy) = if ty.bits == 32 {
                        (f32_of(x, *ftz) as f64, f32_of(y, *ftz) as f64)
                    } else {
                        (f64::from_bits(x), f64::from_bits(y))
                    };
                    cmp.eval_float(fx, fy)
                } else {
                    cmp.eval_int(x, y, ty.bits as u32, ty.signed())
                };
                let mut dd = self.deps(&[*a, *b]);
                let (pv, qv) = match comb {
                    None => (t, !t),
                    Some((op, c)) => {
                        let cv = self.get(*c, Ty::PRED) != 0;
                        dd.union(&self.dep(*c));
                        let f = |x: bool| match op {
                            BoolOp::And => x && cv,
                            BoolOp::Or => x || cv,
                            BoolOp::Xor => x ^ cv,
                        };
                        (f(t), f(!t))
                    }
                };
                if let Some(p) = p {
                    self.write(code, *p, pv as u64, Ty::PRED, dd);
                }
                if let Some(q) = q {
                    self.write(code, *q, qv as u64, Ty::PRED, dd);
                }
            }
            Inst::Selp { ty, d, a, b, c } => {
                let cv = self.get(*c, Ty::PRED) != 0;
                let v = self.get(if cv { *a } else { *b }, *ty);
                let dd = self.deps(&[*a, *b, *c]);
                self.write(code, *d, v, *ty, dd);
            }
            Inst::Slct {
                ty,
                cty,
                d,
                a,
                b,
                c,
            } => {
                let cv = self.get(*c, *cty);
                let ge = if cty.float() {
                    f32::from_bits(cv as u32) >= 0.0
                } else {
                    sext(cv, 32) as i64 >= 0
                };
                let v = self.get(if ge { *a } else { *b }, *ty);
                let dd = self.deps(&[*a, *b, *c]);
                self.write(code, *d, v, *ty, dd);
            }
            Inst::Cvta { to, space, d, a } => {
                let x = self.raw(*a);
                let rank = self.geom.place.rank;
                let v = match (to, space) {
                    (_, Space::Global) | (_, Space::Generic) => x,
                    (false, Space::SharedCta) | (false, Space::SharedCluster) => {
                        Layout::cvta_shared_to_generic(x, rank)
                    }
                    // Outside the shared window the ISA leaves the result undefined: the address
                    // is kept as it is (an access through it is then a bad address).
                    (true, Space::SharedCta) => Layout::cvta_generic_to_shared(x).unwrap_or(x),
                    (true, Space::SharedCluster) => match x.checked_sub(GENERIC_SHARED) {
                        Some(c) if c >> 32 == 0 => c,
                        _ => x,
                    },
                };
                let dd = self.dep(*a);
                self.write(code, *d, v, Ty::U64, dd);
            }
            Inst::Mapa { cluster, d, a, b } => {
                let x = self.raw(*a);
                let k = self.get(*b, Ty::U32) as u32;
                let v = if *cluster {
                    Layout::mapa_shared(x, k)
                } else {
                    Layout::mapa_generic(x, k)
                };
                let dd = self.deps(&[*a, *b]);
                self.write(code, *d, v, Ty::U64, dd);
            }
            Inst::Getctarank { cluster, d, a } => {
                let x = self.raw(*a);
                let c = if *cluster {
                    Some(x)
                } else {
                    x.checked_sub(GENERIC_SHARED).filter(|c| c >> 32 == 0)
                };
                let v = match c {
                    Some(c) if c >> RANK_SHIFT != 0 => (c >> RANK_SHIFT) - 1,
                    _ => self.geom.place.rank as u64,
                };
                let dd = self.dep(*a);
                self.write(code, *d, v, Ty::U32, dd);
            }
            Inst::Isspacep { space, d, a } => {
                let x = self.raw(*a);
                let window = x.checked_sub(GENERIC_SHARED).filter(|c| c >> 32 == 0);
                let v = match space {
                    None => false,
                    Some(Space::Global) | Some(Space::Generic) => window.is_none(),
                    Some(Space::SharedCluster) => window.is_some(),
                    Some(Space::SharedCta) => {
                        window.is_some_and(|c| c >> RANK_SHIFT == self.geom.place.rank as u64 + 1)
                    }
                };
                let dd = self.dep(*a);
                self.write(code, *d, v as u64, Ty::PRED, dd);
            }
            Inst::Bra { target } => {
                // A guarded branch's predicate joined the control dependencies in `step`.
                return Ok(Some(self.take(code, *target, at)));
            }
            Inst::CmpBra { cmp, a, b, target } => {
                let (x, y) = (self.raw(*a) as i64, self.raw(*b) as i64);
                let dd = self.deps(&[*a, *b]);
                self.ctrl.union(&dd);
                if cmp.eval(x, y) {
                    return Ok(Some(self.take(code, *target, at)));
                }
            }
            Inst::Exit => return Ok(Some(Flow::Step(self.stop(Step::Done)))),
            Inst::Trap => return Ok(Some(Flow::Step(self.stop(Step::Trap(at.clone()))))),
            _ => return self.exec_mem(code, line),
        }
        Ok(None)
    }

    pub(super) fn take(&mut self, code: &Code, target: u32, at: &At) -> Flow {
        match self.jump(code, target, at) {
            Some(s) => Flow::Step(s),
            None => Flow::Jumped,
        }
    }

    pub(super) fn un(&self, op: UnOp, ty: Ty, fm: FMod, x: u64) -> u64 {
        let bits = ty.bits as u32;
        if ty.float() {
            return match (op, bits) {
                (UnOp::Abs, 32) => f32_out(f32_of(x, fm.ftz).abs(), fm),
                (UnOp::Neg, 32) => f32_out(-f32_of(x, fm.ftz), fm),
                (UnOp::Sqrt, 32) => f32_out(f32_of(x, fm.ftz).sqrt(), fm),
                (UnOp::Abs, _) => f64::from_bits(x).abs().to_bits(),
                (UnOp::Neg, _) => (-f64::from_bits(x)).to_bits(),
                (UnOp::Sqrt, _) => f64::from_bits(x).sqrt().to_bits(),
                _ => 0,
            };
        }
        match op {
            UnOp::Abs => (sext(x, bits) as i64).wrapping_abs() as u64,
            UnOp::Neg => (x as i64).wrapping_neg() as u64,
            UnOp::Not => {
                if ty.kind == Kind::Pred {
                    (x == 0) as u64
                } else {
                    !x
                }
            }
            UnOp::Cnot => (x == 0) as u64,
            UnOp::Popc => x.count_ones() as u64,
            UnOp::Clz => (x.leading_zeros() - (64 - bits)) as u64,
            UnOp::Brev => x.reverse_bits() >> (64 - bits),
            UnOp::Bfind { shiftamt } => bfind(x, bits, ty.signed(), shiftamt),
            UnOp::Sqrt => 0,
        }
    }

    pub(super) fn bin(&self, op: BinOp, ty: Ty, fm: FMod, x: u64, y: u64) -> Result<u64, String> {
        let bits = ty.bits as u32;
        if ty.float() {
            let r = if bits == 32 {
                fbin(op, f32_of(x, fm.ftz), f32_of(y, fm.ftz)).map(|r| f32_out(r, fm))
            } else {
                fbin(op, f64::from_bits(x), f64::from_bits(y)).map(|r| f64_out(r, fm))
            };
            return r.ok_or_else(|| format!("float operation {op:?}"));
        }
        if ty.kind == Kind::Pred {
            return Ok(match op {
                BinOp::And => x & y,
                BinOp::Or => x | y,
                _ => x ^ y,
            } & 1);
        }
        let s = ty.signed();
        let (sx, sy) = (sext(x, bits) as i64, sext(y, bits) as i64);
        let sat32 = |v: i64| v.clamp(i32::MIN as i64, i32::MAX as i64) as u64;
        Ok(match op {
            BinOp::Add { sat: true } => sat32(sx + sy),
            BinOp::Sub { sat: true } => sat32(sx - sy),
            BinOp::Add { .. } => x.wrapping_add(y),
            BinOp::Sub { .. } => x.wrapping_sub(y),
            BinOp::MulLo => x.wrapping_mul(y),
            BinOp::MulHi => mul_hi(x, y, bits, s),
            BinOp::MulWide => {
                if s {
                    sx.wrapping_mul(sy) as u64
                } else {
                    x.wrapping_mul(y)
                }
            }
            BinOp::Div { .. } | BinOp::Rem if y == 0 => {
                if op == (BinOp::Div { zero_ok: true }) {
                    0
                } else {
                    return Err(
                        "integer division by zero (PTX ISA div/rem: the result is unspecified)"
                            .into(),
                    );
                }
            }
            BinOp::Div { .. } => {
                if s {
                    sx.wrapping_div(sy) as u64
                } else {
                    x / y
                }
            }
            BinOp::Rem => {
                if s {
                    sx.wrapping_rem(sy) as u64
                } else {
                    x % y
                }
            }
            BinOp::Min => {
                if s {
                    sx.min(sy) as u64
                } else {
                    x.min(y)
                }
            }
            BinOp::Max => {
                if s {
                    sx.max(sy) as u64
                } else {
                    x.max(y)
                }
            }
            BinOp::And => x & y,
            BinOp::Or => x | y,
            BinOp::Xor => x ^ y,
            // PTX ISA shl/shr: shift amounts greater than the width are clamped to it.
            BinOp::Shl => {
                if y >= bits as u64 {
                    0
                } else {
                    x << y
                }
            }
            BinOp::Shr => {
                let y = y.min(bits as u64) as u32;
                if s {
                    (sx >> y.min(63)) as u64
                } else if y >= 64 {
                    0
                } else {
                    x >> y
                }
            }
            BinOp::Copysign => return Err("integer copysign".into()),
        })
    }
}

/// What `exec` did to the control flow.
pub(super) enum Flow {
    /// The pc was moved (a forward branch).
    Jumped,
    /// Return this step.
    Step(Step),
}
