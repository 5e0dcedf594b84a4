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

mod advice;
mod forms;
mod subject;

pub use advice::*;
pub use forms::*;
use subject::*;

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

/// The exit code of an advice (printed with `cost`) or of its error: 0 advised, 2 bad input, 3
/// the model could not decide the program as written.
fn report_advice(r: Result<Advice, Error>, cost: CostFn) -> i32 {
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
}

/// `--advise` on one module's PTX text already read (`file`: the name its messages give): prints
/// the advice; returns the exit code of [`cli`] (2 also for a module that does not parse).
pub fn cli_ptx(text: &str, file: &str, kernel: &KernelOptions, cost: CostFn) -> i32 {
    let module = match Module::parse(text, file) {
        Ok(m) => m,
        Err(e) => return report_advice(Err(e), cost),
    };
    let check = match crate::kernel::check_of_options(&module, kernel) {
        Ok(c) => c,
        Err(m) => {
            eprintln!("{m}");
            return 2;
        }
    };
    report_advice(advise_module(module, text, &check), cost)
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
    let report = |r: Result<Advice, Error>| report_advice(r, cost);
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
