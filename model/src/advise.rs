//! `--advise` (issue #22 §3): the cheapest synchronization that is still correct.
//!
//! For each synchronization instruction of a litmus test or a compiled kernel, [`weaker_forms`]
//! lists the cheaper forms the PTX ISA offers — one textual rewrite of that one instruction each:
//!
//! | instruction (PTX ISA section) | weaker forms tried |
//! |---|---|
//! | `fence.sc.S`, `membar.L` (§9.7.13.4; `membar` = `fence.sc`) | `fence.acq_rel.S`, `fence.release.S`, `fence.acquire.S` (PTX 8.6, `sm_90`), removed, one scope narrower |
//! | `fence{.acq_rel}.S` | `fence.release.S`, `fence.acquire.S`, removed, one scope narrower |
//! | `fence.release.S` / `fence.acquire.S` | removed, one scope narrower |
//! | `fence.mbarrier_init…`, `fence…sync_restrict…`, `fence.proxy.async*` | removed |
//! | `ld.acquire.S` (§9.7.9.8) / `st.release.S` (§9.7.9.11) | `.relaxed.S`, one scope narrower |
//! | `ld.relaxed.S` / `st.relaxed.S` | one scope narrower |
//! | `atom{.sem}{.S}` (§9.7.13.5) | `.acq_rel` → `.acquire`, `.release`, `.relaxed`; `.acquire`/`.release` → `.relaxed`; one scope narrower (no scope: `.gpu`) |
//! | `red{.sem}{.S}` (§9.7.13.6) | `.release` → `.relaxed`; one scope narrower |
//! | `mbarrier.arrive{_drop}{.expect_tx}` (§9.7.13.15.13–14) | `.release` (the default) → `.relaxed` (PTX 8.6); `.cluster` → `.cta` |
//! | `mbarrier.{test,try}_wait{.parity}` (§9.7.13.15.16) | `.acquire` (the default) → `.relaxed` (PTX 8.6); `.cluster` → `.cta` |
//! | `barrier.cluster.arrive` (§9.7.13.3) | `.release` (the default) → `.relaxed` |
//!
//! "One scope narrower" is the next of `.sys` → `.gpu` → `.cluster` → `.cta` that the target
//! allows (`.cluster` needs PTX 7.8 and `sm_90`). Every form is ISA-legal by the grammar of its
//! section and the module's `.version` / `.target` ([`Isa`]); the front end's parser reads the
//! rewritten text again, and rejects an ill-formed one as it would the written text.
//!
//! [`advise_litmus`] and [`advise_kernel`] re-check the program once per weakening (a whole model
//! check each) and keep the weakening when the verdict is still the same: no data race, hang or
//! other flag that the original does not have, the assertion's truth value kept (for a litmus
//! test: the same `Observation`), and the verdict still decided (no cut at the unroll bound).
//! Weakenings are of one instruction at a time; then a greedy pass combines them (in program
//! order: each instruction's weakest kept form that still passes together with those chosen
//! before it, then narrower scopes of it), re-checking every step, so the combination it reports
//! is verified as a whole. No other combination is tried ([`Advice::render`] says so).
//!
//! Forms weaker than one that breaks the verdict are not checked (they only drop more ordering:
//! a subset of the same acquire/release/SC halves at a scope no wider); the table lists them as
//! not tried.
//!
//! # Example
//!
//! ```
//! use ptx_sync_model::advise::advise_litmus;
//! let mp = "PTX MP\n{\nx=0; y=0;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n \
//!     st.weak [x], 1 | ld.relaxed.gpu r0, [y] ;\n fence.sc.gpu | fence.sc.gpu ;\n \
//!     st.relaxed.gpu [y], 1 | ld.weak r1, [x] ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";
//! let advice = advise_litmus(&[(mp, "mp.litmus")]).unwrap();
//! // The producer's fence only needs its release half, the consumer's its acquire half.
//! assert!(advice.kept_at("P0", 7).contains(&"fence.release.gpu".to_string()));
//! assert!(advice.kept_at("P1", 7).contains(&"fence.acquire.gpu".to_string()));
//! assert!(!advice.kept_at("P0", 7).contains(&"fence.acquire.gpu".to_string()));
//! ```

use crate::kernel::{check_module, KernelCheck, KernelOptions};
use crate::parse::{Error, ErrorKind};
use crate::ptx::module::{Edit, Module};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

/// What the target allows: the module's PTX ISA version (`.version`) and SM (`.target`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Isa {
    /// `(major, minor)` of `.version`.
    pub ptx: (u32, u32),
    /// The SM number of `.target sm_NN` (`sm_90a` → 90).
    pub sm: u32,
}

impl Isa {
    /// What a litmus test is judged by (the format has no `.version`): PTX ISA 9.1 on `sm_90`.
    pub const LITMUS: Isa = Isa {
        ptx: (9, 1),
        sm: 90,
    };

    /// The `.version` and `.target` of a module's text (each missing one: PTX 9.1, `sm_90`).
    pub fn of_module(text: &str) -> Isa {
        let mut isa = Isa::LITMUS;
        for l in text.lines() {
            let t = l.split("//").next().unwrap_or("").trim();
            if let Some(v) = t.strip_prefix(".version") {
                let mut p = v.trim().split('.');
                if let (Some(a), Some(b)) = (p.next(), p.next()) {
                    if let (Ok(a), Ok(b)) = (a.trim().parse(), b.trim().parse()) {
                        isa.ptx = (a, b);
                    }
                }
            } else if let Some(v) = t.strip_prefix(".target") {
                if let Some(sm) = v
                    .split(|c: char| c == ',' || c.is_whitespace())
                    .find_map(|w| w.strip_prefix("sm_"))
                {
                    let digits: String = sm.chars().take_while(char::is_ascii_digit).collect();
                    if let Ok(n) = digits.parse() {
                        isa.sm = n;
                    }
                }
            }
        }
        isa
    }

    /// Whether a form introduced in PTX `ptx` for `sm_sm` is available.
    pub fn allows(&self, ptx: (u32, u32), sm: u32) -> bool {
        self.ptx >= ptx && self.sm >= sm
    }
}

/// Acquire half, release half, SC (bits of [`Form::sem`]).
const ACQ: u8 = 1;
const REL: u8 = 2;
const SC: u8 = 4;

const SCOPES: [&str; 4] = ["cta", "cluster", "gpu", "sys"];

/// One weaker form of an instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Form {
    /// The rewritten instruction (guard and operands as written); `None`: the instruction removed.
    pub text: Option<String>,
    /// What changed: `sc → acq_rel`, `gpu → cluster`, `removed`.
    pub change: String,
    /// The ordering it keeps: acquire (1), release (2), SC (4) bits.
    sem: u8,
    /// Its scope (0 `.cta` … 3 `.sys`; the original's where the change is not a scope).
    scope: u8,
}

impl Form {
    /// The mnemonic of the new form (`fence.acq_rel.gpu`), `None` when removed.
    pub fn mnemonic(&self) -> Option<&str> {
        self.text.as_deref().map(|t| split_inst(t).1)
    }

    /// Whether this form keeps no more ordering than `other` (a subset of its halves at a scope
    /// no wider, or removed).
    fn weaker_or_equal(&self, other: &Form) -> bool {
        self.text.is_none()
            || other.text.is_some() && self.sem & other.sem == self.sem && self.scope <= other.scope
    }
}

/// `(guard prefix with its spacing, mnemonic, the rest)` of an instruction's text.
fn split_inst(text: &str) -> (&str, &str, &str) {
    let lead = text.len() - text.trim_start().len();
    let mut start = lead;
    if text[lead..].starts_with('@') {
        let g_end = text[lead..]
            .find(char::is_whitespace)
            .map_or(text.len(), |e| lead + e);
        start = g_end + (text[g_end..].len() - text[g_end..].trim_start().len());
    }
    let end = text[start..]
        .find(char::is_whitespace)
        .map_or(text.len(), |e| start + e);
    let end = text[start..end].find(';').map_or(end, |e| start + e);
    (&text[..start], &text[start..end], &text[end..])
}

fn scope_index(s: &str) -> Option<u8> {
    SCOPES.iter().position(|x| *x == s).map(|i| i as u8)
}

/// The next narrower scope the target allows.
fn narrower(scope: u8, isa: Isa) -> Option<u8> {
    let mut s = scope.checked_sub(1)?;
    if SCOPES[s as usize] == "cluster" && !isa.allows((7, 8), 90) {
        s = s.checked_sub(1)?;
    }
    Some(s)
}

fn sem_bits(s: &str) -> Option<u8> {
    Some(match s {
        "sc" => SC | ACQ | REL,
        "acq_rel" => ACQ | REL,
        "acquire" => ACQ,
        "release" => REL,
        "relaxed" => 0,
        _ => return None,
    })
}

/// The cheaper forms of one instruction that the PTX ISA offers for the target `isa` (see the
/// [module](self) table), strongest first: the same instruction with a weaker `.sem`, removed,
/// one scope narrower. Empty when the instruction is not a synchronization instruction or has
/// no weaker form (`fence.acquire.cta`: only removed).
///
/// ```
/// use ptx_sync_model::advise::{weaker_forms, Isa};
/// let f: Vec<Option<String>> = weaker_forms("fence.sc.gpu", Isa::LITMUS)
///     .into_iter()
///     .map(|f| f.text)
///     .collect();
/// assert_eq!(
///     f,
///     [Some("fence.acq_rel.gpu"), Some("fence.release.gpu"), Some("fence.acquire.gpu"), None,
///      Some("fence.sc.cluster")]
///         .map(|x| x.map(String::from))
/// );
/// ```
pub fn weaker_forms(text: &str, isa: Isa) -> Vec<Form> {
    let (guard, mn, rest) = split_inst(text);
    let toks: Vec<&str> = mn.split('.').collect();
    let build = |t: &[String]| format!("{guard}{}{rest}", t.join("."));
    let owned = || toks.iter().map(|s| s.to_string()).collect::<Vec<String>>();
    let mut out = Vec::new();
    let removed = |sem: u8, scope: u8| Form {
        text: None,
        change: "removed".into(),
        sem,
        scope,
    };
    let head = toks[0];
    let at = |i: usize| toks.get(i).copied().unwrap_or("");
    match head {
        "fence" | "membar" => {
            let proxy = at(1) == "proxy";
            if proxy {
                if at(2).starts_with("async") {
                    out.push(removed(0, 0));
                }
                return out;
            }
            if toks
                .iter()
                .any(|t| *t == "mbarrier_init" || t.starts_with("sync_restrict"))
            {
                out.push(removed(0, 0));
                return out;
            }
            let (sem, scope) = if head == "membar" {
                let s = match at(1) {
                    "cta" => 0,
                    "gl" => 2,
                    "sys" => 3,
                    _ => return out,
                };
                ("sc", s)
            } else {
                let Some(scope) = toks.last().and_then(|s| scope_index(s)) else {
                    return out;
                };
                let sem = if toks.len() == 3 { toks[1] } else { "acq_rel" };
                if toks.len() > 3 || sem_bits(sem).is_none() || sem == "relaxed" {
                    return out;
                }
                (sem, scope)
            };
            let bits = sem_bits(sem).unwrap_or(0);
            let sname = SCOPES[scope as usize];
            // `membar` is `fence.sc` (§9.7.13.4); its weaker forms are `fence`s (`sm_70`, PTX 6.0).
            let fence_ok = head == "fence" || isa.allows((6, 0), 70);
            for (to, need) in [
                ("acq_rel", ((6, 0), 70)),
                ("release", ((8, 6), 90)),
                ("acquire", ((8, 6), 90)),
            ] {
                let tb = sem_bits(to).unwrap_or(0);
                if tb & bits == tb && tb != bits && fence_ok && isa.allows(need.0, need.1) {
                    out.push(Form {
                        text: Some(format!("{guard}fence.{to}.{sname}{rest}")),
                        change: format!("{sem} → {to}"),
                        sem: tb,
                        scope,
                    });
                }
            }
            out.push(removed(0, 0));
            if let Some(n) = narrower(scope, isa) {
                let nname = SCOPES[n as usize];
                let t = if head == "membar" {
                    match nname {
                        "cluster" => format!("{guard}fence.sc.cluster{rest}"),
                        "gpu" => format!("{guard}membar.gl{rest}"),
                        _ => format!("{guard}membar.cta{rest}"),
                    }
                } else {
                    let mut t = owned();
                    *t.last_mut().unwrap() = nname.to_string();
                    build(&t)
                };
                out.push(Form {
                    text: Some(t),
                    change: format!("{sname} → {nname}"),
                    sem: bits,
                    scope: n,
                });
            }
        }
        "ld" | "st" => {
            let Some(i) = toks
                .iter()
                .position(|t| matches!(*t, "relaxed" | "acquire" | "release"))
            else {
                return out;
            };
            if toks.contains(&"mmio") || toks.contains(&"async") || toks.contains(&"bulk") {
                return out;
            }
            let Some(scope) = scope_index(at(i + 1)) else {
                return out;
            };
            let sem = toks[i];
            let bits = sem_bits(sem).unwrap_or(0);
            if bits != 0 {
                let mut t = owned();
                t[i] = "relaxed".into();
                out.push(Form {
                    text: Some(build(&t)),
                    change: format!("{sem} → relaxed"),
                    sem: 0,
                    scope,
                });
            }
            if let Some(n) = narrower(scope, isa) {
                let mut t = owned();
                t[i + 1] = SCOPES[n as usize].into();
                out.push(Form {
                    text: Some(build(&t)),
                    change: format!("{} → {}", SCOPES[scope as usize], SCOPES[n as usize]),
                    sem: bits,
                    scope: n,
                });
            }
        }
        "atom" | "red" => {
            if at(1) == "async" {
                return out;
            }
            let (sem_i, sem) = match sem_bits(at(1)) {
                Some(_) => (Some(1), at(1)),
                None => (None, "relaxed"),
            };
            let scope_pos = sem_i.map_or(1, |i| i + 1);
            let (scope, explicit) = match scope_index(at(scope_pos)) {
                Some(s) => (s, true),
                None => (2, false),
            };
            let bits = sem_bits(sem).unwrap_or(0);
            if let Some(i) = sem_i {
                let tos: &[&str] = match sem {
                    "acq_rel" => &["acquire", "release", "relaxed"],
                    "acquire" | "release" => &["relaxed"],
                    _ => &[],
                };
                for to in tos {
                    let mut t = owned();
                    t[i] = to.to_string();
                    out.push(Form {
                        text: Some(build(&t)),
                        change: format!("{sem} → {to}"),
                        sem: sem_bits(to).unwrap_or(0),
                        scope,
                    });
                }
            }
            if let Some(n) = narrower(scope, isa) {
                let mut t = owned();
                let nname = SCOPES[n as usize].to_string();
                if explicit {
                    t[scope_pos] = nname.clone();
                } else {
                    t.insert(scope_pos, nname.clone());
                }
                out.push(Form {
                    text: Some(build(&t)),
                    change: format!("{} → {nname}", SCOPES[scope as usize]),
                    sem: bits,
                    scope: n,
                });
            }
        }
        "mbarrier" => {
            let default_sem = match at(1) {
                "arrive" | "arrive_drop" => "release",
                "test_wait" | "try_wait" => "acquire",
                _ => return out,
            };
            if toks.contains(&"noComplete") {
                return out;
            }
            // `.sem.scope` follow the operation and its `.expect_tx` / `.parity`.
            let mut pos = 2;
            if matches!(at(pos), "expect_tx" | "parity") {
                pos += 1;
            }
            let explicit = sem_bits(at(pos)).is_some();
            let sem = if explicit { at(pos) } else { default_sem };
            let scope = if explicit {
                match scope_index(at(pos + 1)) {
                    Some(s) => s,
                    None => return out,
                }
            } else {
                0
            };
            let bits = sem_bits(sem).unwrap_or(0);
            if bits != 0 && isa.allows((8, 6), 90) {
                let mut t = owned();
                if explicit {
                    t[pos] = "relaxed".into();
                } else {
                    t.insert(pos, "cta".into());
                    t.insert(pos, "relaxed".into());
                }
                out.push(Form {
                    text: Some(build(&t)),
                    change: format!("{sem} → relaxed"),
                    sem: 0,
                    scope,
                });
            }
            if explicit && scope == 1 {
                let mut t = owned();
                t[pos + 1] = "cta".into();
                out.push(Form {
                    text: Some(build(&t)),
                    change: "cluster → cta".into(),
                    sem: bits,
                    scope: 0,
                });
            }
        }
        "barrier" if at(1) == "cluster" && at(2) == "arrive" => {
            // `.release` is the default; `.relaxed` since PTX 8.0.
            if at(3) == "relaxed" || !isa.allows((8, 0), 90) {
                return out;
            }
            let mut t = owned();
            if at(3) == "release" {
                t[3] = "relaxed".into();
            } else {
                t.insert(3, "relaxed".into());
            }
            out.push(Form {
                text: Some(build(&t)),
                change: "release → relaxed".into(),
                sem: 0,
                scope: 1,
            });
        }
        _ => {}
    }
    out
}

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
    col: Option<usize>,
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

    fn with_status(&self, thread: &str, line: usize, f: impl Fn(&Status) -> bool) -> Vec<String> {
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

fn form_text(f: &Form) -> String {
    f.text.clone().unwrap_or_else(|| "(removed)".to_string())
}

/// `−A −B +C` from the old and the new cost rows; `no row` where either is missing.
fn saved(old: Option<&[String]>, new: Option<&[String]>) -> String {
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

fn columns(rows: &[[String; 5]]) -> String {
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
struct Verdict {
    /// The test's name (litmus) or the entry.
    name: String,
    races: BTreeSet<String>,
    hangs: BTreeSet<String>,
    flags: BTreeSet<(String, String)>,
    /// `Observation Never` / `assertion holds: false` / `no assertion`.
    truth: String,
    /// Executions cut at the unroll bound.
    cut: usize,
}

impl Verdict {
    fn of_litmus(o: &crate::Outcome) -> Verdict {
        Verdict {
            name: o.test.name.clone(),
            races: o.found.races.iter().cloned().collect(),
            hangs: o.found.hangs.iter().cloned().collect(),
            flags: o.found.flags.iter().cloned().collect(),
            truth: format!("Observation {}", o.observation),
            cut: o.found.cut,
        }
    }

    fn of_kernel(o: &crate::kernel::KernelOutcome) -> Verdict {
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

    fn summary(&self) -> String {
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
    fn normalize(mut self, renames: &[(String, String)]) -> Verdict {
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
    fn differs_from(&self, base: &Verdict) -> Option<String> {
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

/// One litmus test of a group with the same program.
struct Lit {
    text: String,
    file: String,
    /// Line (1-based) of its init block's `{`: the program's line `k` of the group is line
    /// `start + k` here.
    start: usize,
    /// `--unroll N` (`None`: the file's own bound or [`crate::parse::DEFAULT_UNROLL`]).
    unroll: Option<u32>,
}

enum Subject {
    Litmus(Vec<Lit>),
    Kernel {
        module: Box<Module>,
        check: KernelCheck,
    },
}

fn lerr(file: &str, msg: String) -> Error {
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
    fn run(
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
fn edit_litmus(
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
fn sites_of(code: &[(Option<usize>, String, usize, String)], isa: Isa) -> Vec<(Site, Vec<Form>)> {
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
fn greedy_key(f: &Form) -> (u8, u8, u8, u8) {
    (
        f.text.is_some() as u8,
        f.sem.count_ones() as u8,
        f.sem,
        f.scope,
    )
}

fn advise(
    subject: Subject,
    name: String,
    sites: Vec<(Site, Vec<Form>)>,
    isa: Isa,
) -> Result<Advice, Error> {
    let t0 = Instant::now();
    let (sites, forms): (Vec<Site>, Vec<Vec<Form>>) = sites.into_iter().unzip();
    let file = match &subject {
        Subject::Litmus(t) => t[0].file.clone(),
        Subject::Kernel { module, .. } => module.file.clone(),
    };
    let (base, _) = subject.run(&sites, &[], None).map_err(|m| lerr(&file, m))?;
    let baseline_seconds = t0.elapsed().as_secs_f64();
    if let Some(b) = base.iter().find(|b| b.cut > 0) {
        return Err(Error {
            kind: ErrorKind::Unsupported,
            file,
            line: 0,
            msg: format!(
                "{}: {} executions are cut at the unroll bound, so the verdict is not decided and --advise has nothing to compare with (raise --unroll)",
                b.name, b.cut
            ),
        });
    }
    let mut advice = Advice {
        subject: name,
        baseline: base.iter().map(Verdict::summary).collect(),
        checks: 1,
        baseline_seconds,
        ..Default::default()
    };
    for (i, fs) in forms.iter().enumerate() {
        let mut failed: Vec<&Form> = Vec::new();
        for f in fs {
            let status = if let Some(g) = failed.iter().find(|g| f.weaker_or_equal(g)) {
                Status::Implied(form_text(g))
            } else {
                advice.checks += 1;
                match subject.run(&sites, &[(i, f.text.clone())], Some(&base)) {
                    Ok((_, None)) => Status::Kept,
                    Ok((_, Some(why))) => {
                        failed.push(f);
                        Status::Breaks(why)
                    }
                    Err(e) => Status::Error(e),
                }
            };
            advice.tried.push(Tried {
                site: i,
                form: f.clone(),
                status,
            });
        }
    }
    // The greedy combination.
    let mut chosen: Vec<(usize, Form)> = Vec::new();
    for i in 0..sites.len() {
        let mut kept: Vec<&Form> = advice
            .tried
            .iter()
            .filter(|t| t.site == i && t.status == Status::Kept)
            .map(|t| &t.form)
            .collect();
        kept.sort_by_key(|f| greedy_key(f));
        let try_with = |f: &Form, chosen: &[(usize, Form)], n: &mut usize| -> bool {
            let mut edits: Vec<(usize, Option<String>)> =
                chosen.iter().map(|(j, g)| (*j, g.text.clone())).collect();
            edits.push((i, f.text.clone()));
            *n += 1;
            matches!(subject.run(&sites, &edits, Some(&base)), Ok((_, None)))
        };
        let mut pick: Option<Form> = None;
        for f in kept {
            // Alone it passed; with nothing chosen yet it is the same check.
            if chosen.is_empty() || try_with(f, &chosen, &mut advice.combination_checks) {
                pick = Some(f.clone());
                break;
            }
        }
        let Some(mut f) = pick else { continue };
        // Narrower scopes of the chosen form (sem and scope together).
        while let Some(text) = &f.text {
            let Some(n) = weaker_forms(text, isa)
                .into_iter()
                .find(|g| g.text.is_some() && g.scope < f.scope && g.sem == f.sem)
            else {
                break;
            };
            if try_with(&n, &chosen, &mut advice.combination_checks) {
                f = Form {
                    change: format!("{}, {}", f.change, n.change),
                    ..n
                };
            } else {
                break;
            }
        }
        chosen.push((i, f));
    }
    advice.checks += advice.combination_checks;
    advice.combination = chosen;
    advice.sites = sites;
    advice.seconds = t0.elapsed().as_secs_f64();
    Ok(advice)
}

/// Advice on litmus tests that share one program (the same init block and instruction rows; only
/// the condition differs, e.g. the seed's §2.5 hand-off `seed-2.5-ten-fences-data` and
/// `-someone-empties`): `tests` are `(text, file)`. A weakening is kept only when every test keeps
/// its verdict. Each re-check parses the rewritten text again (a litmus parse is a fraction of a
/// millisecond; the model check is the cost).
pub fn advise_litmus(tests: &[(&str, &str)]) -> Result<Advice, Error> {
    advise_litmus_with(tests, None)
}

/// [`advise_litmus`] with every check at the loop unroll bound `unroll` (`check --unroll N`;
/// `None`: the default).
pub fn advise_litmus_with(tests: &[(&str, &str)], unroll: Option<u32>) -> Result<Advice, Error> {
    let Some(&(text0, file0)) = tests.first() else {
        return Err(lerr("", "no litmus test to advise on".into()));
    };
    let mut lits = Vec::new();
    let mut key0 = None;
    let mut names = Vec::new();
    for &(text, file) in tests {
        let t = crate::parse(text, file)?;
        let (start, key) = program_key(text, t.condition_line);
        match &key0 {
            None => key0 = Some(key),
            Some(k) if *k != key => {
                return Err(lerr(
                    file,
                    format!("its program differs from {file0}'s: advise on each on its own"),
                ))
            }
            _ => {}
        }
        names.push(t.name.clone());
        lits.push(Lit {
            text: text.to_string(),
            file: file.to_string(),
            start,
            unroll,
        });
    }
    let test = crate::parse(text0, file0)?;
    let mut code = Vec::new();
    for (k, th) in test.threads.iter().enumerate() {
        let Some(p) = &th.prog else {
            return Err(test
                .engine
                .clone()
                .unwrap_or_else(|| lerr(file0, format!("thread P{k} has no program"))));
        };
        for l in &p.code().lines {
            code.push((Some(k), format!("P{k}"), l.at.line, l.at.text.to_string()));
        }
    }
    let sites = sites_of(&code, Isa::LITMUS);
    advise(Subject::Litmus(lits), names.join(" + "), sites, Isa::LITMUS)
}

/// The program of a litmus text: `(line of the init block's "{", the lines from it up to the
/// condition)`.
fn program_key(text: &str, cond_line: usize) -> (usize, Vec<String>) {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.trim_start().starts_with('{'))
        .unwrap_or(0);
    let end = cond_line.saturating_sub(1).clamp(start, lines.len());
    (
        start + 1,
        lines[start..end]
            .iter()
            .map(|l| l.trim().to_string())
            .collect(),
    )
}

/// Advice on one launch of a kernel: the module is parsed once; each re-check flattens the entry
/// again from the parsed statements with the one statement rewritten
/// ([`Module::launch_edited`]) and runs the whole model check. `Err`: the module or the launch
/// is bad input ([`ErrorKind::Parse`]), or the model cannot decide the kernel as written
/// (unsupported, or cut at the unroll bound: [`ErrorKind::Unsupported`]).
///
/// ```
/// use ptx_sync_model::advise::advise_kernel;
/// use ptx_sync_model::kernel::KernelCheck;
/// use ptx_sync_model::ptx::module::{Bind, Launch};
/// // Message passing between two threads of one CTA at `.gpu` scope (PTX ISA §8.8).
/// let ptx = ".version 8.6\n.target sm_90\n.address_size 64\n\
///     .visible .entry mp(.param .u64 p0)\n{\n\
///     .reg .b32 %r<4>; .reg .b64 %rd<2>; .reg .pred %p<2>;\n\
///     ld.param.u64 %rd1, [p0];\nmov.u32 %r1, %tid.x;\nsetp.ne.u32 %p1, %r1, 0;\n\
///     @%p1 bra C;\nst.u32 [%rd1+4], 42;\nst.release.gpu.u32 [%rd1], 1;\nret;\n\
///     C:\nld.acquire.gpu.u32 %r2, [%rd1];\nsetp.eq.u32 %p1, %r2, 0;\n@%p1 bra C;\n\
///     ld.u32 %r3, [%rd1+4];\nst.u32 [%rd1+8], %r3;\nret;\n}\n";
/// let mut launch = Launch::new([1, 1, 1], [2, 1, 1]);
/// launch.params.push((0, Bind::Buf(12)));
/// let check = KernelCheck { entry: "mp".into(), launch, assert: Some("exists (p0[2] != 42)".into()) };
/// let a = advise_kernel(ptx, "mp.ptx", &check).unwrap();
/// // Both threads are in one CTA: the flag store and load narrow to `.cta` (line 12, line 15);
/// // neither may drop its release / acquire.
/// let mut c = a.combined();
/// c.sort();
/// assert_eq!(c[0], ("mp".to_string(), 12, "st.release.cta.u32 [%rd1], 1".to_string()));
/// assert_eq!(c[1], ("mp".to_string(), 15, "ld.acquire.cta.u32 %r2, [%rd1]".to_string()));
/// assert_eq!(a.kept_at("mp", 12), ["st.release.cluster.u32 [%rd1], 1"]);
/// assert_eq!(a.broken_at("mp", 12), ["st.relaxed.gpu.u32 [%rd1], 1"]);
/// ```
pub fn advise_kernel(ptx: &str, file: &str, check: &KernelCheck) -> Result<Advice, Error> {
    let module = Module::parse(ptx, file)?;
    advise_module(module, ptx, check)
}

fn advise_module(module: Module, ptx: &str, check: &KernelCheck) -> Result<Advice, Error> {
    let isa = Isa::of_module(ptx);
    let kernel = module.launch(&check.entry, &check.launch)?;
    let mut code = Vec::new();
    if let Some(t) = kernel.threads.first() {
        for l in &t.code().lines {
            code.push((None, check.entry.clone(), l.at.line, l.at.text.to_string()));
        }
    }
    let sites = sites_of(&code, isa);
    let name = format!("{}: {}", module.file, check.entry);
    advise(
        Subject::Kernel {
            module: Box::new(module),
            check: check.clone(),
        },
        name,
        sites,
        isa,
    )
}

/// `--advise` on one module's PTX text already read (`file`: the name its messages give): prints
/// the advice; returns the exit code of [`cli`] (2 also for a module that does not parse).
pub fn cli_ptx(text: &str, file: &str, kernel: &KernelOptions, cost: CostFn) -> i32 {
    let module = match Module::parse(text, file) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{e}");
            return if e.kind == ErrorKind::Parse { 2 } else { 3 };
        }
    };
    let check = match crate::kernel::check_of_options(&module, kernel) {
        Ok(c) => c,
        Err(m) => {
            eprintln!("{m}");
            return 2;
        }
    };
    match advise_module(module, text, &check) {
        Ok(a) => {
            print!("{}", a.render(cost));
            0
        }
        Err(e) => {
            eprintln!("{e}");
            if e.kind == ErrorKind::Parse {
                2
            } else {
                3
            }
        }
    }
}

/// A litmus file's text and its path as shown.
type TextAndFile = (String, String);

/// `ptx-sync check PATHS… --advise`: `.ptx` files with the launch `kernel` describes (one
/// advice each), litmus files grouped by program (one advice per group). Prints
/// [`Advice::render`] with `cost`; returns the exit code: 0 advised, 2 bad input, 3 the model
/// could not decide the program as written.
pub fn cli(paths: &[PathBuf], kernel: &KernelOptions, cost: CostFn) -> i32 {
    let (ptx, rest): (Vec<&PathBuf>, Vec<&PathBuf>) = paths
        .iter()
        .partition(|p| p.extension().is_some_and(|e| e == "ptx"));
    let mut code = 0;
    let report = |r: Result<Advice, Error>| -> i32 {
        match r {
            Ok(a) => {
                print!("{}", a.render(cost));
                0
            }
            Err(e) => {
                eprintln!("{e}");
                if e.kind == ErrorKind::Parse {
                    2
                } else {
                    3
                }
            }
        }
    };
    for p in ptx {
        let text = match crate::kernel::read_ptx(p) {
            Ok(t) => t,
            Err(m) => {
                eprintln!("{m}");
                return 2;
            }
        };
        code = code.max(cli_ptx(&text, &p.display().to_string(), kernel, cost));
    }
    if rest.is_empty() {
        return code;
    }
    let rest: Vec<PathBuf> = rest.into_iter().cloned().collect();
    let files = match crate::litmus_files(&rest) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("ptx-sync check: {e}");
            return 2;
        }
    };
    // Group the litmus files by program, in the order given.
    let mut groups: Vec<(Vec<String>, Vec<TextAndFile>)> = Vec::new();
    for f in &files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("ptx-sync check: {}: {e}", f.display());
                return 2;
            }
        };
        let file = f.display().to_string();
        let key = match crate::parse(&text, &file) {
            Ok(t) => program_key(&text, t.condition_line).1,
            Err(e) => {
                code = code.max(report(Err(e)));
                continue;
            }
        };
        match groups.iter_mut().find(|g| g.0 == key) {
            Some(g) => g.1.push((text, file)),
            None => groups.push((key, vec![(text, file)])),
        }
    }
    for (_, g) in &groups {
        let tests: Vec<(&str, &str)> = g.iter().map(|(t, f)| (t.as_str(), f.as_str())).collect();
        code = code.max(report(advise_litmus_with(&tests, kernel.unroll)));
        println!();
    }
    code
}
