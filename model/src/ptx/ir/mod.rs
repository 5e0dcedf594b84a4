//! The instruction IR: one PTX instruction, parsed once, with every name resolved (registers to
//! numbers, labels to instruction indices, variables to [`Layout`](crate::engine::op::Layout)
//! addresses, kernel parameters to their bound values).
//!
//! Design: an instruction is a [`Line`] — an optional guard `@p`/`@!p` (PTX ISA §9.3), the
//! operation [`Inst`], and its source position [`At`]. `Inst` has one variant per *behaviour*
//! (not per spelling): `add.s32`, `add.u64` and the litmus `add` are all [`Inst::Bin`] with a
//! [`Ty`]; `membar.gl` is [`Inst::Fence`] `Sc`/`Gpu`. Operands are [`Opnd`]s (a register, an
//! immediate holding the raw bits, a special register); memory operands are [`Addr`]s whose base
//! is a register or a variable (whose address depends on the state space and, for shared memory,
//! the executing CTA). Everything the interpreter needs per step is here, precomputed: it never
//! looks at text.

use crate::ast::{BarKind, Cmp, FenceSem, Proxy, RmwOp, Scope, Sem};
use crate::engine::op::{At, Order, ProxyFence, Restrict, ShflMode, Space, VoteMode};

mod inst;
mod operand;
mod ops;

pub use inst::*;
pub use operand::*;
pub use ops::*;

/// A register number in the thread's register file (predicates included).
pub type Reg = u32;

/// The kind of a type (PTX ISA §5.2.1 fundamental types).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `.bN` (bit-size).
    B,
    /// `.uN`
    U,
    /// `.sN`
    S,
    /// `.fN` (`.f16`, `.f32`, `.f64`)
    F,
    /// `.bf16`
    Bf,
    /// `.pred`
    Pred,
}

/// An instruction or register type: kind and width in bits (1 for `.pred`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ty {
    /// The kind.
    pub kind: Kind,
    /// Width in bits: 1, 8, 16, 32, 64 (or 128 for `.b128`).
    pub bits: u8,
}

impl Ty {
    /// `.b8`
    pub const B8: Ty = Ty::new(Kind::B, 8);
    /// `.b16`
    pub const B16: Ty = Ty::new(Kind::B, 16);
    /// `.b32`
    pub const B32: Ty = Ty::new(Kind::B, 32);
    /// `.b64`
    pub const B64: Ty = Ty::new(Kind::B, 64);
    /// `.u32`
    pub const U32: Ty = Ty::new(Kind::U, 32);
    /// `.u64`
    pub const U64: Ty = Ty::new(Kind::U, 64);
    /// `.s32`
    pub const S32: Ty = Ty::new(Kind::S, 32);
    /// `.s64`
    pub const S64: Ty = Ty::new(Kind::S, 64);
    /// `.pred`
    pub const PRED: Ty = Ty::new(Kind::Pred, 1);

    /// A type.
    pub const fn new(kind: Kind, bits: u8) -> Ty {
        Ty { kind, bits }
    }

    /// Signed integer.
    pub fn signed(self) -> bool {
        self.kind == Kind::S
    }

    /// Floating point (`.f16/.bf16/.f32/.f64`).
    pub fn float(self) -> bool {
        matches!(self.kind, Kind::F | Kind::Bf)
    }

    /// The mask of the type's bits.
    pub fn mask(self) -> u64 {
        mask(self.bits as u32)
    }

    /// The type's spelling (`u32`), for messages.
    pub fn name(self) -> String {
        match self.kind {
            Kind::B => format!("b{}", self.bits),
            Kind::U => format!("u{}", self.bits),
            Kind::S => format!("s{}", self.bits),
            Kind::F => format!("f{}", self.bits),
            Kind::Bf => "bf16".into(),
            Kind::Pred => "pred".into(),
        }
    }
}

/// The low `bits` bits set (all 64 for 64 or more).
pub fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Sign-extends the low `bits` bits of `v` to 64.
pub fn sext(v: u64, bits: u32) -> u64 {
    if bits >= 64 || bits == 0 {
        v
    } else {
        let s = 64 - bits;
        (((v << s) as i64) >> s) as u64
    }
}

/// An instruction with its guard and source position.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// `@p` (`false`) / `@!p` (`true`).
    pub guard: Option<(Reg, bool)>,
    /// The operation.
    pub inst: Inst,
    /// Where it is.
    pub at: At,
}
