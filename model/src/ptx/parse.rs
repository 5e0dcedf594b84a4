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

/// Splits an operand list at top-level commas (not inside `[]`, `{}`, `()`).
pub fn split_operands(s: &str) -> Result<Vec<String>, PErr> {
    split_ops(s)
}

fn split_ops(s: &str) -> R<Vec<String>> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '[' | '{' | '(' => depth += 1,
            ']' | '}' | ')' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return err(format!("unbalanced `{c}` in `{s}`"));
        }
        if c == ',' && depth == 0 {
            out.push(cur.trim().to_string());
            cur.clear();
        } else {
            cur.push(c);
        }
    }
    if depth != 0 {
        return err(format!("unbalanced brackets in `{s}`"));
    }
    if !cur.trim().is_empty() || !out.is_empty() {
        out.push(cur.trim().to_string());
    }
    if out.iter().any(|o| o.is_empty()) {
        return err(format!("empty operand in `{s}`"));
    }
    Ok(out)
}

/// Whether `s` is an identifier (PTX ISA §4.4: letters, digits, `_`, `$`, `%`; not starting
/// with a digit).
pub fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(ch) if ch.is_ascii_alphabetic() || ch == '_' || ch == '$' || ch == '%')
        && c.all(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == '$')
        && s != "_"
}

/// Parses an integer literal (PTX ISA §4.5.1: decimal, `0x` hex, `0b` binary, `0` octal, an
/// optional `U` suffix, an optional `-`) as a 128-bit value.
pub fn parse_int(s: &str) -> Option<i128> {
    let s = s.trim();
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r.trim_start()),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let s = s.strip_suffix('U').unwrap_or(s);
    if s.is_empty() {
        return None;
    }
    let v = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u128::from_str_radix(h, 16).ok()?
    } else if let Some(b) = s.strip_prefix("0b").or_else(|| s.strip_prefix("0B")) {
        u128::from_str_radix(b, 2).ok()?
    } else if s.len() > 1 && s.starts_with('0') && s.chars().all(|c| c.is_ascii_digit()) {
        u128::from_str_radix(&s[1..], 8).ok()?
    } else if s.chars().all(|c| c.is_ascii_digit()) {
        s.parse::<u128>().ok()?
    } else {
        return None;
    };
    if v > u64::MAX as u128 {
        return None;
    }
    Some(if neg { -(v as i128) } else { v as i128 })
}

/// Parses a float literal of type `ty` (PTX ISA §4.5.2: `0fXXXXXXXX`, `0dXXXXXXXXXXXXXXXX`, or a
/// decimal) into its IEEE bits.
fn parse_float(s: &str, ty: Ty) -> Option<u64> {
    let s = s.trim();
    if let Some(h) = s.strip_prefix("0f").or_else(|| s.strip_prefix("0F")) {
        if h.len() != 8 {
            return None;
        }
        let b = u32::from_str_radix(h, 16).ok()?;
        return Some(match ty.bits {
            64 => (f32::from_bits(b) as f64).to_bits(),
            _ => b as u64,
        });
    }
    if let Some(h) = s.strip_prefix("0d").or_else(|| s.strip_prefix("0D")) {
        if h.len() != 16 {
            return None;
        }
        let b = u64::from_str_radix(h, 16).ok()?;
        return Some(match ty.bits {
            32 => (f64::from_bits(b) as f32).to_bits() as u64,
            _ => b,
        });
    }
    if !s.contains(['.', 'e', 'E']) && parse_int(s).is_none() {
        return None;
    }
    let v: f64 = s.parse().ok()?;
    Some(match ty.bits {
        32 => (v as f32).to_bits() as u64,
        64 => v.to_bits(),
        _ => return None,
    })
}

fn scope_of(s: &str) -> Option<Scope> {
    Some(match s {
        "cta" => Scope::Cta,
        "cluster" => Scope::Cluster,
        "gpu" => Scope::Gpu,
        "sys" => Scope::Sys,
        _ => return None,
    })
}

/// The type a qualifier names without its dot (`u32`, `pred`, `bf16`).
pub fn type_of(s: &str) -> Option<Ty> {
    ty_of(s)
}

fn ty_of(s: &str) -> Option<Ty> {
    let (k, n) = match s.as_bytes().first()? {
        b'b' if s == "bf16" => return Some(Ty::new(Kind::Bf, 16)),
        b'b' => (Kind::B, &s[1..]),
        b'u' => (Kind::U, &s[1..]),
        b's' => (Kind::S, &s[1..]),
        b'f' => (Kind::F, &s[1..]),
        b'p' if s == "pred" => return Some(Ty::PRED),
        _ => return None,
    };
    let bits: u8 = match n {
        "8" => 8,
        "16" => 16,
        "32" => 32,
        "64" => 64,
        "128" if k == Kind::B => 128,
        _ => return None,
    };
    if k == Kind::F && (bits == 8 || bits == 128) {
        return None;
    }
    Some(Ty::new(k, bits))
}

/// State spaces as qualifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sp {
    Global,
    SharedCta,
    SharedCluster,
    Const,
    Local,
    Param,
}

fn space_of(s: &str) -> Option<Sp> {
    Some(match s {
        "global" => Sp::Global,
        "shared" | "shared::cta" => Sp::SharedCta,
        "shared::cluster" => Sp::SharedCluster,
        "const" => Sp::Const,
        "local" => Sp::Local,
        "param" | "param::entry" | "param::func" => Sp::Param,
        _ => return None,
    })
}

/// The qualifiers of an instruction, classified.
#[derive(Default)]
struct Quals<'a> {
    /// Semantics words (`weak relaxed acquire release acq_rel sc volatile mmio`), in order.
    sems: Vec<&'a str>,
    scopes: Vec<Scope>,
    spaces: Vec<Sp>,
    types: Vec<Ty>,
    vec: Option<u8>,
    /// `.L2::cache_hint`: a cache-policy operand follows the others.
    cache_hint: bool,
    /// Everything else, in order.
    words: Vec<&'a str>,
}

fn quals<'a>(parts: &[&'a str]) -> R<Quals<'a>> {
    let mut q = Quals::default();
    for &w in parts {
        if matches!(
            w,
            "weak" | "relaxed" | "acquire" | "release" | "acq_rel" | "sc" | "volatile" | "mmio"
        ) {
            q.sems.push(w);
        } else if let Some(s) = scope_of(w) {
            q.scopes.push(s);
        } else if let Some(s) = space_of(w) {
            q.spaces.push(s);
        } else if let Some(t) = ty_of(w) {
            q.types.push(t);
        } else if let Some(n) = w.strip_prefix('v').and_then(|n| n.parse::<u8>().ok()) {
            if !matches!(n, 2 | 4 | 8) {
                return err(format!("`.{w}`: vectors are .v2, .v4 or .v8"));
            }
            if q.vec.replace(n).is_some() {
                return err("two vector qualifiers");
            }
        } else if w == "L2::cache_hint" {
            q.cache_hint = true;
        } else if w.starts_with("L1::")
            || w.starts_with("L2::")
            || matches!(
                w,
                "ca" | "cg" | "cs" | "lu" | "cv" | "wb" | "wt" | "unified"
            )
        {
            // cache operators and eviction hints: performance only (PTX ISA §9.7.9.1-2)
        } else {
            q.words.push(w);
        }
    }
    Ok(q)
}

struct P<'e> {
    env: &'e mut dyn Env,
    text: &'e str,
    ops: Vec<String>,
    litmus: bool,
}

impl P<'_> {
    fn nops(&self, n: &[usize]) -> R<()> {
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

    fn no_words(&self, q: &Quals, what: &str) -> R<()> {
        if let Some(w) = q.words.first() {
            return unsup(format!("qualifier `.{w}` of {what}"));
        }
        Ok(())
    }

    fn one_type(&self, q: &Quals, default: Option<Ty>) -> R<Ty> {
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
    fn dst(&mut self, s: &str) -> R<Option<Reg>> {
        let s = s.trim();
        if s == "_" {
            return Ok(None);
        }
        Ok(Some(self.reg(s)?))
    }

    fn reg(&mut self, s: &str) -> R<Reg> {
        let s = s.trim();
        match self.env.reg(s) {
            Some(r) => Ok(r),
            None => err(format!("expected a register, found `{s}`")),
        }
    }

    fn pred_reg(&mut self, s: &str) -> R<Option<Reg>> {
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
    fn src(&mut self, s: &str, ty: Ty) -> R<Opnd> {
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
    fn fit(&self, v: i128, ty: Ty) -> R<u64> {
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
    fn addr(&mut self, s: &str) -> R<Addr> {
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
    fn addr_in(&mut self, s: &str, space: Space) -> R<Addr> {
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
    fn list(&self, s: &str) -> R<Vec<String>> {
        let s = s.trim();
        match s.strip_prefix('{').and_then(|x| x.strip_suffix('}')) {
            Some(inner) => split_ops(inner),
            None => Ok(vec![s.to_string()]),
        }
    }

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
                let cmp = match op {
                    "beq" => Cmp::Eq,
                    "bne" => Cmp::Ne,
                    "blt" => Cmp::Lt,
                    "ble" => Cmp::Le,
                    "bgt" => Cmp::Gt,
                    _ => Cmp::Ge,
                };
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

    fn order(&self, q: &Quals, is_ld: bool) -> R<Order> {
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
    fn mem_space(&self, q: &Quals) -> R<Option<Sp>> {
        match q.spaces.as_slice() {
            [] => Ok(None),
            [s] => Ok(Some(*s)),
            _ => err(format!("`{}`: two state spaces", self.text)),
        }
    }

    fn ld(&mut self, op: &str, rest: &[&str]) -> R<Inst> {
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
        self.nops(&[2, 3])?;
        if self.ops.len() == 3 && !q.cache_hint {
            return err(format!(
                "`{}`: a third operand needs .L2::cache_hint",
                self.text
            ));
        }
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
        let space = match sp {
            None => Space::Generic,
            Some(Sp::Global) => Space::Global,
            Some(Sp::SharedCta) => Space::SharedCta,
            Some(Sp::SharedCluster) => Space::SharedCluster,
            Some(Sp::Const) => {
                proxy = Proxy::Constant;
                Space::Global
            }
            // `.local` addresses are the local window's generic addresses (GENERIC_LOCAL).
            Some(Sp::Local) => Space::Generic,
            Some(Sp::Param) => unreachable!(),
        };
        let order = self.order(&q, true)?;
        let (o0, o1) = (self.ops[0].clone(), self.ops[1].clone());
        let ds = self.list(&o0)?;
        let n = q.vec.unwrap_or(1) as usize;
        if ds.len() != n {
            return err(format!(
                "`{}`: expected {n} destination(s), found {}",
                self.text,
                ds.len()
            ));
        }
        let mut d = Vec::with_capacity(n);
        for x in &ds {
            d.push(self.dst(x)?);
        }
        let addr = self.addr_in(&o1, space)?;
        Ok(Inst::Ld {
            space,
            order,
            proxy,
            ty,
            d,
            addr,
        })
    }

    fn ld_param(&mut self, ty: Ty, q: &Quals) -> R<Inst> {
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

    fn st(&mut self, op: &str, rest: &[&str]) -> R<Inst> {
        let q = quals(rest)?;
        let mut proxy = if op == "sust" {
            Proxy::Surface
        } else {
            Proxy::Generic
        };
        if let Some(w) = q.words.first() {
            return unsup(format!("qualifier `.{w}` of `{}`", self.text));
        }
        self.nops(&[2, 3])?;
        if self.ops.len() == 3 && !q.cache_hint {
            return err(format!(
                "`{}`: a third operand needs .L2::cache_hint",
                self.text
            ));
        }
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
        let space = match sp {
            None => Space::Generic,
            Some(Sp::Global) => Space::Global,
            Some(Sp::SharedCta) => Space::SharedCta,
            Some(Sp::SharedCluster) => Space::SharedCluster,
            Some(Sp::Const) => {
                return err(format!("`{}`: the constant space is read-only", self.text))
            }
            // `.local` addresses are the local window's generic addresses (GENERIC_LOCAL).
            Some(Sp::Local) => Space::Generic,
            Some(Sp::Param) => unreachable!(),
        };
        if op == "sust" {
            proxy = Proxy::Surface;
        }
        let order = self.order(&q, false)?;
        let (o0, o1) = (self.ops[0].clone(), self.ops[1].clone());
        let vs = self.list(&o1)?;
        let n = q.vec.unwrap_or(1) as usize;
        if vs.len() != n {
            return err(format!(
                "`{}`: expected {n} value(s), found {}",
                self.text,
                vs.len()
            ));
        }
        let mut v = Vec::with_capacity(n);
        for x in &vs {
            v.push(self.src(x, ty)?);
        }
        let addr = self.addr_in(&o0, space)?;
        Ok(Inst::St {
            space,
            order,
            proxy,
            ty,
            v,
            addr,
        })
    }

    fn rmw_op(&self, w: &str, ret: bool) -> Option<RmwOp> {
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
    fn check_rmw_ty(&self, op: RmwOp, ty: Ty) -> R<()> {
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

    fn atom(&mut self, ret: bool, rest: &[&str]) -> R<Inst> {
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
    fn atom_vec(
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

    fn fence(&mut self, op: &str, rest: &[&str]) -> R<Inst> {
        if rest.first() == Some(&"proxy") {
            return self.proxy_fence(&rest[1..]);
        }
        self.nops(&[0])?;
        if op == "membar" {
            // PTX ISA §9.7.13.4: membar.{cta,gl,sys} = fence.sc.{cta,gpu,sys}.
            let scope = match rest {
                ["cta"] => Scope::Cta,
                ["gl"] => Scope::Gpu,
                ["sys"] => Scope::Sys,
                _ => {
                    return err(format!(
                        "`{}`: expected membar.cta, membar.gl or membar.sys",
                        self.text
                    ))
                }
            };
            return Ok(Inst::Fence(FenceSem::Sc, scope, None));
        }
        let mut sem = None;
        let mut scope = None;
        let mut restrict = None;
        for w in rest {
            let s = match *w {
                "sc" => Some(FenceSem::Sc),
                "acq_rel" => Some(FenceSem::AcqRel),
                "acquire" => Some(FenceSem::Acquire),
                "release" => Some(FenceSem::Release),
                "mbarrier_init" => {
                    restrict = Some(Restrict::MbarrierInit);
                    None
                }
                "sync_restrict::shared::cta" => {
                    restrict = Some(Restrict::SharedCta);
                    None
                }
                "sync_restrict::shared::cluster" => {
                    restrict = Some(Restrict::SharedCluster);
                    None
                }
                "cta" | "cluster" | "gpu" | "sys" => {
                    if scope.replace(scope_of(w).unwrap()).is_some() {
                        return err(format!("`{}`: two scopes", self.text));
                    }
                    None
                }
                "relaxed" | "weak" => {
                    return err(format!(
                    "`{}`: fence has no `.{w}` (PTX ISA fence: .sc, .acq_rel, .acquire, .release)",
                    self.text
                ))
                }
                _ => return unsup(format!("fence qualifier `.{w}` in `{}`", self.text)),
            };
            if let Some(s) = s {
                if sem.replace(s).is_some() {
                    return err(format!("`{}`: two semantics qualifiers", self.text));
                }
            }
        }
        let scope = scope.ok_or_else(|| PErr {
            unsupported: false,
            msg: format!(
                "`{}`: a fence needs a scope (.cta, .cluster, .gpu or .sys)",
                self.text
            ),
        })?;
        let sem = sem.unwrap_or(FenceSem::AcqRel);
        match restrict {
            Some(Restrict::MbarrierInit)
                if !(sem == FenceSem::Release && scope == Scope::Cluster) =>
            {
                return err(format!(
                    "`{}`: expected fence.mbarrier_init.release.cluster (PTX ISA fence)",
                    self.text
                ))
            }
            Some(Restrict::SharedCta) if !(sem == FenceSem::Release && scope == Scope::Cluster) => {
                return err(format!("`{}`: .sync_restrict::shared::cta needs .release and .cluster (PTX ISA fence)", self.text))
            }
            Some(Restrict::SharedCluster)
                if !(sem == FenceSem::Acquire && scope == Scope::Cluster) =>
            {
                return err(format!("`{}`: .sync_restrict::shared::cluster needs .acquire and .cluster (PTX ISA fence)", self.text))
            }
            _ => {}
        }
        Ok(Inst::Fence(sem, scope, restrict))
    }

    fn proxy_fence(&mut self, rest: &[&str]) -> R<Inst> {
        let k = |p: ProxyFence| Ok(Inst::ProxyFence(p, None));
        match rest {
            ["alias"] => k(ProxyFence::Alias),
            ["surface"] => k(ProxyFence::Surface),
            ["texture"] => k(ProxyFence::Texture),
            ["constant"] => k(ProxyFence::Constant),
            ["async"] => k(ProxyFence::Async(None)),
            ["async", "global"] | ["async::global"] => k(ProxyFence::Async(Some(Space::Global))),
            ["async", "shared::cta"] | ["async", "shared"] | ["async::shared::cta"] => {
                k(ProxyFence::Async(Some(Space::SharedCta)))
            }
            ["async", "shared::cluster"] | ["async::shared::cluster"] => {
                k(ProxyFence::Async(Some(Space::SharedCluster)))
            }
            ["tensormap::generic", sem, sc] => {
                let scope = scope_of(sc).ok_or_else(|| PErr {
                    unsupported: false,
                    msg: format!("`{}`: expected a scope, found `.{sc}`", self.text),
                })?;
                match *sem {
                    "release" => {
                        self.nops(&[0])?;
                        k(ProxyFence::TensormapGeneric {
                            sem: FenceSem::Release,
                            scope,
                            addr: None,
                        })
                    }
                    "acquire" => {
                        self.nops(&[2])?;
                        if parse_int(&self.ops[1]) != Some(128) {
                            return err(format!(
                                "`{}`: the size operand must be 128 (PTX ISA fence)",
                                self.text
                            ));
                        }
                        let a = self.ops[0].clone();
                        let a = a
                            .trim()
                            .strip_prefix('[')
                            .and_then(|x| x.strip_suffix(']'))
                            .unwrap_or(&a)
                            .to_string();
                        let o = self.src(&a, Ty::U64)?;
                        Ok(Inst::ProxyFence(
                            ProxyFence::TensormapGeneric {
                                sem: FenceSem::Acquire,
                                scope,
                                addr: None,
                            },
                            Some(o),
                        ))
                    }
                    _ => err(format!("`{}`: expected .release or .acquire", self.text)),
                }
            }
            ["async::generic", "release", "sync_restrict::shared::cta", "cluster"] => {
                k(ProxyFence::AsyncGeneric {
                    sem: FenceSem::Release,
                    restrict: Restrict::SharedCta,
                })
            }
            ["async::generic", "acquire", "sync_restrict::shared::cluster", "cluster"] => {
                k(ProxyFence::AsyncGeneric {
                    sem: FenceSem::Acquire,
                    restrict: Restrict::SharedCluster,
                })
            }
            _ => unsup(format!("proxy fence `{}`", self.text)),
        }
    }

    fn bar(&mut self, op: &str, rest: &[&str]) -> R<Inst> {
        let mut qs: Vec<&str> = rest.to_vec();
        if qs.first() == Some(&"warp") {
            if qs != ["warp", "sync"] {
                return err(format!("`{}`: expected bar.warp.sync", self.text));
            }
            self.nops(&[1])?;
            let m = self.ops[0].clone();
            let mask = self.src(&m, Ty::B32)?;
            return Ok(Inst::Warp {
                op: WarpI::Sync,
                mask,
                d: None,
            });
        }
        if qs.first() == Some(&"cluster") {
            self.nops(&[0])?;
            qs.retain(|w| *w != "aligned");
            return match &qs[1..] {
                ["arrive"] | ["arrive", "release"] => Ok(Inst::ClusterArrive { relaxed: false }),
                ["arrive", "relaxed"] => Ok(Inst::ClusterArrive { relaxed: true }),
                ["wait"] | ["wait", "acquire"] => Ok(Inst::ClusterWait),
                _ => err(format!(
                    "`{}`: expected barrier.cluster.arrive{{.release,.relaxed}} or barrier.cluster.wait{{.acquire}}",
                    self.text
                )),
            };
        }
        if qs.first() == Some(&"cta") {
            qs.remove(0);
        }
        qs.retain(|w| *w != "aligned");
        let (kind, dty) = match qs.as_slice() {
            ["sync"] => (BarKind::Sync, Ty::U32),
            [] if op == "bar" => (BarKind::Sync, Ty::U32),
            ["arrive"] => (BarKind::Arrive, Ty::U32),
            ["red", "popc", "u32"] => (BarKind::RedPopc, Ty::U32),
            ["red", "and", "pred"] => (BarKind::RedAnd, Ty::PRED),
            ["red", "or", "pred"] => (BarKind::RedOr, Ty::PRED),
            ["red", "popc"] if self.litmus => (BarKind::RedPopc, Ty::U32),
            ["red", "and"] if self.litmus => (BarKind::RedAnd, Ty::PRED),
            ["red", "or"] if self.litmus => (BarKind::RedOr, Ty::PRED),
            _ => {
                return unsup(format!("barrier form `{}`", self.text));
            }
        };
        let ops = self.ops.clone();
        let (d, id, count, pred) = match kind {
            BarKind::Sync | BarKind::Arrive => {
                self.nops(&[1, 2, 3])?;
                if ops.len() == 3 {
                    return unsup(format!(
                        "the three-operand barrier dialect (instance, id, count) `{}`",
                        self.text
                    ));
                }
                if kind == BarKind::Arrive && ops.len() == 1 {
                    // PTX ISA bar: "a non-zero thread count is required for barrier.arrive".
                    return err(format!(
                        "`{}`: bar.arrive needs a thread count (PTX ISA bar: `bar.arrive a, b`)",
                        self.text
                    ));
                }
                let id = self.src(&ops[0], Ty::U32)?;
                let count = match ops.get(1) {
                    Some(c) => Some(self.src(c, Ty::U32)?),
                    None => None,
                };
                (None, id, count, None)
            }
            _ => {
                self.nops(&[3, 4])?;
                let d = self.dst(&ops[0])?;
                let id = self.src(&ops[1], Ty::U32)?;
                let count = if ops.len() == 4 {
                    Some(self.src(&ops[2], Ty::U32)?)
                } else {
                    None
                };
                let p = self.src(ops.last().unwrap(), Ty::PRED)?;
                (d, id, count, Some(p))
            }
        };
        if let Opnd::Imm(v) = id {
            // PTX ISA bar: "each CTA instance has sixteen barriers numbered 0..15".
            if v > 15 {
                return err(format!(
                    "`{}`: barrier id {} is out of range 0–15 (PTX ISA bar)",
                    self.text, v as u32 as i32
                ));
            }
        }
        if let Some(Opnd::Imm(c)) = count {
            let c = c as u32 as i32;
            if c <= 0 {
                return err(format!(
                    "`{}`: thread count {c} must be positive (PTX ISA bar: the number of participating threads)",
                    self.text
                ));
            }
            if !self.litmus && c % 32 != 0 {
                return err(format!(
                    "`{}`: thread count {c} is not a multiple of the warp size (PTX ISA bar)",
                    self.text
                ));
            }
        }
        Ok(Inst::Bar {
            kind,
            id,
            count,
            pred,
            d,
            dty,
        })
    }

    fn mbar_space(&self, q: &Quals, cluster_ok: bool) -> R<Space> {
        match q.spaces.as_slice() {
            [] => Ok(Space::Generic),
            [Sp::SharedCta] => Ok(Space::SharedCta),
            [Sp::SharedCluster] if cluster_ok => Ok(Space::SharedCluster),
            _ => err(format!(
                "`{}`: expected .shared{{::cta}}{} or no state space",
                self.text,
                if cluster_ok { ", .shared::cluster" } else { "" }
            )),
        }
    }

    fn mbar_sem(&self, q: &Quals, default: Sem, allowed: &[&str]) -> R<(Sem, Scope)> {
        let sem = match q.sems.as_slice() {
            [] => None,
            [s] if allowed.contains(s) => Some(match *s {
                "release" => Sem::Release,
                "acquire" => Sem::Acquire,
                _ => Sem::Relaxed,
            }),
            [s] => {
                return err(format!(
                    "`{}`: .{s} is not a semantics of this mbarrier operation (PTX ISA: {})",
                    self.text,
                    allowed.join(", ")
                ))
            }
            _ => return err(format!("`{}`: two semantics", self.text)),
        };
        let scope = match q.scopes.as_slice() {
            [] => None,
            [s @ (Scope::Cta | Scope::Cluster)] => Some(*s),
            [_] => {
                return err(format!(
                    "`{}`: mbarrier scopes are .cta and .cluster",
                    self.text
                ))
            }
            _ => return err(format!("`{}`: two scopes", self.text)),
        };
        match (sem, scope) {
            (None, None) => Ok((default, Scope::Cta)),
            (Some(s), Some(c)) => Ok((s, c)),
            _ => err(format!(
                "`{}`: .sem and .scope are given together (PTX ISA mbarrier)",
                self.text
            )),
        }
    }

    fn mbarrier(&mut self, rest: &[&str]) -> R<Inst> {
        let Some((&what, rest)) = rest.split_first() else {
            return err("expected mbarrier.OPERATION");
        };
        let q = quals(rest)?;
        if q.types != [Ty::B64] {
            return err(format!("`{}`: mbarrier instructions are .b64", self.text));
        }
        let ops = self.ops.clone();
        let words: Vec<&str> = q.words.clone();
        match what {
            "init" | "inval" => {
                if !q.sems.is_empty() || !q.scopes.is_empty() || !words.is_empty() {
                    return err(format!("`{}`: unexpected qualifiers", self.text));
                }
                let space = self.mbar_space(&q, false)?;
                self.nops(if what == "init" { &[2] } else { &[1] })?;
                let addr = self.addr_in(&ops[0], space)?;
                let op = if what == "init" {
                    MbarI::Init(self.src(&ops[1], Ty::B32)?)
                } else {
                    MbarI::Inval
                };
                Ok(Inst::Mbar {
                    space,
                    addr,
                    op,
                    sem: Sem::Weak,
                    scope: Scope::Cta,
                    d: None,
                })
            }
            "arrive" | "arrive_drop" => {
                let mut expect = false;
                let mut no_complete = false;
                for w in &words {
                    match *w {
                        "expect_tx" => expect = true,
                        "noComplete" => no_complete = true,
                        _ => return unsup(format!("qualifier `.{w}` of `{}`", self.text)),
                    }
                }
                let space = self.mbar_space(&q, true)?;
                let (sem, scope) = self.mbar_sem(&q, Sem::Release, &["release", "relaxed"])?;
                if no_complete && (sem, scope) != (Sem::Release, Scope::Cta) {
                    return err(format!("`{}`: .noComplete is .release.cta only", self.text));
                }
                if no_complete && space == Space::SharedCluster {
                    return err(format!(
                        "`{}`: .noComplete has no .shared::cluster form",
                        self.text
                    ));
                }
                self.nops(if expect || no_complete { &[3] } else { &[2, 3] })?;
                let d = self.dst(&ops[0])?;
                if space == Space::SharedCluster && d.is_some() {
                    return err(format!(
                        "`{}`: a .shared::cluster arrive returns no state: its destination is `_` (PTX ISA mbarrier.arrive)",
                        self.text
                    ));
                }
                let addr = self.addr_in(&ops[1], space)?;
                let third = match ops.get(2) {
                    Some(o) => Some(self.src(o, Ty::U32)?),
                    None => None,
                };
                let (count, tx) = if expect { (None, third) } else { (third, None) };
                Ok(Inst::Mbar {
                    space,
                    addr,
                    op: MbarI::Arrive {
                        count,
                        tx,
                        no_complete,
                        drop: what == "arrive_drop",
                    },
                    sem,
                    scope,
                    d,
                })
            }
            "expect_tx" | "complete_tx" => {
                if !words.is_empty() {
                    return unsup(format!("qualifier `.{}` of `{}`", words[0], self.text));
                }
                let space = self.mbar_space(&q, true)?;
                let (sem, scope) = self.mbar_sem(&q, Sem::Relaxed, &["relaxed"])?;
                self.nops(&[2])?;
                let addr = self.addr_in(&ops[0], space)?;
                let n = self.src(&ops[1], Ty::U32)?;
                Ok(Inst::Mbar {
                    space,
                    addr,
                    op: if what == "expect_tx" {
                        MbarI::ExpectTx(n)
                    } else {
                        MbarI::CompleteTx(n)
                    },
                    sem,
                    scope,
                    d: None,
                })
            }
            "test_wait" | "try_wait" => {
                let mut parity = false;
                for w in &words {
                    match *w {
                        "parity" => parity = true,
                        _ => return unsup(format!("qualifier `.{w}` of `{}`", self.text)),
                    }
                }
                let space = self.mbar_space(&q, false)?;
                let (sem, scope) = self.mbar_sem(&q, Sem::Acquire, &["acquire", "relaxed"])?;
                self.nops(if what == "try_wait" { &[3, 4] } else { &[3] })?;
                let d = self.pred_reg(&ops[0])?;
                let addr = self.addr_in(&ops[1], space)?;
                let v = self.src(&ops[2], if parity { Ty::U32 } else { Ty::B64 })?;
                if parity {
                    if let Opnd::Imm(p) = v {
                        if p > 1 {
                            return err(format!("`{}`: a phase parity is 0 or 1", self.text));
                        }
                    }
                }
                Ok(Inst::Mbar {
                    space,
                    addr,
                    op: MbarI::Wait {
                        parity,
                        try_wait: what == "try_wait",
                        v,
                    },
                    sem,
                    scope,
                    d,
                })
            }
            "pending_count" => {
                self.nops(&[2])?;
                let d = self.reg(&ops[0])?;
                let state = self.src(&ops[1], Ty::B64)?;
                Ok(Inst::PendingCount { d, state })
            }
            _ => unsup(format!("`mbarrier.{what}`")),
        }
    }

    fn cp(&mut self, rest: &[&str]) -> R<Inst> {
        match rest {
            ["async", "commit_group"] => {
                self.nops(&[0])?;
                Ok(Inst::Commit { bulk: false })
            }
            ["async", "wait_all"] => {
                self.nops(&[0])?;
                Ok(Inst::WaitGroup {
                    bulk: false,
                    n: 0,
                    read: false,
                    all: true,
                })
            }
            ["async", "wait_group"] => {
                let n = self.count_literal()?;
                Ok(Inst::WaitGroup {
                    bulk: false,
                    n,
                    read: false,
                    all: false,
                })
            }
            ["async", "bulk", "commit_group"] => {
                self.nops(&[0])?;
                Ok(Inst::Commit { bulk: true })
            }
            ["async", "bulk", "wait_group"] | ["async", "bulk", "wait_group", "read"] => {
                let n = self.count_literal()?;
                Ok(Inst::WaitGroup {
                    bulk: true,
                    n,
                    read: rest.len() == 4,
                    all: false,
                })
            }
            ["async", "mbarrier", "arrive", q @ ..] => {
                let mut noinc = false;
                let mut space = Space::Generic;
                for w in q {
                    match *w {
                        "noinc" => noinc = true,
                        "shared" | "shared::cta" => space = Space::SharedCta,
                        "b64" => {}
                        _ => return err(format!("`{}`: unexpected `.{w}`", self.text)),
                    }
                }
                if q.last() != Some(&"b64") {
                    return err(format!("`{}`: expected .b64", self.text));
                }
                self.nops(&[1])?;
                let a = self.ops[0].clone();
                let addr = self.addr_in(&a, space)?;
                Ok(Inst::CpAsyncMbarArrive { space, addr, noinc })
            }
            ["async", "bulk", "prefetch", ..] => Ok(Inst::Nop),
            ["async", "bulk", "tensor", q @ ..] => self.tensor(q),
            ["async", "bulk", q @ ..] => self.bulk(q, false),
            ["reduce", "async", "bulk", "tensor", q @ ..] => self.tensor_reduce(q),
            ["reduce", "async", "bulk", q @ ..] => self.bulk(q, true),
            ["async", "ca" | "cg", ..] => self.cp_async(&rest[1..]),
            _ => unsup(format!("`cp.{}`", rest.join("."))),
        }
    }

    fn count_literal(&self) -> R<u64> {
        self.nops(&[1])?;
        match parse_int(&self.ops[0]) {
            Some(v) if (0..=63).contains(&v) => Ok(v as u64),
            _ => err(format!(
                "`{}`: expected an integer constant 0–63",
                self.text
            )),
        }
    }

    fn cp_async(&mut self, q: &[&str]) -> R<Inst> {
        let cg = q[0] == "cg";
        let qq = quals(&q[1..])?;
        if qq.spaces != [Sp::SharedCta, Sp::Global] {
            return err(format!(
                "`{}`: expected cp.async.{}.shared{{::cta}}.global",
                self.text, q[0]
            ));
        }
        if let Some(w) = qq.words.first() {
            return unsup(format!("qualifier `.{w}` of `{}`", self.text));
        }
        let extra = usize::from(qq.cache_hint);
        self.nops(&[3 + extra, 4 + extra])?;
        let ops = self.ops.clone();
        let size = match parse_int(&ops[2]) {
            Some(s @ (4 | 8 | 16)) => s as u8,
            _ => return err(format!("`{}`: cp-size is 4, 8 or 16", self.text)),
        };
        if cg && size != 16 {
            return err(format!("`{}`: cp.async.cg copies 16 bytes", self.text));
        }
        let dst = self.addr_in(&ops[0], Space::SharedCta)?;
        let src = self.addr_in(&ops[1], Space::Global)?;
        let src_size = if ops.len() == 4 + extra {
            let o = self.src(&ops[3], Ty::U32)?;
            if let Opnd::Reg(r) = o {
                if self.env.is_pred(r) {
                    return unsup(format!("cp.async with ignore-src `{}`", self.text));
                }
            }
            if let Opnd::Imm(v) = o {
                if v > size as u64 {
                    return err(format!("`{}`: src-size exceeds cp-size", self.text));
                }
            }
            Some(o)
        } else {
            None
        };
        Ok(Inst::CpAsync {
            dst,
            src,
            size,
            src_size,
        })
    }

    fn bulk(&mut self, q: &[&str], reduce: bool) -> R<Inst> {
        let qq = quals(q)?;
        let (dst, src) = match qq.spaces.as_slice() {
            [d, s] => (*d, *s),
            _ => return err(format!("`{}`: expected .dst.src state spaces", self.text)),
        };
        let dir = match (dst, src) {
            (Sp::SharedCta, Sp::Global) => BulkDir {
                dst: Space::SharedCta,
                src: Space::Global,
            },
            (Sp::SharedCluster, Sp::Global) => BulkDir {
                dst: Space::SharedCluster,
                src: Space::Global,
            },
            (Sp::SharedCluster, Sp::SharedCta) => BulkDir {
                dst: Space::SharedCluster,
                src: Space::SharedCta,
            },
            (Sp::Global, Sp::SharedCta) => BulkDir {
                dst: Space::Global,
                src: Space::SharedCta,
            },
            _ => return err(format!("`{}`: no such bulk copy direction", self.text)),
        };
        let mut mbar = false;
        let mut group = false;
        let mut multicast = false;
        let mut rop = None;
        for w in &qq.words {
            match *w {
                "mbarrier::complete_tx::bytes" => mbar = true,
                "bulk_group" => group = true,
                "multicast::cluster" => multicast = true,
                "noftz" => {}
                "cp_mask" => return unsup(format!("`.cp_mask` in `{}`", self.text)),
                w if reduce && self.rmw_op(w, false).is_some() => {
                    rop = self.rmw_op(w, false);
                }
                _ => return unsup(format!("qualifier `.{w}` of `{}`", self.text)),
            }
        }
        if mbar == group {
            return err(format!(
                "`{}`: expected one completion mechanism (.mbarrier::complete_tx::bytes or .bulk_group)",
                self.text
            ));
        }
        if group != (dir.dst == Space::Global) {
            return err(format!(
                "`{}`: a copy to .global completes by .bulk_group, others by .mbarrier::complete_tx::bytes",
                self.text
            ));
        }
        if multicast && (dir.dst != Space::SharedCluster || dir.src != Space::Global) {
            return err(format!(
                "`{}`: .multicast::cluster is global → shared::cluster only",
                self.text
            ));
        }
        let reduce = if reduce {
            let op = rop.ok_or_else(|| PErr {
                unsupported: false,
                msg: format!("`{}`: expected a reduction operation", self.text),
            })?;
            let ty = self.one_type(&qq, None)?;
            if ty.float() && op != RmwOp::Add && !matches!(op, RmwOp::Min | RmwOp::Max) {
                return err(format!("`{}`: no such float reduction", self.text));
            }
            if matches!(op, RmwOp::Inc | RmwOp::Dec) && ty != Ty::U32 {
                return err(format!("`{}`: .inc/.dec are .u32 only", self.text));
            }
            Some((op, ty))
        } else {
            if !qq.types.is_empty() {
                return err(format!("`{}`: a bulk copy has no type", self.text));
            }
            None
        };
        let n = 3 + usize::from(mbar) + usize::from(multicast) + usize::from(qq.cache_hint);
        self.nops(&[n])?;
        let ops = self.ops.clone();
        let dsta = self.addr_in(&ops[0], dir.dst)?;
        let srca = self.addr_in(&ops[1], dir.src)?;
        let size = self.src(&ops[2], Ty::U32)?;
        if let Opnd::Imm(s) = size {
            if !s.is_multiple_of(16) {
                return err(format!(
                    "`{}`: the size {s} is not a multiple of 16 (PTX ISA cp.async.bulk)",
                    self.text
                ));
            }
        }
        let bar = if mbar {
            let bs = if dir.dst == Space::SharedCluster {
                Space::SharedCluster
            } else {
                Space::SharedCta
            };
            Some(self.addr_in(&ops[3], bs)?)
        } else {
            None
        };
        let mask = if multicast {
            Some(self.src(&ops[4], Ty::B16)?)
        } else {
            None
        };
        Ok(Inst::Bulk {
            dir,
            dst: dsta,
            src: srca,
            size,
            bar,
            mask,
            reduce,
        })
    }

    fn tensor_reduce(&mut self, q: &[&str]) -> R<Inst> {
        // cp.reduce.async.bulk.tensor.dim.global.shared::cta.redOp{.load_mode}.bulk_group
        let mut op = None;
        let rest: Vec<&str> = q
            .iter()
            .copied()
            .filter(|w| match self.rmw_op(w, false) {
                Some(o) => {
                    op = Some(o);
                    false
                }
                None => true,
            })
            .collect();
        let op = op.ok_or_else(|| PErr {
            unsupported: false,
            msg: format!("`{}`: expected a reduction operation", self.text),
        })?;
        match self.tensor(&rest)? {
            Inst::Tensor {
                load: false,
                smem,
                smem_space,
                tmap,
                coords,
                bar,
                mask,
                ..
            } => Ok(Inst::Tensor {
                load: false,
                smem,
                smem_space,
                tmap,
                coords,
                bar,
                mask,
                reduce: Some((op, Ty::U32)),
            }),
            _ => err(format!(
                "`{}`: a tensor reduction goes from .shared::cta to .global",
                self.text
            )),
        }
    }

    fn tensor(&mut self, q: &[&str]) -> R<Inst> {
        let qq = quals(q)?;
        let mut dims = 0usize;
        let mut mbar = false;
        let mut group = false;
        let mut multicast = false;
        for w in &qq.words {
            match *w {
                "1d" => dims = 1,
                "2d" => dims = 2,
                "3d" | "4d" | "5d" => {
                    return unsup(format!("{w} tensor copies (1d and 2d are modelled)"))
                }
                "tile" => {}
                "mbarrier::complete_tx::bytes" => mbar = true,
                "bulk_group" => group = true,
                "multicast::cluster" => multicast = true,
                "cta_group::1" => {}
                _ => return unsup(format!("qualifier `.{w}` of `{}`", self.text)),
            }
        }
        if dims == 0 {
            return err(format!("`{}`: expected .1d or .2d", self.text));
        }
        let load = match qq.spaces.as_slice() {
            [Sp::SharedCluster | Sp::SharedCta, Sp::Global] => true,
            [Sp::Global, Sp::SharedCta] => false,
            _ => return err(format!("`{}`: no such tensor copy direction", self.text)),
        };
        if load != mbar || load == group {
            return err(format!(
                "`{}`: loads complete by .mbarrier::complete_tx::bytes, stores by .bulk_group",
                self.text
            ));
        }
        let n = if load { 3 } else { 2 } + usize::from(multicast) + usize::from(qq.cache_hint);
        self.nops(&[n])?;
        let ops = self.ops.clone();
        let (tm_s, smem_s) = if load {
            (&ops[1], &ops[0])
        } else {
            (&ops[0], &ops[1])
        };
        let inner = tm_s
            .trim()
            .strip_prefix('[')
            .and_then(|x| x.strip_suffix(']'))
            .ok_or_else(|| PErr {
                unsupported: false,
                msg: format!("expected `[tensorMap, {{c0, …}}]`, found `{tm_s}`"),
            })?;
        let tparts = split_ops(inner)?;
        if tparts.len() != 2 {
            return err(format!("expected `[tensorMap, {{c0, …}}]`, found `{tm_s}`"));
        }
        let tmap = self.src(&tparts[0], Ty::U64)?;
        let cs = self.list(&tparts[1])?;
        if cs.len() != dims {
            return err(format!(
                "`{}`: a {dims}d copy takes {dims} coordinate(s)",
                self.text
            ));
        }
        let mut coords = Vec::new();
        for c in &cs {
            coords.push(self.src(c, Ty::S32)?);
        }
        let smem_space = if load {
            if qq.spaces[0] == Sp::SharedCta {
                Space::SharedCta
            } else {
                Space::SharedCluster
            }
        } else {
            Space::SharedCta
        };
        let smem = self.addr_in(smem_s, smem_space)?;
        let bar = if load {
            Some(self.addr_in(&ops[2], smem_space)?)
        } else {
            None
        };
        let mask = if multicast {
            Some(self.src(&ops[3], Ty::B16)?)
        } else {
            None
        };
        Ok(Inst::Tensor {
            load,
            smem,
            smem_space,
            tmap,
            coords,
            bar,
            mask,
            reduce: None,
        })
    }

    fn st_async(&mut self, q: &[&str]) -> R<Inst> {
        let qq = quals(q)?;
        if qq.sems.iter().any(|s| *s != "weak") || !qq.scopes.is_empty() {
            return unsup(format!(
                "`{}` (st.async with a scope or .mmio/.release)",
                self.text
            ));
        }
        if !matches!(qq.spaces.as_slice(), [] | [Sp::SharedCluster]) {
            return err(format!("`{}`: st.async writes .shared::cluster", self.text));
        }
        if qq.words != ["mbarrier::complete_tx::bytes"] {
            return err(format!(
                "`{}`: expected .mbarrier::complete_tx::bytes",
                self.text
            ));
        }
        let ty = self.one_type(&qq, None)?;
        if ty.bits < 32 {
            return err(format!("`{}`: st.async types are 32 or 64 bits", self.text));
        }
        self.nops(&[3])?;
        let ops = self.ops.clone();
        let vs = self.list(&ops[1])?;
        if vs.len() != qq.vec.unwrap_or(1) as usize {
            return err(format!("`{}`: wrong number of values", self.text));
        }
        let mut v = Vec::new();
        for x in &vs {
            v.push(self.src(x, ty)?);
        }
        let addr = self.addr_in(&ops[0], Space::SharedCluster)?;
        let bar = self.addr_in(&ops[2], Space::SharedCluster)?;
        Ok(Inst::StAsync {
            order: Order::WEAK,
            ty,
            addr,
            v,
            bar,
            rmw: None,
        })
    }

    fn red_async(&mut self, q: &[&str]) -> R<Inst> {
        let qq = quals(q)?;
        if qq.sems != ["relaxed"] || qq.scopes != [Scope::Cluster] {
            return unsup(format!(
                "`{}` (red.async other than .relaxed.cluster)",
                self.text
            ));
        }
        if !matches!(qq.spaces.as_slice(), [] | [Sp::SharedCluster]) {
            return err(format!(
                "`{}`: red.async updates .shared::cluster",
                self.text
            ));
        }
        let mut op = None;
        let mut mb = false;
        for w in &qq.words {
            if *w == "mbarrier::complete_tx::bytes" {
                mb = true;
            } else if let Some(o) = self.rmw_op(w, false) {
                op = Some(o);
            } else {
                return unsup(format!("qualifier `.{w}` of `{}`", self.text));
            }
        }
        let op = op.ok_or_else(|| PErr {
            unsupported: false,
            msg: format!("`{}`: expected an operation", self.text),
        })?;
        if !mb {
            return err(format!(
                "`{}`: expected .mbarrier::complete_tx::bytes",
                self.text
            ));
        }
        let ty = self.one_type(&qq, None)?;
        self.check_rmw_ty(op, ty)?;
        self.nops(&[3])?;
        let ops = self.ops.clone();
        let v = vec![self.src(&ops[1], ty)?];
        let addr = self.addr_in(&ops[0], Space::SharedCluster)?;
        let bar = self.addr_in(&ops[2], Space::SharedCluster)?;
        Ok(Inst::StAsync {
            order: Order {
                sem: Sem::Relaxed,
                scope: Some(Scope::Cluster),
            },
            ty,
            addr,
            v,
            bar,
            rmw: Some(op),
        })
    }

    fn mov(&mut self, rest: &[&str]) -> R<Inst> {
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

    fn arith_ty(&self, q: &Quals) -> R<Ty> {
        match q.types.as_slice() {
            [] if self.litmus => Ok(Ty::S64),
            _ => self.one_type(q, None),
        }
    }

    /// Float rounding qualifiers: `.rn` (or none where the ISA defaults to it) is modelled;
    /// `.ftz`, `.sat` are returned.
    fn float_mods(&self, words: &[&str], need_rnd: bool) -> R<FMod> {
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

    fn half(&self, ty: Ty) -> R<()> {
        if ty.float() && ty.bits == 16 {
            return unsup(format!("half-precision arithmetic `{}`", self.text));
        }
        Ok(())
    }

    fn bin(&mut self, op: &str, rest: &[&str]) -> R<Inst> {
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

    fn mad(&mut self, op: &str, rest: &[&str]) -> R<Inst> {
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

    fn un(&mut self, op: &str, rest: &[&str]) -> R<Inst> {
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

    fn bf(&mut self, op: &str, rest: &[&str]) -> R<Inst> {
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

    fn prmt(&mut self, rest: &[&str]) -> R<Inst> {
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

    fn cvt(&mut self, rest: &[&str]) -> R<Inst> {
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

    fn cvta(&mut self, rest: &[&str]) -> R<Inst> {
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

    fn mapa(&mut self, op: &str, rest: &[&str]) -> R<Inst> {
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

    fn isspacep(&mut self, rest: &[&str]) -> R<Inst> {
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

    fn setp(&mut self, rest: &[&str]) -> R<Inst> {
        let q = quals(rest)?;
        let ty = self.one_type(&q, None)?;
        let mut cmp = None;
        let mut bop = None;
        let mut ftz = false;
        for w in &q.words {
            let c = match *w {
                "eq" => CmpOp::Eq,
                "ne" => CmpOp::Ne,
                "lt" => CmpOp::Lt,
                "le" => CmpOp::Le,
                "gt" => CmpOp::Gt,
                "ge" => CmpOp::Ge,
                "lo" => CmpOp::Lo,
                "ls" => CmpOp::Ls,
                "hi" => CmpOp::Hi,
                "hs" => CmpOp::Hs,
                "equ" => CmpOp::Equ,
                "neu" => CmpOp::Neu,
                "ltu" => CmpOp::Ltu,
                "leu" => CmpOp::Leu,
                "gtu" => CmpOp::Gtu,
                "geu" => CmpOp::Geu,
                "num" => CmpOp::Num,
                "nan" => CmpOp::Nan,
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
                _ => return unsup(format!("qualifier `.{w}` of `{}`", self.text)),
            };
            if cmp.replace(c).is_some() {
                return err(format!("`{}`: two comparisons", self.text));
            }
        }
        let cmp = cmp.ok_or_else(|| PErr {
            unsupported: false,
            msg: format!("`{}`: expected a comparison (.eq, .ne, .lt, …)", self.text),
        })?;
        let float_only = matches!(
            cmp,
            CmpOp::Equ
                | CmpOp::Neu
                | CmpOp::Ltu
                | CmpOp::Leu
                | CmpOp::Gtu
                | CmpOp::Geu
                | CmpOp::Num
                | CmpOp::Nan
        );
        if ty.float() {
            if matches!(cmp, CmpOp::Lo | CmpOp::Ls | CmpOp::Hi | CmpOp::Hs) {
                return err(format!(
                    "`{}`: .{} is an integer comparison",
                    self.text, q.words[0]
                ));
            }
            if ty.bits == 16 {
                return unsup(format!("half-precision comparison `{}`", self.text));
            }
        } else {
            if float_only {
                return err(format!(
                    "`{}`: a float comparison on an integer type",
                    self.text
                ));
            }
            // PTX ISA §9.3.1.1: "ordering comparisons are not defined for bit-size types".
            if ty.kind == Kind::B && !matches!(cmp, CmpOp::Eq | CmpOp::Ne) {
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

    fn selp(&mut self, rest: &[&str]) -> R<Inst> {
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

    fn slct(&mut self, rest: &[&str]) -> R<Inst> {
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

    fn warp(&mut self, op: &str, rest: &[&str]) -> R<Inst> {
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

/// `name+4`, `name-4`, `name+-4`, `name` → (name, offset). A bare number is `("", n)`.
fn split_off(s: &str) -> R<(&str, i64)> {
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
fn sreg(s: &str) -> R<Option<Sreg>> {
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
