//! The Rust-built catalog kernels (`host/kernels/src/catalog*.rs`, built by `cargo xtask ptx`)
//! instantiate every variant: each catalog row's PTX text appears as an instruction in the PTX
//! that rustc emitted, ptxas 13.0 assembles that PTX for sm_90 without error, and no function is
//! left undefined. The illegal combinations our types reject are rejected by ptxas too, so the
//! type rules are the PTX ISA's, not stricter and not looser.

mod common;
use common::*;

#[test]
fn every_catalog_row_is_in_the_rust_built_ptx() {
    let dir = ptx_dir();
    let mut have = mnemonics(&read(&dir.join("catalog.ptx")));
    have.extend(mnemonics(&read(&dir.join("kernels.ptx"))));
    let mut missing = Vec::new();
    let mut n = 0;
    ptx_sync::catalog::for_each_variant(|v| {
        n += 1;
        // The architecture-specific rows live in their own builds (tests/ptxas_arch.rs).
        if v.catalog_ptx() != "catalog" {
            return;
        }
        if !have.contains(v.ptx) {
            missing.push(format!("{v:?}"));
        }
    });
    assert!(n > 3000, "catalog too small: {n}");
    assert!(
        missing.is_empty(),
        "{} rows not emitted by any Rust kernel:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn ptxas_assembles_the_rust_built_ptx_for_sm_90() {
    let dir = ptx_dir();
    for name in ["catalog", "kernels"] {
        let ptx = dir.join(format!("{name}.ptx"));
        let text = read(&ptx);
        assert!(text.contains(".version 8.6"), "{name}.ptx: not PTX 8.6");
        assert!(text.contains(".target sm_90"), "{name}.ptx: not sm_90");
        assemble_built(name, &ptx, &text, "sm_90");
    }
}

/// Each compile-fail rule (tests/ui) names an instruction PTX does not have; ptxas agrees.
/// The control row shows the harness accepts a legal instruction.
#[test]
fn ptxas_rejects_what_the_types_reject() {
    assert!(
        ptxas_accepts("ld.acquire.gpu.u32 %r1, [%rd1];"),
        "control: legal ld rejected"
    );
    assert!(
        ptxas_accepts("red.release.gpu.add.u32 [%rd1], %r1;"),
        "control: legal red rejected"
    );
    for illegal in [
        "ld.release.gpu.u32 %r1, [%rd1];",
        "ld.acq_rel.gpu.u32 %r1, [%rd1];",
        "ld.sc.gpu.u32 %r1, [%rd1];",
        "st.acquire.gpu.u32 [%rd1], %r1;",
        "st.sc.gpu.u32 [%rd1], %r1;",
        "red.acquire.gpu.add.u32 [%rd1], %r1;",
        "red.acq_rel.gpu.add.u32 [%rd1], %r1;",
        "atom.sc.gpu.add.u32 %r1, [%rd1], %r1;",
        "fence.relaxed.gpu;",
        "atom.relaxed.gpu.and.f32 %f1, [%rd1], %f1;",
        "atom.relaxed.gpu.min.f32 %f1, [%rd1], %f1;",
        "atom.relaxed.gpu.inc.s32 %r1, [%rd1], %r1;",
        "atom.relaxed.gpu.add.s64 %rd2, [%rd1], %rd2;",
    ] {
        assert!(
            !ptxas_accepts(illegal),
            "ptxas accepts `{illegal}`, which the types reject"
        );
    }
}

/// The half-precision rows (issue #13 item 7): what the types reject ptxas rejects (no `.add`
/// without `.noftz`, no scalar `min`/`max`/`and`/`exch` on a half), and the `bf16` floor sm_90
/// is enforced (`f16`'s sm_70 is below ptxas 13.0's oldest target, sm_75: it assembles there).
#[test]
fn ptxas_agrees_on_the_half_precision_rows() {
    let h = |i: &str| format!("{{\n.reg .b16 %h<4>;\n{i}\n}}");
    assert!(
        ptxas_accepts(&h("atom.relaxed.gpu.add.noftz.f16 %h1, [%rd1], %h2;")),
        "control: legal atom.add.noftz.f16 rejected"
    );
    for illegal in [
        "atom.relaxed.gpu.add.f16 %h1, [%rd1], %h2;",
        "red.relaxed.gpu.add.bf16 [%rd1], %h2;",
        "red.relaxed.gpu.add.f16x2 [%rd1], %r2;",
        "atom.relaxed.gpu.min.noftz.f16 %h1, [%rd1], %h2;",
        "atom.relaxed.gpu.exch.b16 %h1, [%rd1], %h2;",
        "atom.relaxed.gpu.and.b16 %h1, [%rd1], %h2;",
    ] {
        assert!(
            !ptxas_accepts(&h(illegal)),
            "ptxas accepts `{illegal}`, which the types reject"
        );
    }
    for insn in [
        "atom.relaxed.gpu.add.noftz.bf16 %h1, [%rd1], %h2;",
        "atom.relaxed.gpu.add.noftz.bf16x2 %r1, [%rd1], %r2;",
        "red.release.gpu.add.noftz.bf16 [%rd1], %h2;",
    ] {
        assert!(ptxas_accepts_on("sm_90", &h(insn)), "`{insn}` on sm_90");
        assert!(
            !ptxas_accepts_on("sm_89", &h(insn)),
            "ptxas accepts `{insn}` below its floor sm_90"
        );
    }
    for insn in [
        "atom.relaxed.gpu.add.noftz.f16 %h1, [%rd1], %h2;",
        "atom.relaxed.gpu.add.noftz.f16x2 %r1, [%rd1], %r2;",
        "atom.relaxed.gpu.cas.b16 %h1, [%rd1], %h2, %h3;",
    ] {
        assert!(ptxas_accepts_on("sm_75", &h(insn)), "`{insn}` on sm_75");
    }
}

/// The `.b128` rows (issue #13 item 7): ptxas rejects the 128-bit forms the types reject (no
/// `atom.add.b128`, no 128-bit `red`), enforces `atom.{cas,exch}.b128`'s floor sm_90, and takes
/// the `ld`/`st` forms on sm_75 (their sm_70 floor is below ptxas 13.0's oldest target).
#[test]
fn ptxas_agrees_on_the_b128_rows() {
    let q = |i: &str| format!("{{\n.reg .b128 q, qc, qd;\n{i}\n}}");
    for illegal in [
        "atom.relaxed.gpu.add.b128 qd, [%rd1], q;",
        "atom.relaxed.gpu.or.b128 qd, [%rd1], q;",
        "red.relaxed.gpu.exch.b128 [%rd1], q;",
    ] {
        assert!(
            !ptxas_accepts(&q(illegal)),
            "ptxas accepts `{illegal}`, which the types reject"
        );
    }
    for insn in [
        "atom.relaxed.gpu.cas.b128 qd, [%rd1], q, qc;",
        "atom.acq_rel.sys.global.exch.b128 qd, [%rd1], q;",
    ] {
        assert!(ptxas_accepts_on("sm_90", &q(insn)), "`{insn}` on sm_90");
        assert!(
            !ptxas_accepts_on("sm_89", &q(insn)),
            "ptxas accepts `{insn}` below its floor sm_90"
        );
    }
    for insn in [
        "ld.acquire.gpu.b128 q, [%rd1];",
        "st.release.gpu.global.b128 [%rd1], q;",
        "ld.b128 q, [%rd1];",
    ] {
        assert!(ptxas_accepts_on("sm_75", &q(insn)), "`{insn}` on sm_75");
    }
}

/// The vector rows (issue #13 item 7): ptxas takes the strong `.v2`/`.v4` forms, rejects a
/// vector `ld.release`/`st.acquire` (as the types do), and rejects the 256-bit forms (`.v8.b32`,
/// `.v4.b64`) at this crate's PTX 8.6 — they are PTX 8.8, which is why the table stops at 128 bits.
#[test]
fn ptxas_agrees_on_the_vector_rows() {
    for insn in [
        "ld.acquire.gpu.global.v4.u32 {%r1, %r2, %r3, %r0}, [%rd1];",
        "st.release.sys.v2.u64 [%rd1], {%rd2, %rd3};",
        "ld.relaxed.cluster.shared::cluster.v2.b64 {%rd2, %rd3}, [%rd1];",
    ] {
        assert!(ptxas_accepts(insn), "ptxas rejects `{insn}`");
    }
    for illegal in [
        "ld.release.gpu.v4.u32 {%r1, %r2, %r3, %r0}, [%rd1];",
        "st.acquire.gpu.v2.u64 [%rd1], {%rd2, %rd3};",
        "ld.relaxed.gpu.v4.u64 {%rd0, %rd1, %rd2, %rd3}, [%rd1];",
        "ld.relaxed.gpu.v8.u32 {%r0, %r1, %r2, %r3, %r0, %r1, %r2, %r3}, [%rd1];",
        // The vector atomics: `.global`/generic only, floats only.
        "atom.relaxed.gpu.shared::cta.add.v4.f32 {%f0, %f1, %f2, %f0}, [%rd1], {%f0, %f1, %f2, %f0};",
        "red.relaxed.gpu.shared::cluster.add.v2.f32 [%rd1], {%f0, %f1};",
        "atom.relaxed.gpu.global.add.v2.u32 {%r0, %r1}, [%rd1], {%r2, %r3};",
    ] {
        assert!(
            !ptxas_accepts(illegal),
            "ptxas accepts `{illegal}`, which the table does not have"
        );
    }
    for insn in [
        "atom.acq_rel.gpu.global.add.v4.f32 {%f0, %f1, %f2, %f0}, [%rd1], {%f0, %f1, %f2, %f0};",
        "red.release.sys.add.v2.f32 [%rd1], {%f0, %f1};",
    ] {
        assert!(ptxas_accepts_on("sm_90", insn), "`{insn}` on sm_90");
        assert!(
            !ptxas_accepts_on("sm_89", insn),
            "ptxas accepts `{insn}` below its floor sm_90"
        );
    }
}

/// The sm_90 half-precision vector atomics (issue #13 item 7): every `.op` × `.vec` × type cell
/// of the §9.7.13.5/6 table that the crate has assembles at its floors (PTX 8.1, sm_90) and is
/// rejected below each (sm_89; PTX 8.0); ptxas rejects what the types reject: `.v8` of a packed
/// pair, a `.shared` vector atom, an `.f16` vector without `.noftz`, and a scalar `min`/`max`
/// on a half (the grammar's `.min`/`.max.noftz` are vector forms only).
#[test]
fn ptxas_agrees_on_the_half_vector_rows() {
    let pro = ".reg .b16 %h<8>;\n.reg .b16 %hd<8>;\n.reg .b32 %r<4>;\n.reg .b32 %x<4>;\n\
               .reg .b64 %rd<4>;\nld.param.u64 %rd1, [p];";
    let h = |n: usize, r: &str| {
        let l: Vec<String> = (0..n).map(|k| format!("%{r}{k}")).collect();
        format!("{{{}}}", l.join(", "))
    };
    let mut cells = Vec::new();
    for op in ["add", "min", "max"] {
        for t in ["f16", "bf16"] {
            for n in [2, 4, 8] {
                cells.push(format!(
                    "atom.relaxed.gpu.global.{op}.noftz.v{n}.{t} {}, [%rd1], {};",
                    h(n, "hd"),
                    h(n, "h")
                ));
                cells.push(format!(
                    "red.release.sys.{op}.noftz.v{n}.{t} [%rd1], {};",
                    h(n, "h")
                ));
            }
        }
        for t in ["f16x2", "bf16x2"] {
            for n in [2, 4] {
                cells.push(format!(
                    "atom.acq_rel.cluster.{op}.noftz.v{n}.{t} {}, [%rd1], {};",
                    h(n, "x"),
                    h(n, "r")
                ));
                cells.push(format!(
                    "red.relaxed.cta.global.{op}.noftz.v{n}.{t} [%rd1], {};",
                    h(n, "r")
                ));
            }
        }
    }
    assert_eq!(cells.len(), 3 * (2 * 3 + 2 * 2) * 2);
    for insn in &cells {
        assert!(
            ptxas_accepts_in("sm_90", "8.1", pro, insn),
            "ptxas rejects `{insn}`"
        );
        assert!(
            !ptxas_accepts_in("sm_89", "8.1", pro, insn),
            "ptxas accepts `{insn}` below its floor sm_90"
        );
        assert!(
            !ptxas_accepts_in("sm_90", "8.0", pro, insn),
            "ptxas accepts `{insn}` below its floor PTX 8.1"
        );
    }
    for illegal in [
        "atom.relaxed.gpu.global.add.noftz.v8.f16x2 {%x0, %x1, %x2, %x3, %x0, %x1, %x2, %x3}, [%rd1], {%r0, %r1, %r2, %r3, %r0, %r1, %r2, %r3};",
        "red.relaxed.gpu.max.noftz.v8.bf16x2 [%rd1], {%r0, %r1, %r2, %r3, %r0, %r1, %r2, %r3};",
        "atom.relaxed.gpu.shared::cta.add.noftz.v2.f16 {%hd0, %hd1}, [%rd1], {%h0, %h1};",
        "red.relaxed.gpu.shared::cluster.min.noftz.v4.bf16 [%rd1], {%h0, %h1, %h2, %h3};",
        "atom.relaxed.gpu.global.add.v2.f16 {%hd0, %hd1}, [%rd1], {%h0, %h1};",
        "atom.relaxed.gpu.global.min.noftz.f16 %hd0, [%rd1], %h0;",
        "red.relaxed.gpu.global.max.noftz.bf16x2 [%rd1], %r0;",
    ] {
        assert!(
            !ptxas_accepts_in("sm_90", "8.6", pro, illegal),
            "ptxas accepts `{illegal}`, which the table does not have"
        );
    }
}

/// The 16-bit integers (issue #13 item 7): ptxas takes the `.u16`/`.s16` strong accesses and
/// `atom.cas.b16` (PTX 6.3 / sm_70: assembled at sm_75, ptxas's oldest target), and rejects the 16-bit
/// atoms the table lacks: `exch.b16` and `add.u16` (the scalar `.type` set has no 16-bit type).
#[test]
fn ptxas_agrees_on_the_16_bit_rows() {
    let pro = ".reg .b16 %h<4>;\n.reg .b64 %rd<4>;\nld.param.u64 %rd1, [p];";
    for insn in [
        "ld.acquire.gpu.global.u16 %h0, [%rd1];",
        "st.release.sys.shared::cta.s16 [%rd1], %h1;",
        "atom.acq_rel.gpu.cas.b16 %h0, [%rd1], %h1, %h2;",
    ] {
        assert!(
            ptxas_accepts_in("sm_90", "8.6", pro, insn),
            "ptxas rejects `{insn}`"
        );
    }
    // The floor (PTX 6.3 / sm_70) is below ptxas 13.0's oldest target, sm_75, which itself
    // needs PTX 6.3: ptxas cannot reject `cas.b16` below it (host/tests/floors.rs assembles the
    // row at sm_75 / 6.3).
    let cas = "atom.global.cas.b16 %h0, [%rd1], %h1, %h2;";
    assert!(
        ptxas_accepts_in("sm_75", "6.3", pro, cas),
        "`{cas}` at sm_75 / 6.3"
    );
    for illegal in [
        "atom.relaxed.gpu.exch.b16 %h0, [%rd1], %h1;",
        "atom.relaxed.gpu.add.u16 %h0, [%rd1], %h1;",
        "red.relaxed.gpu.add.u16 [%rd1], %h1;",
    ] {
        assert!(
            !ptxas_accepts_in("sm_90", "8.6", pro, illegal),
            "ptxas accepts `{illegal}`, which the table does not have"
        );
    }
}

/// The signed and half-element strong vectors (issue #13 item 7): ptxas takes `.s32`/`.s64`/
/// `.s16`/`.u16` and `.b16`/`.b32` (half) vectors with a `.sem`, and rejects a half vector
/// spelled `.f16` (the `ld`/`st` `.type` set has no `.f16`: the table moves halves by their bits)
/// and the 256-bit `.v4.s64` (PTX 8.8).
#[test]
fn ptxas_agrees_on_the_signed_and_half_vector_rows() {
    let pro = ".reg .b16 %h<4>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\nld.param.u64 %rd1, [p];";
    for insn in [
        "ld.acquire.gpu.global.v4.s32 {%r0, %r1, %r2, %r3}, [%rd1];",
        "st.release.sys.v2.s64 [%rd1], {%rd2, %rd3};",
        "ld.relaxed.cluster.shared::cluster.v4.s16 {%h0, %h1, %h2, %h3}, [%rd1];",
        "st.relaxed.cta.v2.u16 [%rd1], {%h0, %h1};",
        "ld.acquire.sys.v4.b16 {%h0, %h1, %h2, %h3}, [%rd1];",
        "st.release.gpu.global.v4.b32 [%rd1], {%r0, %r1, %r2, %r3};",
    ] {
        assert!(
            ptxas_accepts_in("sm_90", "8.6", pro, insn),
            "ptxas rejects `{insn}`"
        );
    }
    for illegal in [
        "ld.relaxed.gpu.v2.f16 {%h0, %h1}, [%rd1];",
        "ld.relaxed.gpu.v4.s64 {%rd0, %rd1, %rd2, %rd3}, [%rd1];",
    ] {
        assert!(
            !ptxas_accepts_in("sm_90", "8.6", pro, illegal),
            "ptxas accepts `{illegal}`, which the table does not have"
        );
    }
}
