//! The litmus parser (format: `model/FORMAT.md`). Every error carries `file:line` and says what
//! was expected; anything the model cannot express is an [`ErrorKind::Unsupported`], never a guess.

use crate::ast::*;
use std::collections::HashMap;
use std::fmt;

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
pub fn parse(text: &str, file: &str) -> Result<Test, Error> {
    let cx = Ctx { file };
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

    // Init block.
    let init_line = i + 1;
    let t = lines[i].trim_start();
    if !t.starts_with('{') {
        return Err(cx.err(
            i + 1,
            format!("expected the init block `{{`, found `{}`", t.trim()),
        ));
    }
    let mut block = String::new();
    let mut entries_pos: Vec<(usize, String)> = Vec::new();
    let mut rest = t[1..].to_string();
    let mut closed = false;
    loop {
        if let Some(end) = rest.find('}') {
            block.push_str(&rest[..end]);
            for e in rest[..end].split(';') {
                if !e.trim().is_empty() {
                    entries_pos.push((i + 1, e.trim().to_string()));
                }
            }
            let after = rest[end + 1..].trim().trim_start_matches(';').trim();
            if !after.is_empty() {
                return Err(cx.err(i + 1, "expected a line break after `}`"));
            }
            closed = true;
            i += 1;
            break;
        }
        for e in rest.split(';') {
            if !e.trim().is_empty() {
                entries_pos.push((i + 1, e.trim().to_string()));
            }
        }
        block.push_str(&rest);
        i += 1;
        if i >= lines.len() {
            break;
        }
        rest = lines[i].to_string();
    }
    if !closed {
        return Err(cx.err(init_line, "unterminated init block: expected `}`"));
    }

    // Locations and aliases from the init block; registers kept for later.
    let mut b = Builder::default();
    let mut reg_inits: Vec<(usize, String, String, i64)> = Vec::new(); // (line, thread, reg, value)
    for (ln, e) in &entries_pos {
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
        let parts: Vec<&str> = row.split('|').collect();
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
                &cx,
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
            let t = parse_term(
                &cx, cond_line, item, &b, &threads, &reg_maps, &written, &reg_inits,
            )?;
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
    let toks = tokenize_prop(&cx, cond_line, body)?;
    let mut pp = PropParser {
        toks: &toks,
        pos: 0,
        cx: &cx,
        line: cond_line,
        b: &b,
        threads: &threads,
        reg_maps: &reg_maps,
        written: &written,
        reg_inits: &reg_inits,
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
    let mut names: Vec<Name> = b.order.iter().map(|n| b.names[n].clone()).collect();
    names.sort_by_key(|n| (n.phys, n.vaddr));
    Ok(Test {
        name,
        file: file.to_string(),
        comments,
        names,
        n_vaddr: b.n_vaddr,
        phys: b.phys,
        threads,
        quantifier,
        prop,
        condition_text,
        observed,
        condition_line: cond_line,
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

struct PropParser<'a> {
    toks: &'a [String],
    pos: usize,
    cx: &'a Ctx<'a>,
    line: usize,
    b: &'a Builder,
    threads: &'a [Thread],
    reg_maps: &'a [HashMap<String, usize>],
    written: &'a [Vec<bool>],
    reg_inits: &'a [(usize, String, String, i64)],
    terms: Vec<Term>,
}

impl PropParser<'_> {
    fn peek(&self) -> Option<&str> {
        self.toks.get(self.pos).map(|s| s.as_str())
    }
    fn or(&mut self) -> Result<Prop, Error> {
        let mut l = self.and()?;
        while self.peek() == Some("\\/") {
            self.pos += 1;
            let r = self.and()?;
            l = Prop::Or(Box::new(l), Box::new(r));
        }
        Ok(l)
    }
    fn and(&mut self) -> Result<Prop, Error> {
        let mut l = self.not()?;
        while self.peek() == Some("/\\") {
            self.pos += 1;
            let r = self.not()?;
            l = Prop::And(Box::new(l), Box::new(r));
        }
        Ok(l)
    }
    fn not(&mut self) -> Result<Prop, Error> {
        if matches!(self.peek(), Some("~") | Some("not")) {
            self.pos += 1;
            return Ok(Prop::Not(Box::new(self.not()?)));
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
                let p = self.or()?;
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
        let t = parse_term(
            self.cx,
            self.line,
            &t,
            self.b,
            self.threads,
            self.reg_maps,
            self.written,
            self.reg_inits,
        )?;
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
