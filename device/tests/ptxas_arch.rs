//! The architecture-specific builds (`cargo xtask ptx`: `catalog_sm90a.ptx`, `catalog_sm100a.ptx`
//! from `host/kernels/src/catalog_arch.rs`): every row whose `Variant::arch` is an `a` target, or
//! whose SM floor is above sm_90, is an instruction of its build's PTX; ptxas 13.0 assembles that
//! PTX for its target; and each row's instruction, written here from the ISA grammar, assembles
//! at its target and is rejected on the base targets below it (where ptxas enforces that — the
//! rejections listed were measured with ptxas 13.0.88).

mod common;
use common::*;
use ptx_sync::catalog::{for_each_variant, Arch, Variant};
use std::collections::BTreeSet;

fn arch_rows() -> Vec<Variant> {
    let mut v = Vec::new();
    for_each_variant(|r| {
        if r.arch != Arch::Base || r.sm >= 100 {
            v.push(r)
        }
    });
    v
}

/// ptxas on one instruction for `arch` (PTX 8.7: the oldest version of every arch row; the
/// `.release` `st.async`/`red.async` need it): registers `%rs1..2` (`.b16`), `%r1..3` (`%r1` a `.shared`
/// address), `%rd1..3` (`%rd1` a pointer), `%p1`, `%q1` (`.b128`).
fn accepts(arch: &str, insn: &str) -> bool {
    ptxas_accepts_in(
        arch,
        "8.7",
        ".reg .b16 %rs<3>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n.reg .pred %p<2>;\n.reg .b128 %q<2>;\n\
         ld.param.u64 %rd1, [p];\ncvt.u32.u64 %r1, %rd1;\ncvt.u16.u64 %rs1, %rd1;\nmov.b128 %q1, {%rd1, %rd1};",
        insn,
    )
}

const BUILDS: [(&str, &str); 2] = [("catalog_sm90a", "sm_90a"), ("catalog_sm100a", "sm_100a")];

#[test]
fn arch_catalogs_are_built_and_assembled_for_their_target() {
    let dir = ptx_dir();
    for (name, target) in BUILDS {
        let ptx = dir.join(format!("{name}.ptx"));
        let text = read(&ptx);
        // sm_100a is built at PTX 8.7 (the `st.async`/`red.async` `.release` rows need it)
        let version = if target == "sm_100a" {
            ".version 8.7"
        } else {
            ".version 8.6"
        };
        assert!(text.contains(version), "{name}.ptx: not {version}");
        assert!(
            text.lines()
                .any(|l| l.trim() == format!(".target {target}")),
            "{name}.ptx: not .target {target}"
        );
        assert!(
            text.contains(&format!(".entry {name}(")),
            "{name}.ptx: no kernel {name}"
        );
        assemble_built(name, &ptx, &text, target);
    }
}

#[test]
fn every_arch_row_is_in_its_build() {
    let dir = ptx_dir();
    let rows = arch_rows();
    assert!(rows.len() >= 33, "{}", rows.len());
    // Each build's mnemonics, read once (the portable catalog.ptx is 2.4 MB).
    let mut builds = std::collections::BTreeMap::new();
    let mut of = |name: &str| {
        builds
            .entry(name.to_string())
            .or_insert_with(|| mnemonics(&read(&dir.join(format!("{name}.ptx")))))
            .clone()
    };
    let base = of("catalog");
    let mut missing = Vec::new();
    for v in &rows {
        let have = of(v.catalog_ptx());
        if !have.contains(v.ptx) {
            missing.push(format!("{} ({})", v.ptx, v.catalog_ptx()));
        }
        // and not in the portable build, which cannot hold it
        assert!(!base.contains(v.ptx), "{} in catalog.ptx (sm_90)", v.ptx);
    }
    assert!(missing.is_empty(), "not emitted:\n{}", missing.join("\n"));
}

/// `(instruction, target it assembles on, targets ptxas rejects it on)`, each written from the
/// ISA grammar with concrete operands.
fn instructions() -> Vec<(String, &'static str, &'static [&'static str])> {
    let mut v = Vec::new();
    // §9.7.9.28 tensormap.replace: sm_90a (and sm_100a); `.swizzle_atomicity` sm_100a only.
    // Measured: ptxas 13.0 rejects every form on sm_90 and sm_100.
    let spaces = [
        (".global", "[%rd1]"),
        (".shared::cta", "[%r1]"),
        ("", "[%rd1]"),
    ];
    let fields: [(&str, &str, &str); 11] = [
        ("global_address", "b64", ", %rd2"),
        ("rank", "b32", ", %r2"),
        ("box_dim", "b32", ", 1, %r2"),
        ("global_dim", "b32", ", 2, %r2"),
        ("global_stride", "b64", ", 3, %rd2"),
        ("element_stride", "b32", ", 4, %r2"),
        ("elemtype", "b32", ", 7"),
        ("interleave_layout", "b32", ", 0"),
        ("swizzle_mode", "b32", ", 3"),
        ("fill_mode", "b32", ", 1"),
        ("swizzle_atomicity", "b32", ", 1"),
    ];
    // §9.7.9.12 / §9.7.13.7 (PTX 8.7, sm_100): `st.async{.mmio}.release.scope.global.type [a], b;`
    // and `red.async{.mmio}.release.scope.global.add.type [a], b;`, `.scope = { .gpu, .sys }`,
    // `.mmio` with `.sys` only. Portable: plain sm_100 assembles them; ptxas 13.0 rejects them on
    // sm_90 / sm_90a.
    for (ty, reg) in [
        ("u16", "%rs1"),
        ("s16", "%rs1"),
        ("u32", "%r2"),
        ("s32", "%r2"),
        ("f32", "%r2"),
        ("u64", "%rd2"),
        ("s64", "%rd2"),
        ("f64", "%rd2"),
    ] {
        for q in [".release.gpu", ".release.sys", ".mmio.release.sys"] {
            let insn = format!("st.async{q}.global.{ty} [%rd1], {reg};");
            v.push((insn.clone(), "sm_100a", &["sm_90", "sm_90a"][..]));
            v.push((insn, "sm_100", &[][..]));
        }
    }
    for (ty, reg) in [
        ("u32", "%r2"),
        ("s32", "%r2"),
        ("u64", "%rd2"),
        ("s64", "%rd2"),
    ] {
        for q in [".release.gpu", ".release.sys", ".mmio.release.sys"] {
            let insn = format!("red.async{q}.global.add.{ty} [%rd1], {reg};");
            v.push((insn.clone(), "sm_100a", &["sm_90", "sm_90a"][..]));
            v.push((insn, "sm_100", &[][..]));
        }
    }
    for (field, ty, rest) in fields {
        for (ss, addr) in spaces {
            let insn = format!("tensormap.replace.tile.{field}{ss}.b1024.{ty} {addr}{rest};");
            if field == "swizzle_atomicity" {
                v.push((insn, "sm_100a", &["sm_90", "sm_90a", "sm_100"][..]));
            } else {
                v.push((insn.clone(), "sm_90a", &["sm_90", "sm_100"][..]));
                v.push((insn, "sm_100a", &[][..]));
            }
        }
    }
    // §9.7.13.17/18 clusterlaunchcontrol: sm_100 (the multicast form sm_100a). Measured: ptxas
    // 13.0 rejects all on sm_90a ("requires .target sm_100 or higher"), the multicast form on
    // sm_100 too.
    let t = "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes";
    v.push((
        format!("{t}.b128 [%r1], [%r2];"),
        "sm_100",
        &["sm_90", "sm_90a"][..],
    ));
    v.push((format!("{t}.b128 [%r1], [%r2];"), "sm_100a", &[][..]));
    v.push((
        format!("{t}.multicast::cluster::all.b128 [%r1], [%r2];"),
        "sm_100a",
        &["sm_90", "sm_90a", "sm_100"][..],
    ));
    for q in [
        "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 %p1, %q1;",
        "clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128 %r2, %q1;",
        "clusterlaunchcontrol.query_cancel.get_first_ctaid::y.b32.b128 %r2, %q1;",
        "clusterlaunchcontrol.query_cancel.get_first_ctaid::z.b32.b128 %r2, %q1;",
        "clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {%r1, %r2, %r3, _}, %q1;",
    ] {
        v.push((q.to_string(), "sm_100", &["sm_90", "sm_90a"][..]));
        v.push((q.to_string(), "sm_100a", &[][..]));
    }
    // §9.7.9.25.4/5 the Blackwell copy forms (copy::blackwell). Measured with ptxas 13.0: the
    // `.shared::cta` destination assembles on sm_90 (PTX 8.6); `.cp_mask` and a `.shared::cta`
    // gather4 are rejected below sm_100; `.cta_group`, scatter4 and a `.shared::cluster` gather4
    // on sm_90, sm_90a and sm_100.
    let mbar = ".mbarrier::complete_tx::bytes";
    let old: &[&str] = &["sm_90", "sm_90a"];
    let not_a: &[&str] = &["sm_90", "sm_90a", "sm_100"];
    v.push((
        format!("cp.async.bulk.shared::cta.global{mbar} [%r1], [%rd1], %r2, [%r3];"),
        "sm_90",
        &[][..],
    ));
    v.push((
        format!("cp.async.bulk.shared::cta.global{mbar} [%r1], [%rd1], %r2, [%r3];"),
        "sm_100a",
        &[][..],
    ));
    v.push((
        "cp.async.bulk.global.shared::cta.bulk_group.cp_mask [%rd1], [%r1], %r2, %rs1;".into(),
        "sm_100",
        old,
    ));
    v.push((
        "cp.async.bulk.global.shared::cta.bulk_group.cp_mask [%rd1], [%r1], %r2, %rs1;".into(),
        "sm_100a",
        &[][..],
    ));
    for k in 1..=2 {
        for d in 1..=5usize {
            let c = vec!["%r2"; d].join(", ");
            v.push((
                format!("cp.async.bulk.tensor.{d}d.shared::cluster.global.tile{mbar}.cta_group::{k} [%r1], [%rd1, {{{c}}}], [%r3];"),
                "sm_100a",
                not_a,
            ));
        }
    }
    let c5 = "%r2, %r3, %r4, %r5, %r6";
    v.push((format!("cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4{mbar} [%r1], [%rd1, {{{c5}}}], [%r7];"), "sm_100", old));
    v.push((format!("cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4{mbar} [%r1], [%rd1, {{{c5}}}], [%r7];"), "sm_100a", &[][..]));
    v.push((format!("cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4{mbar} [%r1], [%rd1, {{{c5}}}], [%r7];"), "sm_100a", not_a));
    v.push((format!("cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group [%rd1, {{{c5}}}], [%r1];"), "sm_100a", not_a));
    v
}

#[test]
fn ptxas_assembles_each_arch_row_at_its_target_and_rejects_it_below() {
    let list = instructions();
    // every arch row's mnemonic has an instruction here
    let written: BTreeSet<String> = list
        .iter()
        .map(|(i, ..)| i.split(' ').next().unwrap().to_string())
        .collect();
    for v in arch_rows() {
        assert!(written.contains(v.ptx), "{}: no instruction written", v.ptx);
        let at: Vec<&str> = list
            .iter()
            .filter(|(i, ..)| i.split(' ').next() == Some(v.ptx))
            .map(|(_, t, _)| *t)
            .collect();
        assert!(
            at.contains(&v.target()),
            "{}: not checked at {}",
            v.ptx,
            v.target()
        );
    }
    // Every (instruction, target, whether ptxas must accept it) check, run on the cores.
    let mut checks = Vec::new();
    for (insn, at, below) in &list {
        checks.push((insn.as_str(), *at, true));
        for b in *below {
            checks.push((insn.as_str(), *b, false));
        }
    }
    let accepted = common::par_map(&checks, |(insn, arch, _)| accepts(arch, insn));
    let mut bad = Vec::new();
    for ((insn, arch, want), got) in checks.iter().zip(accepted) {
        if got != *want {
            let what = if *want { "rejected" } else { "accepted" };
            bad.push(format!("{what} on {arch}: {insn}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The compile-fail rules of the arch rows (tests/ui/async/tensormap_replace_*.rs): ptxas agrees.
#[test]
fn ptxas_rejects_what_the_arch_types_reject() {
    assert!(accepts(
        "sm_90a",
        "tensormap.replace.tile.box_dim.global.b1024.b32 [%rd1], 4, %r2;"
    ));
    for illegal in [
        // tensormap_replace_ord_5: `ord` is 0..=4
        "tensormap.replace.tile.box_dim.global.b1024.b32 [%rd1], 5, %r2;",
        // tensormap_replace_rank_b64: `.rank` is `.b32`
        "tensormap.replace.tile.rank.global.b1024.b64 [%rd1], %rd2;",
        // tensormap_replace_cluster_space: `.ss = {.global, .shared::cta}`
        "tensormap.replace.tile.box_dim.shared::cluster.b1024.b32 [%r1], 2, %r2;",
        // tensormap_replace_imm_register: a field3 value is an immediate
        "tensormap.replace.tile.elemtype.global.b1024.b32 [%rd1], %r2;",
    ] {
        assert!(!accepts("sm_90a", illegal), "ptxas accepts `{illegal}`");
    }
    let mbar = ".mbarrier::complete_tx::bytes";
    assert!(accepts(
        "sm_100a",
        &format!("cp.async.bulk.tensor.5d.shared::cluster.global.tile{mbar}.cta_group::1 [%r1], [%rd1, {{%r2, %r2, %r2, %r2, %r2}}], [%r3];")
    ));
    for illegal in [
        // gather4_global_dst: the destination is shared memory
        format!("cp.async.bulk.tensor.2d.global.global.tile::gather4{mbar} [%rd2], [%rd1, {{%r2, %r3, %r4, %r5, %r6}}], [%r7];"),
        // cta_group_6d: 1..=5 dimensions
        format!("cp.async.bulk.tensor.6d.shared::cluster.global.tile{mbar}.cta_group::1 [%r1], [%rd1, {{%r2, %r2, %r2, %r2, %r2, %r2}}], [%r3];"),
    ] {
        assert!(!accepts("sm_100a", &illegal), "ptxas accepts `{illegal}`");
    }
    // async_release_scope_type: `.scope = { .gpu, .sys }`, `red.async.release` adds integers
    assert!(accepts(
        "sm_100a",
        "st.async.release.gpu.global.u32 [%rd1], %r2;"
    ));
    for illegal in [
        "st.async.release.cluster.global.u32 [%rd1], %r2;",
        "red.async.release.cta.global.add.u32 [%rd1], %r2;",
        "red.async.release.gpu.global.add.f32 [%rd1], %r2;",
    ] {
        assert!(!accepts("sm_100a", illegal), "ptxas accepts `{illegal}`");
    }
}
