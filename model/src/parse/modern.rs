//! The engine's reading of a test (format parts 1 and 2): layout, placement, each cell through
//! the one PTX instruction parser into [`crate::ptx::Thread`]s, and the condition's terms.

use super::*;

/// The engine's reading of a test (format parts 1 and 2): its layout, its threads.
pub(super) struct Modern {
    pub(super) layout: Arc<Layout>,
    /// Extra names of variables (surface/texture/constant aliases).
    pub(super) names: HashMap<String, usize>,
    pub(super) progs: Vec<crate::ptx::Thread>,
    pub(super) regs: Vec<Vec<String>>,
    pub(super) inits: Vec<Vec<(u32, u64)>>,
    pub(super) reg_bits: Vec<Vec<u8>>,
    pub(super) mem_widths: Vec<(usize, u32, u8)>,
    pub(super) cond: Option<Cond>,
}

impl Modern {
    /// Adds the engine's parts to a format-part-1 test.
    pub(super) fn attach(self, t: &mut Test) {
        t.loc_var = t
            .phys
            .iter()
            .map(|(n, _)| {
                self.names
                    .get(n)
                    .copied()
                    .or_else(|| self.layout.var(n))
                    .unwrap_or(0)
            })
            .collect();
        for (k, th) in t.threads.iter_mut().enumerate() {
            for name in &self.regs[k][th.regs.len().min(self.regs[k].len())..] {
                th.regs.push(name.clone());
                th.init.push(0);
            }
            th.prog = Some(self.progs[k].clone());
        }
        t.layout = (*self.layout).clone();
        t.reg_bits = self.reg_bits;
        t.mem_widths = self.mem_widths;
    }

    /// A test read by the engine only (format part 2).
    pub(super) fn into_test(self, cx: &Ctx, raw: &Raw) -> Test {
        let cond = self.cond.unwrap_or(Cond {
            quantifier: Quantifier::Exists,
            prop: Prop::True,
            text: String::new(),
            observed: Vec::new(),
            line: raw.cond_start + 1,
        });
        let mut threads = raw.threads.clone();
        for (k, th) in threads.iter_mut().enumerate() {
            th.regs = self.regs[k].clone();
            th.init = vec![0; th.regs.len()];
            for &(r, v) in &self.inits[k] {
                th.init[r as usize] = v as i64;
            }
            th.prog = Some(self.progs[k].clone());
        }
        Test {
            layout: (*self.layout).clone(),
            reg_bits: self.reg_bits,
            mem_widths: self.mem_widths,
            ..cond.into_test(cx, raw, threads)
        }
    }
}

/// The engine's reading: declarations → layout, placement → places, cells → threads.
pub(super) fn modern(cx: &Ctx, raw: &Raw, old: Option<&Test>) -> Result<Modern, Error> {
    let n = raw.threads.len();
    let mut layout = Layout::default();
    let mut names: HashMap<String, usize> = HashMap::new();
    // (thread, register name, value), in init-block order.
    let mut reg_inits: Vec<(usize, String, u64)> = Vec::new();
    for (ln, e) in &raw.entries {
        declare(cx, *ln, e, n, &mut layout, &mut names, &mut reg_inits)?;
    }
    let places = places(cx, raw)?;
    let mut all_lines = Vec::with_capacity(n);
    let mut regs = Vec::with_capacity(n);
    let mut inits = Vec::with_capacity(n);
    for k in 0..n {
        let declared: Vec<String> = reg_inits
            .iter()
            .filter(|r| r.0 == k)
            .map(|r| r.1.clone())
            .collect();
        let seed: Vec<String> = match old {
            Some(t) => t.threads[k].regs.clone(),
            None => declared.clone(),
        };
        let mut asm = Asm::new(&mut layout, &seed, &declared);
        asm.names = names.clone();
        let lines = asm.assemble(&raw.cells[k]).map_err(|(ln, e)| {
            if e.unsupported {
                cx.unsupported(ln, e.msg)
            } else {
                cx.err(ln, e.msg)
            }
        })?;
        let mut init: Vec<(u32, u64)> = Vec::new();
        match old {
            Some(t) => {
                for (r, v) in t.threads[k].init.iter().enumerate() {
                    if *v != 0 {
                        init.push((r as u32, *v as u64));
                    }
                }
            }
            None => {
                for (_, name, v) in reg_inits.iter().filter(|r| r.0 == k) {
                    if let Some(r) = asm.register(name) {
                        init.push((r, *v));
                    }
                }
            }
        }
        regs.push(asm.regs.clone());
        all_lines.push(lines);
        inits.push(init);
    }
    let layout = Arc::new(layout);
    let mut progs = Vec::with_capacity(n);
    let mut reg_bits = Vec::with_capacity(n);
    let mut mem_widths = Vec::new();
    let mut written: Vec<Vec<bool>> = Vec::with_capacity(n);
    for (k, lines) in all_lines.into_iter().enumerate() {
        let (bits, w) = reg_widths(&lines, &raw.cells[k], regs[k].len());
        for l in &lines {
            static_accesses(&l.inst, &mut mem_widths);
        }
        let code = Arc::new(crate::ptx::Code::new(
            lines,
            regs[k].clone(),
            layout.clone(),
        ));
        progs.push(crate::ptx::Thread::new(
            code,
            places[k],
            &inits[k],
            DEFAULT_UNROLL,
        ));
        reg_bits.push(
            bits.iter()
                .zip(&regs[k])
                .map(|(b, r)| if r.bits == 1 { 1 } else { *b })
                .collect(),
        );
        written.push(w);
    }
    mem_widths.sort_unstable();
    mem_widths.dedup();
    let cond = match old {
        Some(_) => None,
        None => {
            let mut resolve =
                |t: &str| modern_term(cx, raw, t, &layout, &names, &regs, &written, &inits, &progs);
            Some(condition(cx, raw, &mut resolve)?)
        }
    };
    Ok(Modern {
        layout,
        names,
        progs,
        regs: regs
            .iter()
            .map(|r| r.iter().map(|x| x.name.clone()).collect())
            .collect(),
        inits,
        reg_bits,
        mem_widths,
        cond,
    })
}

/// The engine's place and geometry of each thread (FORMAT part 2 "Clusters"): a CTA's rank is
/// the position of its `cta` number among its cluster's; each litmus thread stands for a warp
/// (lane 0) of its CTA. Special registers: `%tid.x` = 32 × the thread's position in its CTA,
/// `%ntid.x` = 32 × the CTA's threads, `%ctaid.x` = the CTA's index on its GPU,
/// `%cluster_ctaid.x` = its rank, `%cluster_nctaid.x` = its cluster's CTA count.
pub(super) fn places(cx: &Ctx, raw: &Raw) -> Result<Vec<crate::ptx::Geom>, Error> {
    let mut ctas: Vec<(i64, i64, i64)> = raw
        .threads
        .iter()
        .map(|t| (t.place.gpu, t.place.cluster, t.place.cta))
        .collect();
    ctas.sort_unstable();
    ctas.dedup();
    let mut out = Vec::new();
    let u = |v: i64, what: &str| -> Result<u32, Error> {
        u32::try_from(v)
            .map_err(|_| cx.err(0, format!("a {what} number must be 0 or more, found {v}")))
    };
    let named_clusters = raw.threads.iter().any(|t| t.place.cluster != t.place.cta);
    for (k, t) in raw.threads.iter().enumerate() {
        let (g, cl, c) = (t.place.gpu, t.place.cluster, t.place.cta);
        let on_gpu: Vec<&(i64, i64, i64)> = ctas.iter().filter(|x| x.0 == g).collect();
        let cta_index = on_gpu.iter().position(|x| **x == (g, cl, c)).unwrap_or(0) as u32;
        let in_cluster: Vec<i64> = on_gpu.iter().filter(|x| x.1 == cl).map(|x| x.2).collect();
        let rank = in_cluster.iter().position(|x| *x == c).unwrap_or(0) as u32;
        let mut clusters: Vec<i64> = on_gpu.iter().map(|x| x.1).collect();
        clusters.dedup();
        let cluster_index = clusters.iter().position(|x| *x == cl).unwrap_or(0) as u32;
        let same_cta: Vec<usize> = (0..raw.threads.len())
            .filter(|&j| {
                let p = raw.threads[j].place;
                (p.gpu, p.cluster, p.cta) == (g, cl, c)
            })
            .collect();
        let warp = same_cta.iter().position(|&j| j == k).unwrap_or(0) as u32;
        let place = EPlace {
            gpu: u(g, "gpu")?,
            cluster: u(cl, "cluster")?,
            cta: cta_index,
            rank,
            warp,
            lane: 0,
        };
        let mut geom = crate::ptx::Geom::single(place);
        geom.tid = [32 * warp, 0, 0];
        geom.ntid = [32 * same_cta.len() as u32, 1, 1];
        geom.nwarpid = same_cta.len() as u32;
        geom.ctaid = [cta_index, 0, 0];
        geom.nctaid = [on_gpu.len() as u32, 1, 1];
        geom.clusterid = [cluster_index, 0, 0];
        geom.nclusterid = [clusters.len() as u32, 1, 1];
        geom.cluster_ctaid = [rank, 0, 0];
        geom.cluster_nctaid = [in_cluster.len() as u32, 1, 1];
        geom.explicit_cluster = named_clusters;
        out.push(geom);
    }
    Ok(out)
}

/// Each register's condition width (FORMAT part 2: the widest type that writes it; 32 when only
/// 32-bit or untyped instructions write it) and whether the thread writes it.
pub(super) fn reg_widths(
    lines: &[crate::ptx::ir::Line],
    cells: &[(usize, String)],
    nregs: usize,
) -> (Vec<u8>, Vec<bool>) {
    use crate::ptx::ir::Inst;
    let mut bits = vec![32u8; nregs];
    let mut w = vec![false; nregs];
    for (l, (_, text)) in lines.iter().zip(cells) {
        let t = typed(text);
        let mut put = |r: Option<u32>, b: u8| {
            if let Some(r) = r {
                let r = r as usize;
                if r < nregs {
                    w[r] = true;
                    if t {
                        bits[r] = bits[r].max(b);
                    }
                }
            }
        };
        match &l.inst {
            Inst::Mov { ty, d, .. } | Inst::Selp { ty, d, .. } | Inst::Slct { ty, d, .. } => {
                put(Some(*d), ty.bits)
            }
            Inst::Bin { op, ty, d, .. } => put(
                Some(*d),
                if *op == crate::ptx::ir::BinOp::MulWide {
                    ty.bits * 2
                } else {
                    ty.bits
                },
            ),
            Inst::Mad { mode, ty, d, .. } => put(
                Some(*d),
                if *mode == crate::ptx::ir::MadMode::Wide {
                    ty.bits * 2
                } else {
                    ty.bits
                },
            ),
            Inst::Un { ty, d, .. } | Inst::Bfe { ty, d, .. } | Inst::Bfi { ty, d, .. } => {
                put(Some(*d), ty.bits)
            }
            Inst::Cvt { dty, d, .. } => put(Some(*d), dty.bits),
            Inst::Prmt { d, .. } | Inst::PendingCount { d, .. } | Inst::Getctarank { d, .. } => {
                put(Some(*d), 32)
            }
            Inst::Cvta { d, .. } | Inst::Mapa { d, .. } | Inst::Clock { d, .. } => {
                put(Some(*d), 64)
            }
            Inst::Pack { bits: b, d, parts } => put(Some(*d), b * parts.len() as u8),
            Inst::Unpack { bits: b, ds, .. } => {
                for d in ds {
                    put(*d, *b);
                }
            }
            Inst::Setp { p, q, .. } => {
                put(*p, 1);
                put(*q, 1);
            }
            Inst::Isspacep { d, .. } => put(Some(*d), 1),
            Inst::Ld { m, d } => {
                for x in d {
                    put(*x, m.ty.bits);
                }
            }
            Inst::Atom { ty, d, .. } => put(*d, ty.bits),
            Inst::AtomV { ty, per_reg, d, .. } => {
                for x in d {
                    put(*x, ty.bits * per_reg);
                }
            }
            Inst::Bar { d, dty, .. } => put(*d, dty.bits),
            Inst::Mbar { d, op, .. } => put(
                *d,
                if matches!(op, crate::ptx::ir::MbarI::Wait { .. }) {
                    1
                } else {
                    64
                },
            ),
            Inst::Warp { d, op, .. } => {
                put(*d, 32);
                match op {
                    crate::ptx::ir::WarpI::Elect { p } | crate::ptx::ir::WarpI::Shfl { p, .. } => {
                        put(*p, 1)
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    (bits, w)
}

/// The `(variable, offset, bits)` of every access whose address is a name (`[x+4]`).
pub(super) fn static_accesses(i: &crate::ptx::ir::Inst, out: &mut Vec<(usize, u32, u8)>) {
    use crate::ptx::ir::{Base, Inst};
    let mut add = |a: &crate::ptx::ir::Addr, bits: u8, n: usize| {
        if let Base::Var { var, .. } = a.base {
            for k in 0..n {
                let off = a.off + (k as i64) * (bits as i64 / 8);
                if let Ok(off) = u32::try_from(off) {
                    out.push((var as usize, off, bits));
                }
            }
        }
    };
    match i {
        Inst::Ld { m, d } => add(&m.addr, m.ty.bits, d.len()),
        Inst::St { m, v } => add(&m.addr, m.ty.bits, v.len()),
        Inst::Atom { ty, addr, .. } => add(addr, ty.bits, 1),
        Inst::AtomV {
            ty,
            per_reg,
            a,
            addr,
            ..
        } => add(addr, ty.bits, a.len() * *per_reg as usize),
        Inst::StAsync { ty, v, addr, .. } => add(addr, ty.bits, v.len()),
        _ => {}
    }
}

/// A condition term in format part 2: `P0:r0`, `P0:p1`, a literal, `x`, `x+4`, `x@1`, `x@1+4`.
#[allow(clippy::too_many_arguments)]
pub(super) fn modern_term(
    cx: &Ctx,
    raw: &Raw,
    t: &str,
    layout: &Layout,
    names: &HashMap<String, usize>,
    regs: &[Vec<crate::ptx::RegInfo>],
    written: &[Vec<bool>],
    inits: &[Vec<(u32, u64)>],
    progs: &[crate::ptx::Thread],
) -> Result<Term, Error> {
    let line = raw.cond_start + 1;
    if let Some(v) = crate::ptx::parse::parse_int(t) {
        if v < i64::MIN as i128 || v > u64::MAX as i128 {
            return Err(cx.err(line, format!("`{t}` does not fit 64 bits")));
        }
        return Ok(Term::Imm(v as i64));
    }
    if let Some((th, r)) = t.split_once(':') {
        let id = cond_thread(cx, line, t, th, regs.len())?;
        let name = crate::ptx::asm::canon_reg(r.trim());
        let idx = regs[id].iter().position(|x| x.name == name);
        return match idx {
            Some(i)
                if written[id].get(i).copied().unwrap_or(false)
                    || inits[id].iter().any(|x| x.0 as usize == i)
                    || raw.entries.iter().any(|(_, e)| {
                        e.split_once('=').is_some_and(|(l, _)| {
                            l.split_once(':').is_some_and(|(a, b)| {
                                parse_thread_id(a) == Some(id)
                                    && crate::ptx::asm::canon_reg(b.trim()) == name
                            })
                        })
                    }) =>
            {
                Ok(Term::Reg(id, i))
            }
            _ => Err(cx.err(
                line,
                format!("register {name} of P{id} in the condition is never initialised nor written by P{id}"),
            )),
        };
    }
    let s = t.trim_start_matches('[').trim_end_matches(']').trim();
    let (s, off) = match s.split_once('+') {
        Some((n, o)) => {
            let o = crate::ptx::parse::parse_int(o)
                .and_then(|o| u32::try_from(o).ok())
                .ok_or_else(|| cx.err(line, format!("expected a byte offset in `{t}`")))?;
            (n.trim(), o)
        }
        None => (s, 0),
    };
    let (name, cta) = match s.split_once('@') {
        Some((n, c)) => {
            let c = c
                .parse::<i64>()
                .map_err(|_| cx.err(line, format!("expected a cta number after `@` in `{t}`")))?;
            (n.trim(), Some(c))
        }
        None => (s, None),
    };
    let var = names
        .get(name)
        .copied()
        .or_else(|| layout.var(name))
        .ok_or_else(|| {
            if is_ident(name) {
                cx.err(
                    line,
                    format!("location `{name}` in the condition is not used by the test"),
                )
            } else {
                cx.err(
                    line,
                    format!("expected a register, location or integer, found `{t}`"),
                )
            }
        })?;
    let var = layout.vars[var].alias_of.unwrap_or(var);
    let v = &layout.vars[var];
    if off as u64 >= v.size as u64 {
        return Err(cx.err(
            line,
            format!("`{t}`: offset {off} is past `{name}` ({} bytes)", v.size),
        ));
    }
    let ctas: Vec<CtaRef> = {
        let mut c: Vec<(CtaRef, i64)> = progs
            .iter()
            .zip(&raw.threads)
            .map(|(p, th)| {
                let pl = p.geom().place;
                (
                    CtaRef {
                        gpu: pl.gpu,
                        cluster: pl.cluster,
                        cta: pl.cta,
                        rank: pl.rank,
                    },
                    th.place.cta,
                )
            })
            .filter(|(_, n)| cta.is_none_or(|c| c == *n))
            .collect();
        c.sort_by_key(|x| (x.0.gpu, x.0.cta));
        c.dedup();
        c.into_iter().map(|x| x.0).collect()
    };
    let cta = match (v.shared, cta) {
        (false, None) => None,
        (false, Some(_)) => {
            return Err(cx.err(line, format!("`{t}`: `{name}` is global: it has no per-CTA copies")))
        }
        (true, _) => match ctas.as_slice() {
            [c] => Some(*c),
            [] => return Err(cx.err(line, format!("`{t}`: no thread of the test runs in that CTA"))),
            _ => {
                return Err(cx.err(
                    line,
                    format!("`{t}`: several CTAs have a copy of `{name}`: name one (`{name}@N`, N a cta number of one CTA)"),
                ))
            }
        },
    };
    Ok(Term::Mem(MemTerm { var, cta, off }))
}

/// FORMAT part 2: a literal compared with a w-bit term must fit the signed or the unsigned
/// w-bit range.
pub(super) fn check_literals(cx: &Ctx, t: &mut Test) -> Result<(), Error> {
    let mut stack = vec![&t.prop];
    while let Some(p) = stack.pop() {
        match p {
            Prop::Cmp(_, a, b) => {
                for (lit, other) in [(a, b), (b, a)] {
                    if let (Term::Imm(v), Some(w)) = (lit, t.term_bits(other)) {
                        if w < 64 {
                            let (lo, hi) = (-(1i128 << (w - 1)), (1i128 << w) - 1);
                            if (*v as i128) < lo || (*v as i128) > hi {
                                return Err(cx.err(
                                    t.condition_line,
                                    format!(
                                        "{v} does not fit the {w}-bit term `{}` (neither its signed nor its unsigned range)",
                                        t.term_name(other)
                                    ),
                                ));
                            }
                        }
                    }
                }
            }
            Prop::Not(q) => stack.push(q),
            Prop::And(a, b) | Prop::Or(a, b) => {
                stack.push(a);
                stack.push(b);
            }
            Prop::True | Prop::False => {}
        }
    }
    Ok(())
}
