//! `ptx-sync`: runs the seed's programs on an NVIDIA GPU, shows the PTX/SASS of every primitive,
//! and walks a new user through the seed (`ptx-sync tour`).
//!
//! Exit codes: 0 success; 1 the command could not run (no driver, no GPU, kernels not built, a
//! launch failed); 2 bad arguments; 3 a *correct* program showed a forbidden outcome.

// The layers, bottom up, each importing only those below it: `registry` (the programs) →
// `analysis` (outcome histograms, a kernel's PTX) → `exec` (GPU and CPU runs) → `render` (text,
// JSON, SVG, `show`) → `cli` and this file. They are the binary's own folders (here, in
// `bin/ptx-sync/`); the library (`ptx_sync_host`, `host/src/lib.rs`) has the same layers for what
// users call, in its own folders.
mod analysis;
mod cli;
mod exec;
mod registry;
mod render;

use analysis::hist;
use cli::{args, build_cmd, setup_cmd, tour};
use exec::{copy, gpu, litmus_file, runner};
use registry::programs;
use render::{litmus_report, report, show};

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(
    name = "ptx-sync",
    version,
    about = "The seed's GPU memory-consistency programs: run, measure, explain"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(clap::Args, Debug, Clone)]
struct RunOpts {
    /// Kernel launches per program (each runs thousands of instances); default: enough for the
    /// program's default number of rounds.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=args::MAX_ITERS))]
    iters: Option<u64>,
    /// Write the reports as JSON to FILE ("-" for stdout).
    #[arg(long, value_name = "FILE", value_parser = args::parse_out_path)]
    json: Option<PathBuf>,
    /// Write the outcome histograms as an SVG picture to FILE.
    #[arg(long, value_name = "FILE", value_parser = args::parse_out_path)]
    svg: Option<PathBuf>,
    /// Turn off the memory-stress threads.
    #[arg(long)]
    no_stress: bool,
    /// Budget of every device-side wait, in microseconds.
    #[arg(long, value_name = "US", default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    budget_us: u64,
    /// Seed of the placement randomization.
    #[arg(long, default_value_t = 0x5eed_2024)]
    seed: u64,
    /// No progress bars.
    #[arg(long)]
    quiet: bool,
    /// Run every litmus program at each parameter point of the sweep (stress share, variable
    /// spacing, no stress) and report rates per point.
    #[arg(long)]
    sweep: bool,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// List the CUDA devices.
    Devices {
        /// Write the list as JSON to FILE.
        #[arg(long, value_name = "FILE", value_parser = args::parse_out_path)]
        json: Option<PathBuf>,
    },
    /// Run one program of the seed (or `all`), with outcome histograms; or a litmus file's own
    /// PTX (`FILE.litmus`) next to the PTX model's allowed states (exit 3: a forbidden state).
    Litmus {
        /// A program name (see `ptx-sync litmus list`), `all`, `list`, or a `.litmus` file.
        #[arg(value_parser = parse_program)]
        name: String,
        #[command(flatten)]
        run: RunOpts,
    },
    /// Run the P/C1/C2 hand-off, broken and fixed, in one version of the seed (or all).
    Handoff {
        /// 2.5 (fence.sc), 3.4 (release/acquire), 4.3 (atom.acq_rel count), 4.4 (barrier).
        #[arg(long, value_parser = ["2.5", "3.4", "4.3", "4.4"])]
        version: Option<String>,
        #[command(flatten)]
        run: RunOpts,
    },
    /// The tiled-copy pipeline (TMA + mbarrier), checked against the source, vs cuMemcpyDtoD.
    Copy {
        /// Bytes to copy (a multiple of the tile size).
        #[arg(long, value_parser = args::parse_copy_bytes)]
        bytes: u64,
        /// Pipeline stages (buffers in shared memory).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=4))]
        stages: u32,
        /// Write the result as JSON to FILE.
        #[arg(long, value_name = "FILE", value_parser = args::parse_out_path)]
        json: Option<PathBuf>,
    },
    /// Every instruction variant of the library with its PTX and SASS.
    Show {
        /// Words that must all appear in a row (e.g. `fence sc`, `atom acq_rel gpu u32`).
        filter: Vec<String>,
        /// The SASS cost table of every fence and ordered atomic instead.
        #[arg(long)]
        costs: bool,
        /// Inspect FILE.ptx or FILE.cubin instead (FILTER: one function): its sync instructions,
        /// their SASS and cost rows, and lints.
        #[arg(long, value_name = "FILE", conflicts_with = "costs")]
        ptx: Option<PathBuf>,
    },
    /// Walk through the seed §1–§5: programs, PTX, SASS, outcomes.
    Tour {
        /// Skip the GPU even if there is one.
        #[arg(long)]
        no_gpu: bool,
        /// Launches per program on the GPU.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=args::MAX_ITERS))]
        iters: u64,
    },
    /// Check litmus files, or a `.ptx` kernel at a small launch (`--entry`, `--grid`, `--block`,
    /// `--param`…), against the PTX memory model (PTX ISA chapter 8): herd-style verdicts; with
    /// `--advise`, the cheapest synchronization that stays correct. In place of the `.ptx`: a
    /// `.fatbin`, an `nvcc -c` object, a shared library or executable (their embedded PTX), or a
    /// `.cubin` built with `-lineinfo`/`-G` (a SASS-only cubin is refused: it holds no PTX).
    /// Exit 0: every verdict decided (flagged or not); 3: something unsupported, or a verdict
    /// `Bounded` (a loop cut at the unroll bound); 2: bad input (a parse error, a bad option).
    Check {
        /// `.litmus` files or directories (searched recursively), or one `.ptx` module, or one
        /// container with PTX inside (`.fatbin`, `.o`, `.so`, an executable, a `-lineinfo` `.cubin`).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Write all verdicts as JSON to FILE.
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
        /// Write each test's (or the kernel's) witness execution as DOT and SVG into DIR.
        #[arg(long, value_name = "DIR")]
        witness: Option<PathBuf>,
        /// Loop unroll bound: backward jumps to one loop head per entry before the path is cut
        /// and the verdict is `Bounded` (default 4; spin loops that only wait need none).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        unroll: Option<u32>,
        /// Threads that explore one test or kernel together (default: PTX_SYNC_JOBS, else every
        /// core; with --max-steps, 1). The verdicts are the same with any number.
        #[arg(long, value_name = "N")]
        jobs: Option<u64>,
        /// Try the cheaper forms of every synchronization instruction (narrower scope, weaker
        /// sem, removed), re-check each, and list those that keep the verdict with the SASS they
        /// save (issue #22 §3; litmus files with one program are advised together).
        #[arg(long)]
        advise: bool,
        #[command(flatten)]
        kernel: cli::check_cmd::KernelArgs,
    },
    /// Build a kernel crate for nvptx64 to PTX and cubin (the `ptx-sync-build` helper).
    Build(build_cmd::BuildArgs),
    /// Install what building and inspecting kernels needs, once: nightly rust-src and the PTX
    /// tools from PyPI in the user's venv (~/.cache/ptx-sync/venv), where `build`, `show` and a
    /// build.rs calling ptx-sync-build find them. Prints the tool directory.
    Setup {
        /// The Python 3 that makes the venv.
        #[arg(long, value_name = "PY", default_value = "python3")]
        python: String,
    },
    /// The GPU fence-cost benchmark.
    Bench {
        /// Write the results as JSON to FILE.
        #[arg(long, value_name = "FILE", value_parser = args::parse_out_path)]
        json: Option<PathBuf>,
    },
}

fn parse_program(s: &str) -> Result<String, String> {
    if s.ends_with(".litmus") && !std::path::Path::new(s).is_file() {
        return Err(format!("no litmus file {s}"));
    }
    if litmus_file::is_file_arg(s) || s == "all" || s == "list" || programs::find(s).is_some() {
        Ok(s.to_string())
    } else {
        let names: Vec<&str> = programs::PROGRAMS.iter().map(|p| p.name).collect();
        Err(format!(
            "unknown program `{s}`; one of: all, list, {}",
            names.join(", ")
        ))
    }
}

/// `4096`, `64K`, `16M`, `1G` (binary units).
fn parse_bytes(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (num, mul) = match t.chars().last().map(|c| c.to_ascii_uppercase()) {
        Some('K') => (&t[..t.len() - 1], 1u64 << 10),
        Some('M') => (&t[..t.len() - 1], 1 << 20),
        Some('G') => (&t[..t.len() - 1], 1 << 30),
        _ => (t, 1),
    };
    let n: u64 = num
        .parse()
        .map_err(|_| format!("`{s}` is not a byte count (e.g. 4096, 64K, 16M)"))?;
    let b = n
        .checked_mul(mul)
        .ok_or_else(|| format!("`{s}` is too large"))?;
    if b == 0 {
        return Err("the byte count must be positive".into());
    }
    Ok(b)
}

/// A one-line failure: printed as `ptx-sync: <msg>`, exit 1.
fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("ptx-sync: {msg}");
    ExitCode::from(1)
}

fn write_out(path: &PathBuf, text: &str) -> Result<(), String> {
    if path.as_os_str() == "-" {
        print!("{text}");
        return Ok(());
    }
    if let Some(d) = path.parent() {
        if !d.as_os_str().is_empty() {
            std::fs::create_dir_all(d)
                .map_err(|e| format!("cannot create {}: {e}", d.display()))?;
        }
    }
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

impl RunOpts {
    /// The runner configuration these options ask for.
    fn cfg(&self) -> runner::RunCfg {
        runner::RunCfg {
            launches: self.iters,
            stress: !self.no_stress,
            budget: Duration::from_micros(self.budget_us),
            seed: self.seed,
            progress: !self.quiet,
            ..Default::default()
        }
    }
}

fn run_programs(list: Vec<&'static programs::Program>, o: &RunOpts) -> ExitCode {
    let g = match gpu::Gpu::open() {
        Ok(g) => g,
        Err(e) => return fail(e),
    };
    let cfg = o.cfg();
    let mut reports = Vec::new();
    for p in list {
        match runner::run_points(&g, p, &cfg, o.sweep) {
            Ok(rs) => {
                for r in rs {
                    println!("{}", report::table(&r));
                    reports.push(r);
                }
                // Written after every program, so that a run cut short (a fault, a hang, an outer
                // `timeout`) still leaves the programs that finished on disk.
                if let Err(e) = finish_outputs(&reports, o, true) {
                    return fail(e);
                }
            }
            Err(e) => {
                // A fault poisons the context: report what ran, then stop.
                let _ = finish_outputs(&reports, o, false);
                return fail(e);
            }
        }
    }
    if reports.len() > 1 || !report::calibration(&reports).is_empty() {
        println!("{}", report::summary(&reports));
    }
    if let Err(e) = finish_outputs(&reports, o, false) {
        return fail(e);
    }
    if reports.iter().any(|r| r.violated()) {
        eprintln!("ptx-sync: a correct program showed a forbidden outcome");
        return ExitCode::from(3);
    }
    ExitCode::SUCCESS
}

/// `ptx-sync litmus FILE.litmus`: parse, generate and ask the model first (bad input exits 2,
/// an unsupported test 1, before any driver call), then run on the GPU.
fn run_file(path: &str, o: &RunOpts) -> ExitCode {
    if o.sweep || o.svg.is_some() {
        eprintln!(
            "ptx-sync: --sweep and --svg are for the built-in programs, not for litmus files"
        );
        return ExitCode::from(2);
    }
    let prep = match litmus_file::prepare(path) {
        Ok(p) => p,
        Err((code, msg)) => {
            eprintln!("ptx-sync: {msg}");
            return ExitCode::from(code);
        }
    };
    let g = match gpu::Gpu::open() {
        Ok(g) => g,
        Err(e) => return fail(e),
    };
    let cfg = o.cfg();
    let r = match litmus_file::run(&g, &prep, &cfg) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let dev = format!(
        "{} (sm_{}{})",
        g.info.name, g.info.compute_capability.0, g.info.compute_capability.1
    );
    let (text, violated) = litmus_report::render(&prep, &r, &dev, &cfg);
    print!("{text}");
    if let Some(p) = &o.json {
        let doc = litmus_report::json(&prep, &r, &dev);
        if let Err(e) = write_out(p, &serde_json::to_string_pretty(&doc).unwrap()) {
            return fail(e);
        }
    }
    if violated {
        eprintln!("ptx-sync: {}: the GPU showed a state the PTX model forbids (a model or hardware violation)", prep.test.name);
        return ExitCode::from(3);
    }
    ExitCode::SUCCESS
}

/// Writes `--json`/`--svg`; `partial`: an intermediate write (files only, never stdout).
fn finish_outputs(reports: &[hist::Report], o: &RunOpts, partial: bool) -> Result<(), String> {
    let skip = |p: &PathBuf| partial && p.as_os_str() == "-";
    if let Some(p) = o.json.as_ref().filter(|p| !skip(p)) {
        write_out(p, &report::json(reports))?;
    }
    if let Some(p) = o.svg.as_ref().filter(|p| !skip(p)) {
        write_out(p, &report::svg(reports))?;
    }
    Ok(())
}

/// Every output of the process — stdout and stderr, of every command, of clap's help, of the
/// model checker and the inspector — ends quietly when its reader goes away (`ptx-sync check … |
/// head -1`): SIGPIPE gets its default action back, so a write to a closed pipe ends the process
/// as it ends `cat`, without a message. (Rust's runtime ignores SIGPIPE, which turns such a write
/// into an `EPIPE` error and `println!` into a panic, exit 101.) Child processes (ptxas, cargo)
/// get the default action from `std::process::Command` anyway.
fn quiet_on_broken_pipe() {
    #[cfg(unix)]
    // SAFETY: `signal` with a valid signal number and the default action, before any thread.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// mimalloc instead of the system allocator: the checker allocates per explored execution
/// (host/Cargo.toml gives the measurement).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    quiet_on_broken_pipe();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => return args::arg_error(e),
    };
    match cli.cmd {
        Cmd::Devices { json } => match gpu::devices() {
            Ok((ver, devs)) => {
                println!(
                    "CUDA driver {}.{}; {} device(s)",
                    ver / 1000,
                    (ver % 1000) / 10,
                    devs.len()
                );
                for d in &devs {
                    println!(
                        "  {}: {} (sm_{}{}), {} SMs, {:.1} GiB, cluster launch: {}",
                        d.ordinal,
                        d.name,
                        d.compute_capability.0,
                        d.compute_capability.1,
                        d.sms,
                        d.total_mem_bytes as f64 / (1u64 << 30) as f64,
                        if d.cluster_launch { "yes" } else { "no" }
                    );
                }
                if let Some(p) = json {
                    if let Err(e) = write_out(&p, &serde_json::to_string_pretty(&devs).unwrap()) {
                        return fail(e);
                    }
                }
                if devs.is_empty() {
                    return fail("no CUDA device");
                }
                ExitCode::SUCCESS
            }
            Err(e) => fail(e),
        },
        Cmd::Litmus { name, run } => {
            if litmus_file::is_file_arg(&name) {
                return run_file(&name, &run);
            }
            if name == "list" {
                for p in programs::PROGRAMS {
                    println!(
                        "{:<28} {:<12} {:<7} {}",
                        p.name,
                        p.seed,
                        if p.correct { "correct" } else { "broken" },
                        p.what
                    );
                }
                return ExitCode::SUCCESS;
            }
            let list: Vec<_> = if name == "all" {
                programs::PROGRAMS.iter().collect()
            } else {
                vec![programs::find(&name).expect("validated by clap")]
            };
            run_programs(list, &run)
        }
        Cmd::Handoff { version, run } => {
            let list: Vec<_> = programs::PROGRAMS
                .iter()
                .filter(|p| {
                    p.version.is_some() && (version.is_none() || p.version == version.as_deref())
                })
                .collect();
            run_programs(list, &run)
        }
        Cmd::Copy {
            bytes,
            stages,
            json,
        } => copy::command(bytes, stages, json.as_ref()),
        Cmd::Show { filter, costs, ptx } => {
            if let Some(p) = ptx {
                return ExitCode::from(ptx_sync_host::inspect::command(
                    &p,
                    filter.first().map(String::as_str),
                ));
            }
            let tools = ptx_sync_host::sass::find_tools();
            if costs {
                let t = match tools {
                    Ok(t) => t,
                    Err(e) => return fail(e),
                };
                return match ptx_sync_host::costs::cost_table(&t) {
                    Ok(rows) => {
                        print!("{}", ptx_sync_host::costs::render_costs(&rows));
                        ExitCode::SUCCESS
                    }
                    Err(e) => fail(e.lines().next().unwrap_or("ptxas failed")),
                };
            }
            let rows = show::matching(&filter.join(" "));
            if rows.is_empty() {
                // Bad input (exit 2), one line: the words, and how to see what there is.
                eprintln!(
                    "ptx-sync: no instruction variant matches `{}` (`ptx-sync show` lists them all)",
                    filter.join(" ")
                );
                return ExitCode::from(2);
            }
            print!("{}", show::render(&rows, tools));
            ExitCode::SUCCESS
        }
        Cmd::Tour { no_gpu, iters } => tour::run(no_gpu, iters),
        Cmd::Bench { json } => bench(json.as_ref()),
        Cmd::Build(a) => build_cmd::run(&a),
        Cmd::Setup { python } => setup_cmd::run(&python),
        Cmd::Check {
            paths,
            json,
            witness,
            unroll,
            jobs,
            advise,
            kernel,
        } => cli::check_cmd::run(
            &paths,
            &ptx_sync_model::CheckOptions {
                json,
                witness,
                unroll,
                jobs: jobs.map(|j| j as usize),
            },
            &kernel,
            advise,
        ),
    }
}

/// `bench_fence_*` parameters (`host/kernels/src/bench.rs`), from `ptx-sync-abi`.
use ptx_sync_abi::BenchParams;

/// The fence benchmark's [`Launcher`](ptx_sync_host::fencebench::Launcher) on cudarc.
struct GpuLauncher<'a> {
    g: &'a gpu::Gpu,
}

impl ptx_sync_host::fencebench::Launcher for GpuLauncher<'_> {
    fn launch(
        &mut self,
        l: &ptx_sync_host::fencebench::Launch,
    ) -> Result<ptx_sync_host::fencebench::Measured, String> {
        let g = self.g;
        let e = |e: gpu::GpuError| e.to_string();
        let warps = (l.block / 32).max(1) as usize;
        let out = g.alloc(warps * 8).map_err(e)?;
        let buf = g
            .alloc(l.grid as usize * l.block as usize * l.stores.max(1) as usize * 4)
            .map_err(e)?;
        let flags = g.alloc(256).map_err(e)?;
        let p = BenchParams {
            out: out.ptr,
            buf: buf.ptr,
            hot: flags.ptr,
            done: flags.ptr + 128,
            iters: l.iters,
            stores: l.stores,
        };
        let ms = g
            .launch_timed(
                "bench",
                &l.kernel,
                &ptx_sync_host::cuda::LaunchConfig::new(l.grid, l.block),
                &p,
            )
            .map_err(e)?;
        let mut cycles = vec![0u64; warps];
        out.read(&mut cycles).map_err(e)?;
        Ok(ptx_sync_host::fencebench::Measured {
            warp_cycles: cycles,
            elapsed_ms: ms as f64,
        })
    }
    fn device(&self) -> String {
        let i = &self.g.info;
        format!(
            "{}, sm_{}{}, {} SMs",
            i.name, i.compute_capability.0, i.compute_capability.1, i.sms
        )
    }
}

fn bench(json: Option<&PathBuf>) -> ExitCode {
    use ptx_sync_host::fencebench::{self as fb, Launcher as _};
    let g = match gpu::Gpu::open() {
        Ok(g) => g,
        Err(e) => return fail(e),
    };
    let mut cfg = fb::Config::default();
    // Contention: every other SM of this GPU.
    for s in cfg.situations.iter_mut() {
        if let fb::Situation::Contended { ctas, .. } = s {
            *ctas = (g.info.sms as u32).max(2);
        }
    }
    let mut l = GpuLauncher { g: &g };
    let rows = match fb::measure(&mut l, &cfg) {
        Ok(r) => r,
        Err(e) => return fail(format!("fence benchmark: {e}")),
    };
    let dev = l.device();
    println!("{}", fb::render(&dev, &cfg, &rows));
    if let Some(p) = json {
        let v: Vec<serde_json::Value> = rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "fence": r.fence, "situation": r.situation, "cycles": r.cycles,
                    "cycles_min": r.cycles_range.0, "cycles_max": r.cycles_range.1,
                    "ns_e2e": r.ns_e2e, "grid": r.grid, "block": r.block,
                })
            })
            .collect();
        let doc = serde_json::json!({ "device": dev, "module": g.loaded_from, "iters": cfg.iters, "warmup": cfg.warmup, "reps": cfg.reps, "rows": v });
        if let Err(e) = write_out(p, &serde_json::to_string_pretty(&doc).unwrap()) {
            return fail(e);
        }
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_byte_counts() {
        assert_eq!(parse_bytes("4096"), Ok(4096));
        assert_eq!(parse_bytes("64K"), Ok(65536));
        assert_eq!(parse_bytes("16m"), Ok(16 << 20));
        assert!(parse_bytes("0").is_err());
        assert!(parse_bytes("12Q").unwrap_err().contains("not a byte count"));
        assert!(parse_bytes("99999999999999G")
            .unwrap_err()
            .contains("too large"));
    }

    #[test]
    fn program_names_are_validated() {
        assert!(parse_program("mp_rel_acq_cta").is_ok());
        assert!(parse_program("all").is_ok());
        let e = parse_program("mp_nope").unwrap_err();
        assert!(
            e.contains("unknown program `mp_nope`") && e.contains("sb_sc"),
            "{e}"
        );
    }

    #[test]
    fn cli_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
