//! The PTX lints of `ptx-sync show --ptx`: heuristics over one function's control-flow graph
//! ([`ptx_cfg`]) that point at the seed's classic bugs as they look after LLVM. Each says what
//! it saw, the seed and ISA section it serves, and the fix; the limits of each are in its doc
//! below and in `docs/inspect.md`.
//!
//! Everything here is near-linear in the function's size: one dominator tree (Cooper–Harvey–
//! Kennedy), the natural loops (each body walked once), one definition table per function
//! (register → its defining instructions) for the address and value walks, and forward data
//! flows whose facts are a handful of buffer names.

use super::{first_of, has, norm, Lint, SEMS};
use crate::ptx_cfg::{self, DomTree, Func, Ins};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

mod facts;
mod flow;

#[cfg(test)]
pub(super) use facts::tma_into_shared;
use facts::*;
use flow::*;

/// A lint finding of function `f`.
fn lint(f: &Func, name: &'static str, line: usize, message: String) -> Lint {
    Lint {
        name,
        function: f.name.clone(),
        message,
        line,
    }
}

/// `aligned-barrier-two-paths` (PTX ISA §9.7.13.1): two `.aligned` barriers of one kind of
/// which neither dominates the other ([`ptx_cfg::duplicated`]).
fn lint_aligned_two_paths(f: &Func, out: &mut Vec<Lint>) {
    for (a, b) in ptx_cfg::duplicated(f) {
        let (x, y) = (&f.ins[a], &f.ins[b]);
        out.push(lint(
            f,
            "aligned-barrier-two-paths",
            y.line,
            format!(
                "`{}` (line {}) and `{}` (line {}) are the same .aligned barrier reached from two \
                 paths: a warp split between them is undefined (PTX ISA §9.7.13.1); use one \
                 barrier after the join, or the non-aligned barrier.sync",
                norm(&x.text),
                x.line,
                norm(&y.text),
                y.line
            ),
        ));
    }
}

/// `weak-spin-loop` (seed §3.5, PTX ISA §8.7: a weak load is not morally strong with the
/// writer's store, so nothing makes the loop see it): a loop whose exit branch depends, through
/// the loop's instructions, on a weak load in the loop.
fn lint_weak_spin(cx: &Ctx, loops: &[Loop], out: &mut Vec<Lint>) {
    let f = cx.f;
    let mut reported = BTreeSet::new();
    for l in loops {
        // The loop's definitions of each register.
        let mut defs: HashMap<String, Vec<usize>> = HashMap::new();
        for k in cx.loop_ins(l) {
            for d in dests(&f.ins[k]) {
                defs.entry(d).or_default().push(k);
            }
        }
        // Backwards from the exit guards through the loop's instructions, each visited once:
        // the weak loads their predicates depend on.
        let mut want: HashSet<String> = cx.exit_guards(l).into_iter().collect();
        let mut work: Vec<String> = want.iter().cloned().collect();
        let mut found: BTreeSet<usize> = BTreeSet::new();
        while let Some(r) = work.pop() {
            for &k in defs.get(&r).into_iter().flatten() {
                let i = &f.ins[k];
                if weak_load(&i.op) {
                    found.insert(k);
                }
                for s in srcs(i) {
                    if want.insert(s.clone()) {
                        work.push(s);
                    }
                }
            }
        }
        for k in found {
            let ld = &f.ins[k];
            if reported.insert(ld.line) {
                let hl = f
                    .block_ins(l.header)
                    .next()
                    .map_or(ld.line, |(_, i)| i.line);
                out.push(lint(
                    f,
                    "weak-spin-loop",
                    ld.line,
                    format!(
                        "the loop at line {hl} exits on `{}`, a weak load: ptxas may hoist \
                         it out of the loop or delete the loop (seed §3.5); use \
                         ld.relaxed.<scope> or ld.acquire.<scope>",
                        norm(&ld.text)
                    ),
                ));
            }
        }
    }
}

/// The line of a loop's back-edge branch (the last instruction of its last latch), else of its
/// header's first instruction.
fn back_edge_line(cx: &Ctx, l: &Loop) -> usize {
    l.latches
        .iter()
        .filter_map(|&b| cx.f.blocks[b].ins.clone().last())
        .max()
        .or_else(|| cx.f.blocks[l.header].ins.clone().next())
        .map_or(cx.f.line, |k| cx.f.ins[k].line)
}

/// `hoisted-spin-loop` and `timed-wait-without-load` (seed §3.5): loops that read no memory.
///
/// `hoisted-spin-loop`: a loop with no load, atomic, wait, barrier, call or warp exchange in it
/// ([`observes`]) whose exits, if it has any, are guarded by predicates nothing in the loop
/// changes ([`Ctx::variant`]): entered once, it runs for ever — the shape LLVM leaves after
/// hoisting a weak flag load (a raw pointer, `Data`) out of a spin: `$L: bra.uni $L;`, or
/// `@%p1 bra $L;` on a predicate computed before the loop. A hang on the GPU.
///
/// `timed-wait-without-load`: a loop that reads no memory but a clock (`%globaltimer`,
/// `%clock64`) and exits on it: a bounded wait whose flag was read once, before the loop, so it
/// can only time out.
///
/// Limits: a loop that reads its flag through a `call` or a warp exchange is not reported; a
/// deliberate delay loop on `%globaltimer` with no flag (sleep for N ns) is reported by
/// `timed-wait-without-load` (use `nanosleep` in a loop that also reads the flag); a loop whose
/// exit depends on a register written both in and before the loop by pure arithmetic counts as
/// changing (no false hang).
fn lint_loops_without_load(cx: &Ctx, loops: &[Loop], out: &mut Vec<Lint>) {
    let f = cx.f;
    for l in loops {
        let ins = cx.loop_ins(l);
        if ins.iter().any(|&k| observes(&f.ins[k])) {
            continue;
        }
        let hl = f.block_ins(l.header).next().map_or(f.line, |(_, i)| i.line);
        let guards = cx.exit_guards(l);
        let variant = cx.variant(&ins);
        let clock = ins.iter().map(|&k| &f.ins[k]).find(|i| reads_clock(i));
        let moving: Vec<&String> = guards.iter().filter(|g| variant.contains(*g)).collect();
        if moving.is_empty() {
            let how = if guards.is_empty() {
                "has no exit".to_string()
            } else {
                let g: BTreeSet<&str> = guards.iter().map(String::as_str).collect();
                format!(
                    "exits only on {}, which nothing in the loop changes",
                    g.into_iter()
                        .map(|p| format!("`{p}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            out.push(lint(
                f,
                "hoisted-spin-loop",
                back_edge_line(cx, l),
                format!(
                    "the loop at line {hl} reads no memory and {how}: once entered it never \
                     ends (a hang) — LLVM hoisted the flag's weak load out of the spin (seed \
                     §3.5, PTX ISA §8.7); read the flag with ld.relaxed/ld.acquire \
                     (ptx_sync::AtomicRef) and bound the wait"
                ),
            ));
        } else if let Some(c) = clock {
            out.push(lint(
                f,
                "timed-wait-without-load",
                c.line,
                format!(
                    "the loop at line {hl} reads the clock (`{}`) and no memory: the flag it \
                     waits for was read once, before the loop (LLVM hoisted a weak load), so \
                     the wait can only time out (seed §3.5, PTX ISA §8.7); read the flag with \
                     ld.relaxed/ld.acquire (ptx_sync::AtomicRef) inside the loop",
                    norm(&c.text)
                ),
            ));
        }
    }
}

/// `remote-arrive-cta-scope` (seed §5.4): `mbarrier.arrive` on a `.shared::cluster` address
/// with `.cta` scope.
fn lint_remote_arrive(f: &Func, out: &mut Vec<Lint>) {
    for i in &f.ins {
        let toks: Vec<&str> = i.op.split('.').collect();
        if toks[0] == "mbarrier"
            && i.op.contains("arrive")
            && has(&toks, "shared::cluster")
            && !has(&toks, "cluster")
        {
            out.push(lint(
                f,
                "remote-arrive-cta-scope",
                i.line,
                format!(
                    "`{}` arrives on a .shared::cluster address with .cta scope ({}): \
                     it does not synchronize with a waiter in another CTA (seed §5.4); use \
                     .release.cluster",
                    i.op,
                    if has(&toks, "cta") {
                        "explicit"
                    } else {
                        "the default"
                    }
                ),
            ));
        }
    }
}

/// `cta-scope-across-ctas` (seed §3.5 and its footnote 15; PTX ISA §8.5 scope, §8.7 morally
/// strong): a release or acquire at `.cta` scope (`st.release.cta`, `ld.acquire.cta`,
/// `atom.acq_rel.cta`, `red.release.cta`) on global memory, or a `.cta` fence (`fence.*.cta`,
/// `membar.cta`) next to a strong global access, in a kernel whose control flow depends on
/// which CTA runs it (a branch on a predicate computed — through any instruction, loads
/// included — from `%ctaid`, `%cluster_ctaid`, `%cluster_ctarank` or `%clusterid`): the CTAs
/// take different roles and talk through global memory, but a `.cta` operation's scope holds
/// only its own CTA, so it is not morally strong with the other CTA's access and synchronizes
/// nothing with it.
///
/// Limits: a kernel that branches on `%ctaid` for another reason (a bounds check) and uses a
/// `.cta` release/acquire on a global word private to its CTA is reported too (use `.gpu`, or
/// ignore it); relaxed `.cta` atomics are not reported (a per-CTA counter in global memory is
/// their common, correct use); an address loaded from memory has an unknown space and is not
/// reported.
fn lint_cta_scope(cx: &Ctx, out: &mut Vec<Lint>) {
    let f = cx.f;
    // Registers computed from the CTA's identity, through every instruction.
    let mut uses: HashMap<String, Vec<usize>> = HashMap::new();
    let mut tainted: HashSet<String> = HashSet::new();
    let mut work: Vec<usize> = Vec::new();
    for (k, i) in f.ins.iter().enumerate() {
        let s = srcs(i);
        if s.iter()
            .any(|r| CTA_IDS.contains(&r.split('.').next().unwrap_or("")))
        {
            work.push(k);
        }
        for r in s {
            uses.entry(r).or_default().push(k);
        }
    }
    let mut done = vec![false; f.ins.len()];
    while let Some(k) = work.pop() {
        if std::mem::replace(&mut done[k], true) {
            continue;
        }
        for d in dests(&f.ins[k]) {
            if tainted.insert(d.clone()) {
                work.extend(uses.get(&d).into_iter().flatten());
            }
        }
    }
    let branches = f
        .ins
        .iter()
        .any(|i| i.op.starts_with("bra") && guard(i).is_some_and(|g| tainted.contains(g)));
    if !branches {
        return;
    }
    let addr_of = |i: &Ins| -> Option<String> {
        match i.op.split('.').next() {
            Some("ld") | Some("atom") => i.args.get(1).cloned(),
            Some("st") | Some("red") => i.args.first().cloned(),
            _ => None,
        }
    };
    // Strong accesses of global memory (a flag): `ld`/`st` with a sem other than weak, every
    // `atom`/`red`.
    let strong_global = |k: usize| {
        let i = &f.ins[k];
        let toks: Vec<&str> = i.op.split('.').collect();
        let sem = first_of(&toks, SEMS);
        let strong = matches!(toks[0], "atom" | "red")
            || (matches!(toks[0], "ld" | "st") && sem.as_deref().is_some_and(|s| s != "weak"));
        strong && addr_of(i).is_some_and(|a| cx.space(k, &a) == "global")
    };
    let mut hits = Vec::new();
    for (k, i) in f.ins.iter().enumerate() {
        let toks: Vec<&str> = i.op.split('.').collect();
        let sem = first_of(&toks, SEMS);
        let ordering = matches!(
            sem.as_deref(),
            Some("acquire") | Some("release") | Some("acq_rel") | Some("sc")
        );
        if matches!(toks[0], "ld" | "st" | "atom" | "red")
            && ordering
            && has(&toks, "cta")
            && strong_global(k)
        {
            hits.push((i, "a .cta-scoped release/acquire on a global flag"));
        }
        let cta_fence = (toks[0] == "fence"
            && has(&toks, "cta")
            && !has(&toks, "proxy")
            && !has(&toks, "mbarrier_init"))
            || i.op == "membar.cta";
        // The fence of a release or acquire pattern (PTX ISA §8.8): the memory access next to
        // it, on the straight-line path either way, is a strong global access (the flag).
        if cta_fence
            && [true, false]
                .into_iter()
                .any(|fwd| cx.next_access(k, fwd).is_some_and(&strong_global))
        {
            hits.push((i, "a .cta fence next to a strong access of a global flag"));
        }
    }
    hits.sort_by_key(|(i, _)| i.line);
    for (i, what) in hits {
        out.push(lint(
            f,
            "cta-scope-across-ctas",
            i.line,
            format!(
                "`{}` is {what} in a kernel that branches on its CTA (%ctaid): a .cta scope \
                 holds only the executing CTA, so this does not synchronize with another CTA's \
                 access (seed §3.5 fn. 15; PTX ISA §8.5, §8.7); use .gpu (or .cluster within a \
                 cluster)",
                norm(&i.text)
            ),
        ));
    }
}

/// `generic-load-then-tma-write` and `arrive-without-proxy-fence` (seed §5.3; PTX ISA §8.6
/// proxies, §9.7.9.25.2 async proxy, §9.7.13.4 `fence.proxy.async`): a generic-proxy read of a
/// shared buffer and, later on some path, with no `fence.proxy.async` between,
///
/// * a TMA write (`cp.async.bulk…` into shared memory) of the same buffer by the same thread
///   (`generic-load-then-tma-write`): the async proxy may overwrite it before the read is done;
/// * an `mbarrier.arrive` (not `.expect_tx`: that is a producer's) in a function that TMA-writes
///   that buffer (`arrive-without-proxy-fence`): the consumer's release hands the stage back to
///   the producer, whose TMA may then overwrite it before the consumer's reads are done — the
///   release orders the generic proxy only.
///
/// Buffers are compared by their root ([`Ctx::root`]: the shared variable an address comes
/// from, through inline-asm scopes, `cvta`, `cvt`, `mov` and address arithmetic). Limits: one
/// root per shared variable, so two stages of one array are one buffer (a read of stage 0 and a
/// TMA into stage 1 still fire); a TMA issued by another function (a `call`) is not seen; a
/// generic *store* before a TMA read (an epilogue's `st.shared` then `cp.async.bulk` to global)
/// is not checked.
fn lint_proxy(cx: &Ctx, out: &mut Vec<Lint>) {
    let f = cx.f;
    let tma_roots: BTreeSet<String> = f
        .ins
        .iter()
        .enumerate()
        .filter(|(_, i)| tma_into_shared(&i.op.split('.').collect::<Vec<_>>()))
        .filter_map(|(k, i)| i.args.first().map(|a| cx.root(a, k)))
        .collect();
    if tma_roots.is_empty() {
        return;
    }
    let step = |k: usize, facts: &mut BTreeMap<String, usize>| {
        let i = &f.ins[k];
        if proxy_fence(&i.op) {
            facts.clear();
        } else if generic_read(&i.op) {
            if let Some(a) = i.args.get(1) {
                facts.entry(cx.root(a, k)).or_insert(i.line);
            }
        }
    };
    let mut seen = BTreeSet::new();
    cx.flow(&step, &mut |k, facts| {
        let i = &f.ins[k];
        let toks: Vec<&str> = i.op.split('.').collect();
        if tma_into_shared(&toks) {
            let Some(dst) = i.args.first() else { return };
            let r = cx.root(dst, k);
            if let Some(ld) = facts.get(&r) {
                if seen.insert(i.line) {
                    out.push(lint(
                        f,
                        "generic-load-then-tma-write",
                        i.line,
                        format!(
                            "the TMA write `{}` into `{r}` follows the generic load at line {ld} \
                             of the same buffer with no fence.proxy.async between them (seed \
                             §5.3): the async proxy may overwrite it before the load reads",
                            i.op
                        ),
                    ));
                }
            }
        } else if toks[0] == "mbarrier"
            && toks.get(1) == Some(&"arrive")
            && !has(&toks, "expect_tx")
        {
            if let Some((r, ld)) = facts.iter().find(|(r, _)| tma_roots.contains(*r)) {
                if seen.insert(i.line) {
                    out.push(lint(
                        f,
                        "arrive-without-proxy-fence",
                        i.line,
                        format!(
                            "`{}` hands the stage back after the generic load at line {ld} of \
                             `{r}`, which a TMA (async proxy) writes, with no fence.proxy.async \
                             between them: the producer's next TMA may overwrite the stage \
                             before the load reads (seed §5.3, PTX ISA §8.6, §9.7.9.25.2); put \
                             fence.proxy.async.shared::cta before the arrive",
                            norm(&i.text)
                        ),
                    ));
                }
            }
        }
    });
}

/// `cp-async-barrier-without-wait` (seed §5.1; PTX ISA §9.7.9.25.3.1 `cp.async`,
/// §9.7.9.25.3.3 `cp.async.wait_group`): a `cp.async` copy and, later on some path, a barrier
/// (`bar.sync`/`bar.arrive`/`barrier.sync`/`barrier.arrive`/`barrier.cluster.arrive`) with no
/// `cp.async.wait_group`/`cp.async.wait_all` (nor `cp.async.mbarrier.arrive`, which hands the
/// completion to an mbarrier) between: the copy is not in program order, so the barrier does
/// not publish it, and a thread past the barrier may read the destination before it lands.
/// `commit_group` alone waits for nothing.
///
/// Limits: any `wait_group N` counts as the wait (a pipeline keeps `N` groups in flight on
/// purpose; whether the group the barrier publishes is among the finished ones is not checked);
/// a multi-stage pipeline that meets a barrier for another reason while copies are in flight
/// is reported (wait before that barrier, or ignore it).
fn lint_cp_async_barrier(cx: &Ctx, out: &mut Vec<Lint>) {
    let f = cx.f;
    if !f.ins.iter().any(|i| cp_async_copy(&i.op)) {
        return;
    }
    let step = |k: usize, facts: &mut BTreeMap<String, usize>| {
        let op = &f.ins[k].op;
        if cp_async_copy(op) {
            facts.entry("cp.async".into()).or_insert(f.ins[k].line);
        } else if op.starts_with("cp.async.wait") || op.starts_with("cp.async.mbarrier.arrive") {
            facts.clear();
        }
    };
    let mut hits = BTreeMap::new();
    cx.flow(&step, &mut |k, facts| {
        let i = &f.ins[k];
        if let (true, Some(&cp)) = (publishing_barrier(&i.op), facts.get("cp.async")) {
            hits.entry(i.line).or_insert((i, cp));
        }
    });
    for (line, (i, cp)) in hits {
        out.push(lint(
            f,
            "cp-async-barrier-without-wait",
            line,
            format!(
                "`{}` follows the cp.async at line {cp} with no cp.async.wait_group/wait_all \
                 between them: cp.async is not in program order, so the barrier does not \
                 publish the copy and a thread past it may read the destination before it lands \
                 (seed §5.1, PTX ISA §9.7.9.25.3.3); wait first (cp.async.wait_all, or \
                 commit_group then wait_group 0), then the barrier",
                norm(&i.text)
            ),
        ));
    }
}

/// The PTX lints of one function, in the order of the list in the module docs; `symbols`: the
/// module's variables and their state spaces ([`ptx_cfg::module_symbols`]).
pub fn ptx_lints(f: &Func, symbols: &BTreeMap<String, String>) -> Vec<Lint> {
    let cx = Ctx::new(f, symbols);
    let loops = cx.loops();
    let mut out = Vec::new();
    lint_aligned_two_paths(f, &mut out);
    lint_weak_spin(&cx, &loops, &mut out);
    lint_loops_without_load(&cx, &loops, &mut out);
    lint_remote_arrive(f, &mut out);
    lint_cta_scope(&cx, &mut out);
    lint_proxy(&cx, &mut out);
    lint_cp_async_barrier(&cx, &mut out);
    out
}
