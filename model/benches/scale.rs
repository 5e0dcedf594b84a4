//! Benchmark (not a test): issue #19 §3's scale inputs (`model/benches/scale/`, and store-buffering
//! rings of 14–20 threads with `fence.sc.gpu`, written here), each decided on one thread and on
//! every core (`Limits::jobs`, `model/SEMANTICS.md` S9): wall seconds, executions, and whether
//! the two reports agree. `cargo bench -p ptx-sync-model --bench scale [-- NAME...]` (names
//! filter by substring; `sb-ring-20` alone takes about a minute on two cores).
use ptx_sync_model::engine::explore::Limits;
use ptx_sync_model::{check_test_with, parse};
use std::path::PathBuf;
use std::time::Instant;

/// A store-buffering ring: thread i stores x_i, `fence.sc.gpu`, loads x_{i+1 mod n}; all loads
/// reading 0 is forbidden (Fence-SC order, PTX ISA §8.9.3), every other outcome allowed.
fn sb_ring(n: usize) -> String {
    let row = |f: &dyn Fn(usize) -> String| (0..n).map(f).collect::<Vec<_>>().join(" | ");
    let inits: Vec<String> = (0..n).map(|i| format!("x{i}=0;")).collect();
    let cond: Vec<String> = (0..n).map(|i| format!("P{i}:r0 == 0")).collect();
    format!(
        "PTX sb-ring-{n}\n\"store buffering, {n} threads\"\n{{\n{}\n}}\n{} ;\n{} ;\n{} ;\n{} ;\nexists ({})\n",
        inits.join(" "),
        row(&|i| format!("P{i}@cta {i},gpu 0")),
        row(&|i| format!("st.relaxed.gpu.u32 [x{i}], 1")),
        row(&|_| "fence.sc.gpu".to_string()),
        row(&|i| format!("ld.relaxed.gpu.u32 r0, [x{}]", (i + 1) % n)),
        cond.join(" /\\ ")
    )
}

/// Decides `text` on `jobs` threads: (seconds, executions, the report without its time line).
fn run(text: &str, name: &str, jobs: usize) -> (f64, usize, String) {
    let test = parse::parse(text, name).unwrap_or_else(|e| panic!("{e}"));
    let limits = Limits {
        jobs,
        ..Limits::default()
    };
    let t = Instant::now();
    let out = check_test_with(test, t, limits).unwrap_or_else(|e| panic!("{e}"));
    let s = t.elapsed().as_secs_f64();
    let report: String = out
        .herd()
        .lines()
        .filter(|l| !l.starts_with("Time "))
        .collect();
    (s, out.found.positive + out.found.negative, report)
}

/// The `ptx-sync` binary's allocator (host/Cargo.toml says why): the benchmark times what it does.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/scale");
    let mut inputs: Vec<(String, String)> = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("model/benches/scale")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "litmus"))
        .collect();
    files.sort();
    for f in files {
        let name = f.file_stem().unwrap().to_string_lossy().into_owned();
        if name.starts_with("SB-ring") {
            continue; // the rings below
        }
        inputs.push((name, std::fs::read_to_string(&f).unwrap()));
    }
    for n in [14, 16, 18, 20] {
        inputs.push((format!("sb-ring-{n}"), sb_ring(n)));
    }
    let cores = Limits::default().jobs;
    println!("| input | executions | 1 thread (s) | {cores} threads (s) | ratio |");
    println!("|---|---|---|---|---|");
    for (name, text) in inputs {
        if !filter.is_empty() && !filter.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let (s1, e1, r1) = run(&text, &name, 1);
        let (sn, en, rn) = run(&text, &name, cores);
        assert_eq!((e1, &r1), (en, &rn), "{name}: the reports differ");
        println!(
            "| {name} | {e1} | {s1:.2} | {sn:.2} | {:.2} |",
            s1 / sn.max(1e-9)
        );
    }
}
