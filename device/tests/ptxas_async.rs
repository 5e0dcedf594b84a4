//! The compile-fail rules of the async families (tests/ui/async) are the PTX ISA's: ptxas 13.0
//! (sm_90) rejects each instruction the types reject, and accepts the controls — including
//! `mbarrier.arrive.release.cta.shared::cluster.b64`, the seed §5.4 bug, which is legal PTX
//! (it compiles and does not synchronize with a waiter in another CTA), so the types allow it.
//! Needs the PTX tools (`cargo xtask setup`).

mod common;
use common::*;

#[test]
fn ptxas_agrees_with_the_async_type_rules() {
    for legal in [
        "mbarrier.arrive.release.cta.shared::cta.b64 %rd2, [%r1];",
        "mbarrier.arrive.release.cta.shared::cluster.b64 _, [%r1];",
        "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r1];",
        "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p1, [%r1], %r2;",
        "mbarrier.expect_tx.relaxed.cluster.shared::cta.b64 [%r1], 16;",
        "cp.async.cg.shared::cta.global [%r1], [%rd1], 16;",
        "cp.async.cg.shared::cta.global.L2::cache_hint [%r1], [%rd1], 16, %rd2;",
        "barrier.cluster.wait.acquire.aligned;",
        "barrier.cluster.arrive.relaxed.aligned;",
        "mbarrier.arrive_drop.release.cluster.shared::cluster.b64 _, [%r1];",
        "mbarrier.arrive_drop.expect_tx.relaxed.cta.shared::cta.b64 %rd2, [%r1], 16;",
        "mbarrier.arrive_drop.expect_tx.release.cluster.shared::cluster.b64 _, [%r1], 16;",
        "barrier.red.popc.u32 %r2, 1, 64, 1;",
        "barrier.red.or.pred %p1, 1, 64, 0;",
        "fence.acquire.sync_restrict::shared::cluster.cluster;",
        "fence.release.sync_restrict::shared::cta.cluster;",
        "fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;",
        "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;",
        "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.sys.sync.aligned [%rd1], [%r1], 128;",
        "prefetch.tensormap [%rd1];",
        "createpolicy.fractional.L2::evict_unchanged.L2::evict_first.b64 %rd2, %f1;",
        "cp.async.bulk.prefetch.L2.global.L2::cache_hint [%rd1], 16, %rd2;",
        "membar.cta;",
        "membar.gl;",
        "membar.sys;",
        // cp.reduce.async.bulk controls (§9.7.9.25.4): each illegal class below has a legal twin
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.inc.u32 [%rd1], [%r1], 16;",
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%rd1], [%r1], 16;",
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 [%rd1], [%r1], 16;",
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.min.u64 [%rd1], [%r1], 16;",
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.and.b64 [%rd1], [%r1], 16, %rd2;",
        "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.and.b32 [%r1], [%r1], 16, [%r1];",
        "cp.reduce.async.bulk.tensor.3d.global.shared::cta.add.im2col_no_offs.bulk_group [%rd1, {%r1, %r1, %r1}], [%r1];",
        "{ .reg .b16 %rs<2>; cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r1, %r1, %r1}], [%r1], {%rs1}; }",
        "{ .reg .b16 %rs<2>; cp.async.bulk.prefetch.tensor.5d.L2.global.im2col [%rd1, {%r1, %r1, %r1, %r1, %r1}], {%rs1, %rs1, %rs1}; }",
        "cp.reduce.async.bulk.tensor.2d.global.shared::cta.max.tile.bulk_group.L2::cache_hint [%rd1, {%r1, %r1}], [%r1], %rd2;",
        // cp.async .level::prefetch_size (§9.7.9.25.3), after .level::cache_hint (ptxas also
        // takes the other order, which the grammar does not spell)
        "cp.async.ca.shared::cta.global.L2::64B [%r1], [%rd1], 4;",
        "cp.async.cg.shared::cta.global.L2::cache_hint.L2::256B [%r1], [%rd1], 16, %r2, %rd2;",
        // .multicast::cluster with .L2::cache_hint (§9.7.9.25.4.1, §9.7.9.25.5.1): `{, ctaMask}`
        // then `{, cache-policy}` (ptxas also takes the qualifiers in the other order, which the
        // grammar does not spell: the string tests check the order)
        "{ .reg .b16 %rs<2>; cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint [%r1], [%rd1], 16, [%r1], %rs1, %rd2; }",
        "{ .reg .b16 %rs<2>; cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint [%r1], [%rd1, {%r1, %r1}], [%r1], %rs1, %rd2; }",
        "{ .reg .b16 %rs<2>; cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint [%r1], [%rd1, {%r1, %r1, %r1}], [%r1], {%rs1}, %rs1, %rd2; }",
        // st.async / red.async (PTX ISA §9.7.9.12, §9.7.13.7): the controls of st_async_types
        // and red_async_op_type
        "st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r1], %r2, [%r3];",
        "st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.v4.f32 [%r1], {%r2, %r2, %r2, %r2}, [%r3];",
        "st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.v2.u64 [%r1], {%rd2, %rd2}, [%r3];",
        "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.u32 [%r1], %r2, [%r3];",
        "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.min.s32 [%r1], %r2, [%r3];",
        "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.and.b32 [%r1], %r2, [%r3];",
        "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u64 [%r1], %rd2, [%r3];",
    ] {
        assert!(
            ptxas_accepts(legal),
            "control: ptxas rejects legal `{legal}`"
        );
    }
    for illegal in [
        "mbarrier.arrive.acquire.cta.shared::cta.b64 %rd2, [%r1];", // arrive_acquire
        "mbarrier.arrive.acquire.cluster.shared::cluster.b64 _, [%r1];", // remote_arrive_acquire
        "mbarrier.try_wait.parity.release.cta.shared::cta.b64 %p1, [%r1], %r2;", // try_wait_release
        "mbarrier.arrive.release.gpu.shared::cta.b64 %rd2, [%r1];", // arrive_gpu_scope
        "mbarrier.expect_tx.relaxed.sys.shared::cta.b64 [%r1], 16;", // expect_tx_sys
        "cp.async.cg.shared::cta.global [%r1], [%rd1], 4;",         // cp_async_cg_4
        "cp.async.cg.shared::cta.global.L2::cache_hint [%r1], [%rd1], 8, %rd2;", // cp_async_cg_4 (hinted)
        "barrier.cluster.wait.release.aligned;",                    // cluster_wait_release
        "barrier.cluster.arrive.acquire.aligned;",                  // cluster_arrive_acquire
        "cp.async.bulk.prefetch.tensor.6d.L2.global.tile [%rd1, {%r1, %r1, %r1, %r1, %r1, %r1}];", // tensor_6d
        "mbarrier.arrive_drop.acquire.cluster.shared::cluster.b64 _, [%r1];", // arrive_drop_acquire
        "mbarrier.arrive_drop.expect_tx.release.gpu.shared::cluster.b64 _, [%r1], 16;", // arrive_drop_acquire (Gpu)
        "mbarrier.arrive_drop.expect_tx.acquire.cluster.shared::cta.b64 %rd2, [%r1], 16;", // arrive_drop_acquire
        "fence.acquire.sync_restrict::shared::cta.cluster;", // sync_restrict_pairing
        "fence.release.sync_restrict::shared::cluster.cluster;", // sync_restrict_pairing
        "fence.proxy.async::generic.acquire.sync_restrict::shared::cta.cluster;", // sync_restrict_pairing
        "fence.proxy.async::generic.release.sync_restrict::shared::cluster.cluster;", // sync_restrict_pairing
        "fence.acquire.sync_restrict::shared::cluster.gpu;", // the scope is always .cluster
        "membar.cluster;",                                   // membar_cluster
        "membar.gpu;",                                       // the level is `.gl`
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.inc.s32 [%rd1], [%r1], 16;", // reduce_inc_i32
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.and.b8 [%rd1], [%r1], 16;", // reduce_u8
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f16 [%rd1], [%r1], 16;", // f16 add is .noftz only
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.s64 [%rd1], [%r1], 16;", // i64 adds as .u64
        "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.f32 [%r1], [%r1], 16, [%r1];", // reduce_cluster_f32
        "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.min.u64 [%r1], [%r1], 16, [%r1];", // reduce_cluster_f32 (64-bit min)
        "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.and.b64 [%r1], [%r1], 16, [%r1];", // .b64 bitwise: .global only
        "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.im2col_no_offs.bulk_group [%rd1, {%r1, %r1}], [%r1];", // tensor_reduce_im2col_2d
        "cp.reduce.async.bulk.tensor.2d.global.shared::cta.exch.tile.bulk_group [%rd1, {%r1, %r1}], [%r1];", // tensor_reduce_exch
        "{ .reg .b16 %rs<2>; cp.async.bulk.tensor.2d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r1, %r1}], [%r1], {%rs1}; }", // im2col_2d
        "{ .reg .b16 %rs<2>; cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r1, %r1, %r1}], [%r1], {%rs1, %rs1}; }", // im2col_offsets (D - 2 of them)
        "{ .reg .b16 %rs<2>; cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint [%r1], [%rd1, {%r1, %r1}], [%r1], %rd2, %rs1; }", // the policy before the mask
        "cp.async.cg.shared::cta.global.L2::128B [%r1], [%rd1], 8;", // cp_async_prefetch_cg_8
        "cp.async.ca.shared::cta.global.L2::512B [%r1], [%rd1], 4;", // no such prefetch size
        "st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.u16 [%r1], %r2, [%r3];", // st_async_types
        "st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.v4.u64 [%r1], {%rd2, %rd2, %rd2, %rd2}, [%r3];", // st_async_types
        "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.s32 [%r1], %r2, [%r3];", // red_async_op_type
        "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.min.u64 [%r1], %rd2, [%r3];", // red_async_op_type
        "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.f32 [%r1], %r2, [%r3];", // red_async_op_type
        "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.exch.b32 [%r1], %r2, [%r3];", // red_async_op_type
    ] {
        assert!(
            !ptxas_accepts(illegal),
            "ptxas accepts `{illegal}`, which the types reject"
        );
    }
}

/// The SM floors of the issue #13 rows, where ptxas enforces them: each instruction assembles at
/// its floor and is rejected one architecture below it.
#[test]
fn ptxas_enforces_the_control_floors() {
    for (insn, floor, below) in [
        ("griddepcontrol.wait;", "sm_90", "sm_89"),
        ("griddepcontrol.launch_dependents;", "sm_90", "sm_89"),
        (
            "fence.acquire.sync_restrict::shared::cluster.cluster;",
            "sm_90",
            "sm_89",
        ),
        (
            "fence.release.sync_restrict::shared::cta.cluster;",
            "sm_90",
            "sm_89",
        ),
        (
            "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;",
            "sm_90",
            "sm_89",
        ),
        (
            "fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;",
            "sm_90",
            "sm_89",
        ),
        (
            "cp.async.ca.shared::cta.global.L2::cache_hint [%r1], [%rd1], 4, %r2, %rd2;",
            "sm_80",
            "sm_75",
        ),
        // every prefetch size at cp.async's sm_80 (the ISA's .L2::256B floor is sm_80 too)
        (
            "cp.async.ca.shared::cta.global.L2::64B [%r1], [%rd1], 4;",
            "sm_80",
            "sm_75",
        ),
        (
            "cp.async.cg.shared::cta.global.L2::256B [%r1], [%rd1], 16;",
            "sm_80",
            "sm_75",
        ),
        (
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.max.s64 [%rd1], [%r1], 16;",
            "sm_90",
            "sm_89",
        ),
        (
            "st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r1], %r2, [%r3];",
            "sm_90",
            "sm_89",
        ),
        (
            "cp.reduce.async.bulk.tensor.1d.global.shared::cta.or.tile.bulk_group [%rd1, {%r1}], [%r1];",
            "sm_90",
            "sm_89",
        ),
        (
            "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.dec.u32 [%r1], [%r1], 16, [%r1];",
            "sm_90",
            "sm_89",
        ),
        (
            "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r1], %r2, [%r3];",
            "sm_90",
            "sm_89",
        ),
    ] {
        assert!(
            ptxas_accepts_on(floor, insn),
            "ptxas rejects `{insn}` on {floor}"
        );
        assert!(
            !ptxas_accepts_on(below, insn),
            "ptxas accepts `{insn}` on {below}, below its floor {floor}"
        );
    }
    // nanosleep (sm_70) and membar (sm_20) are older than ptxas 13.0's oldest target, sm_75
    // (`-arch=sm_70` is not a value ptxas takes): no floor to test below; each assembles on the
    // oldest and the newest targets.
    for arch in ["sm_75", "sm_90", "sm_100a"] {
        for insn in [
            "membar.cta;",
            "membar.gl;",
            "membar.sys;",
            "nanosleep.u32 %r1;",
            "nanosleep.u32 100;",
        ] {
            assert!(ptxas_accepts_on(arch, insn), "`{insn}` on {arch}");
        }
    }
}

/// `membar.level` is the ISA's synonym of `fence.sc` at the matching scope (PTX ISA §9.7.13.4):
/// ptxas 13.0 emits the same SASS for each pair on sm_90.
/// The SASS opcodes (NOPs and the final self-branch dropped) of a kernel holding `insn`, for sm_90.
fn sass_of(insn: &str) -> Vec<String> {
    let dir = scratch_dir("sass-of");
    let f = dir.join("k.ptx");
    std::fs::write(
        &f,
        format!(".version 8.6\n.target sm_90\n.address_size 64\n.visible .entry k()\n{{\n{insn}\nret;\n}}\n"),
    )
    .unwrap();
    let cubin = dir.join("k.cubin");
    tool(
        "ptxas",
        &[
            "-arch=sm_90",
            f.to_str().unwrap(),
            "-o",
            cubin.to_str().unwrap(),
        ],
    );
    let sass = tool("cuobjdump", &["-sass", cubin.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    parse_sass(&sass)
        .into_iter()
        .flat_map(|(_, i)| i)
        .map(|i| format!("{} {}", i.opcode, i.operands))
        .collect()
}

/// `membar.level` is the ISA's synonym of `fence.sc` at the matching scope (PTX ISA §9.7.13.4):
/// ptxas 13.0 emits the same SASS for each pair on sm_90.
#[test]
fn membar_assembles_to_the_sass_of_fence_sc() {
    for (membar, fence) in [
        ("membar.cta;", "fence.sc.cta;"),
        ("membar.gl;", "fence.sc.gpu;"),
        ("membar.sys;", "fence.sc.sys;"),
    ] {
        let (m, f) = (sass_of(membar), sass_of(fence));
        assert!(m.iter().any(|o| o.starts_with("MEMBAR")), "{membar}: {m:?}");
        assert_eq!(m, f, "{membar} vs {fence}");
    }
}

/// What the PTX 8.6 restricted fences cost on sm_90 (ptxas 13.0), against the fences they
/// replace: the release forms are a CTA-level `MEMBAR.ALL.CTA` (+ `FENCE.VIEW.ASYNC.S` for the
/// proxy form, as for `fence.proxy.async`) where `fence.acq_rel.cluster` / `fence.proxy.async`
/// take a GPU-level `MEMBAR.ALL.GPU`; the acquire forms on `.shared::cluster` emit no
/// synchronization instruction at all.
#[test]
fn sync_restrict_sass() {
    let ops = |insn: &str| -> Vec<String> {
        sass_of(insn)
            .into_iter()
            .map(|o| o.split(' ').next().unwrap().to_string())
            .filter(|o| {
                o.starts_with("MEMBAR")
                    || o.starts_with("FENCE")
                    || o.contains("ERRBAR")
                    || o.starts_with("CCTL")
            })
            .collect()
    };
    assert_eq!(
        ops("fence.release.sync_restrict::shared::cta.cluster;"),
        ["MEMBAR.ALL.CTA", "FENCE.VIEW.ASYNC.S"]
    );
    assert_eq!(
        ops("fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;"),
        ["MEMBAR.ALL.CTA", "FENCE.VIEW.ASYNC.S"]
    );
    assert!(ops("fence.acquire.sync_restrict::shared::cluster.cluster;").is_empty());
    assert!(
        ops("fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;")
            .is_empty()
    );
    // the fences they are cheaper than
    assert_eq!(
        ops("fence.proxy.async;"),
        ["MEMBAR.ALL.GPU", "FENCE.VIEW.ASYNC.S"]
    );
    assert!(ops("fence.acq_rel.cluster;").contains(&"MEMBAR.ALL.GPU".to_string()));
}
