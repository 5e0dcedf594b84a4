//! The architecture-specific rows (`Variant::arch` ≠ `Base`, or an SM floor above the crate's
//! sm_90): each row's mnemonic, operand shape, target and floors against a table composed here
//! by hand from the PTX ISA grammar — never read from the device crate's tables. Their ptxas
//! checks (assembled at their target, rejected below it) are `tests/ptxas_arch.rs`.

#[path = "common/operands.rs"]
mod operands;

use ptx_sync::catalog::{for_each_variant, Arch, Family as F, Variant};
use std::collections::BTreeSet;

/// `(mnemonic, operand shape, arch, sm, ptx_isa)`; shapes as in `strings_async.rs` (registers
/// `%r`, `g` the `.global` address made by `cvta`), immediates `I`.
type Row = (String, String, Arch, u16, u16);

/// The rows spelled here: those that need more than the crate's portable sm_90 build, and the
/// Blackwell-era copy forms of `copy::blackwell` (one of which is portable sm_90, PTX 8.6).
pub fn arch_rows() -> Vec<Variant> {
    let mut v = Vec::new();
    for_each_variant(|r| {
        if r.arch != Arch::Base || r.sm >= 100 || r.rust.starts_with("copy::blackwell::") {
            v.push(r)
        }
    });
    v
}

/// PTX ISA §9.7.9.28 `tensormap.replace` (PTX 8.3, sm_90a; `.swizzle_atomicity` PTX 8.6,
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

/// PTX ISA §9.7.13.17/18 (PTX 8.6): `clusterlaunchcontrol.try_cancel.async{.space}
/// .completion_mechanism{.multicast::cluster::all}.b128 [addr], [mbar];` with `.space =
/// {.shared::cta}`, `.completion_mechanism = {.mbarrier::complete_tx::bytes}` (sm_100; the
/// multicast form sm_100a), and `clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 pred,
/// response;`, `….query_cancel.get_first_ctaid::{x,y,z}.b32.b128 reg, response;` and
/// `….query_cancel.get_first_ctaid.v4.b32.b128 {xdim, ydim, zdim, _}, response;` (sm_100).
/// The response operand is the `.b128` register `q` the `asm!` block declares; the predicate
/// `p` likewise.
fn clusterlaunchcontrol() -> Vec<Row> {
    let t = "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes";
    let mut rows = vec![
        (
            format!("{t}.b128"),
            " [%r], [%r]".to_string(),
            Arch::Base,
            100,
            86,
        ),
        (
            format!("{t}.multicast::cluster::all.b128"),
            " [%r], [%r]".to_string(),
            Arch::Sm100a,
            100,
            86,
        ),
        (
            "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128".to_string(),
            " p, q".to_string(),
            Arch::Base,
            100,
            86,
        ),
    ];
    for d in ["x", "y", "z"] {
        rows.push((
            format!("clusterlaunchcontrol.query_cancel.get_first_ctaid::{d}.b32.b128"),
            " %r, q".to_string(),
            Arch::Base,
            100,
            86,
        ));
    }
    rows.push((
        "clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128".to_string(),
        " {%r, %r, %r, _}, q".to_string(),
        Arch::Base,
        100,
        86,
    ));
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

/// PTX ISA §9.7.9.25.4/5 (PTX 8.6), with `g` the `.global` address (`cvta`), `%r` registers:
/// `cp.async.bulk.dst.src.completion_mechanism [dstMem], [srcMem], size, [mbar]` with `.dst =
/// .shared::cta` (sm_90); `cp.async.bulk.dst.src.bulk_group.cp_mask [dstMem], [srcMem], size,
/// byteMask` (`.global` ← `.shared::cta`, sm_100); `cp.async.bulk.tensor.dim.dst.src.tile
/// .mbarrier::complete_tx::bytes.cta_group::{1,2} [dstMem], [tensorMap, tensorCoords], [mbar]`
/// (sm_100a); the 2-D `.tile::gather4` load (five coordinates: column, four rows; into
/// `.shared::cta` sm_100, `.shared::cluster` sm_100a) and `.tile::scatter4` store (sm_100a).
fn blackwell_copies() -> Vec<Row> {
    let mbar = ".mbarrier::complete_tx::bytes";
    let mut rows = vec![
        (
            format!("cp.async.bulk.shared::cta.global{mbar}"),
            " [%r], [g], %r, [%r]".to_string(),
            Arch::Base,
            90,
            86,
        ),
        (
            "cp.async.bulk.global.shared::cta.bulk_group.cp_mask".to_string(),
            " [g], [%r], %r, %r".to_string(),
            Arch::Base,
            100,
            86,
        ),
    ];
    for k in 1..=2 {
        for d in 1..=5usize {
            let c = vec!["%r"; d].join(", ");
            rows.push((
                format!(
                    "cp.async.bulk.tensor.{d}d.shared::cluster.global.tile{mbar}.cta_group::{k}"
                ),
                format!(" [%r], [%r, {{{c}}}], [%r]"),
                Arch::Sm100a,
                100,
                86,
            ));
        }
    }
    let c5 = "%r, %r, %r, %r, %r";
    for (dst, arch) in [
        (".shared::cta", Arch::Base),
        (".shared::cluster", Arch::Sm100a),
    ] {
        rows.push((
            format!("cp.async.bulk.tensor.2d{dst}.global.tile::gather4{mbar}"),
            format!(" [%r], [%r, {{{c5}}}], [%r]"),
            arch,
            100,
            86,
        ));
    }
    rows.push((
        "cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group".to_string(),
        format!(" [%r, {{{c5}}}], [%r]"),
        Arch::Sm100a,
        100,
        86,
    ));
    rows
}

/// Every architecture-specific row the ISA grammar above gives, and no other.
pub fn expected() -> Vec<Row> {
    let mut v = tensormap_replace();
    v.extend(clusterlaunchcontrol());
    v.extend(blackwell_copies());
    v.extend(async_release());
    v
}

/// A row's operand template as a shape: `{imm}` → `I`, every other `{placeholder}` → `%r`,
/// `{{`/`}}` → a brace.
fn shape(v: &Variant) -> String {
    let ops = v.operands.unwrap_or("<none>");
    operands::fill(ops, |name| if name == "imm" { "I" } else { "%r" })
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
        .filter(|v| v.family == F::TensormapReplace)
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
        assert_eq!((v.isa, v.seed), ("9.7.9.28", "5.2"), "{v:?}");
    }
}

#[test]
fn clusterlaunchcontrol_rows_name_their_call_and_sections() {
    let rows: Vec<Variant> = arch_rows()
        .into_iter()
        .filter(|v| v.family == F::Clusterlaunchcontrol)
        .collect();
    assert_eq!(rows.len(), 7);
    for v in rows {
        let (rust, isa) = match v.ptx.split('.').nth(1) {
            Some("try_cancel") if v.ptx.contains(".multicast::cluster::all") => {
                ("clc::try_cancel_multicast", "9.7.13.17")
            }
            Some("try_cancel") => ("clc::try_cancel", "9.7.13.17"),
            Some("query_cancel") if v.ptx.contains(".is_canceled") => {
                ("clc::ClcResponse::is_canceled", "9.7.13.18")
            }
            Some("query_cancel") if v.ptx.contains(".v4.") => {
                ("clc::ClcResponse::first_ctaid_unchecked", "9.7.13.18")
            }
            Some("query_cancel") => ("clc::ClcResponse::first_ctaid_", "9.7.13.18"),
            _ => panic!("{v:?}"),
        };
        assert!(v.rust.starts_with(rust), "{v:?}");
        assert_eq!(v.isa, isa, "{v:?}");
    }
}

#[test]
fn blackwell_copy_rows_name_their_call_and_sections() {
    let rows: Vec<Variant> = arch_rows()
        .into_iter()
        .filter(|v| matches!(v.family, F::CpAsyncBulk | F::CpAsyncBulkTensor))
        .collect();
    assert_eq!(rows.len(), 15);
    for v in rows {
        let (call, isa) = if v.ptx.contains(".cta_group::") {
            (
                "cp_async_bulk_tensor_load_cta_group::<CtaGroup",
                "9.7.9.25.5",
            )
        } else if v.ptx.contains("gather4") {
            ("cp_async_bulk_tensor_gather4::<", "9.7.9.25.5")
        } else if v.ptx.contains("scatter4") {
            ("cp_async_bulk_tensor_scatter4", "9.7.9.25.5")
        } else if v.ptx.ends_with(".cp_mask") {
            ("cp_async_bulk_s2g_cp_mask", "9.7.9.25.4")
        } else {
            ("cp_async_bulk_g2s_cta", "9.7.9.25.4")
        };
        assert!(
            v.rust.starts_with(&format!("copy::blackwell::{call}")),
            "{v:?}"
        );
        assert_eq!(v.isa, isa, "{v:?}");
        if v.ptx.contains(".cta_group::") {
            let k = v.ptx.rsplit("::").next().unwrap();
            assert!(
                v.rust
                    .contains(&format!("CtaGroup{k}, [i32; {}]", v.form.dim)),
                "{v:?}"
            );
        }
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
            Arch::Base if v.sm >= 100 => ("sm_100a", "catalog_sm100a"),
            Arch::Base => ("sm_90", "catalog"),
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

/// The SM/PTX table of the crate docs (`device/src/lib.rs`) has a line for each row's module at
/// the row's floor: `**sm_90a**` / `**sm_100a**` for an `a` row, `sm_100` / `sm_90` for a
/// portable one, with its PTX version (each floor is checked with ptxas in `ptxas_arch.rs`).
#[test]
fn the_crate_table_states_each_arch_floor() {
    let lib = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/lib.rs")).unwrap();
    let lines: Vec<Vec<String>> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//! | "))
        .map(|l| {
            l.split(" | ")
                .map(|c| c.trim().trim_end_matches('|').trim().to_string())
                .collect()
        })
        .collect();
    let mut bad = Vec::new();
    for v in arch_rows() {
        let label = match (v.arch, v.sm) {
            (Arch::Sm90a, _) => "**sm_90a**".to_string(),
            (Arch::Sm100a, _) => "**sm_100a**".to_string(),
            (Arch::Base, sm) => format!("sm_{sm}"),
        };
        let ptx = format!("{}.{}", v.ptx_isa / 10, v.ptx_isa % 10);
        // a line of the row's module (`[`m`]` with the row's call `m::…`) at the row's floor
        let found = lines.iter().any(|c| {
            let module = c[0]
                .strip_prefix("[`")
                .and_then(|r| r.split_once("`]"))
                .map(|(m, _)| m);
            c.len() == 3
                && module.is_some_and(|m| v.rust.starts_with(&format!("{m}::")))
                && (c[1] == label || c[1].starts_with(&format!("{label},")))
                && c[2] == ptx
        });
        if !found {
            bad.push(format!("{} ({}, {label}, PTX {ptx})", v.ptx, v.rust));
        }
    }
    assert!(
        bad.is_empty(),
        "not in the lib.rs table:\n{}",
        bad.join("\n")
    );
}
