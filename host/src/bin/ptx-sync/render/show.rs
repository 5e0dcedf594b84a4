//! `ptx-sync show [FILTER]`: every catalog variant with its PTX and the SASS ptxas makes of it in
//! a one-instruction kernel ([`costs::show_sass`], the wiring of the cost table extended to the
//! async rows). SASS column: the opcodes, `(none)` (ptxas emits nothing beyond the wiring), `-`
//! (an access type the u32 wiring does not take), `- (why)`, or `ptxas: message` for a row whose
//! wrapper ptxas rejected.

use ptx_sync::catalog::{for_each_variant, Variant};
use ptx_sync_host::{costs, sass};
use std::fmt::Write as _;

/// The catalog rows whose PTX, family or Rust names contain every word of `filter`.
pub fn matching(filter: &str) -> Vec<Variant> {
    let words: Vec<String> = filter.split_whitespace().map(str::to_lowercase).collect();
    let mut v = Vec::new();
    for_each_variant(|x| {
        let hay = format!(
            "{} {} {} {} {} {} {} {}",
            x.ptx, x.family, x.op, x.ty, x.sem, x.scope, x.space, x.form
        )
        .to_lowercase();
        if words.iter().all(|w| hay.contains(w.as_str())) {
            v.push(x);
        }
    });
    v
}

/// Renders the rows; with `tools`, adds the SASS of each row that has a wrapper (one ptxas call,
/// [`costs::show_sass`]).
pub fn render(rows: &[Variant], tools: Result<std::path::PathBuf, String>) -> String {
    let mut s = String::new();
    let shown = tools.and_then(|t| {
        let ver = sass::tool_version(&t, "ptxas").unwrap_or_else(|_| "ptxas".into());
        let _ = writeln!(
            s,
            "SASS: ptxas -arch={} -O3 ({ver}; architecture-specific rows at their own target, \
             sm_90a / sm_100a); opcodes beyond a wiring-only baseline",
            costs::ARCH
        );
        costs::show_sass(&t, rows)
    });
    if let Err(e) = &shown {
        let _ = writeln!(s, "SASS: not shown — {}", e.lines().next().unwrap_or(""));
    }
    let w = rows.iter().map(|r| r.ptx.len()).max().unwrap_or(3).max(3);
    let _ = writeln!(s, "{:<w$}  {:<40}  SASS", "PTX", "Rust");
    for (i, v) in rows.iter().enumerate() {
        let rust = rust_of(v);
        let sass = match &shown {
            Ok(m) => m[i].column(),
            Err(_) => "-".to_string(),
        };
        let _ = writeln!(s, "{:<w$}  {:<40}  {sass}", v.ptx, rust);
    }
    let _ = writeln!(s, "{} variant(s)", rows.len());
    s
}

/// How the row is written in Rust: the call path its table row records ([`Variant::rust`]), or
/// the family, op and form where the row does not record one.
pub fn rust_of(v: &Variant) -> String {
    if !v.rust.is_empty() {
        return v.rust.to_string();
    }
    format!("{} {} {}", v.family, v.op, v.form)
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filter_matches_all_words() {
        let v = matching("fence sc");
        assert_eq!(v.len(), 4, "{v:?}");
        assert!(v.iter().all(|x| x.ptx.starts_with("fence.sc.")));
        assert!(matching("no-such-instruction").is_empty());
        assert!(matching("").len() > 100);
        let r = matching("ld.acquire.gpu.u32");
        assert!(r.iter().any(|x| x.ptx == "ld.acquire.gpu.u32"));
    }

    #[test]
    fn renders_without_tools() {
        let rows = matching("fence.sc.gpu");
        let s = render(&rows, Err("no PTX tools here".into()));
        assert!(s.contains("SASS: not shown — no PTX tools here"), "{s}");
        assert!(
            s.contains("fence.sc.gpu") && s.contains("fence::<Sc, Gpu>()"),
            "{s}"
        );
    }
}
