//! What the advisor found: each site's status and the forms tried ([`Advice`]), its text and JSON,
//! and the verdict of one candidate ([`Verdict`]).

use super::*;

/// A synchronization instruction of the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    /// `P1` (a litmus thread) or the kernel's entry.
    pub thread: String,
    /// Its line in the file (the first test's file for a group of litmus tests).
    pub line: usize,
    /// The instruction as written.
    pub text: String,
    /// The litmus column (thread index); `None` for a kernel.
    pub(super) col: Option<usize>,
}

/// What re-checking one weakening found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// The verdict is the same: the weakening stays correct.
    Kept,
    /// The verdict changed (why: the first difference found).
    Breaks(String),
    /// Not checked: weaker than the form named, which breaks the verdict.
    Implied(String),
    /// The front end rejected the rewritten text, or the model could not decide it.
    Error(String),
}

/// One weakening tried.
#[derive(Clone, Debug)]
pub struct Tried {
    /// Index into [`Advice::sites`].
    pub site: usize,
    /// The form.
    pub form: Form,
    /// The result.
    pub status: Status,
}

/// The advice on one program.
#[derive(Clone, Debug, Default)]
pub struct Advice {
    /// What was advised on (test names or `file: entry`).
    pub subject: String,
    /// The baseline verdict, in one line per test.
    pub baseline: Vec<String>,
    /// The synchronization instructions, in thread then line order.
    pub sites: Vec<Site>,
    /// Every single-instruction weakening, in site order.
    pub tried: Vec<Tried>,
    /// The greedy combination: `(site, form)` for every site it weakened (verified as a whole).
    pub combination: Vec<(usize, Form)>,
    /// Combination steps tried (each one a whole re-check).
    pub combination_checks: usize,
    /// Whole model checks run (baseline included).
    pub checks: usize,
    /// Seconds for the baseline check(s).
    pub baseline_seconds: f64,
    /// Seconds in all.
    pub seconds: f64,
}

/// A cost lookup: the cost row (its PTX key and SASS) of an instruction's mnemonic, e.g. the host's
/// `ptx_sync_host::inspect::cost_row` over `docs/fence-costs.md`. `&|_| None` for none.
pub type CostFn<'a> = &'a dyn Fn(&str) -> Option<(String, String)>;

impl Advice {
    /// The kept single-instruction weakenings at `thread`'s instruction on `line`: their new text,
    /// `"(removed)"` for a removal.
    pub fn kept_at(&self, thread: &str, line: usize) -> Vec<String> {
        self.with_status(thread, line, |s| *s == Status::Kept)
    }

    /// The weakenings at `thread`'s instruction on `line` that break the verdict (checked and
    /// failed, or implied by one that failed).
    pub fn broken_at(&self, thread: &str, line: usize) -> Vec<String> {
        self.with_status(thread, line, |s| {
            matches!(s, Status::Breaks(_) | Status::Implied(_))
        })
    }

    pub(super) fn with_status(
        &self,
        thread: &str,
        line: usize,
        f: impl Fn(&Status) -> bool,
    ) -> Vec<String> {
        self.tried
            .iter()
            .filter(|t| {
                let s = &self.sites[t.site];
                s.thread == thread && s.line == line && f(&t.status)
            })
            .map(|t| form_text(&t.form))
            .collect()
    }

    /// The combination as `(thread, line, new text)`, `"(removed)"` for a removal.
    pub fn combined(&self) -> Vec<(String, usize, String)> {
        self.combination
            .iter()
            .map(|(s, f)| {
                let s = &self.sites[*s];
                (s.thread.clone(), s.line, form_text(f))
            })
            .collect()
    }

    /// The readable table: the kept weakenings with the SASS they save (from `cost`), the ones
    /// that break the verdict and why, the greedy combination, and what was not tried.
    pub fn render(&self, cost: CostFn) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "Advise {}", self.subject);
        for b in &self.baseline {
            let _ = writeln!(s, "  baseline: {b}");
        }
        let _ = writeln!(
            s,
            "  {} synchronization instructions, {} weakenings tried one at a time; a weakening is kept when the verdict is unchanged (no new flag, same assertion result)",
            self.sites.len(),
            self.tried.len()
        );
        let mut rows_used: Vec<(String, String)> = Vec::new();
        let mut cost_of = |mn: Option<&str>| -> Option<Vec<String>> {
            let Some(mn) = mn else {
                return Some(Vec::new());
            };
            let (k, v) = cost(mn)?;
            if !rows_used.iter().any(|r| r.0 == k) {
                rows_used.push((k, v.clone()));
            }
            // `(none)`: the row has no SASS beyond the baseline (`fence.acquire.cta`).
            Some(
                v.split_whitespace()
                    .filter(|o| *o != "(none)")
                    .map(String::from)
                    .collect(),
            )
        };
        let mut table = vec![[
            "line".to_string(),
            "thread".into(),
            "instruction".into(),
            "weaker form that stays correct".into(),
            "SASS saved (sm_90, docs/fence-costs.md)".into(),
        ]];
        for t in self.tried.iter().filter(|t| t.status == Status::Kept) {
            let site = &self.sites[t.site];
            let old = cost_of(Some(split_inst(&site.text).1));
            let new = cost_of(t.form.mnemonic());
            table.push([
                site.line.to_string(),
                site.thread.clone(),
                site.text.clone(),
                form_text(&t.form),
                saved(old.as_deref(), new.as_deref()),
            ]);
        }
        if table.len() == 1 {
            let _ = writeln!(s, "\nNo single weakening keeps the verdict.");
        } else {
            let _ = writeln!(s, "\nKept (each alone; the others as written):");
            s.push_str(&columns(&table));
        }
        let broken: Vec<&Tried> = self
            .tried
            .iter()
            .filter(|t| t.status != Status::Kept)
            .collect();
        if !broken.is_empty() {
            let _ = writeln!(s, "\nNot kept:");
            let mut table = vec![[
                "line".to_string(),
                "thread".into(),
                "instruction".into(),
                "weaker form".into(),
                "why".into(),
            ]];
            for t in broken {
                let site = &self.sites[t.site];
                let why = match &t.status {
                    Status::Breaks(w) => format!("breaks: {w}"),
                    Status::Implied(f) => format!("not tried: weaker than `{f}`, which breaks"),
                    Status::Error(e) => format!("not decided: {e}"),
                    Status::Kept => String::new(),
                };
                table.push([
                    site.line.to_string(),
                    site.thread.clone(),
                    site.text.clone(),
                    form_text(&t.form),
                    why,
                ]);
            }
            s.push_str(&columns(&table));
        }
        let _ = writeln!(
            s,
            "\nCombined (greedy, in program order: each instruction's weakest kept form that still passes with the ones chosen before it, then narrower scopes of it; {} re-checks, the result verified as a whole):",
            self.combination_checks
        );
        if self.combination.is_empty() {
            let _ = writeln!(s, "  nothing: the program stays as written");
        } else {
            let mut table = vec![[
                "line".to_string(),
                "thread".into(),
                "instruction".into(),
                "becomes".into(),
                "SASS saved (sm_90, docs/fence-costs.md)".into(),
            ]];
            for (i, f) in &self.combination {
                let site = &self.sites[*i];
                let old = cost_of(Some(split_inst(&site.text).1));
                let new = cost_of(f.mnemonic());
                table.push([
                    site.line.to_string(),
                    site.thread.clone(),
                    site.text.clone(),
                    form_text(f),
                    saved(old.as_deref(), new.as_deref()),
                ]);
            }
            s.push_str(&columns(&table));
        }
        if !rows_used.is_empty() {
            let _ = writeln!(
                s,
                "\nCost rows used (docs/fence-costs.md: SASS beyond the baseline, ptxas 13.0, sm_90):"
            );
            for (k, v) in &rows_used {
                let v = if v.trim().is_empty() { "(none)" } else { v };
                let _ = writeln!(s, "  {k:<28} {v}");
            }
        }
        let _ = writeln!(s, "\nNot tried: combinations other than the greedy pass above; sem and scope changed in one step (only along the greedy pass); ld/st .relaxed → .weak; .volatile and .mmio accesses; bar/barrier CTA barriers and barrier.cluster.wait (no weaker form); cp.async waits; mbarrier expect_tx/complete_tx/.noComplete; fence.proxy.alias/tensormap and narrower state spaces of fence.proxy.async.");
        let _ = writeln!(
            s,
            "Time: {} model checks in {:.2} s (baseline {:.2} s)",
            self.checks, self.seconds, self.baseline_seconds
        );
        s
    }
}

pub(super) fn form_text(f: &Form) -> String {
    f.text.clone().unwrap_or_else(|| "(removed)".to_string())
}

/// `−A −B +C` from the old and the new cost rows; `no row` where either is missing.
pub(super) fn saved(old: Option<&[String]>, new: Option<&[String]>) -> String {
    let (Some(old), Some(new)) = (old, new) else {
        return "no row".into();
    };
    let mut rest: Vec<&String> = new.iter().collect();
    let mut out = Vec::new();
    for o in old {
        match rest.iter().position(|n| *n == o) {
            Some(p) => {
                rest.remove(p);
            }
            None => out.push(format!("−{o}")),
        }
    }
    for n in rest {
        out.push(format!("+{n}"));
    }
    if out.is_empty() {
        "the same SASS".into()
    } else {
        out.join(" ")
    }
}

pub(super) fn columns(rows: &[[String; 5]]) -> String {
    let mut w = [0usize; 5];
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            w[i] = w[i].max(c.chars().count());
        }
    }
    let mut s = String::new();
    for r in rows {
        let mut line = String::from(" ");
        for (i, c) in r.iter().enumerate() {
            let pad = if i + 1 == r.len() {
                0
            } else {
                w[i] - c.chars().count()
            };
            let _ = write!(line, " {c}{} ", " ".repeat(pad));
            if i + 1 < r.len() {
                line.push('|');
            }
        }
        let _ = writeln!(s, "{}", line.trim_end());
    }
    s
}

/// A verdict, as far as "still correct" compares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Verdict {
    /// The test's name (litmus) or the entry.
    pub(super) name: String,
    pub(super) races: BTreeSet<String>,
    pub(super) hangs: BTreeSet<String>,
    pub(super) flags: BTreeSet<(String, String)>,
    /// `Observation Never` / `assertion holds: false` / `no assertion`.
    pub(super) truth: String,
    /// Executions cut at the unroll bound.
    pub(super) cut: usize,
}

impl Verdict {
    pub(super) fn of_litmus(o: &crate::Outcome) -> Verdict {
        Verdict {
            name: o.test.name.clone(),
            races: o.found.races.iter().cloned().collect(),
            hangs: o.found.hangs.iter().cloned().collect(),
            flags: o.found.flags.iter().cloned().collect(),
            truth: format!("Observation {}", o.observation),
            cut: o.found.cut,
        }
    }

    pub(super) fn of_kernel(o: &crate::kernel::KernelOutcome) -> Verdict {
        Verdict {
            name: o.entry.clone(),
            races: o.races.iter().cloned().collect(),
            hangs: o.hangs.iter().cloned().collect(),
            flags: o.flags.iter().cloned().collect(),
            truth: match o.quantifier {
                Some(_) => format!("assertion holds: {}", o.holds()),
                None => "no assertion".into(),
            },
            cut: o.cut,
        }
    }

    pub(super) fn summary(&self) -> String {
        let mut f: Vec<String> = self.flags.iter().map(|x| x.0.clone()).collect();
        if !self.races.is_empty() {
            f.push(format!("data-race ×{}", self.races.len()));
        }
        if !self.hangs.is_empty() {
            f.push(format!("hang ×{}", self.hangs.len()));
        }
        f.dedup();
        format!(
            "{}: {}; flags: {}",
            self.name,
            self.truth,
            if f.is_empty() {
                "none".into()
            } else {
                f.join(", ")
            }
        )
    }

    /// Rewrites every mention of an edited instruction (`` `new` (line N)``) back to its
    /// written text, so that a race or hang that was there before is recognised as the same.
    pub(super) fn normalize(mut self, renames: &[(String, String)]) -> Verdict {
        let fix = |s: &String| {
            let mut s = s.clone();
            for (new, old) in renames {
                s = s.replace(new, old);
            }
            s
        };
        self.races = self.races.iter().map(fix).collect();
        self.hangs = self.hangs.iter().map(fix).collect();
        self.flags = self
            .flags
            .iter()
            .map(|(n, d)| (n.clone(), fix(d)))
            .collect();
        self
    }

    /// `None` when `self` (a weakened program's verdict) is as correct as `base`; else why not.
    pub(super) fn differs_from(&self, base: &Verdict) -> Option<String> {
        if self.cut > base.cut {
            return Some(format!(
                "{} executions cut at the unroll bound (undecided)",
                self.cut
            ));
        }
        if self.truth != base.truth {
            return Some(format!("{} (was {})", self.truth, base.truth));
        }
        if let Some(r) = self.races.difference(&base.races).next() {
            return Some(format!("new data race: {r}"));
        }
        if let Some(h) = self.hangs.difference(&base.hangs).next() {
            return Some(format!("new hang: {h}"));
        }
        if let Some((n, d)) = self.flags.difference(&base.flags).next() {
            return Some(format!("new flag {n}: {d}"));
        }
        None
    }
}
