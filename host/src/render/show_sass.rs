//! Rendering of the SASS cost table, and `ptx-sync show`'s SASS column for every catalog row.
//!
//! `ptx-sync show` uses the same mechanism for every catalog row ([`show_sass`]): the `u32`
//! accesses through the cost table's wiring ([`crate::analysis::costs`]), the other types and `cas` through the same wiring with
//! `.b32`/`.b64`/float registers and a baseline of their own width, and the barrier, cluster, mbarrier,
//! proxy-fence and async-copy rows through [`async_instr`] (the text their `asm!` pastes, the
//! operands bound to shared registers by name, each
//! output stored or guarding a store, each entry compared with a baseline that has the same
//! operands and stores but not the instruction). One ptxas call assembles them all; an entry
//! ptxas rejects is reported on its row and the rest assembled again without it.

use crate::analysis::costs::*;
use crate::sass;
use ptx_sync::catalog::{Family, Variant};
use std::fmt::Write as _;
use std::path::Path;

/// The table as Markdown: `| PTX | SASS |`, one row per variant; `(none)` where ptxas emits
/// nothing beyond the baseline.
pub fn render_costs(rows: &[CostRow]) -> String {
    let w = rows
        .iter()
        .map(|r| r.ptx.len() + 2)
        .max()
        .unwrap_or(5)
        .max(5);
    let mut s = format!(
        "| {:<w$} | SASS ({ARCH}, beyond the weak-access baseline) |\n",
        "PTX"
    );
    let _ = writeln!(s, "|{}|{}|", "-".repeat(w + 2), "-".repeat(48));
    for r in rows {
        let sass = if r.sass.is_empty() {
            "(none)".to_string()
        } else {
            r.sass.join(" ")
        };
        let _ = writeln!(s, "| {:<w$} | {sass} |", format!("`{}`", r.ptx));
    }
    s
}

/// The committed snapshot `docs/fence-costs-sass.txt`: a header naming the ptxas that produced
/// it, then [`render_costs`].
pub fn snapshot_text(tools: &Path) -> Result<String, String> {
    let rows = cost_table(tools)?;
    Ok(format!(
        "# SASS of each fence and ordered atomic, `ptxas -arch={ARCH} -O3`\n\
         # ptxas: {}\n\
         # Made by ptx_sync_host::costs::snapshot_text; regenerate: \
         PTX_SYNC_BLESS=1 cargo test -p ptx-sync-host --test costs\n\n{}",
        sass::tool_version(tools, "ptxas")?,
        render_costs(&rows)
    ))
}

// ---------------------------------------------------------------------------------------------
// `ptx-sync show`: the same wiring, extended to every row — the accesses of every type and state
// space, and the barrier / cluster / mbarrier / proxy-fence / async-copy rows.

/// What `ptx-sync show` prints in a row's SASS column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShownSass {
    /// The opcodes the row's entry has beyond its family's baseline, in program order (empty:
    /// ptxas emits nothing for it).
    Opcodes(Vec<String>),
    /// The row has no wrapper; why (`""`: an access type the u32 cost wiring does not take).
    NotWired(&'static str),
    /// The row's wrapper did not assemble: ptxas's message for it.
    AsmFailed(String),
}

impl ShownSass {
    /// The SASS column text: the opcodes, `(none)`, `-`, `- (why)` or `ptxas: message`.
    pub fn column(&self) -> String {
        match self {
            ShownSass::Opcodes(o) if o.is_empty() => "(none)".into(),
            ShownSass::Opcodes(o) => o.join(" "),
            ShownSass::NotWired("") => "-".into(),
            ShownSass::NotWired(why) => format!("- ({why})"),
            ShownSass::AsmFailed(e) => format!("ptxas: {e}"),
        }
    }
}

/// The registers and operands of every async entry (ptxas drops what an entry does not use):
///
/// * `%rd1` the `.param` pointer (generic; also the tensor-map address), `%rd2` it as a
///   `.global` address, `%rd3` an mbarrier state (loaded, so that ptxas cannot fold it);
/// * `%r1` the mbarrier (`ps_smem`, a 32-bit `.shared` address), `%r2` a shared buffer 1 KiB
///   behind it, `%r3 = %tid.x`: counts, tx-bytes, parities, sizes, coordinates, ranks, hints;
/// * `%rs1` a 16-bit multicast mask, `%p1` an input predicate;
/// * outputs `%r4`, `%r5`, `%rd4`, `%p2`: [`async_sinks`] stores them (a predicate guards a
///   store), so that ptxas keeps the instruction.
///
/// [`async_reg`] binds each placeholder of a row's operands to one of them.
const ASYNC_WIRING: &str = "\t.reg .pred %p<3>;\n\t.reg .b16 %rs<2>;\n\t.reg .b32 %r<6>;\n\
                            \t.reg .b64 %rd<5>;\n\tld.param.u64 %rd1, [p];\n\
                            \tcvta.to.global.u64 %rd2, %rd1;\n\tld.global.u64 %rd3, [%rd2];\n\
                            \tmov.u32 %r1, ps_smem;\n\tadd.u32 %r2, %r1, 1024;\n\
                            \tmov.u32 %r3, %tid.x;\n\tmov.b16 %rs1, 3;\n\
                            \tsetp.ne.u32 %p1, %r3, 0;\n";

/// The output registers of the async wiring: register, how the baseline defines it, its store.
const ASYNC_OUTPUTS: [(&str, &str, &str); 4] = [
    (
        "%r4",
        "\tmov.u32 %r4, %r3;\n",
        "\tst.global.u32 [%rd2+16], %r4;\n",
    ),
    (
        "%r5",
        "\tadd.u32 %r5, %r3, 1;\n",
        "\tst.global.u32 [%rd2+20], %r5;\n",
    ),
    (
        "%rd4",
        "\tcvt.u64.u32 %rd4, %r3;\n",
        "\tst.global.u64 [%rd2+24], %rd4;\n",
    ),
    (
        "%p2",
        "\tsetp.eq.u32 %p2, %r3, 1;\n",
        "\t@%p2 st.global.u32 [%rd2+32], %r3;\n",
    ),
];

/// The input registers of the async wiring and how a baseline consumes each.
const ASYNC_INPUTS: [(&str, &str); 7] = [
    ("%rd1", "\tst.global.u64 [%rd2+40], %rd1;\n"),
    ("%rd3", "\tst.global.u64 [%rd2+48], %rd3;\n"),
    ("%r1", "\tst.global.u32 [%rd2+56], %r1;\n"),
    ("%r2", "\tst.global.u32 [%rd2+60], %r2;\n"),
    ("%r3", "\tst.global.u32 [%rd2+64], %r3;\n"),
    ("%rs1", "\tst.global.u16 [%rd2+68], %rs1;\n"),
    ("%p1", "\t@%p1 st.global.u32 [%rd2+72], %r3;\n"),
];

/// The stores that keep the outputs `instr` writes live.
fn async_sinks(instr: &str) -> String {
    ASYNC_OUTPUTS
        .iter()
        .filter(|(r, ..)| instr.contains(r))
        .map(|(.., st)| *st)
        .collect()
}

/// The baseline of an async instruction: the wiring, each input it reads consumed by a plain
/// store, its outputs defined by plain moves and stored as the entry stores them. What the entry
/// has beyond it is the instruction (plus the moves of operands into uniform registers that some
/// instructions need).
fn async_baseline(instr: &str) -> String {
    let mut b = String::from(ASYNC_WIRING);
    let outs: Vec<&str> = ASYNC_OUTPUTS
        .iter()
        .map(|(r, ..)| *r)
        .filter(|r| instr.contains(r))
        .collect();
    for (r, consume) in ASYNC_INPUTS {
        if instr.contains(r) {
            b.push_str(consume);
        }
    }
    for (r, def, _) in ASYNC_OUTPUTS {
        if outs.contains(&r) {
            b.push_str(def);
        }
    }
    b + &async_sinks(instr)
}

/// The register of the `ASYNC_WIRING` that an async placeholder binds to (the placeholders
/// and their `asm!` operand kinds are listed in the device crate's `instr.rs`, table `aops!`):
/// `.shared` addresses `%r1` (mbarrier) and `%r2` (copy buffer), 32-bit inputs `%r3`, 64-bit
/// inputs `%rd1` (addresses, pointers, tensor maps) and `%rd3` (an mbarrier state, a cache policy), the CTA mask
/// `%rs1`, outputs `%r4`/`%r5`/`%rd4`, an immediate `0`. `None`: not a placeholder of the table.
pub fn async_reg(name: &str) -> Option<&'static str> {
    Some(match name {
        "a" | "b" => "%r1",
        "sd" | "ss" => "%r2",
        "n" | "id" | "c" | "r" | "tx" | "ns" | "ph" | "mask" | "z" | "t" | "f" | "c0" | "c1"
        | "c2" | "c3" | "c4" => "%r3",
        "v" => "%r3",
        "a64" | "gp" | "m" => "%rd1",
        "x" | "pol" | "v64" | "hi" => "%rd3",
        "lo" => "%rd1",
        // st.async / red.async values (`{v}` above)
        "v0" | "v1" | "v2" | "v3" => "%r3",
        "w" | "w0" | "w1" => "%rd3",
        "k" | "h" | "o0" | "o1" | "o2" => "%rs1",
        "d" | "l" => "%r4",
        "e" => "%r5",
        "s" | "d64" => "%rd4",
        "imm" => "0",
        _ => return None,
    })
}

/// The text the device `asm!` of an async row pastes — [`Variant::asm_pre`], the mnemonic, the
/// row's [`operands`](Variant::operands), `;`, [`Variant::asm_post`] — with each `{placeholder}`
/// bound by [`async_reg`] and `{{`/`}}` as `{`/`}`. `Err`: the row carries no operands, or a
/// placeholder the wiring does not bind.
pub fn async_instr(v: &Variant) -> Result<String, &'static str> {
    let ops = v.operands.ok_or("the row carries no operands")?;
    let tmpl = format!("{}{}{ops};{}", v.asm_pre, v.ptx, v.asm_post);
    let mut out = String::with_capacity(tmpl.len());
    let mut it = tmpl.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            '{' if it.peek() == Some(&'{') => {
                it.next();
                out.push('{');
            }
            '}' if it.peek() == Some(&'}') => {
                it.next();
                out.push('}');
            }
            '{' => {
                let name: String = it.by_ref().take_while(|&c| c != '}').collect();
                out.push_str(
                    async_reg(&name).ok_or("a placeholder the async wiring does not bind")?,
                );
            }
            c => out.push(c),
        }
    }
    Ok(out)
}

/// The baseline a `show` entry is compared with.
enum Baseline {
    /// The cost table's baseline of a family (`ps_baseline_ld`).
    Family(Family),
    /// An entry body of its own (async rows).
    Body(String),
}

/// The entry body of a row for `show` and its baseline; `Err` says why the row is not wrapped.
fn show_body(v: &Variant) -> Result<(String, Baseline), &'static str> {
    // A row outside the access families: its own `asm!` text, on the async wiring.
    if !FAMILIES.contains(&v.family) {
        let i = async_instr(v)?;
        let body = format!("{ASYNC_WIRING}\t{i}\n{}", async_sinks(&i));
        return Ok((body, Baseline::Body(async_baseline(&i))));
    }
    let family = v.family;
    if v.operands.is_none() {
        return Err("the row carries no operands");
    }
    let cost_wired = match family {
        Family::Fence => true,
        Family::Atom => v.ty == "u32" && v.op != "cas",
        _ => v.ty == "u32",
    };
    if cost_wired {
        return Ok((body(family, Some(v)), Baseline::Family(family)));
    }
    let (b, base) = typed_body(v)?;
    Ok((b, Baseline::Body(base)))
}

/// Every other `ld`/`st`/`atom`/`red` row (any scalar type, `cas`): the same per-thread address
/// as [`WIRING`], `.b32`/`.b64` registers by the type's width (PTX lets a bit-size register stand
/// for any type of its size), and a baseline of the same width with weak `ld`/`st`.
fn typed_body(v: &Variant) -> Result<(String, String), &'static str> {
    if v.ty == "u128" {
        return b128_body(v);
    }
    if let Some(e) = vector_elem(v.ty) {
        return vector_body(v, e);
    }
    // `ld`/`st`/`red` on floats want float registers; `atom.exch`/`cas` on floats are `.bN`.
    let float_regs = v.ty.starts_with('f') && !matches!(v.op, "exch" | "cas");
    let (bits, dst, val) = match (v.ty, float_regs) {
        ("f64", true) => ("f64", "%fd1", "%fd2"),
        ("f32", true) => ("f32", "%f1", "%f2"),
        ("u64" | "i64" | "f64", _) => ("b64", "%rd5", "%rd4"),
        // The half types of `ptx_sync::atomic::half` (a `.f16`/`.bf16` lives in a `.b16`).
        ("F16" | "Bf16", _) => ("b16", "%rs1", "%rs2"),
        ("u16" | "i16", _) => ("b16", "%rs1", "%rs2"),
        ("F16x2" | "Bf16x2", _) => ("b32", "%x1", "%x2"),
        _ => ("b32", "%r1", "%r2"),
    };
    let wiring = "\t.reg .u64 %rd<6>;\n\t.reg .u32 %r<3>;\n\t.reg .f32 %f<3>;\n\t.reg .f64 %fd<3>;\n\
                  \t.reg .b16 %rs<3>;\n\t.reg .b32 %x<3>;\n\
                  \tld.param.u64 %rd1, [p];\n\tmov.u32 %r2, %tid.x;\n\tmul.wide.u32 %rd2, %r2, 16;\n\
                  \tadd.u64 %rd3, %rd1, %rd2;\n\tcvt.u64.u32 %rd4, %r2;\n\
                  \tcvt.rn.f32.u32 %f2, %r2;\n\tcvt.rn.f64.u32 %fd2, %r2;\n\tcvt.u16.u32 %rs2, %r2;\n\tmov.b32 %x2, %r2;\n";
    let sink = format!("\tst.{bits} [%rd3+8], {dst};\n");
    let i = row_instr(v, dst, val, "%rd3").ok_or("the row carries no operands")?;
    let (body, base) = match v.family {
        Family::Ld | Family::Atom => (
            format!("\t{i}\n{sink}"),
            format!("\tld.{bits} {dst}, [%rd3];\n{sink}"),
        ),
        Family::St | Family::Red => (format!("\t{i}\n"), format!("\tst.{bits} [%rd3], {val};\n")),
        _ => return Err(""),
    };
    Ok((format!("{wiring}{body}"), format!("{wiring}{base}")))
}

/// A `.b128` row (`ptx_sync::atomic::b128`): the row's whole `asm!` block (it declares its
/// `.b128` registers and packs them from 64-bit halves with `mov.b128`), `{lo}`/`{hi}` bound to
/// `%rd5`/`%rd6` and the operands' halves (`{blo}`, `{bhi}`, `{clo}`, `{chi}`) to `%rd4`; the
/// baseline moves the same halves with a weak `ld`/`st.v2.b64`.
fn b128_body(v: &Variant) -> Result<(String, String), &'static str> {
    let ops = v.operands.ok_or("the row carries no operands")?;
    let wiring = "\t.reg .u64 %rd<7>;\n\t.reg .u32 %r<3>;\n\tld.param.u64 %rd1, [p];\n\
                  \tmov.u32 %r2, %tid.x;\n\tmul.wide.u32 %rd2, %r2, 32;\n\
                  \tadd.u64 %rd3, %rd1, %rd2;\n\tcvt.u64.u32 %rd4, %r2;\n";
    let mut i = format!("{}{}{ops};{}", v.asm_pre, v.ptx, v.asm_post);
    for (ph, reg) in [
        ("{p}", "%rd3"),
        ("{lo}", "%rd5"),
        ("{hi}", "%rd6"),
        ("{blo}", "%rd4"),
        ("{bhi}", "%rd4"),
        ("{clo}", "%rd4"),
        ("{chi}", "%rd4"),
    ] {
        i = i.replace(ph, reg);
    }
    let i = i.replace("{{", "{").replace("}}", "}");
    let sink = "\tst.v2.b64 [%rd3+16], {%rd5, %rd6};\n";
    let (body, base) = match v.family {
        Family::Ld | Family::Atom => (
            format!("\t{i}\n{sink}"),
            format!("\tld.v2.b64 {{%rd5, %rd6}}, [%rd3];\n{sink}"),
        ),
        Family::St => (
            format!("\t{i}\n"),
            "\tst.v2.b64 [%rd3], {%rd4, %rd4};\n".to_string(),
        ),
        _ => return Err("no .b128 form of the family"),
    };
    Ok((format!("{wiring}{body}"), format!("{wiring}{base}")))
}

/// The element `(count, PTX type, how a `%r2 = tid.x` becomes one)` of a vector row's type
/// (`ptx_sync::atomic::vector`), or `None`.
fn vector_elem(ty: &str) -> Option<(usize, &'static str, &'static str)> {
    Some(match ty {
        "V2U32" => (2, "u32", "mov.u32"),
        "V4U32" => (4, "u32", "mov.u32"),
        "V2F32" => (2, "f32", "cvt.rn.f32.u32"),
        "V4F32" => (4, "f32", "cvt.rn.f32.u32"),
        "V2U64" => (2, "u64", "cvt.u64.u32"),
        "V2F64" => (2, "f64", "cvt.rn.f64.u32"),
        "V2I32" => (2, "s32", "mov.s32"),
        "V4I32" => (4, "s32", "mov.s32"),
        "V2I64" => (2, "s64", "cvt.s64.u32"),
        "V2U16" => (2, "u16", "cvt.u16.u32"),
        "V4U16" => (4, "u16", "cvt.u16.u32"),
        "V2I16" => (2, "s16", "cvt.s16.u32"),
        "V4I16" => (4, "s16", "cvt.s16.u32"),
        // The half vectors (atom/red only): a `.f16`/`.bf16` in a `.b16`, a pair in a `.b32`.
        "V2F16" | "V2Bf16" => (2, "b16", "cvt.u16.u32"),
        "V4F16" | "V4Bf16" => (4, "b16", "cvt.u16.u32"),
        "V8F16" | "V8Bf16" => (8, "b16", "cvt.u16.u32"),
        "V2F16x2" | "V2Bf16x2" => (2, "b32", "mov.b32"),
        "V4F16x2" | "V4Bf16x2" => (4, "b32", "mov.b32"),
        _ => return None,
    })
}

/// A vector `ld`/`st` row: its register list `{v0}`… bound to `%ve1`… of the element type (a
/// store's values all `%ve1`, from `tid.x`), `{p}` to the per-thread address; the baseline is
/// the weak vector access of the same shape.
fn vector_body(
    v: &Variant,
    (n, ety, conv): (usize, &str, &str),
) -> Result<(String, String), &'static str> {
    let ops = v.operands.ok_or("the row carries no operands")?;
    let wiring = format!(
        "\t.reg .u64 %rd<4>;\n\t.reg .u32 %r<3>;\n\t.reg .{ety} %ve<9>;\n\t.reg .{ety} %vd<9>;\n\
         \tld.param.u64 %rd1, [p];\n\tmov.u32 %r2, %tid.x;\n\tmul.wide.u32 %rd2, %r2, 64;\n\
         \tadd.u64 %rd3, %rd1, %rd2;\n\t{conv} %ve1, %r2;\n"
    );
    let st = v.family != Family::Ld;
    let mut i = format!("{}{ops};", v.ptx).replace("{p}", "%rd3");
    for k in 0..8 {
        let reg = if st { 1 } else { k + 1 };
        i = i.replace(&format!("{{v{k}}}"), &format!("%ve{reg}"));
        // The vector atomics: `{d0}`… the old values, `{b0}`… the operand (all `%ve1`).
        i = i.replace(&format!("{{d{k}}}"), &format!("%vd{}", k + 1));
        i = i.replace(&format!("{{b{k}}}"), "%ve1");
    }
    let i = i.replace("{{", "{").replace("}}", "}");
    let list = |st: bool| {
        (1..=n)
            .map(|k| format!("%ve{}", if st { 1 } else { k }))
            .collect::<Vec<_>>()
            .join(", ")
    };
    // A weak vector access of the list `regs` at `[%rd3+off]`; eight halves as two `.v4` (the
    // `ld`/`st` `.vec` of §9.7.9.8 stops at `.v4` for 16-bit elements).
    let weak = |ld: bool, off: usize, regs: &str| {
        let one = |off: usize, regs: &str, n: usize| {
            if ld {
                format!("\tld.v{n}.{ety} {{{regs}}}, [%rd3+{off}];\n")
            } else {
                format!("\tst.v{n}.{ety} [%rd3+{off}], {{{regs}}};\n")
            }
        };
        if n == 8 {
            let r: Vec<&str> = regs.split(", ").collect();
            one(off, &r[..4].join(", "), 4) + &one(off + 8, &r[4..].join(", "), 4)
        } else {
            one(off, regs, n)
        }
    };
    let (body, base) = match v.family {
        Family::Ld => {
            let sink = format!("\tst.v{n}.{ety} [%rd3+32], {{{}}};\n", list(false));
            (
                format!("\t{i}\n{sink}"),
                format!("\tld.v{n}.{ety} {{{}}}, [%rd3];\n{sink}", list(false)),
            )
        }
        Family::St | Family::Red => (format!("\t{i}\n"), weak(false, 0, &list(true))),
        Family::Atom => {
            let d = (1..=n)
                .map(|k| format!("%vd{k}"))
                .collect::<Vec<_>>()
                .join(", ");
            let sink = weak(false, 32, &d);
            (
                format!("\t{i}\n{sink}"),
                format!("{}{sink}", weak(true, 0, &d)),
            )
        }
        _ => return Err("no vector form of the family"),
    };
    Ok((format!("{wiring}{body}"), format!("{wiring}{base}")))
}

/// One wrapped row of a show module.
struct Wrapped {
    row: usize,
    entry: String,
    baseline: String,
    /// The 1-based module lines the entry spans.
    lines: std::ops::RangeInclusive<usize>,
}

/// Appends `.entry name` with `body` to `m`; returns the lines it spans.
fn push_entry(
    m: &mut String,
    nl: &mut usize,
    name: &str,
    body: &str,
) -> std::ops::RangeInclusive<usize> {
    let e = format!("\n.visible .entry {name}(.param .u64 p)\n{{\n{body}\tret;\n}}\n");
    let first = *nl + 2;
    *nl += e.matches('\n').count();
    m.push_str(&e);
    first..=*nl
}

/// A PTX module wrapping each row of `rows` in an `.entry ps_row{i}` of its own, exactly as
/// `show` wraps it (the access wiring, or the async wiring of [`async_instr`]), at `.version
/// version` and `.target target` (`"8.6"`, `"sm_90"`), with no baseline: what a floor check
/// hands ptxas. Returns the module and, per row, the 1-based lines its entry spans (`None`: the
/// row is not wrapped, [`ShownSass::NotWired`]), to match with [`ptxas_errors`].
///
/// ```
/// use ptx_sync::catalog::for_each_variant;
/// let mut fence = Vec::new();
/// for_each_variant(|v| if v.ptx == "fence.sc.gpu" { fence.push(v) });
/// let (m, lines) = ptx_sync_host::costs::rows_module(&fence, "7.0", "sm_80");
/// assert!(m.starts_with("// ") && m.contains("\n.version 7.0\n.target sm_80\n"));
/// assert!(m.contains("\n.visible .entry ps_row0(.param .u64 p)\n{\n\tfence.sc.gpu;\n"));
/// assert_eq!(lines[0].clone().map(|l| m.lines().nth(l.start() - 1).unwrap().to_string()),
///            Some(".visible .entry ps_row0(.param .u64 p)".to_string()));
/// ```
pub fn rows_module(
    rows: &[Variant],
    version: &str,
    target: &str,
) -> (String, Vec<Option<std::ops::RangeInclusive<usize>>>) {
    let mut m = format!(
        "// ptx-sync-host costs::rows_module: catalog rows, one entry each.\n\
         .version {version}\n.target {target}\n.address_size 64\n\n\
         .shared .align 128 .b8 ps_smem[2048];\n"
    );
    let mut nl = m.matches('\n').count();
    let lines = rows
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let (body, _) = show_body(v).ok()?;
            Some(push_entry(&mut m, &mut nl, &format!("ps_row{i}"), &body))
        })
        .collect();
    (m, lines)
}

/// The `show` module of `rows` minus `skip`: the family baselines, then each wrapped row's entry
/// (and its own baseline, once per distinct body).
fn show_module(rows: &[Variant], skip: &[bool], target: &str) -> (String, Vec<Wrapped>) {
    // sm_100a: PTX 8.7 (the `st.async`/`red.async` `.release` rows need it; as its catalog build)
    let version = if target == "sm_100a" { "8.7" } else { "8.6" };
    let mut m = format!(
        "// Generated by ptx-sync-host costs::show_sass from the ptx-sync catalog.\n\
         .version {version}\n.target {target}\n.address_size 64\n\n.shared .align 128 .b8 ps_smem[2048];\n",
    );
    let mut nl = m.matches('\n').count();
    for f in FAMILIES {
        push_entry(&mut m, &mut nl, &baseline_entry(f), &body(f, None));
    }
    let mut names = std::collections::HashSet::new();
    let mut baselines: std::collections::HashMap<String, String> = Default::default();
    let mut out = Vec::new();
    for (i, v) in rows.iter().enumerate() {
        let Ok((b, base)) = show_body(v) else {
            continue;
        };
        if skip[i] {
            continue;
        }
        let baseline = match base {
            Baseline::Family(f) => baseline_entry(f),
            Baseline::Body(bb) => {
                let n = baselines.len();
                baselines
                    .entry(bb)
                    .or_insert_with_key(|bb| {
                        let name = baseline_entry(format!("async{n}"));
                        push_entry(&mut m, &mut nl, &name, bb);
                        name
                    })
                    .clone()
            }
        };
        // Rows may share a mnemonic (`bar.sync` with and without a count): the form names them.
        let mut name = entry_name(v.ptx);
        if !v.form.is_empty() {
            name = format!("{name}__{}", ident(&v.form.to_string()));
        }
        while !names.insert(name.clone()) {
            name.push('_');
        }
        let lines = push_entry(&mut m, &mut nl, &name, &b);
        out.push(Wrapped {
            row: i,
            entry: name,
            baseline,
            lines,
        });
    }
    (m, out)
}

/// The 1-based module lines ptxas names in `file, line N; error : message` lines, with the message.
///
/// ```
/// let e = "ptxas m.ptx, line 9; error   : Unknown modifier '.x'\nptxas fatal   : aborted";
/// assert_eq!(ptx_sync_host::costs::ptxas_errors(e), [(9, "Unknown modifier '.x'".to_string())]);
/// ```
pub fn ptxas_errors(err: &str) -> Vec<(usize, String)> {
    err.lines()
        .filter_map(|l| {
            let (_, rest) = l.split_once(", line ")?;
            let (n, msg) = rest.split_once(';')?;
            let (kind, msg) = msg.split_once(':')?;
            (kind.trim() == "error").then_some((n.trim().parse().ok()?, msg.trim().to_string()))
        })
        .collect()
}

/// The SASS column of every row for `ptx-sync show`: modules with one `.entry` per wrappable
/// row (the cost wiring for fences and u32 accesses, [`async_instr`] for the async families),
/// one `ptxas` and one `cuobjdump` call each. When ptxas rejects some entries, those rows get its
/// message ([`ShownSass::AsmFailed`]) and the others are assembled again without them. `Err`: the
/// tools failed for a reason no row explains.
pub fn show_sass(tools: &Path, rows: &[Variant]) -> Result<Vec<ShownSass>, String> {
    let mut shown: Vec<ShownSass> = rows
        .iter()
        .map(|v| {
            show_body(v)
                .err()
                .map_or(ShownSass::Opcodes(Vec::new()), ShownSass::NotWired)
        })
        .collect();
    // One module per target: the portable rows at sm_90 ([`ARCH`]), each architecture-specific
    // row (`Variant::arch`, or an sm_100 floor) at its own `Variant::target` (`sm_90a`, `sm_100a`).
    // A target with many rows (the whole catalog's sm_90 rows: ptxas takes half a minute on
    // them) is cut into consecutive parts, one per core: each entry assembles alone (its
    // opcodes do not depend on the other entries of the module), so the parts run side by side.
    let mut targets: Vec<&str> = rows.iter().map(|v| v.target()).collect();
    targets.sort_unstable();
    targets.dedup();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut jobs: Vec<(&str, Vec<usize>)> = Vec::new();
    for target in targets {
        let of_target: Vec<usize> = (0..rows.len())
            .filter(|&i| rows[i].target() == target)
            .collect();
        let parts = (of_target.len() / SPLIT_ROWS).clamp(1, cores.min(MAX_PARTS));
        for part in of_target.chunks(of_target.len().div_ceil(parts)) {
            jobs.push((target, part.to_vec()));
        }
    }
    let done: Vec<Result<Vec<(usize, ShownSass)>, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = jobs
            .into_iter()
            .map(|(target, part)| {
                let mut local = shown.clone();
                s.spawn(move || {
                    let mut skip = vec![true; rows.len()];
                    for &i in &part {
                        skip[i] = false;
                    }
                    show_sass_at(tools, rows, skip, target, &mut local)?;
                    Ok(part
                        .into_iter()
                        .map(|i| (i, std::mem::replace(&mut local[i], ShownSass::NotWired(""))))
                        .collect())
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    for part in done {
        for (i, r) in part? {
            shown[i] = r;
        }
    }
    Ok(shown)
}

/// A target's rows are cut into parts of at least this many rows (one part per core, at most
/// [`MAX_PARTS`]): ptxas assembles ~350 rows a second, and each part repeats the baselines.
const SPLIT_ROWS: usize = 1000;
const MAX_PARTS: usize = 8;

/// The rows not in `skip`, assembled for `target` (`ptxas -arch=target`) into `shown`.
fn show_sass_at(
    tools: &Path,
    rows: &[Variant],
    mut skip: Vec<bool>,
    target: &str,
    shown: &mut [ShownSass],
) -> Result<(), String> {
    loop {
        let (module, wrapped) = show_module(rows, &skip, target);
        if wrapped.is_empty() {
            return Ok(());
        }
        let dump = match sass::sass_of_ptx(tools, &module, target) {
            Ok(d) => d,
            Err(e) => {
                let mut blamed = false;
                for (line, msg) in ptxas_errors(&e) {
                    if let Some(w) = wrapped.iter().find(|w| w.lines.contains(&line)) {
                        if !skip[w.row] {
                            skip[w.row] = true;
                            shown[w.row] = ShownSass::AsmFailed(msg);
                            blamed = true;
                        }
                    }
                }
                if blamed {
                    continue;
                }
                return Err(e);
            }
        };
        let funcs = sass::parse_functions(&dump);
        // The opcodes without padding: `NOP`, and what ptxas guards with `@!PT` (never executed,
        // e.g. the `@!PT LDS RZ, [RZ]` it puts before `LDGSTS`).
        let get = |n: &str| {
            let f = funcs.iter().find(|f| f.name == n)?;
            let live = f
                .instrs
                .iter()
                .filter(|i| i.opcode != "NOP" && i.pred.as_deref() != Some("!PT"));
            Some(live.map(|i| i.opcode.as_str()).collect::<Vec<_>>())
        };
        for w in &wrapped {
            shown[w.row] = match (get(&w.entry), get(&w.baseline)) {
                (Some(mine), Some(base)) => ShownSass::Opcodes(
                    sass::minus(&mine, &base)
                        .into_iter()
                        .map(String::from)
                        .collect(),
                ),
                _ => ShownSass::AsmFailed(format!("{} missing from the cuobjdump output", w.entry)),
            };
        }
        return Ok(());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptx_sync::catalog::for_each_variant;

    fn async_rows() -> Vec<Variant> {
        let mut v = Vec::new();
        for_each_variant(|x| {
            if !FAMILIES.contains(&x.family) {
                v.push(x);
            }
        });
        v
    }

    #[test]
    fn every_async_row_carries_its_operands() {
        let rows = async_rows();
        assert!(rows.len() > 100, "{}", rows.len());
        for v in &rows {
            assert!(v.operands.is_some(), "{} ({}): no operands", v.ptx, v.form);
            let t = async_instr(v).unwrap_or_else(|e| panic!("{}: {e}", v.ptx));
            assert!(t.contains(v.ptx), "{t}");
            assert!(!t.contains("{{") && !t.contains("}}"), "{t}");
            assert!(show_body(v).is_ok(), "{}", v.ptx);
        }
    }

    #[test]
    fn an_unknown_placeholder_or_no_operands_is_not_wired() {
        let v = Variant {
            ptx: "mbarrier.inval.shared::cta.b64",
            operands: Some(" [{nosuch}]"),
            ..Variant::of(Family::Mbarrier)
        };
        assert!(async_instr(&v).unwrap_err().contains("does not bind"));
        let none = Variant {
            operands: None,
            ..v
        };
        assert!(async_instr(&none).unwrap_err().contains("no operands"));
    }

    /// The instruction `show` assembles for a row, written here from the PTX ISA grammar of each
    /// instruction and the wiring's registers (`%r1` mbarrier, `%r2` buffer, `%r3` 32-bit inputs,
    /// `%rd1` pointers, `%rd3` a state, `%rs1` the mask, `%r4`/`%rd4` outputs), including the
    /// block the device `asm!` wraps it in.
    #[test]
    fn async_instructions_follow_the_device_asm() {
        let t = |ptx: &str, extra: &str| {
            let mut r = None;
            for_each_variant(|x| {
                if x.ptx == ptx && x.form.to_string() == extra {
                    r = Some(async_instr(&x).unwrap());
                }
            });
            r.unwrap_or_else(|| panic!("no row {ptx} {extra}"))
        };
        assert_eq!(
            t("mbarrier.init.shared::cta.b64", "count"),
            "mbarrier.init.shared::cta.b64 [%r1], %r3;"
        );
        assert_eq!(
            t(
                "mbarrier.arrive.release.cluster.shared::cluster.b64",
                "count"
            ),
            "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r1], %r3;"
        );
        assert_eq!(
            t(
                "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64",
                "hint"
            ),
            "{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.acquire.cta.shared::cta.b64 p, [%r1], %r3, %r3;\n\
             \tselp.u32 %r4, 1, 0, p;\n\t}"
        );
        // mbarrier.arrive.noComplete{.release}{.cta}{.shared{::cta}}.b64 state, [addr], count;
        assert_eq!(
            t(
                "mbarrier.arrive.noComplete.release.cta.shared::cta.b64",
                "count"
            ),
            "mbarrier.arrive.noComplete.release.cta.shared::cta.b64 %rd4, [%r1], %r3;"
        );
        assert_eq!(
            t("mbarrier.pending_count.b64", ""),
            "mbarrier.pending_count.b64 %r4, %rd3;"
        );
        assert_eq!(
            t("cp.async.cg.shared::cta.global", "Cg:16:zfill"),
            "{\n\t.reg .b64 g;\n\tcvta.to.global.u64 g, %rd1;\n\
             \tcp.async.cg.shared::cta.global [%r2], [g], 16, %r3;\n\t}"
        );
        assert_eq!(t("cp.async.wait_group", ""), "cp.async.wait_group 0;");
        assert_eq!(
            t("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster", "dim=3"),
            "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster \
             [%r2], [%rd1, {%r3, %r3, %r3}], [%r1], %rs1;"
        );
        assert_eq!(
            t("bar.red.and.pred", "count"),
            "{\n\t.reg .pred p, q;\n\tsetp.ne.u32 p, %r3, 0;\n\tbar.red.and.pred q, %r3, %r3, p;\n\
             \tselp.u32 %r4, 1, 0, q;\n\t}"
        );
        assert_eq!(t("bar.sync", ""), "bar.sync %r3;");
        // The #13 rows (one row per spelling: found by the mnemonic alone).
        let p = |ptx: &str| {
            let mut r = None;
            for_each_variant(|x| {
                if x.ptx == ptx && r.is_none() {
                    r = Some(async_instr(&x).unwrap());
                }
            });
            r.unwrap_or_else(|| panic!("no row {ptx}"))
        };
        // createpolicy.fractional.L2::primary{.L2::secondary}.b64 cache-policy, fraction;
        assert_eq!(
            p("createpolicy.fractional.L2::evict_last.b64"),
            "createpolicy.fractional.L2::evict_last.b64 %rd4, %r3;"
        );
        // tensormap.cp_fenceproxy… [dst], [src], size; (size = 128)
        let cp = "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned";
        assert_eq!(p(cp), format!("{cp} [%rd1], [%r2], 128;"));
        assert_eq!(p("prefetch.tensormap"), "prefetch.tensormap [%rd1];");
        assert_eq!(p("nanosleep.u32"), "nanosleep.u32 %r3;");
        assert_eq!(p("griddepcontrol.wait"), "griddepcontrol.wait;");
        // mbarrier.arrive_drop.expect_tx… .shared::cluster.b64 _, [addr], txCount;
        assert_eq!(
            p("mbarrier.arrive_drop.expect_tx.release.cluster.shared::cluster.b64"),
            "mbarrier.arrive_drop.expect_tx.release.cluster.shared::cluster.b64 _, [%r1], %r3;"
        );
        // cp.async.bulk.prefetch.L2.global.L2::cache_hint [srcMem], size, cache-policy;
        assert_eq!(
            p("cp.async.bulk.prefetch.L2.global.L2::cache_hint"),
            "{\n\t.reg .b64 g;\n\tcvta.to.global.u64 g, %rd1;\n\
             \tcp.async.bulk.prefetch.L2.global.L2::cache_hint [g], %r3, %rd3;\n\t}"
        );
        assert_eq!(
            p("barrier.red.popc.u32"),
            "{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %r3, 0;\n\tbarrier.red.popc.u32 %r4, %r3, %r3, p;\n\t}"
        );
        assert_eq!(t("mapa.u64", ""), "mapa.u64 %rd4, %rd1, %r3;");
        assert_eq!(
            t("elect.sync", ""),
            "{\n\t.reg .pred p;\n\telect.sync %r4|p, %r3;\n\tselp.u32 %r5, 1, 0, p;\n\t}"
        );
        assert_eq!(
            t("fence.proxy.tensormap::generic.acquire.gpu", "addr 128"),
            "fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;"
        );
    }

    #[test]
    fn show_module_names_every_row_once() {
        let mut rows = Vec::new();
        for_each_variant(|x| rows.push(x));
        let (m, wrapped) = show_module(&rows, &vec![false; rows.len()], "sm_100a");
        let mut names = std::collections::HashSet::new();
        let lines: Vec<&str> = m.lines().collect();
        for w in &wrapped {
            assert!(
                w.entry
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_'),
                "{}",
                w.entry
            );
            assert!(names.insert(w.entry.as_str()), "{} twice", w.entry);
            assert_eq!(
                lines[*w.lines.start() - 1],
                format!(".visible .entry {}(.param .u64 p)", w.entry)
            );
            assert_eq!(lines[*w.lines.end() - 1], "}");
        }
        assert!(
            wrapped.iter().any(|w| w.entry == "ps_bar_sync")
                && wrapped.iter().any(|w| w.entry == "ps_bar_sync__count")
        );
    }

    #[test]
    fn reads_ptxas_error_lines() {
        let e = "\"ptxas\" failed (exit status: 255):\nptxas /tmp/x/module.ptx, line 42; error   : Unknown modifier '.bogus'\n\
                 ptxas /tmp/x/module.ptx, line 7; warning : something\nptxas fatal   : Ptx assembly aborted due to errors\n";
        assert_eq!(
            ptxas_errors(e),
            vec![(42, "Unknown modifier '.bogus'".to_string())]
        );
    }

    #[test]
    fn renders_none_for_an_empty_row() {
        let r = CostRow {
            ptx: "fence.x".into(),
            family: Family::Fence,
            sem: String::new(),
            scope: String::new(),
            sass: vec![],
            entry: String::new(),
        };
        assert!(render_costs(&[r]).contains("| `fence.x` | (none) |"));
    }
}
