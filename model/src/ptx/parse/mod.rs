//! One instruction's text → [`Line`]: the one PTX instruction parser, for litmus cells (FORMAT
//! parts 1 and 2) and for the instructions of a `.ptx` module.
//!
//! Names are resolved through an [`Env`] (registers, variables, parameters, labels), so the
//! result holds numbers only. Errors say what was expected ([`PErr`]); an instruction that is
//! well formed but not modelled is a [`PErr`] with `unsupported: true` (the litmus front end
//! reports it at parse time; the module front end turns it into [`Inst::Unsupported`], reported
//! only when a thread reaches it).
//!
//! Defaults are the ISA's where it has one (PTX ISA §9.7.9.8 `ld`: `.weak`; §9.7.13.5 `atom`:
//! `.relaxed`, `.gpu`; §9.7.13.4 `fence`: `.acq_rel`; §9.7.13.15 mbarrier: arrive
//! `.release.cta`, waits `.acquire.cta`) and FORMAT's for the litmus extras (untyped
//! `ld/st/atom/red` = `.u32`; untyped arithmetic = 64-bit).

use super::ir::*;
use crate::ast::{BarKind, Cmp, FenceSem, Proxy, RmwOp, Scope, Sem};
use crate::engine::op::{At, Order, ProxyFence, Restrict, ShflMode, Space, VoteMode};

mod arith;
mod bulk;
mod convert;
mod lex;
mod mem;
mod operands;
mod select;
mod sync;
mod warp;

use lex::*;
pub use lex::{is_ident, parse_int, split_operands, type_of};
use operands::*;

/// Why an instruction's text was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PErr {
    /// Well formed but not modelled (rather than malformed).
    pub unsupported: bool,
    /// What was expected / what is not modelled.
    pub msg: String,
}

type R<T> = Result<T, PErr>;

fn err<T>(msg: impl Into<String>) -> R<T> {
    Err(PErr {
        unsupported: false,
        msg: msg.into(),
    })
}

fn unsup<T>(msg: impl Into<String>) -> R<T> {
    Err(PErr {
        unsupported: true,
        msg: msg.into(),
    })
}

/// What a `ld.param`/`st.param` name refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Param {
    /// A kernel parameter: its bound bytes (little-endian).
    Value(Vec<u8>),
    /// A call parameter or a device function's formal parameter, held in a register.
    Reg(Reg),
}

/// A variable as the parser needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VarRef {
    /// Index in the layout.
    pub var: u32,
    /// A shared variable.
    pub shared: bool,
    /// Its address (`Layout::addr_of`).
    pub addr: u64,
}

impl VarRef {
    /// The variable `name` of `layout`, if it has one.
    pub(crate) fn of_layout(layout: &crate::engine::op::Layout, name: &str) -> Option<VarRef> {
        let v = layout.var(name)?;
        let x = &layout.vars[v];
        Some(VarRef {
            var: v as u32,
            shared: x.shared,
            addr: x.base,
        })
    }
}

/// Name resolution for the parser.
pub trait Env {
    /// The litmus dialect (FORMAT parts 1–2: bare location names, untyped forms, `beq`, …).
    fn litmus(&self) -> bool;
    /// The register called `name`, if it is one (the litmus front end creates registers on
    /// first use; a module's registers are declared).
    fn reg(&mut self, name: &str) -> Option<Reg>;
    /// Whether register `r` is a predicate.
    fn is_pred(&self, r: Reg) -> bool;
    /// The variable called `name`. `address`: the name is in an address position (`[x]`); the
    /// litmus front end then declares an unknown name as a new global variable.
    fn var(&mut self, name: &str, address: bool) -> Option<VarRef>;
    /// The parameter called `name`.
    fn param(&mut self, name: &str) -> Option<Param>;
    /// The instruction index of label `name`.
    fn label(&self, name: &str) -> Option<u32>;
}

/// Parses one instruction (`;` optional) into a [`Line`]. A label definition `L:` is a
/// [`Inst::Nop`] line (the caller records the label).
pub fn parse_line(text: &str, at: At, env: &mut dyn Env) -> R<Line> {
    let t = text.trim().trim_end_matches(';').trim();
    if t.is_empty() {
        return err("expected an instruction");
    }
    if let Some(l) = t.strip_suffix(':') {
        if is_ident(l.trim()) {
            return Ok(Line {
                guard: None,
                inst: Inst::Nop,
                at,
            });
        }
    }
    let (guard, rest) = if let Some(g) = t.strip_prefix('@') {
        let end = g.find(char::is_whitespace).ok_or_else(|| PErr {
            unsupported: false,
            msg: format!("expected an instruction after the guard `@{g}`"),
        })?;
        let (neg, p) = match g[..end].strip_prefix('!') {
            Some(p) => (true, p),
            None => (false, &g[..end]),
        };
        let r = env.reg(p).ok_or_else(|| PErr {
            unsupported: false,
            msg: format!("expected a predicate register after `@`, found `{p}`"),
        })?;
        (Some((r, neg)), g[end..].trim())
    } else {
        (None, t)
    };
    let inst = parse_inst(rest, env)?;
    Ok(Line { guard, inst, at })
}

/// Parses one instruction without guard or `;`.
pub fn parse_inst(text: &str, env: &mut dyn Env) -> R<Inst> {
    let text = text.trim();
    let (m, ops) = match text.find(char::is_whitespace) {
        Some(p) => (&text[..p], text[p..].trim()),
        None => (text, ""),
    };
    let parts: Vec<&str> = m.split('.').collect();
    let ops = split_ops(ops)?;
    let mut p = P {
        env,
        text,
        ops,
        litmus: false,
    };
    p.litmus = p.env.litmus();
    p.inst(&parts)
}

struct P<'e> {
    env: &'e mut dyn Env,
    text: &'e str,
    ops: Vec<String>,
    litmus: bool,
}

impl P<'_> {
    fn inst(&mut self, parts: &[&str]) -> R<Inst> {
        let op = parts[0];
        let rest = &parts[1..];
        match op {
            "ld" | "ldu" | "suld" | "tld" | "cold" => self.ld(op, rest),
            "st" | "sust" => {
                if rest.first() == Some(&"async") {
                    return self.st_async(&rest[1..]);
                }
                self.st(op, rest)
            }
            "atom" | "red" => {
                if rest.first() == Some(&"async") {
                    return self.red_async(&rest[1..]);
                }
                self.atom(op == "atom", rest)
            }
            "fence" | "membar" => self.fence(op, rest),
            "bar" | "barrier" => self.bar(op, rest),
            "mbarrier" => self.mbarrier(rest),
            "cp" => self.cp(rest),
            "mov" => self.mov(rest),
            "add" | "sub" | "mul" | "div" | "rem" | "min" | "max" | "and" | "or" | "xor"
            | "shl" | "shr" | "copysign" => self.bin(op, rest),
            "mad" | "fma" => self.mad(op, rest),
            "abs" | "neg" | "not" | "cnot" | "popc" | "clz" | "brev" | "bfind" | "sqrt" => {
                self.un(op, rest)
            }
            "bfe" | "bfi" => self.bf(op, rest),
            "prmt" => self.prmt(rest),
            "cvt" => self.cvt(rest),
            "cvta" => self.cvta(rest),
            "mapa" | "getctarank" => self.mapa(op, rest),
            "isspacep" => self.isspacep(rest),
            "setp" => self.setp(rest),
            "selp" => self.selp(rest),
            "slct" => self.slct(rest),
            "bra" => {
                let q = quals(rest)?;
                if q.words.iter().any(|w| *w != "uni") {
                    return unsup(format!("`{}`", self.text));
                }
                self.nops(&[1])?;
                let t = self.target(&self.ops[0].clone())?;
                Ok(Inst::Bra { target: t })
            }
            "goto" if self.litmus && rest.is_empty() => {
                self.nops(&[1])?;
                let t = self.target(&self.ops[0].clone())?;
                Ok(Inst::Bra { target: t })
            }
            "beq" | "bne" | "blt" | "ble" | "bgt" | "bge" if self.litmus && rest.is_empty() => {
                self.nops(&[3])?;
                let cmp = Cmp::of_branch(op);
                let (o0, o1, o2) = (
                    self.ops[0].clone(),
                    self.ops[1].clone(),
                    self.ops[2].clone(),
                );
                let a = self.src(&o0, Ty::S64)?;
                let b = self.src(&o1, Ty::S64)?;
                let target = self.target(&o2)?;
                Ok(Inst::CmpBra { cmp, a, b, target })
            }
            "ret" | "exit" => {
                if rest.iter().any(|w| *w != "uni") {
                    return err(format!("`{}`: expected `{op};`", self.text));
                }
                self.nops(&[0])?;
                Ok(Inst::Exit)
            }
            "trap" | "brkpt" => {
                self.nops(&[0])?;
                Ok(Inst::Trap)
            }
            "nanosleep" | "pmevent" | "prefetch" | "prefetchu" | "applypriority" | "setmaxnreg" => {
                // No effect on memory or registers (nanosleep is a no-op: SEMANTICS S6).
                Ok(Inst::Nop)
            }
            "griddepcontrol" => match rest {
                // A single launch has no prerequisite or dependent grid: both are no-ops.
                ["wait"] | ["launch_dependents"] => {
                    self.nops(&[0])?;
                    Ok(Inst::Nop)
                }
                _ => err(format!(
                    "`{}`: expected griddepcontrol.wait or .launch_dependents",
                    self.text
                )),
            },
            "createpolicy" => {
                // A cache policy is a hint (PTX ISA §9.7.9.18): an opaque 64-bit value.
                let d = self.ops.first().cloned().unwrap_or_default();
                let d = self.reg(&d)?;
                Ok(Inst::Mov {
                    ty: Ty::B64,
                    d,
                    a: Opnd::Imm(0),
                })
            }
            "elect" | "vote" | "shfl" | "activemask" => self.warp(op, rest),
            "tensormap" => match rest {
                ["cp_fenceproxy", "global", "shared::cta", "tensormap::generic", "release", sc, "sync", "aligned"] =>
                {
                    let scope = scope_of(sc).ok_or_else(|| PErr {
                        unsupported: false,
                        msg: format!("`{}`: expected a scope, found `.{sc}`", self.text),
                    })?;
                    self.nops(&[3])?;
                    if parse_int(&self.ops[2]) != Some(128) {
                        return err(format!(
                            "`{}`: the size is 128 (PTX ISA tensormap.cp_fenceproxy)",
                            self.text
                        ));
                    }
                    let ops = self.ops.clone();
                    let dst = self.addr_in(&ops[0], Space::Global)?;
                    let src = self.addr_in(&ops[1], Space::SharedCta)?;
                    Ok(Inst::TmapCp { dst, src, scope })
                }
                _ => unsup(format!("`{}`", self.text)),
            },
            "call" => unsup("`call` in a litmus thread (calls are inlined for .ptx modules only)"),
            _ => unsup(format!("instruction `{}`", parts.join("."))),
        }
    }

    fn target(&self, s: &str) -> R<u32> {
        let s = s.trim();
        self.env.label(s).ok_or_else(|| PErr {
            unsupported: false,
            msg: format!("label `{s}` is not defined"),
        })
    }
}
