//! The architecture-specific rows (`Variant::arch` ≠ `Base`, or an SM floor above the crate's
//! sm_90): each row's mnemonic, operand shape, target and floors against a table composed here
//! by hand from the PTX ISA grammar — never read from the device crate's tables. Their ptxas
//! checks (assembled at their target, rejected below it) are `tests/ptxas_arch.rs`.

use ptx_sync::catalog::{for_each_variant, Arch, Variant};
use std::collections::BTreeSet;

/// `(mnemonic, operand shape, arch, sm, ptx_isa)`; shapes as in `strings_async.rs` (registers
/// `%r`, `g` the `.global` address made by `cvta`), immediates `I`.
type Row = (String, String, Arch, u16, u16);

/// The rows that need more than the crate's portable sm_90 build.
pub fn arch_rows() -> Vec<Variant> {
    let mut v = Vec::new();
    for_each_variant(|r| {
        if r.arch != Arch::Base || r.sm >= 100 {
            v.push(r)
        }
    });
    v
}

/// PTX ISA §9.7.9.27 `tensormap.replace` (PTX 8.3, sm_90a; `.swizzle_atomicity` PTX 8.6,
/// sm_100a):
/// `tensormap.replace.mode.field1{.ss}.b1024.type [addr], new_val;`,
/// `… .field2{.ss}.b1024.type [addr], ord, new_val;`, `… .field3{.ss}.b1024.type [addr], new_val;`
/// with `.mode = {.tile}`, `.ss = {.global, .shared::cta}` (or none: generic), `.b64` for
/// `.global_address` / `.global_stride`, `.b32` for the others; `ord` and a field3 value are
/// immediates.
fn tensormap_replace() -> Vec<Row> {
    let spaces = [(".global", "[g]"), (".shared::cta", "[%r]"), ("", "[%r]")];
    let mut rows = Vec::new();
    let fields: [(&str, &str, &str, Arch, u16, u16); 11] = [
        ("global_address", "b64", ", %r", Arch::Sm90a, 90, 83),
        ("rank", "b32", ", %r", Arch::Sm90a, 90, 83),
        ("box_dim", "b32", ", I, %r", Arch::Sm90a, 90, 83),
        ("global_dim", "b32", ", I, %r", Arch::Sm90a, 90, 83),
        ("global_stride", "b64", ", I, %r", Arch::Sm90a, 90, 83),
        ("element_stride", "b32", ", I, %r", Arch::Sm90a, 90, 83),
        ("elemtype", "b32", ", I", Arch::Sm90a, 90, 83),
        ("interleave_layout", "b32", ", I", Arch::Sm90a, 90, 83),
        ("swizzle_mode", "b32", ", I", Arch::Sm90a, 90, 83),
        ("fill_mode", "b32", ", I", Arch::Sm90a, 90, 83),
        ("swizzle_atomicity", "b32", ", I", Arch::Sm100a, 100, 86),
    ];
    for (field, ty, rest, arch, sm, ptx) in fields {
        for (ss, addr) in spaces {
            rows.push((
                format!("tensormap.replace.tile.{field}{ss}.b1024.{ty}"),
                format!(" {addr}{rest}"),
                arch,
                sm,
                ptx,
            ));
        }
    }
    rows
}

/// PTX ISA §9.7.9.12 `st.async{.mmio}.sem.scope{.ss}.type [a], b;` and §9.7.13.7
/// `red.async{.mmio}.sem.scope{.ss}.add.type [a], b;` with `.sem = { .release }`, `.scope =
/// { .gpu, .sys }` (`.mmio` only with `.sys`), `.ss = { .global }` (PTX 8.7, sm_100, portable):
/// `st.async` on the 16/32/64-bit types (the crate offers no 8-bit form: an 8-bit register),
/// `red.async` `.add` on `.u32 .s32 .u64 .s64`.
fn async_release() -> Vec<Row> {
    let mut rows = Vec::new();
    let quals = [".release.gpu", ".release.sys", ".mmio.release.sys"];
    for ty in ["u16", "s16", "u32", "s32", "f32", "u64", "s64", "f64"] {
        for q in quals {
            rows.push((
                format!("st.async{q}.global.{ty}"),
                " [g], %r".into(),
                Arch::Base,
                100,
                87,
            ));
        }
    }
    for ty in ["u32", "s32", "u64", "s64"] {
        for q in quals {
            rows.push((
                format!("red.async{q}.global.add.{ty}"),
                " [g], %r".into(),
                Arch::Base,
                100,
                87,
            ));
        }
    }
    rows
}

/// Every architecture-specific row the ISA grammar above gives, and no other.
pub fn expected() -> Vec<Row> {
    let mut rows = tensormap_replace();
    rows.extend(async_release());
    rows
}

/// A row's operand template as a shape: `{imm}` → `I`, every other `{placeholder}` → `%r`.
fn shape(v: &Variant) -> String {
    let ops = v.operands.unwrap_or("<none>");
    let mut out = String::new();
    let mut it = ops.chars().peekable();
    while let Some(c) = it.next() {
        if c == '{' {
            let name: String = it.by_ref().take_while(|&c| c != '}').collect();
            out.push_str(if name == "imm" { "I" } else { "%r" });
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn arch_rows_are_the_grammar_rows() {
    let have: BTreeSet<Row> = arch_rows()
        .iter()
        .map(|v| (v.ptx.to_string(), shape(v), v.arch, v.sm, v.ptx_isa))
        .collect();
    let want: BTreeSet<Row> = expected().into_iter().collect();
    assert_eq!(arch_rows().len(), want.len(), "a row twice or missing");
    let extra: Vec<_> = have.difference(&want).collect();
    let missing: Vec<_> = want.difference(&have).collect();
    assert!(
        extra.is_empty() && missing.is_empty(),
        "rows not in the grammar: {extra:#?}\ngrammar rows missing: {missing:#?}"
    );
}

#[test]
fn tensormap_replace_rows_name_their_call_and_sections() {
    let rows: Vec<Variant> = arch_rows()
        .into_iter()
        .filter(|v| v.family == "tensormap.replace")
        .collect();
    assert_eq!(rows.len(), 33);
    for v in rows {
        let kind = if v.ptx.contains(".global_address") || v.ptx.contains(".rank") {
            "tensormap_replace::<"
        } else if [
            ".box_dim",
            ".global_dim",
            ".global_stride",
            ".element_stride",
        ]
        .iter()
        .any(|f| v.ptx.contains(&format!("{f}.")))
        {
            "tensormap_replace_ord::<"
        } else {
            "tensormap_replace_imm::<"
        };
        assert!(
            v.rust.starts_with(&format!("tensormap::replace::{kind}")),
            "{v:?}"
        );
        let space = if v.ptx.contains(".global.") {
            "Global"
        } else if v.ptx.contains(".shared::cta.") {
            "Shared"
        } else {
            "Generic"
        };
        assert!(v.rust.contains(&format!(", {space}")), "{v:?}");
        assert_eq!((v.isa, v.seed), ("9.7.9.27", "5.2"), "{v:?}");
    }
}

/// The build a row lands in follows its target: `a` rows in their own catalog, portable rows of
/// the sm_90 floor in `catalog.ptx`.
#[test]
fn each_row_names_the_build_of_its_target() {
    for v in arch_rows() {
        let want = match v.arch {
            Arch::Sm90a => ("sm_90a", "catalog_sm90a"),
            Arch::Sm100a => ("sm_100a", "catalog_sm100a"),
            Arch::Base => ("sm_100a", "catalog_sm100a"),
        };
        assert_eq!((v.target(), v.catalog_ptx()), want, "{v:?}");
    }
    let mut portable = 0;
    for_each_variant(|v| {
        if v.arch == Arch::Base && v.sm < 100 {
            portable += 1;
            assert_eq!((v.target(), v.catalog_ptx()), ("sm_90", "catalog"), "{v:?}");
        }
    });
    assert!(portable > 3000, "{portable}");
}
