//! `ptx-sync show --ptx FILE.ptx|FILE.cubin [FUNCTION]`: the synchronization instructions of any
//! PTX module, per function, with their meaning (semantics, scope, state space, proxy, the seed
//! section), the SASS they became and their cost row from `docs/fence-costs.md`; and lints.
//!
//! The PTX is assembled with `ptxas -O3` for the architecture of its `.target` and dumped with
//! `cuobjdump -sass`. PTX instructions are mapped to SASS by the order of synchronization opcodes
//! (each PTX instruction takes the SASS sync opcodes up to the next one of its own family, plus a
//! trailing `CCTL.IVALL` for an acquire): ptxas may reorder, merge, duplicate or delete them, so
//! the mapping is approximate and says so. A `.cubin` has no PTX: only its SASS sync instructions.
//!
//! Lints, printed as `lint: <name>: <function>: <message> (line N)` — heuristics, the fast first
//! look at what the PTX shows (each one's limits are in its doc in `inspect/lints.rs` and in
//! `docs/inspect.md`):
//! * `aligned-barrier-two-paths` — an `.aligned` barrier reached from two paths
//!   ([`ptx_cfg::duplicated`], PTX ISA §9.7.13.1);
//! * `weak-spin-loop` — a loop whose exit branch depends on a weak load (seed §3.5);
//!   `sass-loop-without-load` — a SASS loop with no load left in it (ptxas hoisted it);
//! * `hoisted-spin-loop` — a loop that reads no memory and whose exits (if any) nothing in it
//!   changes: LLVM hoisted the flag's weak load and left `bra.uni` to itself (seed §3.5);
//! * `timed-wait-without-load` — a bounded wait whose loop reads only a clock: the flag was read
//!   once, before it, so it can only time out (seed §3.5);
//! * `remote-arrive-cta-scope` — `mbarrier.arrive` on a `.shared::cluster` address with `.cta`
//!   scope (seed §5.4);
//! * `cta-scope-across-ctas` — a `.cta` release/acquire (or `.cta` fence next to the flag) on
//!   global memory in a kernel that branches on `%ctaid` (seed §3.5 fn. 15, PTX ISA §8.5, §8.7);
//! * `generic-load-then-tma-write` — a TMA write into shared memory after a generic load of the
//!   same buffer on some path, with no `fence.proxy.async` between (seed §5.3);
//! * `arrive-without-proxy-fence` — an `mbarrier.arrive` after a generic load of a buffer a TMA
//!   writes, with no `fence.proxy.async` between (seed §5.3);
//! * `cp-async-barrier-without-wait` — `cp.async` (+ `commit_group`) then a barrier with no
//!   `cp.async.wait_group`/`wait_all` between (seed §5.1).
//!
//! The PTX reader sees through the library's inline-asm blocks (`{ .reg .b64 t; cvt…; cvta…; }`:
//! each block's registers are its own) and register copies when it follows an address to its
//! buffer.
//!
//! For SASS lints the line is the PTX line of the function (PTX input) or the line of the
//! `cuobjdump -sass` dump (cubin input).
//!
//! Cost: near-linear in the module (a dominator tree per function by Cooper–Harvey–Kennedy, the
//! PTX-to-SASS mapping by Myers' O((n+m)·D) walk, prefix sums for the SASS loops); measured in
//! `docs/inspect.md`. A module of 20,000 spin loops spends its time in `ptxas`, not here.

use crate::ptx_cfg::{self, Ins};
use crate::sass;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;
use std::path::Path;
use std::process::Command;

mod costs;
mod mapping;
mod meaning;
mod ptxas;
mod sass_lint;

pub use costs::*;
use mapping::*;
pub use meaning::*;
pub use ptxas::*;
pub use sass_lint::*;

/// A lint finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lint {
    /// The lint's name (`"aligned-barrier-two-paths"`, `"weak-spin-loop"`, …).
    pub name: &'static str,
    /// The PTX function it fired in.
    pub function: String,
    /// What is wrong and the fix, with the seed section.
    pub message: String,
    /// The 1-based PTX line of the instruction it points at.
    pub line: usize,
}

impl std::fmt::Display for Lint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "lint: {}: {}: {} (line {})",
            self.name, self.function, self.message, self.line
        )
    }
}

mod lints;
pub use lints::ptx_lints;
#[cfg(test)]
use lints::tma_into_shared;

/// The report of a PTX module (`only`: one function) and its lints. `Err((2, msg))`: the file
/// is missing or rejected; `Err((1, msg))`: the tools are missing or failed otherwise.
pub fn inspect_ptx(
    tools: &Path,
    path: &Path,
    only: Option<&str>,
) -> Result<(String, Vec<Lint>), (u8, String)> {
    let ptx = std::fs::read_to_string(path)
        .map_err(|e| (2, format!("cannot read {}: {e}", path.display())))?;
    let arch = target_arch(&ptx);
    let dump = assemble(tools, path, &arch).map_err(|e| (2, e))?;
    let sfuncs = sass::parse_functions(&dump);
    let sfunc: HashMap<&str, &sass::Function> =
        sfuncs.iter().map(|s| (s.name.as_str(), s)).collect();
    let funcs = ptx_cfg::functions(&ptx);
    let symbols = ptx_cfg::module_symbols(&ptx);
    let mut text = String::new();
    let mut lints = Vec::new();
    let mut shown = 0;
    for f in &funcs {
        if only.is_some_and(|n| n != f.name) {
            continue;
        }
        shown += 1;
        let sf = sfunc.get(f.name.as_str()).copied();
        let _ = writeln!(
            text,
            "{} ({}, line {}), {arch}:",
            f.name,
            if f.entry { ".entry" } else { ".func" },
            f.line
        );
        let syncs: Vec<(&Ins, Meaning)> = f
            .ins
            .iter()
            .filter_map(|i| meaning(&i.op).map(|m| (i, m)))
            .collect();
        // A strong access to `.shared` is a plain `LDS`/`STS` in SASS (no `.STRONG`): those
        // join the candidates when the function has one.
        let strong_shared = syncs
            .iter()
            .any(|(_, m)| (m.kind == "load" || m.kind == "store") && m.space.starts_with("shared"));
        let sass_sync: Vec<&sass::Instr> = sf.map_or(vec![], |s| {
            s.instrs
                .iter()
                .filter(|i| {
                    (sass_sync(&i.opcode)
                        || strong_shared
                            && (i.opcode.starts_with("LDS") || i.opcode.starts_with("STS")))
                        && i.pred.as_deref() != Some("!PT")
                })
                .collect()
        });
        let (mapped, moved, rest) = map_by_order(&syncs, &sass_sync);
        if sf.is_none() {
            let _ = writeln!(
                text,
                "  (no SASS function `{}` in the cubin: inlined into its callers or removed)",
                f.name
            );
        } else if !syncs.is_empty() {
            let _ = writeln!(
                text,
                "  SASS mapped to PTX by the order of sync opcodes (approximate: ptxas may \
                 reorder, merge or delete)"
            );
        }
        if syncs.is_empty() {
            let _ = writeln!(text, "  no synchronization instruction");
        }
        for (((i, m), got), moved) in syncs.iter().zip(&mapped).zip(&moved) {
            let _ = writeln!(text, "  line {:<5} {}", i.line, norm(&i.text));
            let _ = writeln!(
                text,
                "             {}: sem {}, scope {}, space {}, proxy {}; seed {}",
                m.kind, m.sem, m.scope, m.space, m.proxy, m.seed
            );
            if sf.is_some() {
                let s = if got.is_empty() {
                    "(none found)".to_string()
                } else {
                    let s = got
                        .iter()
                        .map(|g| g.opcode.as_str())
                        .collect::<Vec<_>>()
                        .join(" ");
                    if *moved {
                        format!("{s} (out of order: ptxas placed the code elsewhere)")
                    } else {
                        s
                    }
                };
                let _ = writeln!(text, "             SASS: {s}");
            }
            if let Some((k, v)) = cost_row(&i.op) {
                let _ = writeln!(
                    text,
                    "             cost row (docs/fence-costs.md, sm_90): `{k}` → {v}"
                );
            }
        }
        if !rest.is_empty() {
            let _ = writeln!(
                text,
                "  SASS sync instructions not mapped to a PTX one: {}",
                rest.iter()
                    .map(|g| sass_text(g))
                    .collect::<Vec<_>>()
                    .join("; ")
            );
        }
        lints.extend(ptx_lints(f, &symbols));
        if let Some(s) = sf {
            for l in sass_loops_without_load(s) {
                lints.push(sass_lint(&f.name, f.line, l));
            }
        }
    }
    if let Some(n) = only {
        if shown == 0 {
            let names: Vec<&str> = funcs.iter().map(|f| f.name.as_str()).collect();
            return Err((
                2,
                format!(
                    "no function `{n}` in {}; it has: {}",
                    path.display(),
                    names.join(", ")
                ),
            ));
        }
    }
    Ok((text, lints))
}

/// The report of a cubin: the SASS sync instructions per function, and the SASS lints.
pub fn inspect_cubin(
    tools: &Path,
    path: &Path,
    only: Option<&str>,
) -> Result<(String, Vec<Lint>), (u8, String)> {
    std::fs::metadata(path).map_err(|e| (2, format!("cannot read {}: {e}", path.display())))?;
    let dump = dump(tools, path).map_err(|e| (2, e))?;
    let mut text = String::new();
    let mut lints = Vec::new();
    let funcs = sass::parse_functions(&dump);
    // The dump line of each function header, and of each instruction (by function and offset):
    // one pass over the dump.
    let mut header_lines: Vec<usize> = Vec::new();
    let mut ins_line: HashMap<(usize, u32), usize> = HashMap::new();
    for (n, l) in dump.lines().enumerate() {
        if l.contains("Function : ") {
            header_lines.push(n + 1);
        } else if let (Some(fi), Some(o)) = (
            header_lines.len().checked_sub(1),
            l.trim_start()
                .strip_prefix("/*")
                .and_then(|r| r.split_once("*/"))
                .and_then(|(o, _)| u32::from_str_radix(o, 16).ok()),
        ) {
            ins_line.entry((fi, o)).or_insert(n + 1);
        }
    }
    let mut shown = 0;
    for (fi, f) in funcs.iter().enumerate() {
        if only.is_some_and(|n| n != f.name) {
            continue;
        }
        shown += 1;
        let hl = header_lines.get(fi).copied().unwrap_or(0);
        let _ = writeln!(text, "{} (SASS, dump line {hl}):", f.name);
        let syncs: Vec<&sass::Instr> = f
            .instrs
            .iter()
            .filter(|i| sass_sync(&i.opcode) && i.pred.as_deref() != Some("!PT"))
            .collect();
        if syncs.is_empty() {
            let _ = writeln!(text, "  no synchronization instruction");
        }
        for i in syncs {
            let _ = writeln!(text, "  /*{:04x}*/ {}", i.offset, sass_text(i));
        }
        for l in sass_loops_without_load(f) {
            let line = ins_line.get(&(fi, l.1)).copied().unwrap_or(hl);
            lints.push(sass_lint(&f.name, line, l));
        }
    }
    if let Some(n) = only {
        if shown == 0 {
            return Err((2, format!("no function `{n}` in {}", path.display())));
        }
    }
    Ok((text, lints))
}

/// How many lines of a tool's log (after the first) an error shows; the rest are counted.
pub const LOG_LINES: usize = 10;

/// An error message for the terminal: its first line, then at most [`LOG_LINES`] more (indented),
/// then how many were left out — a ptxas log can run to tens of thousands of lines.
///
/// ```
/// let log = format!("ptxas rejects x.ptx: line 6: error\n{}", "line N: error\n".repeat(30));
/// let shown = ptx_sync_host::inspect::error_lines(&log);
/// assert_eq!(shown.len(), 12);
/// assert_eq!(shown[0], "ptx-sync: ptxas rejects x.ptx: line 6: error");
/// assert_eq!(shown[11], "  … and 20 more lines");
/// ```
pub fn error_lines(msg: &str) -> Vec<String> {
    let mut lines = msg.lines().filter(|l| !l.trim().is_empty());
    let mut out = vec![format!("ptx-sync: {}", lines.next().unwrap_or("failed"))];
    out.extend(lines.by_ref().take(LOG_LINES).map(|l| format!("  {l}")));
    let rest = lines.count();
    if rest > 0 {
        out.push(format!(
            "  … and {rest} more line{}",
            if rest == 1 { "" } else { "s" }
        ));
    }
    out
}

/// Why `path` cannot be inspected, as one line (`None`: it is a file).
fn unreadable(path: &Path) -> Option<String> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => Some(format!(
            "cannot read {}: it is a directory (give a .ptx or .cubin file)",
            path.display()
        )),
        Ok(_) => None,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Some(format!("cannot read {}: no such file", path.display()))
        }
        Err(e) => Some(format!("cannot read {}: {e}", path.display())),
    }
}

/// `ptx-sync show --ptx FILE [FUNCTION]`: prints the report and the lints; the exit code
/// (0, lints are warnings; 2 a missing/unreadable file, a directory, or one ptxas rejects; 1 no
/// tools).
pub fn command(path: &Path, only: Option<&str>) -> u8 {
    if let Some(e) = unreadable(path) {
        eprintln!("ptx-sync: {e}");
        return 2;
    }
    let tools = match sass::find_tools() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("ptx-sync: {e}");
            return 1;
        }
    };
    let cubin = path.extension().is_some_and(|e| e == "cubin");
    let r = if cubin {
        inspect_cubin(&tools, path, only)
    } else {
        inspect_ptx(&tools, path, only)
    };
    match r {
        Ok((text, lints)) => {
            print!("{text}");
            for l in &lints {
                println!("{l}");
            }
            if lints.is_empty() {
                println!("no lint");
            }
            0
        }
        Err((code, msg)) => {
            for l in error_lines(&msg) {
                eprintln!("{l}");
            }
            code
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The length of a longest common subsequence by the quadratic table (the reference).
    fn lcs_len(n: usize, m: usize, fits: &dyn Fn(usize, usize) -> bool) -> usize {
        let mut dp = vec![vec![0usize; m + 1]; n + 1];
        for i in (0..n).rev() {
            for k in (0..m).rev() {
                dp[i][k] = dp[i + 1][k].max(dp[i][k + 1]);
                if fits(i, k) {
                    dp[i][k] = dp[i][k].max(1 + dp[i + 1][k + 1]);
                }
            }
        }
        dp[0][0]
    }

    #[test]
    fn myers_finds_a_longest_common_subsequence() {
        // Pseudo-random sequences over small alphabets, with a relation that is not an
        // equivalence (x fits y when y is x or x + 1): the walk's pairs fit, ascend, and are as
        // many as the quadratic table's.
        let mut next = crate::ptx_cfg::rng(0x2545_f491_4f6c_dd1d);
        for case in 0..400 {
            let (n, m) = (next(24) as usize, next(24) as usize);
            let a: Vec<u64> = (0..n).map(|_| next(4)).collect();
            let b: Vec<u64> = (0..m).map(|_| next(5)).collect();
            let fits = |i: usize, k: usize| b[k] == a[i] || b[k] == a[i] + 1;
            let got = lcs(n, m, &fits, 4096);
            assert_eq!(
                got.len(),
                lcs_len(n, m, &fits),
                "case {case}: {a:?} {b:?} {got:?}"
            );
            assert!(got.iter().all(|&(i, k)| fits(i, k)), "case {case}");
            assert!(got.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1));
        }
        // Past the bound on D: the greedy match is still in order and fits.
        let fits = |i: usize, k: usize| (i + k).is_multiple_of(3);
        let got = lcs(50, 60, &fits, 2);
        assert!(!got.is_empty());
        assert!(got.iter().all(|&(i, k)| fits(i, k)));
        assert!(got.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1));
    }

    #[test]
    fn meanings_and_cost_rows() {
        let m = meaning("ld.acquire.gpu.global.u32").unwrap();
        assert_eq!(
            (
                m.kind,
                m.sem.as_str(),
                m.scope.as_str(),
                m.space.as_str(),
                m.seed
            ),
            ("load", "acquire", "gpu", "global", "§3.5")
        );
        assert!(meaning("ld.global.u32").is_none());
        assert!(meaning("ld.weak.u32").is_none());
        assert_eq!(meaning("atom.global.add.u32").unwrap().sem, "relaxed");
        assert_eq!(meaning("fence.proxy.async").unwrap().proxy, "async");
        assert_eq!(
            cost_row("fence.sc.gpu").unwrap().1,
            "MEMBAR.SC.GPU ERRBAR CGAERRBAR CCTL.IVALL"
        );
        assert_eq!(cost_row("membar.gl").unwrap().0, "fence.sc.gpu");
        assert_eq!(
            cost_row("st.release.cta.shared.u32").unwrap().1,
            "MEMBAR.ALL.CTA ST.E.STRONG.SM"
        );
        assert_eq!(
            cost_row("atom.acq_rel.gpu.global.add.s32").unwrap().0,
            "atom.acq_rel.gpu.add.u32"
        );
        assert!(cost_row("atom.acq_rel.gpu.global.cas.b32").is_none());
        assert!(cost_row("red.relaxed.gpu.or.b32").is_none());
        assert!(cost_row("mbarrier.arrive.shared.b64").is_none());
        assert_eq!(target_arch(".version 8.6\n.target sm_90a // x\n"), "sm_90a");
        let t = |op: &str| tma_into_shared(&op.split('.').collect::<Vec<_>>());
        assert!(t(
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
        ));
        assert!(t(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
        ));
        assert!(t(
            "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes"
        ));
        assert!(!t("cp.async.bulk.global.shared::cta.bulk_group"));
        assert!(!t(
            "cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group"
        ));
        assert!(!t("cp.async.bulk.prefetch.L2.global"));
    }
}
