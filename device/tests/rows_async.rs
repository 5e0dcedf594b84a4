//! What the async catalog rows carry beyond their spelling (`strings_async.rs` checks that): the
//! exact spellings of the seed's §5 instructions, the absence of the combinations PTX forbids,
//! the singleton instructions, the cluster special registers, each row's Rust call path, and its
//! floors and sections — each written here from the PTX ISA, never read from the rows.

#[path = "common/async_rows.rs"]
mod async_rows;

use async_rows::async_rows as rows;
use ptx_sync::catalog::{Family as F, Marker};

#[test]
fn exact_spellings_of_the_seed_section_5_instructions() {
    let have: Vec<&str> = rows().iter().map(|v| v.ptx).collect();
    for s in [
        // seed 5.1
        "cp.async.cg.shared::cta.global",
        "cp.async.wait_all",
        "bar.arrive",
        "bar.sync",
        // seed 5.2
        "mbarrier.arrive.expect_tx.release.cta.shared::cta.b64",
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes",
        "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64",
        // seed 5.3
        "fence.proxy.async.shared::cta",
        "mbarrier.arrive.release.cta.shared::cta.b64",
        // seed 5.4
        "mbarrier.arrive.release.cluster.shared::cluster.b64",
        "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64",
        "fence.mbarrier_init.release.cluster",
        "barrier.cluster.arrive.relaxed.aligned",
        "barrier.cluster.wait.acquire.aligned",
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster",
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster",
        // issue #13 item 9: remote arrive_drop, arrive_drop.expect_tx
        "mbarrier.arrive_drop.release.cluster.shared::cluster.b64",
        "mbarrier.arrive_drop.expect_tx.release.cta.shared::cta.b64",
        "mbarrier.arrive_drop.expect_tx.relaxed.cluster.shared::cluster.b64",
        // issue #13 item 3
        "fence.acquire.sync_restrict::shared::cluster.cluster",
        "fence.release.sync_restrict::shared::cta.cluster",
        "fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster",
        "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster",
        // issue #13 item 6
        "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned",
        "prefetch.tensormap",
        // issue #13 item 1
        "createpolicy.fractional.L2::evict_first.b64",
        "createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64",
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint",
        "cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint",
        "cp.async.bulk.prefetch.L2.global.L2::cache_hint",
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint",
        "cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group.L2::cache_hint",
        "cp.async.bulk.prefetch.tensor.5d.L2.global.tile.L2::cache_hint",
        "cp.async.cg.shared::cta.global.L2::cache_hint",
        "cp.async.ca.shared::cta.global.L2::cache_hint",
        // issue #13 item 8
        "cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group",
        "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes",
        "cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes.multicast::cluster",
        "cp.async.bulk.prefetch.tensor.4d.L2.global.im2col.L2::cache_hint",
        "cp.reduce.async.bulk.tensor.5d.global.shared::cta.xor.im2col_no_offs.bulk_group.L2::cache_hint",
        // issue #13 items 1/8: .multicast::cluster then .L2::cache_hint (§9.7.9.25.4.1, §9.7.9.25.5.1)
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint",
        "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint",
        "cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint",
        "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint",
        // issue #13 item 1: .level::prefetch_size after .level::cache_hint (§9.7.9.25.3)
        "cp.async.ca.shared::cta.global.L2::64B",
        "cp.async.ca.shared::cta.global.L2::128B",
        "cp.async.cg.shared::cta.global.L2::256B",
        "cp.async.cg.shared::cta.global.L2::cache_hint.L2::256B",
        "cp.async.ca.shared::cta.global.L2::cache_hint.L2::64B",
        // issue #13 item 4 (seed 5.4)
        "st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.u32",
        "st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.v4.f32",
        "st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.v2.s64",
        "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.u32",
        "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.xor.b32",
        "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u64",
    ] {
        assert!(have.contains(&s), "missing {s}");
    }
}

#[test]
fn forbidden_combinations_are_absent() {
    for v in rows() {
        match v.family {
            // PTX ISA §9.7.13.15.15/16: `.noComplete{.release}{.cta}` only
            F::Mbarrier if v.op.ends_with(".noComplete") => {
                assert!(v.sem == "Release" && v.scope == "Cta", "{v:?}")
            }
            F::Mbarrier if v.op.starts_with("arrive") => {
                assert!(v.sem == "Release" || v.sem == "Relaxed", "{v:?}")
            }
            F::Mbarrier if v.op.contains("wait") => {
                assert!(v.sem == "Acquire" || v.sem == "Relaxed", "{v:?}")
            }
            F::Mbarrier if v.op.ends_with("_tx") => assert_eq!(v.sem, "Relaxed", "{v:?}"),
            F::Mbarrier => {}
            F::BarrierCluster if v.op == "wait" => assert_eq!(v.sem, "Acquire"),
            F::BarrierCluster => assert!(v.sem == "Release" || v.sem == "Relaxed"),
            // 128 bits at most: no `.v4` of a 64-bit type; no 64-bit red.async but `.add.u64`
            F::StAsync if v.op == "v4" => assert!(v.ty.ends_with("32"), "{v:?}"),
            F::RedAsync if v.ty == "u64" => assert_eq!(v.op, "add", "{v:?}"),
            F::RedAsync => assert!(!v.ty.ends_with("64"), "{v:?}"),
            F::CpAsync if v.form.cache == Marker::Cg => {
                assert_eq!(v.form.bytes, 16, "{v:?}")
            }
            _ => {}
        }
        assert!(
            !v.ptx.contains(".acquire") || !v.ptx.contains("arrive"),
            "{v:?}"
        );
        assert!(
            !v.ptx.contains(".release") || !v.ptx.contains("wait"),
            "{v:?}"
        );
    }
}

#[test]
fn cluster_special_registers_are_the_isa_names() {
    let want = [
        ("ClusterCtarank", "%cluster_ctarank"),
        ("ClusterNctarank", "%cluster_nctarank"),
        ("ClusteridX", "%clusterid.x"),
        ("ClusteridY", "%clusterid.y"),
        ("ClusteridZ", "%clusterid.z"),
        ("NclusteridX", "%nclusterid.x"),
        ("NclusteridY", "%nclusterid.y"),
        ("NclusteridZ", "%nclusterid.z"),
        ("ClusterCtaidX", "%cluster_ctaid.x"),
        ("ClusterCtaidY", "%cluster_ctaid.y"),
        ("ClusterCtaidZ", "%cluster_ctaid.z"),
        ("ClusterNctaidX", "%cluster_nctaid.x"),
        ("ClusterNctaidY", "%cluster_nctaid.y"),
        ("ClusterNctaidZ", "%cluster_nctaid.z"),
    ];
    assert_eq!(ptx_sync::cluster::SREGS, &want[..]);
}

#[test]
fn singleton_instructions() {
    use ptx_sync::instr::Instr;
    for (have, want) in [
        (
            ptx_sync::copy::CpAsyncBulkWaitGroupRead::PTX,
            "cp.async.bulk.wait_group.read",
        ),
        (
            ptx_sync::mbarrier::MbarrierInit::PTX,
            "mbarrier.init.shared::cta.b64",
        ),
        (
            ptx_sync::mbarrier::MbarrierPendingCount::PTX,
            "mbarrier.pending_count.b64",
        ),
        (ptx_sync::cluster::ElectSync::PTX, "elect.sync"),
        (
            ptx_sync::grid::GriddepcontrolWait::PTX,
            "griddepcontrol.wait",
        ),
        (
            ptx_sync::grid::GriddepcontrolLaunchDependents::PTX,
            "griddepcontrol.launch_dependents",
        ),
        (ptx_sync::wait::Nanosleep::PTX, "nanosleep.u32"),
    ] {
        assert_eq!(have, want);
    }
}

/// The floors the rows carry are the ISA's: griddepcontrol sm_90 / PTX 7.8, membar sm_20 (PTX
/// 1.4; `.sys` 2.0), nanosleep sm_70 / PTX 6.3, the sync_restrict fences sm_90 / PTX 8.6 (ptxas enforces the SM floors: `ptxas_async.rs`).
#[test]
fn floors_of_the_control_rows() {
    let mut seen = 0;
    for v in rows() {
        let want = match (v.family, v.ptx) {
            (F::Griddepcontrol, _) => (90, 78),
            (F::Membar, "membar.sys") => (20, 20),
            (F::Membar, _) => (20, 14),
            (F::Nanosleep, _) => (70, 63),
            (F::FenceSyncRestrict | F::FenceProxyAsyncGeneric, _) => (90, 86),
            (F::TensormapCpFenceproxy, _) => (90, 83),
            (F::PrefetchTensormap, _) => (90, 80),
            (F::Createpolicy, _) => (80, 74),
            _ => continue,
        };
        seen += 1;
        assert_eq!((v.sm, v.ptx_isa), want, "{v:?}");
        assert!(
            !v.isa.is_empty() && !v.seed.is_empty() && !v.rust.is_empty(),
            "{v:?}"
        );
    }
    assert_eq!(seen, 27);
}

/// Every async row names the Rust call that emits it (what `ptx-sync show` prints).
#[test]
fn every_async_row_names_its_call() {
    let missing: Vec<String> = rows()
        .iter()
        .filter(|v| v.rust.is_empty())
        .map(|v| format!("{v:?}"))
        .collect();
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// Every mbarrier row names the Rust call that emits it: the local barrier's methods for
/// `.shared::cta` (and the address-less `pending_count`), `RemoteMbarrier`'s for
/// `.shared::cluster`, with the row's semantic and scope as type arguments.
#[test]
fn mbarrier_rows_carry_their_call_path() {
    for v in rows().into_iter().filter(|v| v.family == F::Mbarrier) {
        let owner = if v.space == "SharedCluster" {
            "RemoteMbarrier::"
        } else {
            "Mbarrier::"
        };
        assert!(v.rust.starts_with(owner), "{v:?}");
        if !v.scope.is_empty() && !v.op.contains("noComplete") {
            let args = if v.op == "expect_tx" || v.op == "complete_tx" {
                format!("::<{}>", v.scope)
            } else {
                format!("::<{}, {}>", v.sem, v.scope)
            };
            assert!(v.rust.ends_with(&args), "{v:?}");
        }
    }
}

/// The cluster barrier's `.aligned` rows name the `unsafe` `*_aligned` calls (PTX ISA §9.7.13.3:
/// `.aligned` requires every thread of the warp at the same instruction, a caller's promise), the
/// rows without it the safe `arrive`/`wait`, with the row's semantic as the type argument.
#[test]
fn cluster_barrier_rows_carry_their_call_path() {
    let mut n = 0;
    for v in rows().into_iter().filter(|v| v.family == F::BarrierCluster) {
        let want = match v.form.align {
            Marker::Aligned => format!("unsafe ClusterBarrier::{}_aligned::<{}>", v.op, v.sem),
            Marker::Unaligned => format!("ClusterBarrier::{}::<{}>", v.op, v.sem),
            e => panic!("{e:?}"),
        };
        assert_eq!(v.rust, want, "{v:?}");
        n += 1;
    }
    assert_eq!(n, 6);
}

/// Every async row names its SM and PTX floors, its PTX ISA section (§9.7.x) and its seed section
/// (§1–§6, [`seed_section`]); a few floors from the ISA's version notes, written here: `bar` PTX 2.0 / sm_20,
/// `barrier` 6.0 / sm_30, `barrier.cluster` with a semantic 8.0 / sm_90, `mbarrier.init` with
/// `.shared::cta` 7.8 / sm_80, `mbarrier.pending_count` 7.0 / sm_80, `try_wait` sm_90,
/// `mbarrier.arrive.relaxed` 8.6, `cp.async.ca.shared::cta` 7.8 / sm_80, `cp.async.wait_all`
/// 7.0, the bulk and tensor copies 8.0 / sm_90, `fence.proxy.tensormap::generic` 8.3 / sm_90.
#[test]
fn every_async_row_names_its_floors_and_sections() {
    let rows = rows();
    let bad: Vec<String> = rows
        .iter()
        .filter(|v| {
            v.sm < 20 || v.ptx_isa < 10 || !v.isa.starts_with("9.7.") || !seed_section(v.seed)
        })
        .map(|v| {
            format!(
                "{} ({}): sm {} ptx {} isa {:?} seed {:?}",
                v.ptx, v.form, v.sm, v.ptx_isa, v.isa, v.seed
            )
        })
        .collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    let floor = |ptx: &str, form: &str| {
        let v = rows
            .iter()
            .find(|v| v.ptx == ptx && v.form.to_string() == form)
            .unwrap_or_else(|| panic!("no row {ptx} ({form})"));
        (v.sm, v.ptx_isa)
    };
    assert_eq!(floor("bar.sync", "count"), (20, 20));
    assert_eq!(floor("barrier.sync", "count"), (30, 60));
    assert_eq!(
        floor("barrier.cluster.arrive.relaxed", "Unaligned"),
        (90, 80)
    );
    assert_eq!(floor("mbarrier.init.shared::cta.b64", "count"), (80, 78));
    assert_eq!(floor("mbarrier.pending_count.b64", ""), (80, 70));
    assert_eq!(
        floor("mbarrier.try_wait.parity.acquire.cta.shared::cta.b64", "").0,
        90
    );
    assert_eq!(
        floor("mbarrier.arrive.relaxed.cta.shared::cta.b64", "").1,
        86
    );
    assert_eq!(floor("cp.async.ca.shared::cta.global", "Ca:4"), (80, 78));
    assert_eq!(floor("cp.async.wait_all", ""), (80, 70));
    // `.level::prefetch_size` 7.4, every size sm_80 (`cp.async`'s own floor; `.L2::256B` is the
    // size that needs sm_80 elsewhere), under the 7.8 of `.shared::cta`
    assert_eq!(
        floor(
            "cp.async.cg.shared::cta.global.L2::cache_hint.L2::256B",
            "Cg:16 cache_hint Prefetch256B"
        ),
        (80, 78)
    );
    assert_eq!(
        floor(
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes",
            "src=Global completion=Mbarrier"
        ),
        (90, 80)
    );
    assert_eq!(
        floor("fence.proxy.tensormap::generic.release.gpu", ""),
        (90, 83)
    );
    // The #13 rows: `barrier.red` 6.0 / sm_30; `arrive_drop` on `.shared::cluster` and with
    // `.expect_tx` 8.0 / sm_90 (`.relaxed` 8.6); `griddepcontrol` 7.8 / sm_90; `membar.cta`
    // 1.4, `membar.sys` 2.0 (sm_20); `nanosleep` 6.3 / sm_70; `createpolicy` 7.4 / sm_80;
    // `tensormap.cp_fenceproxy` 8.3 / sm_90; `prefetch.tensormap` 8.0 / sm_90; the
    // `sync_restrict` fences 8.6 / sm_90; the `.L2::cache_hint` bulk copies 8.0 / sm_90.
    let by_ptx = |ptx: &str| {
        let v = rows
            .iter()
            .find(|v| v.ptx == ptx)
            .unwrap_or_else(|| panic!("no row {ptx}"));
        (v.sm, v.ptx_isa)
    };
    assert_eq!(by_ptx("barrier.red.popc.u32"), (30, 60));
    assert_eq!(
        by_ptx("mbarrier.arrive_drop.release.cluster.shared::cluster.b64"),
        (90, 80)
    );
    assert_eq!(
        by_ptx("mbarrier.arrive_drop.expect_tx.relaxed.cta.shared::cta.b64"),
        (90, 86)
    );
    assert_eq!(by_ptx("griddepcontrol.wait"), (90, 78));
    assert_eq!(by_ptx("membar.cta"), (20, 14));
    assert_eq!(by_ptx("membar.sys"), (20, 20));
    assert_eq!(by_ptx("nanosleep.u32"), (70, 63));
    assert_eq!(
        by_ptx("createpolicy.fractional.L2::evict_last.b64"),
        (80, 74)
    );
    assert_eq!(
        by_ptx(
            "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned"
        ),
        (90, 83)
    );
    assert_eq!(by_ptx("prefetch.tensormap"), (90, 80));
    assert_eq!(
        by_ptx("fence.release.sync_restrict::shared::cta.cluster"),
        (90, 86)
    );
    assert_eq!(
        by_ptx("cp.async.bulk.prefetch.L2.global.L2::cache_hint"),
        (90, 80)
    );
    // #13 item 4: `st.async` / `red.async` PTX 8.1 / sm_90 (§9.7.9.12, §9.7.13.7 notes).
    for v in rows
        .iter()
        .filter(|v| v.family == F::StAsync || v.family == F::RedAsync)
    {
        assert_eq!((v.sm, v.ptx_isa, v.seed), (90, 81, "5.4"), "{v:?}");
        let isa = if v.family == F::StAsync {
            "9.7.9.12"
        } else {
            "9.7.13.7"
        };
        assert_eq!(v.isa, isa, "{v:?}");
    }
}

/// A seed section: `N` or `N.M` with `N` one of the seed document's sections §1–§6 (§5, the
/// async copies, for most async rows; `membar` is §2/§3's `fence.sc`).
fn seed_section(s: &str) -> bool {
    let (top, sub) = s.split_once('.').unwrap_or((s, "1"));
    matches!(top, "1" | "2" | "3" | "4" | "5" | "6")
        && !sub.is_empty()
        && sub.bytes().all(|b| b.is_ascii_digit())
}
