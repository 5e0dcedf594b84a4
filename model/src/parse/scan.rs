//! Cutting a test's text into its parts ([`Raw`]: name, init entries, placement row, cells, condition
//! lines) before any name is resolved; comments stripped, columns split.

use super::*;

/// Removes `(* ... *)` comments, keeping newlines so that line numbers stay right.
pub(super) fn strip_comments(text: &str) -> String {
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

/// Splits an instruction row at its column bars. A `|` with no space on either side belongs to
/// an instruction (`setp.eq.s32 p|q, …`, `elect.sync r|p, …`): columns are ` | `-separated.
pub(super) fn split_columns(row: &str) -> Vec<&str> {
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
pub(super) fn is_part2_decl(e: &str) -> bool {
    let e = e.trim();
    e.starts_with("shared ")
        || e == "shared"
        || e.split_once('=').map_or(e, |x| x.0).contains('[')
        || e.split_once('@')
            .is_some_and(|(_, r)| r.trim_start().starts_with("tensormap"))
}

/// A test's text cut into its parts, before any name is resolved.
pub(super) struct Raw {
    pub(super) name: String,
    pub(super) comments: Vec<String>,
    /// Init-block entries `(line, text)`.
    pub(super) entries: Vec<(usize, String)>,
    /// The threads of the placement row (no registers or code yet).
    pub(super) threads: Vec<Thread>,
    /// Each thread's cells `(line, text)`.
    pub(super) cells: Vec<Vec<(usize, String)>>,
    /// The lines of the text (comments blanked).
    pub(super) lines: Vec<String>,
    /// Index in `lines` of the final condition's first line.
    pub(super) cond_start: usize,
}

/// Cuts a test into its parts.
pub(super) fn scan(cx: &Ctx, text: &str) -> Result<Raw, Error> {
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

pub(super) fn first_word(s: &str) -> &str {
    s.split_whitespace().next().unwrap_or("")
}

pub(super) fn is_condition_start(t: &str) -> bool {
    let w = t
        .split(|c: char| c.is_whitespace() || c == '(')
        .next()
        .unwrap_or("");
    matches!(
        w,
        "exists" | "~exists" | "forall" | "locations" | "filter" | "final" | "~"
    ) || t.starts_with("not exists")
}
