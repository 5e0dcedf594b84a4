//! Conversions between types and address spaces: `cvt`, `cvta`, `mapa`/`getctarank`, `isspacep`.

use super::*;

impl P<'_> {
    pub(super) fn cvt(&mut self, rest: &[&str]) -> R<Inst> {
        let q = quals(rest)?;
        if rest.first() == Some(&"pack") {
            return unsup(format!("`{}`", self.text));
        }
        let (dty, sty) = match q.types.as_slice() {
            [d, s] => (*d, *s),
            _ => return err(format!("`{}`: expected cvt.dtype.stype", self.text)),
        };
        let mut rnd = Rnd::None;
        let mut sat = false;
        let mut ftz = false;
        for w in &q.words {
            let r = match *w {
                "rn" => Rnd::Rn,
                "rz" => Rnd::Rz,
                "rm" => Rnd::Rm,
                "rp" => Rnd::Rp,
                "rni" => Rnd::Rni,
                "rzi" => Rnd::Rzi,
                "rmi" => Rnd::Rmi,
                "rpi" => Rnd::Rpi,
                "sat" => {
                    sat = true;
                    continue;
                }
                "ftz" => {
                    ftz = true;
                    continue;
                }
                _ => return unsup(format!("qualifier `.{w}` of `{}`", self.text)),
            };
            if rnd != Rnd::None {
                return err(format!("`{}`: two rounding modifiers", self.text));
            }
            rnd = r;
        }
        if dty.bits == 16 && dty.float() || sty.bits == 16 && sty.float() {
            return unsup(format!("half-precision conversion `{}`", self.text));
        }
        if dty.kind == Kind::B
            || sty.kind == Kind::B
            || dty.kind == Kind::Pred
            || sty.kind == Kind::Pred
        {
            return err(format!("`{}`: cvt has no .b or .pred types", self.text));
        }
        match (sty.float(), dty.float()) {
            (false, false) => {
                if rnd != Rnd::None {
                    return err(format!(
                        "`{}`: an integer conversion takes no rounding",
                        self.text
                    ));
                }
            }
            (false, true) => match rnd {
                Rnd::Rn => {}
                Rnd::None => {
                    return err(format!(
                        "`{}`: int-to-float needs a rounding modifier (.rn, .rz, .rm, .rp)",
                        self.text
                    ))
                }
                Rnd::Rz | Rnd::Rm | Rnd::Rp => {
                    return unsup(format!("rounding of `{}` (.rn is modelled)", self.text))
                }
                _ => {
                    return err(format!(
                        "`{}`: int-to-float takes .rn, .rz, .rm or .rp",
                        self.text
                    ))
                }
            },
            (true, false) => match rnd {
                Rnd::Rni | Rnd::Rzi | Rnd::Rmi | Rnd::Rpi => {}
                Rnd::None => {
                    return err(format!(
                        "`{}`: float-to-int needs .rni, .rzi, .rmi or .rpi",
                        self.text
                    ))
                }
                _ => {
                    return err(format!(
                        "`{}`: float-to-int takes .rni, .rzi, .rmi or .rpi",
                        self.text
                    ))
                }
            },
            (true, true) => {
                if dty.bits < sty.bits && rnd != Rnd::Rn {
                    return if rnd == Rnd::None {
                        err(format!(
                            "`{}`: narrowing needs a rounding modifier",
                            self.text
                        ))
                    } else {
                        unsup(format!("rounding of `{}` (.rn is modelled)", self.text))
                    };
                }
                if dty.bits == sty.bits && rnd != Rnd::None {
                    return unsup(format!("float rounding to integer `{}`", self.text));
                }
            }
        }
        self.nops(&[2])?;
        let ops = self.ops.clone();
        let d = self.reg(&ops[0])?;
        let a = self.src(&ops[1], sty)?;
        Ok(Inst::Cvt {
            dty,
            sty,
            rnd,
            sat,
            ftz,
            d,
            a,
        })
    }

    pub(super) fn cvta(&mut self, rest: &[&str]) -> R<Inst> {
        let (to, rest) = match rest.first() {
            Some(&"to") => (true, &rest[1..]),
            _ => (false, rest),
        };
        let q = quals(rest)?;
        if !matches!(
            q.types.as_slice(),
            [Ty {
                kind: Kind::U,
                bits: 32 | 64
            }]
        ) {
            return err(format!("`{}`: cvta is .u32 or .u64", self.text));
        }
        let space = match q.spaces.as_slice() {
            [Sp::Global] => Space::Global,
            [Sp::SharedCta] => Space::SharedCta,
            [Sp::SharedCluster] => Space::SharedCluster,
            // `.local` and generic local addresses are the same numbers (GENERIC_LOCAL).
            [Sp::Local] => Space::Global,
            [Sp::Const | Sp::Param] => {
                return unsup(format!("`{}` (const/param windows)", self.text))
            }
            _ => return err(format!("`{}`: expected one state space", self.text)),
        };
        self.nops(&[2])?;
        let ops = self.ops.clone();
        let d = self.reg(&ops[0])?;
        let a = self.src(&ops[1], q.types[0])?;
        Ok(Inst::Cvta { to, space, d, a })
    }

    pub(super) fn mapa(&mut self, op: &str, rest: &[&str]) -> R<Inst> {
        let q = quals(rest)?;
        self.no_words(&q, op)?;
        let cluster = match q.spaces.as_slice() {
            [] => false,
            [Sp::SharedCluster] => true,
            _ => {
                return err(format!(
                    "`{}`: the space is .shared::cluster or none",
                    self.text
                ))
            }
        };
        if !matches!(
            q.types.as_slice(),
            [Ty {
                kind: Kind::U,
                bits: 32 | 64
            }]
        ) {
            return err(format!("`{}`: {op} is .u32 or .u64", self.text));
        }
        let ops = self.ops.clone();
        if op == "mapa" {
            self.nops(&[3])?;
            let d = self.reg(&ops[0])?;
            let a = self.src(&ops[1], q.types[0])?;
            let b = self.src(&ops[2], Ty::U32)?;
            Ok(Inst::Mapa { cluster, d, a, b })
        } else {
            self.nops(&[2])?;
            let d = self.reg(&ops[0])?;
            let a = self.src(&ops[1], q.types[0])?;
            Ok(Inst::Getctarank { cluster, d, a })
        }
    }

    pub(super) fn isspacep(&mut self, rest: &[&str]) -> R<Inst> {
        let q = quals(rest)?;
        let space = match q.spaces.as_slice() {
            [Sp::Global] => Some(Space::Global),
            [Sp::SharedCta] => Some(Space::SharedCta),
            [Sp::SharedCluster] => Some(Space::SharedCluster),
            [Sp::Const | Sp::Local | Sp::Param] => None,
            _ => return err(format!("`{}`: expected one state space", self.text)),
        };
        self.nops(&[2])?;
        let ops = self.ops.clone();
        let d = self.reg(&ops[0])?;
        let a = self.src(&ops[1], Ty::U64)?;
        Ok(Inst::Isspacep { space, d, a })
    }
}
