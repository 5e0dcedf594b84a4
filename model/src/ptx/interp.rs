//! The interpreter: a [`Thread`] runs [`Code`] as an [`engine::op::Program`](Program).
//!
//! Local instructions (arithmetic, predicates, branches, address conversions) run inside
//! [`Program::step`]; every instruction the memory model must see stops the thread with a
//! [`Step::Op`] and continues in [`Program::resume`] with the engine's [`Reply`]. Vector accesses
//! are one op per element, in ascending address order (PTX ISA §8.2.4).
//!
//! Registers hold 64-bit values with the instruction's width applied: a result of type `.sN`
//! narrower than its destination register is sign-extended, any other is zero-extended, then
//! chopped to the register's width (PTX ISA §9.4.1); a predicate holds 0 or 1.
//!
//! Cost: a `Thread` is one `Arc` (the shared [`Code`]), one boxed slice (registers, their
//! dependency sets and the loop counters) and a few words; [`Program::step`] allocates nothing
//! except for an asynchronous copy's piece list.

use super::ir::*;
use crate::ast::{BarKind, Proxy};
use crate::engine::op::{
    Access, At, Completion, Copy, Deps, Float, Layout, MbarOp, Move, Op, Order, Place, Program,
    Reply, Rmw, ShflMode, Space, Step, Val, Warp, GENERIC_LOCAL, GENERIC_SHARED, RANK_SHIFT,
};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// A register's name and width.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegInfo {
    /// The name as written (`r0`, `%rd12`, `p1`).
    pub name: String,
    /// Width in bits (1 for a predicate).
    pub bits: u8,
}

/// A thread's program: instructions, registers, and the layout its names were resolved in.
/// Shared (`Arc`) by every clone of a thread and by every thread that runs the same code.
#[derive(Clone, Debug)]
pub struct Code {
    /// The instructions; execution starts at 0 and ends past the last.
    pub lines: Vec<Line>,
    /// The registers, by number.
    pub regs: Vec<RegInfo>,
    /// The address space (variables, tensor maps).
    pub layout: Arc<Layout>,
    /// Bytes of `.local` memory (the thread's private frame at `GENERIC_LOCAL`).
    pub local_size: u32,
    /// Per instruction: its loop number if a backward branch targets it, else `NO_LOOP`.
    heads: Vec<u32>,
    n_loops: u32,
}

const NO_LOOP: u32 = u32::MAX;

impl Code {
    /// Builds the code and finds its loop heads (targets of backward branches).
    pub fn new(lines: Vec<Line>, regs: Vec<RegInfo>, layout: Arc<Layout>) -> Code {
        let mut heads = vec![NO_LOOP; lines.len() + 1];
        let mut n = 0;
        for (i, l) in lines.iter().enumerate() {
            let t = match l.inst {
                Inst::Bra { target } | Inst::CmpBra { target, .. } => target as usize,
                _ => continue,
            };
            if t <= i && heads[t] == NO_LOOP {
                heads[t] = n;
                n += 1;
            }
        }
        Code {
            lines,
            regs,
            layout,
            local_size: 0,
            heads,
            n_loops: n,
        }
    }

    /// Index of the first local-memory word slot.
    fn local_slot(&self) -> usize {
        self.regs.len() + self.n_loops as usize
    }

    /// The register called `name`.
    pub fn reg(&self, name: &str) -> Option<Reg> {
        self.regs
            .iter()
            .position(|r| r.name == name)
            .map(|r| r as Reg)
    }
}

/// Where a thread runs and the launch geometry its special registers report (PTX ISA
/// chapter 10). Dimension arrays are `[x, y, z]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geom {
    /// The engine's placement (CTA, cluster, rank, warp, lane).
    pub place: Place,
    /// `%tid`
    pub tid: [u32; 3],
    /// `%ntid`
    pub ntid: [u32; 3],
    /// `%ctaid`
    pub ctaid: [u32; 3],
    /// `%nctaid`
    pub nctaid: [u32; 3],
    /// `%clusterid`
    pub clusterid: [u32; 3],
    /// `%nclusterid`
    pub nclusterid: [u32; 3],
    /// `%cluster_ctaid`
    pub cluster_ctaid: [u32; 3],
    /// `%cluster_nctaid`
    pub cluster_nctaid: [u32; 3],
    /// `%nwarpid`
    pub nwarpid: u32,
    /// `%dynamic_smem_size`
    pub dyn_smem: u32,
    /// `%total_smem_size`
    pub total_smem: u32,
    /// `%is_explicit_cluster`
    pub explicit_cluster: bool,
}

impl Geom {
    /// A thread alone in its warp, CTA and cluster (a litmus thread), at `place`.
    pub fn single(place: Place) -> Geom {
        Geom {
            place,
            tid: [0; 3],
            ntid: [1, 1, 1],
            ctaid: [0; 3],
            nctaid: [1, 1, 1],
            clusterid: [0; 3],
            nclusterid: [1, 1, 1],
            cluster_ctaid: [place.rank, 0, 0],
            cluster_nctaid: [1, 1, 1],
            nwarpid: 1,
            dyn_smem: 0,
            total_smem: 0,
            explicit_cluster: false,
        }
    }

    fn cluster_size(&self) -> u32 {
        self.cluster_nctaid.iter().product()
    }
}

/// A register slot: value and the ops it depends on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Slot {
    v: u64,
    d: Deps,
}

/// What `resume` does with the reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pending {
    /// Nothing pending (no op issued, or one without a result).
    None,
    /// Write the reply value to `d` as type `ty` (if `d`), and `p` with `pv` (shfl's predicate).
    Write {
        d: Option<Reg>,
        ty: Ty,
        p: Option<Reg>,
        pv: bool,
        /// Right shift of the reply first (`%globaltimer_hi`).
        shr: u8,
    },
    /// `elect.sync`: lane to `d`, predicate to `p`.
    Elect { d: Option<Reg>, p: Option<Reg> },
    /// A packed element: the reply's low `bits` bits replace bits `shift..` of `d`.
    Part { d: Option<Reg>, shift: u8, bits: u8 },
    /// The instruction's scratch value (`tensormap.cp_fenceproxy`'s loaded word).
    Tmp,
}

fn wr(d: Option<Reg>, ty: Ty) -> Pending {
    Pending::Write {
        d,
        ty,
        p: None,
        pv: false,
        shr: 0,
    }
}

/// A thread: a deterministic interpreter of [`Code`] (see the module docs).
#[derive(Clone, Debug)]
pub struct Thread {
    code: Arc<Code>,
    st: State,
}

#[derive(Clone, Debug)]
struct State {
    /// Registers, then loop counters (in `v`).
    slots: Box<[Slot]>,
    geom: Geom,
    pc: u32,
    /// Element of the current vector instruction.
    sub: u8,
    /// Ops issued so far (the next op's ordinal).
    ordinal: u32,
    /// Control dependencies: every op that decided a branch or guard so far.
    ctrl: Deps,
    /// The current vector instruction's address and its dependencies (computed once).
    cur: u64,
    cur_deps: Deps,
    /// A value carried between the ops of one instruction.
    tmp: Slot,
    pending: Pending,
    /// The ordinal of the op whose reply is pending.
    pending_ord: u32,
    unroll: u32,
    /// Finished, cut, trapped or unsupported: the step to repeat.
    end: Option<Box<Step>>,
}

impl Thread {
    /// A thread at the start of `code`, running at `geom`, with registers initialised by
    /// `init` (others 0) and loops cut after `unroll` backward jumps to one head per entry into
    /// the loop.
    pub fn new(code: Arc<Code>, geom: Geom, init: &[(Reg, u64)], unroll: u32) -> Thread {
        let n = code.regs.len() + code.n_loops as usize + code.local_size.div_ceil(8) as usize;
        let mut slots = vec![Slot::default(); n].into_boxed_slice();
        for &(r, v) in init {
            if let Some(info) = code.regs.get(r as usize) {
                slots[r as usize].v = v & mask(info.bits as u32);
            }
        }
        Thread {
            code,
            st: State {
                slots,
                geom,
                pc: 0,
                sub: 0,
                ordinal: 0,
                ctrl: Deps::NONE,
                cur: 0,
                cur_deps: Deps::NONE,
                tmp: Slot::default(),
                pending: Pending::None,
                pending_ord: 0,
                unroll,
                end: None,
            },
        }
    }

    /// Sets the unroll bound (backward jumps to one loop head per entry before `Step::Cut`).
    pub fn set_unroll(&mut self, unroll: u32) {
        self.st.unroll = unroll;
    }

    /// The code it runs.
    pub fn code(&self) -> &Arc<Code> {
        &self.code
    }

    /// Where it runs.
    pub fn geom(&self) -> &Geom {
        &self.st.geom
    }

    /// The instruction index it is at.
    pub fn pc(&self) -> usize {
        self.st.pc as usize
    }
}

impl Thread {
    /// Whether an instruction may write memory (or issue an operation that does).
    fn writes(i: &Inst) -> bool {
        match i {
            Inst::Ld { .. }
            | Inst::Fence(..)
            | Inst::ProxyFence(..)
            | Inst::Bar { .. }
            | Inst::ClusterArrive { .. }
            | Inst::ClusterWait
            | Inst::PendingCount { .. }
            | Inst::Commit { .. }
            | Inst::WaitGroup { .. }
            | Inst::Bra { .. }
            | Inst::CmpBra { .. }
            | Inst::Exit
            | Inst::Trap
            | Inst::Nop
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
            | Inst::Setp { .. }
            | Inst::Selp { .. }
            | Inst::Slct { .. }
            | Inst::Cvta { .. }
            | Inst::Mapa { .. }
            | Inst::Getctarank { .. }
            | Inst::Isspacep { .. } => false,
            Inst::Mbar { op, .. } => !matches!(op, MbarI::Wait { .. }),
            _ => true,
        }
    }
}

impl Program for Thread {
    fn may_loop(&self) -> bool {
        let pc = self.st.pc as usize;
        self.code.lines.iter().enumerate().any(|(k, l)| {
            k >= pc
                && matches!(l.inst, Inst::Bra { target } | Inst::CmpBra { target, .. } if (target as usize) <= k)
        })
    }

    fn may_write(&self) -> bool {
        let lines = &self.code.lines;
        let pc = self.st.pc as usize;
        if self.st.end.is_some() || pc >= lines.len() {
            return false;
        }
        // A loop may take it back before `pc`: then any instruction of the thread may run.
        let back = lines.iter().enumerate().any(|(k, l)| {
            matches!(l.inst, Inst::Bra { target } | Inst::CmpBra { target, .. } if (target as usize) < pc && k >= pc)
        });
        let from = if back { 0 } else { pc };
        lines[from..].iter().any(|l| Self::writes(&l.inst))
    }

    fn may_write_to(&self, hit: &mut dyn FnMut(Space, Val, u64, bool) -> bool) -> bool {
        let lines = &self.code.lines;
        let pc = self.st.pc as usize;
        if self.st.end.is_some() || pc >= lines.len() {
            return false;
        }
        // The lines reachable from `pc` in the control-flow graph.
        let mut seen = vec![false; lines.len()];
        let mut stack = vec![pc];
        while let Some(k) = stack.pop() {
            if k >= lines.len() || seen[k] {
                continue;
            }
            seen[k] = true;
            let l = &lines[k];
            match l.inst {
                Inst::Bra { target } => {
                    stack.push(target as usize);
                    if l.guard.is_some() {
                        stack.push(k + 1);
                    }
                }
                Inst::CmpBra { target, .. } => stack.extend([target as usize, k + 1]),
                Inst::Exit | Inst::Trap => {
                    if l.guard.is_some() {
                        stack.push(k + 1);
                    }
                }
                _ => stack.push(k + 1),
            }
        }
        let rest: Vec<&Line> = lines
            .iter()
            .zip(&seen)
            .filter(|(_, &s)| s)
            .map(|(l, _)| l)
            .collect();
        if !rest.iter().any(|l| Self::writes(&l.inst)) {
            return false;
        }
        // Registers the rest may define: an address held in one of them is not known yet.
        let mut defs = Vec::new();
        // Registers the rest sets only to one constant (`mov.u32 %r, var`): that constant.
        let mut konst: std::collections::HashMap<Reg, Option<u64>> = Default::default();
        for l in &rest {
            let n = defs.len();
            if !l.inst.defs(&mut defs) {
                return true;
            }
            for &r in &defs[n..] {
                let v = match l.inst {
                    Inst::Mov {
                        a: Opnd::Imm(v), ..
                    } => Some(v),
                    _ => None,
                };
                konst
                    .entry(r)
                    .and_modify(|k| {
                        if *k != v {
                            *k = None
                        }
                    })
                    .or_insert(v);
            }
        }
        defs.sort_unstable();
        defs.dedup();
        let st = &self.st;
        let known = |o: &Opnd| match o {
            Opnd::Reg(r) => defs.binary_search(r).is_err(),
            Opnd::Imm(_) => true,
            _ => false,
        };
        // A register set to a constant on the way is that constant when the write runs (or,
        // where the write may run first, its value now: a register never set holds 0, and no
        // write happens at address 0).
        let at = |a: &Addr, space: Space| -> Option<u64> {
            match a.base {
                Base::Reg(r) if defs.binary_search(&r).is_ok() => match konst.get(&r) {
                    Some(Some(v)) if matches!(st.rv(r), 0) || st.rv(r) == *v => {
                        let k = Addr {
                            base: Base::Abs(*v),
                            off: a.off,
                        };
                        Some(st.eff(&k, space))
                    }
                    _ => None,
                },
                _ => Some(st.eff(a, space)),
            }
        };
        let size_of = |o: &Opnd| -> u64 {
            if known(o) {
                st.get(*o, Ty::U32)
            } else {
                u64::MAX
            }
        };
        for l in &rest {
            let mut wm = |space: Space, a: Option<u64>, n: u64, mc: bool| match a {
                Some(a) => hit(space, a, n, mc),
                None => true,
            };
            let any = match &l.inst {
                Inst::St {
                    space, ty, v, addr, ..
                } => wm(
                    *space,
                    at(addr, *space),
                    v.len() as u64 * ty.bits.div_ceil(8) as u64,
                    false,
                ),
                Inst::Atom {
                    space, ty, addr, ..
                } => wm(*space, at(addr, *space), ty.bits.div_ceil(8) as u64, false),
                Inst::AtomV { space, addr, .. } => wm(*space, at(addr, *space), 32, false),
                Inst::Mbar { space, addr, .. } | Inst::CpAsyncMbarArrive { space, addr, .. } => {
                    wm(*space, at(addr, *space), 8, false)
                }
                Inst::CpAsync { dst, size, .. } => wm(
                    Space::SharedCta,
                    at(dst, Space::SharedCta),
                    *size as u64,
                    false,
                ),
                Inst::Bulk {
                    dir,
                    dst,
                    size,
                    bar,
                    mask,
                    ..
                } => {
                    let (ds, da) = if mask.is_some() {
                        (
                            Space::SharedCta,
                            at(dst, dir.dst).map(|a| a & ((1 << RANK_SHIFT) - 1)),
                        )
                    } else {
                        (dir.dst, at(dst, dir.dst))
                    };
                    wm(ds, da, size_of(size), mask.is_some())
                        || bar.as_ref().is_some_and(|b| {
                            let bs = if dir.dst == Space::SharedCluster && mask.is_none() {
                                Space::SharedCluster
                            } else {
                                Space::SharedCta
                            };
                            let ba = at(b, bs);
                            let ba = if mask.is_some() {
                                ba.map(|a| a & ((1 << RANK_SHIFT) - 1))
                            } else {
                                ba
                            };
                            wm(
                                if mask.is_some() { Space::SharedCta } else { bs },
                                ba,
                                8,
                                mask.is_some(),
                            )
                        })
                }
                inst if Self::writes(inst) => true,
                _ => false,
            };
            if any {
                return true;
            }
        }
        false
    }

    fn step(&mut self) -> Step {
        self.st.step(&self.code)
    }

    fn resume(&mut self, reply: Reply) {
        self.st.resume(&self.code, reply)
    }

    fn fingerprint(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.st.pc.hash(&mut h);
        self.st.sub.hash(&mut h);
        for s in &self.st.slots[..self.code.regs.len()] {
            s.v.hash(&mut h);
        }
        for s in &self.st.slots[self.code.local_slot()..] {
            s.v.hash(&mut h);
        }
        h.finish()
    }

    fn reg(&self, r: usize) -> Val {
        if r < self.code.regs.len() {
            self.st.slots[r].v
        } else {
            0
        }
    }
}

fn val_of(r: Reply) -> u64 {
    match r {
        Reply::None => 0,
        Reply::Value(v) => v,
        Reply::Pred(b) => b as u64,
        Reply::Elect(b, _) => b as u64,
    }
}

fn f32_of(v: u64, ftz: bool) -> f32 {
    let x = f32::from_bits(v as u32);
    if ftz && x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

fn f32_out(x: f32, fm: FMod) -> u64 {
    let mut x = x;
    if fm.sat {
        x = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    }
    if fm.ftz && x.is_subnormal() {
        x = 0.0f32.copysign(x);
    }
    x.to_bits() as u64
}

fn f64_out(x: f64, fm: FMod) -> u64 {
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
fn fminmax<T: PartialOrd + std::marker::Copy>(
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

/// Float comparison (PTX ISA §9.3.1.2).
fn fcmp(cmp: CmpOp, a: f64, b: f64) -> bool {
    let nan = a.is_nan() || b.is_nan();
    match cmp {
        CmpOp::Eq => !nan && a == b,
        CmpOp::Ne => !nan && a != b,
        CmpOp::Lt => !nan && a < b,
        CmpOp::Le => !nan && a <= b,
        CmpOp::Gt => !nan && a > b,
        CmpOp::Ge => !nan && a >= b,
        CmpOp::Equ => nan || a == b,
        CmpOp::Neu => nan || a != b,
        CmpOp::Ltu => nan || a < b,
        CmpOp::Leu => nan || a <= b,
        CmpOp::Gtu => nan || a > b,
        CmpOp::Geu => nan || a >= b,
        CmpOp::Num => !nan,
        CmpOp::Nan => nan,
        CmpOp::Lo | CmpOp::Ls | CmpOp::Hi | CmpOp::Hs => false,
    }
}

/// Integer comparison: `a`, `b` are the chopped bits of a `bits`-wide type (PTX ISA §9.3.1.1).
fn icmp(cmp: CmpOp, a: u64, b: u64, bits: u32, signed: bool) -> bool {
    let (sa, sb) = (sext(a, bits) as i64, sext(b, bits) as i64);
    match cmp {
        CmpOp::Eq => a == b,
        CmpOp::Ne => a != b,
        CmpOp::Lt if signed => sa < sb,
        CmpOp::Le if signed => sa <= sb,
        CmpOp::Gt if signed => sa > sb,
        CmpOp::Ge if signed => sa >= sb,
        CmpOp::Lt | CmpOp::Lo => a < b,
        CmpOp::Le | CmpOp::Ls => a <= b,
        CmpOp::Gt | CmpOp::Hi => a > b,
        CmpOp::Ge | CmpOp::Hs => a >= b,
        _ => false,
    }
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

impl State {
    fn rv(&self, r: Reg) -> u64 {
        self.slots[r as usize].v
    }

    fn sreg(&self, s: Sreg) -> u64 {
        let g = &self.geom;
        let lane = g.place.lane;
        (match s {
            Sreg::Tid(d) => g.tid[d as usize],
            Sreg::Ntid(d) => g.ntid[d as usize],
            Sreg::Ctaid(d) => g.ctaid[d as usize],
            Sreg::Nctaid(d) => g.nctaid[d as usize],
            Sreg::Clusterid(d) => g.clusterid[d as usize],
            Sreg::Nclusterid(d) => g.nclusterid[d as usize],
            Sreg::ClusterCtaid(d) => g.cluster_ctaid[d as usize],
            Sreg::ClusterNctaid(d) => g.cluster_nctaid[d as usize],
            Sreg::ClusterCtarank => g.place.rank,
            Sreg::ClusterNctarank => g.cluster_size(),
            Sreg::IsExplicitCluster => g.explicit_cluster as u32,
            Sreg::Laneid => lane,
            Sreg::Warpid => g.place.warp,
            Sreg::Nwarpid => g.nwarpid,
            Sreg::Smid | Sreg::Gridid => 0,
            Sreg::Nsmid => 1,
            Sreg::LanemaskEq => 1 << lane,
            Sreg::LanemaskLe => (((1u64 << (lane + 1)) - 1) & 0xffff_ffff) as u32,
            Sreg::LanemaskLt => ((1u64 << lane) - 1) as u32,
            Sreg::LanemaskGe => !(((1u64 << lane) - 1) as u32),
            Sreg::LanemaskGt => !((((1u64 << (lane + 1)) - 1) & 0xffff_ffff) as u32),
            Sreg::DynSmem => g.dyn_smem,
            Sreg::TotalSmem => g.total_smem,
            Sreg::WarpSz => 32,
            // Clocks are `Inst::Clock` (an op); as a plain operand they read 0.
            Sreg::Clock
            | Sreg::Clock64
            | Sreg::Globaltimer
            | Sreg::GlobaltimerLo
            | Sreg::GlobaltimerHi => 0,
        }) as u64
    }

    /// An operand's raw value (not chopped).
    fn raw(&self, o: Opnd) -> u64 {
        match o {
            Opnd::Reg(r) => self.rv(r),
            Opnd::Not(r) => (self.rv(r) == 0) as u64,
            Opnd::Imm(v) => v,
            Opnd::Sreg(s) => self.sreg(s),
            Opnd::GenericOf(a) => Layout::cvta_shared_to_generic(a, self.geom.place.rank),
        }
    }

    /// An operand as an instruction of type `ty` sees it (chopped to the type's width).
    fn get(&self, o: Opnd, ty: Ty) -> u64 {
        let v = self.raw(o);
        if ty.kind == Kind::Pred {
            (v != 0) as u64
        } else {
            v & ty.mask()
        }
    }

    fn dep(&self, o: Opnd) -> Deps {
        match o {
            Opnd::Reg(r) | Opnd::Not(r) => self.slots[r as usize].d,
            _ => Deps::NONE,
        }
    }

    /// Writes a result of type `ty` to `r` (sign- or zero-extended, then chopped to the
    /// register's width, PTX ISA §9.4.1).
    fn write(&mut self, code: &Code, r: Reg, v: u64, ty: Ty, d: Deps) {
        let rb = code.regs[r as usize].bits as u32;
        let v = if rb == 1 {
            (v & ty.mask() != 0) as u64
        } else {
            let e = if ty.signed() {
                sext(v, ty.bits as u32)
            } else {
                v & ty.mask()
            };
            e & mask(rb)
        };
        self.slots[r as usize] = Slot { v, d };
    }

    /// Whether `a` (`size` bytes) is in the local window: `Some(byte offset)`.
    fn local(code: &Code, a: u64, size: u64) -> Option<u64> {
        let off = a.checked_sub(GENERIC_LOCAL)?;
        (off < (1 << 32)).then_some(off).filter(|o| {
            let _ = code;
            o + size <= u32::MAX as u64
        })
    }

    /// Reads `size` bytes of local memory at offset `off` (within one 8-byte word).
    fn local_read(&self, code: &Code, off: u64, size: u8) -> Result<(u64, Deps), String> {
        let w = (off / 8) as usize;
        let sh = (off % 8) * 8;
        if off + size as u64 > code.local_size as u64 || sh + size as u64 * 8 > 64 {
            return Err(format!(
                "a local memory access of {size} bytes at offset {off} (outside the frame or across a word)"
            ));
        }
        let s = self.slots[code.local_slot() + w];
        Ok(((s.v >> sh) & mask(size as u32 * 8), s.d))
    }

    fn local_write(
        &mut self,
        code: &Code,
        off: u64,
        size: u8,
        v: u64,
        d: Deps,
    ) -> Result<(), String> {
        let w = (off / 8) as usize;
        let sh = (off % 8) * 8;
        if off + size as u64 > code.local_size as u64 || sh + size as u64 * 8 > 64 {
            return Err(format!(
                "a local memory access of {size} bytes at offset {off} (outside the frame or across a word)"
            ));
        }
        let s = &mut self.slots[code.local_slot() + w];
        let m = mask(size as u32 * 8) << sh;
        s.v = (s.v & !m) | ((v << sh) & m);
        if size == 8 {
            s.d = d;
        } else {
            s.d.union(&d);
        }
        Ok(())
    }

    fn addr_deps(&self, a: &Addr) -> Deps {
        match a.base {
            Base::Reg(r) => self.slots[r as usize].d,
            _ => Deps::NONE,
        }
    }

    /// The address an operand names in `space` (see [`Base::Var`]).
    fn eff(&self, a: &Addr, space: Space) -> u64 {
        let base = match a.base {
            Base::Reg(r) => self.rv(r),
            Base::Abs(v) => v,
            Base::Var {
                shared: false,
                addr,
                ..
            } => addr,
            Base::Var {
                shared: true,
                addr,
                rank,
                ..
            } => match space {
                Space::SharedCta | Space::Global => addr,
                Space::SharedCluster => match rank {
                    Some(k) => Layout::mapa_shared(addr, k),
                    None => addr,
                },
                Space::Generic => {
                    Layout::cvta_shared_to_generic(addr, rank.unwrap_or(self.geom.place.rank))
                }
            },
        };
        base.wrapping_add(a.off as u64)
    }

    fn op_deps(&self, extra: Deps) -> Deps {
        let mut d = self.ctrl;
        d.union(&extra);
        d
    }

    /// Issues op `op`: records the pending reply and numbers the op.
    fn issue(&mut self, op: Op, at: &At, deps: Deps, pending: Pending) -> Step {
        self.pending = pending;
        self.pending_ord = self.ordinal;
        self.ordinal = self.ordinal.saturating_add(1);
        Step::Op(op, at.clone(), deps)
    }

    /// Moves to instruction `to` without a backward jump (fallthrough or forward branch): a
    /// loop head entered this way starts counting its iterations afresh.
    fn fall(&mut self, code: &Code, to: u32) {
        self.pc = to;
        self.sub = 0;
        if let Some(&h) = code.heads.get(to as usize) {
            if h != NO_LOOP {
                self.slots[code.regs.len() + h as usize].v = 0;
            }
        }
    }

    /// Takes a branch from the current instruction to `target`.
    fn jump(&mut self, code: &Code, target: u32, at: &At) -> Option<Step> {
        if target > self.pc {
            self.fall(code, target);
            return None;
        }
        self.pc = target;
        self.sub = 0;
        let h = code.heads[target as usize];
        let slot = &mut self.slots[code.regs.len() + h as usize];
        slot.v += 1;
        if slot.v > self.unroll as u64 {
            let s = Step::Cut(at.clone());
            self.end = Some(Box::new(s.clone()));
            return Some(s);
        }
        Some(Step::LoopHead {
            head: target as usize,
            at: at.clone(),
        })
    }

    fn stop(&mut self, s: Step) -> Step {
        self.end = Some(Box::new(s.clone()));
        s
    }

    fn unsupported(&mut self, what: String, at: &At) -> Step {
        self.stop(Step::Unsupported(what, at.clone()))
    }

    fn resume(&mut self, code: &Code, reply: Reply) {
        let ord = Deps::one(self.pending_ord);
        match std::mem::replace(&mut self.pending, Pending::None) {
            Pending::None => {}
            Pending::Write { d, ty, p, pv, shr } => {
                if let Some(d) = d {
                    self.write(code, d, val_of(reply) >> shr, ty, ord);
                }
                if let Some(p) = p {
                    self.write(code, p, pv as u64, Ty::PRED, self.ctrl);
                }
            }
            Pending::Part { d, shift, bits } => {
                if let Some(d) = d {
                    let m = mask(bits as u32) << shift;
                    let old = self.slots[d as usize].v;
                    let v = (old & !m) | ((val_of(reply) << shift) & m);
                    let mut dd = self.slots[d as usize].d;
                    dd.union(&ord);
                    let rb = code.regs[d as usize].bits as u32;
                    self.slots[d as usize] = Slot {
                        v: v & mask(rb),
                        d: dd,
                    };
                }
            }
            Pending::Tmp => {
                self.tmp = Slot {
                    v: val_of(reply),
                    d: ord,
                };
            }
            Pending::Elect { d, p } => {
                let (b, lane) = match reply {
                    Reply::Elect(b, l) => (b, l),
                    Reply::Pred(b) => (b, 0),
                    Reply::Value(l) => (l == self.geom.place.lane as u64, l),
                    Reply::None => (false, 0),
                };
                if let Some(d) = d {
                    self.write(code, d, lane, Ty::U32, ord);
                }
                if let Some(p) = p {
                    self.write(code, p, b as u64, Ty::PRED, ord);
                }
            }
        }
        // Advance within a vector instruction, or to the next instruction.
        let n = match &code.lines[self.pc as usize].inst {
            Inst::Ld { d, .. } => d.len(),
            Inst::St { v, .. } => v.len(),
            Inst::AtomV { a, per_reg, .. } => a.len() * *per_reg as usize,
            Inst::TmapCp { .. } => 33,
            _ => 1,
        };
        self.sub += 1;
        if self.sub as usize >= n {
            let next = self.pc + 1;
            self.fall(code, next);
        }
    }

    fn step(&mut self, code: &Code) -> Step {
        if let Some(s) = &self.end {
            return (**s).clone();
        }
        loop {
            let pc = self.pc as usize;
            let Some(line) = code.lines.get(pc) else {
                return self.stop(Step::Done);
            };
            let at = &line.at;
            if self.sub == 0 {
                if let Some((p, neg)) = line.guard {
                    let d = self.slots[p as usize].d;
                    self.ctrl.union(&d);
                    if (self.rv(p) != 0) == neg {
                        self.fall(code, pc as u32 + 1);
                        continue;
                    }
                }
            }
            match self.exec(code, line) {
                Ok(None) => {
                    let next = self.pc + 1;
                    self.fall(code, next);
                }
                Ok(Some(Flow::Jumped)) => {}
                Ok(Some(Flow::Step(s))) => return s,
                Err(what) => return self.unsupported(what, at),
            }
        }
    }

    /// Runs one instruction. `Ok(None)`: local, fall through; `Ok(Some(Jumped))`: pc already
    /// moved; `Ok(Some(Step))`: return this step.
    fn exec(&mut self, code: &Code, line: &Line) -> Result<Option<Flow>, String> {
        let at = &line.at;
        match &line.inst {
            Inst::Nop => {}
            Inst::Unsupported(w) => return Err(w.clone()),
            Inst::Mov { ty, d, a } => {
                let v = self.get(*a, *ty);
                let dd = self.dep(*a);
                self.write(code, *d, v, *ty, dd);
            }
            Inst::Pack { bits, d, parts } => {
                let et = Ty::new(Kind::B, *bits);
                let mut v = 0u64;
                let mut dd = Deps::NONE;
                for (i, p) in parts.iter().enumerate() {
                    v |= self.get(*p, et) << (*bits as u32 * i as u32);
                    dd.union(&self.dep(*p));
                }
                let ty = Ty::new(Kind::B, bits * parts.len() as u8);
                self.write(code, *d, v, ty, dd);
            }
            Inst::Unpack { bits, ds, a } => {
                let v = self.raw(*a);
                let dd = self.dep(*a);
                let et = Ty::new(Kind::B, *bits);
                for (i, d) in ds.iter().enumerate() {
                    if let Some(d) = d {
                        let e = (v >> (*bits as u32 * i as u32)) & et.mask();
                        self.write(code, *d, e, et, dd);
                    }
                }
            }
            Inst::Clock { d, which } => {
                let ty = match which {
                    Sreg::Clock64 | Sreg::Globaltimer => Ty::U64,
                    _ => Ty::U32,
                };
                let shr = if *which == Sreg::GlobaltimerHi { 32 } else { 0 };
                let deps = self.op_deps(Deps::NONE);
                return Ok(Some(Flow::Step(self.issue(
                    Op::Clock,
                    at,
                    deps,
                    Pending::Write {
                        d: Some(*d),
                        ty,
                        p: None,
                        pv: false,
                        shr,
                    },
                ))));
            }
            Inst::Un { fm, op, ty, d, a } => {
                let v = self.un(*op, *ty, *fm, self.get(*a, *ty));
                let rty = match op {
                    UnOp::Popc | UnOp::Clz | UnOp::Bfind { .. } => Ty::U32,
                    _ => *ty,
                };
                let dd = self.dep(*a);
                self.write(code, *d, v, rty, dd);
            }
            Inst::Bin {
                fm,
                op,
                ty,
                d,
                a,
                b,
            } => {
                let bt = if matches!(op, BinOp::Shl | BinOp::Shr) {
                    Ty::U32
                } else {
                    *ty
                };
                let (x, y) = (self.get(*a, *ty), self.get(*b, bt));
                let v = self.bin(*op, *ty, *fm, x, y)?;
                let rty = if *op == BinOp::MulWide {
                    Ty::new(ty.kind, ty.bits * 2)
                } else {
                    *ty
                };
                let mut dd = self.dep(*a);
                dd.union(&self.dep(*b));
                self.write(code, *d, v, rty, dd);
            }
            Inst::Mad {
                fm,
                mode,
                ty,
                d,
                a,
                b,
                c,
            } => {
                let wide = Ty::new(ty.kind, ty.bits.saturating_mul(2).min(64));
                let (x, y) = (self.get(*a, *ty), self.get(*b, *ty));
                let z = self.get(*c, if *mode == MadMode::Wide { wide } else { *ty });
                let bits = ty.bits as u32;
                let s = ty.signed();
                let (v, rty) = match mode {
                    MadMode::Lo => (x.wrapping_mul(y).wrapping_add(z), *ty),
                    MadMode::Hi => (mul_hi(x, y, bits, s).wrapping_add(z), *ty),
                    MadMode::Wide => {
                        let p = if s {
                            (sext(x, bits) as i64).wrapping_mul(sext(y, bits) as i64) as u64
                        } else {
                            x.wrapping_mul(y)
                        };
                        (p.wrapping_add(z), wide)
                    }
                    MadMode::Fma => (
                        match ty.bits {
                            32 => f32_out(
                                f32_of(x, fm.ftz).mul_add(f32_of(y, fm.ftz), f32_of(z, fm.ftz)),
                                *fm,
                            ),
                            _ => f64_out(
                                f64::from_bits(x).mul_add(f64::from_bits(y), f64::from_bits(z)),
                                *fm,
                            ),
                        },
                        *ty,
                    ),
                };
                let mut dd = self.dep(*a);
                dd.union(&self.dep(*b));
                dd.union(&self.dep(*c));
                self.write(code, *d, v, rty, dd);
            }
            Inst::Bfe { ty, d, a, pos, len } => {
                let v = bfe(
                    self.get(*a, *ty),
                    self.get(*pos, Ty::U32) as u32,
                    self.get(*len, Ty::U32) as u32,
                    ty.bits as u32,
                    ty.signed(),
                );
                let mut dd = self.dep(*a);
                dd.union(&self.dep(*pos));
                dd.union(&self.dep(*len));
                self.write(code, *d, v, *ty, dd);
            }
            Inst::Bfi {
                ty,
                d,
                a,
                b,
                pos,
                len,
            } => {
                let v = bfi(
                    self.get(*a, *ty),
                    self.get(*b, *ty),
                    self.get(*pos, Ty::U32) as u32,
                    self.get(*len, Ty::U32) as u32,
                    ty.bits as u32,
                );
                let mut dd = self.dep(*a);
                dd.union(&self.dep(*b));
                dd.union(&self.dep(*pos));
                dd.union(&self.dep(*len));
                self.write(code, *d, v, *ty, dd);
            }
            Inst::Prmt { mode, d, a, b, c } => {
                let v = prmt(
                    *mode,
                    self.get(*a, Ty::B32) as u32,
                    self.get(*b, Ty::B32) as u32,
                    self.get(*c, Ty::B32) as u32,
                );
                let mut dd = self.dep(*a);
                dd.union(&self.dep(*b));
                dd.union(&self.dep(*c));
                self.write(code, *d, v as u64, Ty::B32, dd);
            }
            Inst::Cvt {
                dty,
                sty,
                rnd,
                sat,
                ftz,
                d,
                a,
            } => {
                let v = cvt(self.get(*a, *sty), *dty, *sty, *rnd, *sat, *ftz);
                let dd = self.dep(*a);
                self.write(code, *d, v, *dty, dd);
            }
            Inst::Setp {
                ftz,
                cmp,
                ty,
                p,
                q,
                a,
                b,
                comb,
            } => {
                let (x, y) = (self.get(*a, *ty), self.get(*b, *ty));
                let t = if ty.float() {
                    let (fx, fy) = if ty.bits == 32 {
                        (f32_of(x, *ftz) as f64, f32_of(y, *ftz) as f64)
                    } else {
                        (f64::from_bits(x), f64::from_bits(y))
                    };
                    fcmp(*cmp, fx, fy)
                } else {
                    icmp(*cmp, x, y, ty.bits as u32, ty.signed())
                };
                let mut dd = self.dep(*a);
                dd.union(&self.dep(*b));
                let (pv, qv) = match comb {
                    None => (t, !t),
                    Some((op, c)) => {
                        let cv = self.get(*c, Ty::PRED) != 0;
                        dd.union(&self.dep(*c));
                        let f = |x: bool| match op {
                            BoolOp::And => x && cv,
                            BoolOp::Or => x || cv,
                            BoolOp::Xor => x ^ cv,
                        };
                        (f(t), f(!t))
                    }
                };
                if let Some(p) = p {
                    self.write(code, *p, pv as u64, Ty::PRED, dd);
                }
                if let Some(q) = q {
                    self.write(code, *q, qv as u64, Ty::PRED, dd);
                }
            }
            Inst::Selp { ty, d, a, b, c } => {
                let cv = self.get(*c, Ty::PRED) != 0;
                let v = if cv {
                    self.get(*a, *ty)
                } else {
                    self.get(*b, *ty)
                };
                let mut dd = self.dep(*a);
                dd.union(&self.dep(*b));
                dd.union(&self.dep(*c));
                self.write(code, *d, v, *ty, dd);
            }
            Inst::Slct {
                ty,
                cty,
                d,
                a,
                b,
                c,
            } => {
                let cv = self.get(*c, *cty);
                let ge = if cty.float() {
                    f32::from_bits(cv as u32) >= 0.0
                } else {
                    sext(cv, 32) as i64 >= 0
                };
                let v = if ge {
                    self.get(*a, *ty)
                } else {
                    self.get(*b, *ty)
                };
                let mut dd = self.dep(*a);
                dd.union(&self.dep(*b));
                dd.union(&self.dep(*c));
                self.write(code, *d, v, *ty, dd);
            }
            Inst::Cvta { to, space, d, a } => {
                let x = self.raw(*a);
                let rank = self.geom.place.rank;
                let v = match (to, space) {
                    (_, Space::Global) | (_, Space::Generic) => x,
                    (false, Space::SharedCta) | (false, Space::SharedCluster) => {
                        Layout::cvta_shared_to_generic(x, rank)
                    }
                    // Outside the shared window the ISA leaves the result undefined: the address
                    // is kept as it is (an access through it is then a bad address).
                    (true, Space::SharedCta) => Layout::cvta_generic_to_shared(x).unwrap_or(x),
                    (true, Space::SharedCluster) => match x.checked_sub(GENERIC_SHARED) {
                        Some(c) if c >> 32 == 0 => c,
                        _ => x,
                    },
                };
                let dd = self.dep(*a);
                self.write(code, *d, v, Ty::U64, dd);
            }
            Inst::Mapa { cluster, d, a, b } => {
                let x = self.raw(*a);
                let k = self.get(*b, Ty::U32) as u32;
                let v = if *cluster {
                    Layout::mapa_shared(x, k)
                } else {
                    Layout::mapa_generic(x, k)
                };
                let mut dd = self.dep(*a);
                dd.union(&self.dep(*b));
                self.write(code, *d, v, Ty::U64, dd);
            }
            Inst::Getctarank { cluster, d, a } => {
                let x = self.raw(*a);
                let c = if *cluster {
                    Some(x)
                } else {
                    x.checked_sub(GENERIC_SHARED).filter(|c| c >> 32 == 0)
                };
                let v = match c {
                    Some(c) if c >> RANK_SHIFT != 0 => (c >> RANK_SHIFT) - 1,
                    _ => self.geom.place.rank as u64,
                };
                let dd = self.dep(*a);
                self.write(code, *d, v, Ty::U32, dd);
            }
            Inst::Isspacep { space, d, a } => {
                let x = self.raw(*a);
                let window = x.checked_sub(GENERIC_SHARED).filter(|c| c >> 32 == 0);
                let v = match space {
                    None => false,
                    Some(Space::Global) | Some(Space::Generic) => window.is_none(),
                    Some(Space::SharedCluster) => window.is_some(),
                    Some(Space::SharedCta) => {
                        window.is_some_and(|c| c >> RANK_SHIFT == self.geom.place.rank as u64 + 1)
                    }
                };
                let dd = self.dep(*a);
                self.write(code, *d, v as u64, Ty::PRED, dd);
            }
            Inst::Bra { target } => {
                // A guarded branch's predicate joined the control dependencies in `step`.
                return Ok(Some(self.take(code, *target, at)));
            }
            Inst::CmpBra { cmp, a, b, target } => {
                let (x, y) = (self.raw(*a) as i64, self.raw(*b) as i64);
                let mut dd = self.dep(*a);
                dd.union(&self.dep(*b));
                self.ctrl.union(&dd);
                if cmp.eval(x, y) {
                    return Ok(Some(self.take(code, *target, at)));
                }
            }
            Inst::Exit => return Ok(Some(Flow::Step(self.stop(Step::Done)))),
            Inst::Trap => return Ok(Some(Flow::Step(self.stop(Step::Trap(at.clone()))))),
            _ => return self.exec_mem(code, line),
        }
        Ok(None)
    }

    fn take(&mut self, code: &Code, target: u32, at: &At) -> Flow {
        match self.jump(code, target, at) {
            Some(s) => Flow::Step(s),
            None => Flow::Jumped,
        }
    }

    fn un(&self, op: UnOp, ty: Ty, fm: FMod, x: u64) -> u64 {
        let bits = ty.bits as u32;
        if ty.float() {
            return match (op, bits) {
                (UnOp::Abs, 32) => f32_out(f32_of(x, fm.ftz).abs(), fm),
                (UnOp::Neg, 32) => f32_out(-f32_of(x, fm.ftz), fm),
                (UnOp::Sqrt, 32) => f32_out(f32_of(x, fm.ftz).sqrt(), fm),
                (UnOp::Abs, _) => f64::from_bits(x).abs().to_bits(),
                (UnOp::Neg, _) => (-f64::from_bits(x)).to_bits(),
                (UnOp::Sqrt, _) => f64::from_bits(x).sqrt().to_bits(),
                _ => 0,
            };
        }
        match op {
            UnOp::Abs => (sext(x, bits) as i64).wrapping_abs() as u64,
            UnOp::Neg => (x as i64).wrapping_neg() as u64,
            UnOp::Not => {
                if ty.kind == Kind::Pred {
                    (x == 0) as u64
                } else {
                    !x
                }
            }
            UnOp::Cnot => (x == 0) as u64,
            UnOp::Popc => x.count_ones() as u64,
            UnOp::Clz => (x.leading_zeros() - (64 - bits)) as u64,
            UnOp::Brev => x.reverse_bits() >> (64 - bits),
            UnOp::Bfind { shiftamt } => bfind(x, bits, ty.signed(), shiftamt),
            UnOp::Sqrt => 0,
        }
    }

    fn bin(&self, op: BinOp, ty: Ty, fm: FMod, x: u64, y: u64) -> Result<u64, String> {
        let bits = ty.bits as u32;
        if ty.float() {
            if bits == 32 {
                let (a, b) = (f32_of(x, fm.ftz), f32_of(y, fm.ftz));
                let r = match op {
                    BinOp::Add { .. } => a + b,
                    BinOp::Sub { .. } => a - b,
                    BinOp::MulLo => a * b,
                    BinOp::Div { .. } => a / b,
                    BinOp::Min => fminmax(a, b, a.is_nan(), b.is_nan(), a.is_sign_negative(), true),
                    BinOp::Max => {
                        fminmax(a, b, a.is_nan(), b.is_nan(), a.is_sign_negative(), false)
                    }
                    BinOp::Copysign => b.copysign(a),
                    _ => return Err(format!("float operation {op:?}")),
                };
                return Ok(f32_out(r, fm));
            }
            let (a, b) = (f64::from_bits(x), f64::from_bits(y));
            let r = match op {
                BinOp::Add { .. } => a + b,
                BinOp::Sub { .. } => a - b,
                BinOp::MulLo => a * b,
                BinOp::Div { .. } => a / b,
                BinOp::Min => fminmax(a, b, a.is_nan(), b.is_nan(), a.is_sign_negative(), true),
                BinOp::Max => fminmax(a, b, a.is_nan(), b.is_nan(), a.is_sign_negative(), false),
                BinOp::Copysign => b.copysign(a),
                _ => return Err(format!("float operation {op:?}")),
            };
            return Ok(f64_out(r, fm));
        }
        if ty.kind == Kind::Pred {
            return Ok(match op {
                BinOp::And => x & y,
                BinOp::Or => x | y,
                _ => x ^ y,
            } & 1);
        }
        let s = ty.signed();
        let (sx, sy) = (sext(x, bits) as i64, sext(y, bits) as i64);
        let sat32 = |v: i64| v.clamp(i32::MIN as i64, i32::MAX as i64) as u64;
        Ok(match op {
            BinOp::Add { sat: true } => sat32(sx + sy),
            BinOp::Sub { sat: true } => sat32(sx - sy),
            BinOp::Add { .. } => x.wrapping_add(y),
            BinOp::Sub { .. } => x.wrapping_sub(y),
            BinOp::MulLo => x.wrapping_mul(y),
            BinOp::MulHi => mul_hi(x, y, bits, s),
            BinOp::MulWide => {
                if s {
                    sx.wrapping_mul(sy) as u64
                } else {
                    x.wrapping_mul(y)
                }
            }
            BinOp::Div { .. } | BinOp::Rem if y == 0 => {
                if op == (BinOp::Div { zero_ok: true }) {
                    0
                } else {
                    return Err(
                        "integer division by zero (PTX ISA div/rem: the result is unspecified)"
                            .into(),
                    );
                }
            }
            BinOp::Div { .. } => {
                if s {
                    sx.wrapping_div(sy) as u64
                } else {
                    x / y
                }
            }
            BinOp::Rem => {
                if s {
                    sx.wrapping_rem(sy) as u64
                } else {
                    x % y
                }
            }
            BinOp::Min => {
                if s {
                    sx.min(sy) as u64
                } else {
                    x.min(y)
                }
            }
            BinOp::Max => {
                if s {
                    sx.max(sy) as u64
                } else {
                    x.max(y)
                }
            }
            BinOp::And => x & y,
            BinOp::Or => x | y,
            BinOp::Xor => x ^ y,
            // PTX ISA shl/shr: shift amounts greater than the width are clamped to it.
            BinOp::Shl => {
                if y >= bits as u64 {
                    0
                } else {
                    x << y
                }
            }
            BinOp::Shr => {
                let y = y.min(bits as u64) as u32;
                if s {
                    (sx >> y.min(63)) as u64
                } else if y >= 64 {
                    0
                } else {
                    x >> y
                }
            }
            BinOp::Copysign => return Err("integer copysign".into()),
        })
    }

    /// A memory-model instruction: one op (or one per element).
    fn exec_mem(&mut self, code: &Code, line: &Line) -> Result<Option<Flow>, String> {
        let at = &line.at;
        let step = match &line.inst {
            Inst::Ld {
                space,
                order,
                proxy,
                ty,
                d,
                addr,
            } => {
                if self.sub == 0 {
                    self.cur = self.eff(addr, *space);
                    self.cur_deps = self.addr_deps(addr);
                    let size = (ty.bits / 8).max(1);
                    if *space == Space::Generic {
                        if let Some(off) = Self::local(code, self.cur, size as u64 * d.len() as u64)
                        {
                            // Private to the thread: no op (PTX ISA §5.1.6 .local).
                            for (k, r) in d.iter().enumerate() {
                                let (v, dd) =
                                    self.local_read(code, off + k as u64 * size as u64, size)?;
                                if let Some(r) = r {
                                    self.write(code, *r, v, *ty, dd);
                                }
                            }
                            return Ok(None);
                        }
                    }
                }
                // Skip sink elements (not read, PTX ISA ld).
                while (self.sub as usize) < d.len() && d[self.sub as usize].is_none() {
                    self.sub += 1;
                }
                if self.sub as usize >= d.len() {
                    return Ok(None);
                }
                let size = (ty.bits / 8).max(1);
                let a = Access {
                    space: *space,
                    addr: self.cur.wrapping_add(self.sub as u64 * size as u64),
                    size,
                    proxy: *proxy,
                    order: *order,
                };
                let deps = self.op_deps(self.cur_deps);
                let dst = d[self.sub as usize];
                self.issue(Op::Load(a), at, deps, wr(dst, *ty))
            }
            Inst::St {
                space,
                order,
                proxy,
                ty,
                v,
                addr,
            } => {
                if self.sub == 0 {
                    self.cur = self.eff(addr, *space);
                    self.cur_deps = self.addr_deps(addr);
                    let size = (ty.bits / 8).max(1);
                    if *space == Space::Generic {
                        if let Some(off) = Self::local(code, self.cur, size as u64 * v.len() as u64)
                        {
                            for (k, x) in v.iter().enumerate() {
                                let val = self.get(*x, *ty);
                                let dd = self.dep(*x);
                                self.local_write(
                                    code,
                                    off + k as u64 * size as u64,
                                    size,
                                    val,
                                    dd,
                                )?;
                            }
                            return Ok(None);
                        }
                    }
                }
                let size = (ty.bits / 8).max(1);
                let k = self.sub as usize;
                let a = Access {
                    space: *space,
                    addr: self.cur.wrapping_add(k as u64 * size as u64),
                    size,
                    proxy: *proxy,
                    order: *order,
                };
                let mut dd = self.cur_deps;
                dd.union(&self.dep(v[k]));
                let deps = self.op_deps(dd);
                let val = self.get(v[k], *ty);
                self.issue(Op::Store(a, val), at, deps, Pending::None)
            }
            Inst::Atom {
                space,
                sem,
                scope,
                op,
                ty,
                d,
                addr,
                a,
                b,
                ret,
            } => {
                let acc = Access {
                    space: *space,
                    addr: self.eff(addr, *space),
                    size: ty.bits / 8,
                    proxy: Proxy::Generic,
                    order: Order {
                        sem: *sem,
                        scope: Some(*scope),
                    },
                };
                let mut dd = self.addr_deps(addr);
                dd.union(&self.dep(*a));
                dd.union(&self.dep(*b));
                let deps = self.op_deps(dd);
                let rmw = Rmw {
                    op: *op,
                    a: self.get(*a, *ty),
                    b: self.get(*b, *ty),
                    signed: ty.signed(),
                    returns: *ret,
                    float: float_of(*ty),
                };
                self.issue(Op::Rmw(acc, rmw), at, deps, wr(*d, *ty))
            }
            Inst::AtomV {
                space,
                sem,
                scope,
                op,
                ty,
                per_reg,
                d,
                addr,
                a,
                ret,
            } => {
                if self.sub == 0 {
                    self.cur = self.eff(addr, *space);
                    self.cur_deps = self.addr_deps(addr);
                }
                let k = self.sub as usize;
                let (reg, half) = (k / *per_reg as usize, k % *per_reg as usize);
                let size = ty.bits / 8;
                let shift = (half * ty.bits as usize) as u8;
                let acc = Access {
                    space: *space,
                    addr: self.cur + k as u64 * size as u64,
                    size,
                    proxy: Proxy::Generic,
                    order: Order {
                        sem: *sem,
                        scope: Some(*scope),
                    },
                };
                let mut dd = self.cur_deps;
                dd.union(&self.dep(a[reg]));
                let deps = self.op_deps(dd);
                let v = (self.raw(a[reg]) >> shift) & ty.mask();
                let rmw = Rmw {
                    op: *op,
                    a: v,
                    b: 0,
                    signed: false,
                    returns: *ret,
                    float: float_of(*ty),
                };
                let dst = d.get(reg).copied().flatten();
                self.issue(
                    Op::Rmw(acc, rmw),
                    at,
                    deps,
                    Pending::Part {
                        d: dst,
                        shift,
                        bits: ty.bits,
                    },
                )
            }
            Inst::TmapCp { dst, src, scope } => {
                let k = self.sub as u64;
                let (d0, s0) = (
                    self.eff(dst, Space::Global),
                    self.eff(src, Space::SharedCta),
                );
                let mut ad = self.addr_deps(dst);
                ad.union(&self.addr_deps(src));
                if k == 32 {
                    let deps = self.op_deps(ad);
                    self.issue(
                        Op::ProxyFence(crate::engine::op::ProxyFence::TensormapGeneric {
                            sem: crate::ast::FenceSem::Release,
                            scope: *scope,
                            addr: Some(d0),
                        }),
                        at,
                        deps,
                        Pending::None,
                    )
                } else if k.is_multiple_of(2) {
                    let deps = self.op_deps(ad);
                    let acc = Access {
                        space: Space::SharedCta,
                        addr: s0 + 4 * k,
                        size: 8,
                        proxy: Proxy::Generic,
                        order: Order::WEAK,
                    };
                    self.issue(Op::Load(acc), at, deps, Pending::Tmp)
                } else {
                    ad.union(&self.tmp.d);
                    let deps = self.op_deps(ad);
                    let acc = Access {
                        space: Space::Global,
                        addr: d0 + 4 * (k - 1),
                        size: 8,
                        proxy: Proxy::Generic,
                        order: Order::WEAK,
                    };
                    self.issue(Op::Store(acc, self.tmp.v), at, deps, Pending::None)
                }
            }
            Inst::Fence(sem, scope, r) => {
                let deps = self.op_deps(Deps::NONE);
                self.issue(Op::Fence(*sem, *scope, *r), at, deps, Pending::None)
            }
            Inst::ProxyFence(pf, addr) => {
                let mut pf = *pf;
                let mut dd = Deps::NONE;
                if let (
                    crate::engine::op::ProxyFence::TensormapGeneric { addr: slot, .. },
                    Some(a),
                ) = (&mut pf, addr)
                {
                    *slot = Some(self.raw(*a));
                    dd = self.dep(*a);
                }
                let deps = self.op_deps(dd);
                self.issue(Op::ProxyFence(pf), at, deps, Pending::None)
            }
            Inst::Bar {
                kind,
                id,
                count,
                pred,
                d,
                dty,
            } => {
                let mut dd = self.dep(*id);
                let count_v = count.map(|c| {
                    dd.union(&self.dep(c));
                    self.get(c, Ty::U32)
                });
                let pv = pred.map(|p| {
                    dd.union(&self.dep(p));
                    self.get(p, Ty::PRED) != 0
                });
                let deps = self.op_deps(dd);
                let pending = if *kind == BarKind::Sync || *kind == BarKind::Arrive {
                    Pending::None
                } else {
                    wr(*d, *dty)
                };
                self.issue(
                    Op::Bar {
                        kind: *kind,
                        id: self.get(*id, Ty::U32),
                        count: count_v,
                        pred: pv.unwrap_or(false),
                    },
                    at,
                    deps,
                    pending,
                )
            }
            Inst::ClusterArrive { relaxed } => {
                let deps = self.op_deps(Deps::NONE);
                self.issue(
                    Op::ClusterArrive { relaxed: *relaxed },
                    at,
                    deps,
                    Pending::None,
                )
            }
            Inst::ClusterWait => {
                let deps = self.op_deps(Deps::NONE);
                self.issue(Op::ClusterWait, at, deps, Pending::None)
            }
            Inst::Mbar {
                space,
                addr,
                op,
                sem,
                scope,
                d,
            } => {
                let mut dd = self.addr_deps(addr);
                let mut g = |s: &Self, o: Opnd, ty: Ty| {
                    dd.union(&s.dep(o));
                    s.get(o, ty)
                };
                let (mop, ty) = match *op {
                    MbarI::Init(c) => (
                        MbarOp::Init {
                            count: g(self, c, Ty::U32),
                        },
                        Ty::B64,
                    ),
                    MbarI::Inval => (MbarOp::Inval, Ty::B64),
                    MbarI::Arrive {
                        count,
                        tx,
                        no_complete,
                        drop,
                    } => (
                        MbarOp::Arrive {
                            count: count.map(|c| g(self, c, Ty::U32)).unwrap_or(1),
                            expect_tx: tx.map(|t| g(self, t, Ty::U32)),
                            no_complete,
                            drop,
                        },
                        Ty::B64,
                    ),
                    MbarI::ExpectTx(t) => (MbarOp::ExpectTx(g(self, t, Ty::U32)), Ty::B64),
                    MbarI::CompleteTx(t) => (MbarOp::CompleteTx(g(self, t, Ty::U32)), Ty::B64),
                    MbarI::Wait {
                        parity,
                        try_wait,
                        v,
                    } => {
                        if parity {
                            (
                                MbarOp::WaitParity {
                                    parity: g(self, v, Ty::U32) & 1,
                                    try_wait,
                                },
                                Ty::PRED,
                            )
                        } else {
                            (
                                MbarOp::WaitState {
                                    state: g(self, v, Ty::B64),
                                    try_wait,
                                },
                                Ty::PRED,
                            )
                        }
                    }
                };
                let deps = self.op_deps(dd);
                let a = self.eff(addr, *space);
                self.issue(
                    Op::Mbar {
                        space: *space,
                        addr: a,
                        op: mop,
                        sem: *sem,
                        scope: *scope,
                    },
                    at,
                    deps,
                    Pending::Write {
                        d: *d,
                        ty,
                        p: None,
                        pv: false,
                        shr: 0,
                    },
                )
            }
            Inst::PendingCount { d, state } => {
                let deps = self.op_deps(self.dep(*state));
                let s = self.get(*state, Ty::B64);
                self.issue(Op::PendingCount(s), at, deps, wr(Some(*d), Ty::U32))
            }
            Inst::CpAsync {
                dst,
                src,
                size,
                src_size,
            } => {
                let mut dd = self.addr_deps(dst);
                dd.union(&self.addr_deps(src));
                let n = match src_size {
                    Some(o) => {
                        dd.union(&self.dep(*o));
                        self.get(*o, Ty::U32)
                    }
                    None => *size as u64,
                };
                if n > *size as u64 {
                    return Err(format!(
                        "cp.async src-size {n} exceeds cp-size {size} (PTX ISA cp.async)"
                    ));
                }
                let (d0, s0) = (
                    self.eff(dst, Space::SharedCta),
                    self.eff(src, Space::Global),
                );
                // The first src-size bytes are read, the rest zero-filled (PTX ISA cp.async); a
                // piece straddling src-size is split into bytes.
                let mut moves = Vec::with_capacity(*size as usize / 4 + 4);
                pieces(*size as u64, |off, sz| {
                    let end = off + sz as u64;
                    if off < n && end > n {
                        for o in off..end {
                            moves.push(Move {
                                src: (o < n).then_some((Space::Global, s0 + o)),
                                dst: Some((Space::SharedCta, d0 + o)),
                                size: 1,
                            });
                        }
                    } else {
                        moves.push(Move {
                            src: (end <= n).then_some((Space::Global, s0 + off)),
                            dst: Some((Space::SharedCta, d0 + off)),
                            size: sz,
                        });
                    }
                });
                let deps = self.op_deps(dd);
                self.issue(
                    Op::Copy(Copy {
                        moves,
                        proxy: Proxy::Generic,
                        reduce: None,
                        completion: Completion::AsyncGroup,
                        multicast: None,
                        tx_bytes: *size as u64,
                    }),
                    at,
                    deps,
                    Pending::None,
                )
            }
            Inst::Commit { bulk } => {
                let deps = self.op_deps(Deps::NONE);
                self.issue(Op::Commit { bulk: *bulk }, at, deps, Pending::None)
            }
            Inst::WaitGroup { bulk, n, read, all } => {
                let deps = self.op_deps(Deps::NONE);
                self.issue(
                    Op::WaitGroup {
                        bulk: *bulk,
                        n: *n,
                        read: *read,
                        all: *all,
                    },
                    at,
                    deps,
                    Pending::None,
                )
            }
            Inst::CpAsyncMbarArrive { space, addr, noinc } => {
                let deps = self.op_deps(self.addr_deps(addr));
                let a = self.eff(addr, *space);
                self.issue(
                    Op::AsyncMbarArrive {
                        space: *space,
                        addr: a,
                        noinc: *noinc,
                    },
                    at,
                    deps,
                    Pending::None,
                )
            }
            Inst::Bulk {
                dir,
                dst,
                src,
                size,
                bar,
                mask,
                reduce,
            } => {
                let mut dd = self.addr_deps(dst);
                dd.union(&self.addr_deps(src));
                dd.union(&self.dep(*size));
                let n = self.get(*size, Ty::U32);
                if !n.is_multiple_of(16) {
                    return Err(format!(
                        "bulk copy size {n} is not a multiple of 16 (PTX ISA cp.async.bulk)"
                    ));
                }
                let mc = mask.map(|m| {
                    dd.union(&self.dep(m));
                    self.get(m, Ty::B16) as u16
                });
                let local = |a: u64| {
                    if mc.is_some() {
                        a & ((1 << RANK_SHIFT) - 1)
                    } else {
                        a
                    }
                };
                let d0 = local(self.eff(dst, dir.dst));
                let s0 = self.eff(src, dir.src);
                let completion = match bar {
                    Some(b) => {
                        dd.union(&self.addr_deps(b));
                        let bs = if dir.dst == Space::SharedCluster && mc.is_none() {
                            Space::SharedCluster
                        } else {
                            Space::SharedCta
                        };
                        let sp = if mc.is_some() { Space::SharedCta } else { bs };
                        let ba = local(self.eff(b, bs));
                        Completion::Mbarrier(sp, ba)
                    }
                    None => Completion::BulkGroup,
                };
                let dspace = if mc.is_some() {
                    Space::SharedCta
                } else {
                    dir.dst
                };
                let step = match reduce {
                    Some((_, ty)) => (ty.bits / 8) as u64,
                    None => 4,
                };
                let mut moves = Vec::with_capacity((n / step) as usize);
                let mut off = 0;
                while off < n {
                    moves.push(Move {
                        src: Some((dir.src, s0 + off)),
                        dst: Some((dspace, d0 + off)),
                        size: step as u8,
                    });
                    off += step;
                }
                let reduce = reduce.map(|(op, ty)| Rmw {
                    op,
                    a: 0,
                    b: 0,
                    signed: ty.signed(),
                    returns: false,
                    float: float_of(ty),
                });
                let deps = self.op_deps(dd);
                self.issue(
                    Op::Copy(Copy {
                        moves,
                        proxy: Proxy::Async,
                        reduce,
                        completion,
                        multicast: mc,
                        tx_bytes: n,
                    }),
                    at,
                    deps,
                    Pending::None,
                )
            }
            Inst::Tensor {
                load,
                smem,
                smem_space,
                tmap,
                coords,
                bar,
                mask,
                reduce,
            } => {
                let ta = self.raw(*tmap);
                let Some(tm) = code.layout.tmap_at(ta) else {
                    return Err(format!(
                        "a tensor copy through a tensor map the checker does not know (address {ta:#x}: not a declared `@ tensormap`)"
                    ));
                };
                let mut dd = self.dep(*tmap);
                let cs: Vec<i64> = coords
                    .iter()
                    .map(|c| {
                        dd.union(&self.dep(*c));
                        sext(self.get(*c, Ty::S32), 32) as i64
                    })
                    .collect();
                if cs.len() != tm.dims.len() {
                    return Err(format!(
                        "a {}d copy through a {}d tensor map",
                        cs.len(),
                        tm.dims.len()
                    ));
                }
                let mc = mask.map(|m| {
                    dd.union(&self.dep(m));
                    self.get(m, Ty::B16) as u16
                });
                dd.union(&self.addr_deps(smem));
                let local = |a: u64| {
                    if mc.is_some() {
                        a & ((1 << RANK_SHIFT) - 1)
                    } else {
                        a
                    }
                };
                let s0 = local(self.eff(smem, *smem_space));
                let sspace = if mc.is_some() {
                    Space::SharedCta
                } else {
                    *smem_space
                };
                let base = code.layout.addr_of(tm.data);
                let e = tm.elem as u64;
                let (bw, bh) = (
                    tm.boxdim[0] as i64,
                    tm.boxdim.get(1).copied().unwrap_or(1) as i64,
                );
                let (w, h) = (
                    tm.dims[0] as i64,
                    tm.dims.get(1).copied().unwrap_or(1) as i64,
                );
                let (x0, y0) = (cs[0], cs.get(1).copied().unwrap_or(0));
                let mut moves = Vec::with_capacity((bw * bh) as usize);
                for j in 0..bh {
                    for i in 0..bw {
                        let (x, y) = (x0 + i, y0 + j);
                        let inb = (0..w).contains(&x) && (0..h).contains(&y);
                        let g = inb.then(|| (Space::Global, base + ((y * w + x) as u64) * e));
                        let s = Some((sspace, s0 + ((j * bw + i) as u64) * e));
                        moves.push(if *load {
                            Move {
                                src: g,
                                dst: s,
                                size: tm.elem,
                            }
                        } else {
                            Move {
                                src: s,
                                dst: g,
                                size: tm.elem,
                            }
                        });
                    }
                }
                let completion = match bar {
                    Some(b) => {
                        dd.union(&self.addr_deps(b));
                        let sp = if mc.is_some() {
                            Space::SharedCta
                        } else {
                            *smem_space
                        };
                        Completion::Mbarrier(sp, local(self.eff(b, *smem_space)))
                    }
                    None => Completion::BulkGroup,
                };
                let deps = self.op_deps(dd);
                let reduce = reduce.map(|(op, ty)| Rmw {
                    op,
                    a: 0,
                    b: 0,
                    signed: ty.signed(),
                    returns: false,
                    float: float_of(ty),
                });
                self.issue(
                    Op::Copy(Copy {
                        moves,
                        proxy: Proxy::Async,
                        reduce,
                        completion,
                        multicast: mc,
                        tx_bytes: (bw * bh) as u64 * e,
                    }),
                    at,
                    deps,
                    Pending::None,
                )
            }
            Inst::StAsync {
                order,
                ty,
                addr,
                v,
                bar,
                rmw,
            } => {
                if self.sub == 0 {
                    self.cur = self.eff(addr, Space::SharedCluster);
                    self.cur_deps = self.addr_deps(addr);
                    self.cur_deps.union(&self.addr_deps(bar));
                }
                // One op for the whole vector: its complete-tx counts every element's bytes.
                let size = ty.bits / 8;
                let acc = Access {
                    space: Space::SharedCluster,
                    addr: self.cur,
                    size,
                    proxy: Proxy::Async,
                    order: *order,
                };
                let mut dd = self.cur_deps;
                for &x in v.iter() {
                    dd.union(&self.dep(x));
                }
                let deps = self.op_deps(dd);
                let vals: Vec<u64> = v.iter().map(|&x| self.get(x, *ty)).collect();
                let rmw = rmw.map(|op| Rmw {
                    op,
                    a: 0,
                    b: 0,
                    signed: ty.signed(),
                    returns: false,
                    float: float_of(*ty),
                });
                let b = self.eff(bar, Space::SharedCluster);
                self.issue(
                    Op::StAsync {
                        access: acc,
                        vals,
                        rmw,
                        bar: b,
                    },
                    at,
                    deps,
                    Pending::None,
                )
            }
            Inst::Warp { op, mask, d } => {
                let mut dd = self.dep(*mask);
                let m = self.get(*mask, Ty::B32);
                let (w, pending) = match *op {
                    WarpI::Sync => (Warp::Sync, Pending::None),
                    WarpI::ActiveMask => (Warp::ActiveMask, wr(*d, Ty::B32)),
                    WarpI::Elect { p } => (Warp::Elect, Pending::Elect { d: *d, p }),
                    WarpI::Vote(mode, a) => {
                        dd.union(&self.dep(a));
                        let ty = if mode == crate::engine::op::VoteMode::Ballot {
                            Ty::B32
                        } else {
                            Ty::PRED
                        };
                        (Warp::Vote(mode, self.get(a, Ty::PRED)), wr(*d, ty))
                    }
                    WarpI::Shfl { mode, a, b, c, p } => {
                        dd.union(&self.dep(a));
                        dd.union(&self.dep(b));
                        dd.union(&self.dep(c));
                        let (bv, cv) = (self.get(b, Ty::B32), self.get(c, Ty::B32));
                        let pv = shfl_in_range(mode, self.geom.place.lane, bv as u32, cv as u32);
                        (
                            Warp::Shfl(mode, self.get(a, Ty::B32), bv, cv),
                            Pending::Write {
                                d: *d,
                                ty: Ty::B32,
                                p,
                                pv,
                                shr: 0,
                            },
                        )
                    }
                };
                let deps = self.op_deps(dd);
                self.issue(Op::Warp(w, m), at, deps, pending)
            }
            other => return Err(format!("instruction {other:?}")),
        };
        Ok(Some(Flow::Step(step)))
    }
}

/// What `exec` did to the control flow.
enum Flow {
    /// The pc was moved (a forward branch).
    Jumped,
    /// Return this step.
    Step(Step),
}

fn float_of(ty: Ty) -> Option<Float> {
    match (ty.kind, ty.bits) {
        (Kind::F, 16) => Some(Float::F16),
        (Kind::Bf, _) => Some(Float::Bf16),
        (Kind::F, 32) => Some(Float::F32),
        (Kind::F, 64) => Some(Float::F64),
        _ => None,
    }
}

fn mul_hi(x: u64, y: u64, bits: u32, signed: bool) -> u64 {
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
fn pieces(n: u64, mut f: impl FnMut(u64, u8)) {
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
