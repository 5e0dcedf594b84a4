//! The interpreter's tests: integer and float arithmetic, conversions, predicates.

use super::*;

// ---------------------------------------------------------------- integer arithmetic (§9.7.1)

#[test]
fn add_sub_wrap_at_the_type_width() {
    // add.u32: 0xffffffff + 1 wraps to 0 in 32 bits; sub.s64 0 - 1 = all ones.
    let v = eval(
        &[
            "mov.b32 %r1, 4294967295;",
            "add.u32 %r2, %r1, 1;",
            "mov.b64 %rd1, 0;",
            "sub.s64 %rd2, %rd1, 1;",
            "add.sat.s32 %r3, 2147483647, 1;",
            "sub.sat.s32 %r4, -2147483648, 1;",
        ],
        &["%r2", "%rd2", "%r3", "%r4"],
    );
    // .sat (PTX ISA add): "limits the result to MININT..MAXINT" for .s32.
    assert_eq!(v, vec![0, u64::MAX, 0x7fff_ffff, 0x8000_0000]);
}

#[test]
fn mul_lo_hi_wide_and_mad() {
    // 0xffffffff * 0xffffffff = 0xfffffffe_00000001: .lo = 1, .hi = 0xfffffffe (PTX ISA mul).
    // mul.wide.s32 -2 * 3 = -6 as a 64-bit value; mad.lo.s32 7*6 + -2 = 40;
    // mad.hi.u32 0x80000000 * 4 + 1: (0x2_0000_0000 >> 32) + 1 = 3; mad.wide.u32 0xffffffff*2 + 1.
    let v = eval(
        &[
            "mul.lo.u32 %r1, 4294967295, 4294967295;",
            "mul.hi.u32 %r2, 4294967295, 4294967295;",
            "mul.wide.s32 %rd1, -2, 3;",
            "mad.lo.s32 %r3, 7, 6, -2;",
            "mad.hi.u32 %r4, 2147483648, 4, 1;",
            "mad.wide.u32 %rd2, 4294967295, 2, 1;",
            "mul.hi.s32 %r5, -2, 1073741824;",
        ],
        &["%r1", "%r2", "%rd1", "%r3", "%r4", "%rd2", "%r5"],
    );
    // mul.hi.s32 -2 * 2^30 = -2^31 = 0xffffffff_80000000: high half 0xffffffff.
    assert_eq!(
        v,
        vec![
            1,
            0xffff_fffe,
            (-6i64) as u64,
            40,
            3,
            0x1_ffff_ffff,
            0xffff_ffff
        ]
    );
}

#[test]
fn div_rem_truncate_toward_zero_and_division_by_zero_is_unsupported() {
    // PTX ISA div/rem: signed division truncates toward zero: -7/2 = -3, -7 rem 2 = -1.
    let v = eval(
        &[
            "div.s32 %r1, -7, 2;",
            "rem.s32 %r2, -7, 2;",
            "div.u32 %r3, 4294967289, 2;",
        ],
        &["%r1", "%r2", "%r3"],
    );
    assert_eq!(v, vec![0xffff_fffd, 0xffff_ffff, 0x7fff_fffc]);
    let (mut t, mut m) = kthread(&["mov.b32 %r1, 0;", "div.u32 %r2, 5, %r1;"]);
    let s = run(&mut t, &mut m);
    assert!(
        matches!(s.last(), Some(Step::Unsupported(w, at)) if w.contains("division by zero") && at.line == 2),
        "{s:?}"
    );
}

#[test]
fn shifts_clamp_and_shr_is_arithmetic_for_signed_types() {
    // PTX ISA shl/shr: "Shift amounts greater than the register width N are clamped to N";
    // shr.s fills with the sign bit.
    let v = eval(
        &[
            "shl.b32 %r1, 1, 32;",
            "shl.b32 %r2, 3, 4;",
            "shr.s32 %r3, -8, 1;",
            "shr.u32 %r4, 2147483648, 31;",
            "shr.s32 %r5, -1, 40;",
            "shr.b64 %rd1, -1, 63;",
        ],
        &["%r1", "%r2", "%r3", "%r4", "%r5", "%rd1"],
    );
    assert_eq!(v, vec![0, 48, 0xffff_fffc, 1, 0xffff_ffff, 1]);
}

#[test]
fn bit_instructions_follow_the_isa_pseudocode() {
    // bfe.u32 0x12345678, pos 8, len 8 = 0x56; bfe.s32 0xf000, pos 12, len 4: field 0xf, sign
    // bit a[15] = 1, so every bit is 1 (PTX ISA bfe semantics).
    // bfi.b32 a=0xab into b=0xffff0000 at pos 4, len 8 = 0xffff0ab0.
    // popc 0xf0f0 = 8; clz 1 = 31; brev 1 = 0x80000000; bfind.u32 0x10 = 4, .shiftamt = 31-4;
    // bfind.u32 0 = 0xffffffff; bfind.s32 -1: ~a = 0 → 0xffffffff.
    let v = eval(
        &[
            "bfe.u32 %r1, 305419896, 8, 8;",
            "bfe.s32 %r2, 61440, 12, 4;",
            "bfi.b32 %r3, 171, 4294901760, 4, 8;",
            "popc.b32 %r4, 61680;",
            "clz.b32 %r5, 1;",
            "brev.b32 %r6, 1;",
            "bfind.u32 %r7, 16;",
            "bfind.shiftamt.u32 %r8, 16;",
            "bfind.u32 %r9, 0;",
            "bfind.s32 %r10, -1;",
            "cnot.b32 %r11, 0;",
            "not.b32 %r12, 0;",
            "popc.b64 %r13, -1;",
        ],
        &[
            "%r1", "%r2", "%r3", "%r4", "%r5", "%r6", "%r7", "%r8", "%r9", "%r10", "%r11", "%r12",
            "%r13",
        ],
    );
    assert_eq!(
        v,
        vec![
            0x56,
            0xffff_ffff,
            0xffff_0ab0,
            8,
            31,
            0x8000_0000,
            4,
            27,
            0xffff_ffff,
            0xffff_ffff,
            1,
            0xffff_ffff,
            64
        ]
    );
}

#[test]
fn prmt_selects_bytes_as_the_isa_table_says() {
    // {b, a} = {0x77665544, 0x33221100}: bytes 0..7 = 00 11 22 33 44 55 66 77.
    // Default mode, c = 0x5410: d.b0 = byte 0, d.b1 = byte 1, d.b2 = byte 4, d.b3 = byte 5.
    // c = 0x4448 with a = 0x80: d.b0: ctl 8 = sign of byte 0 (0x80) replicated → 0xff;
    // d.b1..b3: ctl 4 = byte 4 = b's low byte = 0.
    // f4e with c=1: bytes 1,2,3,4 → 0x44332211. b4e with c=0: d.b0..b3 = 0,7,6,5 → 0x55667700.
    let v = eval(
        &[
            "prmt.b32 %r1, 857870592, 2003195204, 21520;",
            "prmt.b32 %r2, 128, 0, 17480;",
            "prmt.b32.f4e %r3, 857870592, 2003195204, 1;",
            "prmt.b32.b4e %r4, 857870592, 2003195204, 0;",
        ],
        &["%r1", "%r2", "%r3", "%r4"],
    );
    assert_eq!(v, vec![0x5544_1100, 0xff, 0x4433_2211, 0x5566_7700]);
}

#[test]
fn cvt_extends_chops_saturates_and_rounds() {
    // PTX ISA cvt: s32 → s64 sign-extends; u32 → u64 zero-extends; u64 → u32 chops;
    // .sat clamps to the destination range; float → int rounds (.rzi toward zero, .rni to
    // nearest even, .rmi down) and saturates, NaN → 0; s32 → f32 .rn rounds to nearest even.
    let v = eval(
        &[
            "mov.b32 %r1, -1;",
            "cvt.s64.s32 %rd1, %r1;",
            "cvt.u64.u32 %rd2, %r1;",
            "cvt.u32.u64 %r2, 81985529216486895;",
            "cvt.sat.u8.s32 %r3, -5;",
            "cvt.sat.u8.s32 %r4, 300;",
            "cvt.rn.f32.s32 %f1, 16777217;",
            "cvt.rzi.s32.f32 %r5, 0fC02CCCCD;",
            "cvt.rni.s32.f32 %r6, 0f40200000;",
            "cvt.rni.s32.f32 %r7, 0f40600000;",
            "cvt.rmi.s32.f32 %r8, 0fC02CCCCD;",
            "cvt.rzi.s32.f32 %r9, 0f7FC00000;",
            "cvt.rzi.s32.f32 %r10, 0f4F32D05E;",
            "cvt.f64.f32 %fd1, 0f3F800000;",
            "cvt.s32.s8 %r11, 128;",
        ],
        &[
            "%rd1", "%rd2", "%r2", "%r3", "%r4", "%f1", "%r5", "%r6", "%r7", "%r8", "%r9", "%r10",
            "%fd1", "%r11",
        ],
    );
    assert_eq!(
        v,
        vec![
            u64::MAX,
            0xffff_ffff,
            0x89ab_cdef,
            0,
            255,
            0x4b80_0000, // 16777216.0
            0xffff_fffe, // -2.7 → -2
            2,           // 2.5 → 2 (ties to even)
            4,           // 3.5 → 4
            0xffff_fffd, // floor(-2.7) = -3
            0,           // NaN → 0
            0x7fff_ffff, // 3e9 saturates
            0x3ff0_0000_0000_0000,
            0xffff_ff80, // s8 0x80 = -128, sign-extended
        ]
    );
}

#[test]
fn floats_compute_as_ieee() {
    // 1.5 + 2.25 = 3.75 (0x40700000); 1/3 rounded to nearest = 0x3eaaaaab; fma(2, 3, 1) = 7;
    // min(NaN, 1) = 1 and min(-0, +0) = -0 (PTX ISA min: "-0.0 < +0.0"); max(-0, +0) = +0;
    // 0.5 * 4 = 2.0 in f64; sqrt.rn(2.25) = 1.5; neg 1.0 = -1.0; .sat clamps 3.75 to 1.0.
    let v = eval(
        &[
            "add.f32 %f1, 0f3FC00000, 0f40100000;",
            "div.rn.f32 %f2, 0f3F800000, 0f40400000;",
            "fma.rn.f32 %f3, 0f40000000, 0f40400000, 0f3F800000;",
            "min.f32 %f4, 0f7FC00000, 0f3F800000;",
            "min.f32 %f5, 0f80000000, 0f00000000;",
            "max.f32 %f6, 0f80000000, 0f00000000;",
            "mul.f64 %fd1, 0d3FE0000000000000, 0d4010000000000000;",
            "sqrt.rn.f32 %f7, 0f40100000;",
            "neg.f32 %f8, 0f3F800000;",
            "add.sat.f32 %f9, 0f3FC00000, 0f40100000;",
            "setp.lt.f32 %p1, 0f7FC00000, 0f3F800000;",
            "setp.ltu.f32 %p2, 0f7FC00000, 0f3F800000;",
        ],
        &[
            "%f1", "%f2", "%f3", "%f4", "%f5", "%f6", "%fd1", "%f7", "%f8", "%f9", "%p1", "%p2",
        ],
    );
    assert_eq!(
        v,
        vec![
            0x4070_0000,
            0x3eaa_aaab,
            0x40e0_0000,
            0x3f80_0000,
            0x8000_0000,
            0x0000_0000,
            0x4000_0000_0000_0000,
            0x3fc0_0000,
            0xbf80_0000,
            0x3f80_0000,
            0, // ordered comparison with NaN is false (§9.3.1.2)
            1, // unordered: true
        ]
    );
}

#[test]
fn setp_selp_slct_and_predicate_logic() {
    // setp.lt.s32 -1 < 0 true; setp.lt.u32 0xffffffff < 0 false; setp.hi.u32 5 > 3 true;
    // setp.ne.and.s32 p|q, 1, 2, c=false: p = (1!=2) & false = 0, q = !(1!=2) & false = 0;
    // setp.eq.or.b32 p|q, 1, 2, true: p = false | true = 1, q = true | true = 1.
    let v = eval(
        &[
            "setp.lt.s32 %p1, -1, 0;",
            "setp.lt.u32 %p2, -1, 0;",
            "setp.hi.u32 %p3, 5, 3;",
            "setp.ne.b32 %p10, 1, 1;",
            "setp.ne.and.s32 %p4|%p5, 1, 2, %p10;",
            "setp.eq.or.b32 %p6|%p7, 1, 2, !%p10;",
            "selp.b32 %r1, 10, 20, %p1;",
            "selp.b32 %r2, 10, 20, %p2;",
            "slct.u32.s32 %r3, 1, 2, -1;",
            "slct.u32.s32 %r4, 1, 2, 0;",
            "and.pred %p8, %p1, %p3;",
            "xor.pred %p9, %p1, %p3;",
            "not.pred %p11, %p9;",
            "or.pred %p12, %p2, %p9;",
        ],
        &[
            "%p1", "%p2", "%p3", "%p4", "%p5", "%p6", "%p7", "%r1", "%r2", "%r3", "%r4", "%p8",
            "%p9", "%p11", "%p12",
        ],
    );
    assert_eq!(v, vec![1, 0, 1, 0, 0, 1, 1, 10, 20, 2, 1, 1, 0, 1, 0]);
}

#[test]
fn registers_hold_the_destination_width_with_sign_or_zero_extension() {
    // PTX ISA §9.4.1: a destination wider than the type is sign-extended for signed types and
    // zero-extended otherwise. ld.s8 of 0xff into a 32-bit register → 0xffffffff; ld.u8 → 0xff;
    // a litmus register (64 bits) loaded with ld.s16 of 0x8000 → sign-extended to 64 bits.
    let mut l = layout_xs();
    l.vars[0].init = vec![0xff, 0x00, 0x80, 0, 0, 0, 0, 0];
    let code = kcode(
        l,
        &[
            "ld.s8 %r1, [x];",
            "ld.u8 %r2, [x];",
            "ld.global.s16 %rd1, [x+1];",
        ],
    );
    let mut m = Mem::new(code.layout.clone());
    let mut t = Thread::new(code, Geom::single(Place::default()), &[], 4);
    run(&mut t, &mut m);
    assert_eq!(
        (reg(&t, "%r1"), reg(&t, "%r2"), reg(&t, "%rd1")),
        (0xffff_ffff, 0xff, 0xffff_ffff_ffff_8000)
    );
}
