//! The corpus `model/litmus/`: every test's verdict, written in the file from the PTX ISA by
//! hand (`"Expected: Never|Sometimes|Always"`, `"Flags: ..."`, `"Rule: ..."`), is asserted against
//! the checker. One test per folder; each reports every mismatch of its folder at once.

use ptx_sync_model::{check_file, litmus_files, Observation};
use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("litmus")
}

/// Checks every file of one folder; returns the number checked.
fn folder(name: &str) -> usize {
    let dir = corpus().join(name);
    let files = litmus_files(std::slice::from_ref(&dir)).unwrap_or_else(|e| panic!("{e}"));
    assert!(!files.is_empty(), "no litmus file in {}", dir.display());
    let mut bad = Vec::new();
    for f in &files {
        if let Err(m) = one(f) {
            bad.push(m);
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} tests in {name}/ disagree with their expected verdict:\n{}",
        bad.len(),
        files.len(),
        bad.join("\n")
    );
    files.len()
}

fn one(f: &Path) -> Result<(), String> {
    let out = check_file(f).map_err(|e| format!("  {e}"))?;
    let t = &out.test;
    let exp: Observation = t
        .comment_field("Expected")
        .ok_or_else(|| format!("  {}: no \"Expected: ...\" comment", f.display()))?
        .parse()
        .map_err(|e| format!("  {}: {e}", f.display()))?;
    if t.comment_field("Rule").is_none() {
        return Err(format!("  {}: no \"Rule: ...\" comment", f.display()));
    }
    let mut why = Vec::new();
    if out.observation != exp {
        why.push(format!(
            "expected {exp}, the model says {} ({} positive, {} negative)",
            out.observation, out.found.positive, out.found.negative
        ));
    }
    if let Some(flags) = t.comment_field("Flags") {
        let want: std::collections::BTreeSet<String> = flags
            .split(|c: char| c == ',' || c.is_whitespace())
            .map(|f| f.trim().to_string())
            .filter(|f| !f.is_empty() && f != "none")
            .collect();
        let got: std::collections::BTreeSet<String> = out.flag_names().into_iter().collect();
        if want != got {
            why.push(format!(
                "flags expected {want:?}, found {got:?} (races {:?}, hangs {:?}, other {:?})",
                out.found.races, out.found.hangs, out.found.flags
            ));
        }
    }
    if why.is_empty() {
        Ok(())
    } else {
        Err(format!("  {}: {}", f.display(), why.join("; ")))
    }
}

#[test]
fn corpus_has_at_least_100_tests_each_with_a_verdict_and_a_rule() {
    let files = litmus_files(&[corpus()]).unwrap();
    assert!(files.len() >= 100, "only {} litmus tests", files.len());
    for f in &files {
        let t = ptx_sync_model::parse(
            &std::fs::read_to_string(f).unwrap(),
            &f.display().to_string(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            t.comment_field("Expected").is_some(),
            "{}: no Expected",
            f.display()
        );
        assert!(
            t.comment_field("Rule").is_some(),
            "{}: no Rule",
            f.display()
        );
    }
    // every folder below is checked by a test of its own
    let mut dirs: Vec<String> = std::fs::read_dir(corpus())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    assert_eq!(dirs, FOLDERS, "model/litmus/ folders and this file's tests");
}

const FOLDERS: &[&str] = &[
    "async", "atomics", "barrier", "bugs", "cluster", "fence", "isa", "liveness", "mbarrier",
    "mixed", "pointer", "proxy", "scale", "scope", "seed", "seed5",
];

#[test]
fn seed_programs() {
    folder("seed");
}
#[test]
fn isa_shapes() {
    folder("isa");
}
#[test]
fn scope_matrix() {
    folder("scope");
}
#[test]
fn barriers() {
    folder("barrier");
}
#[test]
fn proxies_and_aliases() {
    folder("proxy");
}
#[test]
fn atomics() {
    folder("atomics");
}
#[test]
fn fences() {
    folder("fence");
}
#[test]
fn seed_section5_programs() {
    folder("seed5");
}
#[test]
fn mbarrier_rules() {
    folder("mbarrier");
}
#[test]
fn async_copies_and_proxies() {
    folder("async");
}
#[test]
fn clusters() {
    folder("cluster");
}
#[test]
fn field_bug_classes() {
    folder("bugs");
}
#[test]
fn mixed_sizes_and_vectors() {
    folder("mixed");
}
#[test]
fn pointers() {
    folder("pointer");
}
#[test]
fn liveness() {
    folder("liveness");
}
#[test]
fn scale() {
    folder("scale");
}
