//! What one PTX instruction is, for the lints: its destination and source registers, its guard, and
//! the kinds the lints look for (weak loads, clock reads, TMA writes, proxy fences, generic reads,
//! `cp.async` copies, publishing barriers).

use super::*;

/// The special registers whose value changes while a thread runs (a loop that reads one is not
/// stuck on a constant).
pub(super) const CLOCKS: &[&str] = &[
    "%globaltimer",
    "%globaltimer_lo",
    "%globaltimer_hi",
    "%clock",
    "%clock64",
    "%clock_hi",
];

/// The special registers that tell CTAs apart.
pub(super) const CTA_IDS: &[&str] = &["%ctaid", "%cluster_ctaid", "%cluster_ctarank", "%clusterid"];

/// Registers written by an instruction (its first operand; `%p1|%p2`; `{%r1, %r2}`).
pub(super) fn dests(i: &Ins) -> Vec<String> {
    let no_dest = [
        "st",
        "red",
        "bra",
        "bar",
        "fence",
        "cp.",
        ".",
        "membar",
        "nanosleep",
        "trap",
        "exit",
        "ret",
        "prefetch",
        "discard",
        "griddepcontrol",
        "multimem.st",
        "multimem.red",
    ]
    .iter()
    .any(|p| i.op.starts_with(p))
        || i.op.starts_with("mbarrier.init")
        || i.op.starts_with("mbarrier.expect_tx")
        || i.op.starts_with("mbarrier.complete_tx")
        || i.op.starts_with("mbarrier.inval");
    if no_dest {
        return vec![];
    }
    i.args.first().map_or(vec![], |a| regs(a))
}

/// The `%`-registers named in an operand (`[%rd1+4]` → `%rd1`; a special register keeps its
/// component: `%tid.x`; a scope's renamed register keeps its `@N`).
pub(super) fn regs(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut on = false;
    for c in s.chars().chain(std::iter::once(' ')) {
        if c == '%' {
            on = true;
            cur.clear();
            cur.push(c);
        } else if on && (c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '@') {
            cur.push(c);
        } else if on {
            on = false;
            out.push(std::mem::take(&mut cur));
        }
    }
    out
}

/// Registers an instruction reads (its operands after the destination; not its guard).
pub(super) fn srcs(i: &Ins) -> Vec<String> {
    let skip = usize::from(!dests(i).is_empty());
    i.args.iter().skip(skip).flat_map(|a| regs(a)).collect()
}

/// The guard predicate's register (`!%p1` → `%p1`).
pub(super) fn guard(i: &Ins) -> Option<&str> {
    i.pred.as_deref().map(|p| p.trim_start_matches('!'))
}

/// A weak load that may be a flag read: `ld` / `ld.weak` of global, shared or generic memory.
pub(super) fn weak_load(op: &str) -> bool {
    let toks: Vec<&str> = op.split('.').collect();
    toks[0] == "ld"
        && first_of(&toks, SEMS).is_none_or(|s| s == "weak")
        && !toks
            .iter()
            .any(|t| ["param", "const", "local", "nc"].contains(t))
}

/// Whether the instruction sees what other threads do: a load of memory others can write
/// (global, shared, generic), an atomic, an mbarrier operation, a barrier, a `cp.async` wait, a
/// call, or a warp-level exchange (vote, shfl, match, redux, activemask, elect). A loop with
/// none of these computes only from what it had when it started (and from clocks).
pub(super) fn observes(i: &Ins) -> bool {
    let toks: Vec<&str> = i.op.split('.').collect();
    match toks[0] {
        "ld" => !toks.iter().any(|t| ["param", "const", "local"].contains(t)),
        "atom"
        | "mbarrier"
        | "bar"
        | "barrier"
        | "call"
        | "vote"
        | "shfl"
        | "match"
        | "redux"
        | "activemask"
        | "elect"
        | "suld"
        | "tex"
        | "tld4"
        | "griddepcontrol"
        | "clusterlaunchcontrol"
        | "ldu"
        | "multimem" => true,
        "cp" => i.op.starts_with("cp.async.wait"),
        _ => false,
    }
}

/// Whether the instruction reads a clock (`%globaltimer`, `%clock64`, …).
pub(super) fn reads_clock(i: &Ins) -> bool {
    i.args
        .iter()
        .skip(1)
        .flat_map(|a| regs(a))
        .any(|r| CLOCKS.contains(&r.as_str()))
}

/// Whether `cp.async.bulk[.tensor.Nd].<dst>.<src>…` writes shared memory: its first state space
/// (the destination) is `.shared::cluster` or `.shared::cta`.
pub(in super::super) fn tma_into_shared(toks: &[&str]) -> bool {
    toks.len() > 3
        && toks[..3] == ["cp", "async", "bulk"]
        && toks
            .iter()
            .skip(3)
            .find(|t| t.starts_with("shared::") || **t == "global")
            .is_some_and(|t| t.starts_with("shared::"))
        && !toks.contains(&"prefetch")
}

/// A generic-proxy fence towards the async proxy that covers shared memory: `fence.proxy.async`,
/// `fence.proxy.async.shared::{cta,cluster}`, `fence.proxy.async::generic.*` (the
/// uni-directional generic → async form) — not `fence.proxy.async.global` (PTX ISA §9.7.13.4).
pub(super) fn proxy_fence(op: &str) -> bool {
    (op.starts_with("fence.proxy.async") || op.starts_with("membar.proxy.async"))
        && !op.contains("async.global")
}

/// A generic-proxy read of memory a TMA may write: `ld` of shared or generic memory (not
/// `.global`, `.param`, `.const`, `.local`).
pub(super) fn generic_read(op: &str) -> bool {
    let toks: Vec<&str> = op.split('.').collect();
    toks[0] == "ld"
        && !toks
            .iter()
            .any(|t| ["param", "const", "local", "global"].contains(t))
}

/// A non-bulk `cp.async` copy (`cp.async.ca/cg.shared{::cta}.global…`): performed in the generic
/// proxy, outside program order (PTX ISA §9.7.9.25.3.1).
pub(super) fn cp_async_copy(op: &str) -> bool {
    let toks: Vec<&str> = op.split('.').collect();
    toks.len() > 2
        && toks[..2] == ["cp", "async"]
        && !["bulk", "commit_group", "wait_group", "wait_all", "mbarrier"].contains(&toks[2])
}

/// A CTA-level barrier that other threads pass after this one arrives: `bar{.cta}.sync/arrive/
/// red`, `barrier{.cta}.sync/arrive/red{.aligned}`, `barrier.cluster.arrive` (not
/// `bar.warp.sync`).
pub(super) fn publishing_barrier(op: &str) -> bool {
    let toks: Vec<&str> = op.split('.').collect();
    (toks[0] == "bar" || toks[0] == "barrier")
        && !toks.contains(&"warp")
        && !toks.contains(&"wait")
        && toks.iter().any(|t| ["sync", "arrive", "red"].contains(t))
}
