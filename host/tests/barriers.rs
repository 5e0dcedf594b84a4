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

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Whether `mnemonic` is an `.aligned` barrier, and its kind (the key two copies share).
fn aligned_barrier(mnemonic: &str) -> Option<String> {
    if let Some(rest) = mnemonic.strip_prefix("bar.") {
        // bar{.cta}.sync ≡ barrier.sync.aligned, bar.arrive, bar.red.* — not bar.warp.sync.
        let rest = rest.trim_start_matches("cta.");
        if rest.starts_with("warp.") {
            return None;
        }
        return Some(format!("barrier.{rest}.aligned"));
    }
    if mnemonic.starts_with("barrier.") && mnemonic.split('.').any(|t| t == "aligned") {
        return Some(mnemonic.replace("barrier.cta.", "barrier."));
    }
    None
}

struct Block {
    succ: Vec<usize>,
}

/// One kernel: its blocks and its aligned barriers as (kind, block, index in block, line).
struct Kernel {
    blocks: Vec<Block>,
    barriers: Vec<(String, usize, usize, String)>,
}

/// The kernels of a PTX module by name.
fn kernels(ptx: &str) -> BTreeMap<String, Kernel> {
    let mut out = BTreeMap::new();
    for part in ptx.split(".entry ").skip(1) {
        let name = part[..part.find('(').unwrap()].trim().to_string();
        let mut body = &part[part.find('{').expect("a body")..];
        for end in ["\n\t// .globl", "\n.visible", "\n.func", "\n.weak"] {
            if let Some(e) = body.find(end) {
                body = &body[..e];
            }
        }
        out.insert(name, kernel(body));
    }
    out
}

fn kernel(body: &str) -> Kernel {
    // Statements: strip comments; `{`/`}` open and close scopes (inline asm blocks have their own
    // labels); `label:` starts a block; `;` ends a statement.
    #[derive(Debug)]
    enum St {
        Open,
        Close,
        Label(String),
        Ins(String),
    }
    let mut sts = Vec::new();
    for line in body.lines() {
        let l = line.split("//").next().unwrap().trim();
        let mut rest = l;
        while !rest.is_empty() {
            if let Some(r) = rest.strip_prefix('{') {
                sts.push(St::Open);
                rest = r.trim();
            } else if let Some(r) = rest.strip_prefix('}') {
                sts.push(St::Close);
                rest = r.trim();
            } else if let Some(k) = rest.find(';') {
                sts.push(St::Ins(rest[..k].trim().to_string()));
                rest = rest[k + 1..].trim();
            } else if let Some(lbl) = rest.strip_suffix(':') {
                sts.push(St::Label(lbl.trim().to_string()));
                rest = "";
            } else {
                // A directive without `;` (none expected); ignore.
                rest = "";
            }
        }
    }
    // Pass 1: every label's scope path; pass 2: blocks and edges.
    let mut scope: Vec<usize> = vec![];
    let mut next_scope = 0usize;
    let mut label_key: BTreeMap<(usize, String), usize> = BTreeMap::new(); // -> statement index
    let mut scopes_at: Vec<Vec<usize>> = Vec::new();
    for (i, s) in sts.iter().enumerate() {
        match s {
            St::Open => {
                scope.push(next_scope);
                next_scope += 1;
            }
            St::Close => {
                scope.pop();
            }
            St::Label(l) => {
                label_key.insert((*scope.last().unwrap_or(&usize::MAX), l.clone()), i);
            }
            St::Ins(_) => {}
        }
        scopes_at.push(scope.clone());
    }
    // Block leaders: statement 0, every label, every statement after a branch/ret/exit.
    let is_jump = |ins: &str| {
        let mut t = ins.split_whitespace();
        let mut op = t.next().unwrap_or("");
        let pred = op.starts_with('@');
        if pred {
            op = t.next().unwrap_or("");
        }
        let target = t.next().map(|x| x.trim_end_matches(',').to_string());
        (op.to_string(), pred, target)
    };
    let mut leader = vec![false; sts.len() + 1];
    leader[0] = true;
    for (i, s) in sts.iter().enumerate() {
        match s {
            St::Label(_) => leader[i] = true,
            St::Ins(ins) => {
                let (op, _, _) = is_jump(ins);
                if op.starts_with("bra") || op == "ret" || op == "exit" || op == "trap" {
                    leader[i + 1] = true;
                }
            }
            _ => {}
        }
    }
    let mut block_of = vec![0usize; sts.len() + 1];
    let mut nb = 0usize;
    for i in 0..sts.len() {
        if leader[i] && i > 0 {
            nb += 1;
        }
        block_of[i] = nb;
    }
    block_of[sts.len()] = nb + 1;
    let mut blocks: Vec<Block> = (0..=nb).map(|_| Block { succ: vec![] }).collect();
    let mut barriers = Vec::new();
    let mut pos_in_block = 0usize;
    for (i, s) in sts.iter().enumerate() {
        if leader[i] {
            pos_in_block = 0;
        }
        pos_in_block += 1;
        let b = block_of[i];
        let falls_through = i + 1 < sts.len() && block_of[i + 1] != b;
        let St::Ins(ins) = s else {
            if falls_through {
                blocks[b].succ.push(b + 1);
            }
            continue;
        };
        let (op, pred, target) = is_jump(ins);
        if let Some(kind) = aligned_barrier(&op) {
            barriers.push((kind, b, pos_in_block, ins.clone()));
        }
        if op.starts_with("bra") {
            let t = target.expect("a branch target");
            let key = scopes_at[i]
                .iter()
                .rev()
                .chain(std::iter::once(&usize::MAX))
                .find_map(|s| label_key.get(&(*s, t.clone())))
                .unwrap_or_else(|| panic!("branch to unknown label {t}"));
            blocks[b].succ.push(block_of[*key]);
            if pred && falls_through {
                blocks[b].succ.push(b + 1);
            }
        } else if op == "ret" || op == "exit" || op == "trap" {
            if pred && falls_through {
                blocks[b].succ.push(b + 1);
            }
        } else if falls_through {
            blocks[b].succ.push(b + 1);
        }
    }
    Kernel { blocks, barriers }
}

/// dom[b]: the blocks that dominate b (iterative data flow from block 0).
fn dominators(k: &Kernel) -> Vec<BTreeSet<usize>> {
    let n = k.blocks.len();
    let mut preds = vec![vec![]; n];
    for (b, bl) in k.blocks.iter().enumerate() {
        for &s in &bl.succ {
            if s < n {
                preds[s].push(b);
            }
        }
    }
    let all: BTreeSet<usize> = (0..n).collect();
    let mut dom = vec![all.clone(); n];
    dom[0] = [0].into();
    let mut changed = true;
    while changed {
        changed = false;
        for b in 1..n {
            let mut d = preds[b]
                .iter()
                .map(|p| dom[*p].clone())
                .reduce(|a, x| a.intersection(&x).copied().collect())
                .unwrap_or_default();
            d.insert(b);
            if d != dom[b] {
                dom[b] = d;
                changed = true;
            }
        }
    }
    dom
}

/// Pairs of same-kind aligned barriers of which neither dominates the other (reachable ones).
fn duplicated(k: &Kernel) -> Vec<(String, String)> {
    let dom = dominators(k);
    let mut seen = vec![false; k.blocks.len()];
    let mut stack = vec![0usize];
    while let Some(b) = stack.pop() {
        if b < seen.len() && !seen[b] {
            seen[b] = true;
            stack.extend(&k.blocks[b].succ);
        }
    }
    let reachable = |b: usize| seen[b];
    let dominates = |a: &(String, usize, usize, String), b: &(String, usize, usize, String)| {
        if a.1 == b.1 {
            a.2 <= b.2
        } else {
            dom[b.1].contains(&a.1)
        }
    };
    let mut out = Vec::new();
    for (i, a) in k.barriers.iter().enumerate() {
        for b in &k.barriers[i + 1..] {
            if a.0 == b.0
                && reachable(a.1)
                && reachable(b.1)
                && !dominates(a, b)
                && !dominates(b, a)
            {
                out.push((a.3.clone(), b.3.clone()));
            }
        }
    }
    out
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
    let mut checked = 0;
    for (name, k) in &ks {
        checked += k.barriers.len();
        for (a, b) in duplicated(k) {
            bad.push(format!("{name}: `{a}` and `{b}`"));
        }
    }
    assert!(
        bad.is_empty(),
        "aligned barriers reached from two paths (PTX ISA §9.7.13.1: undefined):\n{}",
        bad.join("\n")
    );
    // The kernels still use aligned barriers where no duplication happened (the §5.4 cluster
    // barrier, the catalog-free hand-off kernels): the check has something to look at.
    assert!(
        checked > 0,
        "no aligned barrier found at all: the parser is broken"
    );
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
