//! The SASS cost table: what ptxas makes of every fence and ordered atomic.
//!
//! Seed §2–§4 reason about what `fence.sc` costs compared with `fence.acq_rel`, `release` and
//! `acquire`; the hardware answer starts with the instructions ptxas emits. For every fence
//! (4 semantics × 4 scopes) and the ordered `u32` generic-address accesses — `ld.{relaxed,acquire}`,
//! `st.{relaxed,release}`, `atom.{relaxed,acquire,release,acq_rel}.add`,
//! `red.{relaxed,release}.add`, each at `.cta/.cluster/.gpu/.sys` — this module:
//!
//! 1. takes the PTX text from the crate's catalog ([`ptx_sync::catalog::for_each_variant`]),
//! 2. writes one tiny PTX module (`.version 8.6`, `.target sm_90`, `.address_size 64`) with one
//!    `.entry` per variant, operands wired by family, plus one wiring-only *baseline* entry per
//!    family that does the same with weak `ld`/`st` (or nothing, for fences),
//! 3. assembles it with one `ptxas -arch=sm_90 -O3` and dumps it with one `cuobjdump -sass`,
//! 4. reports, per variant, the SASS opcodes its entry has beyond its baseline, in program order
//!    ([`sass::minus`]): e.g. `fence.sc.gpu` → `MEMBAR.SC.GPU ERRBAR CGAERRBAR
//!    CCTL.IVALL`.
//!
//! Each access uses a per-thread address (`p + 8·tid.x`) and a per-thread value, so ptxas cannot
//! aggregate a warp's atomics into one (with a uniform address it does: `VOTEU`/`REDUX` around a
//! single predicated `ATOM`), and the row shows the instruction itself. `ptx-sync show --costs`
//! prints [`render_costs`](crate::render::show_sass::render_costs); `docs/fence-costs-sass.txt`
//! is the committed snapshot ([`snapshot_text`](crate::render::show_sass::snapshot_text)) that
//! `host/tests/costs.rs` compares with a fresh run.

//! The rendering (`render_costs`, the snapshot) and `ptx-sync show`'s use of the same wiring
//! are in `render/show_sass.rs` ([`crate::render::show_sass`]); both are re-exported as
//! [`crate::costs`].

use crate::sass;
use ptx_sync::catalog::{for_each_variant, Family, Marker, Variant};
use std::fmt::Write as _;
use std::path::Path;

/// The SM the table is built for.
pub const ARCH: &str = "sm_90";

/// One row: a PTX instruction and the SASS ptxas emits for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CostRow {
    /// The PTX mnemonic, e.g. `"fence.sc.gpu"`, `"atom.acq_rel.gpu.add.u32"`.
    pub ptx: String,
    /// [`Family::Fence`], `Ld`, `St`, `Atom` or `Red`.
    pub family: Family,
    /// The semantic marker's Rust name (`"AcqRel"`).
    pub sem: String,
    /// The scope marker's Rust name (`"Gpu"`).
    pub scope: String,
    /// The SASS opcodes (with modifiers, without predicates) the variant's entry has beyond its
    /// family's baseline entry, in program order. Empty: ptxas emits nothing for it.
    pub sass: Vec<String>,
    /// The `.entry` name in the generated module.
    pub entry: String,
}

/// The catalog rows the table covers, in catalog order: every fence; `u32` generic-address
/// `ld.{relaxed,acquire}`, `st.{relaxed,release}`, `atom.*.add`, `red.*.add` at every scope.
pub fn cost_variants() -> Vec<Variant> {
    let mut v = Vec::new();
    for_each_variant(|x| {
        let typed = x.ty == "u32" && x.space == "Generic" && !x.scope.is_empty();
        let keep = match x.family {
            Family::Fence => true,
            Family::Ld => typed && matches!(x.sem, Marker::Relaxed | Marker::Acquire),
            Family::St => typed && matches!(x.sem, Marker::Relaxed | Marker::Release),
            Family::Atom | Family::Red => typed && x.op == "add",
            _ => false,
        };
        if keep {
            v.push(x);
        }
    });
    v
}

/// The `.entry` name of a variant: `ps_` + the PTX with every character that a PTX identifier
/// cannot hold (`.`, `::`) as `_`.
pub fn entry_name(ptx: &str) -> String {
    format!("ps_{}", ident(ptx))
}

pub(crate) fn ident(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The baseline entry of a family: the same wiring with weak accesses (fences: an empty body).
pub(crate) fn baseline_entry(family: impl std::fmt::Display) -> String {
    format!("ps_baseline_{family}")
}

/// Declarations and the per-thread address `%rd3 = p + 8·tid.x`, value `%r2 = tid.x`.
pub(crate) const WIRING: &str =
    "\t.reg .u64 %rd<4>;\n\t.reg .u32 %r<3>;\n\tld.param.u64 %rd1, [p];\n\
                      \tmov.u32 %r2, %tid.x;\n\tmul.wide.u32 %rd2, %r2, 8;\n\
                      \tadd.u64 %rd3, %rd1, %rd2;\n";

/// The instruction of an `ld`/`st`/`atom`/`red`/`fence` row with the operands its table row
/// carries ([`Variant::operands`], the text the device `asm!` pastes), the placeholders bound to
/// registers: `{p}` the address, `{d}` (and `{v}` of a load) the result, `{b}`, `{c}` (and `{v}`
/// of a store) the value. `None` where the row carries no operands.
pub fn row_instr(v: &Variant, dst: &str, val: &str, addr: &str) -> Option<String> {
    let ops = v.operands?;
    let v_reg = if v.family == Family::Ld { dst } else { val };
    let ops = ops
        .replace("{p}", addr)
        .replace("{d}", dst)
        .replace("{v}", v_reg)
        .replace("{b}", val)
        .replace("{c}", val);
    Some(format!("{}{ops};", v.ptx))
}

/// The body of an entry for row `v` of `family` (the baseline when `v` is `None`).
pub(crate) fn body(family: Family, v: Option<&Variant>) -> String {
    // Loads and atoms return a value: it is stored (weakly) next to the address so that it is live.
    let sink = "\tst.u32 [%rd3+4], %r1;\n";
    let instr = |v: &Variant| {
        row_instr(v, "%r1", "%r2", "%rd3")
            .unwrap_or_else(|| panic!("{}: the row carries no operands", v.ptx))
    };
    match (family, v) {
        (Family::Fence, Some(v)) => format!("\t{}\n", instr(v)),
        (Family::Fence, None) => String::new(),
        (Family::Ld | Family::Atom, Some(v)) => format!("{WIRING}\t{}\n{sink}", instr(v)),
        (Family::Ld | Family::Atom, None) => format!("{WIRING}\tld.u32 %r1, [%rd3];\n{sink}"),
        (Family::St | Family::Red, Some(v)) => format!("{WIRING}\t{}\n", instr(v)),
        (Family::St | Family::Red, None) => format!("{WIRING}\tst.u32 [%rd3], %r2;\n"),
        (f, _) => unreachable!("no wiring for family {f}"),
    }
}

/// The access families, each with a baseline entry (`ps_baseline_ld`), in the module's order.
pub(crate) const FAMILIES: [Family; 5] = [
    Family::Fence,
    Family::Ld,
    Family::St,
    Family::Atom,
    Family::Red,
];

/// The PTX module: one baseline entry per family, then one entry per variant.
pub fn cost_module(variants: &[Variant]) -> String {
    let mut m = String::from(
        "// Generated by ptx-sync-host costs::cost_module from the ptx-sync catalog.\n\
         .version 8.6\n.target sm_90\n.address_size 64\n",
    );
    let mut entry = |name: &str, b: String| {
        let _ = write!(
            m,
            "\n.visible .entry {name}(.param .u64 p)\n{{\n{b}\tret;\n}}\n"
        );
    };
    for f in FAMILIES {
        entry(&baseline_entry(f), body(f, None));
    }
    for v in variants {
        entry(&entry_name(v.ptx), body(v.family, Some(v)));
    }
    m
}

/// Builds the table: one ptxas and one cuobjdump call for all [`cost_variants`].
pub fn cost_table(tools: &Path) -> Result<Vec<CostRow>, String> {
    let variants = cost_variants();
    let dump = sass::sass_of_ptx(tools, &cost_module(&variants), ARCH)?;
    let funcs = sass::parse_functions(&dump);
    let get = |name: &str| {
        funcs
            .iter()
            .find(|f| f.name == name)
            .ok_or_else(|| format!("function {name} missing from the cuobjdump output"))
    };
    let mut rows = Vec::with_capacity(variants.len());
    for v in &variants {
        let entry = entry_name(v.ptx);
        let f = get(&entry)?.opcodes();
        let base = get(&baseline_entry(v.family))?.opcodes();
        rows.push(CostRow {
            ptx: v.ptx.to_string(),
            family: v.family,
            sem: v.sem.to_string(),
            scope: v.scope.to_string(),
            sass: sass::minus(&f, &base)
                .into_iter()
                .map(String::from)
                .collect(),
            entry,
        });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn covers_sixteen_fences_and_the_ordered_u32_accesses() {
        let v = cost_variants();
        let n = |f: Family| v.iter().filter(|x| x.family == f).count();
        assert_eq!(
            (
                n(Family::Fence),
                n(Family::Ld),
                n(Family::St),
                n(Family::Atom),
                n(Family::Red)
            ),
            (16, 8, 8, 16, 8),
            "4 fence sems, 2 ld sems, 2 st sems, 4 atom sems, 2 red sems, × 4 scopes"
        );
    }

    #[test]
    fn module_has_one_entry_per_variant_and_baseline() {
        let v = cost_variants();
        let m = cost_module(&v);
        assert_eq!(
            m.matches(".visible .entry").count(),
            v.len() + FAMILIES.len()
        );
        assert!(m.contains(
            "\n.visible .entry ps_fence_sc_gpu(.param .u64 p)\n{\n\tfence.sc.gpu;\n\tret;\n}\n"
        ));
        assert!(
            m.contains("\tatom.acq_rel.gpu.add.u32 %r1, [%rd3], %r2;\n\tst.u32 [%rd3+4], %r1;\n")
        );
        assert!(m.contains("\tred.release.sys.add.u32 [%rd3], %r2;\n"));
    }
}
