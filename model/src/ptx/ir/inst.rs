//! [`Inst`]: one PTX instruction, with every name resolved to a number.

use super::*;

/// What a `ld` and a `st` both name: the elements' address, state space, order, proxy and type
/// (PTX ISA §9.7.9.8, §9.7.9.10); the elements follow each other from `addr` on.
#[derive(Clone, Debug, PartialEq)]
pub struct MemRef {
    /// State space.
    pub space: Space,
    /// Weak or strong.
    pub order: Order,
    /// Proxy.
    pub proxy: Proxy,
    /// Element type.
    pub ty: Ty,
    /// Address of the first element.
    pub addr: Addr,
}

impl MemRef {
    /// Bytes per element (a predicate or sub-byte element counts as one).
    pub fn size(&self) -> u8 {
        (self.ty.bits / 8).max(1)
    }
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
    /// `setp.Cmp{.BoolOp}.type p{|q}, a, b{, {!}c}`
    Setp {
        /// `.ftz`
        ftz: bool,
        /// Comparison.
        cmp: Cmp,
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
        /// Where and how the elements are read.
        m: MemRef,
        /// Destinations (`None`: sink `_`, not read).
        d: Vec<Option<Reg>>,
    },
    /// `st`, `sust`: one `Op::Store` per element.
    St {
        /// Where and how the elements are written.
        m: MemRef,
        /// Values.
        v: Vec<Opnd>,
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

impl Inst {
    /// Whether the instruction only computes registers and control flow from registers (no
    /// memory, no address conversion, no synchronization, no warp exchange): what a clock-derived
    /// value may flow through without leaving the thread's registers ([`super::super::interp::Code::may_jump`]).
    pub fn is_pure(&self) -> bool {
        matches!(
            self,
            Inst::Nop
                | Inst::Mov { .. }
                | Inst::Pack { .. }
                | Inst::Unpack { .. }
                | Inst::Clock { .. }
                | Inst::Un { .. }
                | Inst::Bin { .. }
                | Inst::Mad { .. }
                | Inst::Bfe { .. }
                | Inst::Bfi { .. }
                | Inst::Prmt { .. }
                | Inst::Cvt { .. }
                | Inst::Selp { .. }
                | Inst::Slct { .. }
                | Inst::Setp { .. }
                | Inst::Bra { .. }
                | Inst::CmpBra { .. }
                | Inst::Exit
                | Inst::Trap
        )
    }

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
            Inst::Warp { d, op, .. } => {
                out.extend(d.iter());
                if let WarpI::Elect { p } | WarpI::Shfl { p, .. } = op {
                    out.extend(p.iter());
                }
            }
            Inst::Atom { d, .. } | Inst::Mbar { d, .. } | Inst::Bar { d, .. } => {
                out.extend(d.iter())
            }
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

    /// Adds the registers the instruction reads to `out` (operands, address bases; not its
    /// guard); `false` when it may read registers this list does not know (the caller must then
    /// assume any). Used for the registers live at a loop head ([`super::super::interp`]'s
    /// fingerprint).
    pub fn uses(&self, out: &mut Vec<Reg>) -> bool {
        fn o(out: &mut Vec<Reg>, x: &Opnd) {
            if let Opnd::Reg(r) | Opnd::Not(r) = x {
                out.push(*r);
            }
        }
        fn a(out: &mut Vec<Reg>, x: &Addr) {
            if let Base::Reg(r) = x.base {
                out.push(r);
            }
        }
        match self {
            Inst::Nop
            | Inst::Clock { .. }
            | Inst::Bra { .. }
            | Inst::Exit
            | Inst::Trap
            | Inst::Fence(..)
            | Inst::ClusterArrive { .. }
            | Inst::ClusterWait
            | Inst::Commit { .. }
            | Inst::WaitGroup { .. } => {}
            Inst::Unsupported(_) => return false,
            Inst::Mov { a: x, .. }
            | Inst::Unpack { a: x, .. }
            | Inst::Un { a: x, .. }
            | Inst::Cvt { a: x, .. }
            | Inst::Cvta { a: x, .. }
            | Inst::Getctarank { a: x, .. }
            | Inst::Isspacep { a: x, .. }
            | Inst::PendingCount { state: x, .. } => o(out, x),
            Inst::Pack { parts, .. } => parts.iter().for_each(|x| o(out, x)),
            Inst::Bin { a: x, b: y, .. }
            | Inst::Mapa { a: x, b: y, .. }
            | Inst::CmpBra { a: x, b: y, .. } => {
                o(out, x);
                o(out, y)
            }
            Inst::Mad {
                a: x, b: y, c: z, ..
            }
            | Inst::Bfe {
                a: x,
                pos: y,
                len: z,
                ..
            }
            | Inst::Prmt {
                a: x, b: y, c: z, ..
            }
            | Inst::Selp {
                a: x, b: y, c: z, ..
            }
            | Inst::Slct {
                a: x, b: y, c: z, ..
            } => {
                o(out, x);
                o(out, y);
                o(out, z)
            }
            Inst::Bfi {
                a: w,
                b: x,
                pos: y,
                len: z,
                ..
            } => {
                for v in [w, x, y, z] {
                    o(out, v)
                }
            }
            Inst::Setp {
                a: x, b: y, comb, ..
            } => {
                o(out, x);
                o(out, y);
                if let Some((_, z)) = comb {
                    o(out, z)
                }
            }
            Inst::Ld { m, .. } => a(out, &m.addr),
            Inst::St { m, v } => {
                a(out, &m.addr);
                v.iter().for_each(|x| o(out, x))
            }
            Inst::Atom {
                addr, a: x, b: y, ..
            } => {
                a(out, addr);
                o(out, x);
                o(out, y)
            }
            Inst::AtomV { addr, a: xs, .. } => {
                a(out, addr);
                xs.iter().for_each(|x| o(out, x))
            }
            Inst::ProxyFence(_, x) => x.iter().for_each(|x| o(out, x)),
            Inst::Bar {
                id, count, pred, ..
            } => {
                o(out, id);
                count.iter().chain(pred.iter()).for_each(|x| o(out, x))
            }
            Inst::Mbar { addr, op, .. } => {
                a(out, addr);
                match op {
                    MbarI::Init(x) | MbarI::ExpectTx(x) | MbarI::CompleteTx(x) => o(out, x),
                    MbarI::Wait { v, .. } => o(out, v),
                    MbarI::Arrive { count, tx, .. } => {
                        count.iter().chain(tx.iter()).for_each(|x| o(out, x))
                    }
                    MbarI::Inval => {}
                }
            }
            Inst::CpAsync {
                dst, src, src_size, ..
            } => {
                a(out, dst);
                a(out, src);
                src_size.iter().for_each(|x| o(out, x))
            }
            Inst::CpAsyncMbarArrive { addr, .. } => a(out, addr),
            Inst::Bulk {
                dst,
                src,
                size,
                bar,
                mask,
                ..
            } => {
                a(out, dst);
                a(out, src);
                o(out, size);
                bar.iter().for_each(|x| a(out, x));
                mask.iter().for_each(|x| o(out, x))
            }
            Inst::Tensor {
                smem,
                tmap,
                coords,
                bar,
                mask,
                ..
            } => {
                a(out, smem);
                o(out, tmap);
                coords.iter().for_each(|x| o(out, x));
                bar.iter().for_each(|x| a(out, x));
                mask.iter().for_each(|x| o(out, x))
            }
            Inst::StAsync { addr, v, bar, .. } => {
                a(out, addr);
                v.iter().for_each(|x| o(out, x));
                a(out, bar)
            }
            Inst::TmapCp { dst, src, .. } => {
                a(out, dst);
                a(out, src)
            }
            Inst::Warp { op, mask, .. } => {
                o(out, mask);
                match op {
                    WarpI::Vote(_, x) => o(out, x),
                    WarpI::Shfl {
                        a: x, b: y, c: z, ..
                    } => {
                        o(out, x);
                        o(out, y);
                        o(out, z)
                    }
                    WarpI::Sync | WarpI::ActiveMask | WarpI::Elect { .. } => {}
                }
            }
        }
        true
    }
}
