//! Exact PTX of every async-family catalog row (barrier, cluster, mbarrier, proxy fences,
//! cp.async, cp.async.bulk, cp.reduce.async.bulk, cp.async.bulk.tensor), composed here from the
//! PTX ISA grammar with this file's own token tables — never from the crate's macros — and
//! compared with each row's `ptx`. Also: the number of rows per family (a missing or extra row
//! fails) and the absence of the combinations PTX forbids.
//!
//! Grammar (PTX ISA 8.6):
//! * §9.7.13.1  `bar{.cta}.sync a{, b}`, `bar.arrive a, b`, `bar.red.popc.u32 d, a{, b}, {!}c`,
//!   `bar.red.op.pred p, a{, b}, {!}c` (`.op = {.and, .or}`)
//! * §9.7.13.3  `barrier.cluster.arrive{.sem}{.aligned}` (`.sem = {.release, .relaxed}`),
//!   `barrier.cluster.wait{.acquire}{.aligned}`
//! * §9.7.9.22/23 `mapa{.space}.type d, a, b` (`.space = {.shared::cluster}`, `.type = {.u32, .u64}`),
//!   `getctarank{.space}.type d, a`; §9.7.12.16 `elect.sync d|p, membermask`
//! * §9.7.13.15 `mbarrier.init{.shared{::cta}}.b64`, `mbarrier.inval{.shared{::cta}}.b64`,
//!   `mbarrier.arrive{.sem}{.scope}{.shared{::cta}}.b64 state, [a]{, count}`,
//!   `mbarrier.arrive{.sem}{.scope}{.shared::cluster}.b64 _, [a]{, count}`,
//!   `mbarrier.arrive.expect_tx{.sem}{.scope}{.space}.b64`, `mbarrier.arrive_drop{.sem}{.scope}{.shared{::cta}}.b64`,
//!   `mbarrier.arrive_drop{.sem}{.scope}{.shared::cluster}.b64 _, [a]`,
//!   `mbarrier.arrive_drop.expect_tx{.sem}{.scope}{.space}.b64` (§9.7.13.15.16),
//!   `mbarrier.expect_tx{.sem}{.scope}{.space}.b64 [a], tx` and `complete_tx` (`.sem = {.relaxed}`),
//!   `mbarrier.{test,try}_wait{.parity}{.sem}{.scope}{.shared{::cta}}.b64 p, [a], state|parity{, hint}`
//!   (`.sem = {.acquire, .relaxed}`), `mbarrier.pending_count.b64 count, state`,
//!   `mbarrier.{arrive,arrive_drop}.noComplete{.release}{.cta}{.shared{::cta}}.b64 state, [a], count`
//! * §9.7.13.4  `fence.proxy.async{.global, .shared::cta, .shared::cluster}`,
//!   `fence.proxy.tensormap::generic.{release,acquire}.scope`, `fence.mbarrier_init.release.cluster`
//! * §9.7.9.25  `cp.async.{ca,cg}.shared{::cta}.global [d], [s], cp-size{, src-size}`,
//!   `cp.async.commit_group`, `cp.async.wait_group N`, `cp.async.wait_all`,
//!   `cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [a]`
//! * §9.7.9.25.4 `cp.async.bulk.dst.src.completion_mechanism{.multicast::cluster}`,
//!   `cp.reduce.async.bulk.dst.src.completion_mechanism.redOp.type`,
//!   `cp.async.bulk.prefetch.L2.global`, `cp.async.bulk.commit_group`, `cp.async.bulk.wait_group{.read} N`
//! * §9.7.13.4 (PTX 8.6) `fence.acquire.sync_restrict::shared::cluster.cluster`,
//!   `fence.release.sync_restrict::shared::cta.cluster`, and both after `fence.proxy.async::generic`
//! * `tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope.sync.aligned [d], [s], 128`,
//!   `prefetch{.const,.param}.tensormap [a]` (generic form)
//! * `createpolicy.fractional.L2::primary_priority{.L2::secondary_priority}.b64 d{, fraction}`
//!   (`.primary_priority = {.evict_last, .evict_normal, .evict_first, .evict_unchanged}`,
//!   `.secondary_priority = {.evict_first, .evict_unchanged}`); `.L2::cache_hint` on `cp.async.bulk`
//! * griddepcontrol: `griddepcontrol.action`, `.action = { .launch_dependents, .wait }`;
//!   §9.7.13.4 `membar.level`, `.level = { .cta, .gl, .sys }`; "nanosleep": `nanosleep.u32 t`
//! * §9.7.9.12 (PTX 8.1) `st.async{.weak}{.shared::cluster}{.mbarrier::complete_tx::bytes}{.vec}.type [a], b, [mbar]`
//!   (`.type = {.b32, .b64, .u32, .u64, .s32, .s64, .f32, .f64}`, `.vec = {.v2, .v4}`, at most
//!   128 bits); §9.7.13.7 `red.async.relaxed.cluster{.shared::cluster}.mbarrier::complete_tx::bytes.op.type`
//!   (`.inc/.dec` `.u32`; `.min/.max` `.u32 .s32`; `.and/.or/.xor` `.b32`; `.add` `.u32 .s32 .u64`)
//! * §9.7.9.25.5 `cp.async.bulk.tensor.dim.dst.src{.load_mode}.completion_mechanism{.multicast::cluster}`,
//!   `cp.async.bulk.prefetch.tensor.dim.L2.src{.load_mode}`

#[path = "common/async_rows.rs"]
mod async_rows;
#[path = "common/operands.rs"]
mod operands;

use async_rows::{async_rows as rows, spelled_in_strings_arch, ASYNC};
use ptx_sync::catalog::{for_each_variant, Completion, Family as F, Marker, Variant};
use std::collections::BTreeMap;

fn sem(s: Marker) -> &'static str {
    match s.name() {
        "" => "",
        "Release" => ".release",
        "Relaxed" => ".relaxed",
        "Acquire" => ".acquire",
        other => panic!("sem {other} is not allowed in the async families"),
    }
}
fn scope(s: Marker) -> &'static str {
    match s.name() {
        "" => "",
        "Cta" => ".cta",
        "Cluster" => ".cluster",
        "Gpu" => ".gpu",
        "Sys" => ".sys",
        other => panic!("unknown scope {other}"),
    }
}
fn space(s: Marker) -> &'static str {
    match s.name() {
        "" | "Generic" => "",
        "Global" => ".global",
        "Shared" => ".shared::cta",
        "SharedCluster" => ".shared::cluster",
        other => panic!("unknown space {other}"),
    }
}
fn completion(s: Completion) -> &'static str {
    match s {
        Completion::Mbarrier => ".mbarrier::complete_tx::bytes",
        Completion::BulkGroup => ".bulk_group",
        other => panic!("unknown completion {other:?}"),
    }
}
/// PTX ISA §9.7.9.25.4, the table of `cp.reduce.async.bulk`: per destination, each `.redOp` with
/// the `.type`s it takes (`.add.noftz` the f16/bf16 add of `.global`).
const REDUCE_TABLE: &[(&str, &str, &[&str])] = &[
    (".shared::cluster", "add", &["u32", "s32", "u64"]),
    (".shared::cluster", "min", &["u32", "s32"]),
    (".shared::cluster", "max", &["u32", "s32"]),
    (".shared::cluster", "inc", &["u32"]),
    (".shared::cluster", "dec", &["u32"]),
    (".shared::cluster", "and", &["b32"]),
    (".shared::cluster", "or", &["b32"]),
    (".shared::cluster", "xor", &["b32"]),
    (".global", "add", &["u32", "s32", "u64", "f32", "f64"]),
    (".global", "add.noftz", &["f16", "bf16"]),
    (
        ".global",
        "min",
        &["u32", "s32", "u64", "s64", "f16", "bf16"],
    ),
    (
        ".global",
        "max",
        &["u32", "s32", "u64", "s64", "f16", "bf16"],
    ),
    (".global", "inc", &["u32"]),
    (".global", "dec", &["u32"]),
    (".global", "and", &["b32", "b64"]),
    (".global", "or", &["b32", "b64"]),
    (".global", "xor", &["b32", "b64"]),
];

/// The `.redOp.type` of a reduction row: the Rust element type and operator as the ISA spells
/// them (`.b32`/`.b64` for the bitwise operators, `.s64` as `.u64` for `add` — PTX has no
/// `.add.s64` and two's-complement addition is the same —, `.add.noftz` for the 16-bit floats).
fn reduce_op_type(op: &str, ty: &str) -> String {
    let bitwise = ["and", "or", "xor"].contains(&op);
    let t = match (ty, bitwise) {
        ("u32", true) => "b32",
        ("u64", true) => "b64",
        ("u32", _) => "u32",
        ("i32", _) => "s32",
        ("u64", _) => "u64",
        ("i64", _) if op == "add" => "u64",
        ("i64", _) => "s64",
        ("f32", _) => "f32",
        ("f64", _) => "f64",
        ("F16", _) => "f16",
        ("Bf16", _) => "bf16",
        (o, _) => panic!("no bulk reduction on {o}"),
    };
    let op = if op == "add" && (t == "f16" || t == "bf16") {
        "add.noftz"
    } else {
        op
    };
    format!(".{op}.{t}")
}

/// The PTX the grammar prescribes for a row.
fn expected(v: &Variant) -> String {
    match v.family {
        // §9.7.13.2 `bar.warp.sync membermask`
        F::Bar => {
            assert!(
                [
                    "sync",
                    "arrive",
                    "red.popc",
                    "red.and",
                    "red.or",
                    "warp.sync"
                ]
                .contains(&v.op),
                "{v:?}"
            );
            if v.ty.is_empty() {
                format!("bar.{}", v.op)
            } else {
                format!("bar.{}.{}", v.op, v.ty)
            }
        }
        // §9.7.13.1 `barrier{.cta}.sync{.aligned} a{, b}`, `barrier{.cta}.arrive{.aligned} a, b`,
        // `barrier{.cta}.red.popc{.aligned}.u32 d, a{, b}, {!}c`, `barrier{.cta}.red.op{.aligned}.pred`:
        // this crate's `barrier` rows are the forms without `.aligned`.
        F::Barrier => {
            assert!(
                ["sync", "arrive", "red.popc", "red.and", "red.or"].contains(&v.op),
                "{v:?}"
            );
            if v.ty.is_empty() {
                format!("barrier.{}", v.op)
            } else {
                format!("barrier.{}.{}", v.op, v.ty)
            }
        }
        F::BarrierCluster => {
            let align = match v.form.align {
                Marker::Aligned => ".aligned",
                Marker::Unaligned => "",
                e => panic!("{e:?}"),
            };
            format!("barrier.cluster.{}{}{}", v.op, sem(v.sem), align)
        }
        F::Mapa => format!("mapa{}.{}", space(v.space), v.ty),
        F::Getctarank => format!("getctarank{}.{}", space(v.space), v.ty),
        F::Elect => "elect.sync".into(),
        F::Mbarrier => format!(
            "mbarrier.{}{}{}{}.b64",
            v.op,
            sem(v.sem),
            scope(v.scope),
            space(v.space)
        ),
        F::FenceProxyAsync => format!("fence.proxy.async{}", space(v.space)),
        F::FenceProxyTensormap => {
            format!(
                "fence.proxy.tensormap::generic{}{}",
                sem(v.sem),
                scope(v.scope)
            )
        }
        F::FenceMbarrierInit => format!("fence.mbarrier_init{}{}", sem(v.sem), scope(v.scope)),
        // §9.7.13.4 `fence.proxy.proxykind;`, `.proxykind = { .alias, ... }`: no sem, no scope.
        F::FenceProxyAlias => {
            assert!(v.sem.is_empty() && v.scope.is_empty(), "{v:?}");
            "fence.proxy.alias".into()
        }
        // §9.7.13.4 (PTX 8.6) `fence.acquire.sync_restrict::shared::cluster.cluster`,
        // `fence.release.sync_restrict::shared::cta.cluster`, and the same after
        // `fence.proxy.async::generic`: acquire pairs with `.shared::cluster`, release with
        // `.shared::cta`, the scope is always `.cluster`.
        F::FenceSyncRestrict | F::FenceProxyAsyncGeneric => {
            let restrict = match (v.sem.name(), v.space.name()) {
                ("Acquire", "SharedCluster") => ".sync_restrict::shared::cluster",
                ("Release", "Shared") => ".sync_restrict::shared::cta",
                other => panic!("no sync_restrict fence for {other:?}"),
            };
            assert_eq!(v.scope, "Cluster", "{v:?}");
            let head = if v.family == F::FenceSyncRestrict {
                "fence"
            } else {
                "fence.proxy.async::generic"
            };
            format!("{head}{}{restrict}.cluster", sem(v.sem))
        }
        // `tensormap.cp_fenceproxy.cp_qualifiers.fence_qualifiers.sync.aligned [d], [s], 128`,
        // `.cp_qualifiers = { .global.shared::cta }`, `.fence_qualifiers =
        // { .tensormap::generic.release.scope }`.
        F::TensormapCpFenceproxy => {
            assert_eq!(
                (v.sem.name(), v.space.name(), v.form.src.name()),
                ("Release", "Global", "Shared"),
                "{v:?}"
            );
            format!(
                "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release{}.sync.aligned",
                scope(v.scope)
            )
        }
        // `prefetch{.tensormap_space}.tensormap [a]`: the generic-address form.
        F::PrefetchTensormap => "prefetch.tensormap".into(),
        // griddepcontrol: `griddepcontrol.action;`: no sem, scope or space.
        F::Griddepcontrol => {
            assert!(["wait", "launch_dependents"].contains(&v.op), "{v:?}");
            assert!(
                v.sem.is_empty() && v.scope.is_empty() && v.space.is_empty(),
                "{v:?}"
            );
            format!("griddepcontrol.{}", v.op)
        }
        // §9.7.13.4 `membar.level;` — the level is membar's own spelling of the scope.
        F::Membar => {
            let level = match v.scope.name() {
                "Cta" => ".cta",
                "Gpu" => ".gl",
                "Sys" => ".sys",
                other => panic!("membar has no level for scope {other}"),
            };
            assert!(v.sem.is_empty(), "{v:?}");
            format!("membar{level}")
        }
        // nanosleep: `nanosleep.u32 t;`
        F::Nanosleep => {
            assert_eq!(v.ty, "u32", "{v:?}");
            "nanosleep.u32".into()
        }
        F::CpAsync if v.op.is_empty() => {
            let cache = match v.form.cache {
                Marker::Ca => ".ca",
                Marker::Cg => ".cg",
                e => panic!("{e:?}"),
            };
            // §9.7.9.25.3: `{.level::cache_hint}` after `.global`.
            let hint = if v.form.cache_hint {
                ".L2::cache_hint"
            } else {
                ""
            };
            // §9.7.9.25.3: `{.level::prefetch_size}` after `{.level::cache_hint}`.
            let prefetch = match v.form.prefetch.name() {
                "" => "",
                "Prefetch64B" => ".L2::64B",
                "Prefetch128B" => ".L2::128B",
                "Prefetch256B" => ".L2::256B",
                o => panic!("no prefetch size {o}"),
            };
            format!("cp.async{cache}{}.global{hint}{prefetch}", space(v.space))
        }
        F::CpAsync => {
            if v.ty.is_empty() {
                format!("cp.async.{}", v.op)
            } else {
                format!("cp.async.{}{}.{}", v.op, space(v.space), v.ty)
            }
        }
        // `.level::cache_hint = { .L2::cache_hint }` follows the other qualifiers (§9.7.9.25.4).
        F::CpAsyncBulk if v.op.is_empty() => format!(
            "cp.async.bulk{}{}{}{}{}",
            space(v.space),
            space(v.form.src),
            completion(v.form.completion),
            if v.form.multicast {
                ".multicast::cluster"
            } else {
                ""
            },
            if v.form.cache_hint {
                ".L2::cache_hint"
            } else {
                ""
            }
        ),
        F::CpAsyncBulk => format!(
            "cp.async.bulk.{}{}{}",
            v.op,
            space(v.space),
            if v.form.cache_hint {
                ".L2::cache_hint"
            } else {
                ""
            }
        ),
        // `createpolicy.fractional.L2::primary{.L2::secondary}.b64`; the row names the priorities
        // by marker (`"EvictLast NoSecondary"`).
        F::Createpolicy => {
            let prio = |m: &str| match m {
                "EvictLast" => ".L2::evict_last",
                "EvictNormal" => ".L2::evict_normal",
                "EvictFirst" => ".L2::evict_first",
                "EvictUnchanged" => ".L2::evict_unchanged",
                "NoSecondary" => "",
                o => panic!("no priority {o}"),
            };
            let (p, sec) = v.op.split_once(' ').expect("two priorities");
            assert_ne!(p, "NoSecondary", "{v:?}");
            assert!(
                ["NoSecondary", "EvictFirst", "EvictUnchanged"].contains(&sec),
                "{v:?}"
            );
            format!("createpolicy.fractional{}{}.b64", prio(p), prio(sec))
        }
        // `cp.reduce.async.bulk.dst.src.completion_mechanism{.level::cache_hint}.redOp.type`:
        // the hint before the operator (§9.7.9.25.4).
        F::CpReduceAsyncBulk => format!(
            "cp.reduce.async.bulk{}{}{}{}{}",
            space(v.space),
            space(v.form.src),
            completion(v.form.completion),
            if v.form.cache_hint {
                ".L2::cache_hint"
            } else {
                ""
            },
            reduce_op_type(v.op, v.ty)
        ),
        F::CpAsyncBulkTensor => {
            let d = v.form.dim;
            assert!((1..=5).contains(&d), "{v:?}");
            // §9.7.9.25.5: `.level::cache_hint = { .L2::cache_hint }` last.
            let hint = if v.form.cache_hint {
                ".L2::cache_hint"
            } else {
                ""
            };
            match v.op {
                "load" | "load.multicast" => format!(
                    "cp.async.bulk.tensor.{d}d{}{}.tile{}{}{hint}",
                    space(v.space),
                    space(Marker::Global),
                    completion(Completion::Mbarrier),
                    if v.op == "load.multicast" {
                        ".multicast::cluster"
                    } else {
                        ""
                    }
                ),
                "store" => format!(
                    "cp.async.bulk.tensor.{d}d{}{}.tile{}{hint}",
                    space(v.space),
                    space(Marker::Shared),
                    completion(Completion::BulkGroup)
                ),
                "prefetch" => format!(
                    "cp.async.bulk.prefetch.tensor.{d}d.L2{}.tile{hint}",
                    space(v.space)
                ),
                // `.load_mode = .im2col` (3d-5d only), then the completion, `.multicast::cluster`,
                // `.level::cache_hint`.
                "load.im2col" | "load.im2col.multicast" => {
                    assert!(d >= 3, "{v:?}");
                    format!(
                        "cp.async.bulk.tensor.{d}d{}{}.im2col{}{}{hint}",
                        space(v.space),
                        space(Marker::Global),
                        completion(Completion::Mbarrier),
                        if v.op == "load.im2col.multicast" {
                            ".multicast::cluster"
                        } else {
                            ""
                        }
                    )
                }
                "prefetch.im2col" => {
                    assert!(d >= 3, "{v:?}");
                    format!(
                        "cp.async.bulk.prefetch.tensor.{d}d.L2{}.im2col{hint}",
                        space(v.space)
                    )
                }
                o => panic!("tensor op {o}"),
            }
        }
        // §9.7.9.25.5: `cp.reduce.async.bulk.tensor.dim.dst.src.redOp{.load_mode}
        // .completion_mechanism{.level::cache_hint}`, `.redOp` of the eight, `.load_mode` tile or
        // im2col_no_offs (the latter from 3d).
        F::CpReduceAsyncBulkTensor => {
            let d = v.form.dim;
            assert!(
                ["add", "min", "max", "inc", "dec", "and", "or", "xor"].contains(&v.op),
                "{v:?}"
            );
            let mode = match v.ty {
                "Tile" => ".tile",
                "Im2colNoOffs" => {
                    assert!(d >= 3, "{v:?}");
                    ".im2col_no_offs"
                }
                o => panic!("load mode {o}"),
            };
            assert!((1..=5).contains(&d), "{v:?}");
            format!(
                "cp.reduce.async.bulk.tensor.{d}d.global.shared::cta.{}{mode}.bulk_group{}",
                v.op,
                if v.form.cache_hint {
                    ".L2::cache_hint"
                } else {
                    ""
                }
            )
        }
        // §9.7.9.12: `st.async.weak.shared::cluster.mbarrier::complete_tx::bytes{.vec}.type`;
        // the row's `op` is the vector (`""`, `"v2"`, `"v4"`), its `ty` the PTX type.
        F::StAsync => {
            assert_eq!(v.sem, Marker::Weak, "{v:?}");
            let vec = match v.op {
                "" => "",
                "v2" => ".v2",
                "v4" => ".v4",
                o => panic!("no st.async vector {o}"),
            };
            let ty = match v.ty {
                "u32" | "s32" | "f32" | "u64" | "s64" | "f64" => v.ty,
                t => panic!("no st.async type {t}"),
            };
            format!(
                "st.async.weak{}{}{vec}.{ty}",
                space(v.space),
                completion(v.form.completion)
            )
        }
        // §9.7.13.7: `red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.op.type`,
        // each op with the types of its line of the grammar.
        F::RedAsync => {
            let ok: &[&str] = match v.op {
                "inc" | "dec" => &["u32"],
                "min" | "max" => &["u32", "s32"],
                "and" | "or" | "xor" => &["b32"],
                "add" => &["u32", "s32", "u64"],
                o => panic!("no red.async op {o}"),
            };
            assert!(ok.contains(&v.ty), "{v:?}");
            format!(
                "red.async{}{}{}{}.{}.{}",
                sem(v.sem),
                scope(v.scope),
                space(v.space),
                completion(v.form.completion),
                v.op,
                v.ty
            )
        }
        f => panic!("not an async family: {f}"),
    }
}

#[test]
fn every_async_row_is_the_grammar_spelling() {
    let rows = rows();
    let bad: Vec<String> = rows
        .iter()
        .filter(|v| expected(v) != v.ptx)
        .map(|v| format!("{v:?}\n    expected {}", expected(v)))
        .collect();
    assert!(
        bad.is_empty(),
        "{} rows differ from the grammar:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn row_counts_per_family() {
    let mut n: BTreeMap<F, usize> = BTreeMap::new();
    for v in rows() {
        *n.entry(v.family).or_default() += 1;
    }
    let want: BTreeMap<F, usize> = [
        (F::Bar, 7),            // sync, sync n, arrive, red.{popc,and,or}, warp.sync
        (F::Barrier, 6),        // sync, sync n, arrive, red.{popc,and,or} (no .aligned)
        (F::BarrierCluster, 6), // arrive {release,relaxed} x {aligned,-}; wait acquire x 2
        (F::Mapa, 2),
        (F::Getctarank, 2),
        (F::Elect, 1),
        // init/inval/pending; 2 noComplete; arrive x (sem,scope); waits; tx; arrive_drop.expect_tx
        // (cta, cluster space), remote arrive_drop x (sem,scope)
        (F::Mbarrier, 3 + 2 + 4 * 7 + 4 * 6 + 2 * 4 + 4 * 3),
        (F::FenceProxyAsync, 4),
        (F::FenceProxyTensormap, 8),
        (F::FenceMbarrierInit, 1),
        (F::FenceProxyAlias, 1),
        (F::FenceSyncRestrict, 2),      // acquire/cluster, release/cta
        (F::FenceProxyAsyncGeneric, 2), // the same pairs
        (F::TensormapCpFenceproxy, 4),  // cta, cluster, gpu, sys
        (F::PrefetchTensormap, 1),
        (F::Griddepcontrol, 2), // wait, launch_dependents
        (F::Membar, 3),         // cta, gl, sys
        (F::Nanosleep, 1),
        // {ca 4,8,16; cg 16} x {-, zfill} x {-, .L2::cache_hint} x {-, .L2::64B, .L2::128B,
        // .L2::256B}; 5 group/arrive forms
        (F::CpAsync, 8 * 2 * 4 + 5),
        // + the .L2::cache_hint G->S, S->G, prefetch; + multicast.L2::cache_hint
        (F::CpAsyncBulk, 4 + 4 + 3 + 1),
        (F::Createpolicy, 4 * 3), // primary x {none, evict_first, evict_unchanged}
        // the ISA table: 28 (.global) x {-, .L2::cache_hint} + 13 (.shared::cluster)
        (F::CpReduceAsyncBulk, 28 * 2 + 13),
        // + load/store/prefetch .L2::cache_hint and load .multicast::cluster.L2::cache_hint per
        // rank; im2col 3d-5d x {load, load hint, load multicast, load multicast hint, prefetch,
        // prefetch hint}
        (F::CpAsyncBulkTensor, 5 * 4 + 5 * 4 + 3 * 6),
        // 8 redOps x (tile 1d-5d + im2col_no_offs 3d-5d) x {-, .L2::cache_hint}
        (F::CpReduceAsyncBulkTensor, 8 * (5 + 3) * 2),
        (F::StAsync, 6 + 3 + 3 + 3), // 6 scalars; v2 x 32-bit; v4 x 32-bit; v2 x 64-bit
        (F::RedAsync, 2 + 4 + 3 + 3), // inc/dec u32; min/max u32,s32; and/or/xor b32; add u32,s32,u64
    ]
    .into_iter()
    .collect();
    assert_eq!(n, want);
}

/// The bulk reductions are exactly the ISA's table (nothing more, nothing less): each
/// destination's `.redOp.type` set, and every `.global` one also with `.L2::cache_hint`.
#[test]
fn bulk_reductions_are_the_isa_table() {
    use std::collections::BTreeSet;
    let want: BTreeSet<(String, bool, String)> = REDUCE_TABLE
        .iter()
        .flat_map(|(dst, op, tys)| {
            tys.iter().flat_map(move |t| {
                let hints: &[bool] = if *dst == ".global" {
                    &[false, true]
                } else {
                    &[false]
                };
                hints
                    .iter()
                    .map(move |&h| (dst.to_string(), h, format!(".{op}.{t}")))
            })
        })
        .collect();
    let have: BTreeSet<(String, bool, String)> = rows()
        .iter()
        .filter(|v| v.family == F::CpReduceAsyncBulk)
        .map(|v| {
            (
                space(v.space).to_string(),
                v.form.cache_hint,
                reduce_op_type(v.op, v.ty),
            )
        })
        .collect();
    assert_eq!(have, want);
    assert!(rows().iter().any(|v| v.ptx
        == "cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.add.noftz.bf16"));
    assert!(rows().iter().any(|v| {
        v.ptx
        == "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.xor.b32"
    }));
}

/// Every catalog row is checked against a grammar: the async families here, the access families
/// (`ld`, `st`, `atom`, `red`, `fence`) in `strings.rs`. A new family needs its expected
/// spelling written before its rows pass.
#[test]
fn every_catalog_row_has_an_expected_spelling() {
    for_each_variant(|v| {
        // The architecture-specific rows are spelled in strings_arch.rs.
        let arch = spelled_in_strings_arch(&v);
        assert!(
            ASYNC.contains(&v.family)
                || [F::Ld, F::St, F::Atom, F::Red, F::Fence].contains(&v.family)
                || arch,
            "{v:?}: no expected spelling in tests/strings*.rs"
        )
    });
}

/// The operands of each async row, from the PTX ISA grammar of its instruction (§9.7.13.1 `bar`,
/// §9.7.13.3, §9.7.9.22/23 `mapa`/`getctarank`, §9.7.12.16 `elect.sync`, §9.7.13.15
/// `mbarrier.*`, §9.7.13.4 `fence.proxy.*`, §9.7.9.25 `cp.async*`), every register written
/// `%r`. Registers the device `asm!` block declares itself keep their name: `p`/`q` the
/// predicates of `bar.red`/`elect`/`try_wait`, `g` the `.global` address made by `cvta`, `_` the
/// sink of a remote arrive.
fn operand_shape(v: &Variant) -> String {
    let opt = |b: bool, s: &str| if b { s.to_string() } else { String::new() };
    let f = &v.form;
    match (v.family, v.op) {
        (F::Bar | F::Barrier, "sync" | "arrive") => format!(" %r{}", opt(f.count, ", %r")),
        (F::Bar | F::Barrier, "red.popc") => " %r, %r, %r, p".into(),
        (F::Bar, "warp.sync") => " %r".into(),
        (F::Bar | F::Barrier, "red.and" | "red.or") => " q, %r, %r, p".into(),
        (F::BarrierCluster, _) => String::new(),
        (F::Mapa, _) => " %r, %r, %r".into(),
        (F::Getctarank, _) => " %r, %r".into(),
        (F::Elect, _) => " %r|p, %r".into(),
        (F::Mbarrier, "init") => " [%r], %r".into(),
        (F::Mbarrier, "inval") => " [%r]".into(),
        (F::Mbarrier, "pending_count") => " %r, %r".into(),
        (F::Mbarrier, "arrive.noComplete" | "arrive_drop.noComplete") => " %r, [%r], %r".into(),
        // §9.7.13.15.16: `state, [addr]{, count}` / `state, [addr], txCount`; the
        // `.shared::cluster` forms write the sink `_` for the state.
        (F::Mbarrier, "arrive" | "arrive_drop" | "arrive.expect_tx" | "arrive_drop.expect_tx") => {
            let state = if v.space == Marker::SharedCluster {
                "_"
            } else {
                "%r"
            };
            format!(" {state}, [%r]{}", opt(f.count || f.tx, ", %r"))
        }
        (F::Mbarrier, "try_wait" | "try_wait.parity" | "test_wait" | "test_wait.parity") => {
            format!(" p, [%r], %r{}", opt(f.hint, ", %r"))
        }
        (F::Mbarrier, "expect_tx" | "complete_tx") => " [%r], %r".into(),
        (F::FenceProxyTensormap, _) if v.sem == Marker::Acquire => " [%r], 128".into(),
        (F::FenceProxyAsync | F::FenceProxyTensormap, _) => String::new(),
        (F::FenceMbarrierInit | F::FenceProxyAlias, _) => String::new(),
        // §9.7.13.4: `fence.sem.sync_restrict::space.scope;`, `membar.level;` — no operands.
        (F::FenceSyncRestrict | F::FenceProxyAsyncGeneric | F::Membar, _) => String::new(),
        // §9.7.13.13: `griddepcontrol.action;`.
        (F::Griddepcontrol, _) => String::new(),
        // §9.7.19.2: `nanosleep.u32 t;` (`t` a register or an immediate; a register here).
        (F::Nanosleep, _) => " %r".into(),
        // §9.7.13.16: `tensormap.cp_fenceproxy… [dst], [src], size;` with `size = 128`.
        (F::TensormapCpFenceproxy, _) => " [%r], [%r], 128".into(),
        // §9.7.9.15: `prefetch.tensormap [a];`.
        (F::PrefetchTensormap, _) => " [%r]".into(),
        // §9.7.9.18: `createpolicy.fractional… cache-policy, fraction;`.
        (F::Createpolicy, _) => " %r, %r".into(),
        // §9.7.9.25.3: `cp-size{, src-size}{, cache-policy}`.
        (F::CpAsync, "") => format!(
            " [%r], [g], {}{}{}",
            f.bytes,
            opt(f.zfill, ", %r"),
            opt(f.cache_hint, ", %r")
        ),
        (F::CpAsync | F::CpAsyncBulk, "commit_group") | (F::CpAsync, "wait_all") => String::new(),
        (F::CpAsync | F::CpAsyncBulk, "wait_group" | "wait_group.read") => " %r".into(),
        (F::CpAsync, "mbarrier.arrive" | "mbarrier.arrive.noinc") => " [%r]".into(),
        // §9.7.9.25.4: `{, ctaMask}` then `{, cache-policy}` (`.L2::cache_hint`) last.
        (F::CpAsyncBulk, "") if f.src == Marker::Global => format!(
            " [%r], [g], %r, [%r]{}{}",
            opt(f.multicast, ", %r"),
            opt(f.cache_hint, ", %r")
        ),
        (F::CpAsyncBulk, "") if v.space == Marker::Global => {
            format!(" [g], [%r], %r{}", opt(f.cache_hint, ", %r"))
        }
        (F::CpAsyncBulk, "") => " [%r], [%r], %r, [%r]".into(),
        (F::CpAsyncBulk, "prefetch.L2") => format!(" [g], %r{}", opt(f.cache_hint, ", %r")),
        // §9.7.9.25.4: `[dstMem], [srcMem], size, [mbar]` / `[dstMem], [srcMem], size{, cache-policy}`.
        (F::CpReduceAsyncBulk, _) if v.space == Marker::SharedCluster => {
            " [%r], [%r], %r, [%r]".into()
        }
        (F::CpReduceAsyncBulk, _) => format!(" [g], [%r], %r{}", opt(f.cache_hint, ", %r")),
        (F::CpAsyncBulkTensor, op) => {
            let c = vec!["%r"; usize::from(f.dim)].join(", ");
            // §9.7.9.25.5: the cache policy is the last operand.
            let h = opt(f.cache_hint, ", %r");
            match op {
                "load" => format!(" [%r], [%r, {{{c}}}], [%r]{h}"),
                "load.multicast" => format!(" [%r], [%r, {{{c}}}], [%r], %r{h}"),
                "store" => format!(" [%r, {{{c}}}], [%r]{h}"),
                "prefetch" => format!(" [%r, {{{c}}}]{h}"),
                // the `D - 2` 16-bit im2col offsets `{…}` after `[mbar]` / the coordinates
                "load.im2col" | "load.im2col.multicast" | "prefetch.im2col" => {
                    let o = vec!["%r"; usize::from(f.dim) - 2].join(", ");
                    match op {
                        "load.im2col" => format!(" [%r], [%r, {{{c}}}], [%r], {{{o}}}{h}"),
                        "load.im2col.multicast" => {
                            format!(" [%r], [%r, {{{c}}}], [%r], {{{o}}}, %r{h}")
                        }
                        _ => format!(" [%r, {{{c}}}], {{{o}}}{h}"),
                    }
                }
                o => panic!("tensor op {o}"),
            }
        }
        // §9.7.9.25.5: `[tensorMap, tensorCoords], [srcMem]{, cache-policy}`.
        (F::CpReduceAsyncBulkTensor, _) => format!(
            " [%r, {{{}}}], [%r]{}",
            vec!["%r"; usize::from(f.dim)].join(", "),
            opt(f.cache_hint, ", %r")
        ),
        // §9.7.9.12 / §9.7.13.7: `[a], b, [mbar]`, `b` a register or a `{…}` vector of them.
        (F::StAsync, "") | (F::RedAsync, _) => " [%r], %r, [%r]".into(),
        (F::StAsync, "v2") => " [%r], {%r, %r}, [%r]".into(),
        (F::StAsync, "v4") => " [%r], {%r, %r, %r, %r}, [%r]".into(),
        (fam, op) => panic!("no operand grammar for {fam} {op}"),
    }
}

/// Every async row carries the operands its `asm!` pastes (the same table tokens): with each
/// placeholder (`{x}`) written `%r` and `{{`/`}}` as braces they are the grammar's operands.
#[test]
fn every_async_row_carries_the_grammar_operands() {
    let mut bad = Vec::new();
    for v in rows() {
        let Some(ops) = v.operands else {
            bad.push(format!("{} ({}): no operands", v.ptx, v.form));
            continue;
        };
        let shape = operands::fill(ops, |_| "%r");
        if shape != operand_shape(&v) {
            bad.push(format!(
                "{} ({}): operands `{ops}`, grammar `{}`",
                v.ptx,
                v.form,
                operand_shape(&v)
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
