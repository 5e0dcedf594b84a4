//! Comparison and selection: `setp`, `selp`, `slct` (PTX ISA §9.7.6).

use super::*;

impl P<'_> {
    pub(super) fn setp(&mut self, rest: &[&str]) -> R<Inst> {
        let q = quals(rest)?;
        let ty = self.one_type(&q, None)?;
        let mut cmp = None;
        let mut bop = None;
        let mut ftz = false;
        for w in &q.words {
            let c = match *w {
                "and" | "or" | "xor" if cmp.is_some() => {
                    bop = Some(match *w {
                        "and" => BoolOp::And,
                        "or" => BoolOp::Or,
                        _ => BoolOp::Xor,
                    });
                    continue;
                }
                "ftz" if ty.float() => {
                    ftz = true;
                    continue;
                }
                _ => match Cmp::of_suffix(w) {
                    Some(c) => c,
                    None => return unsup(format!("qualifier `.{w}` of `{}`", self.text)),
                },
            };
            if cmp.replace(c).is_some() {
                return err(format!("`{}`: two comparisons", self.text));
            }
        }
        let cmp = cmp.ok_or_else(|| PErr {
            unsupported: false,
            msg: format!("`{}`: expected a comparison (.eq, .ne, .lt, …)", self.text),
        })?;
        if ty.float() {
            if cmp.unsigned_only() {
                return err(format!(
                    "`{}`: .{} is an integer comparison",
                    self.text, q.words[0]
                ));
            }
            if ty.bits == 16 {
                return unsup(format!("half-precision comparison `{}`", self.text));
            }
        } else {
            if cmp.float_only() {
                return err(format!(
                    "`{}`: a float comparison on an integer type",
                    self.text
                ));
            }
            // PTX ISA §9.3.1.1: "ordering comparisons are not defined for bit-size types".
            if ty.kind == Kind::B && !matches!(cmp, Cmp::Eq | Cmp::Ne) {
                return err(format!(
                    "`{}`: bit-size types compare with .eq and .ne only (PTX ISA §9.3.1.1)",
                    self.text
                ));
            }
            if ty.kind == Kind::Pred || ty.bits == 8 {
                return err(format!("`{}`: setp has no type .{}", self.text, ty.name()));
            }
        }
        self.nops(if bop.is_some() { &[4] } else { &[3] })?;
        let ops = self.ops.clone();
        let (p, qd) = match ops[0].split_once('|') {
            Some((a, b)) => (self.pred_reg(a)?, self.pred_reg(b)?),
            None => (self.pred_reg(&ops[0])?, None),
        };
        let a = self.src(&ops[1], ty)?;
        let b = self.src(&ops[2], ty)?;
        let comb = match bop {
            Some(bo) => Some((bo, self.src(&ops[3], Ty::PRED)?)),
            None => None,
        };
        Ok(Inst::Setp {
            ftz,
            cmp,
            ty,
            p,
            q: qd,
            a,
            b,
            comb,
        })
    }

    pub(super) fn selp(&mut self, rest: &[&str]) -> R<Inst> {
        let q = quals(rest)?;
        self.no_words(&q, "selp")?;
        let ty = self.one_type(&q, None)?;
        self.nops(&[4])?;
        let ops = self.ops.clone();
        let d = self.reg(&ops[0])?;
        Ok(Inst::Selp {
            ty,
            d,
            a: self.src(&ops[1], ty)?,
            b: self.src(&ops[2], ty)?,
            c: self.src(&ops[3], Ty::PRED)?,
        })
    }

    pub(super) fn slct(&mut self, rest: &[&str]) -> R<Inst> {
        let q = quals(rest)?;
        if let Some(w) = q.words.first() {
            return unsup(format!("qualifier `.{w}` of `{}`", self.text));
        }
        let (ty, cty) = match q.types.as_slice() {
            [t, c] if *c == Ty::S32 || *c == Ty::new(Kind::F, 32) => (*t, *c),
            _ => {
                return err(format!(
                    "`{}`: expected slct.dtype.s32 or slct.dtype.f32",
                    self.text
                ))
            }
        };
        self.nops(&[4])?;
        let ops = self.ops.clone();
        let d = self.reg(&ops[0])?;
        Ok(Inst::Slct {
            ty,
            cty,
            d,
            a: self.src(&ops[1], ty)?,
            b: self.src(&ops[2], ty)?,
            c: self.src(&ops[3], cty)?,
        })
    }
}
