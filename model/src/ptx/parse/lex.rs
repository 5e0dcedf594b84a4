//! The words of an instruction: operand splitting, integer and float literals, and the
//! qualifiers (`.type`, `.scope`, state space, semantics) classified into [`Quals`].

use super::*;

/// Splits an operand list at top-level commas (not inside `[]`, `{}`, `()`).
pub fn split_operands(s: &str) -> Result<Vec<String>, PErr> {
    split_ops(s)
}

pub(super) fn split_ops(s: &str) -> R<Vec<String>> {
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
pub(super) fn parse_float(s: &str, ty: Ty) -> Option<u64> {
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

pub(super) fn scope_of(s: &str) -> Option<Scope> {
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

pub(super) fn ty_of(s: &str) -> Option<Ty> {
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
pub(super) enum Sp {
    Global,
    SharedCta,
    SharedCluster,
    Const,
    Local,
    Param,
}

pub(super) fn space_of(s: &str) -> Option<Sp> {
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
pub(super) struct Quals<'a> {
    /// Semantics words (`weak relaxed acquire release acq_rel sc volatile mmio`), in order.
    pub(super) sems: Vec<&'a str>,
    pub(super) scopes: Vec<Scope>,
    pub(super) spaces: Vec<Sp>,
    pub(super) types: Vec<Ty>,
    pub(super) vec: Option<u8>,
    /// `.L2::cache_hint`: a cache-policy operand follows the others.
    pub(super) cache_hint: bool,
    /// Everything else, in order.
    pub(super) words: Vec<&'a str>,
}

pub(super) fn quals<'a>(parts: &[&'a str]) -> R<Quals<'a>> {
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
