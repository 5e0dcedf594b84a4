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

/// Comparison operators of `setp`/`set` (PTX ISA §9.3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    /// `eq`
    Eq,
    /// `ne`
    Ne,
    /// `lt`
    Lt,
    /// `le`
    Le,
    /// `gt`
    Gt,
    /// `ge`
    Ge,
    /// `lo` (unsigned <)
    Lo,
    /// `ls` (unsigned <=)
    Ls,
    /// `hi` (unsigned >)
    Hi,
    /// `hs` (unsigned >=)
    Hs,
    /// `equ` (float, unordered)
    Equ,
    /// `neu`
    Neu,
    /// `ltu`
    Ltu,
    /// `leu`
    Leu,
    /// `gtu`
    Gtu,
    /// `geu`
    Geu,
    /// `num` (neither is NaN)
    Num,
    /// `nan` (either is NaN)
    Nan,
}

/// The boolean combiner of `setp.CmpOp.BoolOp`.
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

/// One operation.
#[derive(Clone, Debug, PartialEq)]
pub enum Inst {
    /// No effect (a label line, `nanosleep`, hints).
    Nop,
    /// Parsed but not modelled: `Step::Unsupported(what)` when reached.
    Unsupported(String),
    /// `mov.type d, a`
    Mov {
        /// Type.
        ty: Ty,
        /// Destination.
        d: Reg,
        /// Source.
        a: Opnd,
    },
    /// `mov.bN d, {a, b, …}`: packs elements of `bits` bits, first element lowest.
    Pack {
        /// Element width.
        bits: u8,
        /// Destination.
        d: Reg,
        /// Elements.
        parts: Vec<Opnd>,
    },
    /// `mov.bN {a, b, …}, s`: unpacks (a sink `_` is `None`).
    Unpack {
        /// Element width.
        bits: u8,
        /// Destinations, lowest first.
        ds: Vec<Option<Reg>>,
        /// Source.
        a: Opnd,
    },
    /// A special register that is a time (`%globaltimer`, `%clock`, `%clock64`): `Op::Clock`.
    Clock {
        /// Destination.
        d: Reg,
        /// Which.
        which: Sreg,
    },
    /// Unary operation.
    Un {
        /// Float modifiers.
        fm: FMod,
        /// Operation.
        op: UnOp,
        /// Type.
        ty: Ty,
        /// Destination.
        d: Reg,
        /// Source.
        a: Opnd,
    },
    /// Binary operation.
    Bin {
        /// Float modifiers.
        fm: FMod,
        /// Operation.
        op: BinOp,
        /// Type.
        ty: Ty,
        /// Destination.
        d: Reg,
        /// Sources.
        a: Opnd,
        /// Sources.
        b: Opnd,
    },
    /// `mad`/`fma`: `a * b + c`.
    Mad {
        /// Float modifiers.
        fm: FMod,
        /// Flavour.
        mode: MadMode,
        /// Type (of `a`, `b`).
        ty: Ty,
        /// Destination.
        d: Reg,
        /// Sources.
        a: Opnd,
        /// Sources.
        b: Opnd,
        /// Sources.
        c: Opnd,
    },
    /// `bfe.type d, a, pos, len`
    Bfe {
        /// Type.
        ty: Ty,
        /// Destination.
        d: Reg,
        /// Source.
        a: Opnd,
        /// Position.
        pos: Opnd,
        /// Length.
        len: Opnd,
    },
    /// `bfi.type f, a, b, pos, len`
    Bfi {
        /// Type.
        ty: Ty,
        /// Destination.
        d: Reg,
        /// Inserted field.
        a: Opnd,
        /// Base.
        b: Opnd,
        /// Position.
        pos: Opnd,
        /// Length.
        len: Opnd,
    },
    /// `prmt.b32{.mode} d, a, b, c`
    Prmt {
        /// Mode.
        mode: PrmtMode,
        /// Destination.
        d: Reg,
        /// Sources.
        a: Opnd,
        /// Sources.
        b: Opnd,
        /// Selector.
        c: Opnd,
    },
    /// `cvt{.rnd}{.sat}.dtype.stype d, a`
    Cvt {
        /// Destination type.
        dty: Ty,
        /// Source type.
        sty: Ty,
        /// Rounding.
        rnd: Rnd,
        /// `.sat`
        sat: bool,
        /// `.ftz`
        ftz: bool,
        /// Destination.
        d: Reg,
        /// Source.
        a: Opnd,
    },
    /// `setp.CmpOp{.BoolOp}.type p{|q}, a, b{, {!}c}`
    Setp {
        /// `.ftz`
        ftz: bool,
        /// Comparison.
        cmp: CmpOp,
        /// Type.
        ty: Ty,
        /// `p` (`None`: sink).
        p: Option<Reg>,
        /// `q`: the complement's destination.
        q: Option<Reg>,
        /// Sources.
        a: Opnd,
        /// Sources.
        b: Opnd,
        /// `.BoolOp` with its predicate `c`.
        comb: Option<(BoolOp, Opnd)>,
    },
    /// `selp.type d, a, b, c`: `c ? a : b`
    Selp {
        /// Type.
        ty: Ty,
        /// Destination.
        d: Reg,
        /// Sources.
        a: Opnd,
        /// Sources.
        b: Opnd,
        /// Predicate.
        c: Opnd,
    },
    /// `slct.dtype.ctype d, a, b, c`: `c >= 0 ? a : b`
    Slct {
        /// Type of `a`, `b`, `d`.
        ty: Ty,
        /// Type of `c` (`.s32` or `.f32`).
        cty: Ty,
        /// Destination.
        d: Reg,
        /// Sources.
        a: Opnd,
        /// Sources.
        b: Opnd,
        /// Selector.
        c: Opnd,
    },
    /// `cvta.space.size d, a` (`to`: `cvta.to.space`).
    Cvta {
        /// `cvta.to.space` (generic → space) rather than space → generic.
        to: bool,
        /// The space.
        space: Space,
        /// Destination.
        d: Reg,
        /// Source address.
        a: Opnd,
    },
    /// `mapa{.shared::cluster}.type d, a, b`
    Mapa {
        /// `.shared::cluster` (otherwise generic).
        cluster: bool,
        /// Destination.
        d: Reg,
        /// Address.
        a: Opnd,
        /// Target CTA rank.
        b: Opnd,
    },
    /// `getctarank{.shared::cluster}.type d, a`
    Getctarank {
        /// `.shared::cluster` (otherwise generic).
        cluster: bool,
        /// Destination.
        d: Reg,
        /// Address.
        a: Opnd,
    },
    /// `isspacep.space p, a`
    Isspacep {
        /// The space asked about (`Generic` stands for `.local`/`.param`/`.const`: false).
        space: Option<Space>,
        /// Destination.
        d: Reg,
        /// Address.
        a: Opnd,
    },
    /// `bra{.uni} target` (guarded or not).
    Bra {
        /// Target instruction index.
        target: u32,
    },
    /// The litmus `beq/bne/blt/ble/bgt/bge a, b, L` (64-bit signed comparison).
    CmpBra {
        /// Comparison.
        cmp: Cmp,
        /// Operands.
        a: Opnd,
        /// Operands.
        b: Opnd,
        /// Target.
        target: u32,
    },
    /// `ret`, `exit`: the thread is done.
    Exit,
    /// `trap`, `brkpt`, a call of a `.noreturn` function without a body (a Rust panic).
    Trap,
    /// `ld`, `ld.const`, `suld`, `tld`, `cold`: one `Op::Load` per element (ascending address).
    Ld {
        /// State space.
        space: Space,
        /// Weak or strong.
        order: Order,
        /// Proxy.
        proxy: Proxy,
        /// Element type.
        ty: Ty,
        /// Destinations (`None`: sink `_`, not read).
        d: Vec<Option<Reg>>,
        /// Address.
        addr: Addr,
    },
    /// `st`, `sust`: one `Op::Store` per element.
    St {
        /// State space.
        space: Space,
        /// Weak or strong.
        order: Order,
        /// Proxy.
        proxy: Proxy,
        /// Element type.
        ty: Ty,
        /// Values.
        v: Vec<Opnd>,
        /// Address.
        addr: Addr,
    },
    /// `atom` (`ret`) and `red`.
    Atom {
        /// State space.
        space: Space,
        /// Semantics (`.relaxed` default).
        sem: Sem,
        /// Scope (`.gpu` default).
        scope: Scope,
        /// Operation.
        op: RmwOp,
        /// Type.
        ty: Ty,
        /// Destination (`None`: `red` or sink).
        d: Option<Reg>,
        /// Address.
        addr: Addr,
        /// Operand `b` (`cas`: compare).
        a: Opnd,
        /// Operand `c` of `cas` (new value).
        b: Opnd,
        /// `atom` (returns the old value) rather than `red`.
        ret: bool,
    },
    /// Vector and packed-half atomics (`atom/red .v2/.v4/.v8 .f32/.f16/.bf16`, `.f16x2`,
    /// `.bf16x2`): one atomic per scalar element, ascending addresses (PTX ISA atom: "the
    /// atomicity is guaranteed separately for each of the individual scalar elements").
    AtomV {
        /// State space.
        space: Space,
        /// Semantics.
        sem: Sem,
        /// Scope.
        scope: Scope,
        /// Operation (`.add`, `.min`, `.max`).
        op: RmwOp,
        /// The scalar element type.
        ty: Ty,
        /// Elements per register (2 for `.f16x2`/`.bf16x2`, else 1).
        per_reg: u8,
        /// Destinations (`red`: empty).
        d: Vec<Option<Reg>>,
        /// Address.
        addr: Addr,
        /// Operands, one register per destination.
        a: Vec<Opnd>,
        /// `atom` (returns the old values).
        ret: bool,
    },
    /// `fence.sem.scope`, `membar`, restricted fences.
    Fence(FenceSem, Scope, Option<Restrict>),
    /// `fence.proxy.*` (the address of the tensormap acquire form, if any).
    ProxyFence(ProxyFence, Option<Opnd>),
    /// `bar`/`barrier` (CTA).
    Bar {
        /// sync/arrive/red.
        kind: BarKind,
        /// Barrier id.
        id: Opnd,
        /// Thread count.
        count: Option<Opnd>,
        /// `bar.red`'s predicate.
        pred: Option<Opnd>,
        /// `bar.red`'s destination.
        d: Option<Reg>,
        /// `bar.red`'s result type (`.u32` popc or `.pred` and/or).
        dty: Ty,
    },
    /// `barrier.cluster.arrive{.release,.relaxed}`
    ClusterArrive {
        /// `.relaxed`
        relaxed: bool,
    },
    /// `barrier.cluster.wait{.acquire}`
    ClusterWait,
    /// An mbarrier operation.
    Mbar {
        /// The object's space.
        space: Space,
        /// The object.
        addr: Addr,
        /// The operation.
        op: MbarI,
        /// Semantics.
        sem: Sem,
        /// Scope.
        scope: Scope,
        /// `state`/`waitComplete` destination (`None`: sink or none).
        d: Option<Reg>,
    },
    /// `mbarrier.pending_count.b64 d, state`
    PendingCount {
        /// Destination.
        d: Reg,
        /// The token.
        state: Opnd,
    },
    /// `cp.async.{ca,cg}.shared{::cta}.global [dst], [src], size{, src-size}`
    CpAsync {
        /// Destination (`.shared::cta`).
        dst: Addr,
        /// Source (`.global`).
        src: Addr,
        /// cp-size: 4, 8 or 16.
        size: u8,
        /// src-size (bytes read; the rest is zero-filled).
        src_size: Option<Opnd>,
    },
    /// `cp.async.commit_group` (`bulk: false`) / `cp.async.bulk.commit_group`.
    Commit {
        /// The bulk flavour.
        bulk: bool,
    },
    /// `cp.async.wait_group N` / `wait_all` (`n: 0`, `all`) / `cp.async.bulk.wait_group{.read} N`.
    WaitGroup {
        /// The bulk flavour.
        bulk: bool,
        /// N.
        n: u64,
        /// `.read`
        read: bool,
        /// `cp.async.wait_all`: commits the open group first.
        all: bool,
    },
    /// `cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [a]`
    CpAsyncMbarArrive {
        /// Space of the object.
        space: Space,
        /// The object.
        addr: Addr,
        /// `.noinc`
        noinc: bool,
    },
    /// `cp.async.bulk*` and `cp.reduce.async.bulk*` (non-tensor).
    Bulk {
        /// Spaces.
        dir: BulkDir,
        /// Destination.
        dst: Addr,
        /// Source.
        src: Addr,
        /// Bytes.
        size: Opnd,
        /// The mbarrier of `.mbarrier::complete_tx::bytes` (else `.bulk_group`).
        bar: Option<Addr>,
        /// `.multicast::cluster`'s ctaMask.
        mask: Option<Opnd>,
        /// `cp.reduce`'s operation and type.
        reduce: Option<(RmwOp, Ty)>,
    },
    /// `cp.async.bulk.tensor.Nd` in `.tile` mode.
    Tensor {
        /// Load (global → shared) rather than store.
        load: bool,
        /// Shared memory side (destination of a load, source of a store).
        smem: Addr,
        /// Space of `smem` (`.shared::cluster` for loads, `.shared::cta` for stores).
        smem_space: Space,
        /// The tensor map's address (a name's address, or a register).
        tmap: Opnd,
        /// Element coordinates, innermost first.
        coords: Vec<Opnd>,
        /// The mbarrier (loads).
        bar: Option<Addr>,
        /// `.multicast::cluster`'s ctaMask.
        mask: Option<Opnd>,
        /// `cp.reduce.async.bulk.tensor`'s operation (on the map's `.b32` elements as `.u32`).
        reduce: Option<(RmwOp, Ty)>,
    },
    /// `st.async` / `red.async` with `.mbarrier::complete_tx::bytes`.
    StAsync {
        /// Weak (`st.async{.weak}`) or relaxed at `.cluster` (`red.async`).
        order: Order,
        /// Element type.
        ty: Ty,
        /// Address (`.shared::cluster`).
        addr: Addr,
        /// Values.
        v: Vec<Opnd>,
        /// The mbarrier (`.shared::cluster`).
        bar: Addr,
        /// `red.async`'s operation.
        rmw: Option<RmwOp>,
    },
    /// `tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope.sync.aligned
    /// [dst], [src], 128` (PTX ISA §9.7.13.16): 16 pairs of 8-byte generic-proxy load (shared)
    /// and store (global), then a generic → tensormap release proxy fence on `dst`.
    TmapCp {
        /// Global destination.
        dst: Addr,
        /// `.shared::cta` source.
        src: Addr,
        /// The fence's scope.
        scope: Scope,
    },
    /// A warp collective over `mask` (`d`: its value destination, if any).
    Warp {
        /// Which.
        op: WarpI,
        /// Member mask (`activemask`: none, all lanes).
        mask: Opnd,
        /// Destination.
        d: Option<Reg>,
    },
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

impl Inst {
    /// Adds the registers the instruction may define to `out`; `false` when it may define
    /// registers this list does not know (the caller must then assume any). Used by the
    /// interpreter's may-write question ([`crate::engine::op::Program::may_write_to`]).
    pub fn defs(&self, out: &mut Vec<Reg>) -> bool {
        match self {
            Inst::Mov { d, .. }
            | Inst::Pack { d, .. }
            | Inst::Clock { d, .. }
            | Inst::Un { d, .. }
            | Inst::Bin { d, .. }
            | Inst::Mad { d, .. }
            | Inst::Bfe { d, .. }
            | Inst::Bfi { d, .. }
            | Inst::Prmt { d, .. }
            | Inst::Cvt { d, .. }
            | Inst::Selp { d, .. }
            | Inst::Slct { d, .. }
            | Inst::Cvta { d, .. }
            | Inst::Mapa { d, .. }
            | Inst::Getctarank { d, .. }
            | Inst::Isspacep { d, .. }
            | Inst::PendingCount { d, .. } => out.push(*d),
            Inst::Unpack { ds, .. } | Inst::Ld { d: ds, .. } | Inst::AtomV { d: ds, .. } => {
                out.extend(ds.iter().flatten())
            }
            Inst::Setp { p, q, .. } => out.extend(p.iter().chain(q.iter())),
            Inst::Atom { d, .. }
            | Inst::Mbar { d, .. }
            | Inst::Warp { d, .. }
            | Inst::Bar { d, .. } => out.extend(d.iter()),
            Inst::Nop
            | Inst::Bra { .. }
            | Inst::CmpBra { .. }
            | Inst::Exit
            | Inst::Trap
            | Inst::St { .. }
            | Inst::Fence(..)
            | Inst::ProxyFence(..)
            | Inst::ClusterArrive { .. }
            | Inst::ClusterWait
            | Inst::CpAsync { .. }
            | Inst::Commit { .. }
            | Inst::WaitGroup { .. }
            | Inst::CpAsyncMbarArrive { .. }
            | Inst::Bulk { .. }
            | Inst::Tensor { .. }
            | Inst::StAsync { .. }
            | Inst::TmapCp { .. } => {}
            Inst::Unsupported(_) => return false,
        }
        true
    }
}
