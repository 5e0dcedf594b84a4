//! Operands: registers, immediates and addresses (`[name+off]`), resolved through the [`Env`].

use super::*;

impl P<'_> {
    pub(super) fn nops(&self, n: &[usize]) -> R<()> {
        if n.contains(&self.ops.len()) {
            return Ok(());
        }
        let want = n
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(" or ");
        err(format!(
            "`{}` takes {want} operand(s), found {}",
            self.text,
            self.ops.len()
        ))
    }

    pub(super) fn no_words(&self, q: &Quals, what: &str) -> R<()> {
        if let Some(w) = q.words.first() {
            return unsup(format!("qualifier `.{w}` of {what}"));
        }
        Ok(())
    }

    pub(super) fn one_type(&self, q: &Quals, default: Option<Ty>) -> R<Ty> {
        match q.types.as_slice() {
            [t] => Ok(*t),
            [] => default.ok_or_else(|| PErr {
                unsupported: false,
                msg: format!("`{}`: expected a type (.u32, .s64, .b32, …)", self.text),
            }),
            _ => err(format!("`{}`: expected one type", self.text)),
        }
    }

    /// A destination register (`_` → `None`).
    pub(super) fn dst(&mut self, s: &str) -> R<Option<Reg>> {
        let s = s.trim();
        if s == "_" {
            return Ok(None);
        }
        Ok(Some(self.reg(s)?))
    }

    pub(super) fn reg(&mut self, s: &str) -> R<Reg> {
        let s = s.trim();
        match self.env.reg(s) {
            Some(r) => Ok(r),
            None => err(format!("expected a register, found `{s}`")),
        }
    }

    pub(super) fn pred_reg(&mut self, s: &str) -> R<Option<Reg>> {
        let r = self.dst(s)?;
        if let Some(r) = r {
            if !self.env.is_pred(r) && !self.litmus {
                return err(format!("expected a predicate register, found `{s}`"));
            }
        }
        Ok(r)
    }

    /// A source operand of type `ty`; literals must fit the type (FORMAT part 2: a literal that
    /// fits neither the signed nor the unsigned range of a w-bit type is an error).
    pub(super) fn src(&mut self, s: &str, ty: Ty) -> R<Opnd> {
        let s = s.trim();
        if let Some(p) = s.strip_prefix('!') {
            let r = self.reg(p)?;
            return Ok(Opnd::Not(r));
        }
        if let Some(sr) = sreg(s)? {
            return Ok(Opnd::Sreg(sr));
        }
        if ty.float() {
            if let Some(b) = parse_float(s, ty) {
                return Ok(Opnd::Imm(b));
            }
        }
        if let Some(v) = parse_int(s) {
            return Ok(Opnd::Imm(self.fit(v, ty)?));
        }
        if let Some(inner) = s.strip_prefix("generic(").and_then(|x| x.strip_suffix(')')) {
            let (name, off) = split_off(inner)?;
            return match self.env.var(name, false) {
                Some(v) if v.shared => Ok(Opnd::GenericOf(v.addr.wrapping_add(off as u64))),
                Some(v) => Ok(Opnd::Imm(v.addr.wrapping_add(off as u64))),
                None => err(format!("`{name}` is not a variable")),
            };
        }
        if let Some(r) = self.env.reg(s) {
            return Ok(Opnd::Reg(r));
        }
        // A variable's address (`mov.u64 r, x`; `x+4`).
        let (name, off) = split_off(s)?;
        if is_ident(name) {
            if let Some(v) = self.env.var(name, false) {
                return Ok(Opnd::Imm(v.addr.wrapping_add(off as u64)));
            }
        }
        err(format!(
            "expected a register, a literal or a variable, found `{s}`"
        ))
    }

    /// Checks that literal `v` fits type `ty` and gives its bits.
    pub(super) fn fit(&self, v: i128, ty: Ty) -> R<u64> {
        let bits = ty.bits.min(64) as u32;
        if ty.kind == Kind::Pred {
            // LLVM writes `true` as -1 (`mov.pred %p, -1`): any non-zero literal is true.
            return match v {
                0 => Ok(0),
                1 | -1 => Ok(1),
                _ => err(format!("a predicate literal is 0, 1 or -1, found {v}")),
            };
        }
        if bits < 64 && !ty.float() {
            let lo = -(1i128 << (bits - 1));
            let hi = (1i128 << bits) - 1;
            if v < lo || v > hi {
                return err(format!(
                    "literal {v} does not fit .{} (neither its signed nor its unsigned range)",
                    ty.name()
                ));
            }
        }
        if v < -(1i128 << 63) {
            return err(format!("literal {v} does not fit 64 bits"));
        }
        Ok((v as i64 as u64) & mask(bits.max(1)))
    }

    /// A memory operand (`[x]`, `[x+4]`, `[x@1]`, `[r1+8]`, `[%rd1+-28]`; bare in litmus).
    pub(super) fn addr(&mut self, s: &str) -> R<Addr> {
        let s = s.trim();
        let inner = match s.strip_prefix('[').and_then(|x| x.strip_suffix(']')) {
            Some(i) => i.trim(),
            None if self.litmus => s,
            None => return err(format!("expected an address `[a]`, found `{s}`")),
        };
        let (name, off) = split_off(inner)?;
        if name.is_empty() {
            return match parse_int(inner) {
                Some(v) if v >= 0 => Ok(Addr {
                    base: Base::Abs(v as u64),
                    off: 0,
                }),
                _ => err(format!("expected an address, found `{s}`")),
            };
        }
        if let Some(v) = parse_int(name) {
            if v >= 0 {
                return Ok(Addr {
                    base: Base::Abs(v as u64),
                    off,
                });
            }
        }
        let (name, rank) = match name.split_once('@') {
            Some((n, k)) => {
                let k = parse_int(k)
                    .filter(|k| (0..16).contains(k))
                    .ok_or_else(|| PErr {
                        unsupported: false,
                        msg: format!("expected a CTA rank 0–15 after `@`, found `{k}`"),
                    })?;
                (n.trim(), Some(k as u32))
            }
            None => (name, None),
        };
        if rank.is_none() {
            if let Some(r) = self.env.reg(name) {
                return Ok(Addr {
                    base: Base::Reg(r),
                    off,
                });
            }
        }
        if !is_ident(name) {
            return err(format!("expected an address, found `{s}`"));
        }
        let v = self.env.var(name, true).ok_or_else(|| PErr {
            unsupported: false,
            msg: format!("`{name}` is neither a register nor a variable"),
        })?;
        if rank.is_some() && !v.shared {
            return err(format!(
                "`{name}@…` names a CTA's copy, but `{name}` is not shared"
            ));
        }
        Ok(Addr {
            base: Base::Var {
                var: v.var,
                shared: v.shared,
                addr: v.addr,
                rank,
            },
            off,
        })
    }

    /// An address operand with its space; a name whose variable is not in the space is an
    /// error (FORMAT part 2, "State spaces").
    pub(super) fn addr_in(&mut self, s: &str, space: Space) -> R<Addr> {
        let a = self.addr(s)?;
        if let Base::Var { shared, rank, .. } = a.base {
            let ok = match space {
                Space::Generic => true,
                Space::Global => !shared,
                Space::SharedCta => shared && rank.is_none(),
                Space::SharedCluster => shared,
            };
            if !ok {
                let sp = match space {
                    Space::Global => ".global",
                    Space::SharedCta => ".shared::cta",
                    Space::SharedCluster => ".shared::cluster",
                    Space::Generic => "generic",
                };
                return err(format!(
                    "`{}` is not in the {sp} state space{}",
                    s.trim(),
                    if rank.is_some() {
                        " (`x@K` needs .shared::cluster or generic addressing)"
                    } else {
                        ""
                    }
                ));
            }
        }
        Ok(a)
    }

    /// `{a, b, …}` or a single operand.
    pub(super) fn list(&self, s: &str) -> R<Vec<String>> {
        let s = s.trim();
        match s.strip_prefix('{').and_then(|x| x.strip_suffix('}')) {
            Some(inner) => split_ops(inner),
            None => Ok(vec![s.to_string()]),
        }
    }
}

/// `name+4`, `name-4`, `name+-4`, `name` → (name, offset). A bare number is `("", n)`.
pub(super) fn split_off(s: &str) -> R<(&str, i64)> {
    let s = s.trim();
    // The offset starts at the first `+` or `-` after the first character.
    let pos = s
        .char_indices()
        .skip(1)
        .find(|&(_, c)| c == '+' || c == '-')
        .map(|(i, _)| i);
    match pos {
        None => {
            if parse_int(s).is_some() {
                Ok(("", 0))
            } else {
                Ok((s, 0))
            }
        }
        Some(p) => {
            let (name, off) = (s[..p].trim(), s[p..].trim());
            let off = off.strip_prefix('+').unwrap_or(off).trim();
            let v = parse_int(off).ok_or_else(|| PErr {
                unsupported: false,
                msg: format!("expected an integer offset in `{s}`"),
            })?;
            let v = i64::try_from(v).map_err(|_| PErr {
                unsupported: false,
                msg: format!("offset out of range in `{s}`"),
            })?;
            Ok((name, v))
        }
    }
}

/// A special register name (`%tid.x`, …) → `Some`; `%tid` alone is an error.
pub(super) fn sreg(s: &str) -> R<Option<Sreg>> {
    let Some(body) = s.strip_prefix('%') else {
        if s == "WARP_SZ" {
            return Ok(Some(Sreg::WarpSz));
        }
        return Ok(None);
    };
    let (name, dim) = match body.split_once('.') {
        Some((n, d)) => (
            n,
            Some(match d {
                "x" => 0u8,
                "y" => 1,
                "z" => 2,
                _ => return err(format!("expected .x, .y or .z after `%{n}`")),
            }),
        ),
        None => (body, None),
    };
    let vec = |f: fn(u8) -> Sreg| -> R<Option<Sreg>> {
        match dim {
            Some(d) => Ok(Some(f(d))),
            None => unsup(format!(
                "the vector special register `{s}` (name a component: .x, .y, .z)"
            )),
        }
    };
    let sc = |r: Sreg| -> R<Option<Sreg>> {
        match dim {
            None => Ok(Some(r)),
            Some(_) => err(format!("`{s}` has no components")),
        }
    };
    match name {
        "tid" => vec(Sreg::Tid),
        "ntid" => vec(Sreg::Ntid),
        "ctaid" => vec(Sreg::Ctaid),
        "nctaid" => vec(Sreg::Nctaid),
        "clusterid" => vec(Sreg::Clusterid),
        "nclusterid" => vec(Sreg::Nclusterid),
        "cluster_ctaid" => vec(Sreg::ClusterCtaid),
        "cluster_nctaid" => vec(Sreg::ClusterNctaid),
        "cluster_ctarank" => sc(Sreg::ClusterCtarank),
        "cluster_nctarank" => sc(Sreg::ClusterNctarank),
        "is_explicit_cluster" => sc(Sreg::IsExplicitCluster),
        "laneid" => sc(Sreg::Laneid),
        "warpid" => sc(Sreg::Warpid),
        "nwarpid" => sc(Sreg::Nwarpid),
        "smid" => sc(Sreg::Smid),
        "nsmid" => sc(Sreg::Nsmid),
        "gridid" => sc(Sreg::Gridid),
        "lanemask_eq" => sc(Sreg::LanemaskEq),
        "lanemask_le" => sc(Sreg::LanemaskLe),
        "lanemask_lt" => sc(Sreg::LanemaskLt),
        "lanemask_ge" => sc(Sreg::LanemaskGe),
        "lanemask_gt" => sc(Sreg::LanemaskGt),
        "dynamic_smem_size" => sc(Sreg::DynSmem),
        "total_smem_size" => sc(Sreg::TotalSmem),
        "clock" => sc(Sreg::Clock),
        "clock64" => sc(Sreg::Clock64),
        "globaltimer" => sc(Sreg::Globaltimer),
        "globaltimer_lo" => sc(Sreg::GlobaltimerLo),
        "globaltimer_hi" => sc(Sreg::GlobaltimerHi),
        "envreg0"
        | "envreg1"
        | "pm0"
        | "pm1"
        | "pm2"
        | "pm3"
        | "aggr_smem_size"
        | "reserved_smem_offset_begin"
        | "reserved_smem_offset_end"
        | "reserved_smem_offset_cap" => unsup(format!("special register `{s}`")),
        _ => Ok(None),
    }
}
