//! `ptx-sync tour` (`cargo xtask tour`): the seed article §1–§6, step by step — the program broken
//! and fixed, the PTX the library emits for the lines that matter, the SASS ptxas makes of the
//! kernels, and the outcomes: measured on the GPU when there is one, else the CPU analogue on real
//! threads or the loom test that checks it.

use crate::analysis::kernel_ptx;
use crate::exec::cpu;
use crate::exec::runner::{self, RunCfg};
use crate::gpu::{self, Gpu};
use crate::registry::programs::{self, Program};
use crate::render::report::{self, group};
use ptx_sync_host::sass;
use ptx_sync_programs::Verdict;
use std::collections::HashMap;
use std::process::ExitCode;
use std::time::Instant;

/// One step of the tour.
struct Step {
    title: &'static str,
    text: &'static str,
    code: &'static str,
    /// Programs, broken first: names taken from the registry's types (`names!`), so a
    /// renamed or removed program is a compile error here.
    programs: &'static [&'static str],
    /// Kernels whose whole SASS is worth showing (small fact kernels).
    facts: &'static [&'static str],
    cpu: Cpu,
    /// Prefixes of the loom tests that check this step.
    loom: &'static [&'static str],
}

#[derive(Clone, Copy)]
enum Cpu {
    None,
    Sb,
    SbAcqRel,
    Counter,
    Handoff44,
}

/// The names of registry programs: `lit T` a `ptx_sync_programs` [`Litmus`] type (`lit
/// sb::SbPlain`), `s5 T` a `Section5` type, `s54 T` a `Section54` type, `deepep i` the `i`-th
/// DeepEP entry: a renamed program is a compile error here.
///
/// [`Litmus`]: ptx_sync_programs::Litmus
macro_rules! names {
    ($($k:ident $v:tt $(:: $w:ident)*),* $(,)?) => { &[$(names!(@ $k $v $(:: $w)*)),*] };
    (@ lit $m:ident :: $T:ident) => { <ptx_sync_programs::$m::$T as ptx_sync_programs::Litmus>::NAME };
    (@ s5 $T:ident) => {
        <ptx_sync_programs::section5::$T as ptx_sync_programs::section5::Section5>::NAME
    };
    (@ deepep $i:literal) => { ptx_sync_programs::deepep::PROGRAMS[$i].name };
    (@ s54 $T:ident) => {
        <ptx_sync_programs::section5::$T as ptx_sync_programs::section5::Section54>::NAME
    };
}

const STEPS: &[Step] = &[
    Step {
        title: "§1 The hand-off, and sequential consistency",
        text: "P hands data to C1 and C2 and may overwrite it only after both have read it. Under\n\
               sequential consistency one global interleaving explains every run, and the program\n\
               is correct as written. The GPU is not SC: each section of §2 turns on one hardware\n\
               optimisation and shows how it breaks this program.",
        code: "P:  data = 42; full = 1; while empty != 1 {}; data = 43\n\
               C1: while full != 1 {}; value1 = data; done1 = 1; if done2 == 1 { empty = 1 }\n\
               C2: while full != 1 {}; value2 = data; done2 = 1; if done1 == 1 { empty = 1 }",
        programs: &[],
        facts: &[],
        cpu: Cpu::None,
        loom: &[],
    },
    Step {
        title: "§2.1 Write buffer (W→R): store buffering",
        text: "Each consumer writes its own done, then reads the other's. A write buffer lets the read\n\
               pass the write: both read 0, nobody writes empty, P waits forever. fence.sc.gpu\n\
               between them restores the order.",
        code: "C1: done1 = 1; [fence.sc.gpu]; r1 = done2      C2: done2 = 1; [fence.sc.gpu]; r2 = done1\n\
               forbidden with the fence: r1 == 0 && r2 == 0",
        programs: names![lit sb::SbPlain, lit sb::SbSc],
        facts: &[],
        cpu: Cpu::Sb,
        loom: &["s2_1"],
    },
    Step {
        title: "§2.2–2.3 Write overlap (W→W) and non-blocking reads (R→R): message passing",
        text: "P writes data then full; C waits for full then reads data. If P's writes overlap, or C's\n\
               read of data is issued early, C sees full == 1 but reads a stale 0. Each side needs\n\
               its own fence: P's orders W→W, C's orders R→R.",
        code: "P: data = 42; [fence.sc.gpu]; full = 1         C: while full != 1 {}; [fence.sc.gpu]; r = data",
        programs: names![lit mp::MpPlain, lit mp::MpFenceP, lit mp::MpFenceC, lit mp::MpFenceSc],
        facts: &[],
        cpu: Cpu::None,
        loom: &["s2_2", "s2_3"],
    },
    Step {
        title: "§2.4–2.5 Read–write overlap (R→W), and the program with ten fence.sc",
        text: "C1's read of data may complete after its write of done1: C2 sees done1, writes empty,\n\
               P writes 43, and C1's read returns 43. The correct §2.5 program puts a fence.sc.gpu next\n\
               to every flag — ten of them.",
        code: "P:  data = 42; fence.sc; full = 1; while empty != 1 {}; fence.sc; data = 43\n\
               C1: while full != 1 {}; fence.sc; value1 = data; fence.sc; done1 = 1; fence.sc;\n\
               \x20   if done2 == 1 { fence.sc; empty = 1 }          (C2 symmetric)",
        programs: names![lit handoff::Handoff25NoFence, lit handoff::Handoff25],
        facts: &[],
        cpu: Cpu::None,
        loom: &["s2_4", "s2_5"],
    },
    Step {
        title: "§3.3–3.4 Release and acquire",
        text: "A flag write that hands over access is a release, a flag read that takes it is an\n\
               acquire. st.release/ld.acquire (or fence.release/fence.acquire next to a relaxed\n\
               access) replace most fence.sc. §3.4 keeps two fence.sc for the W→R pair and a\n\
               fence.acq_rel before empty = 1; without C2's release, edge 1 of the causality chain\n\
               is gone and C2 may read P's 43.",
        code: "P: data = 42; st.release.gpu full = 1     C: while ld.acquire.gpu full != 1 {}; r = data",
        programs: names![lit mp::MpRelAcq, lit handoff::Handoff34NoC2Release, lit handoff::Handoff34],
        facts: &[],
        cpu: Cpu::Handoff44,
        loom: &["s3_3", "s3_4"],
    },
    Step {
        title: "§3.5 Flags must be strong, and scopes must include each other",
        text: "A spin on a weak ld may be hoisted and the loop deleted; ld.relaxed.gpu stays in the\n\
               loop as LDG.E.STRONG.GPU. And scope matters: st.release.cta / ld.acquire.cta in two\n\
               different CTAs do not synchronize — the seed measured 188 k stale reads in 6.4 M\n\
               rounds (footnote 15); .gpu gives 0.",
        code: "P (CTA a): data = 42; st.release.cta full = 1    C (CTA b): while ld.acquire.cta full != 1 {}; r = data",
        programs: names![lit mp::MpRelAcqCta, lit mp::MpRelAcq],
        facts: &["fact_spin_weak", "fact_spin_relaxed"],
        cpu: Cpu::None,
        loom: &["s3_5", "mp_fence"],
    },
    Step {
        title: "§3.6 fence.sc synchronizes without reading a value",
        text: "Release/acquire connect only when one side reads the other's write. In store buffering\n\
               nobody has to: with fence.acq_rel both reads may return 0. fence.sc.gpu fences are\n\
               totally ordered (Fence-SC order), so one of the two reads must see 1.",
        code: "C1: done1 = 1; fence.acq_rel|fence.sc; r1 = done2     C2: done2 = 1; fence.acq_rel|fence.sc; r2 = done1",
        programs: names![lit sb::SbAcqRel, lit handoff::Handoff34NoSc, lit sb::SbSc],
        facts: &[],
        cpu: Cpu::SbAcqRel,
        loom: &["s3_6", "iriw_", "sb_fence"],
    },
    Step {
        title: "§4.1–4.2 atom: atomicity, and the scope of atomicity",
        text: "count = count + 1 as a read then a write loses an increment when the other consumer's\n\
               read falls in between; atom.add is one indivisible step (relaxed when it has no .sem).\n\
               Atomicity also has a scope: atom.cta in one CTA and atom.gpu in another are not atomic\n\
               with each other (PTX ISA §8.10.3).",
        code: "C1, C2: old = count; count = old + 1     →     old = atom.add(count, 1)",
        programs: names![lit count::CountRmw, lit count::CountAtomCta, lit count::CountAtomGpu],
        facts: &[],
        cpu: Cpu::Counter,
        loom: &["s4_1", "s4_2"],
    },
    Step {
        title: "§4.3–4.5 .sem on atom, the barrier, and red",
        text: "atom.acq_rel.gpu.add replaces the fences around the count; the consumer that saw 1\n\
               writes empty with st.release. As a barrier, consumers only release (atom.release.add)\n\
               and P waits with ld.acquire for count == 2 — the RMW chain carries the first\n\
               consumer's release. red.release may replace the atom when the old value is unused\n\
               (REDG instead of ATOMG), but red cannot acquire.",
        code: "C: r = data; atom.release.gpu.add count, 1      P: while ld.acquire.gpu count != 2 {}; data = 43",
        programs: names![lit handoff::Handoff43Relaxed, lit handoff::Handoff43, lit handoff::Handoff44Relaxed, lit handoff::Handoff44, lit handoff::Handoff45Red],
        facts: &["fact_atom_unused", "fact_atom_used"],
        cpu: Cpu::Handoff44,
        loom: &["s4_3", "s4_4", "s4_5"],
    },
    Step {
        title: "§5 Asynchronous copies: cp.async, TMA, proxies, clusters",
        text: "P and C are warps of one CTA, data is in shared memory. cp.async is not in program order:\n\
               bar.arrive after it does not publish it (fix: cp.async.wait_all first). TMA has no wait:\n\
               full becomes an mbarrier with expect_tx/complete_tx. Reusing data after generic reads\n\
               needs fence.proxy.async before the arrive on empty. Across a cluster, the remote arrive\n\
               must be .release.cluster and the wait .acquire.cluster, and each CTA's mbarrier.init must\n\
               be published to its peers (fence.mbarrier_init.release.cluster, then barrier.cluster\n\
               arrive/wait) before any remote arrive or multicast: with bar.sync only (s54_init_bug)\n\
               the peer may arrive on a barrier whose init it cannot see yet.",
        code: "P: cp.async data <- src; [cp.async.wait_all]; bar.arrive      C: bar.sync; read data\n\
               P: arrive.expect_tx full; TMA data <- src (complete_tx full)  C: try_wait.parity full; read data",
        programs: names![s5 S51Bug, s5 S51Fix, s5 S52Bug, s5 S52Fix, s5 S53Bug, s5 S53Fix, s54 S54ClusterCta, s54 S54ClusterFix, s54 S54InitBug],
        facts: &[],
        cpu: Cpu::None,
        loom: &[
            "s5_", "init_published", "init_without", "named_barrier", "cluster_barrier", "pipeline_cluster", "pipeline_cta",
        ],
    },
    Step {
        title: "Seed 004: DeepEP's barrier_device, and a rank that never arrives",
        text: "Each rank adds a tag to its row, fence.acq_rel.sys, subtracts it from its peers' rows,\n\
               then spins (ld.volatile) until its row is all zero, with a clock64 timeout. Here 8 CTAs\n\
               stand in for ranks; when one never arrives, every other rank times out and its row\n\
               names the missing rank.",
        code: "rank r, thread t < R: atom.sys.add row[r][t], TAG; fence.acq_rel.sys; atom.sys.add row[t][r], -TAG;\n\
               \x20                    while ld.volatile row[r][t] != 0 { if timeout: report t }",
        programs: names![deepep 0, deepep 1],
        facts: &[],
        cpu: Cpu::None,
        loom: &["deepep", "barrier_device", "mbarrier_wait_that"],
    },
];

/// SASS of the embedded kernels, per function.
struct Sass {
    funcs: HashMap<String, Vec<String>>,
    version: String,
}

fn load_sass() -> Result<Sass, String> {
    if !gpu::kernels_built() {
        return Err(
            "kernels not built (run `cargo xtask ptx`): SASS of the programs skipped".into(),
        );
    }
    let tools = sass::find_tools().map_err(|e| format!("{e}; SASS skipped"))?;
    let version = sass::tool_version(&tools, "ptxas").unwrap_or_else(|_| "ptxas".into());
    let dump = sass::sass_of_ptx(&tools, gpu::KERNELS_PTX, "sm_90")
        .map_err(|e| format!("ptxas failed: {}", e.lines().next().unwrap_or("")))?;
    let funcs = sass::parse_functions(&dump)
        .into_iter()
        .map(|f| {
            let ops = f.opcodes().into_iter().map(String::from).collect();
            (f.name, ops)
        })
        .collect();
    Ok(Sass { funcs, version })
}

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/loom_tests.rs"));
}
pub use embedded::LOOM_TESTS;

/// The loom tests whose names start with one of `prefixes`, as `file::name` (from the list
/// `build.rs` embeds; nothing is read from the tree at run time).
fn loom_tests(prefixes: &[&str]) -> Vec<String> {
    LOOM_TESTS
        .iter()
        .filter(|(_, name, _)| prefixes.iter().any(|p| name.starts_with(p)))
        .map(|(file, name, panics)| {
            let verdict = if *panics { "caught" } else { "passes" };
            format!("loom-tests/tests/{file}::{name} ({verdict})")
        })
        .collect()
}

fn indent(s: &str, n: usize) -> String {
    let pad = " ".repeat(n);
    s.lines().map(|l| format!("{pad}{l}\n")).collect()
}

/// Runs the tour; returns non-zero only if a correct program showed a forbidden outcome.
pub fn run(no_gpu: bool, iters: u64) -> ExitCode {
    let t0 = Instant::now();
    println!("ptx-sync tour — the seed article \"understanding GPU memory consistency from a data hand-off\"");
    println!("{}", "=".repeat(96));
    let g = if no_gpu {
        Err("--no-gpu given".to_string())
    } else {
        Gpu::open().map_err(|e| e.to_string())
    };
    match &g {
        Ok(g) => println!(
            "GPU: {} ({} SMs) — outcomes are measured, {iters} launches per program",
            g.info.name, g.info.sms
        ),
        Err(e) => println!("no GPU: outcomes skipped ({e}); CPU analogues and loom tests instead"),
    }
    let sass = load_sass();
    match &sass {
        Ok(s) => println!(
            "SASS: ptxas -arch=sm_90 on the embedded kernels ({})",
            s.version
        ),
        Err(e) => println!("SASS: {e}"),
    }
    let mut violated = false;
    for (k, step) in STEPS.iter().enumerate() {
        println!(
            "\n{}\n{}",
            step.title,
            "-".repeat(step.title.chars().count())
        );
        print!("{}", indent(step.text, 2));
        println!("\n  program:");
        print!("{}", indent(step.code, 4));
        for name in step.programs {
            let p = programs::find(name).expect("tour names a known program");
            show_program(p, &sass);
        }
        show_fix_diff(step, &sass);
        for f in step.facts {
            if let Ok(s) = &sass {
                match s.funcs.get(*f) {
                    Some(ops) => println!("  SASS of {f}: {}", ops.join(" ")),
                    None => println!("  SASS of {f}: not in the embedded kernels"),
                }
            }
        }
        // Outcomes.
        match &g {
            Ok(gpu) => {
                let cfg = RunCfg {
                    launches: Some(iters),
                    progress: true,
                    ..Default::default()
                };
                for name in step.programs {
                    let p = programs::find(name).unwrap();
                    match runner::run(gpu, p, &cfg) {
                        Ok(r) => {
                            violated |= r.violated();
                            print!("{}", indent(&report::table(&r), 2));
                        }
                        Err(e) => {
                            println!("  {name}: {e}");
                            println!("  (the GPU context is unusable after a fault; outcomes of the remaining steps skipped)");
                            return finish(t0, violated, true);
                        }
                    }
                }
            }
            Err(_) if !step.programs.is_empty() => println!("  outcomes: no GPU: outcomes skipped"),
            Err(_) => {}
        }
        cpu_analogue(step.cpu, k);
        let tests = loom_tests(step.loom);
        if !tests.is_empty() {
            println!("  model-checked by loom (cargo xtask test):");
            for t in tests {
                println!("    {t}");
            }
        }
        if step.title.starts_with("§5") {
            kernel_check_section();
        }
    }
    model_section();
    registry_section();
    finish(t0, violated, false)
}

/// Every program of the registry (`ptx_sync_programs::for_each_litmus!`, one source each): its
/// kernel's sync PTX, a short CPU run of the same source, and its loom verdict — a program added
/// to the registry shows up here without an edit.
fn registry_section() {
    println!("\nThe registry: every seed program, written once (programs/), on three platforms");
    println!("{}", "-".repeat(96));
    let rounds = 32;
    for p in programs::PROGRAMS.iter() {
        let Some(loom) = p.loom else { continue };
        let loom = loom_word(loom);
        // A cluster (§5.4) round runs two CTAs and, when the protocol is broken, ends in a
        // bounded wait's timeout: a few rounds say as much as 32.
        let rounds = match p.kind {
            programs::Kind::S5 { cluster: true, .. } => 4,
            _ => rounds,
        };
        let cpu = match cpu::run_named(p.name, rounds) {
            Some(c) => format!(
                "{} forbidden, {} timeouts of {}",
                c.bad, c.timeouts, c.rounds
            ),
            None => "-".into(),
        };
        let ptx = match kernel_ptx::of_program(p, gpu::KERNELS_PTX) {
            Ok(v) => kernel_ptx::line(&v),
            Err(e) => e,
        };
        println!(
            "  [{}] {:<26} {}\n      kernel {} PTX: {ptx}\n      CPU ({} std threads): {cpu}; loom: {loom}",
            if p.correct { "fixed " } else { "broken" },
            p.name,
            p.seed,
            p.kernel,
            p.kind.roles(),
        );
    }
}

/// Seed programs as litmus files, embedded at build time, decided by the PTX axioms.
const MODEL_FILES: &[(&str, &str)] = &[
    (
        "§2.4 R→W (load buffering: loom cannot show it)",
        include_str!("../../../../../model/litmus/seed/seed-2.4-RW-consumer-unfenced.litmus"),
    ),
    (
        "§2.4 fixed with fence.sc.gpu",
        include_str!("../../../../../model/litmus/seed/seed-2.4-RW+fence.sc.gpu.litmus"),
    ),
    (
        "§3.4 without C2's release (C2 may read 43)",
        include_str!(
            "../../../../../model/litmus/seed/seed-3.4-acq-rel-program-without-C2-release.litmus"
        ),
    ),
    (
        "§3.5 footnote 15: .cta release/acquire across CTAs",
        include_str!(
            "../../../../../model/litmus/seed/seed-3.5-fn15-release.cta-acquire.cta-2cta.litmus"
        ),
    ),
    (
        "§3.6 store buffering with fence.acq_rel",
        include_str!("../../../../../model/litmus/seed/seed-3.6-SB+fence.acq_rel.litmus"),
    ),
    (
        "§3.6 store buffering with fence.sc",
        include_str!("../../../../../model/litmus/seed/seed-3.6-SB+fence.sc.litmus"),
    ),
    (
        "§4.5 red; fence.acquire is not an acquire pattern",
        include_str!(
            "../../../../../model/litmus/seed/seed-4.5-red+fence.acquire-not-acquire.litmus"
        ),
    ),
];

/// Seed §5's programs as litmus files (`model/litmus/seed5/`, hand-derived verdicts), embedded at
/// build time: (the registry program the file writes, or `None` for a variant the registry does
/// not run, the file name, its text). Each condition asks for the broken outcome (a stale or
/// torn tile), so a fixed program is `Never` with no flag.
const SEED5_FILES: &[(Option<&str>, &str, &str)] = &[
    (
        Some(names![s5 S51Bug][0]),
        "s51-cp.async-bar-no-wait",
        include_str!("../../../../../model/litmus/seed5/s51-cp.async-bar-no-wait.litmus"),
    ),
    (
        Some(names![s5 S51Fix][0]),
        "s51-cp.async-wait_all-bar",
        include_str!("../../../../../model/litmus/seed5/s51-cp.async-wait_all-bar.litmus"),
    ),
    (
        None,
        "s51-cp.async-commit-wait_group",
        include_str!("../../../../../model/litmus/seed5/s51-cp.async-commit-wait_group.litmus"),
    ),
    (
        None,
        "s51-cp.async-wait_all-no-bar",
        include_str!("../../../../../model/litmus/seed5/s51-cp.async-wait_all-no-bar.litmus"),
    ),
    (
        None,
        "s51-cp.async-wait_group-uncommitted",
        include_str!(
            "../../../../../model/litmus/seed5/s51-cp.async-wait_group-uncommitted.litmus"
        ),
    ),
    (
        Some(names![s5 S52Bug][0]),
        "s52-tma-bar-no-mbarrier-wait",
        include_str!("../../../../../model/litmus/seed5/s52-tma-bar-no-mbarrier-wait.litmus"),
    ),
    (
        Some(names![s5 S52Fix][0]),
        "s52-tma-mbarrier-expect_tx-try_wait",
        include_str!(
            "../../../../../model/litmus/seed5/s52-tma-mbarrier-expect_tx-try_wait.litmus"
        ),
    ),
    (
        Some(names![s5 S53Bug][0]),
        "s53-two-tiles-no-proxy-fence",
        include_str!("../../../../../model/litmus/seed5/s53-two-tiles-no-proxy-fence.litmus"),
    ),
    (
        Some(names![s5 S53Fix][0]),
        "s53-two-tiles+fence.proxy.async",
        include_str!("../../../../../model/litmus/seed5/s53-two-tiles+fence.proxy.async.litmus"),
    ),
    (
        Some(names![s54 S54ClusterCta][0]),
        "s54-multicast-cta-scope",
        include_str!("../../../../../model/litmus/seed5/s54-multicast-cta-scope.litmus"),
    ),
    (
        Some(names![s54 S54ClusterFix][0]),
        "s54-multicast-cluster-scope",
        include_str!("../../../../../model/litmus/seed5/s54-multicast-cluster-scope.litmus"),
    ),
    (
        Some(names![s54 S54InitBug][0]),
        "s54-init-bug",
        include_str!("../../../../../model/litmus/seed5/s54-init-bug.litmus"),
    ),
];

/// What the axioms say about one file: the observation and the flags, and whether that calls
/// the program broken (the broken outcome is reachable, or a flag: a race, a hang, an mbarrier
/// error), or `Err` with the checker's message.
fn axioms_verdict(file: &str, text: &str) -> Result<(String, bool), String> {
    let o = ptx_sync_model::check(text, &format!("model/litmus/seed5/{file}.litmus"))
        .map_err(|e| e.to_string())?;
    let flags = o.flag_names();
    let broken = o.observation != ptx_sync_model::Observation::Never || !flags.is_empty();
    let mut v = o.observation.to_string();
    if !flags.is_empty() {
        v.push_str(&format!(" [{}]", flags.join(", ")));
    }
    Ok((v, broken))
}

fn loom_word(v: Verdict) -> String {
    match v {
        Verdict::Passes => "passes".to_string(),
        Verdict::Caught(t) => format!("caught ({})", t.join(" | ")),
        // The reason's first clause (the rest is in `programs/`).
        Verdict::NotModelled(why) => {
            format!("not modelled ({})", why.split(':').next().unwrap_or(why))
        }
    }
}

/// Seed kernels at model-check size (`host/kernels/src/kcheck.rs`) that the checker decides in
/// about a second each: (entry, broken?, grid, block, zeroed buffer bytes per parameter). The
/// launches are `docs/kernel-check.md`'s; the other kernels, with their times, are there.
const KERNEL_CHECKS: &[(&str, bool, u32, u32, &[u32])] = &[
    ("tiny_s51_cp_async_bug", true, 1, 64, &[32, 32, 4]),
    ("tiny_s51_cp_async_fix", false, 1, 64, &[32, 32, 4]),
    ("tiny_s52_tma_bug", true, 1, 64, &[32, 32, 4]),
    ("tiny_s52_tma_fix", false, 1, 64, &[32, 32, 4]),
    ("tiny_s53_reuse_bug", true, 1, 64, &[32, 32, 4]),
    ("tiny_s53_reuse_fix", false, 1, 64, &[32, 32, 4]),
    ("tiny_deepep_barrier_missing", true, 2, 2, &[16, 8]),
    ("tiny_deepep_barrier", false, 2, 2, &[16, 8]),
];

/// What the checker says of one [`KERNEL_CHECKS`] row: (flags, executions, seconds).
fn kernel_check(
    ptx: &str,
    entry: &str,
    grid: u32,
    block: u32,
    bufs: &[u32],
) -> Result<(Vec<String>, u64, f64), String> {
    use ptx_sync_model::kernel::{check_kernel, KernelCheck};
    use ptx_sync_model::ptx::module::{Bind, Launch};
    let mut launch = Launch::new([grid, 1, 1], [block, 1, 1]);
    for (i, &b) in bufs.iter().enumerate() {
        launch.params.push((i, Bind::Buf(b)));
    }
    let check = KernelCheck {
        entry: entry.into(),
        launch,
        assert: None,
    };
    let t = Instant::now();
    let o = check_kernel(ptx, "kernels.ptx", &check).map_err(|e| e.to_string())?;
    Ok((o.flag_names(), o.executions, t.elapsed().as_secs_f64()))
}

/// §5's kernels as compiled: their PTX (embedded) model-checked under the PTX axioms, every
/// thread of a small launch (`ptx-sync check FILE.ptx`, issue #22).
fn kernel_check_section() {
    println!(
        "  the compiled kernels, model-checked (ptx-sync check target/ptx/kernels.ptx --entry …):"
    );
    if gpu::KERNELS_PTX.trim().is_empty() {
        println!("    kernels not built (run `cargo xtask ptx`)");
        return;
    }
    for &(entry, broken, grid, block, bufs) in KERNEL_CHECKS {
        let what = match kernel_check(gpu::KERNELS_PTX, entry, grid, block, bufs) {
            Ok((flags, n, secs)) => format!(
                "{} ({n} executions, {secs:.1} s)",
                if flags.is_empty() {
                    "clean".to_string()
                } else {
                    format!("Flag {}", flags.join(", "))
                }
            ),
            Err(e) => e,
        };
        println!(
            "    [{}] {entry:<28} --grid {grid} --block {block}: {what}",
            if broken { "broken" } else { "fixed " }
        );
    }
    println!(
        "    §5.4 (a cluster of two CTAs): tiny_s54_cluster_fix clean, tiny_s54_init_bug data-race + hang +"
    );
    println!(
        "    mbarrier-uninit, about 7 s each; tiny_s54_cluster_cta's race with --max-steps 20000"
    );
    println!("    (every seed kernel, its launch and time: docs/kernel-check.md)");
}

/// §6: the vocabulary of PTX ISA chapter 8, executable (`ptx-sync check`).
fn model_section() {
    let title = "§6 The PTX memory model: the axioms of PTX ISA §8.10 decide";
    println!("\n{}\n{}", title, "-".repeat(title.chars().count()));
    println!(
        "  `ptx-sync check FILE.litmus` explores the executions of a litmus test, extending only those"
    );
    println!(
        "  the axioms allow (no GPU needed); the corpus is model/litmus/, each test with a verdict"
    );
    println!("  derived by hand from the ISA.");
    for (what, text) in MODEL_FILES {
        match ptx_sync_model::check(text, what) {
            Ok(o) => {
                let race = if o.racy() {
                    " (a data race in some execution)"
                } else {
                    ""
                };
                println!(
                    "  {what}: {} → {}{race}",
                    o.test.condition_text, o.observation
                );
            }
            Err(e) => println!("  {what}: {e}"),
        }
    }
    println!(
        "\n  §5 decided by the axioms (model/litmus/seed5/: mbarrier, cp.async, TMA, proxies, clusters),"
    );
    println!("  next to the loom verdict of the same program (loom-tests/tests/section5.rs):");
    for (prog, file, text) in SEED5_FILES {
        let axioms = match axioms_verdict(file, text) {
            Ok((v, broken)) => format!("{v} → {}", if broken { "broken" } else { "correct" }),
            Err(e) => e,
        };
        match prog.and_then(programs::find) {
            Some(p) => println!(
                "    [{}] {:<18} {file}.litmus\n        axioms: {axioms}; loom: {}",
                if p.correct { "fixed " } else { "broken" },
                p.name,
                p.loom.map_or("-".to_string(), loom_word),
            ),
            None => println!(
                "    [variant] {:<17} {file}.litmus\n        axioms: {axioms} (no registry program)",
                ""
            ),
        }
    }
}

fn finish(t0: Instant, violated: bool, faulted: bool) -> ExitCode {
    println!("\n{}", "=".repeat(96));
    println!(
        "tour done in {:.1} s. Next: `ptx-sync litmus all --json out.json --svg out.svg` on a GPU; \
         `ptx-sync show fence` for every variant's PTX and SASS.",
        t0.elapsed().as_secs_f64()
    );
    if violated {
        eprintln!("ptx-sync: a correct program showed a forbidden outcome");
        return ExitCode::from(3);
    }
    if faulted {
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

fn show_program(p: &Program, _sass: &Result<Sass, String>) {
    println!(
        "\n  [{}] {} ({}) — {}",
        if p.correct { "fixed " } else { "broken" },
        p.name,
        p.seed,
        p.what
    );
    // From the compiled kernel (`target/ptx/kernels.ptx`, embedded), not typed by hand.
    match kernel_ptx::of_program(p, gpu::KERNELS_PTX) {
        Ok(v) => println!("      kernel {} PTX: {}", p.kernel, kernel_ptx::line(&v)),
        Err(e) => println!("      PTX: {e} (run `cargo xtask ptx`)"),
    }
}

/// The SASS difference between the broken and the fixed kernel of a step (same harness, so the
/// difference is the fix).
fn show_fix_diff(step: &Step, sass: &Result<Sass, String>) {
    let Ok(s) = sass else { return };
    let progs: Vec<&Program> = step
        .programs
        .iter()
        .filter_map(|n| programs::find(n))
        .collect();
    for b in progs.iter().filter(|p| !p.correct) {
        let common =
            |a: &str, b: &str| a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
        let Some(f) = progs
            .iter()
            .filter(|p| p.correct && p.kind == b.kind && p.kernel != b.kernel)
            .max_by_key(|p| common(p.name, b.name))
        else {
            continue;
        };
        let (Some(bo), Some(fo)) = (s.funcs.get(b.kernel), s.funcs.get(f.kernel)) else {
            println!(
                "  SASS: {} or {} not in the embedded kernels",
                b.kernel, f.kernel
            );
            continue;
        };
        let bo: Vec<&str> = bo.iter().map(String::as_str).collect();
        let fo: Vec<&str> = fo.iter().map(String::as_str).collect();
        let interesting = |o: &&str| {
            [
                "MEMBAR",
                "FENCE",
                "ERRBAR",
                "CCTL",
                "ATOM",
                "RED",
                "LDG",
                "STG",
                "LDS",
                "STS",
                "LD.",
                "ST.",
                "CGAERRBAR",
                "DEPBAR",
                "LDGDEPBAR",
                "LDGSTS",
                "SYNCS",
                "UBLKCP",
                "UTMALDG",
                "BAR",
            ]
            .iter()
            .any(|k| o.starts_with(k))
        };
        let adds: Vec<&str> = sass::minus(&fo, &bo)
            .into_iter()
            .filter(interesting)
            .collect();
        let removes: Vec<&str> = sass::minus(&bo, &fo)
            .into_iter()
            .filter(interesting)
            .collect();
        if adds.is_empty() && removes.is_empty() {
            println!(
                "  SASS, {} → {}: no memory or synchronization instruction differs (the fix changes which role executes them, or how they are ordered)",
                b.name, f.name
            );
        } else {
            println!(
                "  SASS, {} → {}: adds [{}], removes [{}]",
                b.name,
                f.name,
                adds.join(" "),
                removes.join(" ")
            );
        }
    }
}

fn cpu_analogue(c: Cpu, _k: usize) {
    match c {
        Cpu::None => {}
        Cpu::Sb | Cpu::SbAcqRel => {
            let rounds = 20_000;
            let first = if matches!(c, Cpu::Sb) {
                "sb_plain"
            } else {
                "sb_acq_rel"
            };
            let run = |n: &str| cpu::run_named(n, rounds).expect("a registry program");
            let (a, b) = (run(first), run("sb_sc"));
            println!(
                "  CPU run (2 std threads, the same program source, ptx-sync host backend; x86's store buffer is §2.1's):\n    \
                 {:<22} r1=r2=0 in {:>9} of {} rounds\n    {:<22} r1=r2=0 in {:>9} of {} rounds{}",
                if first == "sb_plain" { "no fence:" } else { "fence.acq_rel (AcqRel):" },
                group(a.bad),
                group(a.rounds),
                "fence.sc (SeqCst):",
                group(b.bad),
                group(b.rounds),
                if b.bad > 0 { "  <- FORBIDDEN" } else { "" }
            );
            if a.bad == 0 {
                println!("    (0 without the fence: the two threads rarely overlapped on this busy machine)");
            }
        }
        Cpu::Counter => {
            let n = 20_000;
            let run = |p: &str| cpu::run_named(p, n).expect("a registry program");
            let (a, b) = (run("count_rmw"), run("count_atom_gpu"));
            println!(
                "  CPU run (2 std threads, {} instances of one increment each, count_rmw / count_atom_gpu):\n    ld + st:          {} lost\n    atom (fetch_add): {} lost",
                group(a.rounds),
                group(a.bad),
                group(b.bad)
            );
        }
        Cpu::Handoff44 => {
            let h = cpu::run_named("handoff_4_4", 256).expect("a registry program");
            println!(
                "  CPU run (§4.4 hand-off on 3 std threads, {} rounds): value != 42 in {}, timeouts {}",
                h.rounds, h.bad, h.timeouts
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loom_test_list_is_embedded_and_complete() {
        // Counted here from the sources (a test may read the tree; the tour does not).
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../loom-tests/tests");
        let n: usize = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "rs"))
            .map(|p| {
                std::fs::read_to_string(p)
                    .unwrap()
                    .lines()
                    .filter(|l| l.trim() == "#[test]")
                    .count()
            })
            .sum();
        assert!(n > 20, "only {n} loom tests found in {}", dir.display());
        assert_eq!(LOOM_TESTS.len(), n);
        assert!(LOOM_TESTS.contains(&("handoff_fences.rs", "s2_5_all_fences_passes", false)));
        assert!(LOOM_TESTS.contains(&("handoff_fences.rs", "s2_1_without_wr_fence_caught", true)));
        // Helpers are not tests: `barrier_device` is the DeepEP role, not a test.
        assert!(!LOOM_TESTS.iter().any(|t| t.1 == "barrier_device"));
        for s in STEPS.iter().filter(|s| !s.loom.is_empty()) {
            assert!(!loom_tests(s.loom).is_empty(), "{}: no loom test", s.title);
        }
    }

    /// The §5 kernels the tour checks are in the embedded PTX, and the checker flags each broken
    /// one and passes each fixed one (the verdicts written in `programs/`: §5.1 a cp.async write
    /// races with the consumer's reads, §5.2 the TMA's async-proxy write races with generic
    /// reads, §5.3 the consumer's generic reads race with the next TMA write of the stage,
    /// DeepEP's barrier with a dead rank hangs).
    #[test]
    fn the_section5_kernel_checks_flag_the_broken_and_pass_the_fixed() {
        assert!(
            !gpu::KERNELS_PTX.trim().is_empty(),
            "kernels.ptx is not embedded: build it first (cargo xtask ptx)"
        );
        for &(entry, broken, grid, block, bufs) in KERNEL_CHECKS {
            let (flags, n, _) = kernel_check(gpu::KERNELS_PTX, entry, grid, block, bufs)
                .unwrap_or_else(|e| panic!("{entry}: {e}"));
            assert!(n > 0, "{entry}: no execution");
            let want: &[&str] = match (entry, broken) {
                (_, false) => &[],
                (e, true) if e.starts_with("tiny_deepep") => &["hang"],
                (_, true) => &["data-race"],
            };
            assert_eq!(flags, want, "{entry}");
        }
    }

    /// Every file of model/litmus/seed5/ is in the tour's §6, and for each registry program the
    /// axioms agree with the program's own correctness (written in `programs/`, independently
    /// of the model): a broken program's file reaches the broken outcome or raises a flag, a
    /// fixed one's is `Never` with no flag.
    #[test]
    fn section5_files_are_all_decided_and_agree_with_the_registry() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../model/litmus/seed5");
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .filter_map(|e| {
                let n = e.file_name().to_string_lossy().into_owned();
                n.strip_suffix(".litmus").map(str::to_string)
            })
            .collect();
        on_disk.sort();
        let mut listed: Vec<String> = SEED5_FILES.iter().map(|f| f.1.to_string()).collect();
        listed.sort();
        assert_eq!(listed, on_disk, "SEED5_FILES and model/litmus/seed5/");
        let mut programs_seen = 0;
        for (prog, file, text) in SEED5_FILES {
            let (v, broken) = axioms_verdict(file, text).unwrap_or_else(|e| panic!("{file}: {e}"));
            // The text on disk is the one embedded.
            assert_eq!(
                *text,
                std::fs::read_to_string(dir.join(format!("{file}.litmus"))).unwrap()
            );
            if let Some(name) = prog {
                let p = programs::find(name).unwrap_or_else(|| panic!("{name}: no program"));
                assert_eq!(broken, !p.correct, "{file} ({name}): axioms say {v}");
                programs_seen += 1;
            }
        }
        // Every §5 program of the registry has its file.
        let s5 = programs::PROGRAMS
            .iter()
            .filter(|p| matches!(p.kind, programs::Kind::S5 { .. }))
            .count();
        assert_eq!(programs_seen, s5);
    }
}
