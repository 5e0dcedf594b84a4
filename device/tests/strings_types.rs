//! The rows of the access families per type — the half types, `.b128`, the vectors, the 16-bit
//! integers (issue #13): their exact spellings, floors and call paths, written from the PTX ISA
//! (`strings.rs` checks the whole catalog against the grammar).

use ptx_sync::catalog::{for_each_variant, Family as F, Variant};

fn catalog() -> Vec<Variant> {
    let mut v = Vec::new();
    for_each_variant(|r| {
        if matches!(r.family, F::Ld | F::St | F::Atom | F::Red | F::Fence) {
            v.push(r)
        }
    });
    v
}

/// The half-precision rows (issue #13 item 7): the ISA's spellings, written out, and the floors
/// of the ISA's version notes (§9.7.13.5/6: `.f16x2` PTX 6.2 / sm_60, `.f16` and `cas.b16` 6.3 /
/// sm_70, `.bf16{,x2}` 7.8 / sm_90; a `.sem` or `.scope` needs sm_70 / 6.0, `.cluster` 7.8 /
/// sm_90), and the Rust call of each.
#[test]
fn half_precision_rows() {
    use ptx_sync::atomic::{op, AtomInstr, CasInstr, LdInstr, RedInstr, StInstr};
    use ptx_sync::*;
    assert_eq!(
        <F16 as AtomInstr<op::Add, Relaxed, Gpu, Global>>::PTX,
        "atom.relaxed.gpu.global.add.noftz.f16"
    );
    assert_eq!(
        <Bf16x2 as AtomInstr<op::Add, AcqRel, Sys, Generic>>::PTX,
        "atom.acq_rel.sys.add.noftz.bf16x2"
    );
    assert_eq!(
        <F16x2 as RedInstr<op::Add, Release, Cta, Shared>>::PTX,
        "red.release.cta.shared::cta.add.noftz.f16x2"
    );
    assert_eq!(
        <Bf16 as RedInstr<op::Add, Relaxed, Cluster, SharedCluster>>::PTX,
        "red.relaxed.cluster.shared::cluster.add.noftz.bf16"
    );
    assert_eq!(
        <F16 as CasInstr<Acquire, Gpu, Generic>>::PTX,
        "atom.acquire.gpu.cas.b16"
    );
    assert_eq!(
        <F16x2 as AtomInstr<op::Exch, Relaxed, Gpu, Generic>>::PTX,
        "atom.relaxed.gpu.exch.b32"
    );
    assert_eq!(
        <Bf16 as LdInstr<Acquire, Gpu, Global>>::PTX,
        "ld.acquire.gpu.global.b16"
    );
    assert_eq!(
        <Bf16x2 as StInstr<Release, Sys, Generic>>::PTX,
        "st.release.sys.b32"
    );
    let rows = catalog();
    let find = |ptx: &str, ty: &str| {
        rows.iter()
            .find(|v| v.ptx == ptx && v.ty == ty)
            .unwrap_or_else(|| panic!("no row {ptx} {ty}"))
    };
    let f = find("atom.relaxed.gpu.add.noftz.f16", "F16");
    assert_eq!(
        (f.rust, f.sm, f.ptx_isa, f.isa, f.op),
        (
            "AtomicRef::<F16, Gpu, Generic>::fetch_add::<Relaxed>",
            70,
            63,
            "9.7.13.5",
            "add.noftz"
        )
    );
    assert_eq!(
        (
            find("atom.relaxed.gpu.add.noftz.f16x2", "F16x2").sm,
            find("atom.relaxed.gpu.add.noftz.f16x2", "F16x2").ptx_isa
        ),
        (70, 62)
    );
    let b = find("red.release.gpu.add.noftz.bf16x2", "Bf16x2");
    assert_eq!(
        (b.rust, b.sm, b.ptx_isa, b.isa),
        (
            "AtomicRef::<Bf16x2, Gpu, Generic>::red_add::<Release>",
            90,
            78,
            "9.7.13.6"
        )
    );
    let c = find("atom.relaxed.cta.cas.b16", "Bf16");
    assert_eq!((c.sm, c.ptx_isa), (70, 63));
    assert_eq!(find("atom.relaxed.cluster.cas.b16", "F16").ptx_isa, 78);
    assert_eq!(
        (find("ld.b16", "F16").sm, find("ld.b16", "F16").ptx_isa),
        (20, 20)
    );
    assert_eq!(find("atom.relaxed.gpu.exch.b32", "Bf16x2").ptx_isa, 60);
    // No `.add` without `.noftz`, no `min`/`max`/`exch` on one half.
    let half = |t: &str| matches!(t, "F16" | "Bf16" | "F16x2" | "Bf16x2");
    assert!(rows.iter().all(|v| !half(v.ty)
        || !matches!(
            v.op,
            "add" | "min" | "max" | "and" | "or" | "xor" | "inc" | "dec"
        )));
}

/// The `.b128` rows (issue #13 item 7), spelled from §9.7.9.8/§9.7.9.10 (`.b128` among the
/// `.type`s of every `ld`/`st` form) and §9.7.13.5 (`atom{.sem}{.scope}{.space}.cas.b128`,
/// `.exch.b128`); floors PTX 8.3 with sm_70 (`ld`/`st`) and sm_90 (`atom`). Each row's `asm!`
/// block declares its `.b128` registers and packs/unpacks them with `mov.b128` (§9.7.9.9).
#[test]
fn b128_rows() {
    use ptx_sync::atomic::{op, AtomInstr, CasInstr, LdInstr, StInstr};
    use ptx_sync::*;
    assert_eq!(
        <u128 as LdInstr<Relaxed, Gpu, Generic>>::PTX,
        "ld.relaxed.gpu.b128"
    );
    assert_eq!(<u128 as LdInstr<Weak, Gpu, Generic>>::PTX, "ld.b128");
    assert_eq!(
        <u128 as LdInstr<Volatile, Cta, Global>>::PTX,
        "ld.volatile.global.b128"
    );
    assert_eq!(
        <u128 as StInstr<Release, Sys, SharedCluster>>::PTX,
        "st.release.sys.shared::cluster.b128"
    );
    assert_eq!(
        <u128 as AtomInstr<op::Exch, AcqRel, Gpu, Generic>>::PTX,
        "atom.acq_rel.gpu.exch.b128"
    );
    assert_eq!(
        <u128 as CasInstr<Relaxed, Cta, Shared>>::PTX,
        "atom.relaxed.cta.shared::cta.cas.b128"
    );
    let rows: Vec<Variant> = catalog().into_iter().filter(|v| v.ty == "u128").collect();
    assert_eq!(rows.len(), 40 + 40 + 2 * 64);
    let find = |ptx: &str| {
        rows.iter()
            .find(|v| v.ptx == ptx)
            .unwrap_or_else(|| panic!("no row {ptx}"))
    };
    let a = find("atom.acq_rel.gpu.exch.b128");
    assert_eq!(
        (a.rust, a.sm, a.ptx_isa),
        ("AtomicRef::<u128, Gpu, Generic>::swap::<AcqRel>", 90, 83)
    );
    let c = find("atom.relaxed.gpu.global.cas.b128");
    assert_eq!((c.sm, c.ptx_isa), (90, 83));
    let l = find("ld.acquire.gpu.b128");
    assert_eq!((l.sm, l.ptx_isa, l.isa), (70, 83, "9.7.9.8"));
    assert_eq!(find("ld.b128").sm, 70);
    // `.sys` with `.b128`: PTX 8.4 (the ISA's ld/st/atom notes).
    let s = find("atom.acquire.sys.global.exch.b128");
    assert_eq!((s.sm, s.ptx_isa), (90, 84));
    assert_eq!(find("st.release.sys.b128").ptx_isa, 84);
    assert_eq!(find("st.relaxed.cluster.b128").sm, 90);
    for v in &rows {
        let regs = match (v.family, v.op) {
            (F::Atom, "cas") => ".reg .b128 q, qc, qd;",
            (F::Atom, _) => ".reg .b128 q, qd;",
            _ => ".reg .b128 q;",
        };
        assert!(
            v.asm_pre.starts_with("{{") && v.asm_pre.contains(regs),
            "{v:?}"
        );
        assert!(v.asm_post.ends_with("}}"), "{v:?}");
        let unpack = "mov.b128 {{{lo}, {hi}}}, ";
        match v.family {
            F::Ld => assert!(v.asm_post.contains(&format!("{unpack}q;")), "{v:?}"),
            F::St => assert!(v.asm_pre.contains("mov.b128 q, {{{lo}, {hi}}};"), "{v:?}"),
            _ => {
                assert!(v.asm_pre.contains("mov.b128 q, {{{blo}, {bhi}}};"), "{v:?}");
                assert!(v.asm_post.contains(&format!("{unpack}qd;")), "{v:?}");
            }
        }
        if v.op == "cas" {
            assert!(
                v.asm_pre.contains("mov.b128 qc, {{{clo}, {chi}}};"),
                "{v:?}"
            );
        }
    }
}

/// The strong vector rows (issue #13 item 7): spellings from §9.7.9.8/§9.7.9.10 (`{.vec}` after
/// the state space, before the type), the scalar forms' floors, and the Rust call.
#[test]
fn vector_rows() {
    use ptx_sync::atomic::vector::{V2F64, V2U64, V4F32, V4U32};
    use ptx_sync::atomic::{LdInstr, StInstr};
    use ptx_sync::*;
    assert_eq!(
        <V4U32 as LdInstr<Acquire, Gpu, Global>>::PTX,
        "ld.acquire.gpu.global.v4.u32"
    );
    assert_eq!(
        <V2U64 as StInstr<Release, Sys, Generic>>::PTX,
        "st.release.sys.v2.u64"
    );
    assert_eq!(
        <V4F32 as StInstr<Relaxed, Cluster, SharedCluster>>::PTX,
        "st.relaxed.cluster.shared::cluster.v4.f32"
    );
    assert_eq!(
        <V2F64 as LdInstr<Weak, Cta, Shared>>::PTX,
        "ld.shared::cta.v2.f64"
    );
    assert_eq!(
        <V4U32 as LdInstr<Volatile, Cta, Generic>>::PTX,
        "ld.volatile.v4.u32"
    );
    let rows = catalog();
    let find = |ptx: &str| {
        rows.iter()
            .find(|v| v.ptx == ptx)
            .unwrap_or_else(|| panic!("no row {ptx}"))
    };
    let l = find("ld.acquire.gpu.v4.u32");
    assert_eq!(
        (l.rust, l.sm, l.ptx_isa, l.op),
        (
            "AtomicRef::<V4U32, Gpu, Generic>::load::<Acquire>",
            70,
            60,
            ""
        )
    );
    assert_eq!(find("st.release.cluster.v2.f32").sm, 90);
    assert_eq!(find("st.v2.f64").sm, 20);
    // ld/st of 21 types, and the sm_90 `.add.v2/.v4.f32` atom (16 sem × scope pairs) and red
    // (8) on `.global` and generic addresses; the half vectors: 10 types × 3 ops, atom and red.
    assert_eq!(
        rows.iter().filter(|v| v.ty.starts_with('V')).count(),
        21 * 80 + 2 * (32 + 16) + 10 * 3 * (32 + 16)
    );
    let a = find("atom.acq_rel.gpu.global.add.v4.f32");
    assert_eq!(
        (a.rust, a.sm, a.ptx_isa, a.isa),
        (
            "AtomicRef::<V4F32, Gpu, Global>::fetch_add::<AcqRel>",
            90,
            81,
            "9.7.13.5"
        )
    );
    let r = find("red.release.sys.add.v2.f32");
    assert_eq!(
        (r.rust, r.sm, r.ptx_isa),
        (
            "AtomicRef::<V2F32, Sys, Generic>::red_add::<Release>",
            90,
            81
        )
    );
    assert!(rows
        .iter()
        .filter(|v| v.ty.starts_with('V') && (v.family == F::Atom || v.family == F::Red))
        // Floats only: no atom/red on the integer vectors (V2U32, V4U32, V2U64).
        .all(|v| (v.space == "Generic" || v.space == "Global") && !v.ty.contains('U')));
}

/// The sm_90 half-precision vector atomics (issue #13 item 7), spelled from §9.7.13.5/6:
/// `atom{.sem}{.scope}{.global}.op.noftz.vec_16_bit.half_word_type` (`.v2/.v4/.v8` of
/// `.f16`/`.bf16`) and `….vec_32_bit.packed_type` (`.v2/.v4` of `.f16x2`/`.bf16x2`), `.op = {
/// .add, .min, .max }`, `red` likewise; "Support for vector types introduced in PTX ISA version
/// 8.1", "requires sm_90"; each row's Rust call.
#[test]
fn half_vector_rows() {
    use ptx_sync::atomic::vector::{V2Bf16x2, V8Bf16, V4F16, V8F16};
    use ptx_sync::atomic::{op, AtomInstr, RedInstr};
    use ptx_sync::*;
    assert_eq!(
        <V8F16 as AtomInstr<op::Max, Relaxed, Gpu, Global>>::PTX,
        "atom.relaxed.gpu.global.max.noftz.v8.f16"
    );
    assert_eq!(
        <V4F16 as AtomInstr<op::Add, AcqRel, Sys, Generic>>::PTX,
        "atom.acq_rel.sys.add.noftz.v4.f16"
    );
    assert_eq!(
        <V8Bf16 as RedInstr<op::Min, Release, Cluster, Global>>::PTX,
        "red.release.cluster.global.min.noftz.v8.bf16"
    );
    assert_eq!(
        <V2Bf16x2 as RedInstr<op::Add, Relaxed, Cta, Generic>>::PTX,
        "red.relaxed.cta.add.noftz.v2.bf16x2"
    );
    let rows = catalog();
    let find = |ptx: &str| {
        rows.iter()
            .find(|v| v.ptx == ptx)
            .unwrap_or_else(|| panic!("no row {ptx}"))
    };
    let a = find("atom.acquire.gpu.global.min.noftz.v4.f16x2");
    assert_eq!(
        (a.rust, a.sm, a.ptx_isa, a.isa, a.op),
        (
            "AtomicRef::<V4F16x2, Gpu, Global>::fetch_min::<Acquire>",
            90,
            81,
            "9.7.13.5",
            "min.noftz"
        )
    );
    let r = find("red.relaxed.cta.max.noftz.v8.bf16");
    assert_eq!(
        (r.rust, r.sm, r.ptx_isa, r.isa),
        (
            "AtomicRef::<V8Bf16, Cta, Generic>::red_max::<Relaxed>",
            90,
            81,
            "9.7.13.6"
        )
    );
    // `.cluster` keeps the vector floor (7.8 / sm_90 is below 8.1 / sm_90).
    assert_eq!(find("atom.relaxed.cluster.add.noftz.v2.f16").ptx_isa, 81);
    let half_vec: Vec<_> = rows
        .iter()
        // the half vectors: `.v2/.v4/.v8` of F16/Bf16, `.v2/.v4` of F16x2/Bf16x2 (10 types)
        .filter(|v| {
            let (n, e) = v.ty.split_at(2.min(v.ty.len()));
            matches!(n, "V2" | "V4" | "V8") && matches!(e, "F16" | "Bf16" | "F16x2" | "Bf16x2")
        })
        .filter(|v| v.family == F::Atom || v.family == F::Red)
        .collect();
    assert_eq!(half_vec.len(), 10 * 3 * (32 + 16));
    for v in &half_vec {
        assert!(v.space == "Generic" || v.space == "Global", "{v:?}");
        assert!(v.op.ends_with(".noftz"), "{v:?}");
        assert_eq!((v.sm, v.ptx_isa), (90, 81), "{v:?}");
        // `.v8` is for a lone half: a packed pair stops at `.v4`.
        assert!(!(v.ptx.contains(".v8.") && v.ty.ends_with("x2")), "{v:?}");
    }
}

/// The 16-bit integers (issue #13 item 7): `ld`/`st` spell them `.u16`/`.s16` as the 32-bit
/// types are `.u32`/`.s32` (§9.7.9.8/10 `.type` has `.u16`, `.s16`); their one `atom` is
/// `atom{.sem}{.scope}{.space}.cas.b16` ("`atom.cas.b16` introduced in PTX ISA 6.3", "requires
/// `sm_70`"), in every space; no other `atom` and no `red`.
#[test]
fn sixteen_bit_integer_rows() {
    use ptx_sync::atomic::{CasInstr, LdInstr, StInstr};
    use ptx_sync::*;
    assert_eq!(
        <u16 as LdInstr<Acquire, Gpu, Global>>::PTX,
        "ld.acquire.gpu.global.u16"
    );
    assert_eq!(
        <i16 as StInstr<Release, Cluster, SharedCluster>>::PTX,
        "st.release.cluster.shared::cluster.s16"
    );
    assert_eq!(
        <i16 as LdInstr<Volatile, Cta, Shared>>::PTX,
        "ld.volatile.shared::cta.s16"
    );
    assert_eq!(
        <u16 as CasInstr<AcqRel, Sys, Shared>>::PTX,
        "atom.acq_rel.sys.shared::cta.cas.b16"
    );
    let rows = catalog();
    let find = |ptx: &str, ty: &str| {
        rows.iter()
            .find(|v| v.ptx == ptx && v.ty == ty)
            .unwrap_or_else(|| panic!("no {ty} row {ptx}"))
    };
    let c = find("atom.relaxed.gpu.cas.b16", "i16");
    assert_eq!(
        (c.rust, c.sm, c.ptx_isa, c.isa),
        (
            "AtomicRef::<i16, Gpu, Generic>::compare_exchange::<Relaxed>",
            70,
            63,
            "9.7.13.5"
        )
    );
    let l = find("ld.relaxed.gpu.u16", "u16");
    assert_eq!(
        (l.rust, l.sm, l.ptx_isa),
        ("AtomicRef::<u16, Gpu, Generic>::load::<Relaxed>", 70, 60)
    );
    assert_eq!(find("st.s16", "i16").sm, 20);
    for t in ["u16", "i16"] {
        let of = |f: F| rows.iter().filter(|v| v.ty == t && v.family == f).count();
        // ld/st: 2 unscoped × 4 spaces + 2 sems × 4 scopes × 4 spaces; atom: cas × 4 × 4 × 4.
        assert_eq!(
            (of(F::Ld), of(F::St), of(F::Atom), of(F::Red)),
            (40, 40, 64, 0),
            "{t}"
        );
        assert!(rows
            .iter()
            .filter(|v| v.ty == t && v.family == F::Atom)
            .all(|v| v.op == "cas" && v.ptx.ends_with(".cas.b16")));
    }
}

/// The signed and half-element strong vector accesses (issue #13 item 7): §9.7.9.8/10 `ld`/`st`
/// `{.vec}.type` with `.vec = { .v2, .v4 }` and `.type` among `.s16 .s32 .s64 .u16 .b16 .b32`
/// (no `.f16`: a half vector moves by its bits), within 128 bits; `.v8` halves have no `ld`/`st`.
#[test]
fn signed_and_half_vector_accesses() {
    use ptx_sync::atomic::vector::{V2Bf16x2, V2I64, V4F16, V4I16, V4I32};
    use ptx_sync::atomic::{LdInstr, StInstr};
    use ptx_sync::*;
    assert_eq!(
        <V4I32 as LdInstr<Acquire, Gpu, Global>>::PTX,
        "ld.acquire.gpu.global.v4.s32"
    );
    assert_eq!(
        <V2I64 as StInstr<Release, Cluster, SharedCluster>>::PTX,
        "st.release.cluster.shared::cluster.v2.s64"
    );
    assert_eq!(
        <V4I16 as LdInstr<Weak, Cta, Shared>>::PTX,
        "ld.shared::cta.v4.s16"
    );
    assert_eq!(
        <V4F16 as StInstr<Relaxed, Sys, Generic>>::PTX,
        "st.relaxed.sys.v4.b16"
    );
    assert_eq!(
        <V2Bf16x2 as LdInstr<Volatile, Gpu, Global>>::PTX,
        "ld.volatile.global.v2.b32"
    );
    let rows = catalog();
    let l = rows
        .iter()
        .find(|v| v.ptx == "ld.acquire.gpu.v2.b16" && v.ty == "V2Bf16")
        .expect("the V2Bf16 acquire load");
    assert_eq!(
        (l.rust, l.sm, l.ptx_isa),
        ("AtomicRef::<V2Bf16, Gpu, Generic>::load::<Acquire>", 70, 60)
    );
    for t in ["V8F16", "V8Bf16"] {
        assert!(
            rows.iter()
                .filter(|v| v.ty == t)
                .all(|v| v.family == F::Atom || v.family == F::Red),
            "{t} has an ld/st row"
        );
    }
}
