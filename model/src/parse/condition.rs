//! The final condition: `locations […]`, the quantifier and the proposition over terms.

use super::*;

/// The final condition, parsed.
pub(super) struct Cond {
    pub(super) quantifier: Quantifier,
    pub(super) prop: Prop,
    pub(super) text: String,
    pub(super) observed: Vec<Term>,
    pub(super) line: usize,
}

impl Cond {
    /// The test of `raw` with this condition and `threads`, every part a reading adds (names,
    /// layout, widths) empty: each reading fills in its own.
    pub(super) fn into_test(self, cx: &Ctx, raw: &Raw, threads: Vec<Thread>) -> Test {
        Test {
            name: raw.name.clone(),
            file: cx.file.to_string(),
            comments: raw.comments.clone(),
            names: Vec::new(),
            n_vaddr: 0,
            phys: Vec::new(),
            threads,
            quantifier: self.quantifier,
            prop: self.prop,
            condition_text: self.text,
            observed: self.observed,
            condition_line: self.line,
            layout: Default::default(),
            loc_var: Vec::new(),
            legacy: None,
            engine: None,
            reg_bits: Vec::new(),
            mem_widths: Vec::new(),
            unroll: DEFAULT_UNROLL,
        }
    }
}

/// Parses the final condition (`locations […]` and the quantified proposition); `resolve`
/// turns a term's text into a [`Term`].
pub(super) fn condition(
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
    let toks = tokens::tokenize(body, &tokens::LITMUS_CONDITION)
        .map_err(|ch| cx.err(cond_line, format!("unexpected `{ch}` in the condition")))?;
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

/// Most levels of parentheses and negations a condition may nest (a deeper one is a parse
/// error, not a stack overflow: #19 §4).
pub const MAX_NESTING: usize = 100;

pub(super) struct PropParser<'a> {
    pub(super) toks: &'a [String],
    pub(super) pos: usize,
    pub(super) cx: &'a Ctx<'a>,
    pub(super) line: usize,
    /// Current nesting of `(` and `~`.
    pub(super) depth: usize,
    pub(super) resolve: &'a mut dyn FnMut(&str) -> Result<Term, Error>,
    pub(super) terms: Vec<Term>,
}

/// A balanced tree of a chain `a op b op c …` (depth log n: evaluating it never recurses deep).
pub(super) fn balanced(mut v: Vec<Prop>, f: fn(Box<Prop>, Box<Prop>) -> Prop) -> Prop {
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
                let Some(cmp) = self.peek().and_then(Cmp::of_operator) else {
                    return Err(self.cx.err(
                        self.line,
                        format!(
                            "expected `==` or `!=` in the condition, found `{}`",
                            self.peek().unwrap_or("end")
                        ),
                    ));
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
pub(super) fn parse_term(
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
        let id = cond_thread(cx, line, t, th, threads.len())?;
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

/// The thread of a condition term `P<id>:…` (`th` is its `P<id>`, `t` the whole term), one of
/// the test's `n` threads.
pub(super) fn cond_thread(
    cx: &Ctx,
    line: usize,
    t: &str,
    th: &str,
    n: usize,
) -> Result<usize, Error> {
    let id = parse_thread_id(th).ok_or_else(|| {
        cx.err(
            line,
            format!("expected `P0:r0` in the condition, found `{t}`"),
        )
    })?;
    if id >= n {
        return Err(cx.err(line, format!("`{t}`: the test has no thread P{id}")));
    }
    Ok(id)
}
