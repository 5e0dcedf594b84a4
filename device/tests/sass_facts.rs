//! The seed's SASS facts, read from Rust-built kernels (`host/kernels/src/facts.rs`) assembled by
//! ptxas 13.0 for sm_90 (the version is printed with the test output):
//! * §3.5: a (bounded) spin on a weak `ld` is deleted, flag load and all, while a spin on
//!   `ld.relaxed.gpu.global` keeps an `LDG.E.STRONG.GPU` inside its loop;
//! * §4.5: `atom.add` with an unused result becomes `REDG`, with a used one `ATOMG`;
//! * §2/§3: `fence.sc.gpu` → `MEMBAR.SC.GPU`, `fence.acq_rel.gpu` → `MEMBAR.ALL.GPU`.

mod common;
use common::*;

fn sass() -> Vec<(String, Vec<Insn>)> {
    let cubin = ptx_dir().join("kernels.cubin");
    println!("ptxas: {}", ptxas_version());
    parse_sass(&tool("cuobjdump", &["-sass", cubin.to_str().unwrap()]))
}

/// Instructions inside some loop: between a backward branch's target and the branch.
fn in_loops(f: &[Insn]) -> Vec<&Insn> {
    let mut v = Vec::new();
    for b in f.iter().filter(|i| i.opcode == "BRA") {
        if let Some(t) = parse_target(&b.operands).filter(|t| *t <= b.addr) {
            v.extend(f.iter().filter(|i| i.addr >= t && i.addr <= b.addr));
        }
    }
    v
}

fn is_load(op: &str) -> bool {
    op.starts_with("LD") && !op.starts_with("LDC") && !op.starts_with("LDS")
}

/// Seed §3.5: "with a plain load the whole loop is deleted". What remains of the weak spin is the
/// read of `data`: one load, no loop; the relaxed spin of the same shape keeps both loads.
#[test]
fn weak_spin_loop_is_deleted() {
    let s = sass();
    let f = function(&s, "fact_spin_weak");
    let loads: Vec<_> = f.iter().filter(|i| is_load(&i.opcode)).collect();
    assert_eq!(loads.len(), 1, "only the read of data remains: {loads:?}");
    assert!(in_loops(f).is_empty(), "no loop remains: {f:#?}");
    let relaxed = function(&s, "fact_spin_relaxed");
    assert_eq!(
        relaxed.iter().filter(|i| is_load(&i.opcode)).count(),
        2,
        "{relaxed:#?}"
    );
}

#[test]
fn relaxed_spin_loop_keeps_a_strong_load() {
    let s = sass();
    let f = function(&s, "fact_spin_relaxed");
    let strong: Vec<_> = in_loops(f)
        .into_iter()
        .filter(|i| i.opcode == "LDG.E.STRONG.GPU")
        .collect();
    assert!(!strong.is_empty(), "no LDG.E.STRONG.GPU in a loop: {f:#?}");
    let g = function(&s, "fact_spin_relaxed_generic");
    assert!(
        in_loops(g).iter().any(|i| i.opcode == "LD.E.STRONG.GPU"),
        "generic: {g:#?}"
    );
}

#[test]
fn unused_atom_result_is_red_used_is_atom() {
    let s = sass();
    let unused: Vec<_> = function(&s, "fact_atom_unused")
        .iter()
        .map(|i| i.opcode.as_str())
        .collect();
    let used: Vec<_> = function(&s, "fact_atom_used")
        .iter()
        .map(|i| i.opcode.as_str())
        .collect();
    assert!(unused.contains(&"REDG.E.ADD.STRONG.GPU"), "{unused:?}");
    assert!(!unused.iter().any(|o| o.starts_with("ATOM")), "{unused:?}");
    assert!(used.contains(&"ATOMG.E.ADD.STRONG.GPU"), "{used:?}");
    assert!(!used.iter().any(|o| o.starts_with("RED")), "{used:?}");
}

#[test]
fn fences_become_membar() {
    let s = sass();
    let ops = |n: &str| {
        function(&s, n)
            .iter()
            .map(|i| i.opcode.clone())
            .collect::<Vec<_>>()
    };
    let sc = ops("cmp_fence_sc_gpu");
    let ar = ops("cmp_fence_acq_rel_gpu");
    assert!(sc.contains(&"MEMBAR.SC.GPU".to_string()), "{sc:?}");
    assert!(ar.contains(&"MEMBAR.ALL.GPU".to_string()), "{ar:?}");
    assert!(!ar.iter().any(|o| o.starts_with("MEMBAR.SC")), "{ar:?}");
    assert!(ops("cmp_fence_sc_cta").contains(&"MEMBAR.SC.CTA".to_string()));
}
