//! Warp-level instructions: `elect`, `vote`, `shfl`, `activemask` (PTX ISA §9.7.12).

use super::*;

impl P<'_> {
    pub(super) fn warp(&mut self, op: &str, rest: &[&str]) -> R<Inst> {
        let ops = self.ops.clone();
        match (op, rest) {
            ("activemask", ["b32"]) => {
                self.nops(&[1])?;
                let d = self.reg(&ops[0])?;
                Ok(Inst::Warp {
                    op: WarpI::ActiveMask,
                    mask: Opnd::Imm(u32::MAX as u64),
                    d: Some(d),
                })
            }
            ("elect", ["sync"]) => {
                self.nops(&[2])?;
                let (d, p) = match ops[0].split_once('|') {
                    Some((a, b)) => (self.dst(a)?, self.pred_reg(b)?),
                    None => return err(format!("`{}`: expected `d|p`", self.text)),
                };
                let mask = self.src(&ops[1], Ty::B32)?;
                Ok(Inst::Warp {
                    op: WarpI::Elect { p },
                    mask,
                    d,
                })
            }
            ("vote", ["sync", mode, ty]) => {
                let m = match *mode {
                    "all" => VoteMode::All,
                    "any" => VoteMode::Any,
                    "uni" => VoteMode::Uni,
                    "ballot" => VoteMode::Ballot,
                    _ => {
                        return err(format!(
                            "`{}`: vote modes are all, any, uni, ballot",
                            self.text
                        ))
                    }
                };
                let want = if m == VoteMode::Ballot { "b32" } else { "pred" };
                if *ty != want {
                    return err(format!("`{}`: vote.sync.{mode} is .{want}", self.text));
                }
                self.nops(&[3])?;
                let d = self.dst(&ops[0])?;
                let a = self.src(&ops[1], Ty::PRED)?;
                let mask = self.src(&ops[2], Ty::B32)?;
                Ok(Inst::Warp {
                    op: WarpI::Vote(m, a),
                    mask,
                    d,
                })
            }
            ("shfl", ["sync", mode, "b32"]) => {
                let m = match *mode {
                    "idx" => ShflMode::Idx,
                    "up" => ShflMode::Up,
                    "down" => ShflMode::Down,
                    "bfly" => ShflMode::Bfly,
                    _ => {
                        return err(format!(
                            "`{}`: shfl modes are idx, up, down, bfly",
                            self.text
                        ))
                    }
                };
                self.nops(&[5])?;
                let (d, p) = match ops[0].split_once('|') {
                    Some((a, b)) => (self.dst(a)?, self.pred_reg(b)?),
                    None => (self.dst(&ops[0])?, None),
                };
                let a = self.src(&ops[1], Ty::B32)?;
                let b = self.src(&ops[2], Ty::B32)?;
                let c = self.src(&ops[3], Ty::B32)?;
                let mask = self.src(&ops[4], Ty::B32)?;
                Ok(Inst::Warp {
                    op: WarpI::Shfl {
                        mode: m,
                        a,
                        b,
                        c,
                        p,
                    },
                    mask,
                    d,
                })
            }
            _ => unsup(format!("warp instruction `{}`", self.text)),
        }
    }
}
