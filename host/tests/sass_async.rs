//! SASS of the Rust TMA pipeline kernels (`host/kernels/src/tiled_copy.rs`, `section5.rs`), as
//! printed by `cuobjdump -sass` of the cubin that `cargo xtask ptx` assembles with ptxas 13.0
//! (`-arch=sm_90a`): the Hopper paths of seed §5 are really taken.
//!
//! Observed with ptxas 13.0.88 / cuobjdump 13.2.86 (the spellings asserted below):
//! * `mbarrier.init`                         → `SYNCS.EXCH.64`
//! * `mbarrier.arrive.expect_tx`             → `SYNCS.ARRIVE.TRANS64` (no `.A1T0` suffix)
//! * `mbarrier.arrive.release.cta` (local)   → `SYNCS.ARRIVE.TRANS64.A1T0`
//! * `mbarrier.arrive.release.cluster.shared::cluster` (remote) → `SYNCS.ARRIVE.TRANS64.RED.A1T0`
//! * `mbarrier.try_wait.parity`              → `SYNCS.PHASECHK.TRANS64.TRYWAIT`
//! * `cp.async.bulk.tensor.2d…`              → `UTMALDG.2D` (`.MULTICAST` with `.multicast::cluster`)
//! * `cp.async.bulk…global` (linear)         → `UBLKCP.S.G` (`.MULTICAST`)
//! * `barrier.cluster.arrive` / `.wait`      → `UCGABAR_ARV` / `UCGABAR_WAIT`
//! * `fence.proxy.async`                     → `FENCE.VIEW.ASYNC.S` (ptxas also inserts one
//!   before a kernel's first `mbarrier.init` on its own)
//! * `cp.async.cg … 16` / `wait_all`         → `LDGSTS.E.BYPASS.128`, `LDGDEPBAR` + `DEPBAR.LE`
//! * `bar.arrive`                            → `BAR.ARV`
//!
//! Input: `$PTX_SYNC_PTX_DIR/kernels.sass` (default `/work/main/target/ptx`; `cargo xtask ptx`).

use std::collections::BTreeMap;
use std::path::PathBuf;

fn sass() -> String {
    let dir = std::env::var("PTX_SYNC_PTX_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/ptx"));
    let p = dir.join("kernels.sass");
    std::fs::read_to_string(&p)
        .unwrap_or_else(|e| panic!("{}: {e} (run `cargo xtask ptx` first)", p.display()))
}

/// Function name → list of opcodes (with modifiers), predicates stripped (the workspace's one
/// SASS reader, `ptx_sync_host::sass::parse_functions`).
fn functions(sass: &str) -> BTreeMap<String, Vec<String>> {
    ptx_sync_host::sass::parse_functions(sass)
        .into_iter()
        .map(|f| (f.name, f.instrs.into_iter().map(|i| i.opcode).collect()))
        .collect()
}

fn count(ops: &[String], op: &str) -> usize {
    ops.iter().filter(|o| o.as_str() == op).count()
}

fn assert_has(fns: &BTreeMap<String, Vec<String>>, kernel: &str, want: &[&str]) {
    let ops = fns
        .get(kernel)
        .unwrap_or_else(|| panic!("{kernel} not in kernels.sass"));
    for w in want {
        assert!(count(ops, w) > 0, "{kernel}: no {w} in its SASS");
    }
}

#[test]
fn tiled_copy_takes_the_hopper_tma_paths() {
    let fns = functions(&sass());
    for k in [
        "tiled_copy_s1",
        "tiled_copy_s2",
        "tiled_copy_s3",
        "tiled_copy_s4",
    ] {
        assert_has(
            &fns,
            k,
            &[
                "SYNCS.EXCH.64",                  // mbarrier.init
                "SYNCS.ARRIVE.TRANS64",           // mbarrier.arrive.expect_tx (producer_acquire)
                "SYNCS.ARRIVE.TRANS64.A1T0",      // mbarrier.arrive.release.cta (consumer_release)
                "SYNCS.PHASECHK.TRANS64.TRYWAIT", // mbarrier.try_wait.parity
                "UTMALDG.2D",                     // cp.async.bulk.tensor.2d load
                "FENCE.VIEW.ASYNC.S",             // fence.proxy.async (seed 5.3)
            ],
        );
        let ops = &fns[k];
        assert_eq!(
            count(ops, "UCGABAR_ARV"),
            0,
            "{k}: no cluster barrier in the CTA pipeline"
        );
        assert_eq!(count(ops, "UTMALDG.2D.MULTICAST"), 0, "{k}");
    }
    assert_has(
        &fns,
        "tiled_copy_cluster2_s2",
        &[
            "SYNCS.EXCH.64",
            "SYNCS.ARRIVE.TRANS64",
            "SYNCS.ARRIVE.TRANS64.RED.A1T0", // remote arrive .release.cluster on the leader's empty
            "SYNCS.PHASECHK.TRANS64.TRYWAIT",
            "UTMALDG.2D.MULTICAST",
            "UCGABAR_ARV",
            "UCGABAR_WAIT",
        ],
    );
}

#[test]
fn section5_kernels_take_their_paths() {
    let fns = functions(&sass());
    for k in ["s51_cp_async_bug", "s51_cp_async_fix"] {
        assert_has(&fns, k, &["LDGSTS.E.BYPASS.128", "LDGDEPBAR", "BAR.ARV"]);
    }
    // The fix waits for the copies (DEPBAR) *before* the BAR.ARV; the bug after it.
    let pos = |k: &str, op: &str| fns[k].iter().position(|o| o.starts_with(op)).unwrap();
    assert!(pos("s51_cp_async_fix", "DEPBAR") < pos("s51_cp_async_fix", "BAR.ARV"));
    assert!(pos("s51_cp_async_bug", "DEPBAR") > pos("s51_cp_async_bug", "BAR.ARV"));
    for k in [
        "s52_tma_bug",
        "s52_tma_fix",
        "s53_reuse_bug",
        "s53_reuse_fix",
    ] {
        assert_has(
            &fns,
            k,
            &[
                "SYNCS.EXCH.64",
                "SYNCS.ARRIVE.TRANS64",
                "UBLKCP.S.G",
                "SYNCS.PHASECHK.TRANS64.TRYWAIT",
            ],
        );
    }
    assert_has(&fns, "s52_tma_bug", &["BAR.ARV"]);
    assert_eq!(count(&fns["s52_tma_fix"], "BAR.ARV"), 0);
    // 5.3: the fix has the consumer's proxy fence, the bug does not. ptxas 13.0 itself puts one
    // FENCE.VIEW.ASYNC.S before the `mbarrier.init`s (SYNCS.EXCH.64), and both kernels fence
    // the inits for the async proxy right after them; count the fences after the first
    // `bar.sync` (BAR.SYNC.DEFER_BLOCKING) that follows the inits.
    let after_setup = |k: &str| {
        let ops = &fns[k];
        let last_init = ops.iter().rposition(|o| o == "SYNCS.EXCH.64").unwrap();
        let setup = last_init
            + ops[last_init..]
                .iter()
                .position(|o| o.starts_with("BAR.SYNC"))
                .unwrap();
        (
            count(&ops[last_init..setup], "FENCE.VIEW.ASYNC.S"),
            count(&ops[setup..], "FENCE.VIEW.ASYNC.S"),
        )
    };
    for k in ["s53_reuse_fix", "s53_reuse_bug"] {
        assert!(
            after_setup(k).0 >= 1,
            "{k}: the inits are not fenced for the async proxy"
        );
    }
    assert!(
        after_setup("s53_reuse_fix").1 >= 1,
        "s53_reuse_fix lacks fence.proxy.async"
    );
    assert_eq!(
        after_setup("s53_reuse_bug").1,
        0,
        "s53_reuse_bug must lack fence.proxy.async"
    );
    for k in ["s54_cluster_cta", "s54_cluster_fix", "s54_init_bug"] {
        assert_has(
            &fns,
            k,
            &[
                "UBLKCP.S.G.MULTICAST",
                "UCGABAR_ARV",
                "UCGABAR_WAIT",
                "SYNCS.ARRIVE.TRANS64.RED.A1T0",
            ],
        );
    }
    // 5.4 init publication: the fix has two cluster barriers (after the inits, before exit); the
    // init bug only the exit one (its inits are published with bar.sync, to its own CTA only).
    assert_eq!(count(&fns["s54_cluster_fix"], "UCGABAR_ARV"), 2);
    assert_eq!(count(&fns["s54_init_bug"], "UCGABAR_ARV"), 1);
}
