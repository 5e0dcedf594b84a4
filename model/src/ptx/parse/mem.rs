//! Memory instructions: `ld`, `st`, `atom`, `red` (PTX ISA §9.7.9.8-9, §9.7.13.5-6), their semantics and scope.

use super::*;

impl P<'_> {
    pub(super) fn order(&self, q: &Quals, is_ld: bool) -> R<Order> {
        let scope = match q.scopes.as_slice() {
            [] => None,
            [s] => Some(*s),
            _ => return err(format!("`{}`: two scopes", self.text)),
        };
        let name = if is_ld { "ld" } else { "st" };
        let sem = match q.sems.as_slice() {
            [] | ["weak"] => Sem::Weak,
            ["volatile"] => {
                if scope.is_some() {
                    return err(format!("`{}`: .volatile takes no scope", self.text));
                }
                // PTX ISA §8.4.2: volatile = relaxed at .sys.
                return Ok(Order {
                    sem: Sem::Relaxed,
                    scope: Some(Scope::Sys),
                });
            }
            ["relaxed"] | ["mmio", "relaxed"] | ["relaxed", "mmio"] => Sem::Relaxed,
            ["acquire"] if is_ld => Sem::Acquire,
            ["release"] if !is_ld => Sem::Release,
            [s] => {
                return err(format!(
                    "`{}`: {name} has no `.{s}` (PTX ISA {name}: weak, volatile, relaxed, {})",
                    self.text,
                    if is_ld { "acquire" } else { "release" }
                ))
            }
            _ => return err(format!("`{}`: two semantics qualifiers", self.text)),
        };
        if sem == Sem::Weak && scope.is_some() {
            return err(format!("`{}`: a weak access takes no scope", self.text));
        }
        if sem != Sem::Weak && scope.is_none() {
            return err(format!(
                "`{}`: a .{sem} access needs a scope (.cta, .cluster, .gpu or .sys)",
                self.text
            ));
        }
        Ok(Order { sem, scope })
    }

    /// The space of a memory instruction (one qualifier at most): (space, proxy).
    pub(super) fn mem_space(&self, q: &Quals) -> R<Option<Sp>> {
        match q.spaces.as_slice() {
            [] => Ok(None),
            [s] => Ok(Some(*s)),
            _ => err(format!("`{}`: two state spaces", self.text)),
        }
    }

    /// The operands of `ld`/`st`: two, or three with `.L2::cache_hint` (the cache policy).
    fn data_operands(&self, q: &Quals) -> R<()> {
        self.nops(&[2, 3])?;
        if self.ops.len() == 3 && !q.cache_hint {
            return err(format!(
                "`{}`: a third operand needs .L2::cache_hint",
                self.text
            ));
        }
        Ok(())
    }

    /// The register list `{a, b, …}` of a `.vN` access (one register without `.vN`); `what`
    /// names its elements in the error.
    fn vector(&self, s: &str, q: &Quals, what: &str) -> R<Vec<String>> {
        let xs = self.list(s)?;
        let n = q.vec.unwrap_or(1) as usize;
        if xs.len() != n {
            return err(format!(
                "`{}`: expected {n} {what}(s), found {}",
                self.text,
                xs.len()
            ));
        }
        Ok(xs)
    }

    pub(super) fn ld(&mut self, op: &str, rest: &[&str]) -> R<Inst> {
        let q = quals(rest)?;
        let mut proxy = match op {
            "suld" => Proxy::Surface,
            "tld" => Proxy::Texture,
            "cold" => Proxy::Constant,
            _ => Proxy::Generic,
        };
        for w in &q.words {
            match *w {
                // ld.global.nc: a weak load through the non-coherent cache (decision: modelled as
                // a weak generic load; PTX ISA §9.7.9.9 only allows it on read-only data).
                "nc" => {}
                _ => return unsup(format!("qualifier `.{w}` of `{}`", self.text)),
            }
        }
        if op == "ldu" {
            return unsup("`ldu`");
        }
        self.data_operands(&q)?;
        let sp = self.mem_space(&q)?;
        if self.litmus && rest.is_empty() && op == "ld" {
            // Another tool's dialect: `ld r0, 1` moves a value into a register.
            let o1 = self.ops[1].clone();
            if parse_int(&o1).is_some() || self.env.reg(&o1).is_some() {
                let o0 = self.ops[0].clone();
                let d = self.reg(&o0)?;
                let a = self.src(&o1, Ty::S64)?;
                return Ok(Inst::Mov { ty: Ty::S64, d, a });
            }
        }
        let ty = self.one_type(&q, Some(Ty::U32))?;
        if ty.bits == 128 {
            return unsup(format!("128-bit access `{}`", self.text));
        }
        if sp == Some(Sp::Param) {
            return self.ld_param(ty, &q);
        }
        if (op == "suld" || op == "tld") && self.ops[1].contains(',') {
            return unsup(format!("surface/texture instruction `{}`", self.text));
        }
        // `.const` (`.param` returned above): a constant-proxy read of global memory.
        let space = data_space(sp).unwrap_or_else(|| {
            proxy = Proxy::Constant;
            Space::Global
        });
        let order = self.order(&q, true)?;
        let (o0, o1) = (self.ops[0].clone(), self.ops[1].clone());
        let ds = self.vector(&o0, &q, "destination")?;
        let d = ds.iter().map(|x| self.dst(x)).collect::<R<Vec<_>>>()?;
        let m = self.mem_ref(&o1, space, order, proxy, ty)?;
        Ok(Inst::Ld { m, d })
    }

    pub(super) fn ld_param(&mut self, ty: Ty, q: &Quals) -> R<Inst> {
        if q.vec.is_some() {
            return unsup(format!("vector `ld.param` `{}`", self.text));
        }
        let (o0, o1) = (self.ops[0].clone(), self.ops[1].clone());
        let d = self.reg(&o0)?;
        let inner = o1
            .trim()
            .strip_prefix('[')
            .and_then(|x| x.strip_suffix(']'))
            .ok_or_else(|| PErr {
                unsupported: false,
                msg: format!("expected `[param]`, found `{o1}`"),
            })?;
        let (name, off) = split_off(inner.trim())?;
        match self.env.param(name) {
            Some(Param::Value(bytes)) => {
                let n = (ty.bits / 8) as usize;
                let off = usize::try_from(off).ok().filter(|o| o + n <= bytes.len());
                let Some(off) = off else {
                    return err(format!("`{}` reads past the parameter `{name}`", self.text));
                };
                let mut v = 0u64;
                for (i, b) in bytes[off..off + n].iter().enumerate() {
                    v |= (*b as u64) << (8 * i);
                }
                Ok(Inst::Mov {
                    ty,
                    d,
                    a: Opnd::Imm(v),
                })
            }
            Some(Param::Reg(r)) => {
                if off != 0 {
                    return unsup(format!(
                        "a call parameter read at an offset: `{}`",
                        self.text
                    ));
                }
                Ok(Inst::Mov {
                    ty,
                    d,
                    a: Opnd::Reg(r),
                })
            }
            None => err(format!("`{name}` is not a parameter")),
        }
    }

    pub(super) fn st(&mut self, op: &str, rest: &[&str]) -> R<Inst> {
        let q = quals(rest)?;
        let mut proxy = if op == "sust" {
            Proxy::Surface
        } else {
            Proxy::Generic
        };
        if let Some(w) = q.words.first() {
            return unsup(format!("qualifier `.{w}` of `{}`", self.text));
        }
        self.data_operands(&q)?;
        let ty = self.one_type(&q, Some(Ty::U32))?;
        if ty.bits == 128 {
            return unsup(format!("128-bit access `{}`", self.text));
        }
        let sp = self.mem_space(&q)?;
        if sp == Some(Sp::Param) {
            // st.param [param0], v: a call argument, held in a register.
            let (o0, o1) = (self.ops[0].clone(), self.ops[1].clone());
            let inner = o0
                .trim()
                .strip_prefix('[')
                .and_then(|x| x.strip_suffix(']'))
                .unwrap_or("");
            let (name, off) = split_off(inner.trim())?;
            return match self.env.param(name) {
                Some(Param::Reg(r)) if off == 0 && q.vec.is_none() => {
                    let a = self.src(&o1, ty)?;
                    Ok(Inst::Mov { ty, d: r, a })
                }
                Some(_) => unsup(format!("`{}`", self.text)),
                None => err(format!("`{name}` is not a parameter")),
            };
        }
        if op == "sust" && self.ops[0].contains(',') {
            return unsup(format!("surface instruction `{}`", self.text));
        }
        // `.const` (`.param` returned above) is read-only.
        let Some(space) = data_space(sp) else {
            return err(format!("`{}`: the constant space is read-only", self.text));
        };
        if op == "sust" {
            proxy = Proxy::Surface;
        }
        let order = self.order(&q, false)?;
        let (o0, o1) = (self.ops[0].clone(), self.ops[1].clone());
        let vs = self.vector(&o1, &q, "value")?;
        let v = vs.iter().map(|x| self.src(x, ty)).collect::<R<Vec<_>>>()?;
        let m = self.mem_ref(&o0, space, order, proxy, ty)?;
        Ok(Inst::St { m, v })
    }

    /// What a `ld`/`st` names besides its registers: the address operand `a` in `space`, and
    /// the order, proxy and element type its qualifiers said.
    fn mem_ref(&mut self, a: &str, space: Space, order: Order, proxy: Proxy, ty: Ty) -> R<MemRef> {
        let addr = self.addr_in(a, space)?;
        Ok(MemRef {
            space,
            order,
            proxy,
            ty,
            addr,
        })
    }

    pub(super) fn rmw_op(&self, w: &str, ret: bool) -> Option<RmwOp> {
        Some(match w {
            "add" => RmwOp::Add,
            "sub" if self.litmus => RmwOp::Sub,
            "inc" => RmwOp::Inc,
            "dec" => RmwOp::Dec,
            "and" => RmwOp::And,
            "or" => RmwOp::Or,
            "xor" => RmwOp::Xor,
            "min" => RmwOp::Min,
            "max" => RmwOp::Max,
            "exch" if ret => RmwOp::Exch,
            "cas" if ret => RmwOp::Cas,
            _ => return None,
        })
    }

    /// The ISA's type rules for an atomic operation (PTX ISA §9.7.13.5-6).
    pub(super) fn check_rmw_ty(&self, op: RmwOp, ty: Ty) -> R<()> {
        let ok = match op {
            // "The .inc and .dec operations" exist on .u32 only (PTX ISA atom/red: 64-bit atom is
            // listed for add, cas, exch, and, or, xor, min, max; never inc/dec).
            RmwOp::Inc | RmwOp::Dec => ty == Ty::U32,
            RmwOp::Add | RmwOp::Sub => {
                matches!(ty.kind, Kind::U | Kind::S | Kind::F | Kind::Bf)
                    || (ty.kind == Kind::B && self.litmus)
            }
            RmwOp::Min | RmwOp::Max => matches!(ty.kind, Kind::U | Kind::S | Kind::F | Kind::Bf),
            RmwOp::And | RmwOp::Or | RmwOp::Xor => ty.bits >= 32 && !ty.float(),
            RmwOp::Exch => ty.bits >= 32 || ty.kind == Kind::B,
            RmwOp::Cas => ty.kind == Kind::B && ty.bits >= 16 || (!ty.float() && ty.bits >= 32),
        };
        if !ok {
            return err(format!(
                "`{}`: .{} has no type .{} (PTX ISA atom/red{})",
                self.text,
                rmw_name(op),
                ty.name(),
                if matches!(op, RmwOp::Inc | RmwOp::Dec) {
                    ": .inc and .dec are .u32 only"
                } else {
                    ""
                }
            ));
        }
        if ty.bits == 128 {
            return unsup(format!("128-bit atomic `{}`", self.text));
        }
        if ty.float() && ty.bits == 16 && matches!(op, RmwOp::Add) {
            return Ok(());
        }
        if ty.bits == 16 && op != RmwOp::Cas {
            return err(format!(
                "`{}`: 16-bit atomics are .cas.b16 and .add.noftz.f16/bf16",
                self.text
            ));
        }
        Ok(())
    }

    pub(super) fn atom(&mut self, ret: bool, rest: &[&str]) -> R<Inst> {
        let q = quals(rest)?;
        let name = if ret { "atom" } else { "red" };
        let mut op = None;
        let mut packed = None;
        for w in &q.words {
            if let Some(o) = self.rmw_op(w, ret) {
                if op.replace(o).is_some() {
                    return err(format!("`{}`: two operations", self.text));
                }
            } else if *w == "noftz" {
            } else if *w == "f16x2" {
                packed = Some(Ty::new(Kind::F, 16));
            } else if *w == "bf16x2" {
                packed = Some(Ty::new(Kind::Bf, 16));
            } else {
                return match *w {
                    "exch" | "cas" => {
                        err(format!("`{}`: red has no .{w} (PTX ISA red)", self.text))
                    }
                    "sub" => err(format!(
                        "`{}`: {name} has no .sub (PTX ISA {name}: add a negation)",
                        self.text
                    )),
                    _ => unsup(format!("qualifier `.{w}` of `{}`", self.text)),
                };
            }
        }
        let op = op.ok_or_else(|| PErr {
            unsupported: false,
            msg: format!("`{}`: expected an operation (.add, .inc, .dec, .and, .or, .xor, .min, .max, .exch, .cas)", self.text),
        })?;
        let sem = match q.sems.as_slice() {
            [] | ["relaxed"] => Sem::Relaxed,
            ["acquire"] if ret => Sem::Acquire,
            ["release"] => Sem::Release,
            ["acq_rel"] if ret => Sem::AcqRel,
            ["acquire"] | ["acq_rel"] => {
                return err(format!(
                    "`{}`: red has no `.{}` (PTX ISA red: .relaxed, .release; seed §4.5)",
                    self.text, q.sems[0]
                ))
            }
            [s] => {
                return err(format!(
                    "`{}`: atom/red have no `.{s}` (PTX ISA atom: .relaxed, .acquire, .release, .acq_rel)",
                    self.text
                ))
            }
            _ => return err(format!("`{}`: two semantics qualifiers", self.text)),
        };
        let scope = match q.scopes.as_slice() {
            [] => Scope::Gpu,
            [s] => *s,
            _ => return err(format!("`{}`: two scopes", self.text)),
        };
        if q.vec.is_some() || packed.is_some() {
            return self.atom_vec(ret, op, sem, scope, &q, packed);
        }
        let ty = self.one_type(&q, Some(Ty::U32))?;
        self.check_rmw_ty(op, ty)?;
        let space = match self.mem_space(&q)? {
            None => Space::Generic,
            Some(Sp::Global) => Space::Global,
            Some(Sp::SharedCta) => Space::SharedCta,
            Some(Sp::SharedCluster) => Space::SharedCluster,
            Some(_) => return err(format!("`{}`: {name} is on .global or .shared", self.text)),
        };
        let cas = op == RmwOp::Cas;
        let n = if ret { 3 } else { 2 } + usize::from(cas) + usize::from(q.cache_hint);
        self.nops(&[n])?;
        let ops = self.ops.clone();
        let (d, rest) = if ret {
            (self.dst(&ops[0])?, &ops[1..])
        } else {
            (None, &ops[..])
        };
        let addr = self.addr_in(&rest[0], space)?;
        let a = self.src(&rest[1], ty)?;
        let b = if cas {
            self.src(&rest[2], ty)?
        } else {
            Opnd::Imm(0)
        };
        Ok(Inst::Atom {
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
        })
    }

    /// `atom/red{.sem}{.scope}{.global}.op{.noftz}.vec.type` and the packed `.f16x2/.bf16x2`.
    pub(super) fn atom_vec(
        &mut self,
        ret: bool,
        op: RmwOp,
        sem: Sem,
        scope: Scope,
        q: &Quals,
        packed: Option<Ty>,
    ) -> R<Inst> {
        let (ty, per_reg) = match (packed, q.types.as_slice()) {
            (Some(t), []) => (t, 2u8),
            (None, [t]) if t.float() => (*t, 1),
            _ => {
                return err(format!(
                    "`{}`: vector atomics are on .f32, .f16, .bf16, .f16x2 or .bf16x2",
                    self.text
                ))
            }
        };
        let n = q.vec.unwrap_or(1) as usize;
        let ok_op =
            matches!(op, RmwOp::Add) || (ty.bits == 16 && matches!(op, RmwOp::Min | RmwOp::Max));
        let ok_vec = match (ty.bits, per_reg) {
            (32, _) => matches!(n, 2 | 4),
            (16, 1) => matches!(n, 2 | 4 | 8),
            _ => matches!(n, 1 | 2 | 4),
        };
        if !ok_op || !ok_vec {
            return err(format!(
                "`{}`: no such vector atomic (PTX ISA atom: .v2/.v4 .f32 .add; .v2/.v4/.v8 .f16/.bf16 and .v2/.v4 .f16x2/.bf16x2 .add/.min/.max)",
                self.text
            ));
        }
        let space = match self.mem_space(q)? {
            None => Space::Generic,
            Some(Sp::Global) => Space::Global,
            Some(Sp::SharedCta | Sp::SharedCluster) if n == 1 => {
                if q.spaces[0] == Sp::SharedCta {
                    Space::SharedCta
                } else {
                    Space::SharedCluster
                }
            }
            Some(_) => return err(format!("`{}`: vector atomics are on .global", self.text)),
        };
        self.nops(&[if ret { 3 } else { 2 } + usize::from(q.cache_hint)])?;
        let ops = self.ops.clone();
        let (ds, rest) = if ret {
            (self.list(&ops[0])?, &ops[1..])
        } else {
            (vec![], &ops[..])
        };
        let regty = Ty::new(Kind::B, ty.bits * per_reg);
        let mut d = Vec::new();
        for x in &ds {
            d.push(self.dst(x)?);
        }
        let addr = self.addr_in(&rest[0], space)?;
        let mut a = Vec::new();
        for x in &self.list(&rest[1])? {
            a.push(self.src(x, regty)?);
        }
        if a.len() != n || (ret && d.len() != n) {
            return err(format!("`{}`: expected {n} element register(s)", self.text));
        }
        Ok(Inst::AtomV {
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
        })
    }
}

fn rmw_name(op: RmwOp) -> &'static str {
    match op {
        RmwOp::Add => "add",
        RmwOp::Sub => "sub",
        RmwOp::Inc => "inc",
        RmwOp::Dec => "dec",
        RmwOp::And => "and",
        RmwOp::Or => "or",
        RmwOp::Xor => "xor",
        RmwOp::Min => "min",
        RmwOp::Max => "max",
        RmwOp::Exch => "exch",
        RmwOp::Cas => "cas",
    }
}

/// The state space a data access addresses (`.local` addresses are the local window's generic
/// addresses, GENERIC_LOCAL); `None` for `.const` and `.param`, which each access treats itself.
fn data_space(sp: Option<Sp>) -> Option<Space> {
    match sp {
        None | Some(Sp::Local) => Some(Space::Generic),
        Some(Sp::Global) => Some(Space::Global),
        Some(Sp::SharedCta) => Some(Space::SharedCta),
        Some(Sp::SharedCluster) => Some(Space::SharedCluster),
        Some(Sp::Const | Sp::Param) => None,
    }
}
