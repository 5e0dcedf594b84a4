//! What is advised ([`Subject`]): a litmus test or a `.ptx` kernel, its sites, and one site's
//! instruction rewritten.

use super::*;

/// One litmus test of a group with the same program.
pub(super) struct Lit {
    pub(super) text: String,
    pub(super) file: String,
    /// Line (1-based) of its init block's `{`: the program's line `k` of the group is line
    /// `start + k` here.
    pub(super) start: usize,
    /// `--unroll N` (`None`: the file's own bound or [`crate::parse::DEFAULT_UNROLL`]).
    pub(super) unroll: Option<u32>,
}

pub(super) enum Subject {
    Litmus(Vec<Lit>),
    Kernel {
        module: Box<Module>,
        check: KernelCheck,
    },
}

pub(super) fn lerr(file: &str, msg: String) -> Error {
    Error {
        kind: ErrorKind::Parse,
        file: file.to_string(),
        line: 0,
        msg,
    }
}

impl Subject {
    /// Runs the program with `edits` (site, new text or removed); `Err`: the model could not
    /// decide it or the front end rejected the text. Stops at the first test whose verdict
    /// differs from `base` (when given).
    pub(super) fn run(
        &self,
        sites: &[Site],
        edits: &[(usize, Option<String>)],
        base: Option<&[Verdict]>,
    ) -> Result<(Vec<Verdict>, Option<String>), String> {
        let renames: Vec<(String, String)> = edits
            .iter()
            .filter_map(|(i, n)| {
                let s = &sites[*i];
                let n = n.as_ref()?;
                let tag = s.col.map(|c| format!("P{c} ")).unwrap_or_default();
                Some((
                    format!("{tag}`{n}` (line {})", s.line),
                    format!("{tag}`{}` (line {})", s.text, s.line),
                ))
            })
            .collect();
        let mut out = Vec::new();
        match self {
            Subject::Litmus(tests) => {
                let first = tests[0].start;
                for (k, t) in tests.iter().enumerate() {
                    let text = edit_litmus(&t.text, sites, edits, t.start, first)?;
                    let checked = crate::parse(&text, &t.file).and_then(|mut test| {
                        if let Some(u) = t.unroll {
                            test.set_unroll(u);
                        }
                        crate::check_test(test, Instant::now())
                    });
                    let o = checked.map_err(|e| match e.kind {
                        ErrorKind::Parse => format!("the front end rejects it: {}", e.msg),
                        ErrorKind::Unsupported => e.msg,
                    })?;
                    let v = Verdict::of_litmus(&o).normalize(&renames);
                    if let Some(b) = base {
                        if let Some(why) = v.differs_from(&b[k]) {
                            let why = if tests.len() > 1 {
                                format!("{}: {why}", v.name)
                            } else {
                                why
                            };
                            return Ok((out, Some(why)));
                        }
                    }
                    out.push(v);
                }
            }
            Subject::Kernel { module, check } => {
                let e: Vec<Edit> = edits
                    .iter()
                    .map(|(i, n)| Edit {
                        line: sites[*i].line,
                        old: sites[*i].text.clone(),
                        new: n.clone(),
                    })
                    .collect();
                let o =
                    check_module(module, check, &e, Instant::now()).map_err(|e| match e.kind {
                        ErrorKind::Parse => format!("the front end rejects it: {}", e.msg),
                        ErrorKind::Unsupported => e.msg,
                    })?;
                let v = Verdict::of_kernel(&o).normalize(&renames);
                if let Some(b) = base {
                    if let Some(why) = v.differs_from(&b[0]) {
                        return Ok((out, Some(why)));
                    }
                }
                out.push(v);
            }
        }
        Ok((out, None))
    }
}

/// The litmus text with the edited cells rewritten (a removed instruction leaves its cell empty).
pub(super) fn edit_litmus(
    text: &str,
    sites: &[Site],
    edits: &[(usize, Option<String>)],
    start: usize,
    first: usize,
) -> Result<String, String> {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    for (i, new) in edits {
        let s = &sites[*i];
        let ln = s.line + start - first;
        let col = s.col.unwrap_or(0);
        let line = lines
            .get(ln.wrapping_sub(1))
            .ok_or_else(|| format!("line {ln} is not in the file"))?;
        let lead = line.len() - line.trim_start().len();
        let t = line.trim();
        let row = t.strip_suffix(';').unwrap_or(t);
        let spans = crate::parse::column_spans(row);
        let (a, b) = *spans
            .get(col)
            .ok_or_else(|| format!("line {ln} has no column {col}"))?;
        let cell = &row[a..b];
        if cell.trim() != s.text {
            return Err(format!("line {ln} column {col} is not `{}`", s.text));
        }
        let new_cell = format!(" {} ", new.as_deref().unwrap_or(""));
        let rebuilt = format!(
            "{}{}{}{}{}",
            &line[..lead],
            &row[..a],
            new_cell,
            &row[b..],
            &t[row.len()..]
        );
        lines[ln - 1] = rebuilt;
    }
    let mut out = lines.join("\n");
    out.push('\n');
    Ok(out)
}

/// The sites of a subject: every instruction with a weaker form, thread by thread.
pub(super) fn sites_of(
    code: &[(Option<usize>, String, usize, String)],
    isa: Isa,
) -> Vec<(Site, Vec<Form>)> {
    let mut out: Vec<(Site, Vec<Form>)> = Vec::new();
    for (col, thread, line, text) in code {
        if out
            .iter()
            .any(|(s, _)| s.col == *col && s.line == *line && s.text == *text)
        {
            continue;
        }
        let forms = weaker_forms(text, isa);
        if !forms.is_empty() {
            out.push((
                Site {
                    thread: thread.clone(),
                    line: *line,
                    text: text.clone(),
                    col: *col,
                },
                forms,
            ));
        }
    }
    out
}

/// The order in which the greedy pass tries a site's kept forms: removed first, then fewer
/// ordering halves (acquire before release: its SASS is the smaller), then narrower scopes.
pub(super) fn greedy_key(f: &Form) -> (u8, u8, u8, u8) {
    (
        f.text.is_some() as u8,
        f.sem.count_ones() as u8,
        f.sem,
        f.scope,
    )
}
