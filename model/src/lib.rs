//! The PTX memory consistency model (PTX ISA chapter 8) as code.
//!
//! `ptx-sync-model` reads litmus tests in the PTX dialect of the field (herd7-style files, the
//! format of the tests that accompany the formal PTX model papers; see `model/FORMAT.md`), and
//! explores their executions, extending only those that satisfy the axioms of PTX ISA §8.10. It answers in herd7's conventions (`Test`, `States`, `Ok`/`No`, `Witnesses`,
//! `Observation`), in JSON, and as a witness graph (DOT, SVG). It is the checker behind
//! `ptx-sync check` and the seed's §6 (the vocabulary of chapter 8) made executable.
//!
//! # The model, rule by rule
//!
//! Each definition is one function of [`engine::axioms`] whose doc quotes the ISA sentence it
//! implements (the Hopper parts — mbarrier, async operations, clusters — are in [`engine::mbar`],
//! [`engine::asyncop`] and [`engine::explore`]; the decisions the ISA leaves open are in
//! `model/SEMANTICS.md`):
//!
//! | PTX ISA | definition |
//! |---|---|
//! | 8.7 | morally strong: same thread, or both strong with scopes that include each other's thread; same proxy; complete overlap |
//! | 8.7.1 | data race: conflicting, not morally strong, not ordered by causality order (reported as `Flag data-race`) |
//! | 8.8 | release patterns (release op; release op/fence then strong write) and acquire patterns (acquire op; strong read then acquire op/fence). `red` is never the read of an acquire pattern (seed §4.5) |
//! | 8.9.2 | observation order: morally strong reads-from, through chains of atomic RMWs |
//! | 8.9.3 | Fence-SC order: every morally strong pair of `fence.sc` ordered |
//! | 8.9.4 | synchronizes-with: Fence-SC order; `bar` arrivals with the waiters of the same barrier generation; `barrier.cluster.arrive` (not `.relaxed`) with `barrier.cluster.wait`; release pattern with acquire pattern through observation order |
//! | 8.9.5 | base causality order (program order ∪ synchronizes-with, transitive), proxy-preserved (same address generic; same proxy same CTA; alias and proxy fences on the path), causality order (optionally after one observation step) |
//! | 8.9.6 | coherence order: morally strong writes ordered, causality-ordered writes ordered, racy writes may stay unordered |
//! | 8.10.1–6 | Coherence, Fence-SC, Atomicity, No Thin Air, SC per location, Causality |
//!
//! # Exploration
//!
//! Every thread is an interpreter of its PTX ([`ptx`]: litmus columns and compiled kernels alike)
//! behind one interface ([`engine::op::Program`]). The engine ([`engine::explore`]) adds one event
//! at a time: stores, fences, barriers and the issue of async operations in program order, and
//! loads that *run ahead* of earlier loads they do not depend on (load buffering without guessing
//! values). A pending load chooses the write it reads from among those in the graph, or waits
//! for a later one; every choice is checked against the axioms at once (they only get stricter as
//! events are added), so only consistent partial executions are extended. A complete execution is
//! allowed when some Fence-SC order and some coherence order satisfy every axiom. Loops run until
//! an iteration leaves the thread as it was (a spin loop: its waiting is a possible *hang*) or up
//! to the unroll bound (`--unroll`, [`parse::DEFAULT_UNROLL`]; a cut path makes the verdict
//! `bounded`).
//!
//! # Example
//!
//! ```
//! let text = r#"PTX MP
//! {
//! x=0; y=0;
//! }
//!  P0@cta 0,gpu 0               | P1@cta 1,gpu 0              ;
//!  st.weak [x], 1               | ld.acquire.gpu r0, [y]      ;
//!  st.release.gpu [y], 1        | ld.weak r1, [x]             ;
//! exists (P1:r0 == 1 /\ P1:r1 == 0)
//! "#;
//! let out = ptx_sync_model::check(text, "mp.litmus").unwrap();
//! assert!(!out.ok); // the stale read is forbidden by Causality (8.10.6)
//! assert_eq!(out.observation, ptx_sync_model::Observation::Never);
//! assert!(out.herd().contains("Observation MP Never"));
//! ```

// Events are numbered; loops over event indices read several per-event tables at once.
#![allow(clippy::needless_range_loop)]

pub mod advise;
pub mod ast;
pub mod engine;
pub mod found;
pub mod kernel;
pub mod parse;
pub mod ptx;
pub mod report;

pub use ast::Test;
pub use parse::{Error, ErrorKind};
pub use report::{Observation, Outcome};

use std::path::{Path, PathBuf};
use std::time::Instant;

/// Parses a litmus test (`file` names it in messages).
pub fn parse(text: &str, file: &str) -> Result<Test, Error> {
    parse::parse(text, file)
}

/// Parses and checks a litmus test against the PTX model.
pub fn check(text: &str, file: &str) -> Result<Outcome, Error> {
    let t0 = Instant::now();
    let test = parse::parse(text, file)?;
    check_test(test, t0)
}

/// Checks a parsed test.
pub fn check_test(test: Test, t0: Instant) -> Result<Outcome, Error> {
    check_test_with(test, t0, engine::explore::Limits::default())
}

/// Checks a parsed test under `limits` (exploration steps, events, threads).
pub fn check_test_with(
    test: Test,
    t0: Instant,
    limits: engine::explore::Limits,
) -> Result<Outcome, Error> {
    let found = engine::litmus::run_with(&test, limits)?;
    Ok(Outcome::new(test, found, t0.elapsed().as_secs_f64()))
}

/// Reads and checks one file (a regular file: a FIFO or a device is refused, never read).
pub fn check_file(path: &Path) -> Result<Outcome, Error> {
    check_file_with(path, &CheckOptions::default())
}

/// Reads and checks one file with `opts`' unroll bound.
pub fn check_file_with(path: &Path, opts: &CheckOptions) -> Result<Outcome, Error> {
    let t0 = Instant::now();
    let name = path.display().to_string();
    let err = |msg: String| Error {
        kind: ErrorKind::Parse,
        file: name.clone(),
        line: 0,
        msg,
    };
    match std::fs::metadata(path) {
        Ok(md) if !md.is_file() => return Err(err("not a regular file".into())),
        Ok(_) => {}
        Err(e) => return Err(err(format!("cannot read: {e}"))),
    }
    let text = std::fs::read(path).map_err(|e| err(format!("cannot read: {e}")))?;
    let text = String::from_utf8(text).map_err(|_| err("not UTF-8 text".into()))?;
    let mut test = parse::parse(&text, &name)?;
    if let Some(u) = opts.unroll {
        test.set_unroll(u);
    }
    let mut limits = engine::explore::Limits::default();
    if let Some(j) = opts.jobs {
        limits.jobs = j.max(1);
    }
    check_test_with(test, t0, limits)
}

/// The `.litmus` files named by `paths`, sorted within each directory, each file once.
///
/// Directories are searched recursively; symbolic links are followed, but a directory reached
/// again (a symlink loop, or two links to one directory) is not searched twice, and a file
/// reached twice is listed once. Inside a directory only regular files whose name ends in
/// `.litmus` are taken: a FIFO, socket or device named `*.litmus` is skipped (reading it could
/// block). A path given explicitly must be a directory or a regular file.
pub fn litmus_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    use std::collections::HashSet;
    struct Walk {
        out: Vec<PathBuf>,
        dirs: HashSet<PathBuf>,
        files: HashSet<PathBuf>,
    }
    impl Walk {
        fn file(&mut self, p: &Path) -> Result<(), String> {
            let real = std::fs::canonicalize(p).map_err(|e| format!("{}: {e}", p.display()))?;
            if self.files.insert(real) {
                self.out.push(p.to_path_buf());
            }
            Ok(())
        }
        fn dir(&mut self, p: &Path) -> Result<(), String> {
            let real = std::fs::canonicalize(p).map_err(|e| format!("{}: {e}", p.display()))?;
            if !self.dirs.insert(real) {
                return Ok(());
            }
            let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| format!("{}: {e}", p.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .collect();
            entries.sort();
            for e in entries {
                // Follows symlinks; a dangling link or a link loop has no metadata: skipped
                // unless it is named like a litmus file (then it is an error).
                match std::fs::metadata(&e) {
                    Ok(md) if md.is_dir() => self.dir(&e)?,
                    Ok(md) if md.is_file() && e.extension().is_some_and(|x| x == "litmus") => {
                        self.file(&e)?
                    }
                    Ok(_) => {}
                    Err(err) if e.extension().is_some_and(|x| x == "litmus") => {
                        return Err(format!("{}: {err}", e.display()))
                    }
                    Err(_) => {}
                }
            }
            Ok(())
        }
    }
    let mut w = Walk {
        out: Vec::new(),
        dirs: HashSet::new(),
        files: HashSet::new(),
    };
    for p in paths {
        let md = std::fs::metadata(p).map_err(|e| format!("{}: {e}", p.display()))?;
        if md.is_dir() {
            w.dir(p)?;
        } else if md.is_file() {
            w.file(p)?;
        } else {
            return Err(format!(
                "{}: not a regular file or a directory",
                p.display()
            ));
        }
    }
    Ok(w.out)
}

/// Options of `ptx-sync check`.
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    /// Write all verdicts as one JSON array to this file.
    pub json: Option<PathBuf>,
    /// Write each test's witness as `NAME.dot` and `NAME.svg` into this directory.
    pub witness: Option<PathBuf>,
    /// `--unroll N`: backward jumps to one loop head per entry before a path is cut (default
    /// [`parse::DEFAULT_UNROLL`]). Spin loops that only wait do not need it.
    pub unroll: Option<u32>,
    /// `--jobs N`: threads that explore one test together (default `PTX_SYNC_JOBS`, else the
    /// cores this process may use); the verdicts do not depend on it (`model/SEMANTICS.md` S9).
    pub jobs: Option<usize>,
}

/// `ptx-sync check FILE|DIR ...`: prints herd-style results, returns the exit code: 0 every
/// file decided, 3 some construct unsupported or some verdict bounded (a loop cut at the unroll
/// bound), 2 a parse error or unreadable input.
pub fn cli(paths: &[PathBuf], opts: &CheckOptions) -> i32 {
    let files = match litmus_files(paths) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("ptx-sync check: {e}");
            return 2;
        }
    };
    if files.is_empty() {
        eprintln!("ptx-sync check: no .litmus file in the paths given");
        return 2;
    }
    if let Some(d) = &opts.witness {
        if let Err(e) = std::fs::create_dir_all(d) {
            eprintln!("ptx-sync check: cannot create {}: {e}", d.display());
            return 2;
        }
    }
    let mut parse_err = false;
    let mut unsupported = false;
    let mut json = Vec::new();
    let (mut ok, mut no, mut bounded) = (0, 0, 0);
    for f in &files {
        match check_file_with(f, opts) {
            Ok(out) => {
                {
                    // Written as formatted; a closed pipe ends the writing, not the check.
                    use std::io::Write;
                    let mut w = std::io::stdout().lock();
                    let mut open = true;
                    out.herd_to(&mut |part| open = open && w.write_all(part.as_bytes()).is_ok());
                    let _ = writeln!(w);
                }
                if out.bounded() {
                    bounded += 1
                } else if out.ok {
                    ok += 1
                } else {
                    no += 1
                }
                if let Some(d) = &opts.witness {
                    if let Some(dot) = out.dot() {
                        let stem = sanitize(&out.test.name);
                        let _ = std::fs::write(d.join(format!("{stem}.dot")), &dot);
                        match report::svg_of_dot(&dot) {
                            Some(svg) => {
                                let _ = std::fs::write(d.join(format!("{stem}.svg")), svg);
                            }
                            None => eprintln!("ptx-sync check: {}: no SVG (layout failed); the DOT file is written", f.display()),
                        }
                    }
                }
                // The JSON report only when asked for: a state map per test is most of the
                // memory of a large test.
                if opts.json.is_some() {
                    json.push(out.json());
                }
            }
            Err(e) => {
                match e.kind {
                    ErrorKind::Parse => parse_err = true,
                    ErrorKind::Unsupported => unsupported = true,
                }
                eprintln!("{e}");
                json.push(serde_json::json!({"file": f.display().to_string(), "error": e.to_string(),
                    "kind": match e.kind { ErrorKind::Parse => "parse", ErrorKind::Unsupported => "unsupported" }}));
            }
        }
    }
    if let Some(p) = &opts.json {
        let text = serde_json::to_string_pretty(&json).unwrap_or_default();
        if let Err(e) = std::fs::write(p, text) {
            eprintln!("ptx-sync check: cannot write {}: {e}", p.display());
            return 2;
        }
    }
    eprintln!(
        "checked {} files: {} Ok, {} No{}{}{}",
        files.len(),
        ok,
        no,
        if bounded > 0 {
            format!(", {bounded} bounded (raise --unroll)")
        } else {
            String::new()
        },
        if unsupported {
            ", some unsupported"
        } else {
            ""
        },
        if parse_err {
            ", some with parse errors"
        } else {
            ""
        }
    );
    if parse_err {
        2
    } else if unsupported || bounded > 0 {
        3
    } else {
        0
    }
}

fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' || c == '+' {
                c
            } else {
                '_'
            }
        })
        .collect()
}
