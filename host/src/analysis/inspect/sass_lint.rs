//! The SASS side: which opcodes synchronize, and the `sass-loop-without-load` lint (a SASS loop with
//! no load left in it).

use super::*;

/// Whether a SASS opcode is a synchronization instruction (strong accesses, atomics, fences,
/// barriers, async copies).
pub fn sass_sync(op: &str) -> bool {
    let fam = op.split('.').next().unwrap_or("");
    let strong_access = (fam.starts_with("LD") || fam.starts_with("ST"))
        && op
            .split('.')
            .any(|t| t == "STRONG" || t == "VOLATILE" || t == "MMIO");
    strong_access
        || [
            "ATOM",
            "ATOMG",
            "ATOMS",
            "RED",
            "REDG",
            "REDAS",
            "MEMBAR",
            "ERRBAR",
            "CGAERRBAR",
            "CCTL",
            "BAR",
            "SYNCS",
            "UCGABAR_ARV",
            "UCGABAR_WAIT",
            "LDGSTS",
            "LDGDEPBAR",
            "DEPBAR",
            "UBLKCP",
            "UTMALDG",
            "UTMASTG",
            "UTMACMDFLUSH",
            "FENCE",
            "ACQBULK",
            "PREEXIT",
            "ARRIVES",
            "UBLKRED",
            "UTMAREDG",
        ]
        .contains(&fam)
}

/// SASS spin loops left without their load: a predicated backward `BRA` whose loop has no load,
/// atomic or barrier wait in it and does not compute the branch's predicate (it was computed once,
/// before the loop, from the hoisted load). `(from, to)` offsets.
///
/// Linear in the function plus a binary search per backward branch: prefix counts of the loads
/// and `ELECT`s, and each predicate's writers in offset order, answer "any in the body" at once.
pub fn sass_loops_without_load(f: &sass::Function) -> Vec<(u32, u32)> {
    let is = &f.instrs;
    let load = |j: &sass::Instr| {
        let o = j.opcode.as_str();
        (o.starts_with("LD")
            || o.starts_with("ATOM")
            || o.starts_with("SYNCS")
            || o.starts_with("BAR")
            || o.starts_with("UCGABAR")
            || o.starts_with("DEPBAR"))
            && !o.starts_with("LDC")
            && !o.starts_with("LDGSTS")
    };
    let (mut loads, mut elects) = (vec![0usize; is.len() + 1], vec![0usize; is.len() + 1]);
    // Predicate → the indices of the instructions that write it (first or second operand:
    // `ISETP P0, PT, …`).
    let mut writers: HashMap<&str, Vec<usize>> = HashMap::new();
    for (k, j) in is.iter().enumerate() {
        loads[k + 1] = loads[k] + usize::from(load(j));
        elects[k + 1] = elects[k] + usize::from(j.opcode.starts_with("ELECT"));
        let ops = j.text.split_once(char::is_whitespace).map_or("", |x| x.1);
        for o in ops.split(',').take(2) {
            writers.entry(o.trim()).or_default().push(k);
        }
    }
    let mut out = Vec::new();
    for (k, i) in is.iter().enumerate() {
        if !i.opcode.starts_with("BRA") {
            continue;
        }
        let Some(t) = i
            .text
            .split_whitespace()
            .last()
            .and_then(|a| u32::from_str_radix(a.trim_start_matches("0x"), 16).ok())
        else {
            continue;
        };
        if t > i.offset {
            continue;
        }
        // A spin loop exits on a condition: an unpredicated backward branch (the padding loop
        // after `EXIT`, the one after a trap) is none.
        let Some(p) = i.pred.as_deref().map(|p| p.trim_start_matches('!')) else {
            continue;
        };
        if p == "PT" {
            continue;
        }
        // The body: the instructions from the target to the branch (offsets ascend).
        let s = is.partition_point(|j| j.offset < t);
        // ptxas's own `ELECT … BRA.U.ANY` loop around a single-thread instruction (TMA issue).
        if i.opcode.contains(".ANY") || elects[k + 1] > elects[s] {
            continue;
        }
        let loads_in = loads[k + 1] > loads[s];
        // The exit predicate is computed in the loop: a counting loop, not a spin on a value
        // read before it.
        let writes_pred = writers.get(p).is_some_and(|w| {
            let a = w.partition_point(|&x| x < s);
            a < w.len() && w[a] < k
        });
        if !loads_in && !writes_pred {
            out.push((t, i.offset));
        }
    }
    out
}

pub(super) fn sass_lint(fname: &str, line: usize, (from, to): (u32, u32)) -> Lint {
    Lint {
        name: "sass-loop-without-load",
        function: fname.to_string(),
        message: format!(
            "the SASS loop /*{from:04x}*/..BRA /*{to:04x}*/ has no load left in it and exits on a \
             predicate computed before it: ptxas hoisted the flag load out of the loop, so it \
             spins on a stale value (seed §3.5)"
        ),
        line,
    }
}
