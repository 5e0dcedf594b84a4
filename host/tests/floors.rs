//! The crate's SM/PTX table (`device/src/lib.rs`) against the catalog rows and ptxas 13.0
//! (issue #13: "the crate's SM/PTX table in `lib.rs` and each item's doc agree with the ISA; a
//! test reads the table and checks each floor with ptxas where ptxas enforces it").
//!
//! 1. [`table_floors_are_the_minimum_of_their_rows`]: the table is parsed from `lib.rs` (module →
//!    SM floor, PTX floor: the lowest `sm_NN` and `X.Y` of the lines that name the module;
//!    lines without a module link are the scoped accesses and fences of `atomic`/`fence`,
//!    `access` here); every catalog row of a module (the family → module map is written here)
//!    has `sm`/`ptx_isa` at or above the module's floor, and the floor is the lowest of its rows.
//! 2. [`every_row_assembles_at_its_floor`]: each row's own text, wrapped as `ptx-sync show`
//!    wraps it ([`rows_module`]), assembles at exactly `.version <row PTX floor>` and `.target
//!    sm_<row SM floor>`. ptxas 13.0 has no target below sm_75, and each target needs a PTX
//!    version of its own ([`TARGETS`], measured by [`ptxas_targets_need_their_ptx_version`]):
//!    a floor below sm_75 is assembled for sm_75, and a PTX floor below the target's own is
//!    raised to it; both are printed.
//! 3. [`ptxas_rejects_rows_below_their_floors`]: one PTX version below the row's floor (same
//!    target) and one SM below it (when that is sm_75 or above, at the lowest PTX version that
//!    target takes) ptxas must reject each row's entry, except the rows listed in
//!    [`VERSION_NOT_ENFORCED`] and [`SM_NOT_ENFORCED`]: what ptxas 13.0 accepts there, measured.
//!    Where the version below is older than the target itself takes (a row whose PTX floor is
//!    its target's, e.g. every `.cluster` row at sm_90 / 7.8), ptxas rejects the `.target` and
//!    the row's version floor cannot be told apart from its SM floor: those rows are counted
//!    and printed, not checked.
//!
//! Needs the PTX tools: `PTX_SYNC_TOOLS` (set by `cargo xtask test`) or the `.venv` made by
//! `cargo xtask setup`; without them every ptxas test here fails and says so.

#[path = "../../device/tests/common/par.rs"]
mod par;

use ptx_sync::catalog::{for_each_variant, Arch, Family, Variant};
use ptx_sync_host::costs::{ptxas_errors, rows_module};
use ptx_sync_host::sass::find_tools;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::Command;

const LIB_RS: &str = include_str!("../../device/src/lib.rs");

/// One line of the table.
#[derive(Debug)]
struct Line {
    text: String,
    modules: Vec<String>,
    sm: u16,
    ptx: u16,
}

/// `"8.6"` → 86.
fn tenths(s: &str) -> Option<u16> {
    let (a, b) = s.split_once('.')?;
    if a.is_empty() || b.len() != 1 {
        return None;
    }
    Some(a.parse::<u16>().ok()? * 10 + b.parse::<u16>().ok()?)
}

/// The rows of the `| PTX | SM floor | PTX ISA version |` table of the crate docs.
fn table() -> Vec<Line> {
    let mut lines = LIB_RS.lines().map(|l| l.trim_start_matches("//!").trim());
    lines
        .by_ref()
        .find(|l| *l == "| PTX | SM floor | PTX ISA version |")
        .expect("lib.rs has the SM/PTX table");
    assert_eq!(lines.next(), Some("|---|---|---|"));
    let mut out = Vec::new();
    for l in lines.take_while(|l| l.starts_with('|')) {
        // `| ptx | sm_NN | versions |`: the last two cells hold no `|`.
        let mut cells = l.trim_end_matches('|').rsplitn(3, '|');
        let (ptx_col, sm_col, first) = (
            cells.next().unwrap().trim(),
            cells.next().unwrap().trim(),
            cells.next().unwrap().trim_start_matches('|').trim(),
        );
        // `sm_90`, or an arch-specific first target (`**sm_90a**, sm_100a`): its number.
        let sm = sm_col
            .trim_start_matches('*')
            .strip_prefix("sm_")
            .map(|n| n.trim_end_matches(|c: char| !c.is_ascii_digit()))
            .map(|n| n.split(|c: char| !c.is_ascii_digit()).next().unwrap_or(""))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("SM floor `{sm_col}` in `{l}`"));
        let ptx = ptx_col
            .split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .filter_map(tenths)
            .min()
            .unwrap_or_else(|| panic!("no PTX version in `{ptx_col}` of `{l}`"));
        let mut modules: Vec<String> = first
            .split("[`")
            .skip(1)
            .filter_map(|s| s.split_once("`]").map(|(m, _)| m.to_string()))
            // A link to an item (`wait::Budget::with_backoff`) is not a module; a submodule
            // (`copy::blackwell`) is its module's line (`atomic::half`: the accesses').
            .filter(|m| !m.split("::").any(|seg| seg.starts_with(char::is_uppercase)))
            .map(|m| match m.split("::").next().unwrap() {
                "atomic" => "access".to_string(),
                top => top.to_string(),
            })
            .collect();
        if modules.is_empty() {
            modules.push("access".into());
        }
        out.push(Line {
            text: first.to_string(),
            modules,
            sm,
            ptx,
        });
    }
    out
}

/// The module (of the table) a catalog row belongs to, by its family. `access`: the scoped
/// `ld`/`st`/`atom`/`red` of `atomic` and the `fence.sem.scope` of `fence`.
fn module_of(v: &Variant) -> &'static str {
    use Family as F;
    match v.family {
        F::Ld | F::St | F::Atom | F::Red | F::Fence => "access",
        F::Bar | F::Barrier | F::BarrierCluster => "barrier",
        F::Mapa | F::Getctarank | F::Elect | F::ClusterSreg => "cluster",
        F::Mbarrier => "mbarrier",
        F::FenceProxyAsync | F::FenceMbarrierInit | F::FenceProxyTensormap | F::FenceProxyAlias => {
            "proxy"
        }
        F::FenceSyncRestrict | F::FenceProxyAsyncGeneric => "sync_restrict",
        F::TensormapCpFenceproxy | F::PrefetchTensormap | F::TensormapReplace => "tensormap",
        F::Createpolicy => "policy",
        F::CpAsync
        | F::CpAsyncBulk
        | F::CpAsyncBulkTensor
        | F::CpReduceAsyncBulk
        | F::CpReduceAsyncBulkTensor => "copy",
        F::Membar => "membar",
        F::Nanosleep | F::Clock => "wait",
        F::StAsync | F::RedAsync | F::StAsyncRelease | F::RedAsyncRelease => "st_async",
        F::Clusterlaunchcontrol => "clc",
        F::Griddepcontrol => "grid",
        F::Sreg => "index",
    }
}

fn rows() -> Vec<Variant> {
    let mut v = Vec::new();
    for_each_variant(|x| v.push(x));
    v
}

/// A row as the lists below name it: the mnemonic, and the form where it has one.
fn key(v: &Variant) -> String {
    if v.form.is_empty() {
        v.ptx.to_string()
    } else {
        format!("{} [{}]", v.ptx, v.form)
    }
}

#[test]
fn table_floors_are_the_minimum_of_their_rows() {
    let table = table();
    assert!(table.len() >= 15, "{table:#?}");
    // module → (SM floor, PTX floor): the lowest over the lines naming it.
    let mut floor: BTreeMap<&str, (u16, u16)> = BTreeMap::new();
    for l in &table {
        for m in &l.modules {
            let f = floor.entry(m).or_insert((u16::MAX, u16::MAX));
            *f = (f.0.min(l.sm), f.1.min(l.ptx));
        }
    }
    let rows = rows();
    let mut lowest: BTreeMap<&str, (u16, u16)> = BTreeMap::new();
    let mut below = Vec::new();
    for v in &rows {
        let m = module_of(v);
        let &(sm, ptx) = floor
            .get(m)
            .unwrap_or_else(|| panic!("module `{m}` (row {}) is not in lib.rs's table", v.ptx));
        if v.sm < sm || v.ptx_isa < ptx {
            below.push(format!(
                "{} (sm_{} / {}) below `{m}`'s table floor sm_{sm} / {ptx}",
                key(v),
                v.sm,
                v.ptx_isa
            ));
        }
        let f = lowest.entry(m).or_insert((u16::MAX, u16::MAX));
        *f = (f.0.min(v.sm), f.1.min(v.ptx_isa));
    }
    assert!(below.is_empty(), "{}", below.join("\n"));
    for (m, f) in &floor {
        match lowest.get(m) {
            Some(l) => assert_eq!(
                l, f,
                "module `{m}`: the lowest (SM, PTX×10) of its catalog rows differs from the table's"
            ),
            // Modules with no instruction row of their own: `pipeline` is built on mbarrier.
            None => assert_eq!(*m, "pipeline", "module `{m}` has no catalog row"),
        }
    }
    assert!(floor.contains_key("pipeline") && !lowest.contains_key("pipeline"));
}

#[test]
fn the_table_parser_reads_lines_and_modules() {
    // The parser against lines written here, so that a parsing mistake cannot make table and
    // rows agree by accident.
    let t = table();
    let line = |needle: &str| {
        t.iter()
            .find(|l| l.text.contains(needle))
            .unwrap_or_else(|| panic!("no line with {needle}"))
    };
    let mb = line("`init/inval/arrive/arrive_drop/test_wait`");
    assert_eq!(
        (mb.modules.as_slice(), mb.sm, mb.ptx),
        (&["mbarrier".to_string()][..], 80, 70)
    );
    let bc = line("`barrier.cluster.arrive/wait`");
    assert_eq!(bc.modules, ["barrier", "cluster"]);
    assert_eq!((bc.sm, bc.ptx), (90, 78));
    let mem = line("`membar.{cta,gl,sys}`");
    assert_eq!(
        (mem.modules.as_slice(), mem.sm, mem.ptx),
        (&["membar".to_string()][..], 20, 14)
    );
    assert_eq!(tenths("8.6"), Some(86));
    assert_eq!(tenths("sm_90"), None);
}

// ---- ptxas ---------------------------------------------------------------------------------

/// The targets of ptxas 13.0 used here and the oldest PTX ISA version each takes (PTX ISA,
/// "Release notes" target table; [`ptxas_targets_need_their_ptx_version`] measures it).
const TARGETS: [(u16, u16); 7] = [
    (75, 63),
    (80, 70),
    (86, 71),
    (87, 74),
    (89, 78),
    (90, 78),
    (100, 86),
];

/// The arch-specific targets ([`Arch`]) and the oldest PTX ISA version each takes: `sm_90a`
/// 8.0, `sm_100a` 8.6 (PTX ISA release notes). An arch row is assembled there; its rejection
/// on the base targets is `device/tests/ptxas_arch.rs`'s.
fn arch_min_version(a: Arch) -> u16 {
    match a {
        Arch::Base => unreachable!(),
        Arch::Sm90a => 80,
        Arch::Sm100a => 86,
    }
}

/// The PTX ISA versions, in order, times ten (PTX ISA §12, release history).
const VERSIONS: [u16; 43] = [
    10, 11, 12, 13, 14, 15, 20, 21, 22, 23, 30, 31, 32, 40, 41, 42, 43, 50, 60, 61, 62, 63, 64, 65,
    70, 71, 72, 73, 74, 75, 76, 77, 78, 80, 81, 82, 83, 84, 85, 86, 87, 88, 90,
];

fn prev_version(v: u16) -> u16 {
    let i = VERSIONS
        .iter()
        .position(|&x| x == v)
        .unwrap_or_else(|| panic!("PTX {v} unknown"));
    VERSIONS[i - 1]
}

fn min_version(sm: u16) -> u16 {
    TARGETS
        .iter()
        .find(|t| t.0 == sm)
        .unwrap_or_else(|| panic!("sm_{sm} not in TARGETS"))
        .1
}

/// The target below `sm` in [`TARGETS`], if any.
fn prev_target(sm: u16) -> Option<u16> {
    TARGETS.iter().rev().map(|t| t.0).find(|&t| t < sm)
}

fn ver(v: u16) -> String {
    format!("{}.{}", v / 10, v % 10)
}

fn tools() -> PathBuf {
    find_tools().unwrap_or_else(|e| panic!("{e}"))
}

/// Assembles `ptx` for `target` (`"sm_90"`, `"sm_100a"`): `Ok` or ptxas's stderr.
fn ptxas(ptx: &str, target: &str) -> Result<(), String> {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("ptx-sync-floors-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("m.ptx");
    std::fs::write(&src, ptx).unwrap();
    let out = Command::new(tools().join("ptxas"))
        .arg(format!("-arch={target}"))
        .arg("-O0")
        .arg(&src)
        .arg("-o")
        .arg(dir.join("m.cubin"))
        .output()
        .unwrap_or_else(|e| panic!("ptxas: {e}"));
    let _ = std::fs::remove_dir_all(&dir);
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Assembles `rows` at `.version v` / `.target <target>`; the indices of the rows whose entry
/// ptxas rejected. Panics when ptxas fails for a reason outside every entry (the header).
fn rejected(rows: &[&Variant], v: u16, target: &str) -> BTreeSet<usize> {
    let owned: Vec<Variant> = rows.iter().map(|v| **v).collect();
    let (m, lines) = rows_module(&owned, &ver(v), target);
    let Err(e) = ptxas(&m, target) else {
        return BTreeSet::new();
    };
    let errs = ptxas_errors(&e);
    let mut out = BTreeSet::new();
    for (line, msg) in &errs {
        let i = lines
            .iter()
            .position(|l| l.as_ref().is_some_and(|l| l.contains(line)))
            .unwrap_or_else(|| {
                panic!("ptxas error outside every entry (line {line}: {msg}):\n{e}")
            });
        out.insert(i);
    }
    assert!(
        !out.is_empty(),
        "ptxas failed with no entry error at {} {target}:\n{e}",
        ver(v)
    );
    out
}

/// The target a row is assembled for: its SM floor, or sm_75 below it.
fn target(sm: u16) -> u16 {
    sm.max(75)
}

#[test]
fn ptxas_targets_need_their_ptx_version() {
    let fence = rows()
        .into_iter()
        .find(|v| v.ptx == "fence.sc.gpu")
        .unwrap();
    for (sm, v) in TARGETS {
        let (m, _) = rows_module(&[fence], &ver(v), &format!("sm_{sm}"));
        assert_eq!(
            ptxas(&m, &format!("sm_{sm}")),
            Ok(()),
            "sm_{sm} at PTX {}",
            ver(v)
        );
        let below = prev_version(v);
        let (m, _) = rows_module(&[fence], &ver(below), &format!("sm_{sm}"));
        let e = ptxas(&m, &format!("sm_{sm}")).expect_err("a target below its PTX version");
        assert!(
            e.contains(&format!(
                "PTX .version {} does not support .target sm_{sm}",
                ver(below)
            )),
            "{e}"
        );
    }
}

/// The portable rows grouped by their (SM, PTX) floors.
fn groups(rows: &[Variant]) -> BTreeMap<(u16, u16), Vec<&Variant>> {
    let mut g: BTreeMap<(u16, u16), Vec<&Variant>> = BTreeMap::new();
    for v in rows.iter().filter(|v| v.arch == Arch::Base) {
        g.entry((v.sm, v.ptx_isa)).or_default().push(v);
    }
    g
}

/// The arch-specific rows grouped by (target, PTX floor).
fn arch_groups(rows: &[Variant]) -> BTreeMap<(&'static str, u16), Vec<&Variant>> {
    let mut g: BTreeMap<(&'static str, u16), Vec<&Variant>> = BTreeMap::new();
    for v in rows.iter().filter(|v| v.arch != Arch::Base) {
        g.entry((v.arch.suffix(), v.ptx_isa)).or_default().push(v);
    }
    g
}

#[test]
fn every_row_assembles_at_its_floor() {
    let rows = rows();
    // One module per (target, version) group, cut into parts of at most 500 rows (each entry
    // assembles alone), the parts assembled on the cores; the failures in group and row order.
    let mut jobs: Vec<(Vec<&Variant>, u16, String)> = Vec::new();
    fn push<'a>(
        jobs: &mut Vec<(Vec<&'a Variant>, u16, String)>,
        g: &[&'a Variant],
        v: u16,
        t: String,
    ) {
        for part in g.chunks(500) {
            jobs.push((part.to_vec(), v, t.clone()));
        }
    }
    for ((sm, ptx), g) in groups(&rows) {
        let t = target(sm);
        let v = ptx.max(min_version(t));
        if (t, v) != (sm, ptx) {
            println!(
                "{} rows at sm_{sm} / {}: assembled for sm_{t} at {} (ptxas 13.0's lowest)",
                g.len(),
                ver(ptx),
                ver(v)
            );
        }
        push(&mut jobs, &g, v, format!("sm_{t}"));
    }
    let mut arch_rows = 0;
    for ((t, ptx), g) in arch_groups(&rows) {
        let v = ptx.max(arch_min_version(g[0].arch));
        arch_rows += g.len();
        push(&mut jobs, &g, v, t.to_string());
    }
    let results = par::par_map(&jobs, |(g, v, t)| rejected(g, *v, t));
    let mut failed = Vec::new();
    for ((g, v, t), r) in jobs.iter().zip(results) {
        for i in r {
            failed.push(format!("{} at {t} / {}", key(g[i]), ver(*v)));
        }
    }
    assert!(arch_rows > 0, "the catalog has arch-specific rows");
    assert!(
        failed.is_empty(),
        "rows ptxas rejects at their floor:\n{}",
        failed.join("\n")
    );
}

/// The rows ptxas 13.0 assembles one PTX version below their floor (at their target), measured:
/// ptxas does not enforce these floors. The floors stay the ISA's (its PTX ISA notes, as the
/// device docs cite them): `fence.acquire`/`.release` PTX 8.6 / sm_90 (§9.7.13.4, `fence.rs`),
/// the `.shared::cta` spelling of `cp.async`'s destination PTX 7.8 (§9.7.9.25, `copy.rs`; also
/// in the `.L2::cache_hint` and `.level::prefetch_size` forms);
/// ptxas takes them at 8.5 and 7.7.
const VERSION_NOT_ENFORCED: &[&str] = &[
    "cp.async.ca.shared::cta.global [Ca:16:zfill]",
    "cp.async.ca.shared::cta.global [Ca:16]",
    "cp.async.ca.shared::cta.global [Ca:4:zfill]",
    "cp.async.ca.shared::cta.global [Ca:4]",
    "cp.async.ca.shared::cta.global [Ca:8:zfill]",
    "cp.async.ca.shared::cta.global [Ca:8]",
    "cp.async.cg.shared::cta.global [Cg:16:zfill]",
    "cp.async.cg.shared::cta.global [Cg:16]",
    "cp.async.ca.shared::cta.global.L2::cache_hint [Ca:16 cache_hint]",
    "cp.async.ca.shared::cta.global.L2::cache_hint [Ca:16:zfill cache_hint]",
    "cp.async.ca.shared::cta.global.L2::cache_hint [Ca:4 cache_hint]",
    "cp.async.ca.shared::cta.global.L2::cache_hint [Ca:4:zfill cache_hint]",
    "cp.async.ca.shared::cta.global.L2::cache_hint [Ca:8 cache_hint]",
    "cp.async.ca.shared::cta.global.L2::cache_hint [Ca:8:zfill cache_hint]",
    "cp.async.cg.shared::cta.global.L2::cache_hint [Cg:16 cache_hint]",
    "cp.async.cg.shared::cta.global.L2::cache_hint [Cg:16:zfill cache_hint]",
    // the `.level::prefetch_size` forms (copy/prefetch.rs), for the same `.shared::cta` 7.8
    "cp.async.ca.shared::cta.global.L2::64B [Ca:4 Prefetch64B]",
    "cp.async.ca.shared::cta.global.L2::64B [Ca:4:zfill Prefetch64B]",
    "cp.async.ca.shared::cta.global.L2::64B [Ca:8 Prefetch64B]",
    "cp.async.ca.shared::cta.global.L2::64B [Ca:8:zfill Prefetch64B]",
    "cp.async.ca.shared::cta.global.L2::64B [Ca:16 Prefetch64B]",
    "cp.async.ca.shared::cta.global.L2::64B [Ca:16:zfill Prefetch64B]",
    "cp.async.cg.shared::cta.global.L2::64B [Cg:16 Prefetch64B]",
    "cp.async.cg.shared::cta.global.L2::64B [Cg:16:zfill Prefetch64B]",
    "cp.async.ca.shared::cta.global.L2::cache_hint.L2::64B [Ca:4 cache_hint Prefetch64B]",
    "cp.async.ca.shared::cta.global.L2::cache_hint.L2::64B [Ca:4:zfill cache_hint Prefetch64B]",
    "cp.async.ca.shared::cta.global.L2::cache_hint.L2::64B [Ca:8 cache_hint Prefetch64B]",
    "cp.async.ca.shared::cta.global.L2::cache_hint.L2::64B [Ca:8:zfill cache_hint Prefetch64B]",
    "cp.async.ca.shared::cta.global.L2::cache_hint.L2::64B [Ca:16 cache_hint Prefetch64B]",
    "cp.async.ca.shared::cta.global.L2::cache_hint.L2::64B [Ca:16:zfill cache_hint Prefetch64B]",
    "cp.async.cg.shared::cta.global.L2::cache_hint.L2::64B [Cg:16 cache_hint Prefetch64B]",
    "cp.async.cg.shared::cta.global.L2::cache_hint.L2::64B [Cg:16:zfill cache_hint Prefetch64B]",
    "cp.async.ca.shared::cta.global.L2::128B [Ca:4 Prefetch128B]",
    "cp.async.ca.shared::cta.global.L2::128B [Ca:4:zfill Prefetch128B]",
    "cp.async.ca.shared::cta.global.L2::128B [Ca:8 Prefetch128B]",
    "cp.async.ca.shared::cta.global.L2::128B [Ca:8:zfill Prefetch128B]",
    "cp.async.ca.shared::cta.global.L2::128B [Ca:16 Prefetch128B]",
    "cp.async.ca.shared::cta.global.L2::128B [Ca:16:zfill Prefetch128B]",
    "cp.async.cg.shared::cta.global.L2::128B [Cg:16 Prefetch128B]",
    "cp.async.cg.shared::cta.global.L2::128B [Cg:16:zfill Prefetch128B]",
    "cp.async.ca.shared::cta.global.L2::cache_hint.L2::128B [Ca:4 cache_hint Prefetch128B]",
    "cp.async.ca.shared::cta.global.L2::cache_hint.L2::128B [Ca:4:zfill cache_hint Prefetch128B]",
    "cp.async.ca.shared::cta.global.L2::cache_hint.L2::128B [Ca:8 cache_hint Prefetch128B]",
    "cp.async.ca.shared::cta.global.L2::cache_hint.L2::128B [Ca:8:zfill cache_hint Prefetch128B]",
    "cp.async.ca.shared::cta.global.L2::cache_hint.L2::128B [Ca:16 cache_hint Prefetch128B]",
    "cp.async.ca.shared::cta.global.L2::cache_hint.L2::128B [Ca:16:zfill cache_hint Prefetch128B]",
    "cp.async.cg.shared::cta.global.L2::cache_hint.L2::128B [Cg:16 cache_hint Prefetch128B]",
    "cp.async.cg.shared::cta.global.L2::cache_hint.L2::128B [Cg:16:zfill cache_hint Prefetch128B]",
    "cp.async.ca.shared::cta.global.L2::256B [Ca:4 Prefetch256B]",
    "cp.async.ca.shared::cta.global.L2::256B [Ca:4:zfill Prefetch256B]",
    "cp.async.ca.shared::cta.global.L2::256B [Ca:8 Prefetch256B]",
    "cp.async.ca.shared::cta.global.L2::256B [Ca:8:zfill Prefetch256B]",
    "cp.async.ca.shared::cta.global.L2::256B [Ca:16 Prefetch256B]",
    "cp.async.ca.shared::cta.global.L2::256B [Ca:16:zfill Prefetch256B]",
    "cp.async.cg.shared::cta.global.L2::256B [Cg:16 Prefetch256B]",
    "cp.async.cg.shared::cta.global.L2::256B [Cg:16:zfill Prefetch256B]",
    "cp.async.ca.shared::cta.global.L2::cache_hint.L2::256B [Ca:4 cache_hint Prefetch256B]",
    "cp.async.ca.shared::cta.global.L2::cache_hint.L2::256B [Ca:4:zfill cache_hint Prefetch256B]",
    "cp.async.ca.shared::cta.global.L2::cache_hint.L2::256B [Ca:8 cache_hint Prefetch256B]",
    "cp.async.ca.shared::cta.global.L2::cache_hint.L2::256B [Ca:8:zfill cache_hint Prefetch256B]",
    "cp.async.ca.shared::cta.global.L2::cache_hint.L2::256B [Ca:16 cache_hint Prefetch256B]",
    "cp.async.ca.shared::cta.global.L2::cache_hint.L2::256B [Ca:16:zfill cache_hint Prefetch256B]",
    "cp.async.cg.shared::cta.global.L2::cache_hint.L2::256B [Cg:16 cache_hint Prefetch256B]",
    "cp.async.cg.shared::cta.global.L2::cache_hint.L2::256B [Cg:16:zfill cache_hint Prefetch256B]",
    "fence.acquire.cluster",
    "fence.acquire.cta",
    "fence.acquire.gpu",
    "fence.acquire.sys",
    "fence.release.cluster",
    "fence.release.cta",
    "fence.release.gpu",
    "fence.release.sys",
];

/// The rows ptxas 13.0 assembles for the target below their SM floor (sm_89 for sm_90),
/// measured: `fence.acquire`/`.release` at a non-cluster scope (the ISA requires sm_90;
/// `.cluster` itself is refused below sm_90).
const SM_NOT_ENFORCED: &[&str] = &[
    "fence.acquire.cta",
    "fence.acquire.gpu",
    "fence.acquire.sys",
    "fence.release.cta",
    "fence.release.gpu",
    "fence.release.sys",
];

#[test]
fn ptxas_rejects_rows_below_their_floors() {
    let rows = rows();
    let (mut version_ok, mut sm_ok) = (BTreeSet::new(), BTreeSet::new());
    let mut bound = 0;
    for ((sm, ptx), g) in groups(&rows) {
        let t = target(sm);
        let vb = prev_version(ptx);
        if vb < min_version(t) {
            println!(
                "{} rows at sm_{sm} / {}: PTX {} does not take sm_{t}; version floor not separable",
                g.len(),
                ver(ptx),
                ver(vb)
            );
            bound += g.len();
        } else {
            let r = rejected(&g, vb, &format!("sm_{t}"));
            version_ok.extend((0..g.len()).filter(|i| !r.contains(i)).map(|i| key(g[i])));
        }
        if let Some(tb) = prev_target(sm).filter(|_| sm >= 80) {
            let v = ptx.max(min_version(tb));
            let r = rejected(&g, v, &format!("sm_{tb}"));
            sm_ok.extend((0..g.len()).filter(|i| !r.contains(i)).map(|i| key(g[i])));
        }
    }
    // Arch rows: one PTX version below at their own target (their rejection on the portable
    // targets is device/tests/ptxas_arch.rs's).
    for ((t, ptx), g) in arch_groups(&rows) {
        let vb = prev_version(ptx);
        if vb < arch_min_version(g[0].arch) {
            println!(
                "{} rows at {t} / {}: PTX {} does not take {t}; version floor not separable",
                g.len(),
                ver(ptx),
                ver(vb)
            );
            bound += g.len();
        } else {
            let r = rejected(&g, vb, t);
            version_ok.extend((0..g.len()).filter(|i| !r.contains(i)).map(|i| key(g[i])));
        }
    }
    println!("{bound} rows' version floors not separable from their target's");
    println!("accepted one PTX version below the floor: {version_ok:#?}");
    println!("accepted one SM below the floor: {sm_ok:#?}");
    let want = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
    assert_eq!(
        version_ok,
        want(VERSION_NOT_ENFORCED),
        "rows ptxas accepts one PTX version below their floor"
    );
    assert_eq!(
        sm_ok,
        want(SM_NOT_ENFORCED),
        "rows ptxas accepts one SM below their floor"
    );
}
