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

mod exec;
mod exec_mem;
mod state;
mod values;

use exec::*;
pub use values::*;

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
    /// Whether the registers' values at the end are observed (a litmus test's final condition
    /// may name them; a kernel's `--assert` names memory only). When not, a register is dead
    /// at the end.
    pub observe_end: bool,
    /// Whether entering a loop (not only its backward branch) is a `Step::LoopHead`.
    pub entry_heads: bool,
    /// Per instruction, the registers live before it (bitsets; computed on first use).
    live: std::sync::OnceLock<Vec<Vec<u64>>>,
    /// Per instruction, whether a clock read there may jump ([`Code::may_jump`]).
    jumps: std::sync::OnceLock<Vec<bool>>,
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
            observe_end: true,
            entry_heads: false,
            live: std::sync::OnceLock::new(),
            jumps: std::sync::OnceLock::new(),
        }
    }

    /// The registers live before each instruction (a backward data-flow fixpoint over the
    /// control-flow graph): read on some path before being written on it. A guarded
    /// instruction may not run, so it writes nothing for sure; an instruction whose reads or
    /// writes are not known reads every register; the end reads every register when
    /// [`Code::observe_end`].
    fn live(&self) -> &Vec<Vec<u64>> {
        self.live.get_or_init(|| {
            let n = self.lines.len();
            let words = self.regs.len().div_ceil(64);
            let all: Vec<u64> = (0..words)
                .map(|w| {
                    let left = self.regs.len() - 64 * w;
                    if left >= 64 {
                        u64::MAX
                    } else {
                        (1u64 << left) - 1
                    }
                })
                .collect();
            let end = if self.observe_end {
                all.clone()
            } else {
                vec![0; words]
            };
            let set = |v: &mut Vec<u64>, r: Reg| {
                if let Some(w) = v.get_mut(r as usize / 64) {
                    *w |= 1 << (r % 64);
                }
            };
            // Per line: (successors, uses, sure writes).
            let mut facts = Vec::with_capacity(n);
            for (k, l) in self.lines.iter().enumerate() {
                let succ: Vec<usize> = successors(l, k, n, None).collect();
                let mut uses = vec![0u64; words];
                let mut u = Vec::new();
                if l.inst.uses(&mut u) {
                    u.iter().for_each(|&r| set(&mut uses, r));
                } else {
                    uses = all.clone();
                }
                if let Some((p, _)) = l.guard {
                    set(&mut uses, p);
                }
                let mut defs = vec![0u64; words];
                let mut d = Vec::new();
                if l.guard.is_none() && l.inst.defs(&mut d) {
                    d.iter().for_each(|&r| set(&mut defs, r));
                }
                facts.push((succ, uses, defs));
            }
            let mut live = vec![vec![0u64; words]; n];
            loop {
                let mut changed = false;
                for k in (0..n).rev() {
                    let (succ, uses, defs) = &facts[k];
                    let mut out = vec![0u64; words];
                    for &s in succ {
                        let from = if s >= n { &end } else { &live[s] };
                        out.iter_mut().zip(from).for_each(|(o, f)| *o |= f);
                    }
                    let inn: Vec<u64> = (0..words).map(|w| uses[w] | (out[w] & !defs[w])).collect();
                    if inn != live[k] {
                        live[k] = inn;
                        changed = true;
                    }
                }
                if !changed {
                    return live;
                }
            }
        })
    }

    /// Whether a jump of the clock at line `k` (a clock read, `Inst::Clock`) can be told apart
    /// from no jump (`model/SEMANTICS.md` S6, "Which clock reads may jump"). The model's timers
    /// are relative: the first read returns an arbitrary origin and each later read the previous
    /// value or that value plus a jump past every budget, so the only timing a kernel can tell
    /// apart is whether two reads it compares straddle a jump. A jump at `k` straddles a compared
    /// pair only when (1) the value read at `k` is used (its register is live after `k`) and
    /// (2) a value derived from an earlier clock read is live across `k`. Otherwise every value
    /// read from `k` on moves by the same amount as the values it is compared with, and the
    /// execution without the jump (also explored) behaves the same. The derivation is followed
    /// through register arithmetic, moves, selects, comparisons and branches; where a
    /// clock-derived value reaches anything else (a store's data or address, an atomic, a warp
    /// shuffle, an instruction whose operands are not known) the argument does not hold and
    /// every clock read of the code may jump.
    pub fn may_jump(&self, k: usize) -> bool {
        self.jumps.get_or_init(|| self.jump_lines())[k]
    }

    fn jump_lines(&self) -> Vec<bool> {
        let n = self.lines.len();
        let mut timed = vec![false; self.regs.len()];
        // Where the argument does not hold: every clock read may jump.
        let all: Vec<bool> = self
            .lines
            .iter()
            .map(|l| matches!(l.inst, Inst::Clock { .. }))
            .collect();
        // Clock-derived registers: a flow-insensitive fixpoint over the pure instructions.
        let mut changed = true;
        while changed {
            changed = false;
            for l in &self.lines {
                let (mut u, mut d) = (Vec::new(), Vec::new());
                if !(l.inst.uses(&mut u) && l.inst.defs(&mut d)) {
                    return all;
                }
                let clock = matches!(l.inst, Inst::Clock { .. });
                if !clock && !u.iter().any(|&r| timed.get(r as usize) == Some(&true)) {
                    continue;
                }
                if !l.inst.is_pure() {
                    // A clock-derived value may leave the registers: every read may jump.
                    return all;
                }
                for r in d {
                    if let Some(t) = timed.get_mut(r as usize) {
                        changed |= !*t;
                        *t = true;
                    }
                }
            }
        }
        let live = self.live();
        let empty = vec![0u64; self.regs.len().div_ceil(64)];
        let is = |v: &[u64], r: usize| v.get(r / 64).is_some_and(|w| w >> (r % 64) & 1 == 1);
        (0..n)
            .map(|k| {
                let Inst::Clock { d, .. } = self.lines[k].inst else {
                    return false;
                };
                let mut out = empty.clone();
                for s in successors(&self.lines[k], k, n, None) {
                    let from = if s >= n {
                        if self.observe_end {
                            return true;
                        }
                        &empty
                    } else {
                        &live[s]
                    };
                    out.iter_mut().zip(from).for_each(|(o, f)| *o |= f);
                }
                is(&out, d as usize)
                    && (0..self.regs.len()).any(|r| r != d as usize && timed[r] && is(&out, r))
            })
            .collect()
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
    /// A loop head was just entered (`Code::entry_heads`): the next step reports it.
    entered: bool,
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
                entered: false,
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
        if i.is_pure() {
            return false;
        }
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
            | Inst::Cvta { .. }
            | Inst::Mapa { .. }
            | Inst::Getctarank { .. }
            | Inst::Isspacep { .. } => false,
            Inst::Mbar { op, .. } => !matches!(op, MbarI::Wait { .. }),
            _ => true,
        }
    }
}

impl Thread {
    /// The lines that may run from line `pc` on, in the control-flow graph: a guarded branch,
    /// `exit` or `trap` whose predicate is `fixed` (it keeps its value now) goes the one way that
    /// value says, and a guarded instruction it disables does not run; any other guard may go
    /// either way.
    fn lines_that_may_run(&self, pc: usize, fixed: &[bool]) -> Vec<bool> {
        let lines = &self.code.lines;
        // `Some(runs)` for a guard whose predicate is fixed.
        let known = |l: &Line| -> Option<bool> {
            let (p, neg) = l.guard?;
            fixed
                .get(p as usize)
                .copied()
                .unwrap_or(false)
                .then(|| (self.st.rv(p) != 0) != neg)
        };
        let mut seen = vec![false; lines.len()];
        let mut runs = vec![false; lines.len()];
        let mut stack = vec![pc];
        while let Some(k) = stack.pop() {
            if k >= lines.len() || seen[k] {
                continue;
            }
            seen[k] = true;
            let l = &lines[k];
            let g = known(l);
            runs[k] = g != Some(false);
            stack.extend(successors(l, k, lines.len(), g));
        }
        runs
    }
}

/// Where control may go after line `k` of `n`: a branch's target and/or the next line; `exit` and
/// `trap` to the thread's end (`n`). `guard`: the value of the line's guard when it is known
/// (then a guarded branch, `exit` or `trap` goes the one way it says).
fn successors(l: &Line, k: usize, n: usize, guard: Option<bool>) -> impl Iterator<Item = usize> {
    let guarded = l.guard.is_some();
    let (a, b) = match l.inst {
        Inst::Bra { target } => match (guarded, guard) {
            (false, _) | (true, Some(true)) => (Some(target as usize), None),
            (true, Some(false)) => (None, Some(k + 1)),
            (true, None) => (Some(target as usize), Some(k + 1)),
        },
        Inst::CmpBra { target, .. } => (Some(target as usize), Some(k + 1)),
        Inst::Exit | Inst::Trap => match (guarded, guard) {
            (false, _) | (true, Some(true)) => (Some(n), None),
            (true, Some(false)) => (None, Some(k + 1)),
            (true, None) => (Some(n), Some(k + 1)),
        },
        _ => (Some(k + 1), None),
    };
    a.into_iter().chain(b)
}

impl Program for Thread {
    fn repeats(&self, line: usize) -> bool {
        let lines = &self.code.lines;
        let at: Vec<usize> = (0..lines.len())
            .filter(|&k| lines[k].at.line == line)
            .collect();
        // Unknown lines are taken to repeat (the safe answer).
        at.is_empty()
            || lines.iter().enumerate().any(|(k, l)| {
                matches!(l.inst, Inst::Bra { target } | Inst::CmpBra { target, .. }
                    if (target as usize) <= k && at.iter().any(|&i| target as usize <= i && i <= k))
            })
    }

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

    fn may_write_to(&self, hit: &mut dyn FnMut(Space, Option<Val>, u64, bool) -> bool) -> bool {
        let lines = &self.code.lines;
        let pc = self.st.pc as usize;
        if self.st.end.is_some() || pc >= lines.len() {
            return false;
        }
        // The lines that may still run from `pc`, and the registers they may set. A guard whose
        // predicate register none of those lines sets, and whose value depends on no memory
        // read (no placeholder of a pending load), keeps its value now: its branch goes one way
        // (a role chosen by `%tid` or `%cluster_ctarank` at the start). Fewer lines may run,
        // so fewer registers may be set and more guards are fixed: to a fixpoint.
        let mut fixed = vec![false; self.code.regs.len()];
        let (rest, mut defs, konst) = loop {
            let runs = self.lines_that_may_run(pc, &fixed);
            let rest: Vec<&Line> = lines
                .iter()
                .zip(&runs)
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
            let mut set = vec![false; fixed.len()];
            for &r in &defs {
                if let Some(s) = set.get_mut(r as usize) {
                    *s = true;
                }
            }
            let now: Vec<bool> = (0..fixed.len())
                .map(|r| !set[r] && self.st.slots[r].d == Deps::NONE)
                .collect();
            if now == fixed {
                break (rest, defs, konst);
            }
            fixed = now;
        };
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
            let mut wm = |space: Space, a: Option<u64>, n: u64, mc: bool| hit(space, a, n, mc);
            let any = match &l.inst {
                Inst::St { m, v } => wm(
                    m.space,
                    at(&m.addr, m.space),
                    v.len() as u64 * m.ty.bits.div_ceil(8) as u64,
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
        let pc = self.st.pc as usize;
        // At a loop head only the live registers tell states apart: a register every path
        // writes before reading (a clock value the last iteration compared) does not change
        // what the thread does next.
        let live = (self.st.sub == 0 && self.code.heads.get(pc).is_some_and(|&h| h != NO_LOOP))
            .then(|| self.code.live().get(pc))
            .flatten();
        for (r, s) in self.st.slots[..self.code.regs.len()].iter().enumerate() {
            if live.is_none_or(|l| l[r / 64] >> (r % 64) & 1 == 1) {
                s.v.hash(&mut h);
            }
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
