//! The litmus parser (format: `model/FORMAT.md`). Every error carries `file:line` and says what
//! was expected; anything the model cannot express is an [`ErrorKind::Unsupported`], never a guess.

use crate::ast::*;
use crate::engine::op::{Layout, Place as EPlace, TensorMap};
use crate::ptx::asm::Asm;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// Why a file was not decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The text is not a litmus test of the format (exit code 2).
    Parse,
    /// The text is well formed but uses something the model does not express (exit code 3).
    Unsupported,
}

/// A parse error or an unsupported construct, with its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Parse error or unsupported.
    pub kind: ErrorKind,
    /// The file.
    pub file: String,
    /// 1-based line (0 when the file as a whole is at fault).
    pub line: usize,
    /// What is wrong / what was expected.
    pub msg: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ErrorKind::Parse if self.line == 0 => write!(f, "{}: {}", self.file, self.msg),
            ErrorKind::Parse => write!(f, "{}:{}: {}", self.file, self.line, self.msg),
            ErrorKind::Unsupported if self.line == 0 => {
                write!(f, "unsupported: {} ({})", self.msg, self.file)
            }
            ErrorKind::Unsupported => {
                write!(f, "unsupported: {} ({}:{})", self.msg, self.file, self.line)
            }
        }
    }
}

impl std::error::Error for Error {}

struct Ctx<'a> {
    file: &'a str,
}

impl Ctx<'_> {
    fn err(&self, line: usize, msg: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Parse,
            file: self.file.to_string(),
            line,
            msg: msg.into(),
        }
    }
    fn unsupported(&self, line: usize, msg: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Unsupported,
            file: self.file.to_string(),
            line,
            msg: msg.into(),
        }
    }
}

/// Removes `(* ... *)` comments, keeping newlines so that line numbers stay right.
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let b: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut depth = 0;
    let mut in_str = false;
    while i < b.len() {
        if depth == 0 && b[i] == '"' {
            in_str = !in_str;
            out.push(b[i]);
            i += 1;
            continue;
        }
        if !in_str && i + 1 < b.len() && b[i] == '(' && b[i + 1] == '*' {
            depth += 1;
            out.push_str("  ");
            i += 2;
            continue;
        }
        if depth > 0 && i + 1 < b.len() && b[i] == '*' && b[i + 1] == ')' {
            depth -= 1;
            out.push_str("  ");
            i += 2;
            continue;
        }
        if depth > 0 {
            out.push(if b[i] == '\n' { '\n' } else { ' ' });
        } else {
            out.push(b[i]);
        }
        i += 1;
    }
    out
}

/// Parses one litmus test. `file` names it in messages.
///
/// Both format parts: a test in format part 1 gets its part-1 program `code` (from which
/// `ptx-sync litmus FILE` generates a GPU kernel) and the engine's threads (`prog`); a test that
/// needs format part 2 gets the engine's threads and a [`Test::legacy`] error (the GPU generator
/// reads part 1 only).
pub fn parse(text: &str, file: &str) -> Result<Test, Error> {
    let cx = Ctx { file };
    let raw = scan(&cx, text)?;
    let part2 = raw.entries.iter().find(|(_, e)| is_part2_decl(e)).cloned();
    let old = match &part2 {
        Some((ln, e)) => Err(cx.unsupported(
            *ln,
            format!("`{e}` is format part 2 (the enumerating checker reads format part 1)"),
        )),
        None => legacy(&cx, &raw),
    };
    let new = modern(&cx, &raw, old.as_ref().ok());
    let mut t = match (old, new) {
        (Ok(mut t), Ok(m)) => {
            m.attach(&mut t);
            t
        }
        // The instruction parser is the stricter reader of the ISA: what it rejects as
        // malformed is bad input for both.
        (Ok(_), Err(e)) if e.kind == ErrorKind::Parse => return Err(e),
        (Ok(mut t), Err(e)) => {
            t.engine = Some(e);
            return Ok(t);
        }
        // A source register nothing writes or initialises is a mistake in either reading.
        (Err(e), Ok(_)) if part2.is_none() && e.msg.contains("never initialised") => return Err(e),
        (Err(e), Ok(m)) => {
            let mut t = m.into_test(&cx, &raw);
            t.legacy = Some(e);
            t
        }
        (Err(eo), Err(en)) => return Err(if part2.is_some() { en } else { eo }),
    };
    check_literals(&cx, &mut t)?;
    Ok(t)
}

/// Splits an instruction row at its column bars. A `|` with no space on either side belongs to
/// an instruction (`setp.eq.s32 p|q, …`, `elect.sync r|p, …`): columns are ` | `-separated.
fn split_columns(row: &str) -> Vec<&str> {
    column_spans(row)
        .into_iter()
        .map(|(a, b)| &row[a..b])
        .collect()
}

/// The byte ranges of [`split_columns`]' columns (`ptx_sync_model::advise` rewrites one cell).
pub(crate) fn column_spans(row: &str) -> Vec<(usize, usize)> {
    let b = row.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &c) in b.iter().enumerate() {
        if c == b'|' {
            let glued = i > 0
                && i + 1 < b.len()
                && !b[i - 1].is_ascii_whitespace()
                && !b[i + 1].is_ascii_whitespace();
            if !glued {
                out.push((start, i));
                start = i + 1;
            }
        }
    }
    out.push((start, row.len()));
    out
}

/// Whether an init-block entry is a format part 2 declaration.
fn is_part2_decl(e: &str) -> bool {
    let e = e.trim();
    e.starts_with("shared ")
        || e == "shared"
        || e.split_once('=').map_or(e, |x| x.0).contains('[')
        || e.split_once('@')
            .is_some_and(|(_, r)| r.trim_start().starts_with("tensormap"))
}

/// The engine's reading of a test (format parts 1 and 2): its layout, its threads.
struct Modern {
    layout: Arc<Layout>,
    /// Extra names of variables (surface/texture/constant aliases).
    names: HashMap<String, usize>,
    progs: Vec<crate::ptx::Thread>,
    regs: Vec<Vec<String>>,
    inits: Vec<Vec<(u32, u64)>>,
    reg_bits: Vec<Vec<u8>>,
    mem_widths: Vec<(usize, u32, u8)>,
    cond: Option<Cond>,
}

impl Modern {
    /// Adds the engine's parts to a format-part-1 test.
    fn attach(self, t: &mut Test) {
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
    fn into_test(self, cx: &Ctx, raw: &Raw) -> Test {
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
            name: raw.name.clone(),
            file: cx.file.to_string(),
            comments: raw.comments.clone(),
            names: Vec::new(),
            n_vaddr: 0,
            phys: Vec::new(),
            threads,
            quantifier: cond.quantifier,
            prop: cond.prop,
            condition_text: cond.text,
            observed: cond.observed,
            condition_line: cond.line,
            layout: (*self.layout).clone(),
            loc_var: Vec::new(),
            legacy: None,
            engine: None,
            reg_bits: self.reg_bits,
            mem_widths: self.mem_widths,
            unroll: DEFAULT_UNROLL,
        }
    }
}

/// The unroll bound a litmus thread is built with (`--unroll`'s default, SEMANTICS S6);
/// [`crate::ptx::Thread::set_unroll`] changes it.
pub const DEFAULT_UNROLL: u32 = 4;

/// Parses a format part 2 integer that must fit 64 bits (signed or unsigned): its bits.
fn int64(s: &str) -> Option<u64> {
    let v = crate::ptx::parse::parse_int(s)?;
    (v >= i64::MIN as i128 && v <= u64::MAX as i128).then_some(v as i64 as u64)
}

/// The engine's reading: declarations → layout, placement → places, cells → threads.
fn modern(cx: &Ctx, raw: &Raw, old: Option<&Test>) -> Result<Modern, Error> {
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

/// One init-block entry into the layout (format parts 1 and 2).
fn declare(
    cx: &Ctx,
    ln: usize,
    e: &str,
    nthreads: usize,
    layout: &mut Layout,
    names: &mut HashMap<String, usize>,
    reg_inits: &mut Vec<(usize, String, u64)>,
) -> Result<(), Error> {
    let taken = |layout: &Layout, names: &HashMap<String, usize>, n: &str| {
        layout.var(n).is_some() || names.contains_key(n)
    };
    let target = |layout: &mut Layout, names: &HashMap<String, usize>, n: &str| -> usize {
        match names.get(n).copied().or_else(|| layout.var(n)) {
            Some(v) => v,
            None => layout.add(n, false, 8, vec![]),
        }
    };
    if let Some((lhs, rhs)) = e.split_once('@') {
        let lhs = lhs.trim();
        let rhs = rhs.trim();
        if !is_ident(lhs) {
            return Err(cx.err(ln, format!("expected a name before `@`, found `{lhs}`")));
        }
        if taken(layout, names, lhs) {
            return Err(cx.err(ln, format!("`{lhs}` is declared twice")));
        }
        if let Some(spec) = rhs.strip_prefix("tensormap") {
            return tensormap(cx, ln, lhs, spec, layout, names);
        }
        let w: Vec<&str> = rhs.split_whitespace().collect();
        if w.len() != 3 || w[1] != "aliases" || !is_ident(w[2]) {
            return Err(cx.err(
                ln,
                format!(
                    "expected `NAME @ PROXY aliases NAME` or `NAME @ tensormap …`, found `{e}`"
                ),
            ));
        }
        let of = target(layout, names, w[2]);
        let of = layout.vars[of].alias_of.unwrap_or(of);
        match w[0] {
            "generic" => {
                layout.add_alias(lhs, of);
            }
            "surface" | "texture" | "constant" => {
                names.insert(lhs.to_string(), of);
            }
            other => {
                return Err(cx.err(
                    ln,
                    format!("expected generic, surface, texture or constant, found `{other}`"),
                ))
            }
        }
        return Ok(());
    }
    let (shared, body) = match e.strip_prefix("shared") {
        Some(r) if r.starts_with(char::is_whitespace) => (true, r.trim()),
        _ => (false, e.trim()),
    };
    let (lhs, rhs) = match body.split_once('=') {
        Some((l, r)) => (l.trim(), Some(r.trim())),
        None => (body, None),
    };
    if !shared {
        if let Some((th, reg)) = lhs.split_once(':') {
            let id = parse_thread_id(th)
                .filter(|&i| i < nthreads)
                .ok_or_else(|| {
                    cx.err(
                        ln,
                        format!(
                            "expected a thread `P0`…`P{}` before `:`, found `{th}`",
                            nthreads.saturating_sub(1)
                        ),
                    )
                })?;
            let reg = reg.trim();
            if !crate::ptx::parse::is_ident(reg) {
                return Err(cx.err(ln, format!("expected a register name, found `{reg}`")));
            }
            let v = rhs
                .and_then(int64)
                .ok_or_else(|| cx.err(ln, format!("expected a 64-bit integer value in `{e}`")))?;
            reg_inits.push((id, crate::ptx::asm::canon_reg(reg), v));
            return Ok(());
        }
    }
    let (name, size) = match lhs.split_once('[') {
        Some((n, sz)) => {
            let sz = sz
                .strip_suffix(']')
                .and_then(|x| x.trim().parse::<u32>().ok());
            match sz {
                Some(s) if s >= 1 => (n.trim(), Some(s)),
                _ => {
                    return Err(cx.err(
                        ln,
                        format!("expected an array `{}[N]` with N ≥ 1", n.trim()),
                    ))
                }
            }
        }
        None => (lhs, None),
    };
    if !is_ident(name) {
        return Err(cx.err(ln, format!("expected a location name, found `{name}`")));
    }
    if taken(layout, names, name) {
        return Err(cx.err(ln, format!("`{name}` is declared twice")));
    }
    let init: Vec<u8> = match (size, rhs) {
        (None, Some(v)) => int64(v)
            .ok_or_else(|| {
                if is_ident(v.trim_start_matches('&')) {
                    cx.unsupported(ln, format!("a location holding an address (`{e}`)"))
                } else {
                    cx.err(ln, format!("expected a 64-bit integer, found `{v}`"))
                }
            })?
            .to_le_bytes()
            .to_vec(),
        (None, None) => vec![],
        (Some(sz), Some(v)) => {
            let inner = v
                .strip_prefix('{')
                .and_then(|x| x.strip_suffix('}'))
                .ok_or_else(|| cx.err(ln, format!("expected `{{v0, v1, …}}`, found `{v}`")))?;
            let words: Vec<&str> = inner
                .split(',')
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .collect();
            if words.len() as u64 * 4 > (sz as u64).div_ceil(4) * 4 {
                return Err(cx.err(
                    ln,
                    format!(
                        "`{name}[{sz}]` holds {} 32-bit words, {} given",
                        sz.div_ceil(4),
                        words.len()
                    ),
                ));
            }
            let mut b = Vec::new();
            for w in words {
                let x = crate::ptx::parse::parse_int(w)
                    .filter(|x| *x >= i32::MIN as i128 && *x <= u32::MAX as i128)
                    .ok_or_else(|| {
                        cx.err(
                            ln,
                            format!("`{w}` is not a 32-bit integer (array words are 32 bits)"),
                        )
                    })?;
                b.extend_from_slice(&(x as i64 as u32).to_le_bytes());
            }
            b.truncate(sz as usize);
            b
        }
        (Some(_), None) => vec![],
    };
    layout.add(name, shared, size.unwrap_or(8), init);
    Ok(())
}

/// `t @ tensormap x, .b32, {W[, H]}, {BW[, BH]}`.
fn tensormap(
    cx: &Ctx,
    ln: usize,
    name: &str,
    spec: &str,
    layout: &mut Layout,
    names: &HashMap<String, usize>,
) -> Result<(), Error> {
    let bad = || {
        cx.err(
            ln,
            format!(
                "expected `{name} @ tensormap x, .b32, {{W}}, {{B}}` or `… {{W, H}}, {{BW, BH}}`"
            ),
        )
    };
    let parts = crate::ptx::parse::split_operands(spec.trim()).map_err(|_| bad())?;
    if parts.len() != 4 {
        return Err(bad());
    }
    let data = names
        .get(&parts[0])
        .copied()
        .or_else(|| layout.var(&parts[0]))
        .ok_or_else(|| {
            cx.err(
                ln,
                format!("`{}` is not declared (declare the array first)", parts[0]),
            )
        })?;
    if layout.vars[data].shared {
        return Err(cx.err(
            ln,
            format!(
                "`{}` is shared: a tensor map describes global memory",
                parts[0]
            ),
        ));
    }
    if parts[1] != ".b32" {
        return Err(cx.unsupported(
            ln,
            format!("tensor element type `{}` (.b32 is modelled)", parts[1]),
        ));
    }
    let list = |s: &str| -> Result<Vec<u32>, Error> {
        let inner = s
            .strip_prefix('{')
            .and_then(|x| x.strip_suffix('}'))
            .ok_or_else(bad)?;
        inner
            .split(',')
            .map(|x| {
                x.trim()
                    .parse::<u32>()
                    .ok()
                    .filter(|v| *v >= 1)
                    .ok_or_else(bad)
            })
            .collect()
    };
    let dims = list(&parts[2])?;
    let boxdim = list(&parts[3])?;
    if dims.len() != boxdim.len() || dims.is_empty() || dims.len() > 2 {
        return Err(bad());
    }
    let elems: u64 = dims.iter().map(|d| *d as u64).product();
    if elems * 4 > layout.vars[data].size as u64 {
        return Err(cx.err(
            ln,
            format!(
                "`{}` has {} bytes, the tensor needs {}",
                parts[0],
                layout.vars[data].size,
                elems * 4
            ),
        ));
    }
    let var = layout.add(name, false, 128, vec![]);
    layout.tmaps.push(TensorMap {
        var,
        data,
        elem: 4,
        dims,
        boxdim,
    });
    Ok(())
}

/// The engine's place and geometry of each thread (FORMAT part 2 "Clusters"): a CTA's rank is
/// the position of its `cta` number among its cluster's; each litmus thread stands for a warp
/// (lane 0) of its CTA. Special registers: `%tid.x` = 32 × the thread's position in its CTA,
/// `%ntid.x` = 32 × the CTA's threads, `%ctaid.x` = the CTA's index on its GPU,
/// `%cluster_ctaid.x` = its rank, `%cluster_nctaid.x` = its cluster's CTA count.
fn places(cx: &Ctx, raw: &Raw) -> Result<Vec<crate::ptx::Geom>, Error> {
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

/// Whether an instruction's mnemonic names a type (`add.u32`) rather than being a litmus
/// untyped form (`add`).
fn typed(text: &str) -> bool {
    let t = text.trim();
    let t = if t.starts_with('@') {
        t.split_once(char::is_whitespace).map_or("", |x| x.1.trim())
    } else {
        t
    };
    let m = t.split(char::is_whitespace).next().unwrap_or("");
    m.split('.').skip(1).any(|q| {
        matches!(
            q,
            "b8" | "b16"
                | "b32"
                | "b64"
                | "u8"
                | "u16"
                | "u32"
                | "u64"
                | "s8"
                | "s16"
                | "s32"
                | "s64"
                | "f32"
                | "f64"
                | "pred"
        )
    })
}

/// Each register's condition width (FORMAT part 2: the widest type that writes it; 32 when only
/// 32-bit or untyped instructions write it) and whether the thread writes it.
fn reg_widths(
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
            Inst::Ld { ty, d, .. } => {
                for x in d {
                    put(*x, ty.bits);
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
fn static_accesses(i: &crate::ptx::ir::Inst, out: &mut Vec<(usize, u32, u8)>) {
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
        Inst::Ld { ty, d, addr, .. } => add(addr, ty.bits, d.len()),
        Inst::St { ty, v, addr, .. } => add(addr, ty.bits, v.len()),
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
fn modern_term(
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
        let id = parse_thread_id(th).ok_or_else(|| {
            cx.err(
                line,
                format!("expected `P0:r0` in the condition, found `{t}`"),
            )
        })?;
        if id >= regs.len() {
            return Err(cx.err(line, format!("`{t}`: the test has no thread P{id}")));
        }
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
fn check_literals(cx: &Ctx, t: &mut Test) -> Result<(), Error> {
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

/// A test's text cut into its parts, before any name is resolved.
struct Raw {
    name: String,
    comments: Vec<String>,
    /// Init-block entries `(line, text)`.
    entries: Vec<(usize, String)>,
    /// The threads of the placement row (no registers or code yet).
    threads: Vec<Thread>,
    /// Each thread's cells `(line, text)`.
    cells: Vec<Vec<(usize, String)>>,
    /// The lines of the text (comments blanked).
    lines: Vec<String>,
    /// Index in `lines` of the final condition's first line.
    cond_start: usize,
}

/// Cuts a test into its parts.
fn scan(cx: &Ctx, text: &str) -> Result<Raw, Error> {
    let text = strip_comments(text);
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    let skip_blank = |i: &mut usize| {
        while *i < lines.len() && lines[*i].trim().is_empty() {
            *i += 1;
        }
    };
    skip_blank(&mut i);
    if i >= lines.len() {
        return Err(cx.err(0, "empty file: expected `PTX NAME`"));
    }
    let head: Vec<&str> = lines[i].split_whitespace().collect();
    if head.is_empty() || !head[0].eq_ignore_ascii_case("PTX") {
        return Err(cx.err(
            i + 1,
            format!(
                "expected `PTX NAME` as the first line, found `{}`",
                lines[i].trim()
            ),
        ));
    }
    if head.len() < 2 {
        return Err(cx.err(i + 1, "expected a test name after `PTX`"));
    }
    let name = head[1..].join(" ");
    i += 1;

    // Comment strings (possibly spanning lines).
    let mut comments = Vec::new();
    loop {
        skip_blank(&mut i);
        if i >= lines.len() {
            return Err(cx.err(lines.len(), "file ends before the init block `{ ... }`"));
        }
        let t = lines[i].trim_start();
        if !t.starts_with('"') {
            break;
        }
        let start = i;
        let mut s = String::new();
        // A string ends at a line ending with `"` that is followed by another string or the
        // init block: a quote inside the text (as other tools' files have) does not end it.
        let ends_here = |k: usize, first: bool| -> bool {
            let l = lines[k].trim_end();
            let closes = if first {
                l.trim_start().len() >= 2 && l.ends_with('"')
            } else {
                l.ends_with('"')
            };
            if !closes {
                return false;
            }
            let mut j = k + 1;
            while j < lines.len() && lines[j].trim().is_empty() {
                j += 1;
            }
            j >= lines.len()
                || (lines[j].trim_start().starts_with('"') && lines[j].trim() != "\"")
                || lines[j].trim_start().starts_with('{')
        };
        let mut k = i;
        loop {
            if k >= lines.len() {
                return Err(cx.err(start + 1, "unterminated comment string (missing `\"`)"));
            }
            let l = lines[k].trim();
            let l = if k == start { &l[1..] } else { l };
            if ends_here(k, k == start) {
                s.push_str(&l[..l.len() - 1]);
                break;
            }
            s.push_str(l);
            s.push(' ');
            k += 1;
        }
        i = k;
        comments.push(s.split_whitespace().collect::<Vec<_>>().join(" "));
        i += 1;
    }

    // Init block: entries separated by `;` at brace depth 1, until the matching `}` (entries
    // such as `x[8]={1, 2}` and tensor maps hold braces of their own).
    let init_line = i + 1;
    let t = lines[i].trim_start();
    if !t.starts_with('{') {
        return Err(cx.err(
            i + 1,
            format!("expected the init block `{{`, found `{}`", t.trim()),
        ));
    }
    let mut entries_pos: Vec<(usize, String)> = Vec::new();
    let mut depth = 1usize;
    let mut cur = String::new();
    let mut cur_line = i + 1;
    let mut closed = false;
    let mut first = true;
    while i < lines.len() {
        let l = if first { &t[1..] } else { lines[i] };
        first = false;
        for (k, c) in l.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        if !cur.trim().is_empty() {
                            entries_pos.push((cur_line, cur.trim().to_string()));
                        }
                        let after = l[k + 1..].trim().trim_start_matches(';').trim();
                        if !after.is_empty() {
                            return Err(cx.err(i + 1, "expected a line break after `}`"));
                        }
                        closed = true;
                        break;
                    }
                }
                ';' if depth == 1 => {
                    if !cur.trim().is_empty() {
                        entries_pos.push((cur_line, cur.trim().to_string()));
                    }
                    cur.clear();
                    continue;
                }
                _ => {}
            }
            if cur.trim().is_empty() && !c.is_whitespace() {
                cur_line = i + 1;
            }
            cur.push(c);
        }
        i += 1;
        if closed {
            break;
        }
        cur.push(' ');
    }
    if !closed {
        return Err(cx.err(init_line, "unterminated init block: expected `}`"));
    }

    // Thread placement row.
    skip_blank(&mut i);
    if i >= lines.len() {
        return Err(cx.err(
            lines.len(),
            "file ends before the thread row `P0@cta 0,gpu 0 | ...;`",
        ));
    }
    let prow = lines[i].trim();
    let prow_line = i + 1;
    let prow = prow
        .strip_suffix(';')
        .ok_or_else(|| cx.err(prow_line, "expected `;` at the end of the thread row"))?;
    let mut threads: Vec<Thread> = Vec::new();
    for cell in prow.split('|') {
        let cell = cell.trim();
        let (pid, place) = cell.split_once('@').ok_or_else(|| {
            cx.err(
                prow_line,
                format!("expected `P0@cta 0,gpu 0` in the thread row, found `{cell}`"),
            )
        })?;
        let id = parse_thread_id(pid.trim()).ok_or_else(|| {
            cx.err(
                prow_line,
                format!("expected a thread name `P0`, found `{pid}`"),
            )
        })?;
        if id != threads.len() {
            return Err(cx.err(
                prow_line,
                format!("threads must be P0, P1, ... in order; found P{id}"),
            ));
        }
        let mut gpu = None;
        let mut cluster = None;
        let mut cta = None;
        for lv in place.split(',') {
            let w: Vec<&str> = lv.split_whitespace().collect();
            if w.len() != 2 {
                return Err(cx.err(
                    prow_line,
                    format!(
                        "expected `cta N`, `cluster N` or `gpu N`, found `{}`",
                        lv.trim()
                    ),
                ));
            }
            let n = parse_int(w[1])
                .ok_or_else(|| cx.err(prow_line, format!("expected a number after `{}`", w[0])))?;
            let slot = match w[0] {
                "cta" => &mut cta,
                "cluster" => &mut cluster,
                "gpu" => &mut gpu,
                other => {
                    return Err(cx.err(
                        prow_line,
                        format!("expected cta, cluster or gpu, found `{other}`"),
                    ))
                }
            };
            if slot.replace(n).is_some() {
                return Err(cx.err(prow_line, format!("`{}` given twice for P{id}", w[0])));
            }
        }
        let cta = cta.ok_or_else(|| cx.err(prow_line, format!("P{id} has no `cta N`")))?;
        let place = Place {
            gpu: gpu.unwrap_or(0),
            // Without clusters every CTA is its own cluster (a 1x1x1 cluster).
            cluster: cluster.unwrap_or(cta),
            cta,
        };
        threads.push(Thread {
            id,
            place,
            regs: Vec::new(),
            init: Vec::new(),
            code: Vec::new(),
            prog: None,
        });
    }
    if threads.is_empty() {
        return Err(cx.err(prow_line, "expected at least one thread"));
    }
    i += 1;

    // Instruction rows.
    let mut cells: Vec<Vec<(usize, String)>> = vec![Vec::new(); threads.len()];
    let cond_start;
    loop {
        if i >= lines.len() {
            return Err(cx.err(
                lines.len(),
                "file ends before the final condition: expected `exists`, `~exists` or `forall`",
            ));
        }
        let t = lines[i].trim();
        if t.is_empty() {
            i += 1;
            continue;
        }
        if is_condition_start(t) {
            cond_start = i;
            break;
        }
        let row = t
            .strip_suffix(';')
            .ok_or_else(|| cx.err(i + 1, "expected `;` at the end of the instruction row"))?;
        let parts = split_columns(row);
        if parts.len() > threads.len() {
            return Err(cx.err(
                i + 1,
                format!(
                    "row has {} columns but the test has {} threads",
                    parts.len(),
                    threads.len()
                ),
            ));
        }
        for (k, p) in parts.iter().enumerate() {
            let p = p.trim();
            if !p.is_empty() {
                cells[k].push((i + 1, p.to_string()));
            }
        }
        i += 1;
    }

    Ok(Raw {
        name,
        comments,
        entries: entries_pos,
        threads,
        cells,
        lines: lines.iter().map(|l| l.to_string()).collect(),
        cond_start,
    })
}

/// The format-part-1 reading (the enumerating checker's `code`, `names`, `phys`).
fn legacy(cx: &Ctx, raw: &Raw) -> Result<Test, Error> {
    let entries_pos = &raw.entries;
    let mut threads = raw.threads.clone();
    let cells = &raw.cells;
    // Locations and aliases from the init block; registers kept for later.
    let mut b = Builder::default();
    let mut reg_inits: Vec<(usize, String, String, i64)> = Vec::new(); // (line, thread, reg, value)
    for (ln, e) in entries_pos {
        if let Some((lhs, rhs)) = e.split_once('@') {
            let lhs = lhs.trim();
            let w: Vec<&str> = rhs.split_whitespace().collect();
            if w.len() != 3 || w[1] != "aliases" {
                return Err(cx.err(
                    *ln,
                    format!("expected `NAME @ PROXY aliases NAME`, found `{e}`"),
                ));
            }
            let proxy = match w[0] {
                "generic" => Proxy::Generic,
                "surface" => Proxy::Surface,
                "texture" => Proxy::Texture,
                "constant" => Proxy::Constant,
                other => {
                    return Err(cx.err(
                        *ln,
                        format!("expected generic, surface, texture or constant, found `{other}`"),
                    ))
                }
            };
            if !is_ident(lhs) || !is_ident(w[2]) {
                return Err(cx.err(*ln, format!("expected location names in `{e}`")));
            }
            if b.names.contains_key(lhs) {
                return Err(cx.err(*ln, format!("`{lhs}` is declared twice")));
            }
            let target = b.loc(w[2]);
            let phys = target.phys;
            let vaddr = if proxy == Proxy::Generic {
                b.n_vaddr += 1;
                b.n_vaddr - 1
            } else {
                target.vaddr
            };
            b.names.insert(
                lhs.to_string(),
                Name {
                    name: lhs.to_string(),
                    vaddr,
                    phys,
                },
            );
            b.order.push(lhs.to_string());
            continue;
        }
        let Some((lhs, rhs)) = e.split_once('=') else {
            return Err(cx.err(
                *ln,
                format!("expected `x=0;`, `P0:r0=0;` or `y @ generic aliases x;`, found `{e}`"),
            ));
        };
        let lhs = lhs.trim();
        let rhs = rhs.trim();
        if let Some((th, reg)) = lhs.split_once(':') {
            let v = parse_int(rhs).ok_or_else(|| {
                if is_ident(rhs.trim_start_matches('&')) {
                    cx.unsupported(*ln, format!("a register holding an address (`{e}`)"))
                } else {
                    cx.err(*ln, format!("expected an integer, found `{rhs}`"))
                }
            })?;
            reg_inits.push((*ln, th.trim().to_string(), reg.trim().to_string(), v));
        } else {
            if !is_ident(lhs) {
                return Err(cx.err(*ln, format!("expected a location name, found `{lhs}`")));
            }
            let v = parse_int(rhs).ok_or_else(|| {
                if is_ident(rhs.trim_start_matches('&')) {
                    cx.unsupported(*ln, format!("a location holding an address (`{e}`)"))
                } else {
                    cx.err(*ln, format!("expected an integer, found `{rhs}`"))
                }
            })?;
            let n = b.loc(lhs);
            b.phys[n.phys].1 = v;
        }
    }

    // Register tables: declared registers first, then destinations.
    let mut reg_maps: Vec<HashMap<String, usize>> = vec![HashMap::new(); threads.len()];
    for (ln, th, reg, v) in &reg_inits {
        let id = parse_thread_id(th).ok_or_else(|| {
            cx.err(
                *ln,
                format!("expected a thread `P0` before `:`, found `{th}`"),
            )
        })?;
        if id >= threads.len() {
            return Err(cx.err(
                *ln,
                format!(
                    "register of P{id}, but the test has {} threads",
                    threads.len()
                ),
            ));
        }
        let r = norm_reg(reg)
            .ok_or_else(|| cx.err(*ln, format!("expected a register `r0`, found `{reg}`")))?;
        let idx = reg_index(&mut reg_maps[id], &mut threads[id], &r);
        threads[id].init[idx] = *v;
    }
    let mut written: Vec<Vec<bool>> = Vec::new();
    for (k, th_cells) in cells.iter().enumerate() {
        // Labels first (forward branches).
        let mut labels: HashMap<String, usize> = HashMap::new();
        for (n, (ln, c)) in th_cells.iter().enumerate() {
            if let Some(l) = c.strip_suffix(':') {
                let l = l.trim();
                if !is_ident(l) {
                    return Err(cx.err(*ln, format!("expected a label name, found `{l}`")));
                }
                if labels.insert(l.to_string(), n).is_some() {
                    return Err(cx.err(*ln, format!("label `{l}` defined twice in P{k}")));
                }
            }
        }
        let mut code = Vec::new();
        for (ln, c) in th_cells {
            let instr = parse_instr(
                cx,
                *ln,
                c,
                &mut b,
                &labels,
                &mut reg_maps[k],
                &mut threads[k],
            )?;
            code.push(Line {
                instr,
                line: *ln,
                text: c.clone(),
            });
        }
        threads[k].code = code;
        // Which registers are written by the thread (for the undeclared-register check).
        let mut w = vec![false; threads[k].regs.len()];
        for l in &threads[k].code {
            if let Some(d) = dst_of(&l.instr) {
                w[d] = true;
            }
        }
        written.push(w);
    }
    // A source register must be initialised in the init block or written by the thread.
    for (k, th) in threads.iter().enumerate() {
        let declared: Vec<bool> = (0..th.regs.len())
            .map(|r| {
                reg_inits.iter().any(|(_, t, reg, _)| {
                    parse_thread_id(t) == Some(k)
                        && norm_reg(reg).as_deref() == Some(th.regs[r].as_str())
                })
            })
            .collect();
        for l in &th.code {
            for r in srcs_of(&l.instr) {
                if !declared[r] && !written[k].get(r).copied().unwrap_or(false) {
                    return Err(cx.err(
                        l.line,
                        format!(
                            "register {} of P{} is read but never initialised (add `P{}:{}=0;` to the init block) nor written",
                            th.regs[r], k, k, th.regs[r]
                        ),
                    ));
                }
            }
        }
    }

    let mut resolve = |t: &str| {
        parse_term(
            cx,
            raw.cond_start + 1,
            t,
            &b,
            &threads,
            &reg_maps,
            &written,
            &reg_inits,
        )
    };
    let cond = condition(cx, raw, &mut resolve)?;
    let mut names: Vec<Name> = b.order.iter().map(|n| b.names[n].clone()).collect();
    names.sort_by_key(|n| (n.phys, n.vaddr));
    Ok(Test {
        name: raw.name.clone(),
        file: cx.file.to_string(),
        comments: raw.comments.clone(),
        names,
        n_vaddr: b.n_vaddr,
        phys: b.phys,
        threads,
        quantifier: cond.quantifier,
        prop: cond.prop,
        condition_text: cond.text,
        observed: cond.observed,
        condition_line: cond.line,
        layout: Default::default(),
        loc_var: Vec::new(),
        legacy: None,
        engine: None,
        reg_bits: Vec::new(),
        mem_widths: Vec::new(),
        unroll: DEFAULT_UNROLL,
    })
}

/// The final condition, parsed.
struct Cond {
    quantifier: Quantifier,
    prop: Prop,
    text: String,
    observed: Vec<Term>,
    line: usize,
}

/// Parses the final condition (`locations […]` and the quantified proposition); `resolve`
/// turns a term's text into a [`Term`].
fn condition(
    cx: &Ctx,
    raw: &Raw,
    resolve: &mut dyn FnMut(&str) -> Result<Term, Error>,
) -> Result<Cond, Error> {
    let cond_start = raw.cond_start;
    let lines = &raw.lines;
    // Final condition (may span lines).
    let cond_line = cond_start + 1;
    let mut ctext = String::new();
    for l in &lines[cond_start..] {
        ctext.push_str(l.trim());
        ctext.push(' ');
    }
    // `P3: r0` is `P3:r0`
    let mut ctext = ctext.trim().to_string();
    while let Some(p) = ctext.find(": ") {
        ctext.replace_range(p..p + 2, ":");
    }
    let mut observed = Vec::new();
    let mut rest = ctext.as_str();
    if let Some(r) = rest.strip_prefix("locations") {
        let r = r.trim_start();
        let r = r
            .strip_prefix('[')
            .ok_or_else(|| cx.err(cond_line, "expected `[` after `locations`"))?;
        let end = r
            .find(']')
            .ok_or_else(|| cx.err(cond_line, "expected `]` to close `locations [...]`"))?;
        for item in r[..end].split(';') {
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            let t = resolve(item)?;
            observed.push(t);
        }
        rest = r[end + 1..].trim_start();
    }
    if rest.starts_with("filter") {
        return Err(cx.unsupported(cond_line, "`filter` conditions"));
    }
    let (quantifier, body) = if let Some(r) = rest
        .strip_prefix("~exists")
        .or_else(|| rest.strip_prefix("~ exists"))
    {
        (Quantifier::NotExists, r)
    } else if let Some(r) = rest.strip_prefix("not exists") {
        (Quantifier::NotExists, r)
    } else if let Some(r) = rest.strip_prefix("exists") {
        (Quantifier::Exists, r)
    } else if let Some(r) = rest.strip_prefix("forall") {
        (Quantifier::Forall, r)
    } else if rest.starts_with("final") {
        return Err(cx.unsupported(cond_line, "`final ... with` conditions"));
    } else {
        return Err(cx.err(
            cond_line,
            format!(
                "expected `exists`, `~exists` or `forall`, found `{}`",
                first_word(rest)
            ),
        ));
    };
    let body = body.trim().trim_end_matches(';').trim();
    if body.is_empty() {
        return Err(cx.err(cond_line, "expected a proposition after the quantifier"));
    }
    let toks = tokenize_prop(cx, cond_line, body)?;
    let mut pp = PropParser {
        toks: &toks,
        pos: 0,
        cx,
        line: cond_line,
        depth: 0,
        resolve,
        terms: Vec::new(),
    };
    let prop = pp.or()?;
    if pp.pos != toks.len() {
        return Err(cx.err(
            cond_line,
            format!("unexpected `{}` in the condition", toks[pp.pos]),
        ));
    }
    for t in pp.terms {
        if !matches!(t, Term::Imm(_)) && !observed.contains(&t) {
            observed.push(t);
        }
    }
    let condition_text = match quantifier {
        Quantifier::Exists => format!("exists {body}"),
        Quantifier::NotExists => format!("~exists {body}"),
        Quantifier::Forall => format!("forall {body}"),
    };
    Ok(Cond {
        quantifier,
        prop,
        text: condition_text,
        observed,
        line: cond_line,
    })
}

fn first_word(s: &str) -> &str {
    s.split_whitespace().next().unwrap_or("")
}

fn is_condition_start(t: &str) -> bool {
    let w = t
        .split(|c: char| c.is_whitespace() || c == '(')
        .next()
        .unwrap_or("");
    matches!(
        w,
        "exists" | "~exists" | "forall" | "locations" | "filter" | "final" | "~"
    ) || t.starts_with("not exists")
}

#[derive(Default)]
struct Builder {
    names: HashMap<String, Name>,
    order: Vec<String>,
    n_vaddr: usize,
    phys: Vec<(String, i64)>,
}

impl Builder {
    /// The name `n`, declared on first use as a new location initialised to 0.
    fn loc(&mut self, n: &str) -> Name {
        if let Some(x) = self.names.get(n) {
            return x.clone();
        }
        let name = Name {
            name: n.to_string(),
            vaddr: self.n_vaddr,
            phys: self.phys.len(),
        };
        self.n_vaddr += 1;
        self.phys.push((n.to_string(), 0));
        self.names.insert(n.to_string(), name.clone());
        self.order.push(n.to_string());
        name
    }
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(ch) if ch.is_ascii_alphabetic() || ch == '_')
        && c.all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
}

fn parse_int(s: &str) -> Option<i64> {
    let s = s.trim();
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        return i64::from_str_radix(h, 16).ok();
    }
    if let Some(h) = s.strip_prefix("-0x") {
        return i64::from_str_radix(h, 16).ok().map(|v| -v);
    }
    s.parse::<i64>().ok()
}

fn parse_thread_id(s: &str) -> Option<usize> {
    let s = s.trim();
    let d = s.strip_prefix('P').unwrap_or(s);
    if d.is_empty() || !d.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    d.parse().ok()
}

/// `r3`, `%r3` → `r3`.
fn norm_reg(s: &str) -> Option<String> {
    let s = s.trim().trim_start_matches('%');
    let d = s.strip_prefix('r')?;
    if d.is_empty() || !d.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some(format!("r{d}"))
}

fn reg_index(map: &mut HashMap<String, usize>, th: &mut Thread, r: &str) -> usize {
    if let Some(&i) = map.get(r) {
        return i;
    }
    let i = th.regs.len();
    th.regs.push(r.to_string());
    th.init.push(0);
    map.insert(r.to_string(), i);
    i
}

fn dst_of(i: &Instr) -> Option<usize> {
    match i {
        Instr::Load { dst, .. } | Instr::Alu { dst, .. } => Some(*dst),
        Instr::Rmw { dst, .. } => *dst,
        Instr::Bar { dst, .. } => *dst,
        _ => None,
    }
}

fn srcs_of(i: &Instr) -> Vec<usize> {
    let mut v = Vec::new();
    let mut add = |x: &Val| {
        if let Val::Reg(r) = x {
            v.push(*r)
        }
    };
    match i {
        Instr::Store { val, .. } => add(val),
        Instr::Rmw { a, b, .. } => {
            add(a);
            if let Some(b) = b {
                add(b)
            }
        }
        Instr::Bar {
            id, count, pred, ..
        } => {
            add(id);
            if let Some(c) = count {
                add(c)
            }
            if let Some((p, _)) = pred {
                add(p)
            }
        }
        Instr::Alu { op, a, b, .. } => {
            add(a);
            if *op != AluOp::Mov {
                add(b)
            }
        }
        Instr::Branch { a, b, .. } => {
            add(a);
            add(b)
        }
        _ => {}
    }
    v
}

/// Splits `opcode.q1.q2 a, b, c` into the qualifier list and the operands.
fn split_instr(c: &str) -> (Vec<String>, Vec<String>) {
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
fn parse_instr(
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
            let cmp = match op {
                "beq" => Cmp::Eq,
                "bne" => Cmp::Ne,
                "blt" => Cmp::Lt,
                "ble" => Cmp::Le,
                "bgt" => Cmp::Gt,
                _ => Cmp::Ge,
            };
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

fn set<T: Copy>(slot: &mut Option<T>, v: T, cx: &Ctx, ln: usize, c: &str) -> Result<(), Error> {
    if slot.replace(v).is_some() {
        return Err(cx.err(ln, format!("`{c}`: two semantics qualifiers")));
    }
    Ok(())
}

fn parse_scope(s: &str) -> Scope {
    match s {
        "cta" => Scope::Cta,
        "cluster" => Scope::Cluster,
        "gpu" => Scope::Gpu,
        _ => Scope::Sys,
    }
}

fn tokenize_prop(cx: &Ctx, line: usize, s: &str) -> Result<Vec<String>, Error> {
    let mut toks = Vec::new();
    let c: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch.is_whitespace() {
            i += 1;
            continue;
        }
        let two: String = c[i..(i + 2).min(c.len())].iter().collect();
        if ["/\\", "\\/", "==", "!=", "<=", ">="].contains(&two.as_str()) {
            toks.push(two);
            i += 2;
            continue;
        }
        if "()~=<>".contains(ch) {
            toks.push(ch.to_string());
            i += 1;
            continue;
        }
        if ch.is_ascii_alphanumeric() || ch == '_' || ch == '-' || ch == '%' {
            let st = i;
            i += 1;
            while i < c.len()
                && (c[i].is_ascii_alphanumeric() || c[i] == '_' || c[i] == ':' || c[i] == '%')
            {
                i += 1;
            }
            // Format part 2 location terms: `x@1`, `x+4`, `x@1+4`.
            let digit_at = |k: usize| k < c.len() && c[k].is_ascii_digit();
            if i < c.len() && c[i] == '@' && digit_at(i + 1) {
                i += 1;
                while digit_at(i) {
                    i += 1;
                }
            }
            if i < c.len() && c[i] == '+' && digit_at(i + 1) && !c[st].is_ascii_digit() {
                i += 1;
                while i < c.len() && c[i].is_ascii_alphanumeric() {
                    i += 1;
                }
            }
            toks.push(c[st..i].iter().collect());
            continue;
        }
        if ch == '[' {
            let st = i;
            while i < c.len() && c[i] != ']' {
                i += 1;
            }
            i += 1;
            toks.push(c[st..i.min(c.len())].iter().collect());
            continue;
        }
        return Err(cx.err(line, format!("unexpected `{ch}` in the condition")));
    }
    Ok(toks)
}

/// Most levels of parentheses and negations a condition may nest (a deeper one is a parse
/// error, not a stack overflow: #19 §4).
pub const MAX_NESTING: usize = 100;

struct PropParser<'a> {
    toks: &'a [String],
    pos: usize,
    cx: &'a Ctx<'a>,
    line: usize,
    /// Current nesting of `(` and `~`.
    depth: usize,
    resolve: &'a mut dyn FnMut(&str) -> Result<Term, Error>,
    terms: Vec<Term>,
}

/// A balanced tree of a chain `a op b op c …` (depth log n: evaluating it never recurses deep).
fn balanced(mut v: Vec<Prop>, f: fn(Box<Prop>, Box<Prop>) -> Prop) -> Prop {
    while v.len() > 1 {
        let mut next = Vec::with_capacity(v.len().div_ceil(2));
        let mut it = v.into_iter();
        while let Some(a) = it.next() {
            match it.next() {
                Some(b) => next.push(f(Box::new(a), Box::new(b))),
                None => next.push(a),
            }
        }
        v = next;
    }
    v.pop().unwrap_or(Prop::True)
}

impl PropParser<'_> {
    fn peek(&self) -> Option<&str> {
        self.toks.get(self.pos).map(|s| s.as_str())
    }
    fn enter(&mut self) -> Result<(), Error> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(self.cx.err(
                self.line,
                format!("the condition nests deeper than {MAX_NESTING} levels of `(` and `~`"),
            ));
        }
        Ok(())
    }
    fn or(&mut self) -> Result<Prop, Error> {
        let mut v = vec![self.and()?];
        while self.peek() == Some("\\/") {
            self.pos += 1;
            v.push(self.and()?);
        }
        Ok(balanced(v, Prop::Or))
    }
    fn and(&mut self) -> Result<Prop, Error> {
        let mut v = vec![self.not()?];
        while self.peek() == Some("/\\") {
            self.pos += 1;
            v.push(self.not()?);
        }
        Ok(balanced(v, Prop::And))
    }
    fn not(&mut self) -> Result<Prop, Error> {
        if matches!(self.peek(), Some("~") | Some("not")) {
            self.pos += 1;
            self.enter()?;
            let p = self.not()?;
            self.depth -= 1;
            return Ok(Prop::Not(Box::new(p)));
        }
        self.atom()
    }
    fn atom(&mut self) -> Result<Prop, Error> {
        match self.peek() {
            None => Err(self
                .cx
                .err(self.line, "condition ends early: expected a comparison")),
            Some("(") => {
                self.pos += 1;
                self.enter()?;
                let p = self.or()?;
                self.depth -= 1;
                if self.peek() != Some(")") {
                    return Err(self.cx.err(self.line, "expected `)` in the condition"));
                }
                self.pos += 1;
                Ok(p)
            }
            Some("true") => {
                self.pos += 1;
                Ok(Prop::True)
            }
            Some("false") => {
                self.pos += 1;
                Ok(Prop::False)
            }
            Some(_) => {
                let a = self.term()?;
                let cmp = match self.peek() {
                    Some("==") | Some("=") => Cmp::Eq,
                    Some("!=") => Cmp::Ne,
                    Some("<") => Cmp::Lt,
                    Some("<=") => Cmp::Le,
                    Some(">") => Cmp::Gt,
                    Some(">=") => Cmp::Ge,
                    other => {
                        return Err(self.cx.err(
                            self.line,
                            format!(
                                "expected `==` or `!=` in the condition, found `{}`",
                                other.unwrap_or("end")
                            ),
                        ))
                    }
                };
                self.pos += 1;
                let b = self.term()?;
                Ok(Prop::Cmp(cmp, a, b))
            }
        }
    }
    fn term(&mut self) -> Result<Term, Error> {
        let t = self
            .peek()
            .ok_or_else(|| {
                self.cx
                    .err(self.line, "condition ends early: expected a value")
            })?
            .to_string();
        self.pos += 1;
        let t = (self.resolve)(&t)?;
        self.terms.push(t.clone());
        Ok(t)
    }
}

#[allow(clippy::too_many_arguments)]
fn parse_term(
    cx: &Ctx,
    line: usize,
    t: &str,
    b: &Builder,
    threads: &[Thread],
    reg_maps: &[HashMap<String, usize>],
    written: &[Vec<bool>],
    reg_inits: &[(usize, String, String, i64)],
) -> Result<Term, Error> {
    if let Some(v) = parse_int(t) {
        return Ok(Term::Imm(v));
    }
    if let Some((th, r)) = t.split_once(':') {
        let id = parse_thread_id(th).ok_or_else(|| {
            cx.err(
                line,
                format!("expected `P0:r0` in the condition, found `{t}`"),
            )
        })?;
        if id >= threads.len() {
            return Err(cx.err(line, format!("`{t}`: the test has no thread P{id}")));
        }
        let rn = norm_reg(r)
            .ok_or_else(|| cx.err(line, format!("expected a register after `:`, found `{r}`")))?;
        let idx = reg_maps[id].get(&rn).copied();
        let declared = reg_inits.iter().any(|(_, tt, rr, _)| {
            parse_thread_id(tt) == Some(id) && norm_reg(rr).as_deref() == Some(rn.as_str())
        });
        match idx {
            Some(i) if declared || written[id].get(i).copied().unwrap_or(false) => Ok(Term::Reg(id, i)),
            _ => Err(cx.err(
                line,
                format!("register {rn} of P{id} in the condition is never initialised nor written by P{id}"),
            )),
        }
    } else {
        let n = t.trim_start_matches('[').trim_end_matches(']').trim();
        match b.names.get(n) {
            Some(x) => Ok(Term::Loc(x.phys)),
            None if is_ident(n) => Err(cx.err(
                line,
                format!("location `{n}` in the condition is not used by the test"),
            )),
            None => Err(cx.err(
                line,
                format!("expected a register, location or integer, found `{t}`"),
            )),
        }
    }
}
