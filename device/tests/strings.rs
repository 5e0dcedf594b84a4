//! String table: every `ld`/`st`/`atom`/`red`/`fence` variant of the catalog emits exactly the
//! mnemonic that the PTX ISA grammar gives for its (type, sem, scope, space), and the catalog
//! holds exactly the legal set — no more, no less.
//!
//! The grammar and the token tables below are written here from the PTX ISA (8.6):
//!   §9.7.9.8  `ld{.weak}{.ss}.type`, `ld.volatile{.ss}.type`, `ld.relaxed.scope{.ss}.type`,
//!             `ld.acquire.scope{.ss}.type`
//!   §9.7.9.10 `st{.weak}{.ss}.type`, `st.volatile{.ss}.type`, `st.relaxed.scope{.ss}.type`,
//!             `st.release.scope{.ss}.type`
//!   §9.7.13.5 `atom{.sem}{.scope}{.space}.op.type`, `atom{.sem}{.scope}{.space}.cas.bN`
//!   §9.7.13.6 `red{.sem}{.scope}{.space}.op.type`, `.sem = { .relaxed, .release }`
//!   §9.7.13.4 `fence{.sem}.scope`, `.sem = { .sc, .acq_rel, .acquire, .release }`
//!   §9.7.13.5 `atom{.sem}{.scope}{.space}.add.noftz.{f16,f16x2,bf16,bf16x2}`,
//!             `atom{.sem}{.scope}{.space}.cas.b16`; §9.7.13.6 `red{.sem}{.scope}{.space}.add.noftz.…`
//!   (the half types load and store as `.b16`, the packed pairs as `.b32`: §5.2.1, a bit-size
//!   type stands for any type of its size)
//! They are not produced by, nor shared with, the macros that generate the instructions.

use std::collections::{BTreeMap, BTreeSet};

use ptx_sync::catalog::{for_each_variant, Family as F, Variant};

#[path = "common/operands.rs"]
mod operands;

const TYPES: [&str; 13] = [
    "u16", "i16", "u32", "i32", "u64", "i64", "f32", "f64", "F16", "Bf16", "F16x2", "Bf16x2",
    "u128",
];
/// The vector types of `ptx_sync::atomic::vector` with their `{.vec}.type` (§9.7.9.8: `.vec` =
/// `{ .v2, .v4 }`; a 256-bit `.v4` of a 64-bit type is PTX 8.8, beyond this crate's 8.6) and
/// element count; `ld`/`st` only.
const VECTORS: [(&str, &str, usize); 21] = [
    ("V2U32", "v2.u32", 2),
    ("V4U32", "v4.u32", 4),
    ("V2U64", "v2.u64", 2),
    ("V2F32", "v2.f32", 2),
    ("V4F32", "v4.f32", 4),
    ("V2F64", "v2.f64", 2),
    // Signed elements: `.s32`/`.s64`/`.s16` (the `.type` set's signed integers); 16-bit: `.u16`.
    ("V2I32", "v2.s32", 2),
    ("V4I32", "v4.s32", 4),
    ("V2I64", "v2.s64", 2),
    ("V2U16", "v2.u16", 2),
    ("V4U16", "v4.u16", 4),
    ("V2I16", "v2.s16", 2),
    ("V4I16", "v4.s16", 4),
    // Half elements by their bits: the `.type` set has no `.f16`/`.bf16` (`.b16`, and `.b32` for
    // a pair); `.v8` of `.b16` is not in `.vec = { .v2, .v4 }`.
    ("V2F16", "v2.b16", 2),
    ("V4F16", "v4.b16", 4),
    ("V2Bf16", "v2.b16", 2),
    ("V4Bf16", "v4.b16", 4),
    ("V2F16x2", "v2.b32", 2),
    ("V4F16x2", "v4.b32", 4),
    ("V2Bf16x2", "v2.b32", 2),
    ("V4Bf16x2", "v4.b32", 4),
];
/// The half-precision vectors of `ptx_sync::atomic::vector` with their `.vec.type` and element
/// count, spelled from §9.7.13.5/6: `.vec_16_bit = { .v2, .v4, .v8 }` of a `.half_word_type =
/// { .f16, .bf16 }`, `.vec_32_bit = { .v2, .v4 }` of a `.packed_type = { .f16x2, .bf16x2 }`;
/// `atom`/`red` only.
const HALF_VECTORS: [(&str, &str, usize); 10] = [
    ("V2F16", "v2.f16", 2),
    ("V4F16", "v4.f16", 4),
    ("V8F16", "v8.f16", 8),
    ("V2Bf16", "v2.bf16", 2),
    ("V4Bf16", "v4.bf16", 4),
    ("V8Bf16", "v8.bf16", 8),
    ("V2F16x2", "v2.f16x2", 2),
    ("V4F16x2", "v4.f16x2", 4),
    ("V2Bf16x2", "v2.bf16x2", 2),
    ("V4Bf16x2", "v4.bf16x2", 4),
];
/// The half-precision types (`ptx_sync::F16` …) and their PTX `.type` in `add.noftz`.
fn half_type(t: &str) -> Option<&'static str> {
    Some(match t {
        "F16" => "f16",
        "Bf16" => "bf16",
        "F16x2" => "f16x2",
        "Bf16x2" => "bf16x2",
        _ => return None,
    })
}
const SCOPES: [(&str, &str); 4] = [
    ("Cta", ".cta"),
    ("Cluster", ".cluster"),
    ("Gpu", ".gpu"),
    ("Sys", ".sys"),
];
const SPACES: [(&str, &str); 4] = [
    ("Generic", ""),
    ("Global", ".global"),
    ("Shared", ".shared::cta"),
    ("SharedCluster", ".shared::cluster"),
];
const RMW_SEMS: [(&str, &str); 4] = [
    ("Relaxed", ".relaxed"),
    ("Acquire", ".acquire"),
    ("Release", ".release"),
    ("AcqRel", ".acq_rel"),
];

/// The `.type` of `ld`/`st` for a Rust scalar (signed integers are `.sN`).
fn ldst_type(t: &str) -> &'static str {
    match t {
        "u16" => "u16",
        "i16" => "s16",
        "u32" => "u32",
        "i32" => "s32",
        "u64" => "u64",
        "i64" => "s64",
        "f32" => "f32",
        "f64" => "f64",
        "F16" | "Bf16" => "b16",
        "F16x2" | "Bf16x2" => "b32",
        "u128" => "b128",
        v => VECTORS
            .iter()
            .find(|x| x.0 == v)
            .map(|x| x.1)
            .unwrap_or_else(|| unreachable!()),
    }
}

fn bits(t: &str) -> &'static str {
    match t {
        "F16" | "Bf16" | "u16" | "i16" => "b16",
        "F16x2" | "Bf16x2" => "b32",
        "u128" => "b128",
        _ if t.ends_with("32") => "b32",
        _ => "b64",
    }
}

/// PTX ISA §9.7.13.5 type restrictions: the `.type` an op takes for a Rust scalar, or None.
fn rmw_type(op: &str, t: &str) -> Option<&'static str> {
    if let Some(h) = half_type(t) {
        // Only `.add.noftz` (the `.noftz` is required), `cas.b16` on one half, and `cas`/`exch`
        // as `.b32` on a packed pair.
        return match op {
            "add.noftz" => Some(h),
            "cas" => Some(bits(t)),
            "exch" if t.ends_with("x2") => Some("b32"),
            _ => None,
        };
    }
    if t == "u16" || t == "i16" {
        // §9.7.13.5: the one 16-bit integer atom is `atom{.sem}{.scope}{.space}.cas.b16` (the
        // scalar `.type` set has no 16-bit type; no `exch.b16`, no 16-bit `red`).
        return (op == "cas").then_some("b16");
    }
    if t == "u128" {
        // §9.7.13.5: the only 128-bit atoms are `cas.b128` and `exch.b128`.
        return matches!(op, "cas" | "exch").then_some("b128");
    }
    let float = t.starts_with('f');
    match op {
        "add.noftz" => None,
        "and" | "or" | "xor" if !float => Some(bits(t)),
        "exch" | "cas" => Some(bits(t)),
        // `.add` has .u32 .s32 .u64 .f32 .f64 — no .s64, so i64 uses .u64.
        "add" => Some(match t {
            "u32" => "u32",
            "i32" => "s32",
            "u64" | "i64" => "u64",
            "f32" => "f32",
            "f64" => "f64",
            _ => unreachable!(),
        }),
        "min" | "max" if !float => Some(ldst_type(t)),
        "inc" | "dec" if t == "u32" => Some("u32"),
        _ => None,
    }
}

type Key = (String, String, String, String, String, String);

fn key(f: &str, op: &str, ty: &str, sem: &str, scope: &str, space: &str) -> Key {
    (
        f.into(),
        op.into(),
        ty.into(),
        sem.into(),
        scope.into(),
        space.into(),
    )
}

/// The legal set with its expected mnemonic, from the grammar above.
fn expected() -> BTreeMap<Key, String> {
    let mut m = BTreeMap::new();
    for (fam, strong) in [
        ("ld", ("Acquire", ".acquire")),
        ("st", ("Release", ".release")),
    ] {
        for t in TYPES.into_iter().chain(VECTORS.map(|v| v.0)) {
            for (sp, spt) in SPACES {
                for (sem, semt) in [("Weak", ""), ("Volatile", ".volatile")] {
                    m.insert(
                        key(fam, "", t, sem, "", sp),
                        format!("{fam}{semt}{spt}.{}", ldst_type(t)),
                    );
                }
                for (sem, semt) in [("Relaxed", ".relaxed"), strong] {
                    for (sc, sct) in SCOPES {
                        m.insert(
                            key(fam, "", t, sem, sc, sp),
                            format!("{fam}{semt}{sct}{spt}.{}", ldst_type(t)),
                        );
                    }
                }
            }
        }
    }
    for (fam, sems, ops) in [
        (
            "atom",
            &RMW_SEMS[..],
            &[
                "add",
                "min",
                "max",
                "and",
                "or",
                "xor",
                "exch",
                "inc",
                "dec",
                "cas",
                "add.noftz",
            ][..],
        ),
        (
            "red",
            &[RMW_SEMS[0], RMW_SEMS[2]][..],
            &[
                "add",
                "min",
                "max",
                "and",
                "or",
                "xor",
                "inc",
                "dec",
                "add.noftz",
            ][..],
        ),
    ] {
        for t in TYPES {
            for op in ops {
                let Some(ty) = rmw_type(op, t) else { continue };
                for (sem, semt) in sems {
                    for (sc, sct) in SCOPES {
                        for (sp, spt) in SPACES {
                            m.insert(
                                key(fam, op, t, sem, sc, sp),
                                format!("{fam}{semt}{sct}{spt}.{op}.{ty}"),
                            );
                        }
                    }
                }
            }
        }
    }
    // §9.7.13.5/6 vector atomics: `atom{.sem}{.scope}{.global}.add.vec_32_bit.f32` (`.vec_32_bit
    // = { .v2, .v4 }`), `red` likewise; `.global` or generic addressing only.
    for (fam, sems) in [
        ("atom", &RMW_SEMS[..]),
        ("red", &[RMW_SEMS[0], RMW_SEMS[2]][..]),
    ] {
        for (t, vt) in [("V2F32", "v2.f32"), ("V4F32", "v4.f32")] {
            for (sem, semt) in sems {
                for (sc, sct) in SCOPES {
                    for (sp, spt) in &SPACES[..2] {
                        m.insert(
                            key(fam, "add", t, sem, sc, sp),
                            format!("{fam}{semt}{sct}{spt}.add.{vt}"),
                        );
                    }
                }
            }
        }
    }
    // §9.7.13.5/6 half vectors: `atom{.sem}{.scope}{.global}.op.noftz.vec_16_bit.half_word_type`
    // and `….op.noftz.vec_32_bit.packed_type` with `.op = { .add, .min, .max }` (`red` likewise,
    // `.sem = { .relaxed, .release }`); `.global` or generic addressing only.
    for (fam, sems) in [
        ("atom", &RMW_SEMS[..]),
        ("red", &[RMW_SEMS[0], RMW_SEMS[2]][..]),
    ] {
        for (t, vt, _) in HALF_VECTORS {
            for op in ["add", "min", "max"] {
                for (sem, semt) in sems {
                    for (sc, sct) in SCOPES {
                        for (sp, spt) in &SPACES[..2] {
                            m.insert(
                                key(fam, &format!("{op}.noftz"), t, sem, sc, sp),
                                format!("{fam}{semt}{sct}{spt}.{op}.noftz.{vt}"),
                            );
                        }
                    }
                }
            }
        }
    }
    for (sem, semt) in [
        ("Sc", ".sc"),
        ("AcqRel", ".acq_rel"),
        ("Acquire", ".acquire"),
        ("Release", ".release"),
    ] {
        for (sc, sct) in SCOPES {
            m.insert(
                key("fence", "", "", sem, sc, ""),
                format!("fence{semt}{sct}"),
            );
        }
    }
    m
}

/// The PTX name of an access family, spelled here (not read from the catalog).
fn name(f: F) -> &'static str {
    match f {
        F::Ld => "ld",
        F::St => "st",
        F::Atom => "atom",
        F::Red => "red",
        F::Fence => "fence",
        f => panic!("not an access family: {f:?}"),
    }
}

fn catalog() -> Vec<Variant> {
    let mut v = Vec::new();
    for_each_variant(|x| {
        if [F::Ld, F::St, F::Atom, F::Red, F::Fence].contains(&x.family) {
            v.push(x)
        }
    });
    v
}

#[test]
fn every_mnemonic_matches_the_ptx_grammar() {
    let exp = expected();
    let mut bad = Vec::new();
    for v in catalog() {
        let k = key(
            name(v.family),
            v.op,
            v.ty,
            v.sem.name(),
            v.scope.name(),
            v.space.name(),
        );
        match exp.get(&k) {
            Some(e) if e == v.ptx => {}
            Some(e) => bad.push(format!("{k:?}: emits `{}`, grammar says `{e}`", v.ptx)),
            None => bad.push(format!("{k:?}: `{}` is not a legal variant", v.ptx)),
        }
    }
    assert!(
        bad.is_empty(),
        "{} wrong rows:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn catalog_is_exactly_the_legal_set() {
    let exp: BTreeSet<Key> = expected().into_keys().collect();
    let got: Vec<Key> = catalog()
        .iter()
        .map(|v| {
            key(
                name(v.family),
                v.op,
                v.ty,
                v.sem.name(),
                v.scope.name(),
                v.space.name(),
            )
        })
        .collect();
    let got_set: BTreeSet<Key> = got.iter().cloned().collect();
    assert_eq!(got.len(), got_set.len(), "duplicate catalog rows");
    let missing: Vec<_> = exp.difference(&got_set).collect();
    let extra: Vec<_> = got_set.difference(&exp).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "missing {missing:?}\nextra {extra:?}"
    );
    // The sizes the grammar implies: ld/st 34 types × (2 unscoped + 2 × 4 scoped) × 4 spaces;
    // the scalar `.add.noftz` adds 4 types × 4 sems × 4 scopes × 4 spaces (`atom`), × 2 sems
    // (`red`); the vector `.add.noftz` 10 vector types × 4 (2) sems × 4 scopes × 2 spaces.
    let count = |f: &str| got.iter().filter(|k| k.0 == f).count();
    assert_eq!(count("ld"), 1360);
    assert_eq!(count("st"), 1360);
    let noftz = |f: &str| {
        got.iter()
            .filter(|k| k.0 == f && k.1 == "add.noftz")
            .count()
    };
    assert_eq!((noftz("atom"), noftz("red")), (256 + 320, 128 + 160));
    assert_eq!(count("fence"), 16);
}

/// For one Rust type, no two variants share a mnemonic (different types may: `u32` and `i32`
/// both use `atom.and.b32`, as PTX spells it).
#[test]
fn mnemonics_are_unique_per_type() {
    let mut seen = BTreeMap::new();
    for v in catalog() {
        if let Some(prev) = seen.insert((v.ty, v.ptx), v) {
            panic!("`{}` emitted by both {prev:?} and {v:?}", v.ptx);
        }
    }
}

/// Spot checks straight from the seed's text (§3.5, §4.3–4.5, §2.5, DeepEP).
#[test]
fn seed_spellings() {
    use ptx_sync::atomic::{op, AtomInstr, LdInstr, RedInstr, StInstr};
    use ptx_sync::fence::FenceInstr;
    use ptx_sync::*;
    assert_eq!(
        <u32 as LdInstr<Relaxed, Gpu, Generic>>::PTX,
        "ld.relaxed.gpu.u32"
    );
    assert_eq!(
        <u32 as StInstr<Release, Gpu, Generic>>::PTX,
        "st.release.gpu.u32"
    );
    assert_eq!(
        <u32 as AtomInstr<op::Add, AcqRel, Gpu, Generic>>::PTX,
        "atom.acq_rel.gpu.add.u32"
    );
    assert_eq!(
        <u32 as AtomInstr<op::Add, Relaxed, Gpu, Global>>::PTX,
        "atom.relaxed.gpu.global.add.u32"
    );
    assert_eq!(
        <u32 as RedInstr<op::Add, Release, Gpu, Generic>>::PTX,
        "red.release.gpu.add.u32"
    );
    assert_eq!(<Sc as FenceInstr<Gpu>>::PTX, "fence.sc.gpu");
    assert_eq!(<AcqRel as FenceInstr<Sys>>::PTX, "fence.acq_rel.sys");
    assert_eq!(
        <i32 as LdInstr<Volatile, Sys, Global>>::PTX,
        "ld.volatile.global.s32"
    );
    // Weak and Volatile ignore the scope parameter: the same text at every scope.
    assert_eq!(
        <u32 as LdInstr<Weak, Cta, Generic>>::PTX,
        <u32 as LdInstr<Weak, Sys, Generic>>::PTX
    );
}

/// The operand order of each family, from the PTX ISA grammar (§9.7.9.8 `ld d, [a]`, §9.7.9.10
/// `st [a], b`, §9.7.13.5 `atom d, [a], b` / `atom.cas d, [a], b, c`, §9.7.13.6 `red [a], b`,
/// §9.7.13.4 `fence` without operands), with every register written `%r`.
fn operand_shape(family: &str, op: &str, ty: &str) -> &'static str {
    if ty == "u128" {
        // A `.b128` operand is a `.b128` register (§5.2.2): the block's `q` (value, `b`), `qc`
        // (`c`) and `qd` (`d`), in the same order.
        return match (family, op) {
            ("ld", _) => " q, [%r]",
            ("st", _) => " [%r], q",
            ("atom", "cas") => " qd, [%r], q, qc",
            ("atom", "exch") => " qd, [%r], q",
            (f, o) => panic!("no .b128 {f}.{o}"),
        };
    }
    // A vector operand is a brace-enclosed register list (§9.7.9.8, §9.7.13.5).
    let n = VECTORS
        .iter()
        .chain(HALF_VECTORS.iter())
        .find(|v| v.0 == ty)
        .map(|v| v.2);
    match (family, n) {
        ("atom", Some(8)) => {
            return " {%r, %r, %r, %r, %r, %r, %r, %r}, [%r], {%r, %r, %r, %r, %r, %r, %r, %r}"
        }
        ("red", Some(8)) => return " [%r], {%r, %r, %r, %r, %r, %r, %r, %r}",
        _ => {}
    }
    match (family, n) {
        ("atom", Some(2)) => return " {%r, %r}, [%r], {%r, %r}",
        ("atom", Some(4)) => return " {%r, %r, %r, %r}, [%r], {%r, %r, %r, %r}",
        ("red", Some(2)) => return " [%r], {%r, %r}",
        ("red", Some(4)) => return " [%r], {%r, %r, %r, %r}",
        _ => {}
    }
    match VECTORS.iter().find(|v| v.0 == ty).map(|v| v.2) {
        Some(2) if family == "ld" => return " {%r, %r}, [%r]",
        Some(4) if family == "ld" => return " {%r, %r, %r, %r}, [%r]",
        Some(2) => return " [%r], {%r, %r}",
        Some(4) => return " [%r], {%r, %r, %r, %r}",
        _ => {}
    }
    match (family, op) {
        ("ld", _) => " %r, [%r]",
        ("st", _) => " [%r], %r",
        ("atom", "cas") => " %r, [%r], %r, %r",
        ("atom", _) => " %r, [%r], %r",
        ("red", _) => " [%r], %r",
        ("fence", _) => "",
        (f, _) => panic!("no grammar for {f}"),
    }
}

/// Each row carries the operands its `asm!` pastes: replacing the table's placeholders (`{x}`)
/// by a register gives the grammar's operand order.
#[test]
fn every_row_carries_the_grammar_operands() {
    let mut bad = Vec::new();
    for v in catalog() {
        let Some(ops) = v.operands else {
            bad.push(format!("{}: no operands", v.ptx));
            continue;
        };
        let shape = operands::fill(ops, |_| "%r");
        if shape != operand_shape(name(v.family), v.op, v.ty) {
            bad.push(format!("{}: operands `{ops}`", v.ptx));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Each row names the Rust call that emits it, and its floors follow the ISA's version notes.
#[test]
fn rows_carry_call_path_floors_and_sections() {
    let rows = catalog();
    let find = |ptx: &str| {
        rows.iter()
            .find(|v| v.ptx == ptx)
            .unwrap_or_else(|| panic!("no row {ptx}"))
    };
    let r = find("atom.acq_rel.gpu.global.add.u32");
    assert_eq!(r.rust, "AtomicRef::<u32, Gpu, Global>::fetch_add::<AcqRel>");
    assert_eq!((r.sm, r.ptx_isa, r.isa), (70, 60, "9.7.13.5"));
    assert_eq!(find("ld.relaxed.cta.shared::cta.u32").ptx_isa, 78);
    assert_eq!(
        find("atom.relaxed.gpu.exch.b32").rust,
        "AtomicRef::<u32, Gpu, Generic>::swap::<Relaxed>"
    );
    assert_eq!(
        find("atom.relaxed.sys.cas.b64").rust,
        "AtomicRef::<u64, Sys, Generic>::compare_exchange::<Relaxed>"
    );
    assert_eq!(
        find("ld.volatile.global.s32").rust,
        "AtomicRef::<i32, _, Global>::load::<Volatile>"
    );
    assert_eq!(
        find("red.release.gpu.add.u32").rust,
        "AtomicRef::<u32, Gpu, Generic>::red_add::<Release>"
    );
    let f = find("fence.acquire.gpu");
    assert_eq!(
        (f.rust, f.sm, f.ptx_isa),
        ("fence::<Acquire, Gpu>()", 90, 86)
    );
    let f = find("fence.sc.gpu");
    assert_eq!((f.sm, f.ptx_isa, f.isa), (70, 60, "9.7.13.4"));
    let c = find("ld.acquire.cluster.u32");
    assert_eq!((c.sm, c.ptx_isa), (90, 78));
    for v in &rows {
        assert!(!v.isa.is_empty() && !v.seed.is_empty(), "{v:?}");
        if v.family == F::Fence {
            assert_eq!(
                v.rust,
                format!("fence::<{}, {}>()", v.sem, v.scope),
                "{v:?}"
            );
        } else {
            assert!(
                v.rust.starts_with(&format!("AtomicRef::<{}, ", v.ty)),
                "{v:?}"
            );
            assert!(v.rust.ends_with(&format!("::<{}>", v.sem)), "{v:?}");
        }
    }
}
