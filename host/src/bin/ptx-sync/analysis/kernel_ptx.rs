//! The PTX a program runs, read from the compiled kernels (`target/ptx/kernels.ptx`, embedded in
//! the binary as [`KERNELS_PTX`](crate::gpu::KERNELS_PTX)): the body of the program's `.entry`
//! by name, filtered to the synchronizing instructions.
//!
//! Nothing here is typed by hand: what `tour` and `list` show for a program is what `cargo xtask
//! ptx` produced from the kernel's Rust source. For the litmus kernels the instructions of the
//! common harness (start barrier, stress, finish count) are subtracted: the harness is the
//! multiset of sync instructions that *every* `litmus_*` kernel contains, so what remains is the
//! program's own code (its roles and their bounded waits).

use crate::registry::programs::Program;
use std::collections::BTreeMap;

/// Whether a PTX opcode (the first token of an instruction, predicate removed) is a
/// synchronizing instruction: a fence or barrier, an atomic or reduction, an mbarrier or
/// asynchronous-copy operation, a strong (`.relaxed`/`.acquire`/`.release`) load or store, a
/// typed `.volatile` access (the library's `Volatile`; the compiler's own volatile accesses are
/// untyped `.b32`), or `nanosleep` (the once-forms' random delay).
pub fn is_sync(op: &str) -> bool {
    let starts = [
        "fence.",
        "membar.",
        "atom.",
        "red.",
        "mbarrier.",
        "cp.async",
        "cp.reduce.async",
        "bar.",
        "barrier.",
        "nanosleep",
    ];
    if starts.iter().any(|s| op.starts_with(s)) {
        return true;
    }
    let parts: Vec<&str> = op.split('.').collect();
    if parts[0] != "ld" && parts[0] != "st" {
        return false;
    }
    let strong = parts
        .iter()
        .any(|q| matches!(*q, "relaxed" | "acquire" | "release"));
    let typed_volatile = parts.contains(&"volatile")
        && parts
            .last()
            .is_some_and(|t| t.starts_with('u') || t.starts_with('s'));
    strong || typed_volatile
}

/// The sync instructions (opcode with qualifiers, operands dropped) of the `.entry` named
/// `kernel` in `ptx`, in text order; `None` if there is no such entry.
pub fn sync_instructions(ptx: &str, kernel: &str) -> Option<Vec<String>> {
    let head = format!(".entry {kernel}(");
    let mut lines = ptx.lines().skip_while(|l| !l.contains(&head));
    lines.next()?;
    let body = lines
        .skip_while(|l| l.trim() != "{")
        .skip(1)
        .take_while(|l| !l.starts_with('}'));
    let mut out = Vec::new();
    for l in body {
        let mut t = l.trim();
        if let Some(rest) = t.strip_prefix('@') {
            // `@%p1 bra ...` / `@!%p1 ...`: drop the guard.
            t = rest
                .split_once(char::is_whitespace)
                .map_or("", |x| x.1)
                .trim();
        }
        let op = t
            .split(|c: char| c.is_whitespace() || c == ';')
            .next()
            .unwrap_or("");
        if is_sync(op) {
            out.push(op.to_string());
        }
    }
    Some(out)
}

/// Multiset counts, keyed by instruction.
fn counts(v: &[String]) -> BTreeMap<&str, usize> {
    let mut m = BTreeMap::new();
    for s in v {
        *m.entry(s.as_str()).or_insert(0) += 1;
    }
    m
}

/// The harness of the litmus kernels: every sync instruction with the least number of times any
/// `litmus_*` entry of `ptx` contains it (zero-count entries dropped).
pub fn litmus_harness(ptx: &str) -> BTreeMap<String, usize> {
    let names: Vec<&str> = ptx
        .lines()
        .filter_map(|l| l.split_once(".entry litmus_"))
        .filter_map(|(_, rest)| rest.split_once('(').map(|x| x.0))
        .collect();
    let mut common: Option<BTreeMap<String, usize>> = None;
    for n in names {
        let ins = sync_instructions(ptx, &format!("litmus_{n}")).unwrap_or_default();
        let c = counts(&ins);
        common = Some(match common {
            None => c.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
            Some(m) => m
                .into_iter()
                .filter_map(|(k, v)| c.get(k.as_str()).map(|&w| (k, v.min(w))))
                .collect(),
        });
    }
    common.unwrap_or_default()
}

/// A program's own sync instructions in its compiled kernel, each with its count, in order of
/// first appearance in the PTX text (for litmus kernels, the [`litmus_harness`] subtracted).
/// `Err` names what is missing: no entry of that name (kernels not built, or a renamed kernel).
pub fn of_program(p: &Program, ptx: &str) -> Result<Vec<(String, usize)>, String> {
    let ins = sync_instructions(ptx, p.kernel)
        .ok_or_else(|| format!("`{}` is not in the embedded kernels.ptx", p.kernel))?;
    let mut left = counts(&ins);
    if p.kernel.starts_with("litmus_") {
        for (k, n) in litmus_harness(ptx) {
            if let Some(c) = left.get_mut(k.as_str()) {
                *c = c.saturating_sub(n);
            }
        }
    }
    let mut out: Vec<(String, usize)> = Vec::new();
    for s in &ins {
        let n = left.get(s.as_str()).copied().unwrap_or(0);
        if n > 0 && !out.iter().any(|(x, _)| x == s) {
            out.push((s.clone(), n));
        }
    }
    Ok(out)
}

/// One line: `a; b ×2; c`.
pub fn line(v: &[(String, usize)]) -> String {
    v.iter()
        .map(|(s, n)| {
            if *n > 1 {
                format!("{s} ×{n}")
            } else {
                s.clone()
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::programs::{find, Kind, PROGRAMS};

    const PTX: &str = crate::gpu::KERNELS_PTX;

    fn own(name: &str) -> Vec<String> {
        of_program(find(name).unwrap(), PTX)
            .unwrap()
            .into_iter()
            .map(|x| x.0)
            .collect()
    }

    #[test]
    fn extracts_a_synthetic_entry() {
        // Written by hand in the PTX grammar: two entries, a guard, a label, a plain access.
        let ptx = ".visible .entry a(\n\t.param .u64 a_param_0\n)\n{\n\t.reg .b32 %r<4>;\n\
                   \tld.global.b32 %r1, [%rd1];\n\tst.release.gpu.u32 [%rd1], %r1;\n$L__BB0_1:\n\
                   \t@%p1 ld.acquire.gpu.u32 %r2, [%rd1];\n\tfence.sc.cta;\n\tret;\n\n}\n\
                   .visible .entry b(\n)\n{\n\tmembar.gl;\n}\n";
        assert_eq!(
            sync_instructions(ptx, "a").unwrap(),
            ["st.release.gpu.u32", "ld.acquire.gpu.u32", "fence.sc.cta"]
        );
        assert_eq!(sync_instructions(ptx, "b").unwrap(), ["membar.gl"]);
        assert!(sync_instructions(ptx, "c").is_none());
        assert!(!is_sync("ld.volatile.global.b32"));
        assert!(is_sync("ld.volatile.s32"));
        assert!(!is_sync("ld.param.b64"));
    }

    #[test]
    fn every_program_has_sync_instructions_in_its_kernel() {
        assert!(
            !PTX.is_empty(),
            "kernels not built: run `cargo xtask ptx` before the host tests"
        );
        for p in PROGRAMS {
            let v = of_program(p, PTX).unwrap_or_else(|e| panic!("{}: {e}", p.name));
            assert!(!v.is_empty(), "{}: no sync instruction found", p.name);
        }
        let h = litmus_harness(PTX);
        assert!(h.contains_key("atom.relaxed.gpu.add.u32"), "{h:?}");
    }

    #[test]
    fn the_kernels_hold_the_seed_instructions() {
        let m = own("mp_rel_acq_cta");
        assert!(m.contains(&"st.release.cta.u32".to_string()), "{m:?}");
        assert!(m.contains(&"ld.acquire.cta.u32".to_string()), "{m:?}");
        assert!(!m.contains(&"st.release.gpu.u32".to_string()), "{m:?}");
        let m = own("mp_rel_acq");
        assert!(m.contains(&"st.release.gpu.u32".to_string()), "{m:?}");
        assert!(own("handoff_2_5").contains(&"fence.sc.gpu".to_string()));
        assert!(!own("handoff_2_5_nofence").contains(&"fence.sc.gpu".to_string()));
        assert!(own("handoff_4_5_red").contains(&"red.release.gpu.add.u32".to_string()));
        assert!(own("deepep_barrier").contains(&"fence.acq_rel.sys".to_string()));
        // §5.3: the fix adds one fence.proxy.async (both kernels fence the mbarrier inits).
        let n = |p: &str| {
            let v = of_program(find(p).unwrap(), PTX).unwrap();
            v.iter()
                .find(|x| x.0 == "fence.proxy.async.shared::cta")
                .map_or(0, |x| x.1)
        };
        assert_eq!(n("s53_reuse_fix"), n("s53_reuse_bug") + 1);
        assert!(own("s51_cp_async_fix").contains(&"cp.async.wait_all".to_string()));
    }

    #[test]
    fn section5_kernel_instructions_are_catalog_rows() {
        let mut all = Vec::new();
        ptx_sync::catalog::for_each_variant(|v| all.push(v.ptx));
        for p in PROGRAMS
            .iter()
            .filter(|p| matches!(p.kind, Kind::S5 { .. }))
        {
            for (l, _) in of_program(p, PTX).unwrap() {
                assert!(
                    all.iter().any(|r| *r == l),
                    "{}: `{l}` is not a catalog row",
                    p.name
                );
            }
        }
    }
}
