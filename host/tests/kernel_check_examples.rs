//! The three examples' kernels checked by the model's kernel checker (issue #22, "What must be
//! shown" 1): the Rust kernel's PTX (`$PTX_SYNC_PTX_DIR/examples/<name>_example.ptx`) clean at a
//! small launch, a broken variant of it (a textual mutation of the same PTX, made here) caught,
//! and the example's CUDA C++ twin (`examples/*/cuda/*.cu`, built here with the venv's
//! `nvcc -arch=sm_90 -ptx`) giving the same verdicts at the same launch, its own mutation caught
//! the same way: the check does not care which language made the PTX.
//!
//! Every verdict below was written by hand from the example's source and the PTX ISA before the
//! checker ran (chapter 8: §8.6 morally strong, §8.7.1 data races, §8.8 release/acquire
//! patterns and proxies; §9.7.13.15 mbarrier). `docs/kernel-check.md` ("The examples and their
//! CUDA twins") has the launches, the verdicts and the times.
//!
//! Inputs: `$PTX_SYNC_PTX_DIR` (default `target/ptx`, built by `cargo xtask ptx`) and nvcc
//! (`ptx_sync_build::tools::find_tool`: `PTX_SYNC_NVCC`, `PTX_SYNC_TOOLS`, `PATH`, the project
//! `.venv`). A missing file or a missing nvcc fails the test with the command that makes it.

use ptx_sync_model::kernel::{check_kernel, KernelCheck, KernelOutcome};
use ptx_sync_model::ptx::module::{Bind, Launch};
use std::path::{Path, PathBuf};

/// The workspace root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The Rust kernel's PTX, `$PTX_SYNC_PTX_DIR/examples/<name>_example.ptx`.
fn rust_ptx(name: &str) -> String {
    let dir = std::env::var("PTX_SYNC_PTX_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| root().join("target/ptx"));
    let p = dir.join("examples").join(format!("{name}_example.ptx"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| {
        panic!(
            "{}: {e}: build the examples' PTX first with `cargo xtask ptx` (cargo xtask test does)",
            p.display()
        )
    })
}

/// The CUDA C++ twin `examples/<dir>/cuda/<file>.cu` compiled by nvcc (`-arch=sm_90 -ptx -O3`,
/// libcu++ from the venv's `include/cccl`), once per test process (two tests check the tiled
/// copy's). Panics (never skips) when nvcc is missing or fails.
fn cuda_ptx(dir: &str, file: &str) -> String {
    static DONE: std::sync::Mutex<std::collections::BTreeMap<String, String>> =
        std::sync::Mutex::new(std::collections::BTreeMap::new());
    let mut done = DONE.lock().unwrap_or_else(|p| p.into_inner());
    done.entry(format!("{dir}/{file}"))
        .or_insert_with(|| compile_cuda(dir, file))
        .clone()
}

/// [`cuda_ptx`]'s nvcc run.
fn compile_cuda(dir: &str, file: &str) -> String {
    let nvcc = ptx_sync_build::tools::find_tool("nvcc", &root()).unwrap_or_else(|| {
        panic!(
            "no nvcc: run `cargo xtask setup` (it installs the project .venv), or set \
             PTX_SYNC_TOOLS to the directory holding nvcc"
        )
    });
    let bin = nvcc.parent().expect("nvcc has a directory").to_path_buf();
    let cu = root()
        .join("examples")
        .join(dir)
        .join("cuda")
        .join(format!("{file}.cu"));
    let out = std::env::temp_dir().join(format!(
        "ptx-sync-kcheck-examples-{file}-{}.ptx",
        std::process::id()
    ));
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![bin.clone()];
    paths.extend(std::env::split_paths(&path));
    let o = std::process::Command::new(&nvcc)
        .env("PATH", std::env::join_paths(paths).expect("PATH"))
        .args(["-arch=sm_90", "-ptx", "-O3", "-I"])
        .arg(bin.join("../include/cccl"))
        .arg(&cu)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", nvcc.display()));
    assert!(
        o.status.success(),
        "nvcc failed on {}:\n{}",
        cu.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    let ptx = std::fs::read_to_string(&out).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    let _ = std::fs::remove_file(&out);
    ptx
}

/// What the checker must say about one kernel.
#[derive(Clone, Copy, Debug)]
struct Verdict {
    /// `Flag data-race`.
    race: bool,
    /// `Flag hang`.
    hang: bool,
    /// An assertion over the buffers and whether it holds.
    assert: Option<(&'static str, bool)>,
    /// Words every reported race must name (the instructions or the proxies, §8.8).
    race_names: &'static [&'static str],
}

const CLEAN: Verdict = Verdict {
    race: false,
    hang: false,
    assert: None,
    race_names: &[],
};

/// Checks `entry` of `ptx` at `launch`; `Err` lists every way the outcome differs from `want`.
fn check(
    what: &str,
    ptx: &str,
    entry: &str,
    launch: &Launch,
    want: Verdict,
) -> Result<KernelOutcome, String> {
    let check = KernelCheck {
        entry: entry.into(),
        launch: launch.clone(),
        assert: want.assert.map(|a| a.0.to_string()),
    };
    let o = check_kernel(ptx, what, &check).map_err(|e| format!("{what}: {e}"))?;
    let mut bad = Vec::new();
    let names = o.flag_names();
    let mut expected: Vec<String> = Vec::new();
    if want.race {
        expected.push("data-race".into());
    }
    if want.hang {
        expected.push("hang".into());
    }
    if names != expected {
        bad.push(format!("flags {names:?}, expected {expected:?}"));
    }
    for r in &o.races {
        for w in want.race_names {
            if !r.contains(w) {
                bad.push(format!("the race `{r}` does not name `{w}`"));
            }
        }
    }
    if o.bounded() {
        bad.push("cut at the unroll bound".into());
    }
    if o.executions == 0 {
        bad.push("no execution".into());
    }
    if let Some((a, h)) = want.assert {
        if o.holds() != h {
            bad.push(format!(
                "`{a}` {} (expected {})",
                if o.holds() { "holds" } else { "fails" },
                if h { "holds" } else { "fails" }
            ));
        }
    }
    println!(
        "{what} {entry}: {} executions, {:.2} s, flags {names:?}",
        o.executions, o.seconds
    );
    if bad.is_empty() {
        Ok(o)
    } else {
        Err(format!("{what} {entry}: {}\n{}", bad.join("; "), o.herd()))
    }
}

/// The text of `.entry name` in `ptx`: from its header to the next `.entry` (or the end).
fn entry_text<'a>(ptx: &'a str, name: &str) -> &'a str {
    let head = format!(".entry {name}(");
    let start = ptx
        .find(&head)
        .unwrap_or_else(|| panic!("no `{head}` in the PTX"));
    let rest = &ptx[start + head.len()..];
    let end = rest
        .find(".entry ")
        .map_or(ptx.len(), |i| start + head.len() + i);
    &ptx[start..end]
}

/// `ptx` with the first occurrence of `from` inside entry `name` replaced by `to`. Panics when
/// the entry has no `from` (so a mutation can never be a no-op).
fn mutate(ptx: &str, name: &str, from: &str, to: &str) -> String {
    let body = entry_text(ptx, name);
    let at = body
        .find(from)
        .unwrap_or_else(|| panic!("entry {name} has no `{from}`: the mutation would be a no-op"));
    let base = body.as_ptr() as usize - ptx.as_ptr() as usize;
    let mut out = String::with_capacity(ptx.len());
    out.push_str(&ptx[..base + at]);
    out.push_str(to);
    out.push_str(&ptx[base + at + from.len()..]);
    assert_ne!(out, ptx, "the mutation `{from}` → `{to}` changed nothing");
    out
}

/// A launch: 1-D grid and block, parameters in order.
fn launch(grid: u32, block: u32, params: &[Bind], dyn_smem: u32) -> Launch {
    let mut l = Launch::new([grid, 1, 1], [block, 1, 1]);
    l.params = params.iter().cloned().enumerate().collect();
    l.dyn_smem = dyn_smem;
    l
}

/// One example: the clean verdict, the mutation and its verdict, for both languages.
struct Example {
    entry: &'static str,
    launch: Launch,
    clean: Verdict,
    /// `(language, PTX, from, to)` per twin: the broken variant's textual mutation.
    twins: Vec<(&'static str, String, &'static str, &'static str)>,
    broken: Verdict,
}

/// Runs both twins: clean as `clean`, mutated as `broken`; collects every mismatch.
fn run(x: &Example) {
    let mut bad = Vec::new();
    for (lang, ptx, from, to) in &x.twins {
        if let Err(e) = check(lang, ptx, x.entry, &x.launch, x.clean) {
            bad.push(e);
        }
        let broken = mutate(ptx, x.entry, from, to);
        let what = format!("{lang} (`{from}` → `{to}`)");
        if let Err(e) = check(&what, &broken, x.entry, &x.launch, x.broken) {
            bad.push(e);
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// examples/handoff (the seed's §4.4 hand-off): `handoff_kernel(h, out)`.
///
/// Launch: grid 3 × block 1, `h` = 12 bytes (`data`, `full`, `count`), `out` = 12 bytes (C1's
/// value, C2's value, 1 if P saw both). The kernel's roles are by CTA (0 = P, 1 = C1, 2 = C2)
/// and P waits for `count == 2`, so three one-thread CTAs are the whole protocol: fewer is a
/// hang by construction, more CTAs would only add consumers P does not wait for.
///
/// Clean (§8.8): P's `st.release.gpu full` is read by each consumer's `ld.acquire.gpu`, so
/// `data = 42` happens before its read; each consumer's read is before its `red.release.gpu`
/// (CUDA: `atom.add.release.gpu`) on `count`, which P's `ld.acquire.gpu` of 2 reads through the
/// release sequence of the RMWs, so both reads happen before `data = 43`: no race, and a
/// consumer that did not time out (`0xdead` = 57005) read 42.
///
/// Broken: `st.release.gpu` → `st.relaxed.gpu` on `full`. A relaxed store is no release
/// pattern (§8.8), so nothing orders P's weak `data = 42` before a consumer's weak read of
/// `data`: the two conflict and are not ordered by causality order: a data race (§8.7.1); the
/// read may return the initial 0, so the clean run's assertion fails.
#[test]
fn handoff_rust_and_cuda_clean_and_relaxed_publish_races() {
    let launch = launch(3, 1, &[Bind::Buf(12), Bind::Buf(12)], 0);
    let assert = "forall ((p1[0] == 42 \\/ p1[0] == 57005) /\\ (p1[1] == 42 \\/ p1[1] == 57005) \
                  /\\ (p1[2] == 0 \\/ (p1[0] == 42 /\\ p1[1] == 42)))";
    run(&Example {
        entry: "handoff_kernel",
        launch,
        clean: Verdict {
            assert: Some((assert, true)),
            ..CLEAN
        },
        twins: vec![
            (
                "rust",
                rust_ptx("handoff"),
                "st.release.gpu.",
                "st.relaxed.gpu.",
            ),
            (
                "cuda",
                cuda_ptx("handoff", "handoff"),
                "st.release.gpu.",
                "st.relaxed.gpu.",
            ),
        ],
        broken: Verdict {
            race: true,
            // The racy read may return the initial 0: the clean assertion fails.
            assert: Some((assert, false)),
            // P's `data = 42` and a consumer's read of `data`.
            race_names: &["st.global", "ld.global"],
            ..CLEAN
        },
    });
}

/// examples/reduction (the last-block-done reduction): `reduce_kernel(input, partials, ticket,
/// out, n)`, 4 bytes of dynamic shared memory (the CTA's accumulator).
///
/// Launch: grid 2 × block 2, `input` = 16 bytes, `partials` = 8 (a word per CTA), `ticket` =
/// 4, `out` = 4, `n` = 4. Two CTAs are the least that exercise the ticket (one CTA publishes, the
/// other takes the last ticket and reads its partial, in either order); two threads per CTA
/// exercise the `.cta` accumulator and the `barrier.sync` around it; `n` = 4 gives every thread
/// one element, so the grid-stride loop runs once.
///
/// Clean (§8.8): each CTA's thread 0 writes its partial, then `atom.acq_rel.gpu.add` on the
/// ticket; the CTA that reads `gridDim - 1` acquires every earlier RMW's release through the
/// release sequence of the ticket's RMWs, so the other CTA's partial write happens before its
/// read: no race. Its `st.relaxed.gpu ticket = 0` comes after the last RMW in coherence order,
/// so the ticket ends at 0 in every execution (`forall (p2[0] == 0)`; it would end at 2 if no
/// CTA took the last ticket). The buffers are zeroed (a launch binds fresh zeroed buffers), so
/// the sum itself is 0 either way and is not what the assertion checks.
///
/// Broken: `.acq_rel.gpu` → `.relaxed.gpu` on the ticket's `atom`. Relaxed RMWs are no release
/// or acquire pattern (§8.8): the last CTA's weak read of the other CTA's partial is not ordered
/// after its weak write: a data race (§8.7.1). The RMWs themselves stay morally strong (§8.6).
#[test]
fn reduction_rust_and_cuda_clean_and_relaxed_ticket_races() {
    let launch = launch(
        2,
        2,
        &[
            Bind::Buf(16),
            Bind::Buf(8),
            Bind::Buf(4),
            Bind::Buf(4),
            Bind::Int(4),
        ],
        4,
    );
    run(&Example {
        entry: "reduce_kernel",
        launch,
        clean: Verdict {
            assert: Some(("forall (p2[0] == 0)", true)),
            ..CLEAN
        },
        twins: vec![
            (
                "rust",
                rust_ptx("reduction"),
                ".acq_rel.gpu",
                ".relaxed.gpu",
            ),
            (
                "cuda",
                cuda_ptx("reduction", "reduction"),
                ".acq_rel.gpu",
                ".relaxed.gpu",
            ),
        ],
        broken: Verdict {
            race: true,
            // A CTA's partial write and the last CTA's read of it.
            race_names: &["st.global", "ld.global"],
            ..CLEAN
        },
    });
}

/// `ptx` with the one line of entry `name` that starts with `prefix` and ends with `from`
/// ending instead with `to`. Panics unless exactly one line of the entry matches.
fn edit_line(ptx: &str, name: &str, prefix: &str, from: &str, to: &str) -> String {
    let body = entry_text(ptx, name);
    let hits: Vec<&str> = body
        .lines()
        .filter(|l| l.trim_start().starts_with(prefix) && l.trim_end().ends_with(from))
        .collect();
    assert_eq!(
        hits.len(),
        1,
        "entry {name}: expected one `{prefix} … {from}` line, found {hits:?}"
    );
    let line = hits[0].trim_end();
    let edited = format!("{}{to}", &line[..line.len() - from.len()]);
    mutate(ptx, name, line, &edited)
}

/// The tiled copy at model-check size: the example's kernels fix 128 consumer threads
/// (`consumers: 128`, so `mbarrier.init` of each `empty` with 128 and the role test
/// `tid - 32 > 127`) and 64 × 32 boxes (`expect_tx` of 8192 bytes). Three constants are
/// narrowed, each in exactly one line of the entry: `empty` counts 1 arrival, only thread 32
/// consumes, and each stage expects 16 bytes (a 4 × 1 box). Every synchronization instruction
/// (the mbarrier inits, `fence.proxy.async`, the barrier, the try_waits, the arrives, the TMA
/// with `complete_tx`, the tensormap fence) is the compiler's, unchanged.
fn narrow_tiled(ptx: &str, entry: &str) -> String {
    let p = edit_line(ptx, entry, "mov.", ", 128;", ", 1;");
    let p = edit_line(&p, entry, "setp.gt.u32", ", 127;", ", 0;");
    edit_line(&p, entry, "mov.", ", 8192;", ", 16;")
}

/// The narrowed tiled copy's launch: grid 1 × block 33 (thread 0 = producer, threads 1–31 only
/// pass `barrier.sync 0`, thread 32 = the one consumer), a 2-D tensor map over a zeroed
/// `width` × 1 `u32` source with a 4 × 1 box, `out` = `width` words, `width`, `height` = 1,
/// `status` = 4 bytes, 16 KiB of dynamic shared memory (2 stages × 8 KiB, the kernel's stage
/// stride).
fn tiled_launch(width: u32) -> Launch {
    launch(
        1,
        33,
        &[
            Bind::Tmap {
                dims: [width, 1],
                boxdim: [4, 1],
                rank: 2,
            },
            Bind::Buf(4 * width),
            Bind::Int(width as u64),
            Bind::Int(1),
            Bind::Buf(4),
        ],
        16384,
    )
}

/// examples/tiled-copy (the seed's §5 full/empty TMA ring): `tiled_copy_s2(tmap, out, width,
/// height, status)`, 2 stages, at model-check size ([`narrow_tiled`]).
///
/// Launch: grid 1 × block 33 (thread 0 = producer, threads 1–31 only pass `barrier.sync 0`,
/// thread 32 = the one consumer), a 2-D tensor map over a zeroed 4 × 1 `u32` source with a
/// 4 × 1 box, `out` = 16 bytes, `width` = 4, `height` = 1, `status` = 4 bytes, 16 KiB of dynamic
/// shared memory (2 stages × 8 KiB, the kernel's stage stride). One tile: the init → barrier →
/// `expect_tx` → TMA → `complete_tx` → acquire → generic read → proxy fence → release arrive →
/// producer tail chain, once. Three tiles (a stage reused, where a missing
/// `fence.proxy.async` would race) did not finish in 300 s, and the full-size kernel (160
/// threads, 8 KiB boxes) takes 75 s for the producer alone (`docs/kernel-check.md`).
///
/// Clean (§9.7.13.15.16, §8.8): the consumer's `mbarrier.try_wait.parity.acquire` (CUDA: the
/// default `.acquire.cta`) observes the phase the TMA's `complete_tx` completed, so the async
/// proxy's write of the stage happens before the consumer's generic read; the producer's tail
/// waits for the consumer's release arrive. No race, no hang. The source is zeroed (a launch
/// binds zeroed buffers), so the copied values are 0 whether copied or not: no assertion.
///
/// Broken: the consumer's first `try_wait` on `full` made `.relaxed.cta` (§9.7.13.15.16: `.sem
/// = { .acquire, .relaxed }`). A relaxed wait is no acquire pattern, so nothing orders the TMA
/// write (async proxy) before the consumer's generic read of the stage: a data race between the
/// two proxies (§8.7.1, §8.8).
#[test]
fn tiled_copy_rust_and_cuda_clean_and_relaxed_wait_races() {
    let entry = "tiled_copy_s2";
    let launch = tiled_launch(4);
    // The CUDA twin as nvcc wrote it: each template instance declares its `__shared__` `full`
    // and `empty` barriers inside the entry's body (PTX ISA §5.1.5: per-CTA storage whatever the
    // declaration's scope), which the checker takes as they are.
    let cuda = cuda_ptx("tiled-copy", "tiled_copy");
    assert!(
        cuda.lines()
            .any(|l| l.starts_with(char::is_whitespace) && l.trim_start().starts_with(".shared ")),
        "nvcc no longer declares the barriers in the entries' bodies: this comment is stale"
    );
    run(&Example {
        entry,
        launch,
        clean: CLEAN,
        twins: vec![
            (
                "rust",
                narrow_tiled(&rust_ptx("tiled_copy"), entry),
                "mbarrier.try_wait.parity.acquire.cta",
                "mbarrier.try_wait.parity.relaxed.cta",
            ),
            (
                "cuda",
                narrow_tiled(&cuda, entry),
                "mbarrier.try_wait.parity.shared::cta",
                "mbarrier.try_wait.parity.relaxed.cta.shared::cta",
            ),
        ],
        broken: Verdict {
            race: true,
            race_names: &["cp.async.bulk.tensor", "async and generic proxies"],
            ..CLEAN
        },
    });
}

/// The tiled copy with three tiles through its two stages (issue #22 "What must be shown" 3):
/// tile 2 reuses stage 0, so the producer's third TMA write of stage 0 must wait for the
/// consumer's release of tile 0 — and, across the proxies, for the consumer's
/// `fence.proxy.async` before that release (§8.8, §9.7.13.4: the generic reads of the stage
/// are ordered before the async proxy's next write only through the proxy fence). Same
/// narrowing as [`tiled_copy_rust_and_cuda_clean_and_relaxed_wait_races`] (the kernel's tiles
/// stay 64 wide, its boxes 4 × 1): a 192 × 1 source, `width` 192 (tiles at x = 0, 64, 128),
/// `out` 768 bytes; `--unroll 12` (the tile loops
/// run three times and each wait loop may iterate once per arrival it reads first).
///
/// Clean: no flag. Broken: the consumer's proxy fence removed — a data race between its
/// generic read of stage 0 (tile 0) and the TMA's async-proxy write of tile 2 into it. Both
/// twins, the same verdicts.
#[test]
fn tiled_copy_three_tiles_reuse_a_stage_and_need_the_proxy_fence() {
    let entry = "tiled_copy_s2";
    let mut launch = tiled_launch(192);
    launch.unroll = 12;
    run(&Example {
        entry,
        launch,
        clean: CLEAN,
        twins: vec![
            (
                "rust",
                narrow_tiled(&rust_ptx("tiled_copy"), entry),
                "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;",
                "",
            ),
            // nvcc's consumer fence is the init's text too; the consumer's is the one followed
            // by the `mov` of `empty`'s address for its arrive.
            (
                "cuda",
                narrow_tiled(&cuda_ptx("tiled-copy", "tiled_copy"), entry),
                "fence.proxy.async.shared::cta; // 6.\n\t// end inline asm\n\tmov.u32",
                "// end inline asm\n\tmov.u32",
            ),
        ],
        broken: Verdict {
            race: true,
            // The consumer's generic read of the stage and the TMA's write of tile 2.
            race_names: &["ld.", "cp.async.bulk.tensor", "generic and async proxies"],
            ..CLEAN
        },
    });
}
