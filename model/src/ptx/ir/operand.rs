//! Operands: special registers ([`Sreg`]), immediates or registers ([`Opnd`]), addresses ([`Addr`]).

use super::*;

/// Special registers (PTX ISA chapter 10). Dimensions: 0 = `.x`, 1 = `.y`, 2 = `.z`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sreg {
    /// `%tid`
    Tid(u8),
    /// `%ntid`
    Ntid(u8),
    /// `%ctaid`
    Ctaid(u8),
    /// `%nctaid`
    Nctaid(u8),
    /// `%clusterid`
    Clusterid(u8),
    /// `%nclusterid`
    Nclusterid(u8),
    /// `%cluster_ctaid`
    ClusterCtaid(u8),
    /// `%cluster_nctaid`
    ClusterNctaid(u8),
    /// `%cluster_ctarank`
    ClusterCtarank,
    /// `%cluster_nctarank`
    ClusterNctarank,
    /// `%is_explicit_cluster`
    IsExplicitCluster,
    /// `%laneid`
    Laneid,
    /// `%warpid`
    Warpid,
    /// `%nwarpid`
    Nwarpid,
    /// `%smid` (0: the model has one SM per CTA and names none)
    Smid,
    /// `%nsmid`
    Nsmid,
    /// `%gridid` (0)
    Gridid,
    /// `%lanemask_eq`
    LanemaskEq,
    /// `%lanemask_le`
    LanemaskLe,
    /// `%lanemask_lt`
    LanemaskLt,
    /// `%lanemask_ge`
    LanemaskGe,
    /// `%lanemask_gt`
    LanemaskGt,
    /// `%dynamic_smem_size`
    DynSmem,
    /// `%total_smem_size`
    TotalSmem,
    /// `WARP_SZ` (32)
    WarpSz,
    /// `%clock` (a time: read through the engine)
    Clock,
    /// `%clock64`
    Clock64,
    /// `%globaltimer`
    Globaltimer,
    /// `%globaltimer_lo`
    GlobaltimerLo,
    /// `%globaltimer_hi`
    GlobaltimerHi,
}

impl Sreg {
    /// Whether reading it is an [`Op::Clock`](crate::engine::op::Op::Clock).
    pub fn is_clock(self) -> bool {
        matches!(
            self,
            Sreg::Clock
                | Sreg::Clock64
                | Sreg::Globaltimer
                | Sreg::GlobaltimerLo
                | Sreg::GlobaltimerHi
        )
    }
}

/// A source operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opnd {
    /// A register.
    Reg(Reg),
    /// `!p`: the negation of a predicate register.
    Not(Reg),
    /// An immediate: raw bits (integer literals sign-extended to 64, float literals as the
    /// instruction type's IEEE bits, variable names as their address).
    Imm(u64),
    /// A special register (not a clock: clocks are [`Inst::Clock`]).
    Sreg(Sreg),
    /// `generic(var)`: the generic address of a shared variable at this `.shared::cta` address
    /// (depends on the executing CTA).
    GenericOf(u64),
}

/// What names a memory operand's base.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// A register's value.
    Reg(Reg),
    /// An absolute address (a literal).
    Abs(u64),
    /// A variable of the layout: `[x]`, `[x@K]`. Its address depends on the instruction's state
    /// space (global variables: their global address everywhere; shared variables:
    /// `.shared::cta` address, `.shared::cluster` address of rank `rank` (default: the executing
    /// CTA), or generic address).
    Var {
        /// Index in the layout.
        var: u32,
        /// A shared variable.
        shared: bool,
        /// Its address (`Layout::addr_of`).
        addr: u64,
        /// `@K`: the copy of the CTA of rank K in the executing thread's cluster.
        rank: Option<u32>,
    },
}

/// A memory operand `[base+off]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Addr {
    /// The base.
    pub base: Base,
    /// Byte offset (may be negative: `[%rd1+-28]`).
    pub off: i64,
}
