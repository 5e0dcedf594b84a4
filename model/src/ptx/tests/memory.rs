//! The interpreter's tests: memory operations, atomics, fences, mbarriers, copies, special registers, warp collectives, barriers.

use super::*;

// ------------------------------------------------------------------ memory ops and their deps

#[test]
fn vectors_are_one_access_per_element_in_ascending_addresses_and_sinks_are_skipped() {
    // PTX ISA §8.2.4: a vector access is a set of scalar accesses; FORMAT part 2: issued in
    // ascending address order. ld.v4 with `_` (PTX ISA ld: "data … is not read").
    let (mut t, mut m) = kthread(&[
        "mov.u64 %rd1, y;",
        "st.global.v4.b32 [%rd1], {1, 2, 3, 4};",
        "ld.global.v4.b32 {%r1, _, %r3, %r4}, [y];",
    ]);
    let s = run(&mut t, &mut m);
    let y = layout_xs().addr_of(1);
    let o = ops(&s);
    let store_addrs: Vec<u64> = o
        .iter()
        .filter_map(|o| match o {
            Op::Store(a, v) => Some((a.addr - y) * 100 + v),
            _ => None,
        })
        .collect();
    assert_eq!(store_addrs, vec![1, 402, 803, 1204]);
    let load_addrs: Vec<u64> = o
        .iter()
        .filter_map(|o| match o {
            Op::Load(a) => Some(a.addr - y),
            _ => None,
        })
        .collect();
    assert_eq!(load_addrs, vec![0, 8, 12]);
    assert_eq!((reg(&t, "%r1"), reg(&t, "%r3"), reg(&t, "%r4")), (1, 3, 4));
}

#[test]
fn deps_carry_data_address_and_control_dependencies() {
    // op 0: ld x → %r1 (deps {}); op 1: st [y], %r1 (data dep on 0); op 2: ld %rd2 ← [x]
    // (deps {}); op 3: ld [%rd2] (address dep on 2: %rd2 came from op 2); the branch on %r1
    // makes every later op control-dependent on 0; op 4: st [x], 5 (deps {0}).
    let mut l = layout_xs();
    let yaddr = l.addr_of(1);
    l.vars[0].init = yaddr.to_le_bytes().to_vec();
    let code = kcode(
        l,
        &[
            "ld.global.u32 %r1, [x];",
            "st.global.u32 [y], %r1;",
            "ld.global.u64 %rd2, [x];",
            "ld.global.u32 %r2, [%rd2];",
            "setp.eq.s32 %p1, %r1, 7;",
            "@%p1 bra DONE;",
            "st.global.u32 [x], 5;",
            "DONE:",
        ],
    );
    let mut m = Mem::new(code.layout.clone());
    let mut t = Thread::new(code, Geom::single(Place::default()), &[], 4);
    let deps: Vec<Vec<u32>> = run(&mut t, &mut m)
        .iter()
        .filter_map(|s| match s {
            Step::Op(_, _, d) => Some(d.to_vec()),
            _ => None,
        })
        .collect();
    assert_eq!(deps, vec![vec![], vec![0], vec![], vec![2], vec![0]]);
}

#[test]
fn deps_sets_are_exact_below_128_and_over_approximate_above() {
    let mut d = Deps::NONE;
    d.insert(3);
    d.insert(127);
    assert_eq!(d.to_vec(), vec![3, 127]);
    d.insert(130);
    // 128..=130 are claimed (the documented over-approximation); nothing above 130.
    assert_eq!(d.to_vec(), vec![3, 127, 128, 129, 130]);
    assert!(!d.contains(131) && !d.contains(4));
    assert_eq!(d.len(), 5);
}

#[test]
fn atom_red_defaults_and_cas_operands() {
    // PTX ISA atom: no .sem = .relaxed, no .scope = .gpu; cas(r, s, t) = r == s ? t : r.
    let (mut t, mut m) = kthread(&[
        "atom.global.add.u32 %r1, [x], 5;",
        "atom.acq_rel.cta.global.cas.b32 %r2, [x], 5, 9;",
        "red.release.sys.global.add.u32 [x], 1;",
        "atom.exch.b64 %rd1, [y], -1;",
    ]);
    let s = run(&mut t, &mut m);
    let o = ops(&s);
    let Op::Rmw(a0, r0) = &o[0] else { panic!() };
    assert_eq!(
        (a0.order, a0.space, a0.size, r0.op, r0.a, r0.returns),
        (
            Order {
                sem: Sem::Relaxed,
                scope: Some(Scope::Gpu)
            },
            Space::Global,
            4,
            RmwOp::Add,
            5,
            true
        )
    );
    let Op::Rmw(a1, r1) = &o[1] else { panic!() };
    assert_eq!(
        (a1.order.sem, a1.order.scope, r1.op, r1.a, r1.b),
        (Sem::AcqRel, Some(Scope::Cta), RmwOp::Cas, 5, 9)
    );
    let Op::Rmw(a2, r2) = &o[2] else { panic!() };
    assert_eq!((a2.order.sem, r2.returns), (Sem::Release, false));
    let Op::Rmw(a3, r3) = &o[3] else { panic!() };
    assert_eq!((a3.space, a3.size, r3.a), (Space::Generic, 8, u64::MAX));
    // 0 + 5 = 5, then cas 5 → 9, then +1 = 10; %r1 = 0, %r2 = 5.
    assert_eq!((reg(&t, "%r1"), reg(&t, "%r2")), (0, 5));
    assert_eq!(m.read(Space::Global, layout_xs().addr_of(0), 4, 0), 10);
}

#[test]
fn fences_membar_and_proxy_fences() {
    // PTX ISA fence: no .sem = .acq_rel; membar.gl = fence.sc.gpu.
    let (mut t, mut m) = kthread(&[
        "fence.gpu;",
        "membar.gl;",
        "fence.sc.cluster;",
        "fence.mbarrier_init.release.cluster;",
        "fence.acquire.sync_restrict::shared::cluster.cluster;",
        "fence.proxy.async.shared::cta;",
        "fence.proxy.async;",
        "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;",
        "fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;",
        "fence.proxy.alias;",
    ]);
    let o = ops(&run(&mut t, &mut m));
    assert_eq!(
        o,
        vec![
            Op::Fence(FenceSem::AcqRel, Scope::Gpu, None),
            Op::Fence(FenceSem::Sc, Scope::Gpu, None),
            Op::Fence(FenceSem::Sc, Scope::Cluster, None),
            Op::Fence(
                FenceSem::Release,
                Scope::Cluster,
                Some(Restrict::MbarrierInit)
            ),
            Op::Fence(
                FenceSem::Acquire,
                Scope::Cluster,
                Some(Restrict::SharedCluster)
            ),
            Op::ProxyFence(ProxyFence::Async(Some(Space::SharedCta))),
            Op::ProxyFence(ProxyFence::Async(None)),
            Op::ProxyFence(ProxyFence::AsyncGeneric {
                sem: FenceSem::Release,
                restrict: Restrict::SharedCta
            }),
            Op::ProxyFence(ProxyFence::TensormapGeneric {
                sem: FenceSem::Acquire,
                scope: Scope::Gpu,
                addr: Some(0)
            }),
            Op::ProxyFence(ProxyFence::Alias),
        ]
    );
}

#[test]
fn mbarrier_defaults_and_operands() {
    // PTX ISA mbarrier.arrive: .release.cta by default; waits .acquire.cta; expect_tx .relaxed.
    let (mut t, mut m) = kthread(&[
        "mbarrier.init.shared::cta.b64 [bar], 2;",
        "mbarrier.arrive.shared::cta.b64 %rd1, [bar];",
        "mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [bar], 64;",
        "mbarrier.try_wait.parity.shared::cta.b64 %p1, [bar], 1;",
        "mbarrier.test_wait.relaxed.cluster.shared::cta.b64 %p2, [bar], %rd1;",
        "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], 16;",
        "mbarrier.arrive_drop.noComplete.shared::cta.b64 %rd2, [bar], 3;",
        "mbarrier.pending_count.b64 %r1, %rd1;",
    ]);
    let s = run(&mut t, &mut m);
    let bar = layout_xs().addr_of(3);
    // A row each: the space the instruction names (`.shared::cluster` only on the expect_tx
    // arrive), its operation, and its semantics and scope (written, or the defaults above).
    let mbar = |space, op, sem, scope| Op::Mbar {
        space,
        addr: bar,
        op,
        sem,
        scope,
    };
    let (cta, cluster) = (Space::SharedCta, Space::SharedCluster);
    let arrive = |count, expect_tx, no_complete, drop| MbarOp::Arrive {
        count,
        expect_tx,
        no_complete,
        drop,
    };
    let got: Vec<Op> = ops(&s)
        .into_iter()
        .filter(|o| matches!(o, Op::Mbar { .. }))
        .collect();
    assert_eq!(
        got,
        vec![
            mbar(cta, MbarOp::Init { count: 2 }, Sem::Weak, Scope::Cta),
            mbar(cta, arrive(1, None, false, false), Sem::Release, Scope::Cta),
            mbar(
                cluster,
                arrive(1, Some(64), false, false),
                Sem::Release,
                Scope::Cluster
            ),
            mbar(
                cta,
                MbarOp::WaitParity {
                    parity: 1,
                    try_wait: true
                },
                Sem::Acquire,
                Scope::Cta
            ),
            mbar(
                cta,
                MbarOp::WaitState {
                    state: 0x77,
                    try_wait: false
                },
                Sem::Relaxed,
                Scope::Cluster
            ),
            mbar(cta, MbarOp::ExpectTx(16), Sem::Relaxed, Scope::Cta),
            mbar(cta, arrive(3, None, true, true), Sem::Release, Scope::Cta),
        ]
    );
    assert!(ops(&s).contains(&Op::PendingCount(0x77)));
    assert_eq!((reg(&t, "%p1"), reg(&t, "%r1")), (1, 0x77));
}

#[test]
fn async_copies_split_into_pieces_with_their_completion() {
    // cp.async 16 bytes with src-size 6: bytes 0..6 read, 6..16 zero-filled (PTX ISA cp.async);
    // pieces of 4 bytes, the one straddling byte 6 split into bytes.
    let mut l = layout_xs();
    l.vars[1].init = (1..=16).collect();
    let code = kcode(
        l,
        &[
            "cp.async.ca.shared::cta.global [s], [y], 16, 6;",
            "cp.async.commit_group;",
            "cp.async.wait_group 0;",
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [s], [y], 16, [bar];",
            "cp.async.bulk.global.shared::cta.bulk_group [y], [s], 16;",
            "cp.async.bulk.commit_group;",
            "cp.async.bulk.wait_group.read 1;",
            "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [bar];",
        ],
    );
    let mut m = Mem::new(code.layout.clone());
    let mut t = Thread::new(code.clone(), Geom::single(Place::default()), &[], 4);
    let s = run(&mut t, &mut m);
    let o = ops(&s);
    let (sa, ya, ba) = (
        code.layout.addr_of(2),
        code.layout.addr_of(1),
        code.layout.addr_of(3),
    );
    let Op::Copy(c0) = &o[0] else { panic!("{o:?}") };
    let got: Vec<(Option<u64>, u64, u8)> = c0
        .moves
        .iter()
        .map(|m| (m.src.map(|x| x.1 - ya), m.dst.unwrap().1 - sa, m.size))
        .collect();
    assert_eq!(
        got,
        vec![
            (Some(0), 0, 4),
            (Some(4), 4, 1),
            (Some(5), 5, 1),
            (None, 6, 1),
            (None, 7, 1),
            (None, 8, 4),
            (None, 12, 4)
        ]
    );
    assert_eq!(
        (c0.proxy, c0.completion),
        (Proxy::Generic, Completion::AsyncGroup)
    );
    // Performed alone, the first copy leaves bytes 1..6 then zeros in s.
    let mut m0 = Mem::new(code.layout.clone());
    let mut t0 = Thread::new(code.clone(), Geom::single(Place::default()), &[], 4);
    let Step::Op(Op::Copy(c), _, _) = t0.step() else {
        panic!()
    };
    for mv in &c.moves {
        let v = mv.src.map_or(0, |(sp, a)| m0.read(sp, a, mv.size, 0));
        let (sp, a) = mv.dst.unwrap();
        m0.write(sp, a, mv.size, v, 0);
    }
    assert_eq!(m0.read(Space::SharedCta, sa, 8, 0), 0x0000_0605_0403_0201);
    assert_eq!(o[1], Op::Commit { bulk: false });
    assert_eq!(
        o[2],
        Op::WaitGroup {
            bulk: false,
            n: 0,
            read: false,
            all: false
        }
    );
    let Op::Copy(c3) = &o[3] else { panic!() };
    assert_eq!(
        (c3.proxy, c3.completion, c3.tx_bytes, c3.moves.len()),
        (
            Proxy::Async,
            Completion::Mbarrier(Space::SharedCluster, ba),
            16,
            4
        )
    );
    let Op::Copy(c4) = &o[4] else { panic!() };
    assert_eq!(c4.completion, Completion::BulkGroup);
    assert_eq!(c4.moves[0].dst, Some((Space::Global, ya)));
    assert_eq!(
        o[6],
        Op::WaitGroup {
            bulk: true,
            n: 1,
            read: true,
            all: false
        }
    );
    assert_eq!(
        o[7],
        Op::AsyncMbarArrive {
            space: Space::SharedCta,
            addr: ba,
            noinc: true
        }
    );
}

#[test]
fn tensor_copies_move_the_box_row_major_and_zero_fill_outside() {
    // A 2d map over a 3x2 tensor of .b32 with a 2x2 box; loading at (2, 1): elements (2,1),
    // (3,1) [outside: x = 3 ≥ W], (2,2), (3,2) [outside: y = 2 ≥ H] → one element read.
    let mut l = Layout::default();
    let data = l.add("g", false, 24, (0..24).collect());
    let tv = l.add("t", false, 128, vec![]);
    l.add("sm", true, 16, vec![]);
    l.add("bar", true, 8, vec![]);
    l.tmaps.push(TensorMap {
        var: tv,
        data,
        elem: 4,
        dims: vec![3, 2],
        boxdim: vec![2, 2],
    });
    let code = kcode(
        l,
        &["cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [sm], [t, {2, 1}], [bar];"],
    );
    let mut m = Mem::new(code.layout.clone());
    let mut t = Thread::new(code.clone(), Geom::single(Place::default()), &[], 4);
    let o = ops(&run(&mut t, &mut m));
    let Op::Copy(c) = &o[0] else { panic!() };
    let g = code.layout.addr_of(data);
    let srcs: Vec<Option<u64>> = c.moves.iter().map(|m| m.src.map(|s| s.1 - g)).collect();
    // element (2,1) is at (1*3 + 2) * 4 = 20.
    assert_eq!(srcs, vec![Some(20), None, None, None]);
    assert_eq!(c.tx_bytes, 16);
    assert_eq!(
        m.read(Space::SharedCta, code.layout.addr_of(2), 8, 0),
        0x1716_1514
    );
}

#[test]
fn addresses_of_shared_variables_follow_the_space_and_the_cta() {
    // A thread of rank 1 in a cluster of 2: [s] in .shared::cta names its own copy; [s@0] in
    // .shared::cluster names rank 0's copy (FORMAT part 2); cvta/mapa give the Layout's
    // numbers (engine::op::Layout docs).
    let l = layout_xs();
    let sa = l.addr_of(2);
    let code = kcode(
        l,
        &[
            "mov.u32 %r1, s;",
            "cvta.shared::cta.u64 %rd1, %r1;",
            "cvta.to.shared::cta.u64 %rd2, %rd1;",
            "mapa.shared::cluster.u32 %r2, %r1, 0;",
            "mapa.u64 %rd3, %rd1, 0;",
            "getctarank.shared::cluster.u32 %r3, %r2;",
            "getctarank.u64 %r4, %rd1;",
            "isspacep.shared::cta %p1, %rd3;",
            "isspacep.shared::cluster %p2, %rd3;",
            "isspacep.global %p3, %rd3;",
            "st.shared::cluster.u32 [s@0+4], 1;",
            "ld.shared::cta.u32 %r5, [s];",
        ],
    );
    let place = Place {
        rank: 1,
        ..Place::default()
    };
    let mut g = Geom::single(place);
    g.cluster_nctaid = [2, 1, 1];
    let mut m = Mem::new(code.layout.clone());
    m.cluster = 2;
    let mut t = Thread::new(code, g, &[], 4);
    let o = ops(&run(&mut t, &mut m));
    let gen1 = GENERIC_SHARED + ((2u64 << RANK_SHIFT) | sa);
    assert_eq!(
        [
            reg(&t, "%r1"),
            reg(&t, "%rd1"),
            reg(&t, "%rd2"),
            reg(&t, "%r2"),
            reg(&t, "%rd3"),
            reg(&t, "%r3"),
            reg(&t, "%r4"),
            reg(&t, "%p1"),
            reg(&t, "%p2"),
            reg(&t, "%p3"),
        ],
        [
            sa,
            gen1,
            sa,
            (1u64 << RANK_SHIFT) | sa,
            GENERIC_SHARED + ((1u64 << RANK_SHIFT) | sa),
            0,
            1,
            0,
            1,
            0
        ]
    );
    assert_eq!(
        o[0],
        Op::Store(
            Access {
                space: Space::SharedCluster,
                addr: (1u64 << RANK_SHIFT) | (sa + 4),
                size: 4,
                proxy: Proxy::Generic,
                order: Order::WEAK
            },
            1
        )
    );
}

#[test]
fn special_registers_and_clocks() {
    let code = kcode(
        Layout::default(),
        &[
            "mov.u32 %r1, %tid.y;",
            "mov.u32 %r2, %laneid;",
            "mov.u32 %r3, %cluster_ctarank;",
            "mov.u32 %r4, %lanemask_lt;",
            "mov.u64 %rd1, %globaltimer;",
            "mov.u64 %rd2, %clock64;",
            "mov.u32 %r5, %smid;",
            "mov.u32 %r6, %nctaid.x;",
        ],
    );
    let mut g = Geom::single(Place {
        rank: 2,
        lane: 5,
        ..Place::default()
    });
    g.tid = [5, 3, 0];
    g.nctaid = [4, 1, 1];
    let mut m = Mem::new(code.layout.clone());
    let mut t = Thread::new(code, g, &[], 4);
    let s = run(&mut t, &mut m);
    // %lanemask_lt of lane 5: bits 0..4 set = 0x1f (PTX ISA §10.12).
    assert_eq!(
        [
            reg(&t, "%r1"),
            reg(&t, "%r2"),
            reg(&t, "%r3"),
            reg(&t, "%r4"),
            reg(&t, "%rd1"),
            reg(&t, "%rd2"),
            reg(&t, "%r5"),
            reg(&t, "%r6")
        ],
        [3, 5, 2, 0x1f, 10, 20, 0, 4]
    );
    // The first read has no earlier clock value to be compared with: a jump there is a change
    // of origin, not explored; the second is observed with the first (registers are observed at
    // a litmus thread's end).
    assert_eq!(
        ops(&s),
        vec![Op::Clock { jump: false }, Op::Clock { jump: true }]
    );
}

#[test]
fn warp_collectives_are_ops_with_their_lane_semantics() {
    // shfl.sync.down with b = 1, c = 0x1f on lane 31: j = 32 > maxLane 31 → p false; on lane 3
    // p true (PTX ISA shfl.sync pseudocode).
    let text = [
        "activemask.b32 %r1;",
        "elect.sync %r2|%p1, -1;",
        "vote.sync.ballot.b32 %r3, %p1, -1;",
        "shfl.sync.down.b32 %r4|%p2, 42, 1, 31, -1;",
        "bar.warp.sync -1;",
    ];
    for (lane, p2) in [(3u32, 1u64), (31, 0)] {
        let code = kcode(Layout::default(), &text);
        let mut m = Mem::new(code.layout.clone());
        let mut t = Thread::new(
            code,
            Geom::single(Place {
                lane,
                ..Place::default()
            }),
            &[],
            4,
        );
        let o = ops(&run(&mut t, &mut m));
        assert_eq!(o[0], Op::Warp(Warp::ActiveMask, 0xffff_ffff));
        assert_eq!(
            o[3],
            Op::Warp(Warp::Shfl(ShflMode::Down, 42, 1, 31), 0xffff_ffff)
        );
        assert_eq!(o[4], Op::Warp(Warp::Sync, 0xffff_ffff));
        assert_eq!(
            [
                reg(&t, "%r1"),
                reg(&t, "%r2"),
                reg(&t, "%p1"),
                reg(&t, "%r3"),
                reg(&t, "%p2")
            ],
            [1 << lane, lane as u64, 1, 1 << lane, p2]
        );
    }
}

#[test]
fn barriers_pass_their_operands() {
    let (mut t, mut m) = kthread(&[
        "bar.sync 1, 64;",
        "barrier.arrive.aligned 2, 32;",
        "setp.eq.s32 %p1, 1, 1;",
        "bar.red.popc.u32 %r1, 3, !%p1;",
        "barrier.cluster.arrive.relaxed.aligned;",
        "barrier.cluster.wait;",
        "bar.sync 0;",
    ]);
    let s = run(&mut t, &mut m);
    assert_eq!(
        ops(&s),
        vec![
            Op::Bar {
                kind: BarKind::Sync,
                id: 1,
                count: Some(64),
                pred: false
            },
            Op::Bar {
                kind: BarKind::Arrive,
                id: 2,
                count: Some(32),
                pred: false
            },
            Op::Bar {
                kind: BarKind::RedPopc,
                id: 3,
                count: None,
                pred: false
            },
            Op::ClusterArrive { relaxed: true },
            Op::ClusterWait,
            Op::Bar {
                kind: BarKind::Sync,
                id: 0,
                count: None,
                pred: false
            },
        ]
    );
}
