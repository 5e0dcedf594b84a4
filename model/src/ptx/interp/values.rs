//! Values: the bit-level arithmetic the instructions need — floats in and out of registers,
//! comparisons, `prmt`, bit fields, `mul.hi`, `cvt`, `shfl` lanes, an async copy's pieces.

use super::*;

pub(super) fn val_of(r: Reply) -> u64 {
    match r {
        Reply::None => 0,
        Reply::Value(v) => v,
        Reply::Pred(b) => b as u64,
        Reply::Elect(b, _) => b as u64,
    }
}

pub(super) fn f32_of(v: u64, ftz: bool) -> f32 {
    let x = f32::from_bits(v as u32);
    if ftz && x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

pub(super) fn f32_out(x: f32, fm: FMod) -> u64 {
    let mut x = x;
    if fm.sat {
        x = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    }
    if fm.ftz && x.is_subnormal() {
        x = 0.0f32.copysign(x);
    }
    x.to_bits() as u64
}

pub(super) fn f64_out(x: f64, fm: FMod) -> u64 {
    let x = if fm.sat {
        if x.is_nan() {
            0.0
        } else {
            x.clamp(0.0, 1.0)
        }
    } else {
        x
    };
    x.to_bits()
}

/// PTX `min`/`max` on floats (PTX ISA §9.7.3.11-12): a NaN operand yields the other; -0.0 < +0.0.
pub(super) fn fminmax<T: PartialOrd + std::marker::Copy>(
    a: T,
    b: T,
    an: bool,
    bn: bool,
    a_neg: bool,
    min: bool,
) -> T {
    if an {
        return b;
    }
    if bn {
        return a;
    }
    if a < b {
        return if min { a } else { b };
    }
    if b < a {
        return if min { b } else { a };
    }
    // Equal (also +0.0 and -0.0): min takes the negative zero, max the positive.
    if min == a_neg {
        a
    } else {
        b
    }
}

/// What the interpreter asks of `f32` and `f64` alike, so that one function spells each float
/// operation for both widths.
pub(super) trait IeeeFloat:
    std::marker::Copy
    + PartialOrd
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
{
    fn is_nan(self) -> bool;
    fn is_sign_negative(self) -> bool;
    fn copysign(self, sign: Self) -> Self;
}

macro_rules! float {
    ($($t:ty)*) => {$(
        impl IeeeFloat for $t {
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            fn is_sign_negative(self) -> bool {
                <$t>::is_sign_negative(self)
            }
            fn copysign(self, sign: Self) -> Self {
                <$t>::copysign(self, sign)
            }
        }
    )*};
}
float!(f32 f64);

/// A two-operand float operation in the operands' own precision (PTX ISA §9.7.3 `add`, `sub`,
/// `mul`, `div`, `min`, `max`, `copysign`); `None` for an operation floats do not have.
pub(super) fn fbin<T: IeeeFloat>(op: BinOp, a: T, b: T) -> Option<T> {
    Some(match op {
        BinOp::Add { .. } => a + b,
        BinOp::Sub { .. } => a - b,
        BinOp::MulLo => a * b,
        BinOp::Div { .. } => a / b,
        BinOp::Min => fminmax(a, b, a.is_nan(), b.is_nan(), a.is_sign_negative(), true),
        BinOp::Max => fminmax(a, b, a.is_nan(), b.is_nan(), a.is_sign_negative(), false),
        BinOp::Copysign => b.copysign(a),
        _ => return None,
    })
}

/// `prmt` (PTX ISA §9.7.9.7).
pub fn prmt(mode: PrmtMode, a: u32, b: u32, c: u32) -> u32 {
    let src = ((b as u64) << 32) | a as u64;
    let byte = |i: u32| ((src >> (8 * (i & 7))) & 0xff) as u32;
    let sel: [u32; 4] = match mode {
        PrmtMode::Default => {
            let mut out = 0u32;
            for k in 0..4 {
                let ctl = (c >> (4 * k)) & 0xf;
                let mut v = byte(ctl & 7);
                if ctl & 8 != 0 {
                    v = if v & 0x80 != 0 { 0xff } else { 0 };
                }
                out |= v << (8 * k);
            }
            return out;
        }
        // Rows of the ISA's table: [b0, b1, b2, b3] sources for selector c[1:0].
        PrmtMode::F4e => {
            let s = c & 3;
            [s, s + 1, s + 2, s + 3]
        }
        PrmtMode::B4e => match c & 3 {
            0 => [0, 7, 6, 5],
            1 => [1, 0, 7, 6],
            2 => [2, 1, 0, 7],
            _ => [3, 2, 1, 0],
        },
        PrmtMode::Rc8 => [c & 3; 4],
        PrmtMode::Ecl => match c & 3 {
            0 => [0, 1, 2, 3],
            1 => [1, 1, 2, 3],
            2 => [2, 2, 2, 3],
            _ => [3, 3, 3, 3],
        },
        PrmtMode::Ecr => match c & 3 {
            0 => [0, 0, 0, 0],
            1 => [0, 1, 1, 1],
            2 => [0, 1, 2, 2],
            _ => [0, 1, 2, 3],
        },
        PrmtMode::Rc16 => match c & 3 {
            0 | 2 => [0, 1, 0, 1],
            _ => [2, 3, 2, 3],
        },
    };
    sel.iter()
        .enumerate()
        .fold(0, |acc, (k, &s)| acc | byte(s) << (8 * k))
}

/// `bfe` (PTX ISA §9.7.1.19).
pub fn bfe(a: u64, pos: u32, len: u32, bits: u32, signed: bool) -> u64 {
    let msb = bits - 1;
    let pos = pos & 0xff;
    let len = len & 0xff;
    let sbit = if !signed || len == 0 {
        0
    } else {
        (a >> (pos + len - 1).min(msb)) & 1
    };
    let mut d = 0u64;
    for i in 0..=msb {
        let bit = if i < len && pos + i <= msb {
            (a >> (pos + i)) & 1
        } else {
            sbit
        };
        d |= bit << i;
    }
    d
}

/// `bfi` (PTX ISA §9.7.1.20).
pub fn bfi(a: u64, b: u64, pos: u32, len: u32, bits: u32) -> u64 {
    let msb = bits - 1;
    let pos = pos & 0xff;
    let len = len & 0xff;
    let mut f = b;
    let mut i = 0;
    while i < len && pos + i <= msb {
        f = (f & !(1 << (pos + i))) | (((a >> i) & 1) << (pos + i));
        i += 1;
    }
    f
}

/// `bfind` (PTX ISA §9.7.1.18).
pub fn bfind(a: u64, bits: u32, signed: bool, shiftamt: bool) -> u64 {
    let msb = bits - 1;
    let mut a = a & mask(bits);
    if signed && (a >> msb) & 1 == 1 {
        a = !a & mask(bits);
    }
    if a == 0 {
        return 0xffff_ffff;
    }
    let d = 63 - a.leading_zeros();
    (if shiftamt { msb - d } else { d }) as u64
}

pub(super) fn float_of(ty: Ty) -> Option<Float> {
    match (ty.kind, ty.bits) {
        (Kind::F, 16) => Some(Float::F16),
        (Kind::Bf, _) => Some(Float::Bf16),
        (Kind::F, 32) => Some(Float::F32),
        (Kind::F, 64) => Some(Float::F64),
        _ => None,
    }
}

pub(super) fn mul_hi(x: u64, y: u64, bits: u32, signed: bool) -> u64 {
    if signed {
        let p = (sext(x, bits) as i64 as i128) * (sext(y, bits) as i64 as i128);
        (p >> bits) as u64
    } else {
        let p = (x as u128) * (y as u128);
        (p >> bits) as u64
    }
}

/// `cvt` (PTX ISA §9.7.9.21): integer conversions wrap (or saturate with `.sat`); float to
/// integer rounds as asked and saturates, NaN → 0; integer to float and `f64 → f32` round to
/// nearest even (`.rn`).
pub fn cvt(a: u64, dty: Ty, sty: Ty, rnd: Rnd, sat: bool, ftz: bool) -> u64 {
    let (dbits, sbits) = (dty.bits as u32, sty.bits as u32);
    let ival = |a: u64| -> i128 {
        if sty.signed() {
            sext(a, sbits) as i64 as i128
        } else {
            (a & mask(sbits)) as i128
        }
    };
    let (lo, hi): (i128, i128) = if dty.signed() {
        (-(1i128 << (dbits - 1)), (1i128 << (dbits - 1)) - 1)
    } else {
        (0, (1i128 << dbits) - 1)
    };
    let fin = |x: f64| -> f64 {
        match rnd {
            Rnd::Rni => x.round_ties_even(),
            Rnd::Rmi => x.floor(),
            Rnd::Rpi => x.ceil(),
            _ => x.trunc(),
        }
    };
    match (sty.float(), dty.float()) {
        (false, false) => {
            let v = ival(a);
            if sat {
                v.clamp(lo, hi) as u64
            } else {
                v as u64 & mask(dbits)
            }
        }
        (false, true) => {
            let v = ival(a);
            if dbits == 32 {
                let f = if sty.signed() {
                    v as i64 as f32
                } else {
                    v as u64 as f32
                };
                f32_out(f, FMod { ftz, sat })
            } else {
                let f = if sty.signed() {
                    v as i64 as f64
                } else {
                    v as u64 as f64
                };
                f64_out(f, FMod { ftz, sat })
            }
        }
        (true, false) => {
            let x = if sbits == 32 {
                f32_of(a, ftz) as f64
            } else {
                f64::from_bits(a)
            };
            if x.is_nan() {
                return 0;
            }
            let r = fin(x);
            let v = if r <= lo as f64 {
                lo
            } else if r >= hi as f64 {
                hi
            } else {
                r as i128
            };
            v as u64 & mask(dbits)
        }
        (true, true) => {
            let fm = FMod { ftz, sat };
            match (sbits, dbits) {
                (32, 64) => f64_out(f32_of(a, ftz) as f64, fm),
                (64, 32) => f32_out(f64::from_bits(a) as f32, fm),
                (32, 32) => f32_out(f32_of(a, ftz), fm),
                _ => f64_out(f64::from_bits(a), fm),
            }
        }
    }
}

/// `shfl.sync`'s in-range predicate for this lane (PTX ISA §9.7.9.6, "pval").
pub fn shfl_in_range(mode: ShflMode, lane: u32, b: u32, c: u32) -> bool {
    let bval = b & 0x1f;
    let cval = c & 0x1f;
    let segmask = (c >> 8) & 0x1f;
    let max_lane = (lane & segmask) | (cval & !segmask);
    let min_lane = lane & segmask;
    match mode {
        ShflMode::Up => lane as i64 - bval as i64 >= max_lane as i64,
        ShflMode::Down => lane + bval <= max_lane,
        ShflMode::Bfly => (lane ^ bval) <= max_lane,
        ShflMode::Idx => (min_lane | (bval & !segmask)) <= max_lane,
    }
}

/// Splits `n` bytes into 4-byte pieces (the tail in single bytes), calling `f(offset, size)`.
/// Decision: asynchronous copies move 4-byte words (the ISA leaves the granularity open).
pub(super) fn pieces(n: u64, mut f: impl FnMut(u64, u8)) {
    let mut off = 0;
    while off + 4 <= n {
        f(off, 4);
        off += 4;
    }
    while off < n {
        f(off, 1);
        off += 1;
    }
}
