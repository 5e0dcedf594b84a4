//! Moves and arithmetic: `mov`, integer and float binary/unary ops, `mad`/`fma`, bit fields, `prmt` (PTX ISA §9.7.1-4, §9.7.7-9).

use super::*;

impl P<'_> {
    pub(super) fn mov(&mut self, rest: &[&str]) -> R<Inst> {
        let q = quals(rest)?;
        self.no_words(&q, "mov")?;
        self.nops(&[2])?;
        let ty = match q.types.as_slice() {
            [] if self.litmus => Ty::S64,
            _ => self.one_type(&q, None)?,
        };
        let (o0, o1) = (self.ops[0].clone(), self.ops[1].clone());
        if o1.trim().starts_with('{') {
            let parts = self.list(&o1)?;
            let bits = ty.bits as usize / parts.len().max(1);
            if !matches!(bits, 8 | 16 | 32 | 64) || bits * parts.len() != ty.bits as usize {
                return err(format!(
                    "`{}`: the elements do not pack into .{}",
                    self.text,
                    ty.name()
                ));
            }
            let d = self.reg(&o0)?;
            let et = Ty::new(Kind::B, bits as u8);
            let mut ps = Vec::new();
            for p in &parts {
                ps.push(self.src(p, et)?);
            }
            return Ok(Inst::Pack {
                bits: bits as u8,
                d,
                parts: ps,
            });
        }
        if o0.trim().starts_with('{') {
            let parts = self.list(&o0)?;
            let bits = ty.bits as usize / parts.len().max(1);
            if !matches!(bits, 8 | 16 | 32 | 64) || bits * parts.len() != ty.bits as usize {
                return err(format!(
                    "`{}`: the elements do not unpack from .{}",
                    self.text,
                    ty.name()
                ));
            }
            let mut ds = Vec::new();
            for p in &parts {
                ds.push(self.dst(p)?);
            }
            let a = self.src(&o1, ty)?;
            return Ok(Inst::Unpack {
                bits: bits as u8,
                ds,
                a,
            });
        }
        let d = self.reg(&o0)?;
        let a = self.src(&o1, ty)?;
        if let Opnd::Sreg(s) = a {
            if s.is_clock() {
                return Ok(Inst::Clock { d, which: s });
            }
        }
        Ok(Inst::Mov { ty, d, a })
    }

    pub(super) fn arith_ty(&self, q: &Quals) -> R<Ty> {
        match q.types.as_slice() {
            [] if self.litmus => Ok(Ty::S64),
            _ => self.one_type(q, None),
        }
    }

    /// Float rounding qualifiers: `.rn` (or none where the ISA defaults to it) is modelled;
    /// `.ftz`, `.sat` are returned.
    pub(super) fn float_mods(&self, words: &[&str], need_rnd: bool) -> R<FMod> {
        let mut rnd = false;
        let mut fm = FMod::default();
        for w in words {
            match *w {
                "rn" => rnd = true,
                "ftz" => fm.ftz = true,
                "sat" => fm.sat = true,
                "rz" | "rm" | "rp" => {
                    return unsup(format!(
                        "rounding `.{w}` in `{}` (floats compute with .rn on the host)",
                        self.text
                    ))
                }
                "approx" | "full" => return unsup(format!("approximate float `{}`", self.text)),
                _ => return unsup(format!("qualifier `.{w}` of `{}`", self.text)),
            }
        }
        if need_rnd && !rnd {
            return err(format!(
                "`{}`: a rounding modifier is required (.rn)",
                self.text
            ));
        }
        Ok(fm)
    }

    pub(super) fn half(&self, ty: Ty) -> R<()> {
        if ty.float() && ty.bits == 16 {
            return unsup(format!("half-precision arithmetic `{}`", self.text));
        }
        Ok(())
    }

    pub(super) fn bin(&mut self, op: &str, rest: &[&str]) -> R<Inst> {
        let q = quals(rest)?;
        let ty = self.arith_ty(&q)?;
        self.half(ty)?;
        let mut words: Vec<&str> = q.words.clone();
        let mut sat = false;
        let mut mode = None;
        let mut fm = FMod::default();
        if !ty.float() {
            words.retain(|w| match *w {
                "sat" if ty == Ty::S32 && matches!(op, "add" | "sub") => {
                    sat = true;
                    false
                }
                "lo" | "hi" | "wide" if op == "mul" => {
                    mode = Some(*w);
                    false
                }
                _ => true,
            });
            if let Some(w) = words.first() {
                return unsup(format!("qualifier `.{w}` of `{}`", self.text));
            }
        } else {
            let need = op == "div" && ty.bits == 64;
            if op == "div" && !words.contains(&"rn") {
                if words.contains(&"approx") || words.contains(&"full") {
                    return unsup(format!("approximate float `{}`", self.text));
                }
                if need || ty.bits == 32 {
                    return err(format!(
                        "`{}`: div.f32/f64 need .rn, .rz, .rm, .rp, .approx or .full",
                        self.text
                    ));
                }
            }
            fm = self.float_mods(&words, false)?;
            if matches!(op, "rem" | "and" | "or" | "xor" | "shl" | "shr") {
                return err(format!("`{}`: no float {op}", self.text));
            }
        }
        if ty.kind == Kind::Pred && !matches!(op, "and" | "or" | "xor") {
            return err(format!("`{}`: .pred is for and, or, xor, not", self.text));
        }
        if matches!(op, "and" | "or" | "xor" | "shl")
            && matches!(ty.kind, Kind::U | Kind::S)
            && !self.litmus
        {
            return err(format!(
                "`{}`: {op} takes .b16/.b32/.b64{}",
                self.text,
                if op == "shl" { "" } else { " or .pred" }
            ));
        }
        if op == "mul" && !ty.float() && mode.is_none() && !(self.litmus && q.types.is_empty()) {
            return err(format!(
                "`{}`: integer mul needs .lo, .hi or .wide",
                self.text
            ));
        }
        if op == "copysign" && !ty.float() {
            return err(format!("`{}`: copysign is .f32/.f64", self.text));
        }
        let bop = match op {
            "add" => BinOp::Add { sat },
            "sub" => BinOp::Sub { sat },
            "mul" => match mode {
                Some("hi") => BinOp::MulHi,
                Some("wide") => BinOp::MulWide,
                _ => BinOp::MulLo,
            },
            "div" => BinOp::Div {
                zero_ok: self.litmus && q.types.is_empty(),
            },
            "rem" => BinOp::Rem,
            "min" => BinOp::Min,
            "max" => BinOp::Max,
            "and" => BinOp::And,
            "or" => BinOp::Or,
            "xor" => BinOp::Xor,
            "shl" => BinOp::Shl,
            "shr" => BinOp::Shr,
            _ => BinOp::Copysign,
        };
        if bop == BinOp::MulWide && (ty.bits > 32 || ty.kind == Kind::B) {
            return err(format!("`{}`: mul.wide is .u16/.u32/.s16/.s32", self.text));
        }
        self.nops(&[3])?;
        let ops = self.ops.clone();
        let d = self.reg(&ops[0])?;
        let a = self.src(&ops[1], ty)?;
        // Shift amounts are .u32 (PTX ISA shl/shr).
        let bt = if matches!(bop, BinOp::Shl | BinOp::Shr) {
            Ty::U32
        } else {
            ty
        };
        let b = self.src(&ops[2], bt)?;
        Ok(Inst::Bin {
            fm,
            op: bop,
            ty,
            d,
            a,
            b,
        })
    }

    pub(super) fn mad(&mut self, op: &str, rest: &[&str]) -> R<Inst> {
        let q = quals(rest)?;
        let ty = self.one_type(&q, None)?;
        self.half(ty)?;
        let mut fm = FMod::default();
        let mode = if ty.float() {
            fm = self.float_mods(&q.words, true)?;
            MadMode::Fma
        } else {
            if op == "fma" {
                return err(format!("`{}`: fma is a float instruction", self.text));
            }
            match q.words.as_slice() {
                ["lo"] => MadMode::Lo,
                ["hi"] => MadMode::Hi,
                ["wide"] => MadMode::Wide,
                _ => return unsup(format!("`{}`", self.text)),
            }
        };
        if mode == MadMode::Wide && (ty.bits > 32 || ty.kind == Kind::B) {
            return err(format!("`{}`: mad.wide is .u16/.u32/.s16/.s32", self.text));
        }
        self.nops(&[4])?;
        let ops = self.ops.clone();
        let d = self.reg(&ops[0])?;
        let a = self.src(&ops[1], ty)?;
        let b = self.src(&ops[2], ty)?;
        let ct = if mode == MadMode::Wide {
            Ty::new(ty.kind, ty.bits * 2)
        } else {
            ty
        };
        let c = self.src(&ops[3], ct)?;
        Ok(Inst::Mad {
            fm,
            mode,
            ty,
            d,
            a,
            b,
            c,
        })
    }

    pub(super) fn un(&mut self, op: &str, rest: &[&str]) -> R<Inst> {
        let q = quals(rest)?;
        let ty = self.one_type(&q, None)?;
        self.half(ty)?;
        let mut shiftamt = false;
        let mut fm = FMod::default();
        for w in &q.words {
            match *w {
                "shiftamt" if op == "bfind" => shiftamt = true,
                "ftz" if ty.float() => fm.ftz = true,
                "rn" if op == "sqrt" => {}
                "approx" => return unsup(format!("approximate float `{}`", self.text)),
                _ => return unsup(format!("qualifier `.{w}` of `{}`", self.text)),
            }
        }
        if op == "sqrt" && !q.words.contains(&"rn") {
            return unsup(format!("`{}` (sqrt.rn is modelled)", self.text));
        }
        let uop = match op {
            "abs" => UnOp::Abs,
            "neg" => UnOp::Neg,
            "not" => UnOp::Not,
            "cnot" => UnOp::Cnot,
            "popc" => UnOp::Popc,
            "clz" => UnOp::Clz,
            "brev" => UnOp::Brev,
            "bfind" => UnOp::Bfind { shiftamt },
            _ => UnOp::Sqrt,
        };
        let ok = match uop {
            UnOp::Abs | UnOp::Neg => ty.kind == Kind::S || ty.float(),
            UnOp::Not => ty.kind == Kind::B || ty.kind == Kind::Pred,
            UnOp::Cnot | UnOp::Popc | UnOp::Clz | UnOp::Brev => {
                ty.kind == Kind::B && ty.bits >= if uop == UnOp::Cnot { 16 } else { 32 }
            }
            UnOp::Bfind { .. } => matches!(ty.kind, Kind::U | Kind::S) && ty.bits >= 32,
            UnOp::Sqrt => ty.float() && ty.bits >= 32,
        };
        if !ok {
            return err(format!("`{}`: {op} has no type .{}", self.text, ty.name()));
        }
        self.nops(&[2])?;
        let ops = self.ops.clone();
        let d = self.reg(&ops[0])?;
        let a = self.src(&ops[1], ty)?;
        Ok(Inst::Un {
            fm,
            op: uop,
            ty,
            d,
            a,
        })
    }

    pub(super) fn bf(&mut self, op: &str, rest: &[&str]) -> R<Inst> {
        let q = quals(rest)?;
        self.no_words(&q, op)?;
        let ty = self.one_type(&q, None)?;
        let ops = self.ops.clone();
        if op == "bfe" {
            if !matches!(ty.kind, Kind::U | Kind::S) || ty.bits < 32 {
                return err(format!("`{}`: bfe is .u32/.u64/.s32/.s64", self.text));
            }
            self.nops(&[4])?;
            let d = self.reg(&ops[0])?;
            Ok(Inst::Bfe {
                ty,
                d,
                a: self.src(&ops[1], ty)?,
                pos: self.src(&ops[2], Ty::U32)?,
                len: self.src(&ops[3], Ty::U32)?,
            })
        } else {
            if ty.kind != Kind::B || ty.bits < 32 {
                return err(format!("`{}`: bfi is .b32/.b64", self.text));
            }
            self.nops(&[5])?;
            let d = self.reg(&ops[0])?;
            Ok(Inst::Bfi {
                ty,
                d,
                a: self.src(&ops[1], ty)?,
                b: self.src(&ops[2], ty)?,
                pos: self.src(&ops[3], Ty::U32)?,
                len: self.src(&ops[4], Ty::U32)?,
            })
        }
    }

    pub(super) fn prmt(&mut self, rest: &[&str]) -> R<Inst> {
        let q = quals(rest)?;
        if q.types != [Ty::B32] {
            return err(format!("`{}`: prmt is .b32", self.text));
        }
        let mode = match q.words.as_slice() {
            [] => PrmtMode::Default,
            ["f4e"] => PrmtMode::F4e,
            ["b4e"] => PrmtMode::B4e,
            ["rc8"] => PrmtMode::Rc8,
            ["ecl"] => PrmtMode::Ecl,
            ["ecr"] => PrmtMode::Ecr,
            ["rc16"] => PrmtMode::Rc16,
            _ => return err(format!("`{}`: unknown prmt mode", self.text)),
        };
        self.nops(&[4])?;
        let ops = self.ops.clone();
        let d = self.reg(&ops[0])?;
        Ok(Inst::Prmt {
            mode,
            d,
            a: self.src(&ops[1], Ty::B32)?,
            b: self.src(&ops[2], Ty::B32)?,
            c: self.src(&ops[3], Ty::B32)?,
        })
    }
}
