//! The one generator of the instruction rows (issue #20). `device/isa/*.rows` describe every
//! instruction form once (schema: `device/isa/README.md`); this module expands them into
//!
//! * `NAME.rs` per family file — its instruction traits, marker types, `asm!` leaves and
//!   catalog rows (`CATALOG`), included by the file's API module;
//! * `calls.rs` — the catalog kernels' call lists (`catalog_calls_NAME!`), so that every
//!   form's Rust path is compiled by `host/kernels`;
//! * `catalog.rs` — the list of the files' `CATALOG`s (`device/src/catalog.rs` walks it);
//! * `family.rs` — the catalog's `Family` enum, one variant per `family` of the rows files (and
//!   of a `hand.rows`, if any: families whose forms are hand-written);
//! * `access.rs`, `access_MODULE.rs` — from the `access` tables of the access families
//!   ([`access`]): the row list `access_rows!` and each row's trait impl with its `PTX`;
//! * the docs tables of the API modules ([`doc_table`], checked against the sources by
//!   `device/tests/isa.rs`, rewritten by `cargo xtask isa`).
//!
//! `device/build.rs` runs it into `OUT_DIR` (std only: no dependency in the device crate's
//! build); the test and `xtask` include the same source.
// Compiled by the device crate's build script (edition 2024) and by xtask (edition 2021, no
// `if let` chains): the nested `if`s stay.
#![allow(clippy::collapsible_if)]
#![allow(dead_code)]

pub mod access;
pub mod emit;
pub mod parse;

use std::path::Path;

pub use parse::{read, Isa};

/// The generated files: `(name under OUT_DIR/isa, contents)`.
pub fn generate(isa: &Isa) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    let mut families = std::collections::BTreeSet::new();
    let mut list = emit::header("device/isa/*.rows");
    list.push_str(
        "\n/// The catalog rows of every family file, in file-name order.\n\
         pub(crate) const GENERATED: &[&[crate::catalog::Variant]] = &[\n",
    );
    for f in &isa.files {
        for fam in &f.families {
            if fam.hand.is_some() {
                return Err(format!(
                    "{}:{}: `forms` (hand-written forms) belongs to a family of hand.rows",
                    f.path, fam.line
                ));
            }
            if !families.insert(fam.name.clone()) {
                return Err(format!(
                    "{}:{}: family `{}` is declared twice",
                    f.path, fam.line, fam.name
                ));
            }
            if f.module.is_some() {
                return Err(format!(
                    "{}:{}: a file with `module` holds no family (its forms name another file's)",
                    f.path, fam.line
                ));
            }
            if fam.module != f.families[0].module {
                return Err(format!(
                    "{}:{}: every family of a file lives in one module (`{}`, not `{}`)",
                    f.path, fam.line, f.families[0].module, fam.module
                ));
            }
        }
        let module = f.module_name()?;
        // A file of access tables only (`ld.rows`, …) has no forms: its rows are `access.rs`.
        if !f.access.is_empty() && !f.items.iter().any(|i| matches!(i, parse::Item::Form(_))) {
            continue;
        }
        out.push((format!("{}.rs", f.name), emit::rust_file(isa, f)?));
        list.push_str(&format!("    crate::{module}::CATALOG,\n"));
    }
    list.push_str("];\n");
    for fam in &isa.hand {
        if !families.insert(fam.name.clone()) {
            return Err(format!(
                "device/isa/hand.rows:{}: family `{}` is declared twice",
                fam.line, fam.name
            ));
        }
    }
    out.push(("catalog.rs".into(), list));
    out.push(("family.rs".into(), emit::family_enum(isa)));
    out.push(("calls.rs".into(), emit::calls(isa)?));
    out.push(("access.rs".into(), access::rows_macro(isa)?));
    out.extend(access::impls(isa)?);
    out.push(("access_catalog.rs".into(), access::catalog(isa)?));
    out.push(("access_leaves.rs".into(), access::leaves(isa)?));
    Ok(out)
}

impl parse::RowsFile {
    /// The API module of the file: its `module`, or its families' (one module per file).
    pub fn module_name(&self) -> Result<String, String> {
        match (&self.module, self.families.first()) {
            (Some(m), _) => Ok(m.clone()),
            (None, Some(f)) => Ok(f.module.clone()),
            (None, None) => Err(format!("{}: no family and no `module`", self.path)),
        }
    }
}

/// The family of a form: of its file, or (a file with `module`) of another file.
pub fn family_of<'a>(
    isa: &'a Isa,
    file: &'a parse::RowsFile,
    name: &str,
) -> Option<&'a parse::Family> {
    file.families
        .iter()
        .chain(isa.files.iter().flat_map(|f| f.families.iter()))
        .find(|x| x.name == name)
}

/// The length of the identifier at the start of `s` (`[A-Za-z0-9_]*`).
pub fn ident_len(s: &str) -> usize {
    s.find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
        .unwrap_or(s.len())
}

/// The next `$name` of a row template: the text before it, the name (`[A-Za-z0-9_]*`, maybe
/// empty) and the text after the name; `None` when `t` has no `$`.
pub fn next_var(t: &str) -> Option<(&str, &str, &str)> {
    let i = t.find('$')?;
    let after = &t[i + 1..];
    let n = ident_len(after);
    Some((&t[..i], &after[..n], &after[n..]))
}

/// Reads `dir` and generates (what `device/build.rs` writes).
pub fn run(dir: &Path) -> Result<Vec<(String, String)>, String> {
    generate(&read(dir)?)
}

/// The marker line that precedes a generated docs table in a source file.
pub fn table_marker(files: &[String]) -> String {
    let from: Vec<String> = files
        .iter()
        .map(|f| format!("device/isa/{f}.rows"))
        .collect();
    format!(
        "<!-- generated from {} by device/isa/gen: do not edit (cargo xtask isa) -->",
        from.join(", ")
    )
}

/// The API modules that have generated tables, with the rows files that fill them.
pub fn table_modules(isa: &Isa) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for f in &isa.files {
        // A form that is no catalog row (a special register) has no table line.
        if !f
            .items
            .iter()
            .any(|i| matches!(i, parse::Item::Form(x) if x.row))
        {
            continue;
        }
        let Ok(module) = f.module_name() else {
            continue;
        };
        match out.iter_mut().find(|(m, _)| *m == module) {
            Some((_, files)) => files.push(f.name.clone()),
            None => out.push((module, vec![f.name.clone()])),
        }
    }
    out
}

/// Replaces (or checks) the generated table of `module` in `src` (a module's source text, its
/// docs `//!` lines): the lines after the marker up to the first line that is not a table row.
/// Returns the new text, or an error naming what is missing.
pub fn splice_table(src: &str, marker: &str, table: &[String]) -> Result<String, String> {
    let lines: Vec<&str> = src.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start_matches("//!").trim() == marker)
        .ok_or_else(|| format!("no line `//! {marker}`"))?;
    let mut end = at + 1;
    while end < lines.len() && lines[end].trim_start_matches("//!").trim().starts_with('|') {
        end += 1;
    }
    let mut out: Vec<String> = lines[..=at].iter().map(|s| s.to_string()).collect();
    out.extend(table.iter().map(|l| format!("//! {l}")));
    out.extend(lines[end..].iter().map(|s| s.to_string()));
    let mut s = out.join("\n");
    if src.ends_with('\n') {
        s.push('\n');
    }
    Ok(s)
}
