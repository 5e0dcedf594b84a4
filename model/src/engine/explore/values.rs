//! The values atomics write and a few lane computations.

use super::*;

/// PTX ISA §8.7.2 "Atomicity of mixed-size RMW operations": "for every pair of overlapping
/// atomic operations A1 and A2 such that each specifies a scope that includes the other: Either
/// the read-modify-write operation specified by A1 is performed completely before A2 is
/// initiated, or vice versa … irrespective of whether the two operations A1 and A2 overlap
/// partially or completely."
pub(super) fn mixed_atomics(a: &Event, b: &Event) -> bool {
    let (Some(ma), Some(mb)) = (a.mem(), b.mem()) else {
        return false;
    };
    let rmw = |m: &Mem| m.atomic && m.read && m.write;
    let scopes = match (ma.order.scope, mb.order.scope) {
        (Some(x), Some(y)) => {
            crate::engine::graph::includes(x, &a.place, &b.place)
                && crate::engine::graph::includes(y, &b.place, &a.place)
        }
        _ => false,
    };
    rmw(ma)
        && rmw(mb)
        && ma.overlaps(mb)
        && ma.proxy == mb.proxy
        && (scopes || a.thread == b.thread)
}

/// The lane a `shfl.sync` reads from (PTX ISA §9.7.9.6): its own when out of range.
pub(super) fn shfl_source(mode: crate::engine::op::ShflMode, lane: u32, b: u32, c: u32) -> u32 {
    use crate::engine::op::ShflMode;
    let bval = b & 0x1f;
    let cval = c & 0x1f;
    let segmask = (c >> 8) & 0x1f;
    let max_lane = (lane & segmask) | (cval & !segmask);
    let min_lane = lane & segmask;
    let (j, ok) = match mode {
        ShflMode::Up => (
            lane.wrapping_sub(bval),
            lane as i64 - bval as i64 >= max_lane as i64,
        ),
        ShflMode::Down => (lane + bval, lane + bval <= max_lane),
        ShflMode::Bfly => (lane ^ bval, (lane ^ bval) <= max_lane),
        ShflMode::Idx => {
            let j = min_lane | (bval & !segmask);
            (j, j <= max_lane)
        }
    };
    if ok {
        j
    } else {
        lane
    }
}

pub(super) fn mask(size: u8) -> u64 {
    if size >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * size as u32)) - 1
    }
}

/// The value an RMW writes (PTX ISA §9.7.13.5 `atom`), at the access's width; `None` for a
/// half-precision float operation (not modelled).
pub fn rmw_value(r: crate::engine::op::Rmw, old: u64, size: u8) -> Option<u64> {
    use crate::engine::op::Float;
    if let Some(f) = r.float {
        // The same operations at both widths (`f32`/`f64` from and to their bits).
        macro_rules! float_rmw {
            ($t:ty, $x:expr, $y:expr) => {{
                let (x, y): ($t, $t) = ($x, $y);
                match r.op {
                    RmwOp::Add => Some(x + y),
                    RmwOp::Min => Some(x.min(y)),
                    RmwOp::Max => Some(x.max(y)),
                    RmwOp::Exch => Some(y),
                    _ => None,
                }
            }};
        }
        return match f {
            Float::F32 => float_rmw!(f32, f32::from_bits(old as u32), f32::from_bits(r.a as u32))
                .map(|z| z.to_bits() as u64),
            Float::F64 => {
                float_rmw!(f64, f64::from_bits(old), f64::from_bits(r.a)).map(f64::to_bits)
            }
            _ => None,
        };
    }
    Some(int_rmw(r, old, size))
}

pub(super) fn int_rmw(r: crate::engine::op::Rmw, old: u64, size: u8) -> u64 {
    let bits = 8 * size as u32;
    let sx = |v: u64| -> i64 {
        if bits >= 64 {
            v as i64
        } else {
            ((v << (64 - bits)) as i64) >> (64 - bits)
        }
    };
    let m = mask(size);
    let (old, a, b) = (old & m, r.a & m, r.b & m);
    match r.op {
        RmwOp::Add => old.wrapping_add(a),
        RmwOp::Sub => old.wrapping_sub(a),
        RmwOp::Inc => {
            if old >= a {
                0
            } else {
                old + 1
            }
        }
        RmwOp::Dec => {
            if old == 0 || old > a {
                a
            } else {
                old - 1
            }
        }
        RmwOp::And => old & a,
        RmwOp::Or => old | a,
        RmwOp::Xor => old ^ a,
        RmwOp::Min => {
            if r.signed {
                if sx(old) <= sx(a) {
                    old
                } else {
                    a
                }
            } else {
                old.min(a)
            }
        }
        RmwOp::Max => {
            if r.signed {
                if sx(old) >= sx(a) {
                    old
                } else {
                    a
                }
            } else {
                old.max(a)
            }
        }
        RmwOp::Exch => a,
        RmwOp::Cas => {
            if old == a {
                b
            } else {
                old
            }
        }
    }
}
