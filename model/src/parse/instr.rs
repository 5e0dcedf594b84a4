//! One format-part-1 instruction cell → an [`Instr`] of the enumerating checker.

use super::*;

pub(super) fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(ch) if ch.is_ascii_alphabetic() || ch == '_')
        && c.all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
}

pub(super) fn parse_int(s: &str) -> Option<i64> {
    let s = s.trim();
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        return i64::from_str_radix(h, 16).ok();
    }
    if let Some(h) = s.strip_prefix("-0x") {
        return i64::from_str_radix(h, 16).ok().map(|v| -v);
    }
    s.parse::<i64>().ok()
}

/// Splits `opcode.q1.q2 a, b, c` into the qualifier list and the operands.
pub(super) fn split_instr(c: &str) -> (Vec<String>, Vec<String>) {
    let c = c.trim();
    let (m, ops) = match c.find(|ch: char| ch.is_whitespace()) {
        Some(p) => (&c[..p], c[p..].trim()),
        None => (c, ""),
    };
    let quals: Vec<String> = m.split('.').map(|s| s.to_string()).collect();
    let ops: Vec<String> = if ops.is_empty() {
        Vec::new()
    } else {
        ops.split(',').map(|s| s.trim().to_string()).collect()
    };
    (quals, ops)
}

#[allow(clippy::too_many_arguments)]
pub(super) fn parse_instr(
    cx: &Ctx,
    ln: usize,
    c: &str,
    b: &mut Builder,
    labels: &HashMap<String, usize>,
    regs: &mut HashMap<String, usize>,
    th: &mut Thread,
) -> Result<Instr, Error> {
    if c.ends_with(':') {
        return Ok(Instr::Nop);
    }
    if c.starts_with('@') {
        return Err(cx.unsupported(ln, format!("predicated instruction `{c}`")));
    }
    let (q, ops) = split_instr(c);
    let op = q[0].as_str();
    let quals = &q[1..];
    let mut reg = |s: &str, what: &str| -> Result<usize, Error> {
        let r = norm_reg(s).ok_or_else(|| {
            cx.err(
                ln,
                format!("expected a register `rN` as {what}, found `{s}`"),
            )
        })?;
        Ok(reg_index(regs, th, &r))
    };
    let nops = |n: &[usize]| -> Result<(), Error> {
        if n.contains(&ops.len()) {
            Ok(())
        } else {
            Err(cx.err(
                ln,
                format!(
                    "`{}` takes {} operand(s), found {}",
                    q.join("."),
                    n.iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join(" or "),
                    ops.len()
                ),
            ))
        }
    };
    macro_rules! val {
        ($s:expr) => {{
            let s: &str = $s;
            if let Some(v) = parse_int(s) {
                Val::Imm(v)
            } else if norm_reg(s).is_some() {
                Val::Reg(reg(s, "an operand")?)
            } else {
                return Err(cx.err(
                    ln,
                    format!("expected a register or an integer, found `{s}`"),
                ));
            }
        }};
    }
    let addr = |b: &mut Builder, s: &str| -> Result<Name, Error> {
        let s = s.trim();
        let inner = s
            .strip_prefix('[')
            .and_then(|x| x.strip_suffix(']'))
            .unwrap_or(s)
            .trim();
        if inner.contains('+') {
            return Err(cx.unsupported(ln, format!("address arithmetic `{s}`")));
        }
        if norm_reg(inner).is_some() {
            return Err(cx.unsupported(ln, format!("an address held in a register (`{s}`)")));
        }
        if !is_ident(inner) {
            return Err(cx.err(ln, format!("expected a location name, found `{s}`")));
        }
        Ok(b.loc(inner))
    };
    match op {
        "ld" | "suld" | "tld" | "cold" | "st" | "sust" => {
            let is_ld = matches!(op, "ld" | "suld" | "tld" | "cold");
            let mut proxy = match op {
                "suld" | "sust" => Proxy::Surface,
                "tld" => Proxy::Texture,
                "cold" => Proxy::Constant,
                _ => Proxy::Generic,
            };
            let mut sem = None;
            let mut scope = None;
            for x in quals {
                match x.as_str() {
                    "weak" => set(&mut sem, Sem::Weak, cx, ln, c)?,
                    "relaxed" => set(&mut sem, Sem::Relaxed, cx, ln, c)?,
                    "acquire" if is_ld => set(&mut sem, Sem::Acquire, cx, ln, c)?,
                    "release" if !is_ld => set(&mut sem, Sem::Release, cx, ln, c)?,
                    "acquire" | "release" | "acq_rel" | "sc" => {
                        return Err(cx.err(
                            ln,
                            format!(
                                "`{c}`: {} has no `.{x}` (PTX ISA {}: weak, relaxed, {})",
                                if is_ld { "ld" } else { "st" },
                                if is_ld { "ld" } else { "st" },
                                if is_ld { "acquire" } else { "release" }
                            ),
                        ))
                    }
                    "volatile" => {
                        // PTX ISA 8.4: ld/st.volatile are relaxed with system scope.
                        set(&mut sem, Sem::Relaxed, cx, ln, c)?;
                        scope = Some(Scope::Sys);
                    }
                    "cta" | "cluster" | "gpu" | "sys" => {
                        if scope.replace(parse_scope(x)).is_some() {
                            return Err(cx.err(ln, format!("`{c}`: two scopes")));
                        }
                    }
                    "const" if is_ld => proxy = Proxy::Constant,
                    "global" | "shared" | "shared::cta" | "shared::cluster" | "gen" | "ca"
                    | "cg" | "cs" | "lu" | "cv" | "wb" | "wt" | "u32" | "s32" | "b32" | "u64"
                    | "s64" | "b64" => {}
                    "mmio" | "nc" | "v2" | "v4" | "v8" | "b128" | "u8" | "s8" | "b8" | "u16"
                    | "s16" | "b16" | "f32" | "f64" | "f16" => {
                        return Err(cx.unsupported(ln, format!("`.{x}` in `{c}`")))
                    }
                    _ if x.starts_with("L1::") || x.starts_with("L2::") => {}
                    _ => return Err(cx.unsupported(ln, format!("qualifier `.{x}` in `{c}`"))),
                }
            }
            let sem = sem.unwrap_or(Sem::Weak);
            if sem == Sem::Weak && scope.is_some() {
                return Err(cx.err(ln, format!("`{c}`: a weak access takes no scope")));
            }
            if sem != Sem::Weak && scope.is_none() {
                return Err(cx.err(
                    ln,
                    format!("`{c}`: a .{sem} access needs a scope (.cta, .cluster, .gpu or .sys)"),
                ));
            }
            nops(&[2])?;
            if is_ld {
                let dst = reg(&ops[0], "the destination")?;
                if quals.is_empty() && (parse_int(&ops[1]).is_some() || norm_reg(&ops[1]).is_some())
                {
                    // Another tool's dialect: `ld r0, 1` moves a value into a register.
                    let a = val!(&ops[1]);
                    return Ok(Instr::Alu {
                        op: AluOp::Mov,
                        dst,
                        a,
                        b: Val::Imm(0),
                    });
                }
                let addr = addr(b, &ops[1])?;
                Ok(Instr::Load {
                    sem,
                    scope,
                    proxy,
                    dst,
                    addr,
                })
            } else {
                let addr = addr(b, &ops[0])?;
                let val = val!(&ops[1]);
                Ok(Instr::Store {
                    sem,
                    scope,
                    proxy,
                    addr,
                    val,
                })
            }
        }
        "atom" | "red" | "suatom" | "sured" => {
            if op.starts_with("su") {
                return Err(cx.unsupported(ln, format!("surface atomics `{c}`")));
            }
            let is_red = op == "red";
            let mut sem = None;
            let mut scope = None;
            let mut rop = None;
            let mut bits = 32;
            let mut signed = false;
            for x in quals {
                let o = match x.as_str() {
                    "relaxed" => {
                        set(&mut sem, Sem::Relaxed, cx, ln, c)?;
                        None
                    }
                    "acquire" if !is_red => {
                        set(&mut sem, Sem::Acquire, cx, ln, c)?;
                        None
                    }
                    "release" => {
                        set(&mut sem, Sem::Release, cx, ln, c)?;
                        None
                    }
                    "acq_rel" if !is_red => {
                        set(&mut sem, Sem::AcqRel, cx, ln, c)?;
                        None
                    }
                    "acquire" | "acq_rel" => {
                        return Err(cx.err(
                            ln,
                            format!("`{c}`: red has no `.{x}` (PTX ISA red: .relaxed, .release; seed §4.5)"),
                        ))
                    }
                    "weak" | "sc" | "volatile" => {
                        return Err(cx.err(ln, format!("`{c}`: atom/red have no `.{x}` (PTX ISA atom: .relaxed, .acquire, .release, .acq_rel)")))
                    }
                    "cta" | "cluster" | "gpu" | "sys" => {
                        if scope.replace(parse_scope(x)).is_some() {
                            return Err(cx.err(ln, format!("`{c}`: two scopes")));
                        }
                        None
                    }
                    "add" => Some(RmwOp::Add),
                    "sub" => Some(RmwOp::Sub),
                    "inc" => Some(RmwOp::Inc),
                    "dec" => Some(RmwOp::Dec),
                    "and" => Some(RmwOp::And),
                    "or" => Some(RmwOp::Or),
                    "xor" => Some(RmwOp::Xor),
                    "min" => Some(RmwOp::Min),
                    "max" => Some(RmwOp::Max),
                    "exch" if !is_red => Some(RmwOp::Exch),
                    "cas" if !is_red => Some(RmwOp::Cas),
                    "u32" | "b32" => {
                        bits = 32;
                        None
                    }
                    "s32" => {
                        bits = 32;
                        signed = true;
                        None
                    }
                    "u64" | "b64" => {
                        bits = 64;
                        None
                    }
                    "s64" => {
                        bits = 64;
                        signed = true;
                        None
                    }
                    "global" | "shared" | "shared::cta" | "shared::cluster" | "gen" => None,
                    _ => return Err(cx.unsupported(ln, format!("qualifier `.{x}` in `{c}`"))),
                };
                if let Some(o) = o {
                    if rop.replace(o).is_some() {
                        return Err(cx.err(ln, format!("`{c}`: two operations")));
                    }
                }
            }
            let rop = rop.ok_or_else(|| {
                cx.err(ln, format!("`{c}`: expected an operation (.add, .inc, .dec, .and, .or, .xor, .min, .max, .exch, .cas)"))
            })?;
            // PTX ISA atom: "If no scope is specified, the atomic operation is performed with
            // .gpu scope"; no .sem means .relaxed.
            let sem = sem.unwrap_or(Sem::Relaxed);
            let scope = scope.unwrap_or(Scope::Gpu);
            let cas = rop == RmwOp::Cas;
            if is_red {
                nops(&[2])?;
                let addr = addr(b, &ops[0])?;
                let a = val!(&ops[1]);
                Ok(Instr::Rmw {
                    sem,
                    scope,
                    op: rop,
                    dst: None,
                    addr,
                    a,
                    b: None,
                    bits,
                    signed,
                })
            } else {
                nops(if cas { &[4] } else { &[3] })?;
                let dst = reg(&ops[0], "the destination")?;
                let addr = addr(b, &ops[1])?;
                let a = val!(&ops[2]);
                let bv = if cas { Some(val!(&ops[3])) } else { None };
                Ok(Instr::Rmw {
                    sem,
                    scope,
                    op: rop,
                    dst: Some(dst),
                    addr,
                    a,
                    b: bv,
                    bits,
                    signed,
                })
            }
        }
        "fence" | "membar" => {
            nops(&[0])?;
            if op == "membar" {
                // PTX ISA membar: membar.{cta,gl,sys} = fence.sc.{cta,gpu,sys}.
                let scope = match quals {
                    [s] if s == "cta" => Scope::Cta,
                    [s] if s == "gl" => Scope::Gpu,
                    [s] if s == "sys" => Scope::Sys,
                    [s] if s == "proxy" => return Err(cx.unsupported(ln, c.to_string())),
                    _ => {
                        return Err(cx.err(
                            ln,
                            format!("`{c}`: expected membar.cta, membar.gl or membar.sys"),
                        ))
                    }
                };
                return Ok(Instr::Fence {
                    sem: FenceSem::Sc,
                    scope,
                });
            }
            if quals.first().map(|s| s.as_str()) == Some("proxy") {
                let kind: Vec<&str> = quals[1..].iter().map(|s| s.as_str()).collect();
                return match kind.as_slice() {
                    ["alias"] => Ok(Instr::AliasFence),
                    ["surface"] => Ok(Instr::ProxyFence {
                        proxy: Proxy::Surface,
                    }),
                    ["texture"] => Ok(Instr::ProxyFence {
                        proxy: Proxy::Texture,
                    }),
                    ["constant"] => Ok(Instr::ProxyFence {
                        proxy: Proxy::Constant,
                    }),
                    ["async"]
                    | ["async", _]
                    | ["async::global"]
                    | ["async::shared::cta"]
                    | ["async::shared::cluster"] => Ok(Instr::ProxyFence {
                        proxy: Proxy::Async,
                    }),
                    _ => Err(cx.unsupported(ln, format!("proxy fence `{c}`"))),
                };
            }
            let mut sem = None;
            let mut scope = None;
            for x in quals {
                match x.as_str() {
                    "sc" => set(&mut sem, FenceSem::Sc, cx, ln, c)?,
                    "acq_rel" => set(&mut sem, FenceSem::AcqRel, cx, ln, c)?,
                    "acquire" => set(&mut sem, FenceSem::Acquire, cx, ln, c)?,
                    "release" => set(&mut sem, FenceSem::Release, cx, ln, c)?,
                    "cta" | "cluster" | "gpu" | "sys" => {
                        if scope.replace(parse_scope(x)).is_some() {
                            return Err(cx.err(ln, format!("`{c}`: two scopes")));
                        }
                    }
                    "relaxed" | "weak" => {
                        return Err(cx.err(ln, format!("`{c}`: fence has no `.{x}` (PTX ISA fence: .sc, .acq_rel, .acquire, .release)")))
                    }
                    _ => return Err(cx.unsupported(ln, format!("fence qualifier `.{x}` in `{c}`"))),
                }
            }
            let scope = scope.ok_or_else(|| {
                cx.err(
                    ln,
                    format!("`{c}`: a fence needs a scope (.cta, .cluster, .gpu or .sys)"),
                )
            })?;
            // PTX ISA fence: `.acq_rel` is the default semantics.
            Ok(Instr::Fence {
                sem: sem.unwrap_or(FenceSem::AcqRel),
                scope,
            })
        }
        "bar" | "barrier" => {
            let qs: Vec<&str> = quals
                .iter()
                .map(|s| s.as_str())
                .filter(|s| !matches!(*s, "aligned" | "u32" | "pred"))
                .collect();
            let qs: Vec<&str> = if qs.first() == Some(&"cta") {
                qs[1..].to_vec()
            } else {
                qs
            };
            if qs.first() == Some(&"cluster") {
                nops(&[0])?;
                return match &qs[1..] {
                    ["arrive"] | ["arrive", "release"] => {
                        Ok(Instr::ClusterArrive { relaxed: false })
                    }
                    ["arrive", "relaxed"] => Ok(Instr::ClusterArrive { relaxed: true }),
                    ["wait"] | ["wait", "acquire"] => Ok(Instr::ClusterWait),
                    _ => Err(cx.unsupported(ln, format!("cluster barrier `{c}`"))),
                };
            }
            let kind = match qs.as_slice() {
                ["sync"] => BarKind::Sync,
                ["arrive"] => BarKind::Arrive,
                ["red", "popc"] => BarKind::RedPopc,
                ["red", "and"] => BarKind::RedAnd,
                ["red", "or"] => BarKind::RedOr,
                [] if op == "bar" => BarKind::Sync,
                _ => return Err(cx.unsupported(ln, format!("barrier form `{c}`"))),
            };
            match kind {
                BarKind::Sync | BarKind::Arrive => {
                    nops(&[1, 2, 3])?;
                    if kind == BarKind::Arrive && ops.len() == 1 {
                        // PTX ISA bar.arrive: "bar.arrive ... must specify b".
                        return Err(cx.err(ln, format!("`{c}`: bar.arrive needs a thread count (PTX ISA bar: `bar.arrive a, b`)")));
                    }
                    if ops.len() == 3 {
                        let inst = parse_int(&ops[0]).ok_or_else(|| {
                            cx.err(
                                ln,
                                format!("expected an instance number, found `{}`", ops[0]),
                            )
                        })?;
                        let id = val!(&ops[1]);
                        let count = Some(val!(&ops[2]));
                        return Ok(Instr::Bar {
                            kind,
                            id,
                            count,
                            dst: None,
                            pred: None,
                            instance: Some(inst),
                        });
                    }
                    let id = val!(&ops[0]);
                    let count = if ops.len() == 2 {
                        Some(val!(&ops[1]))
                    } else {
                        None
                    };
                    Ok(Instr::Bar {
                        kind,
                        id,
                        count,
                        dst: None,
                        pred: None,
                        instance: None,
                    })
                }
                _ => {
                    nops(&[3, 4])?;
                    let dst = reg(&ops[0], "the destination")?;
                    let id = val!(&ops[1]);
                    let count = if ops.len() == 4 {
                        Some(val!(&ops[2]))
                    } else {
                        None
                    };
                    let p = ops.last().unwrap().trim();
                    let (neg, p) = match p.strip_prefix('!') {
                        Some(r) => (true, r),
                        None => (false, p),
                    };
                    let pv = val!(p);
                    Ok(Instr::Bar {
                        kind,
                        id,
                        count,
                        dst: Some(dst),
                        pred: Some((pv, neg)),
                        instance: None,
                    })
                }
            }
        }
        "mov" | "add" | "sub" | "mul" | "div" | "and" | "or" | "xor" => {
            let aop = match op {
                "mov" => AluOp::Mov,
                "add" => AluOp::Add,
                "sub" => AluOp::Sub,
                "mul" => AluOp::Mul,
                "div" => AluOp::Div,
                "and" => AluOp::And,
                "or" => AluOp::Or,
                _ => AluOp::Xor,
            };
            for x in quals {
                if !matches!(
                    x.as_str(),
                    "u32" | "s32" | "b32" | "u64" | "s64" | "b64" | "lo"
                ) {
                    return Err(cx.unsupported(ln, format!("qualifier `.{x}` in `{c}`")));
                }
            }
            if aop == AluOp::Mov {
                nops(&[2])?;
                let dst = reg(&ops[0], "the destination")?;
                let a = val!(&ops[1]);
                Ok(Instr::Alu {
                    op: aop,
                    dst,
                    a,
                    b: Val::Imm(0),
                })
            } else {
                nops(&[3])?;
                let dst = reg(&ops[0], "the destination")?;
                let a = val!(&ops[1]);
                let bv = val!(&ops[2]);
                Ok(Instr::Alu {
                    op: aop,
                    dst,
                    a,
                    b: bv,
                })
            }
        }
        "beq" | "bne" | "blt" | "ble" | "bgt" | "bge" => {
            nops(&[3])?;
            let cmp = Cmp::of_branch(op);
            let a = val!(&ops[0]);
            let bv = val!(&ops[1]);
            let l = ops[2].trim();
            let target = *labels
                .get(l)
                .ok_or_else(|| cx.err(ln, format!("label `{l}` is not defined in this thread")))?;
            Ok(Instr::Branch {
                cmp,
                a,
                b: bv,
                target,
            })
        }
        "goto" | "bra" => {
            nops(&[1])?;
            let l = ops[0].trim();
            let target = *labels
                .get(l)
                .ok_or_else(|| cx.err(ln, format!("label `{l}` is not defined in this thread")))?;
            Ok(Instr::Goto { target })
        }
        _ => Err(cx.unsupported(ln, format!("instruction `{}`", q.join(".")))),
    }
}

pub(super) fn set<T: Copy>(
    slot: &mut Option<T>,
    v: T,
    cx: &Ctx,
    ln: usize,
    c: &str,
) -> Result<(), Error> {
    if slot.replace(v).is_some() {
        return Err(cx.err(ln, format!("`{c}`: two semantics qualifiers")));
    }
    Ok(())
}

pub(super) fn parse_scope(s: &str) -> Scope {
    match s {
        "cta" => Scope::Cta,
        "cluster" => Scope::Cluster,
        "gpu" => Scope::Gpu,
        _ => Scope::Sys,
    }
}
