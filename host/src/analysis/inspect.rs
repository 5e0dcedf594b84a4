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

/// The cost rows of `docs/fence-costs.md`: PTX → SASS (read once).
fn cost_rows() -> &'static BTreeMap<String, String> {
    static ROWS: std::sync::OnceLock<BTreeMap<String, String>> = std::sync::OnceLock::new();
    ROWS.get_or_init(read_cost_rows)
}

fn read_cost_rows() -> BTreeMap<String, String> {
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
// Lints on the PTX: `inspect/lints.rs`.

mod lints;
pub use lints::ptx_lints;
#[cfg(test)]
use lints::tma_into_shared;

// ---------------------------------------------------------------------------------------------
// SASS.

/// SASS spin loops left without their load: a predicated backward `BRA` whose loop has no load,
/// atomic or barrier wait in it and does not compute the branch's predicate (it was computed once,
/// before the loop, from the hoisted load). `(from, to)` offsets.
///
/// Linear in the function plus a binary search per backward branch: prefix counts of the loads
/// and `ELECT`s, and each predicate's writers in offset order, answer "any in the body" at once.
pub fn sass_loops_without_load(f: &sass::Function) -> Vec<(u32, u32)> {
    let is = &f.instrs;
    let load = |j: &sass::Instr| {
        let o = j.opcode.as_str();
        (o.starts_with("LD")
            || o.starts_with("ATOM")
            || o.starts_with("SYNCS")
            || o.starts_with("BAR")
            || o.starts_with("UCGABAR")
            || o.starts_with("DEPBAR"))
            && !o.starts_with("LDC")
            && !o.starts_with("LDGSTS")
    };
    let (mut loads, mut elects) = (vec![0usize; is.len() + 1], vec![0usize; is.len() + 1]);
    // Predicate → the indices of the instructions that write it (first or second operand:
    // `ISETP P0, PT, …`).
    let mut writers: HashMap<&str, Vec<usize>> = HashMap::new();
    for (k, j) in is.iter().enumerate() {
        loads[k + 1] = loads[k] + usize::from(load(j));
        elects[k + 1] = elects[k] + usize::from(j.opcode.starts_with("ELECT"));
        let ops = j.text.split_once(char::is_whitespace).map_or("", |x| x.1);
        for o in ops.split(',').take(2) {
            writers.entry(o.trim()).or_default().push(k);
        }
    }
    let mut out = Vec::new();
    for (k, i) in is.iter().enumerate() {
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
        // The body: the instructions from the target to the branch (offsets ascend).
        let s = is.partition_point(|j| j.offset < t);
        // ptxas's own `ELECT … BRA.U.ANY` loop around a single-thread instruction (TMA issue).
        if i.opcode.contains(".ANY") || elects[k + 1] > elects[s] {
            continue;
        }
        let loads_in = loads[k + 1] > loads[s];
        // The exit predicate is computed in the loop: a counting loop, not a spin on a value
        // read before it.
        let writes_pred = writers.get(p).is_some_and(|w| {
            let a = w.partition_point(|&x| x < s);
            a < w.len() && w[a] < k
        });
        if !loads_in && !writes_pred {
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

/// Maps PTX sync instructions to the SASS sync instructions by order: a longest common
/// subsequence of PTX instructions and SASS instructions of their family (the anchors), then each
/// anchor takes its unmatched companions: the `MEMBAR`/`ERRBAR`/`CGAERRBAR` right before a release
/// (or right after a fence's `MEMBAR`) and the `CCTL` right after an acquire. The rest is
/// unmatched. `moved[i]`: PTX instruction i was matched out of order (second pass).
///
/// Near-linear: [`fits`] is decided once per (PTX opcode, SASS opcode) pair of distinct
/// strings; the common subsequence is Myers' O((n+m)·D) walk ([`lcs`]; D, the instructions left
/// unmatched, is small when ptxas kept the order), with an in-order greedy match past a bound on
/// D; the second pass keeps one cursor per PTX opcode.
fn map_by_order<'a>(
    ptx: &[(&Ins, Meaning)],
    sass_sync: &[&'a sass::Instr],
) -> (Vec<Vec<&'a sass::Instr>>, Vec<bool>, Vec<&'a sass::Instr>) {
    let (n, m) = (ptx.len(), sass_sync.len());
    // Classes: distinct PTX opcodes and distinct SASS opcodes, and the fit of each pair.
    let mut pclass: HashMap<&str, usize> = HashMap::new();
    let pc: Vec<usize> = ptx
        .iter()
        .map(|(i, _)| {
            let k = pclass.len();
            *pclass.entry(i.op.as_str()).or_insert(k)
        })
        .collect();
    let mut sclass: HashMap<&str, usize> = HashMap::new();
    let sc: Vec<usize> = sass_sync
        .iter()
        .map(|s| {
            let k = sclass.len();
            *sclass.entry(s.opcode.as_str()).or_insert(k)
        })
        .collect();
    let mut prep = vec![0usize; pclass.len()];
    for (i, &c) in pc.iter().enumerate() {
        prep[c] = i;
    }
    let mut srep = vec![0usize; sclass.len()];
    for (k, &c) in sc.iter().enumerate() {
        srep[c] = k;
    }
    let table: Vec<Vec<bool>> = prep
        .iter()
        .map(|&i| {
            srep.iter()
                .map(|&k| fits(ptx[i].0, &ptx[i].1, &sass_sync[k].opcode))
                .collect()
        })
        .collect();
    let fits = |i: usize, k: usize| table[pc[i]][sc[k]];
    let mut owner: Vec<Option<usize>> = vec![None; m];
    let mut anchor: Vec<Option<usize>> = vec![None; n];
    for (i, k) in lcs(n, m, &fits, 2048) {
        owner[k] = Some(i);
        anchor[i] = Some(k);
    }
    // Second pass: what the order left unmatched takes the first free SASS instruction of its
    // family anywhere (ptxas laid the blocks out in another order). Per class, the positions
    // before its cursor are taken or do not fit, and stay so.
    let mut moved = vec![false; n];
    let mut cursor = vec![0usize; table.len()];
    for i in 0..n {
        if anchor[i].is_some() {
            continue;
        }
        let c = pc[i];
        let mut k = cursor[c];
        while k < m && (owner[k].is_some() || !fits(i, k)) {
            k += 1;
        }
        cursor[c] = k;
        if k < m {
            owner[k] = Some(i);
            anchor[i] = Some(k);
            moved[i] = true;
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

/// A longest common subsequence of `0..n` and `0..m` under the relation `fits` (any relation:
/// a pair that fits can always start a longest one of what is left), as matched pairs in
/// order: Myers' greedy walk ("An O(ND) Difference Algorithm and Its Variations", 1986), in
/// O((n+m)·D) time and O(D²) memory for the trace (16 MiB at the bound of 2,048 used here). Past `max_d` unmatched elements it gives up
/// optimality for speed: each PTX element takes the next fitting SASS element within a window
/// of 64 after the previous match.
fn lcs(
    n: usize,
    m: usize,
    fits: &dyn Fn(usize, usize) -> bool,
    max_d: usize,
) -> Vec<(usize, usize)> {
    // The furthest x of diagonals -d..=d after step d (x never exceeds n + 1).
    let row = |v: &[isize], off: isize, d: isize| -> Vec<u32> {
        v[(off - d) as usize..=(off + d) as usize]
            .iter()
            .map(|&x| x as u32)
            .collect()
    };
    let (ni, mi) = (n as isize, m as isize);
    let dmax = (n + m).min(max_d) as isize;
    let off = dmax + 1;
    let mut v = vec![0isize; 2 * off as usize + 2];
    // One row per step d (its 2d + 1 diagonals), as u32: (max_d + 1)² cells at most.
    let mut trace: Vec<Vec<u32>> = Vec::new();
    let mut done = None;
    'outer: for d in 0..=dmax {
        let mut k = -d;
        while k <= d {
            let mut x =
                if k == -d || (k != d && v[(off + k - 1) as usize] < v[(off + k + 1) as usize]) {
                    v[(off + k + 1) as usize]
                } else {
                    v[(off + k - 1) as usize] + 1
                };
            let mut y = x - k;
            while x < ni && y < mi && y >= 0 && fits(x as usize, y as usize) {
                x += 1;
                y += 1;
            }
            v[(off + k) as usize] = x;
            if x >= ni && y >= mi {
                trace.push(row(&v, off, d));
                done = Some(d);
                break 'outer;
            }
            k += 2;
        }
        trace.push(row(&v, off, d));
    }
    let Some(dend) = done else {
        // Too far apart: in-order greedy within a window.
        let mut out = Vec::new();
        let mut k0 = 0;
        for i in 0..n {
            if let Some(k) = (k0..m.min(k0 + 64)).find(|&k| fits(i, k)) {
                out.push((i, k));
                k0 = k + 1;
            }
        }
        return out;
    };
    let mut pairs = Vec::new();
    let (mut x, mut y) = (ni, mi);
    for d in (1..=dend).rev() {
        let k = x - y;
        let prev = &trace[(d - 1) as usize];
        let at = |kk: isize| prev[(kk + d - 1) as usize] as isize;
        let down = k == -d || (k != d && at(k - 1) < at(k + 1));
        let pk = if down { k + 1 } else { k - 1 };
        let px = at(pk);
        let py = px - pk;
        let (mx, my) = if down { (px, py + 1) } else { (px + 1, py) };
        while x > mx && y > my {
            x -= 1;
            y -= 1;
            pairs.push((x as usize, y as usize));
        }
        x = px;
        y = py;
    }
    while x > 0 && y > 0 {
        x -= 1;
        y -= 1;
        pairs.push((x as usize, y as usize));
    }
    pairs.reverse();
    pairs
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
