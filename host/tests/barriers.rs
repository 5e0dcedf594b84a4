//! No `.aligned` barrier of the kernels is reached from two paths.
//!
//! PTX ISA §9.7.13.1 (`bar`, `barrier`): with `.aligned` (which `bar.sync`, `bar.arrive` and
//! `bar.red` imply), "all threads in a warp must execute the same barrier instruction"; §9.7.13.3
//! says the same of `barrier.cluster.*.aligned`. rustc's inline asm is not `convergent`, so LLVM
//! may tail-duplicate a barrier call into both arms of a branch: two instructions, and a warp
//! split between the arms executes the barrier at two different ones — undefined behaviour. This
//! test reads every kernel of `target/ptx/kernels.ptx` (built by `cargo xtask ptx`), builds its
//! control-flow graph, and fails when two `.aligned` barrier instructions of the same kind sit
//! where neither dominates the other (so some execution reaches one without passing the other:
//! the duplicated shape). The non-aligned `barrier.sync` / `barrier.arrive` forms
//! (`NamedBarrier::sync_unaligned`, `sync_threads_unaligned`) are defined when duplicated.
//!
//! `tests/data/duplicated_barriers.ptx` is LLVM's output for `tiled_copy_s1` and `s52_tma_bug`
//! before the kernels moved to the non-aligned forms: the checker must find both there.

use ptx_sync_host::ptx_cfg::{self, aligned_barrier, Func};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

// The checker itself lives in the library (`ptx_sync_host::ptx_cfg`), shared with the
// `aligned-barrier-two-paths` lint of `ptx-sync show --ptx`.

/// The kernels (`.entry`) of a PTX module by name.
fn kernels(ptx: &str) -> BTreeMap<String, Func> {
    ptx_cfg::functions(ptx)
        .into_iter()
        .filter(|f| f.entry)
        .map(|f| (f.name.clone(), f))
        .collect()
}

/// Pairs of same-kind aligned barriers of which neither dominates the other, as their text.
fn duplicated(k: &Func) -> Vec<(String, String)> {
    ptx_cfg::duplicated(k)
        .into_iter()
        .map(|(a, b)| (k.ins[a].text.clone(), k.ins[b].text.clone()))
        .collect()
}

fn ptx_dir() -> PathBuf {
    std::env::var("PTX_SYNC_PTX_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/ptx"))
}

#[test]
fn no_kernel_reaches_an_aligned_barrier_from_two_paths() {
    let p = ptx_dir().join("kernels.ptx");
    let ptx = std::fs::read_to_string(&p).unwrap_or_else(|e| {
        panic!(
            "{}: {e}: run `cargo xtask ptx` (cargo xtask test does)",
            p.display()
        )
    });
    let ks = kernels(&ptx);
    assert!(
        ks.len() > 50,
        "only {} kernels in {}",
        ks.len(),
        p.display()
    );
    let mut bad = Vec::new();
    let (mut aligned, mut unaligned) = (0, 0);
    for (name, k) in &ks {
        aligned += k.barriers.len();
        unaligned += k
            .ins
            .iter()
            .filter(|i| i.text.starts_with("barrier.") && aligned_barrier(&i.text).is_none())
            .count();
        for (a, b) in duplicated(k) {
            bad.push(format!("{name}: `{a}` and `{b}`"));
        }
    }
    assert!(
        bad.is_empty(),
        "aligned barriers reached from two paths (PTX ISA §9.7.13.1: undefined):\n{}",
        bad.join("\n")
    );
    // The parser reads the kernels' barrier instructions (the non-aligned `barrier.sync`,
    // `barrier.arrive`, `barrier.cluster.*` every §5 and tiled-copy kernel uses), and none of
    // them counts as aligned: since the §5.4 kernels moved to the safe non-aligned cluster
    // barrier, no kernel of the library has an aligned barrier left (the catalog kernels, which
    // list every form, are not in kernels.ptx). A kernel that adds one is checked above.
    assert!(
        unaligned > 20,
        "only {unaligned} non-aligned barrier instructions parsed: the parser is broken"
    );
    assert_eq!(aligned, 0, "an aligned barrier is back in the kernels");
    // The §5 and tiled-copy kernels use the non-aligned forms now.
    for k in [
        "s52_tma_bug",
        "s53_reuse_bug",
        "tiled_copy_s1",
        "tiled_copy_s4",
    ] {
        let body = &ptx[ptx.find(&format!(".entry {k}(")).unwrap()..];
        let body = &body[..body[1..].find(".entry ").map_or(body.len(), |e| e + 1)];
        assert!(body.contains("barrier.sync"), "{k} lacks barrier.sync");
    }
}

/// The checker finds LLVM's duplication in the kernels as they were built before the fix.
#[test]
fn the_checker_finds_the_duplicated_barriers_of_the_old_kernels() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/duplicated_barriers.ptx");
    let ks = kernels(&std::fs::read_to_string(&p).unwrap());
    let tc = duplicated(&ks["tiled_copy_s1"]);
    assert_eq!(tc.len(), 1, "{tc:?}");
    assert!(
        tc[0].0.starts_with("bar.sync") && tc[0].1.starts_with("bar.sync"),
        "{tc:?}"
    );
    let s52 = duplicated(&ks["s52_tma_bug"]);
    assert_eq!(s52.len(), 1, "{s52:?}");
    assert!(s52[0].0.starts_with("bar.arrive"), "{s52:?}");
}

/// Small CFGs: a barrier in both arms is flagged; one before the branch, or two in sequence, or
/// the non-aligned form in both arms, are not.
#[test]
fn the_checker_on_small_graphs() {
    let wrap = |body: &str| format!(".visible .entry k(\n)\n{{\n{body}\n}}\n");
    let both_arms = wrap("@%p1 bra L1;\nbar.sync 0;\nbra L2;\nL1:\nbar.sync 0;\nL2:\nret;");
    assert_eq!(duplicated(&kernels(&both_arms)["k"]).len(), 1);
    let seq = wrap("bar.sync 0;\n@%p1 bra L1;\nadd.u32 %r1, %r1, 1;\nL1:\nbar.sync 0;\nret;");
    assert!(duplicated(&kernels(&seq)["k"]).is_empty());
    let unaligned = wrap("@%p1 bra L1;\nbarrier.sync 0;\nbra L2;\nL1:\nbarrier.sync 0;\nL2:\nret;");
    assert!(duplicated(&kernels(&unaligned)["k"]).is_empty());
    let kinds = wrap("@%p1 bra L1;\nbar.arrive 1, 64;\nbra L2;\nL1:\nbar.sync 1, 64;\nL2:\nret;");
    assert!(
        duplicated(&kernels(&kinds)["k"]).is_empty(),
        "arrive and sync are different kinds"
    );
    let cluster = wrap("@%p1 bra L1;\nbarrier.cluster.wait.acquire.aligned;\nbra L2;\nL1:\nbarrier.cluster.wait.acquire.aligned;\nL2:\nret;");
    assert_eq!(duplicated(&kernels(&cluster)["k"]).len(), 1);
    // A label inside an inline-asm scope does not capture a branch outside it.
    let scoped = wrap("{\nL1:\nadd.u32 %r1, %r1, 1;\n}\n@%p1 bra L1;\nbar.sync 0;\nbra L2;\nL1:\nbar.sync 0;\nL2:\nret;");
    assert_eq!(duplicated(&kernels(&scoped)["k"]).len(), 1);
    assert_eq!(aligned_barrier("bar.warp.sync"), None);
    assert_eq!(
        aligned_barrier("bar.cta.sync").as_deref(),
        Some("barrier.sync.aligned")
    );
}
