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
//! Lints, printed as `lint: <name>: <function>: <message> (line N)`:
//! * `aligned-barrier-two-paths` — an `.aligned` barrier reached from two paths
//!   ([`ptx_cfg::duplicated`], PTX ISA §9.7.13.1);
//! * `weak-spin-loop` — a loop whose exit branch depends on a weak load (seed §3.5);
//!   `sass-loop-without-load` — a SASS loop with no load left in it (ptxas hoisted it);
//! * `remote-arrive-cta-scope` — `mbarrier.arrive` on a `.shared::cluster` address with `.cta`
//!   scope (seed §5.4);
//! * `generic-load-then-tma-write` — a TMA write into shared memory after generic loads of the
//!   same buffer in straight-line code, with no `fence.proxy.async` between (seed §5.3).
//!
//! For SASS lints the line is the PTX line of the function (PTX input) or the line of the
//! `cuobjdump -sass` dump (cubin input).

use crate::ptx_cfg::{self, Func, Ins};
use crate::sass;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::path::Path;
use std::process::Command;

/// The cost table of `docs/fence-costs.md` (PTX → SASS beyond the baseline, sm_90).
const COSTS_MD: &str = include_str!("../../../docs/fence-costs.md");

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

/// What a synchronization instruction means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meaning {
    /// `load`, `store`, `atom`, `red`, `fence`, `barrier`, `mbarrier`, `async copy`, …
    pub kind: &'static str,
    /// The memory semantic (`relaxed`, `acquire`, …), as `ptx-sync show` prints it.
    pub sem: String,
    /// The scope (`cta`, `cluster`, `gpu`, `sys`), as `ptx-sync show` prints it.
    pub scope: String,
    /// The state space it addresses, as `ptx-sync show` prints it.
    pub space: String,
    /// The proxy it acts in or orders (`generic`, `async`, …).
    pub proxy: String,
    /// The seed section, e.g. `§3.5`.
    pub seed: &'static str,
    /// The SASS family ptxas lowers it to (a prefix of the anchor opcode), when one is known.
    anchors: &'static [&'static str],
}

fn has(toks: &[&str], t: &str) -> bool {
    toks.contains(&t)
}

fn first_of(toks: &[&str], set: &[&str]) -> Option<String> {
    toks.iter().find(|t| set.contains(t)).map(|t| t.to_string())
}

const SEMS: &[&str] = &[
    "weak", "relaxed", "acquire", "release", "acq_rel", "sc", "volatile", "mmio",
];
const SCOPES: &[&str] = &["cta", "cluster", "gpu", "sys"];

fn space_of(toks: &[&str]) -> String {
    for t in toks {
        for s in [
            "shared::cluster",
            "shared::cta",
            "shared",
            "global",
            "local",
            "param",
            "const",
        ] {
            if *t == s {
                return s.to_string();
            }
        }
    }
    "generic".into()
}

/// The meaning of a PTX opcode, or `None` if it is no synchronization instruction (a weak
/// `ld`/`st` is none).
pub fn meaning(op: &str) -> Option<Meaning> {
    let toks: Vec<&str> = op.split('.').collect();
    let head = toks[0];
    let sem_of = |default: &str| first_of(&toks, SEMS).unwrap_or_else(|| default.to_string());
    let scope_of = |default: &str| first_of(&toks, SCOPES).unwrap_or_else(|| default.to_string());
    let m = |kind, sem: String, scope: String, seed, anchors| Meaning {
        kind,
        sem,
        scope,
        space: space_of(&toks),
        proxy: "generic".into(),
        seed,
        anchors,
    };
    Some(match head {
        "ld" | "st" => {
            let sem = first_of(&toks, SEMS)?;
            if sem == "weak" {
                return None;
            }
            let scope = if sem == "volatile" {
                "(volatile: ≈ relaxed.sys)".to_string()
            } else {
                scope_of("gpu")
            };
            let shared = has(&toks, "shared") || has(&toks, "shared::cta");
            let (kind, anchors): (&str, &'static [&'static str]) = match (head, shared) {
                ("ld", false) => ("load", &["LD"]),
                ("ld", true) => ("load", &["LDS", "LD"]),
                (_, false) => ("store", &["ST"]),
                (_, true) => ("store", &["STS", "ST"]),
            };
            m(kind, sem, scope, "§3.5", anchors)
        }
        "atom" => m(
            "atom",
            sem_of("relaxed"),
            scope_of("gpu"),
            "§4.1–4.3",
            &["ATOM", "RED"],
        ),
        "red" => m(
            "red",
            sem_of("relaxed"),
            scope_of("gpu"),
            "§4.5",
            &["RED", "ATOM"],
        ),
        "fence" if has(&toks, "proxy") => {
            let mut x = m(
                "proxy fence",
                "-".into(),
                scope_of("-"),
                if has(&toks, "async") { "§5.3" } else { "§6" },
                &["FENCE"],
            );
            x.proxy = toks
                .iter()
                .skip_while(|t| **t != "proxy")
                .skip(1)
                .cloned()
                .collect::<Vec<_>>()
                .join(".");
            x
        }
        "fence" if has(&toks, "mbarrier_init") => m(
            "fence (mbarrier init)",
            sem_of("release"),
            scope_of("cluster"),
            "§5.4",
            &["FENCE", "MEMBAR"],
        ),
        "fence" => {
            let sem = sem_of("sc");
            let seed = if sem == "sc" { "§2.5" } else { "§3.4" };
            let anchors: &'static [&'static str] = if sem == "acquire" {
                &["CCTL"]
            } else {
                &["MEMBAR"]
            };
            m("fence", sem, scope_of("-"), seed, anchors)
        }
        "membar" => {
            let scope = match toks.get(1).copied() {
                Some("cta") => "cta",
                Some("gl") => "gpu",
                Some("sys") => "sys",
                _ => "-",
            };
            if has(&toks, "proxy") {
                let mut x = m("proxy fence", "-".into(), "-".into(), "§6", &["FENCE"]);
                x.proxy = toks.last().unwrap_or(&"").to_string();
                return Some(x);
            }
            m(
                "fence (membar = fence.sc)",
                "sc".into(),
                scope.into(),
                "§2.5",
                &["MEMBAR"],
            )
        }
        "bar" | "barrier" => {
            let cluster = has(&toks, "cluster");
            let mut x = m(
                if cluster {
                    "cluster barrier"
                } else {
                    "CTA barrier"
                },
                sem_of(if cluster {
                    "(arrive: release, wait: acquire)"
                } else {
                    "-"
                }),
                if cluster { "cluster" } else { "cta" }.into(),
                if cluster { "§5.4" } else { "§5.1" },
                if cluster {
                    &["UCGABAR", "CGABAR"]
                } else {
                    &["BAR"]
                },
            );
            if ptx_cfg::aligned_barrier(op).is_some() {
                x.kind = if cluster {
                    "cluster barrier (.aligned)"
                } else {
                    "CTA barrier (.aligned)"
                };
            }
            x
        }
        "mbarrier" => {
            let remote = has(&toks, "shared::cluster");
            let sem_default = if op.contains("arrive") {
                "release"
            } else if op.contains("wait") {
                "acquire"
            } else {
                "-"
            };
            let anchors: &'static [&'static str] = if op.contains("wait") {
                &["SYNCS.PHASECHK"]
            } else if op.contains("arrive") || op.contains("expect_tx") {
                &["SYNCS.ARRIVE"]
            } else if op.contains("init") {
                &["SYNCS.EXCH"]
            } else {
                &["SYNCS"]
            };
            m(
                "mbarrier",
                sem_of(sem_default),
                scope_of(if sem_default == "-" { "-" } else { "cta" }),
                if remote || has(&toks, "cluster") {
                    "§5.4"
                } else {
                    "§5.2"
                },
                anchors,
            )
        }
        "cp" if toks.get(1) == Some(&"async") => {
            let bulk = has(&toks, "bulk");
            let mut x = m(
                if bulk {
                    "bulk async copy (TMA)"
                } else {
                    "async copy"
                },
                "-".into(),
                "-".into(),
                if has(&toks, "multicast::cluster") {
                    "§5.4"
                } else if bulk {
                    "§5.2"
                } else {
                    "§5.1"
                },
                if bulk {
                    if op.contains("wait_group") || op.contains("commit_group") {
                        &["DEPBAR", "UBLK", "UTMA", "ACQBULK"]
                    } else {
                        &["UBLK", "UTMA"]
                    }
                } else if op.contains("wait") {
                    &["DEPBAR", "LDGDEPBAR"]
                } else if op.contains("commit") {
                    &["LDGDEPBAR"]
                } else {
                    &["LDGSTS"]
                },
            );
            if bulk {
                x.proxy = "async".into();
            }
            x
        }
        "griddepcontrol" => m(
            "grid dependency control (PDL)",
            "-".into(),
            "-".into(),
            "-",
            &["ACQBULK", "PREEXIT"],
        ),
        _ => return None,
    })
}

/// Whether a SASS opcode is a synchronization instruction (strong accesses, atomics, fences,
/// barriers, async copies).
pub fn sass_sync(op: &str) -> bool {
    let fam = op.split('.').next().unwrap_or("");
    let strong_access = (fam.starts_with("LD") || fam.starts_with("ST"))
        && op
            .split('.')
            .any(|t| t == "STRONG" || t == "VOLATILE" || t == "MMIO");
    strong_access
        || [
            "ATOM",
            "ATOMG",
            "ATOMS",
            "RED",
            "REDG",
            "REDAS",
            "MEMBAR",
            "ERRBAR",
            "CGAERRBAR",
            "CCTL",
            "BAR",
            "SYNCS",
            "UCGABAR_ARV",
            "UCGABAR_WAIT",
            "LDGSTS",
            "LDGDEPBAR",
            "DEPBAR",
            "UBLKCP",
            "UTMALDG",
            "UTMASTG",
            "UTMACMDFLUSH",
            "FENCE",
            "ACQBULK",
            "PREEXIT",
            "ARRIVES",
            "UBLKRED",
            "UTMAREDG",
        ]
        .contains(&fam)
}

/// The cost rows of `docs/fence-costs.md`: PTX → SASS.
fn cost_rows() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for l in COSTS_MD.lines() {
        let cells: Vec<&str> = l.split('|').map(str::trim).collect();
        if cells.len() >= 4 && cells[1].starts_with('`') && cells[1].ends_with('`') {
            let k = cells[1].trim_matches('`');
            if k.starts_with("ld.")
                || k.starts_with("st.")
                || k.starts_with("atom.")
                || k.starts_with("red.")
                || k.starts_with("fence.")
            {
                out.insert(k.to_string(), cells[2].to_string());
            }
        }
    }
    out
}

/// The cost row of an instruction: (the row's PTX, its SASS).
pub fn cost_row(op: &str) -> Option<(String, String)> {
    let m = meaning(op)?;
    let head = op.split('.').next()?;
    let key = match head {
        "ld" | "st" | "atom" | "red" => {
            // The table has u32 accesses and `add` atomics only.
            if !SCOPES.contains(&m.scope.as_str())
                || (head == "atom" || head == "red") && !op.split('.').any(|t| t == "add")
            {
                return None;
            }
            let tail = if head == "ld" || head == "st" {
                "u32"
            } else {
                "add.u32"
            };
            format!("{head}.{}.{}.{tail}", m.sem, m.scope)
        }
        "fence" if m.kind == "fence" => format!("fence.{}.{}", m.sem, m.scope),
        "membar" => format!("fence.sc.{}", m.scope),
        _ => return None,
    };
    cost_rows().get(&key).map(|s| (key, s.clone()))
}

/// The architecture of a module's `.target` (`sm_90a`), default `sm_90`.
pub fn target_arch(ptx: &str) -> String {
    ptx.lines()
        .map(|l| l.split("//").next().unwrap_or("").trim())
        .find_map(|l| l.strip_prefix(".target"))
        .and_then(|r| {
            r.split(|c: char| c == ',' || c.is_whitespace())
                .find(|t| t.starts_with("sm_"))
                .map(str::to_string)
        })
        .unwrap_or_else(|| "sm_90".into())
}

/// Assembles `ptx` for `arch` and dumps the SASS. `Err`: ptxas's (or cuobjdump's) message.
fn assemble(tools: &Path, src: &Path, arch: &str) -> Result<String, String> {
    let dir = std::env::temp_dir().join(format!("ptx-sync-inspect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let cubin = dir.join("module.cubin");
    let out = Command::new(tools.join("ptxas"))
        .arg(format!("-arch={arch}"))
        .arg("-O3")
        .arg(src)
        .arg("-o")
        .arg(&cubin)
        .output()
        .map_err(|e| format!("cannot start ptxas: {e}"));
    let r = out.and_then(|o| {
        if o.status.success() {
            dump(tools, &cubin)
        } else {
            Err(format!(
                "ptxas rejects {}: {}{}",
                src.display(),
                String::from_utf8_lossy(&o.stderr),
                String::from_utf8_lossy(&o.stdout)
            ))
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
    r
}

fn dump(tools: &Path, cubin: &Path) -> Result<String, String> {
    let o = Command::new(tools.join("cuobjdump"))
        .arg("-sass")
        .arg(cubin)
        .output()
        .map_err(|e| format!("cannot start cuobjdump: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "cuobjdump cannot read {}: {}{}",
            cubin.display(),
            String::from_utf8_lossy(&o.stderr),
            String::from_utf8_lossy(&o.stdout)
        ));
    }
    Ok(String::from_utf8_lossy(&o.stdout).into_owned())
}

// ---------------------------------------------------------------------------------------------
// Lints on the PTX.

/// Registers written by an instruction (its first operand; `%p1|%p2`; `{%r1, %r2}`).
fn dests(i: &Ins) -> Vec<String> {
    let no_dest = i.op.starts_with("st")
        || i.op.starts_with("red")
        || i.op.starts_with("bra")
        || i.op.starts_with("bar")
        || i.op.starts_with("fence")
        || i.op.starts_with("cp.")
        || i.op.starts_with("mbarrier.init")
        || i.op.starts_with('.');
    if no_dest {
        return vec![];
    }
    i.args.first().map_or(vec![], |a| regs(a))
}

fn regs(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut on = false;
    for c in s.chars().chain(std::iter::once(' ')) {
        if c == '%' {
            on = true;
            cur.clear();
            cur.push(c);
        } else if on && (c.is_ascii_alphanumeric() || c == '_' || c == '.') {
            cur.push(c);
        } else if on {
            on = false;
            out.push(std::mem::take(&mut cur));
        }
    }
    out
}

fn srcs(i: &Ins) -> Vec<String> {
    let skip = usize::from(!dests(i).is_empty());
    i.args.iter().skip(skip).flat_map(|a| regs(a)).collect()
}

/// A weak load that may be a flag read: `ld` / `ld.weak` of global, shared or generic memory.
fn weak_load(op: &str) -> bool {
    let toks: Vec<&str> = op.split('.').collect();
    toks[0] == "ld"
        && first_of(&toks, SEMS).is_none_or(|s| s == "weak")
        && !toks
            .iter()
            .any(|t| ["param", "const", "local", "nc"].contains(t))
}

/// Natural loops: (header block, body blocks) per back edge.
fn loops(f: &Func) -> Vec<(usize, BTreeSet<usize>)> {
    let dom = f.dominators();
    let seen = f.reachable();
    let preds = f.preds();
    let mut out = Vec::new();
    for (b, bl) in f.blocks.iter().enumerate() {
        if !seen[b] {
            continue;
        }
        for &h in &bl.succ {
            if h < f.blocks.len() && dom[b].contains(&h) {
                let mut body: BTreeSet<usize> = [h].into();
                let mut stack = vec![b];
                while let Some(x) = stack.pop() {
                    if body.insert(x) {
                        stack.extend(&preds[x]);
                    }
                }
                out.push((h, body));
            }
        }
    }
    out
}

fn lint_weak_spin(f: &Func, out: &mut Vec<Lint>) {
    let mut reported = BTreeSet::new();
    for (h, body) in loops(f) {
        let in_loop: Vec<(usize, &Ins)> = f
            .ins
            .iter()
            .enumerate()
            .filter(|(_, i)| body.contains(&i.block))
            .collect();
        // Exit branches: a predicated branch in the loop with a successor outside it.
        for (_, br) in &in_loop {
            let Some(p) = &br.pred else { continue };
            if !br.op.starts_with("bra") {
                continue;
            }
            let exits = f.blocks[br.block].succ.iter().any(|s| !body.contains(s));
            if !exits {
                continue;
            }
            // Registers the predicate depends on, through the loop's instructions.
            let mut want: BTreeSet<String> = [p.trim_start_matches('!').to_string()].into();
            let mut changed = true;
            let mut found: Option<&Ins> = None;
            while changed {
                changed = false;
                for (_, i) in &in_loop {
                    if dests(i).iter().any(|d| want.contains(d)) {
                        if weak_load(&i.op) && found.is_none() {
                            found = Some(i);
                        }
                        for s in srcs(i) {
                            if want.insert(s) {
                                changed = true;
                            }
                        }
                    }
                }
            }
            if let Some(ld) = found {
                if reported.insert(ld.line) {
                    let hl = f
                        .ins
                        .iter()
                        .find(|i| i.block == h)
                        .map_or(ld.line, |i| i.line);
                    out.push(Lint {
                        name: "weak-spin-loop",
                        function: f.name.clone(),
                        message: format!(
                            "the loop at line {hl} exits on `{}`, a weak load: ptxas may hoist \
                             it out of the loop or delete the loop (seed §3.5); use \
                             ld.relaxed.<scope> or ld.acquire.<scope>",
                            norm(&ld.text)
                        ),
                        line: ld.line,
                    });
                }
            }
        }
    }
}

fn lint_remote_arrive(f: &Func, out: &mut Vec<Lint>) {
    for i in &f.ins {
        let toks: Vec<&str> = i.op.split('.').collect();
        if toks[0] == "mbarrier"
            && i.op.contains("arrive")
            && has(&toks, "shared::cluster")
            && !has(&toks, "cluster")
        {
            out.push(Lint {
                name: "remote-arrive-cta-scope",
                function: f.name.clone(),
                message: format!(
                    "`{}` arrives on a .shared::cluster address with .cta scope ({}): \
                     it does not synchronize with a waiter in another CTA (seed §5.4); use \
                     .release.cluster",
                    i.op,
                    if has(&toks, "cta") {
                        "explicit"
                    } else {
                        "the default"
                    }
                ),
                line: i.line,
            });
        }
    }
}

/// The root of an address register: the symbol (or register) it is computed from by `mov`,
/// `cvta`, `add`, `mapa` in the function.
fn root(f: &Func, addr: &str) -> String {
    let inner = addr.trim_matches(|c| c == '[' || c == ']');
    let base = inner
        .split(['+', '-'])
        .next()
        .unwrap_or(inner)
        .trim()
        .to_string();
    let mut cur = base;
    for _ in 0..8 {
        if !cur.starts_with('%') {
            return cur;
        }
        let def = f.ins.iter().find(|i| {
            (i.op.starts_with("mov")
                || i.op.starts_with("cvta")
                || i.op.starts_with("add")
                || i.op.starts_with("mapa")
                || i.op.starts_with("cvt"))
                && i.args.first().map(String::as_str) == Some(cur.as_str())
        });
        match def.and_then(|d| d.args.get(1)) {
            Some(a) => cur = a.split(['+', '-']).next().unwrap_or(a).trim().to_string(),
            None => return cur,
        }
    }
    cur
}

/// Whether `cp.async.bulk[.tensor.Nd].<dst>.<src>…` writes shared memory: its first state space
/// (the destination) is `.shared::cluster` or `.shared::cta`.
fn tma_into_shared(toks: &[&str]) -> bool {
    toks.len() > 3
        && toks[..3] == ["cp", "async", "bulk"]
        && toks
            .iter()
            .skip(3)
            .find(|t| t.starts_with("shared::") || **t == "global")
            .is_some_and(|t| t.starts_with("shared::"))
        && !toks.contains(&"prefetch")
}

fn lint_tma_after_generic_load(f: &Func, out: &mut Vec<Lint>) {
    let preds = f.preds();
    // Straight-line runs: a block continues the previous run when its only predecessor is it.
    let mut pending: Vec<(String, &Ins)> = Vec::new();
    #[allow(clippy::needless_range_loop)] // b - 1 and b are both needed
    for b in 0..f.blocks.len() {
        if !(b > 0 && preds[b] == [b - 1] && f.blocks[b - 1].succ == [b]) {
            pending.clear();
        }
        for (_, i) in f.block_ins(b) {
            let toks: Vec<&str> = i.op.split('.').collect();
            if i.op.starts_with("fence.proxy.async") {
                pending.clear();
            } else if toks[0] == "ld"
                && !toks
                    .iter()
                    .any(|t| ["param", "const", "local", "global"].contains(t))
            {
                if let Some(a) = i.args.get(1) {
                    pending.push((root(f, a), i));
                }
            } else if tma_into_shared(&toks) {
                if let Some(dst) = i.args.first() {
                    let r = root(f, dst);
                    if let Some((_, ld)) = pending.iter().find(|(p, _)| *p == r) {
                        out.push(Lint {
                            name: "generic-load-then-tma-write",
                            function: f.name.clone(),
                            message: format!(
                                "the TMA write `{}` into `{r}` follows the generic load at line \
                                 {} of the same buffer with no fence.proxy.async between them \
                                 (seed §5.3): the async proxy may overwrite it before the load \
                                 reads",
                                i.op, ld.line
                            ),
                            line: i.line,
                        });
                    }
                }
            }
        }
    }
}

/// The PTX lints of one function.
pub fn ptx_lints(f: &Func) -> Vec<Lint> {
    let mut out = Vec::new();
    for (a, b) in ptx_cfg::duplicated(f) {
        let (x, y) = (&f.ins[a], &f.ins[b]);
        out.push(Lint {
            name: "aligned-barrier-two-paths",
            function: f.name.clone(),
            message: format!(
                "`{}` (line {}) and `{}` (line {}) are the same .aligned barrier reached from two \
                 paths: a warp split between them is undefined (PTX ISA §9.7.13.1); use one \
                 barrier after the join, or the non-aligned barrier.sync",
                norm(&x.text),
                x.line,
                norm(&y.text),
                y.line
            ),
            line: y.line,
        });
    }
    lint_weak_spin(f, &mut out);
    lint_remote_arrive(f, &mut out);
    lint_tma_after_generic_load(f, &mut out);
    out
}

// ---------------------------------------------------------------------------------------------
// SASS.

/// SASS spin loops left without their load: a predicated backward `BRA` whose loop has no load,
/// atomic or barrier wait in it and does not compute the branch's predicate (it was computed once,
/// before the loop, from the hoisted load). `(from, to)` offsets.
pub fn sass_loops_without_load(f: &sass::Function) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for i in &f.instrs {
        if !i.opcode.starts_with("BRA") {
            continue;
        }
        let Some(t) = i
            .text
            .split_whitespace()
            .last()
            .and_then(|a| u32::from_str_radix(a.trim_start_matches("0x"), 16).ok())
        else {
            continue;
        };
        if t > i.offset {
            continue;
        }
        // A spin loop exits on a condition: an unpredicated backward branch (the padding loop
        // after `EXIT`, the one after a trap) is none.
        let Some(p) = i.pred.as_deref().map(|p| p.trim_start_matches('!')) else {
            continue;
        };
        if p == "PT" {
            continue;
        }
        // ptxas's own `ELECT … BRA.U.ANY` loop around a single-thread instruction (TMA issue).
        let body = || {
            f.instrs
                .iter()
                .filter(|j| j.offset >= t && j.offset <= i.offset)
        };
        if i.opcode.contains(".ANY") || body().any(|j| j.opcode.starts_with("ELECT")) {
            continue;
        }
        let loads = f.instrs.iter().any(|j| {
            j.offset >= t
                && j.offset <= i.offset
                && (j.opcode.starts_with("LD")
                    || j.opcode.starts_with("ATOM")
                    || j.opcode.starts_with("SYNCS")
                    || j.opcode.starts_with("BAR")
                    || j.opcode.starts_with("UCGABAR")
                    || j.opcode.starts_with("DEPBAR"))
                && !j.opcode.starts_with("LDC")
                && !j.opcode.starts_with("LDGSTS")
        });
        // The exit predicate is computed in the loop (by its first or second operand: `ISETP
        // P0, PT, …`): a counting loop, not a spin on a value read before it.
        let writes_pred = body().filter(|j| j.offset != i.offset).any(|j| {
            let ops = j.text.split_once(char::is_whitespace).map_or("", |x| x.1);
            ops.split(',').take(2).any(|o| o.trim() == p)
        });
        if !loads && !writes_pred {
            out.push((t, i.offset));
        }
    }
    out
}

fn sass_lint(fname: &str, line: usize, (from, to): (u32, u32)) -> Lint {
    Lint {
        name: "sass-loop-without-load",
        function: fname.to_string(),
        message: format!(
            "the SASS loop /*{from:04x}*/..BRA /*{to:04x}*/ has no load left in it and exits on a \
             predicate computed before it: ptxas hoisted the flag load out of the loop, so it \
             spins on a stale value (seed §3.5)"
        ),
        line,
    }
}

/// Whether SASS `opcode` can be the anchor of PTX `ins`: its family, and for accesses and atomics
/// the scope (`.SM` for `.cta`, `.GPU` for `.cluster`/`.gpu`, `.SYS` for `.sys` and `.volatile`)
/// and the atomic operation.
fn fits(ins: &Ins, m: &Meaning, opcode: &str) -> bool {
    if !m.anchors.iter().any(|a| opcode.starts_with(a)) {
        return false;
    }
    let toks: Vec<&str> = opcode.split('.').collect();
    if matches!(m.kind, "load" | "store" | "atom" | "red") && toks.contains(&"STRONG") {
        let want = match (m.sem.as_str(), m.scope.as_str()) {
            ("volatile", _) | (_, "sys") => "SYS",
            (_, "cta") => "SM",
            _ => "GPU",
        };
        if !toks.contains(&want) {
            return false;
        }
    }
    if matches!(m.kind, "atom" | "red") {
        let ptx_ops = [
            "add", "or", "and", "xor", "min", "max", "inc", "dec", "cas", "exch",
        ];
        if let Some(op) = ins.op.split('.').find(|t| ptx_ops.contains(t)) {
            let want = op.to_ascii_uppercase();
            if !toks.iter().any(|t| *t == want || t.starts_with(&want)) {
                return false;
            }
        }
    }
    true
}

/// Maps PTX sync instructions to the SASS sync instructions by order: the longest common
/// subsequence of PTX instructions and SASS instructions of their family (the anchors), then each
/// anchor takes its unmatched companions: the `MEMBAR`/`ERRBAR`/`CGAERRBAR` right before a release
/// (or right after a fence's `MEMBAR`) and the `CCTL` right after an acquire. The rest is
/// unmatched. `moved[i]`: PTX instruction i was matched out of order (second pass).
fn map_by_order<'a>(
    ptx: &[(&Ins, Meaning)],
    sass_sync: &[&'a sass::Instr],
) -> (Vec<Vec<&'a sass::Instr>>, Vec<bool>, Vec<&'a sass::Instr>) {
    let (n, m) = (ptx.len(), sass_sync.len());
    let fits = |i: usize, k: usize| fits(ptx[i].0, &ptx[i].1, &sass_sync[k].opcode);
    let mut dp = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for k in (0..m).rev() {
            let mut v = dp[i + 1][k].max(dp[i][k + 1]);
            if fits(i, k) {
                v = v.max(1 + dp[i + 1][k + 1]);
            }
            dp[i][k] = v;
        }
    }
    let mut owner: Vec<Option<usize>> = vec![None; m];
    let mut anchor: Vec<Option<usize>> = vec![None; n];
    let (mut i, mut k) = (0, 0);
    while i < n && k < m {
        if fits(i, k) && dp[i][k] == 1 + dp[i + 1][k + 1] {
            owner[k] = Some(i);
            anchor[i] = Some(k);
            i += 1;
            k += 1;
        } else if dp[i + 1][k] >= dp[i][k + 1] {
            i += 1;
        } else {
            k += 1;
        }
    }
    // Second pass: what the order left unmatched takes the first free SASS instruction of its
    // family anywhere (ptxas laid the blocks out in another order).
    let mut moved = vec![false; n];
    for i in 0..n {
        if anchor[i].is_none() {
            if let Some(k) = (0..m).find(|&k| owner[k].is_none() && fits(i, k)) {
                owner[k] = Some(i);
                anchor[i] = Some(k);
                moved[i] = true;
            }
        }
    }
    let release_part =
        |o: &str| o.starts_with("MEMBAR") || o.starts_with("ERRBAR") || o.starts_with("CGAERRBAR");
    for (i, (_, me)) in ptx.iter().enumerate() {
        let Some(k) = anchor[i] else { continue };
        let releases = matches!(me.sem.as_str(), "release" | "acq_rel" | "sc");
        let acquires = matches!(me.sem.as_str(), "acquire" | "acq_rel" | "sc");
        let is_fence = me.kind.contains("fence");
        if releases || is_fence {
            let mut j = k;
            while j > 0 && owner[j - 1].is_none() && release_part(&sass_sync[j - 1].opcode) {
                j -= 1;
                owner[j] = Some(i);
            }
        }
        let mut j = k + 1;
        while j < m && owner[j].is_none() {
            let o = &sass_sync[j].opcode;
            let after = (is_fence && (release_part(o) || o.starts_with("CCTL")))
                || (acquires && o.starts_with("CCTL"));
            if !after {
                break;
            }
            owner[j] = Some(i);
            j += 1;
        }
    }
    let mut out = vec![Vec::new(); n];
    let mut rest = Vec::new();
    for (k, o) in owner.iter().enumerate() {
        match o {
            Some(i) => out[*i].push(sass_sync[k]),
            None => rest.push(sass_sync[k]),
        }
    }
    (out, moved, rest)
}

/// The statement with its whitespace runs collapsed to one space.
fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn sass_text(i: &sass::Instr) -> String {
    match &i.pred {
        Some(p) => format!("@{p} {}", i.text),
        None => i.text.clone(),
    }
}

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
    let funcs = ptx_cfg::functions(&ptx);
    let mut text = String::new();
    let mut lints = Vec::new();
    let mut shown = 0;
    for f in &funcs {
        if only.is_some_and(|n| n != f.name) {
            continue;
        }
        shown += 1;
        let sf = sfuncs.iter().find(|s| s.name == f.name);
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
        lints.extend(ptx_lints(f));
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
    // The dump line of each function header.
    let header_line = |name: &str| {
        dump.lines()
            .position(|l| l.trim() == format!("Function : {name}"))
            .map_or(0, |p| p + 1)
    };
    let mut shown = 0;
    for f in &funcs {
        if only.is_some_and(|n| n != f.name) {
            continue;
        }
        shown += 1;
        let hl = header_line(&f.name);
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
            let line = dump
                .lines()
                .position(|x| x.trim_start().starts_with(&format!("/*{:04x}*/", l.1)))
                .map_or(hl, |p| p + 1);
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

/// `ptx-sync show --ptx FILE [FUNCTION]`: prints the report and the lints; the exit code
/// (0, lints are warnings; 2 a missing/unreadable file or one ptxas rejects; 1 no tools).
pub fn command(path: &Path, only: Option<&str>) -> u8 {
    let tools = match sass::find_tools() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("ptx-sync: {e}");
            return 1;
        }
    };
    if !path.is_file() {
        eprintln!("ptx-sync: cannot read {}: no such file", path.display());
        return 2;
    }
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
            let mut lines = msg.lines().filter(|l| !l.trim().is_empty());
            eprintln!("ptx-sync: {}", lines.next().unwrap_or("failed"));
            for l in lines {
                eprintln!("  {l}");
            }
            code
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
