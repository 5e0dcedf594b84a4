//! `cargo xtask loc`: lines of Rust per crate and per module (a file or folder directly under a
//! crate's `src/` or under a binary's own folder `src/bin/NAME/`, plus its `tests/`, `benches/`
//! and `build.rs`), so that the layers are visible.
//!
//! `--markdown` prints the README's "Layout" table; `--update-readme` rewrites that table in
//! place (between the `<!-- loc -->` and `<!-- /loc -->` markers). The xtask test checks that the
//! README's rows are the (crate, module) pairs counted here (line counts change with every edit
//! and are not compared).

use std::path::{Path, PathBuf};

/// One row: crate directory (relative to the root), module, lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub krate: String,
    pub module: String,
    pub lines: usize,
}

/// The crate directories: every directory with a `Cargo.toml` at depth 1 or 2 (not `target/`,
/// not hidden), sorted.
pub fn crates(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    for depth in 0..2 {
        let mut next = Vec::new();
        for d in &dirs {
            let Ok(rd) = std::fs::read_dir(d) else {
                continue;
            };
            for e in rd.flatten() {
                let p = e.path();
                let name = e.file_name().to_string_lossy().to_string();
                if !p.is_dir() || name.starts_with('.') || name == "target" || name == "shared" {
                    continue;
                }
                if p.join("Cargo.toml").exists() && p.join("src").is_dir() {
                    out.push(p.clone());
                }
                if depth == 0 {
                    next.push(p);
                }
            }
        }
        dirs = next;
    }
    out.sort();
    out
}

/// Lines of every `.rs` file under `p` (a file or a folder).
pub fn lines_under(p: &Path) -> usize {
    if p.is_file() {
        if p.extension().is_some_and(|x| x == "rs") {
            return std::fs::read_to_string(p).map_or(0, |s| s.lines().count());
        }
        return 0;
    }
    let Ok(rd) = std::fs::read_dir(p) else {
        return 0;
    };
    rd.flatten().map(|e| lines_under(&e.path())).sum()
}

/// The rows of one crate: each entry of `src/` (a file's stem, a folder as `name/`), then
/// `tests/`, `benches/`, `build.rs` where present; rows with no Rust lines are left out.
pub fn crate_rows(root: &Path, dir: &Path) -> Vec<Row> {
    let krate = dir
        .strip_prefix(root)
        .unwrap_or(dir)
        .to_string_lossy()
        .replace('\\', "/");
    let mut entries: Vec<(String, PathBuf)> = std::fs::read_dir(dir.join("src"))
        .map(|rd| {
            rd.flatten()
                .map(|e| {
                    let p = e.path();
                    let n = e.file_name().to_string_lossy().to_string();
                    let m = if p.is_dir() {
                        format!("{n}/")
                    } else {
                        n.trim_end_matches(".rs").to_string()
                    };
                    (m, p)
                })
                .collect()
        })
        .unwrap_or_default();
    // A binary's own folder (`src/bin/NAME/`) holds its layers: each is a row of its own.
    entries = entries
        .into_iter()
        .flat_map(|(m, p)| {
            if m != "bin/" {
                return vec![(m, p)];
            }
            let mut inner: Vec<(String, PathBuf)> = Vec::new();
            for bin in std::fs::read_dir(&p).into_iter().flatten().flatten() {
                let bp = bin.path();
                let bn = bin.file_name().to_string_lossy().to_string();
                if !bp.is_dir() {
                    inner.push((format!("bin/{}", bn.trim_end_matches(".rs")), bp));
                    continue;
                }
                for e in std::fs::read_dir(&bp).into_iter().flatten().flatten() {
                    let ep = e.path();
                    let en = e.file_name().to_string_lossy().to_string();
                    let em = if ep.is_dir() {
                        format!("bin/{bn}/{en}/")
                    } else {
                        format!("bin/{bn}/{}", en.trim_end_matches(".rs"))
                    };
                    inner.push((em, ep));
                }
            }
            inner
        })
        .collect();
    entries.sort();
    for extra in ["tests", "benches"] {
        entries.push((format!("{extra}/"), dir.join(extra)));
    }
    entries.push(("build.rs".into(), dir.join("build.rs")));
    entries
        .into_iter()
        .map(|(module, p)| Row {
            krate: format!("{krate}/"),
            module,
            lines: lines_under(&p),
        })
        .filter(|r| r.lines > 0)
        .collect()
}

/// Every row of the workspace (and of the crates outside it: the kernels, the examples).
pub fn rows(root: &Path) -> Vec<Row> {
    crates(root)
        .iter()
        .flat_map(|d| crate_rows(root, d))
        .collect()
}

/// The plain report: per crate its total, then its modules.
pub fn text(rows: &[Row]) -> String {
    let mut s = String::new();
    let mut krates: Vec<&str> = rows.iter().map(|r| r.krate.as_str()).collect();
    krates.dedup();
    for k in krates {
        let mine: Vec<&Row> = rows.iter().filter(|r| r.krate == k).collect();
        let total: usize = mine.iter().map(|r| r.lines).sum();
        s += &format!("{k:<28} {total:>6}\n");
        for r in mine {
            s += &format!("  {:<26} {:>6}\n", r.module, r.lines);
        }
    }
    let all: usize = rows.iter().map(|r| r.lines).sum();
    s += &format!("{:<28} {all:>6}\n", "total");
    s
}

/// The README table: `| crate | module | lines |`.
pub fn markdown(rows: &[Row]) -> String {
    let mut s = String::from("| crate | module | lines |\n|---|---|---:|\n");
    for r in rows {
        s += &format!("| `{}` | `{}` | {} |\n", r.krate, r.module, r.lines);
    }
    s
}

/// The (crate, module) pairs of a markdown table written by [`markdown`].
pub fn parse_markdown(table: &str) -> Vec<(String, String)> {
    table
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.trim().trim_matches('|').split('|').collect();
            if cells.len() < 3 {
                return None;
            }
            let c = |i: usize| cells[i].trim().trim_matches('`').to_string();
            let (k, m) = (c(0), c(1));
            (k.ends_with('/') && !m.is_empty()).then_some((k, m))
        })
        .collect()
}

const BEGIN: &str = "<!-- loc: `cargo xtask loc --update-readme` rewrites this table -->";
const END: &str = "<!-- /loc -->";

/// The table between the markers of `readme`, if both are there.
pub fn readme_table(readme: &str) -> Option<&str> {
    let a = readme.find(BEGIN)? + BEGIN.len();
    let b = readme[a..].find(END)? + a;
    Some(&readme[a..b])
}

/// `readme` with its table replaced by `table`.
pub fn with_table(readme: &str, table: &str) -> Option<String> {
    let a = readme.find(BEGIN)? + BEGIN.len();
    let b = readme[a..].find(END)? + a;
    Some(format!("{}\n{}{}", &readme[..a], table, &readme[b..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .unwrap()
            .into()
    }

    #[test]
    fn counts_the_known_crates_and_layers() {
        let r = rows(&root());
        let has = |k: &str, m: &str| r.iter().any(|x| x.krate == k && x.module == m);
        assert!(has("device/", "atomic"), "{r:?}");
        assert!(has("host/", "bin/ptx-sync/registry/"));
        assert!(has("host/", "bin/ptx-sync/exec/"));
        assert!(has("host/", "exec/"));
        assert!(has("host/", "analysis/"));
        assert!(has("host/", "bin/ptx-sync/cli/"));
        assert!(
            !has("host/", "bin/"),
            "a binary's folder is counted by its layers"
        );
        assert!(has("host/kernels/", "litmus"));
        assert!(has("xtask/", "loc"));
        let own = r
            .iter()
            .find(|x| x.krate == "xtask/" && x.module == "loc")
            .unwrap();
        let here = include_str!("loc.rs").lines().count();
        assert_eq!(own.lines, here);
        assert!(!r.iter().any(|x| x.krate.starts_with("target")));
    }

    #[test]
    fn markdown_round_trips() {
        let r = vec![
            Row {
                krate: "a/".into(),
                module: "x/".into(),
                lines: 3,
            },
            Row {
                krate: "a/".into(),
                module: "y".into(),
                lines: 4,
            },
        ];
        assert_eq!(
            parse_markdown(&markdown(&r)),
            [
                ("a/".to_string(), "x/".to_string()),
                ("a/".into(), "y".into())
            ]
        );
        let readme = format!("# t\n{BEGIN}\nold\n{END}\nrest\n");
        let new = with_table(&readme, &markdown(&r)).unwrap();
        assert_eq!(parse_markdown(readme_table(&new).unwrap()).len(), 2);
        assert!(new.ends_with(&format!("{END}\nrest\n")));
    }

    #[test]
    fn readme_layout_table_matches_the_count() {
        let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
        let table = readme_table(&readme).expect("README.md has the loc markers");
        let want: Vec<(String, String)> = rows(&root())
            .into_iter()
            .map(|r| (r.krate, r.module))
            .collect();
        assert_eq!(
            parse_markdown(table),
            want,
            "README's Layout table is stale: run `cargo xtask loc --update-readme`"
        );
    }
}
