//! A PTX kernel from a litmus file (`ptx-sync litmus FILE.litmus`): the test's own instructions
//! at its own thread placement, run with the stress methodology of `host/kernels/src/litmus.rs`.
//!
//! Built from the parsed [`Test`] alone (never from the model's verdicts):
//!
//! * **threads**: each litmus thread is one warp; its lane 0 does the memory operations
//!   (predicated on `%p_l0`), every loaded or returned value is broadcast to the warp with
//!   `shfl.sync.idx`, so control flow is warp-uniform and `.aligned` barriers are legal. Threads
//!   with the same placement CTA are different warps of one CTA; a barrier count of `n` litmus
//!   threads is `32 n` hardware threads, a barrier without count counts the test's threads of
//!   that CTA;
//! * **CTAs and clusters**: the grid is made of *units* — a CTA, or when the test names clusters
//!   a cluster of CTAs (`.explicitcluster`, launched with a cluster dimension); the host draws
//!   per launch which unit plays which unit of which instance (`units[]`), or stresses;
//! * **locations**: every physical location is word 0 of its own 128-byte line of `mem`;
//!   instance `i`'s location `v` is line `locs[i] * n_locs + v` (the host permutes `locs` every
//!   launch); stress threads write and read the other words of those lines;
//! * **start**: pre-stress quorum (`sync[0]`), then a bounded start barrier per instance
//!   (`sync[SYNC_HEAD + i]`), after L1 warming (`ld.global.ca` of every location the thread reads);
//! * **loops**: every backward branch counts against [`LOOP_LIMIT`] and a `%globaltimer` budget:
//!   a thread that runs out records a timeout bit, never hangs;
//! * **results**: per instance `out_words` words: `[0]` done mask (bit t: thread t finished),
//!   `[1]` timeout mask, then the observed registers ([`Layout::reg_terms`]); final memory values
//!   are read back from `mem` by the host after the launch.
//!
//! Not supported on hardware (the reason is returned): virtual aliases (a second virtual address
//! of the same memory needs `cuMemMap` to map one physical allocation twice; not implemented),
//! surface/texture/constant proxies, shared-memory locations, 64-bit accesses, threads on more
//! than one GPU, the three-operand barrier dialect, files flagged `Flags: hang` (a CTA
//! barrier that never completes cannot be bounded on the GPU), and literals that do not fit 32
//! bits (an initial value, an operand, a register's initial value or a condition constant outside
//! `-2^31 ..= 2^32 - 1`: the kernel's registers and locations are 32-bit words, and values are
//! compared modulo 2^32, [`norm32`]).

use ptx_sync_model::ast::{
    AluOp, BarKind, FenceSem, Instr, Prop, Proxy, RmwOp, Scope, Sem, Term, Test, Val,
};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The kernel's entry name.
pub const ENTRY: &str = "ptxsync_litmus_file";
/// Words of `sync` before the per-instance start barriers: `[0]` quorum, `[1]` finished
/// testers, `[2]` start-barrier timeouts, `[3]` stress threads stopped by the deadline.
pub const SYNC_HEAD: usize = 4;
/// Words of an output record before the observed registers (done mask, timeout mask).
pub const OUT_HEAD: usize = 2;
/// Iterations of backward branches one thread may take before it records a timeout.
pub const LOOP_LIMIT: u32 = 4096;
/// Words per location line (128 bytes).
pub const LINE_WORDS: u32 = 32;
/// Rounds a stress thread runs before it counts towards the pre-stress quorum.
pub const PRESTRESS: u32 = 256;
/// A `units[]` entry of a stress unit.
pub const STRESS_UNIT: u32 = u32::MAX;

/// The kernel parameters, in order (`#[repr(C)]` layout on the host, 80 bytes):
/// `mem, units, locs, out, sync, budget_ns: u64; n_instances, out_words, n_locs, mem_words,
/// stress_iters, n_testers, seed, pad: u32` (`pad` is 0; the kernel reads it so that ptxas keeps
/// the L1 warm-up loads, whose values are used only when it is not).
pub const PARAMS: &[(&str, &str)] = &[
    ("mem", "u64"),
    ("units", "u64"),
    ("locs", "u64"),
    ("out", "u64"),
    ("sync", "u64"),
    ("budget_ns", "u64"),
    ("n_instances", "u32"),
    ("out_words", "u32"),
    ("n_locs", "u32"),
    ("mem_words", "u32"),
    ("stress_iters", "u32"),
    ("n_testers", "u32"),
    ("seed", "u32"),
    ("pad", "u32"),
];

/// Where the test's threads and results are.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// Physical locations and their initial values.
    pub init: Vec<i64>,
    /// Litmus threads.
    pub n_threads: usize,
    /// Units (CTAs, or clusters) per instance.
    pub units: u32,
    /// CTAs per unit (`Some(n)`: a cluster launch with clusters of n CTAs).
    pub cluster: Option<u32>,
    /// Warps per CTA (the block is `32 * warps` threads).
    pub warps: u32,
    /// Words per output record.
    pub out_words: usize,
    /// The observed register terms (thread index, register index), at words `OUT_HEAD + k`.
    pub reg_terms: Vec<(usize, usize)>,
    /// Per thread: (unit, CTA rank in the unit, warp).
    pub placement: Vec<(u32, u32, u32)>,
}

/// A generated kernel.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// The PTX module text (one `.entry`).
    pub ptx: String,
    /// Where each thread's observed registers land in the output buffer.
    pub layout: Layout,
}

fn val(t: usize, v: &Val) -> String {
    match v {
        Val::Reg(r) => format!("%t{t}_r{r}"),
        Val::Imm(i) => (*i as i32).to_string(),
    }
}

/// A register holding `v` (an immediate goes through `tmp` first).
fn reg(o: &mut String, t: usize, v: &Val, tmp: &str) -> String {
    match v {
        Val::Reg(_) => val(t, v),
        Val::Imm(i) => {
            let _ = writeln!(o, "\tmov.u32 {tmp}, {};", *i as i32);
            tmp.to_string()
        }
    }
}

fn scope(s: Scope) -> &'static str {
    match s {
        Scope::Cta => "cta",
        Scope::Cluster => "cluster",
        Scope::Gpu => "gpu",
        Scope::Sys => "sys",
    }
}

/// The opcode as written (first token), lower-case.
fn opcode(text: &str) -> String {
    text.split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// A value as the kernel's 32-bit words hold it: modulo 2^32, as the unsigned representative
/// (`-1` and `4294967295` are the same word). The GPU's results and the model's states are both
/// compared through it.
pub fn norm32(v: i64) -> i64 {
    v as u32 as i64
}

/// Whether a literal fits a 32-bit word, read as signed or as unsigned.
fn fits32(v: i64) -> bool {
    (i32::MIN as i64..=u32::MAX as i64).contains(&v)
}

/// The first literal of `t` that does not fit a 32-bit word: (what, value, line).
fn wide_literal(t: &Test) -> Option<String> {
    let bad = |v: &Val| matches!(v, Val::Imm(i) if !fits32(*i));
    for (name, v) in &t.phys {
        if !fits32(*v) {
            return Some(format!("the initial value {v} of `{name}`"));
        }
    }
    for th in &t.threads {
        for (r, v) in th.init.iter().enumerate() {
            if !fits32(*v) {
                let reg = th.regs.get(r).map_or("?", |s| s.as_str());
                return Some(format!("the initial value {v} of P{}:{reg}", th.id));
            }
        }
        for l in &th.code {
            let vals: Vec<&Val> = match &l.instr {
                Instr::Store { val, .. } => vec![val],
                Instr::Rmw { a, b, .. } => std::iter::once(a).chain(b.as_ref()).collect(),
                Instr::Bar {
                    id, count, pred, ..
                } => std::iter::once(id)
                    .chain(count.as_ref())
                    .chain(pred.as_ref().map(|p| &p.0))
                    .collect(),
                Instr::Alu { a, b, .. } | Instr::Branch { a, b, .. } => vec![a, b],
                _ => Vec::new(),
            };
            if let Some(Val::Imm(i)) = vals.into_iter().find(|v| bad(v)) {
                return Some(format!("the literal {i} (line {})", l.line));
            }
        }
    }
    fn prop(p: &Prop) -> Option<i64> {
        match p {
            Prop::True | Prop::False => None,
            Prop::Cmp(_, a, b) => [a, b].into_iter().find_map(|t| match t {
                Term::Imm(i) if !fits32(*i) => Some(*i),
                _ => None,
            }),
            Prop::Not(q) => prop(q),
            Prop::And(a, b) | Prop::Or(a, b) => prop(a).or_else(|| prop(b)),
        }
    }
    prop(&t.prop).map(|i| format!("the constant {i} (line {})", t.condition_line))
}

/// Why `t` cannot run on hardware, if it cannot; checked before generation.
fn unsupported(t: &Test) -> Option<String> {
    if let Some(w) = wide_literal(t) {
        return Some(format!(
            "{w} does not fit 32 bits (the kernel's values are 32-bit words)"
        ));
    }
    if t.n_vaddr > t.phys.len() {
        return Some(
            "virtual aliases on hardware (a second virtual address of one physical location \
             needs cuMemMap; not implemented)"
                .into(),
        );
    }
    if t.comment_field("Flags").is_some_and(|f| f.contains("hang")) {
        return Some(
            "a barrier may never complete (Flags: hang); it cannot be bounded on the GPU".into(),
        );
    }
    let gpus: std::collections::BTreeSet<i64> = t.threads.iter().map(|th| th.place.gpu).collect();
    if gpus.len() > 1 {
        return Some("threads on more than one GPU".into());
    }
    for th in &t.threads {
        for l in &th.code {
            let op = opcode(&l.text);
            let why = match &l.instr {
                Instr::Load { proxy, .. } | Instr::Store { proxy, .. }
                    if *proxy != Proxy::Generic =>
                {
                    Some(format!("{proxy} proxy accesses on hardware"))
                }
                Instr::ProxyFence { proxy } if *proxy != Proxy::Async => {
                    Some(format!("{proxy} proxy on hardware (fence.proxy.{proxy})"))
                }
                Instr::Bar {
                    instance: Some(_), ..
                } => Some("the three-operand barrier dialect".into()),
                _ => None,
            };
            if let Some(w) = why {
                return Some(format!("{w} (line {})", l.line));
            }
            if op.contains(".shared") {
                return Some(format!("shared-memory locations (line {})", l.line));
            }
            if [".u64", ".s64", ".b64"].iter().any(|s| op.contains(s))
                || matches!(l.instr, Instr::Rmw { bits: 64, .. })
            {
                return Some(format!("64-bit accesses (line {})", l.line));
            }
        }
    }
    None
}

/// Generates the kernel, or says why the test cannot run on hardware.
pub fn generate(t: &Test) -> Result<Kernel, String> {
    if let Some(w) = unsupported(t) {
        return Err(w);
    }
    if t.threads.is_empty() {
        return Err("no threads".into());
    }
    if t.threads.len() > 32 {
        return Err("more than 32 threads (the done and timeout masks are 32-bit words)".into());
    }
    let clusters = names_clusters(t);
    // Units: clusters (if named) or CTAs; CTAs of a unit by rank; warps of a CTA by thread order.
    let mut unit_of: BTreeMap<i64, u32> = BTreeMap::new();
    let mut cta_of: BTreeMap<(i64, i64), u32> = BTreeMap::new();
    let mut warps_of: BTreeMap<(i64, i64), u32> = BTreeMap::new();
    let mut placement = Vec::new();
    for th in &t.threads {
        let ukey = if clusters {
            th.place.cluster
        } else {
            th.place.cta
        };
        let n = unit_of.len() as u32;
        let u = *unit_of.entry(ukey).or_insert(n);
        let rank = if clusters {
            let n = cta_of.keys().filter(|k| k.0 == ukey).count() as u32;
            *cta_of.entry((ukey, th.place.cta)).or_insert(n)
        } else {
            0
        };
        let w = warps_of.entry((ukey, th.place.cta)).or_insert(0);
        placement.push((u, rank, *w));
        *w += 1;
    }
    let units = unit_of.len() as u32;
    let warps = warps_of.values().copied().max().unwrap_or(1);
    let cl = if clusters {
        Some(
            (0..units)
                .map(|u| {
                    placement
                        .iter()
                        .filter(|p| p.0 == u)
                        .map(|p| p.1 + 1)
                        .max()
                        .unwrap_or(1)
                })
                .max()
                .unwrap_or(1),
        )
    } else {
        None
    };
    let uses_cluster_bar = t.threads.iter().any(|th| {
        th.code
            .iter()
            .any(|l| matches!(l.instr, Instr::ClusterArrive { .. } | Instr::ClusterWait))
    });
    if uses_cluster_bar {
        // barrier.cluster counts every thread of the cluster: every CTA must be fully the test's.
        let full = warps_of.values().all(|&w| w == warps)
            && (0..units).all(|u| {
                cl.is_none_or(|c| {
                    placement
                        .iter()
                        .filter(|p| p.0 == u)
                        .map(|p| p.1)
                        .collect::<std::collections::BTreeSet<_>>()
                        .len() as u32
                        == c
                })
            });
        if !full {
            return Err("a cluster barrier with CTAs of different thread counts (barrier.cluster counts every thread of the cluster)".into());
        }
    }
    let reg_terms: Vec<(usize, usize)> = {
        let mut v = Vec::new();
        for term in &t.observed {
            if let Term::Reg(th, r) = term {
                if !v.contains(&(*th, *r)) {
                    v.push((*th, *r));
                }
            }
        }
        v
    };
    let layout = Layout {
        init: t.phys.iter().map(|p| p.1).collect(),
        n_threads: t.threads.len(),
        units,
        cluster: cl,
        warps,
        out_words: OUT_HEAD + reg_terms.len(),
        reg_terms,
        placement,
    };
    let ptx = emit(t, &layout, &warps_of, clusters);
    Ok(Kernel { ptx, layout })
}

fn names_clusters(t: &Test) -> bool {
    // A test names clusters when some thread's cluster differs from its CTA's own index (the
    // parser sets cluster = cta when no `cluster` level is written); otherwise every CTA is its
    // own (implicit 1x1x1) cluster and the launch has none.
    t.threads.iter().any(|th| th.place.cluster != th.place.cta)
}

fn emit(t: &Test, lay: &Layout, warps_of: &BTreeMap<(i64, i64), u32>, clusters: bool) -> String {
    let mut o = String::new();
    let nloc = t.phys.len().max(1);
    let _ = writeln!(
        o,
        "// ptx-sync: litmus test {} ({}), generated by host/src/exec/litmus_ptx.rs",
        t.name, t.file
    );
    o.push_str(".version 8.6\n.target sm_90\n.address_size 64\n\n");
    let _ = write!(o, ".visible .entry {ENTRY}(");
    for (k, (n, ty)) in PARAMS.iter().enumerate() {
        let _ = write!(o, "{}\n\t.param .{ty} p_{n}", if k == 0 { "" } else { "," });
    }
    o.push_str("\n)\n");
    if let Some(c) = lay.cluster {
        // Launched with a cluster dimension of (c, 1, 1) (as the §5 cluster kernels are);
        // `.explicitcluster` makes a launch without one an error. A compile-time
        // `.reqnctapercluster` is not used: a launch may not change or restate it.
        let _ = writeln!(o, ".explicitcluster // clusters of {c} CTAs");
    }
    o.push_str("{\n");
    o.push_str(
        "\t.reg .pred %p<10>;\n\t.reg .b32 %w<40>;\n\t.reg .b64 %d<40>;\n\t.reg .pred %p_l0;\n",
    );
    for v in 0..nloc {
        let _ = writeln!(o, "\t.reg .b64 %a{v};\n\t.reg .b64 %g{v};");
    }
    for (k, th) in t.threads.iter().enumerate() {
        let _ = writeln!(o, "\t.reg .b32 %t{k}_r<{}>;", th.regs.len().max(1));
    }
    // Parameters: %d0 mem, %d1 units, %d2 locs, %d3 out, %d4 sync, %d5 budget;
    // %w0 n_instances, %w1 out_words, %w2 n_locs, %w3 mem_words, %w4 stress_iters, %w5 n_testers, %w6 seed.
    for (k, n) in ["mem", "units", "locs", "out", "sync", "budget_ns"]
        .iter()
        .enumerate()
    {
        let _ = writeln!(o, "\tld.param.u64 %d{k}, [p_{n}];");
    }
    for (k, n) in [
        "n_instances",
        "out_words",
        "n_locs",
        "mem_words",
        "stress_iters",
        "n_testers",
        "seed",
    ]
    .iter()
    .enumerate()
    {
        let _ = writeln!(o, "\tld.param.u32 %w{k}, [p_{n}];");
    }
    // `pad` (the host passes 0): keeps the L1 warm-up loads alive (see `thread`).
    o.push_str("\tld.param.u32 %w19, [p_pad];\n");
    // The locations are addressed generically (%a, from the generic `mem` pointer) and, for
    // `.global` accesses and the L1 warm-up, through the global window (%g); %d12 is `mem` there.
    for k in 1..5 {
        let _ = writeln!(o, "\tcvta.to.global.u64 %d{k}, %d{k};");
    }
    o.push_str("\tcvta.to.global.u64 %d12, %d0;\n");
    // Unit and rank: %w7 unit slot index, %w8 CTA rank in the unit.
    if clusters {
        o.push_str("\tmov.u32 %w7, %clusterid.x;\n\tmov.u32 %w8, %cluster_ctarank;\n");
    } else {
        o.push_str("\tmov.u32 %w7, %ctaid.x;\n\tmov.u32 %w8, 0;\n");
    }
    o.push_str(
        "\tmul.wide.u32 %d6, %w7, 4;\n\tadd.u64 %d6, %d1, %d6;\n\tld.global.u32 %w9, [%d6];\n",
    );
    let _ = writeln!(
        o,
        "\tsetp.eq.u32 %p0, %w9, {STRESS_UNIT};\n\t@%p0 bra STRESS;"
    );
    // %w10 instance, %w11 unit of the instance.
    let _ = writeln!(
        o,
        "\tdiv.u32 %w10, %w9, {};\n\trem.u32 %w11, %w9, {};",
        lay.units, lay.units
    );
    o.push_str("\tsetp.ge.u32 %p0, %w10, %w0;\n\t@%p0 bra EXIT;\n");
    o.push_str("\tmov.u32 %w12, %tid.x;\n\tand.b32 %w13, %w12, 31;\n\tshr.u32 %w12, %w12, 5;\n\tsetp.eq.u32 %p_l0, %w13, 0;\n");
    // Locations.
    o.push_str(
        "\tmul.wide.u32 %d6, %w10, 4;\n\tadd.u64 %d6, %d2, %d6;\n\tld.global.u32 %w14, [%d6];\n",
    );
    let _ = writeln!(o, "\tmul.lo.u32 %w14, %w14, {nloc};");
    for v in 0..nloc {
        let _ = writeln!(o, "\tadd.u32 %w15, %w14, {v};\n\tmul.wide.u32 %d6, %w15, {};\n\tadd.u64 %a{v}, %d0, %d6;\n\tcvta.to.global.u64 %g{v}, %a{v};", LINE_WORDS * 4);
    }
    // %d7 the instance's output record, %d8 its start-barrier word.
    o.push_str(
        "\tmul.lo.u32 %w15, %w10, %w1;\n\tmul.wide.u32 %d7, %w15, 4;\n\tadd.u64 %d7, %d3, %d7;\n",
    );
    let _ = writeln!(o, "\tadd.u32 %w15, %w10, {SYNC_HEAD};\n\tmul.wide.u32 %d8, %w15, 4;\n\tadd.u64 %d8, %d4, %d8;");
    for (k, &(u, r, w)) in lay.placement.iter().enumerate() {
        let _ = writeln!(
            o,
            "\tsetp.eq.u32 %p1, %w11, {u};\n\tsetp.eq.and.u32 %p1, %w8, {r}, %p1;\n\tsetp.eq.and.u32 %p1, %w12, {w}, %p1;\n\t@%p1 bra T{k};"
        );
    }
    o.push_str("\tbra EXIT;\n");
    for (k, th) in t.threads.iter().enumerate() {
        let ckey = t.threads[k].place;
        let ukey = if clusters { ckey.cluster } else { ckey.cta };
        let cta_threads = warps_of[&(ukey, ckey.cta)];
        thread(&mut o, t, k, th, lay, cta_threads);
    }
    stress(&mut o, nloc);
    o.push_str("EXIT:\n\tret;\n}\n");
    o
}

fn thread(
    o: &mut String,
    t: &Test,
    k: usize,
    th: &ptx_sync_model::ast::Thread,
    lay: &Layout,
    cta_threads: u32,
) {
    let _ = writeln!(o, "T{k}:");
    for (r, v) in th.regs.iter().enumerate() {
        let init = th.init.get(r).copied().unwrap_or(0);
        let _ = writeln!(o, "\tmov.u32 %t{k}_r{r}, {}; // {v}", init as i32);
    }
    // L1 warming: every location this thread reads.
    // Their values are summed into %w18, stored only when `pad` is non-zero (never: the host
    // passes 0, but ptxas cannot know it and keeps the loads).
    let mut warmed = Vec::new();
    o.push_str("\tmov.u32 %w18, 0;\n");
    for l in &th.code {
        if let Instr::Load { addr, .. } = &l.instr {
            if !warmed.contains(&addr.phys) {
                warmed.push(addr.phys);
                let _ = writeln!(
                    o,
                    "\t@%p_l0 ld.global.ca.u32 %w16, [%g{}];\n\tadd.u32 %w18, %w18, %w16;",
                    addr.phys
                );
            }
        }
    }
    let _ = writeln!(o, "\tsetp.ne.and.u32 %p8, %w19, 0, %p_l0;\n\t@%p8 red.relaxed.gpu.global.add.u32 [%d4+12], %w18;");
    // Start: pre-stress quorum, then the instance's start barrier (lane 0, bounded).
    let n = t.threads.len();
    let _ = writeln!(
        o,
        "\t@!%p_l0 bra T{k}_GO;\n\tmov.u64 %d9, %globaltimer;\n\tadd.u64 %d10, %d9, %d5;\n\
T{k}_Q:\n\tld.relaxed.gpu.global.u32 %w16, [%d4];\n\tsetp.le.s32 %p2, %w16, 0;\n\t@%p2 bra T{k}_A;\n\
\tmov.u64 %d9, %globaltimer;\n\tsetp.gt.u64 %p2, %d9, %d10;\n\t@%p2 bra T{k}_LATE;\n\tbra T{k}_Q;\n\
T{k}_A:\n\tred.relaxed.gpu.global.add.u32 [%d8], 1;\n\
T{k}_B:\n\tld.relaxed.gpu.global.u32 %w16, [%d8];\n\tsetp.ge.u32 %p2, %w16, {n};\n\t@%p2 bra T{k}_GO;\n\
\tmov.u64 %d9, %globaltimer;\n\tsetp.gt.u64 %p2, %d9, %d10;\n\t@%p2 bra T{k}_LATE;\n\tbra T{k}_B;\n\
T{k}_LATE:\n\tred.relaxed.gpu.global.add.u32 [%d4+8], 1;\n\
T{k}_GO:\n\tbar.warp.sync 0xffffffff;\n\tmov.u64 %d9, %globaltimer;\n\tadd.u64 %d10, %d9, %d5;\n\tmov.u32 %w17, 0;"
    );
    let end = th.code.len();
    for (i, l) in th.code.iter().enumerate() {
        let _ = writeln!(o, "T{k}_L{i}: // {}", l.text.replace('\n', " "));
        instr(o, k, &l.instr, &l.text, i, cta_threads);
    }
    let _ = writeln!(o, "T{k}_L{end}:");
    // Results: observed registers, done bit, finished count.
    for (j, &(tt, r)) in lay.reg_terms.iter().enumerate() {
        if tt == k {
            let _ = writeln!(
                o,
                "\t@%p_l0 st.global.u32 [%d7+{}], %t{k}_r{r};",
                4 * (OUT_HEAD + j)
            );
        }
    }
    let _ = writeln!(
        o,
        "\t@%p_l0 red.relaxed.gpu.global.or.b32 [%d7], {};\n\tbra T{k}_FIN;",
        1u32 << k
    );
    let _ = writeln!(
        o,
        "T{k}_TIMEOUT:\n\t@%p_l0 red.relaxed.gpu.global.or.b32 [%d7+4], {};",
        1u32 << k
    );
    let _ = writeln!(
        o,
        "T{k}_FIN:\n\t@%p_l0 red.relaxed.gpu.global.add.u32 [%d4+4], 1;\n\tbra EXIT;"
    );
}

/// The loop guard before a backward branch: count, check the budget (warp-uniform via vote).
fn guard(o: &mut String, k: usize) {
    let _ = writeln!(
        o,
        "\tadd.u32 %w17, %w17, 1;\n\tmov.u64 %d9, %globaltimer;\n\tsetp.gt.u64 %p3, %d9, %d10;\n\
\tsetp.gt.or.u32 %p3, %w17, {LOOP_LIMIT}, %p3;\n\tvote.sync.any.pred %p3, %p3, 0xffffffff;\n\t@%p3 bra T{k}_TIMEOUT;"
    );
}

/// The `.sem.scope` of an `ld`/`st` as the file wrote it (`.volatile` and `.weak` kept).
fn ldst_qualifiers(sem: Sem, sc: Option<Scope>, op: &str) -> String {
    match sem {
        Sem::Weak | Sem::Relaxed if op.contains(".volatile") => ".volatile".to_string(),
        Sem::Weak if op.contains(".weak") => ".weak".to_string(),
        Sem::Weak => String::new(),
        s => format!(".{s}.{}", scope(sc.unwrap_or(Scope::Sys))),
    }
}

fn bcast(o: &mut String, r: &str) {
    let _ = writeln!(o, "\tshfl.sync.idx.b32 {r}, {r}, 0, 31, 0xffffffff;");
}

fn instr(o: &mut String, k: usize, ins: &Instr, text: &str, at: usize, cta_threads: u32) {
    let op = opcode(text);
    let global = if op.contains(".global") {
        ".global"
    } else {
        ""
    };
    let sp = if global.is_empty() { "a" } else { "g" };
    match ins {
        Instr::Load {
            sem,
            scope: sc,
            dst,
            addr,
            ..
        } => {
            let q = ldst_qualifiers(*sem, *sc, &op);
            let d = format!("%t{k}_r{dst}");
            let _ = writeln!(o, "\t@%p_l0 ld{q}{global}.u32 {d}, [%{sp}{}];", addr.phys);
            bcast(o, &d);
        }
        Instr::Store {
            sem,
            scope: sc,
            addr,
            val: v,
            ..
        } => {
            let q = ldst_qualifiers(*sem, *sc, &op);
            let r = reg(o, k, v, "%w30");
            let _ = writeln!(o, "\t@%p_l0 st{q}{global}.u32 [%{sp}{}], {r};", addr.phys);
        }
        Instr::Rmw {
            sem,
            scope: sc,
            op: rop,
            dst,
            addr,
            a,
            b,
            signed,
            ..
        } => {
            let (name, ty) = match rop {
                RmwOp::Add | RmwOp::Sub => ("add", if *signed { "s32" } else { "u32" }),
                RmwOp::Inc => ("inc", "u32"),
                RmwOp::Dec => ("dec", "u32"),
                RmwOp::And => ("and", "b32"),
                RmwOp::Or => ("or", "b32"),
                RmwOp::Xor => ("xor", "b32"),
                RmwOp::Min => ("min", if *signed { "s32" } else { "u32" }),
                RmwOp::Max => ("max", if *signed { "s32" } else { "u32" }),
                RmwOp::Exch => ("exch", "b32"),
                RmwOp::Cas => ("cas", "b32"),
            };
            let mut ra = reg(o, k, a, "%w30");
            if *rop == RmwOp::Sub {
                // `atom.sub` is not PTX: the add of the negation.
                let _ = writeln!(o, "\tneg.s32 %w32, {ra};");
                ra = "%w32".into();
            }
            let addr = format!("[%{sp}{}]", addr.phys);
            let sc = scope(*sc);
            match dst {
                Some(d) => {
                    let d = format!("%t{k}_r{d}");
                    let extra = match b {
                        Some(bv) if *rop == RmwOp::Cas => format!(", {}", reg(o, k, bv, "%w31")),
                        _ => String::new(),
                    };
                    let _ = writeln!(
                        o,
                        "\t@%p_l0 atom.{sem}.{sc}{global}.{name}.{ty} {d}, {addr}, {ra}{extra};"
                    );
                    bcast(o, &d);
                }
                None => {
                    let _ = writeln!(
                        o,
                        "\t@%p_l0 red.{sem}.{sc}{global}.{name}.{ty} {addr}, {ra};"
                    );
                }
            }
        }
        Instr::Fence { sem, scope: sc } => {
            if op.starts_with("membar") {
                let _ = writeln!(o, "\t{op};");
            } else {
                let s = match sem {
                    FenceSem::Sc => "sc",
                    FenceSem::AcqRel => "acq_rel",
                    FenceSem::Acquire => "acquire",
                    FenceSem::Release => "release",
                };
                let _ = writeln!(o, "\tfence.{s}.{};", scope(*sc));
            }
        }
        Instr::ProxyFence { .. } => o.push_str("\tfence.proxy.async;\n"),
        Instr::AliasFence => o.push_str("\tfence.proxy.alias;\n"),
        Instr::Bar {
            kind,
            id,
            count,
            dst,
            pred,
            ..
        } => {
            let idr = match id {
                Val::Imm(i) => i.to_string(),
                r => val(k, r),
            };
            let cnt = match count {
                None => (32 * cta_threads).to_string(),
                Some(Val::Imm(n)) => (32 * n).to_string(),
                Some(r) => {
                    let _ = writeln!(o, "\tmul.lo.u32 %w29, {}, 32;", val(k, r));
                    "%w29".into()
                }
            };
            // The family as written: bar / bar.cta / barrier / barrier.cta.
            let fam = if op.starts_with("barrier.cta") {
                "barrier.cta"
            } else if op.starts_with("barrier") {
                "barrier"
            } else if op.starts_with("bar.cta") {
                "bar.cta"
            } else {
                "bar"
            };
            let p = |o: &mut String| -> String {
                let (v, neg) = pred.clone().unwrap_or((Val::Imm(1), false));
                let r = reg(o, k, &v, "%w31");
                let _ = writeln!(o, "\tsetp.ne.u32 %p4, {r}, 0;");
                format!("{}%p4", if neg { "!" } else { "" })
            };
            match kind {
                BarKind::Sync => {
                    let _ = writeln!(o, "\t{fam}.sync {idr}, {cnt};");
                }
                BarKind::Arrive => {
                    let _ = writeln!(o, "\t{fam}.arrive {idr}, {cnt};");
                }
                BarKind::RedPopc => {
                    let pp = p(o);
                    let d = format!("%t{k}_r{}", dst.unwrap_or(0));
                    // Every lane of a litmus thread votes: the count is 32 per thread.
                    let _ = writeln!(
                        o,
                        "\t{fam}.red.popc.u32 {d}, {idr}, {cnt}, {pp};\n\tshr.u32 {d}, {d}, 5;"
                    );
                }
                BarKind::RedAnd | BarKind::RedOr => {
                    let pp = p(o);
                    let d = format!("%t{k}_r{}", dst.unwrap_or(0));
                    let w = if *kind == BarKind::RedAnd {
                        "and"
                    } else {
                        "or"
                    };
                    let _ = writeln!(
                        o,
                        "\t{fam}.red.{w}.pred %p5, {idr}, {cnt}, {pp};\n\tselp.u32 {d}, 1, 0, %p5;"
                    );
                }
            }
        }
        Instr::ClusterArrive { relaxed } => {
            let _ = writeln!(
                o,
                "\tbarrier.cluster.arrive{}.aligned;",
                if *relaxed { ".relaxed" } else { ".release" }
            );
        }
        Instr::ClusterWait => o.push_str("\tbarrier.cluster.wait.acquire.aligned;\n"),
        Instr::Alu { op: aop, dst, a, b } => {
            let d = format!("%t{k}_r{dst}");
            let ra = reg(o, k, a, "%w30");
            match aop {
                AluOp::Mov => {
                    let _ = writeln!(o, "\tmov.u32 {d}, {ra};");
                }
                AluOp::Div => {
                    let rb = reg(o, k, b, "%w31");
                    let _ = writeln!(
                        o,
                        "\tsetp.eq.u32 %p6, {rb}, 0;\n\t@!%p6 div.s32 {d}, {ra}, {rb};\n\t@%p6 mov.u32 {d}, 0;"
                    );
                }
                _ => {
                    let rb = reg(o, k, b, "%w31");
                    let m = match aop {
                        AluOp::Add => "add.u32",
                        AluOp::Sub => "sub.u32",
                        AluOp::Mul => "mul.lo.u32",
                        AluOp::And => "and.b32",
                        AluOp::Or => "or.b32",
                        _ => "xor.b32",
                    };
                    let _ = writeln!(o, "\t{m} {d}, {ra}, {rb};");
                }
            }
        }
        Instr::Branch {
            cmp: c,
            a,
            b,
            target,
        } => {
            if *target <= at {
                guard(o, k);
            }
            let ra = reg(o, k, a, "%w30");
            let rb = reg(o, k, b, "%w31");
            let _ = writeln!(
                o,
                "\tsetp.{}.s32 %p7, {ra}, {rb};\n\t@%p7 bra T{k}_L{target};",
                c.suffix()
            );
        }
        Instr::Goto { target } => {
            if *target <= at {
                guard(o, k);
            }
            let _ = writeln!(o, "\tbra T{k}_L{target};");
        }
        Instr::Nop => {}
    }
}

/// Stress threads: stores and loads at random words of the test's lines that are not
/// locations (MC Mutants' store–load pattern), until every tester finished, `stress_iters`
/// rounds, or the deadline (counted in `sync[3]`).
fn stress(o: &mut String, _nloc: usize) {
    let _ = writeln!(
        o,
        "STRESS:\n\tmov.u32 %w20, %ctaid.x;\n\tmov.u32 %w21, %ntid.x;\n\tmov.u32 %w22, %tid.x;\n\
\tmad.lo.u32 %w20, %w20, %w21, %w22;\n\txor.b32 %w23, %w6, %w20;\n\tor.b32 %w23, %w23, 1;\n\
\tmov.u64 %d9, %globaltimer;\n\tadd.u64 %d10, %d9, %d5;\n\
\tsetp.lt.u32 %p0, %w4, {PRESTRESS};\n\tsetp.lt.or.u32 %p0, %w3, 2, %p0;\n\t@%p0 bra S_QUIT;\n\tmov.u32 %w24, 0;\n\
S_LOOP:\n\tsetp.ge.u32 %p0, %w24, %w4;\n\t@%p0 bra EXIT;\n\tand.b32 %w25, %w24, 31;\n\tsetp.ne.u32 %p0, %w25, 0;\n\t@%p0 bra S_WORK;\n\
\tld.relaxed.gpu.global.u32 %w25, [%d4+4];\n\tsetp.ge.u32 %p0, %w25, %w5;\n\t@%p0 bra EXIT;\n\
\tmov.u64 %d9, %globaltimer;\n\tsetp.gt.u64 %p0, %d9, %d10;\n\t@!%p0 bra S_WORK;\n\tred.relaxed.gpu.global.add.u32 [%d4+12], 1;\n\tbra EXIT;\n\
S_WORK:\n\tshl.b32 %w25, %w23, 13;\n\txor.b32 %w23, %w23, %w25;\n\tshr.u32 %w25, %w23, 17;\n\txor.b32 %w23, %w23, %w25;\n\
\tshl.b32 %w25, %w23, 5;\n\txor.b32 %w23, %w23, %w25;\n\
\trem.u32 %w26, %w23, %w3;\n\tand.b32 %w27, %w26, {m};\n\tsetp.eq.u32 %p0, %w27, 0;\n\t@%p0 add.u32 %w26, %w26, 1;\n\
\tmul.wide.u32 %d11, %w26, 4;\n\tadd.u64 %d11, %d12, %d11;\n\tst.volatile.global.u32 [%d11], %w24;\n\
\tshr.u32 %w26, %w23, 7;\n\trem.u32 %w26, %w26, %w3;\n\tand.b32 %w27, %w26, {m};\n\tsetp.eq.u32 %p0, %w27, 0;\n\t@%p0 add.u32 %w26, %w26, 1;\n\
\tmul.wide.u32 %d11, %w26, 4;\n\tadd.u64 %d11, %d12, %d11;\n\tld.volatile.global.u32 %w28, [%d11];\n\
\tadd.u32 %w24, %w24, 1;\n\tsetp.ne.u32 %p0, %w24, {PRESTRESS};\n\t@%p0 bra S_LOOP;\n\tred.relaxed.gpu.global.add.u32 [%d4], 0xffffffff;\n\tbra S_LOOP;\n\
S_QUIT:\n\tred.relaxed.gpu.global.add.u32 [%d4], 0xffffffff;\n\tbra EXIT;",
        m = LINE_WORDS - 1
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    const MP: &str = "PTX MP\n{\nx=0; flag=0;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak.u32 [x], 42 | ld.acquire.gpu.u32 r0, [flag] ;\n st.release.gpu.u32 [flag], 1 | ld.weak.u32 r1, [x] ;\nexists (P1:r0 == 1 /\\ P1:r1 != 42)\n";

    #[test]
    fn mp_kernel_has_the_instructions_and_placement() {
        let t = ptx_sync_model::parse(MP, "mp.litmus").unwrap();
        let k = generate(&t).unwrap();
        for s in [
            "ld.acquire.gpu.u32 %t1_r0, [%a1];",
            "st.release.gpu.u32 [%a1], %w30;",
            "st.weak.u32 [%a0], %w30;",
            "ld.weak.u32 %t1_r1, [%a0];",
            ".visible .entry ptxsync_litmus_file(",
        ] {
            assert!(k.ptx.contains(s), "{s} not in\n{}", k.ptx);
        }
        assert!(!k.ptx.contains(".explicitcluster"));
        assert_eq!(k.layout.units, 2);
        assert_eq!(k.layout.warps, 1);
        assert_eq!(k.layout.cluster, None);
        assert_eq!(k.layout.reg_terms, vec![(1, 0), (1, 1)]);
        assert_eq!(k.layout.out_words, 4);
        // Independent of the model's verdicts: another Expected line, the same PTX.
        let t2 = ptx_sync_model::parse(
            &MP.replace("PTX MP\n", "PTX MP\n\"Expected: Always\"\n"),
            "mp.litmus",
        )
        .unwrap();
        assert_eq!(generate(&t2).unwrap().ptx, k.ptx);
    }

    #[test]
    fn barriers_count_warps_loops_are_bounded_clusters_launch() {
        let text = "PTX L\n{\nx=0; f=0;\n}\n P0@cta 0,cluster 0,gpu 0 | P1@cta 0,cluster 0,gpu 0 | P2@cta 1,cluster 0,gpu 0 ;\n \
            st.u32 [x], 1 | bar.cta.sync 1 | L: ;\n bar.cta.sync 1 | ld.u32 r0, [x] | ld.acquire.cluster.u32 r1, [f] ;\n \
            st.release.cluster.u32 [f], 1 | bar.cta.sync 2, 1 | bne r1, 1, L ;\nexists (1:r0 == 0 \\/ 2:r1 == 0)\n";
        let t = ptx_sync_model::parse(text, "l.litmus").unwrap();
        let k = generate(&t).unwrap();
        // Two litmus threads in CTA 0: 64 hardware threads; an explicit count of 1: 32.
        assert!(k.ptx.contains("bar.cta.sync 1, 64;"), "{}", k.ptx);
        assert!(k.ptx.contains("bar.cta.sync 2, 32;"), "{}", k.ptx);
        // The backward branch is guarded by the loop bound and the time budget.
        assert!(k.ptx.contains(&format!("setp.gt.or.u32 %p3, %w17, {LOOP_LIMIT}, %p3;\n\tvote.sync.any.pred %p3, %p3, 0xffffffff;\n\t@%p3 bra T2_TIMEOUT;")), "{}", k.ptx);
        assert!(
            k.ptx
                .contains("setp.ne.s32 %p7, %t2_r0, %w31;\n\t@%p7 bra T2_L0;"),
            "{}",
            k.ptx
        ); // thread 2's r1 is its register 0
        assert!(k.ptx.contains(".explicitcluster"));
        assert_eq!(k.layout.cluster, Some(2));
        assert_eq!((k.layout.units, k.layout.warps), (1, 2));
        assert_eq!(k.layout.placement, vec![(0, 0, 0), (0, 0, 1), (0, 1, 0)]);
    }

    #[test]
    fn unsupported_tests_say_why() {
        let alias = "PTX A\n{\nx=0; y @ generic aliases x;\n}\n P0@cta 0,gpu 0 ;\n st.u32 [x], 1 ;\n ld.u32 r0, [y] ;\nexists (0:r0 == 0)\n";
        let t = ptx_sync_model::parse(alias, "a.litmus").unwrap();
        assert!(generate(&t)
            .unwrap_err()
            .starts_with("virtual aliases on hardware"));
        let gpus = "PTX G\n{\nx=0;\n}\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n st.u32 [x], 1 | ld.u32 r0, [x] ;\nexists (1:r0 == 0)\n";
        let t = ptx_sync_model::parse(gpus, "g.litmus").unwrap();
        assert_eq!(generate(&t).unwrap_err(), "threads on more than one GPU");
    }
}
