//! The interpreter's tests: the parser: errors, litmus extras, operands.

use super::*;

// ------------------------------------------------------------------------------ the parser

#[test]
fn parse_errors_say_what_was_expected() {
    // PTX ISA bar: "sixteen barriers numbered 0..15"; a thread count must be positive.
    let e = kparse("bar.sync 16;").unwrap_err();
    assert!(
        !e.unsupported && e.msg.contains("out of range 0–15"),
        "{e:?}"
    );
    let e = lparse("bar.cta.sync 0, 0").unwrap_err();
    assert!(e.msg.contains("must be positive"), "{e:?}");
    let e = lparse("bar.cta.sync 0, -2").unwrap_err();
    assert!(e.msg.contains("must be positive"), "{e:?}");
    // In a kernel a count is a multiple of the warp size.
    assert!(kparse("bar.sync 0, 48;")
        .unwrap_err()
        .msg
        .contains("multiple of the warp size"));
    assert!(kparse("bar.sync 0, 64;").is_ok());
    // atom.inc/.dec are .u32 only.
    let e = kparse("atom.global.inc.s64 %rd1, [x], 3;").unwrap_err();
    assert!(e.msg.contains(".u32 only"), "{e:?}");
    assert!(kparse("atom.global.dec.u64 %rd1, [x], 3;").is_err());
    assert!(kparse("atom.global.inc.u32 %r1, [x], 3;").is_ok());
    // A literal that fits neither the signed nor the unsigned 32-bit range.
    let e = kparse("st.global.u32 [x], 5000000000;").unwrap_err();
    assert!(e.msg.contains("does not fit .u32"), "{e:?}");
    assert!(kparse("st.global.u32 [x], 4294967295;").is_ok());
    assert!(kparse("st.global.s32 [x], -2147483648;").is_ok());
    assert!(kparse("st.global.s32 [x], -2147483649;").is_err());
    assert!(lparse("st x, 4294967296").is_err());
    // Semantics and scopes.
    assert!(kparse("ld.release.gpu.u32 %r1, [x];")
        .unwrap_err()
        .msg
        .contains("ld has no `.release`"));
    assert!(kparse("ld.acquire.u32 %r1, [x];")
        .unwrap_err()
        .msg
        .contains("needs a scope"));
    assert!(kparse("red.acquire.gpu.add.u32 [x], 1;")
        .unwrap_err()
        .msg
        .contains("red has no"));
    assert!(kparse("fence.sc;")
        .unwrap_err()
        .msg
        .contains("needs a scope"));
    // A name not in the space named.
    assert!(kparse("ld.global.u32 %r1, [s];")
        .unwrap_err()
        .msg
        .contains("not in the .global"));
    assert!(kparse("ld.shared::cta.u32 %r1, [s@1];").is_err());
    // Operand counts.
    assert!(kparse("add.u32 %r1, %r2;")
        .unwrap_err()
        .msg
        .contains("takes 3 operand"));
    // setp on bit types: eq/ne only (§9.3.1.1).
    assert!(kparse("setp.lt.b32 %p1, %r1, %r2;").is_err());
    // Unknown instructions are unsupported, not errors.
    let e = kparse("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [s], 32;").unwrap_err();
    assert!(e.unsupported, "{e:?}");
}

#[test]
fn litmus_extras_parse_to_their_meanings() {
    // FORMAT part 2: untyped ld/st/atom/red are 32-bit; .volatile is relaxed.sys.
    let i = lparse("ld.volatile r0, x").unwrap();
    let Inst::Ld {
        m: MemRef {
            order, ty, space, ..
        },
        ..
    } = i
    else {
        panic!()
    };
    assert_eq!(
        (order, ty, space),
        (
            Order {
                sem: Sem::Relaxed,
                scope: Some(Scope::Sys)
            },
            Ty::U32,
            Space::Generic
        )
    );
    let Inst::Atom { ty, sem, scope, .. } = lparse("atom.add r1, [x+4], 2").unwrap() else {
        panic!()
    };
    assert_eq!((ty, sem, scope), (Ty::U32, Sem::Relaxed, Scope::Gpu));
    assert!(matches!(
        lparse("beq r1, 2, L").unwrap(),
        Inst::CmpBra { target: 0, .. }
    ));
    assert!(matches!(lparse("goto L").unwrap(), Inst::Bra { target: 0 }));
    assert!(matches!(
        lparse("add r2, r1, 1").unwrap(),
        Inst::Bin {
            ty: Ty {
                kind: Kind::S,
                bits: 64
            },
            ..
        }
    ));
    assert!(matches!(
        lparse("membar.cta").unwrap(),
        Inst::Fence(FenceSem::Sc, Scope::Cta, None)
    ));
    let Inst::Ld {
        m: MemRef { proxy, .. },
        ..
    } = lparse("suld.weak r0, x").unwrap()
    else {
        panic!()
    };
    assert_eq!(proxy, Proxy::Surface);
    let Inst::Ld {
        m: MemRef { proxy, .. },
        ..
    } = lparse("ld.const r0, x").unwrap()
    else {
        panic!()
    };
    assert_eq!(proxy, Proxy::Constant);
    // `[x@1]`: rank 1's copy; `_` sink.
    let Inst::Mbar { addr, d, space, .. } =
        lparse("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [bar@1]").unwrap()
    else {
        panic!()
    };
    assert_eq!((d, space), (None, Space::SharedCluster));
    assert!(matches!(addr.base, Base::Var { rank: Some(1), .. }));
    // The other tool's `ld r0, 1` is a move.
    assert!(matches!(
        lparse("ld r0, 1").unwrap(),
        Inst::Mov {
            a: Opnd::Imm(1),
            ..
        }
    ));
    // Guards.
    let mut l = layout_xs();
    let mut a = Asm::new(&mut l, &[], &[]);
    let v = a
        .assemble(&[(1, "L:".into()), (2, "@!p0 bra L".into())])
        .unwrap();
    let p0 = a.register("p0").unwrap();
    assert_eq!(v[1].guard, Some((p0, true)));
    assert!(a.regs[p0 as usize].bits == 1);
}

#[test]
fn address_operands() {
    let Inst::Ld {
        m: MemRef { addr, .. },
        ..
    } = kparse("ld.u32 %r1, [%rd1+-28];").unwrap()
    else {
        panic!()
    };
    assert_eq!(addr.off, -28);
    assert!(matches!(addr.base, Base::Reg(_)));
    let Inst::St {
        m: MemRef { addr, .. },
        ..
    } = kparse("st.global.u32 [y+8], 1;").unwrap()
    else {
        panic!()
    };
    assert_eq!(addr.off, 8);
    assert!(matches!(
        addr.base,
        Base::Var {
            var: 1,
            shared: false,
            ..
        }
    ));
    let Inst::Ld {
        m: MemRef { addr, .. },
        ..
    } = kparse("ld.u32 %r1, [4096];").unwrap()
    else {
        panic!()
    };
    assert_eq!(addr.base, Base::Abs(4096));
}

#[test]
fn vector_and_packed_atomics_are_one_rmw_per_element() {
    // PTX ISA atom: vector/packed atomics are atomic per scalar element. .v2.f32 add: elements
    // at y and y+4; .f16x2: the low half (0x4000 = 2.0) at y, the high half (0x3c00 = 1.0) at
    // y+2; the old halves come back into the destination's halves.
    let code = kcode(
        layout_xs(),
        &[
            "mov.b32 %r3, 1065353216;",
            "atom.relaxed.gpu.global.add.v2.f32 {%r1, %r2}, [y], {%r3, %r3};",
            "mov.b32 %r5, 1006649344;",
            "atom.global.add.noftz.f16x2 %r4, [y], %r5;",
        ],
    );
    let mut t = Thread::new(code.clone(), Geom::single(Place::default()), &[], 4);
    let y = code.layout.addr_of(1);
    let mut got = vec![];
    let mut k = 0u64;
    loop {
        match t.step() {
            Step::Op(Op::Rmw(a, r), _, _) => {
                got.push((a.addr - y, a.size, r.a, r.float, r.returns));
                k += 1;
                t.resume(Reply::Value(0x1110 + k));
            }
            Step::Done => break,
            s => panic!("{s:?}"),
        }
    }
    assert_eq!(
        got,
        vec![
            (0, 4, 0x3f80_0000, Some(Float::F32), true),
            (4, 4, 0x3f80_0000, Some(Float::F32), true),
            (0, 2, 0x4000, Some(Float::F16), true),
            (2, 2, 0x3c00, Some(Float::F16), true),
        ]
    );
    assert_eq!(
        (reg(&t, "%r1"), reg(&t, "%r2"), reg(&t, "%r4")),
        (0x1111, 0x1112, 0x1114_1113)
    );
    // Only .add (and .min/.max on halves) exist in vector form.
    assert!(kparse("atom.global.min.v2.f32 {%r1, %r2}, [y], {%r3, %r3};").is_err());
}

#[test]
fn tensormap_cp_fenceproxy_copies_128_bytes_then_fences() {
    // PTX ISA §9.7.13.16: copy 128 bytes shared::cta → global in the generic proxy, then a
    // generic → tensormap release fence on dst.
    let mut l = Layout::default();
    let g = l.add("g", false, 128, vec![]);
    let sm = l.add("sm", true, 128, (0..128).collect());
    let code = kcode(
        l,
        &["tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [g], [sm], 128;"],
    );
    let mut m = Mem::new(code.layout.clone());
    let mut t = Thread::new(code.clone(), Geom::single(Place::default()), &[], 4);
    let s = run(&mut t, &mut m);
    let o = ops(&s);
    assert_eq!(o.len(), 33);
    let ga = code.layout.addr_of(g);
    assert_eq!(
        o[32],
        Op::ProxyFence(ProxyFence::TensormapGeneric {
            sem: FenceSem::Release,
            scope: Scope::Gpu,
            addr: Some(ga)
        })
    );
    // The store of the last word carries the data dependency on its load (op 30).
    let Step::Op(_, _, d) = s
        .iter()
        .filter(|x| matches!(x, Step::Op(..)))
        .nth(31)
        .unwrap()
    else {
        panic!()
    };
    assert!(d.contains(30));
    assert_eq!(m.read(Space::Global, ga + 120, 8, 0), 0x7f7e_7d7c_7b7a_7978);
    let _ = sm;
}

#[test]
fn tensor_reductions_carry_their_operation() {
    let mut l = Layout::default();
    let data = l.add("g", false, 32, vec![]);
    let tv = l.add("t", false, 128, vec![]);
    l.add("sm", true, 32, vec![]);
    l.tmaps.push(TensorMap {
        var: tv,
        data,
        elem: 4,
        dims: vec![8],
        boxdim: vec![4],
    });
    let code = kcode(
        l,
        &["cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group [t, {6}], [sm];"],
    );
    let mut t = Thread::new(code.clone(), Geom::single(Place::default()), &[], 4);
    let Step::Op(Op::Copy(c), _, _) = t.step() else {
        panic!()
    };
    assert_eq!(c.reduce.map(|r| r.op), Some(RmwOp::Add));
    assert_eq!(c.completion, Completion::BulkGroup);
    // Box of 4 at x = 6 over 8 elements: elements 6, 7 written, 8 and 9 outside (not written).
    let g = code.layout.addr_of(data);
    let dsts: Vec<Option<u64>> = c.moves.iter().map(|m| m.dst.map(|d| d.1 - g)).collect();
    assert_eq!(dsts, vec![Some(24), Some(28), None, None]);
}
