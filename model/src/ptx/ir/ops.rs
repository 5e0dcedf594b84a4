//! The operations and modes an instruction carries: arithmetic, comparison, rounding, permute, and
//! the mbarrier, warp and bulk-copy sub-operations.

use super::*;

/// Unary integer, bit and float operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `abs`
    Abs,
    /// `neg`
    Neg,
    /// `not` (bitwise; logical for `.pred`)
    Not,
    /// `cnot`: `a == 0 ? 1 : 0`
    Cnot,
    /// `popc` (result `.u32`)
    Popc,
    /// `clz` (result `.u32`)
    Clz,
    /// `brev`
    Brev,
    /// `bfind` (result `.u32`; `shiftamt`: the left-shift amount instead)
    Bfind {
        /// `.shiftamt`
        shiftamt: bool,
    },
    /// Float `sqrt.rn`
    Sqrt,
}

/// Binary operations. The type decides signedness and width; float types compute in IEEE on
/// the host (round to nearest even).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `add` (`sat`: `.sat`, `.s32` only)
    Add {
        /// `.sat`
        sat: bool,
    },
    /// `sub`
    Sub {
        /// `.sat`
        sat: bool,
    },
    /// `mul.lo` (and float `mul`)
    MulLo,
    /// `mul.hi`
    MulHi,
    /// `mul.wide` (the result has twice the type's width)
    MulWide,
    /// `div` (integer division by zero: `Step::Unsupported`, the ISA leaves it unspecified;
    /// `zero_ok`: the litmus `div`, where it yields 0)
    Div {
        /// The litmus dialect's `div` (division by zero yields 0, FORMAT part 1).
        zero_ok: bool,
    },
    /// `rem`
    Rem,
    /// `min`
    Min,
    /// `max`
    Max,
    /// `and`
    And,
    /// `or`
    Or,
    /// `xor`
    Xor,
    /// `shl`
    Shl,
    /// `shr` (arithmetic for signed types)
    Shr,
    /// `copysign` (float)
    Copysign,
}

/// Float modifiers (PTX ISA §9.7.3): `.ftz` flushes `.f32` subnormal inputs and results to
/// sign-preserving zero; `.sat` clamps the result to [0.0, 1.0] (NaN → +0.0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FMod {
    /// `.ftz`
    pub ftz: bool,
    /// `.sat`
    pub sat: bool,
}

/// `mad`/`fma` flavours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MadMode {
    /// `mad.lo`
    Lo,
    /// `mad.hi`
    Hi,
    /// `mad.wide`
    Wide,
    /// `fma.rn` / float `mad.rn`
    Fma,
}

/// Float rounding / float-to-int rounding of `cvt` (PTX ISA §9.7.9.21).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rnd {
    /// None given.
    None,
    /// `.rn` (to nearest even)
    Rn,
    /// `.rz`
    Rz,
    /// `.rm`
    Rm,
    /// `.rp`
    Rp,
    /// `.rni` (integer rounding, nearest even)
    Rni,
    /// `.rzi`
    Rzi,
    /// `.rmi`
    Rmi,
    /// `.rpi`
    Rpi,
}

/// The boolean combiner of `setp.Cmp.BoolOp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoolOp {
    /// `.and`
    And,
    /// `.or`
    Or,
    /// `.xor`
    Xor,
}

/// `prmt` modes (PTX ISA §9.7.9.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrmtMode {
    /// Default: four 4-bit byte selectors (msb of each: sign replicate).
    Default,
    /// `.f4e` forward 4 extract
    F4e,
    /// `.b4e` backward 4 extract
    B4e,
    /// `.rc8` replicate 8
    Rc8,
    /// `.ecl` edge clamp left
    Ecl,
    /// `.ecr` edge clamp right
    Ecr,
    /// `.rc16` replicate 16
    Rc16,
}

/// An mbarrier instruction's operation (PTX ISA §9.7.13.15).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MbarI {
    /// `mbarrier.init [a], count`
    Init(Opnd),
    /// `mbarrier.inval [a]`
    Inval,
    /// `mbarrier.arrive{.expect_tx}{.noComplete}` / `arrive_drop`
    Arrive {
        /// Arrival count (`None`: 1).
        count: Option<Opnd>,
        /// `.expect_tx`'s txCount.
        tx: Option<Opnd>,
        /// `.noComplete`
        no_complete: bool,
        /// `arrive_drop`
        drop: bool,
    },
    /// `mbarrier.expect_tx [a], txCount`
    ExpectTx(Opnd),
    /// `mbarrier.complete_tx [a], txCount`
    CompleteTx(Opnd),
    /// `test_wait`/`try_wait{.parity}`
    Wait {
        /// `.parity`
        parity: bool,
        /// `try_wait`
        try_wait: bool,
        /// The state token or the parity.
        v: Opnd,
    },
}

/// Warp-level collectives (PTX ISA §9.7.13.2–11, §9.7.9.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarpI {
    /// `bar.warp.sync mask`
    Sync,
    /// `activemask.b32 d`
    ActiveMask,
    /// `elect.sync d|p, mask`
    Elect {
        /// The predicate destination.
        p: Option<Reg>,
    },
    /// `vote.sync.mode d, {!}a, mask`
    Vote(VoteMode, Opnd),
    /// `shfl.sync.mode.b32 d{|p}, a, b, c, mask`
    Shfl {
        /// Mode.
        mode: ShflMode,
        /// Value.
        a: Opnd,
        /// Lane or offset.
        b: Opnd,
        /// Clamp and segment mask.
        c: Opnd,
        /// The in-range predicate destination.
        p: Option<Reg>,
    },
}

/// The completion/direction of a bulk copy (PTX ISA §9.7.9.25.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BulkDir {
    /// Destination space.
    pub dst: Space,
    /// Source space.
    pub src: Space,
}
