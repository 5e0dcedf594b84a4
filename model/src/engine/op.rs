//! The seam between a thread's interpreter and the memory-model engine.
//!
//! A thread (a litmus column or a PTX kernel thread) is a deterministic interpreter implementing
//! [`Program`]: it runs its local instructions (register arithmetic, predicates, branches) by
//! itself and stops at every instruction the memory model must see, handing the engine an
//! [`Op`]. The engine decides the result (which write a load reads, whether a wait sees its phase
//! complete, ...) and gives it back with [`Program::resume`]. Addresses are plain numbers in the
//! address space of a [`Layout`] that the front end builds and both sides read.
//!
//! Everything the engine needs to know about an instruction is in its `Op`; everything the
//! interpreter needs back is in the [`Reply`]. Neither side looks into the other.

use crate::ast::{BarKind, FenceSem, Proxy, RmwOp, Scope, Sem};
use std::sync::Arc;

/// A register or memory value: the raw bits, zero-extended to 64.
pub type Val = u64;

/// Where an instruction's source is (PTX line, text, and the `.loc` source line if any).
///
/// The strings are shared (`Arc<str>`): a thread hands out an `At` with every step, and cloning
/// one costs two reference-count increments, never an allocation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct At {
    /// Line in the litmus file or `.ptx` module (1-based).
    pub line: usize,
    /// The instruction as written.
    pub text: Arc<str>,
    /// `(file, line)` from the PTX `.loc` directive in force, if any.
    pub src: Option<(Arc<str>, u32)>,
}

/// State spaces of an address operand (PTX ISA §5.1). `.shared` is `SharedCta`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    /// No space: generic addressing (PTX ISA §6.4.1.1).
    Generic,
    /// `.global`
    Global,
    /// `.shared::cta` (and `.shared`)
    SharedCta,
    /// `.shared::cluster`
    SharedCluster,
}

/// How one memory access is ordered: weak (`scope: None`), or strong with a semantics and a scope
/// (PTX ISA §8.4). `.volatile` is `Relaxed` at `Sys`; `.mmio` is `Relaxed` at its scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Order {
    /// `Weak`, `Relaxed`, `Acquire`, `Release` or `AcqRel`.
    pub sem: Sem,
    /// The scope of a strong access; `None` for a weak one.
    pub scope: Option<Scope>,
}

impl Order {
    /// A weak access.
    pub const WEAK: Order = Order {
        sem: Sem::Weak,
        scope: None,
    };
}

/// One scalar memory access (vectors are one `Access` per element, PTX ISA §8.2.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Access {
    /// The space the instruction names.
    pub space: Space,
    /// The address (a number of the [`Layout`]'s address space).
    pub addr: Val,
    /// Size in bytes: 1, 2, 4 or 8.
    pub size: u8,
    /// The proxy (generic for `ld`/`st`/`atom`/`red`; surface/texture/constant for those).
    pub proxy: Proxy,
    /// Weak or strong.
    pub order: Order,
}

/// A typed atomic operation (`atom`/`red`, PTX ISA §9.7.13.5–6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rmw {
    /// The operation.
    pub op: RmwOp,
    /// First operand (`cas`: the compare value).
    pub a: Val,
    /// Second operand (`cas`: the new value; otherwise 0).
    pub b: Val,
    /// Signed type (`min`/`max` compare signed).
    pub signed: bool,
    /// `atom` returns the old value; `red` does not (and is never part of an acquire pattern).
    pub returns: bool,
    /// A floating-point type (`.add`/`.min`/`.max` compute in it, IEEE round-to-nearest-even);
    /// `None` for the integer and bit-size types.
    pub float: Option<Float>,
}

/// Floating-point element types of `atom`/`red` (PTX ISA §9.7.13.5: `.f32`, `.f64`, and
/// `.f16`/`.bf16` with `.noftz`). Values travel as their raw bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Float {
    /// IEEE binary16.
    F16,
    /// bfloat16.
    Bf16,
    /// IEEE binary32.
    F32,
    /// IEEE binary64.
    F64,
}

/// Proxy fences (PTX ISA §9.7.13.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProxyFence {
    /// `fence.proxy.alias`
    Alias,
    /// `fence.proxy.surface` (format part 1)
    Surface,
    /// `fence.proxy.texture` (format part 1)
    Texture,
    /// `fence.proxy.constant` (format part 1)
    Constant,
    /// `fence.proxy.async{.global,.shared::cta,.shared::cluster}`: `None` = every state space.
    Async(Option<Space>),
    /// `fence.proxy.tensormap::generic.release.scope` and
    /// `fence.proxy.tensormap::generic.acquire.scope [addr], 128`: a uni-directional fence from
    /// the generic proxy to the tensormap proxy (`addr`: the acquire form's 128-byte range).
    TensormapGeneric {
        /// `Release` or `Acquire`.
        sem: FenceSem,
        /// The scope.
        scope: Scope,
        /// The acquire form's address (generic; a `.global` tensor map).
        addr: Option<Val>,
    },
    /// `fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster` and
    /// `fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster`: a
    /// uni-directional generic → async proxy fence that is also a release (acquire) fence at
    /// `.cluster` scope restricted to that state space.
    AsyncGeneric {
        /// `Release` or `Acquire`.
        sem: FenceSem,
        /// `Restrict::SharedCta` (release) or `Restrict::SharedCluster` (acquire).
        restrict: Restrict,
    },
}

/// What a memory fence's synchronizing effect is restricted to (PTX ISA §9.7.13.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Restrict {
    /// `.op_restrict::mbarrier_init`: only prior `mbarrier.init` of this thread.
    MbarrierInit,
    /// `.sync_restrict::shared::cta`
    SharedCta,
    /// `.sync_restrict::shared::cluster`
    SharedCluster,
}

/// An mbarrier operation (PTX ISA §9.7.13.15). The address is the object's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MbarOp {
    /// `mbarrier.init … [addr], count`
    Init {
        /// Expected arrival count.
        count: Val,
    },
    /// `mbarrier.inval`
    Inval,
    /// `mbarrier.arrive{.expect_tx}{.noComplete}` and `arrive_drop`: reply is the state token
    /// (`Reply::Value`): the phase before the arrive in bits 0–31 and the pending arrival count
    /// before it in bits 32–63 (so `mbarrier.pending_count.b64 c, state` is `state >> 32`,
    /// computed by the interpreter; the token is opaque to tests).
    Arrive {
        /// Arrival count (1 when not given).
        count: Val,
        /// `.expect_tx`'s txCount (performed before the arrive).
        expect_tx: Option<Val>,
        /// `.noComplete`
        no_complete: bool,
        /// `arrive_drop`: also lowers the expected count.
        drop: bool,
    },
    /// `mbarrier.expect_tx … txCount`
    ExpectTx(Val),
    /// `mbarrier.complete_tx … txCount`
    CompleteTx(Val),
    /// `test_wait`/`try_wait` with a state token: reply `Reply::Pred`.
    WaitState {
        /// The token an arrive returned.
        state: Val,
        /// `try_wait` (potentially blocking) rather than `test_wait`.
        try_wait: bool,
    },
    /// `test_wait.parity`/`try_wait.parity`: reply `Reply::Pred`.
    WaitParity {
        /// 0 or 1.
        parity: Val,
        /// `try_wait`
        try_wait: bool,
    },
}

/// How an asynchronous copy reports completion (PTX ISA §9.7.9.25.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Completion {
    /// `.mbarrier::complete_tx::bytes`: complete-tx on the mbarrier at this address (for a
    /// multicast, the same offset in each destination CTA).
    Mbarrier(Space, Val),
    /// `.bulk_group`: joined by `cp.async.bulk.wait_group`.
    BulkGroup,
    /// `cp.async` (non-bulk): joined by `cp.async.wait_group/wait_all` or
    /// `cp.async.mbarrier.arrive`.
    AsyncGroup,
}

/// One piece of an asynchronous copy: `size` bytes from `src` (or zeros) to `dst`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// Source space and address; `None`: zero fill (`cp.async` src-size, tensor out of bounds).
    pub src: Option<(Space, Val)>,
    /// Destination space and address; `None`: the element is not written (tensor store out of
    /// bounds).
    pub dst: Option<(Space, Val)>,
    /// Bytes (1, 2, 4 or 8: the front end splits a copy into scalar pieces).
    pub size: u8,
}

/// An asynchronous copy (`cp.async`, `cp.async.bulk*`, `cp.reduce.async.bulk*`, tensor copies):
/// an async operation of its own (see `SEMANTICS`: reads, writes, completion).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Copy {
    /// The pieces, in order.
    pub moves: Vec<Move>,
    /// Async proxy (`cp.async.bulk*`, tensor) or generic (`cp.async`).
    pub proxy: Proxy,
    /// `cp.reduce.async.bulk`: each destination piece is this RMW with the source as operand.
    pub reduce: Option<Rmw>,
    /// How completion is observed.
    pub completion: Completion,
    /// `.multicast::cluster`'s ctaMask: the moves and completion are repeated in each CTA of the
    /// mask (destination addresses are `.shared::cta` offsets then).
    pub multicast: Option<u16>,
    /// Bytes the completion reports to the mbarrier (the copy size; for a tensor copy its box).
    pub tx_bytes: Val,
}

/// A warp-level collective (PTX ISA §9.7.13.3–11); every lane of `mask` must reach it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Warp {
    /// `bar.warp.sync mask` (a barrier among the lanes: synchronizes like `bar`).
    Sync,
    /// `activemask`: reply the mask of lanes that reached it.
    ActiveMask,
    /// `elect.sync`: reply `Pred` (true for one lane, the lowest) and `Value` (its lane id).
    Elect,
    /// `vote.sync.{all,any,uni,ballot}` over `val` (a predicate as 0/1): reply per the mode.
    Vote(VoteMode, Val),
    /// `shfl.sync.{idx,up,down,bfly}` of `val` with lane operand `b` and clamp `c`.
    Shfl(ShflMode, Val, Val, Val),
}

/// `vote.sync` modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteMode {
    /// `.all`
    All,
    /// `.any`
    Any,
    /// `.uni`
    Uni,
    /// `.ballot.b32`
    Ballot,
}

/// `shfl.sync` modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShflMode {
    /// `.idx`
    Idx,
    /// `.up`
    Up,
    /// `.down`
    Down,
    /// `.bfly`
    Bfly,
}

/// An instruction the memory model must see.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// `ld`, `suld`, `tld`, `ld.const`: reply `Value`.
    Load(Access),
    /// `st`, `sust`.
    Store(Access, Val),
    /// `atom` (reply `Value`: the old value) and `red` (reply `None`).
    Rmw(Access, Rmw),
    /// `fence.sem.scope`, `membar` (= `fence.sc`), with an optional restriction.
    Fence(FenceSem, Scope, Option<Restrict>),
    /// `fence.proxy.*`
    ProxyFence(ProxyFence),
    /// `bar`/`barrier` (CTA): barrier `id`, thread `count` (`None`: all threads of the CTA),
    /// `bar.red`'s predicate; reply `Value` for `bar.red`, `None` otherwise.
    Bar {
        /// sync, arrive or red.
        kind: BarKind,
        /// Barrier number, 0–15.
        id: Val,
        /// Thread count (`None`: every thread of the CTA).
        count: Option<Val>,
        /// The predicate of `bar.red` (already negated for `!p`).
        pred: bool,
    },
    /// `barrier.cluster.arrive{.release,.relaxed}`.
    ClusterArrive {
        /// `.relaxed`
        relaxed: bool,
    },
    /// `barrier.cluster.wait{.acquire}`.
    ClusterWait,
    /// An mbarrier operation on the object at (`space`, `addr`), with its `.sem`/`.scope`.
    Mbar {
        /// The object's space and address.
        space: Space,
        /// The object's address.
        addr: Val,
        /// What it does.
        op: MbarOp,
        /// `.release`/`.relaxed` (arrive), `.acquire`/`.relaxed` (waits).
        sem: Sem,
        /// `.cta`/`.cluster`.
        scope: Scope,
    },
    /// Issues an asynchronous copy (no reply; its effects are the async operation's).
    Copy(Copy),
    /// `cp.async.commit_group` (`bulk: false`) / `cp.async.bulk.commit_group` (`bulk: true`).
    Commit {
        /// The bulk-group flavour.
        bulk: bool,
    },
    /// `cp.async.wait_group n` / `wait_all` (`n: 0`, `bulk: false`), `cp.async.bulk.wait_group{.read} n`.
    WaitGroup {
        /// The bulk-group flavour.
        bulk: bool,
        /// Most groups left pending.
        n: Val,
        /// `.read`: only the source reads must be complete.
        read: bool,
        /// `cp.async.wait_all` ("equivalent to cp.async.commit_group followed by
        /// cp.async.wait_group 0"): the open group is committed first.
        all: bool,
    },
    /// `cp.async.mbarrier.arrive{.noinc}`: an async arrive-on after this thread's prior `cp.async`.
    AsyncMbarArrive {
        /// The mbarrier.
        space: Space,
        /// Its address.
        addr: Val,
        /// `.noinc`
        noinc: bool,
    },
    /// `st.async`/`red.async` (PTX ISA §9.7.9.12, §9.7.13.6): a remote write (or RMW) with
    /// complete-tx on the mbarrier at (`bar_space`, `bar`).
    StAsync {
        /// The access of the first element (its `order` is the instruction's); element `k` is at
        /// `access.addr + k·access.size`.
        access: Access,
        /// The values stored (or the RMW operands), one per vector element. The complete-tx is
        /// of all of them at once (`access.size · vals.len()` bytes).
        vals: Vec<Val>,
        /// `red.async`'s operation.
        rmw: Option<Rmw>,
        /// The mbarrier's address.
        bar: Val,
    },
    /// `%globaltimer`, `%clock`, `%clock64`: reply `Value`, non-decreasing per thread: the
    /// previous read's value or, where `jump`, that value or one past every time budget
    /// (`model/SEMANTICS.md` S6). `jump: false` where the program knows a jump there cannot be
    /// told apart from none ([`crate::ptx::interp::Code::may_jump`]).
    Clock {
        /// Whether the engine explores a jump at this read.
        jump: bool,
    },
    /// `mbarrier.pending_count.b64 count, state`: reply `Value`, the pending arrival count that
    /// the arrive-returned token `state` records (PTX ISA §9.7.13.15.17). No memory access: the
    /// token's encoding is the engine's, so only the engine can decode it.
    PendingCount(Val),
    /// A warp collective among the lanes of `mask`.
    Warp(Warp, Val),
}

/// The engine's answer to an [`Op`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    /// Nothing comes back.
    None,
    /// A value (loads, `atom`, arrive tokens, clocks, `bar.red`, warp results).
    Value(Val),
    /// A predicate (mbarrier waits, `elect.sync`'s predicate with the elected lane in `Value`).
    Pred(bool),
    /// `elect.sync`: the predicate and the elected lane.
    Elect(bool, Val),
}

/// The dependencies of an op (PTX ISA §8.10.4 "chains of instruction dependencies"): the
/// ordinals (0 = the thread's first `Step::Op`, 1 = its second, …) of this thread's earlier ops
/// whose replies flow into this op's address or value (data and address dependencies) or decided
/// a branch or guard evaluated before it (control dependencies).
///
/// A fixed-size set (`Copy`, no allocation): ordinals below [`Deps::EXACT`] are kept exactly;
/// ordinals at or above it are over-approximated — once the set holds one of them it holds every
/// ordinal from `EXACT` up to the largest one inserted. Over-approximating a dependency set only
/// adds ordering that No Thin Air (§8.10.4) must respect: it can remove executions of a thread
/// that issues more than `EXACT` ops, never add one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Deps {
    bits: [u64; 2],
    /// 0: no ordinal ≥ `EXACT`; otherwise every ordinal in `EXACT..tail` is in the set.
    tail: u32,
}

impl Deps {
    /// Ordinals below this are exact.
    pub const EXACT: u32 = 128;
    /// The empty set.
    pub const NONE: Deps = Deps {
        bits: [0; 2],
        tail: 0,
    };

    /// The set `{o}`.
    pub fn one(o: u32) -> Deps {
        let mut d = Deps::NONE;
        d.insert(o);
        d
    }

    /// Adds ordinal `o`.
    pub fn insert(&mut self, o: u32) {
        if o < Self::EXACT {
            self.bits[(o / 64) as usize] |= 1 << (o % 64);
        } else {
            self.tail = self.tail.max(o.saturating_add(1));
        }
    }

    /// Adds every ordinal of `other`.
    pub fn union(&mut self, other: &Deps) {
        self.bits[0] |= other.bits[0];
        self.bits[1] |= other.bits[1];
        self.tail = self.tail.max(other.tail);
    }

    /// Whether `o` is in the set.
    pub fn contains(&self, o: u32) -> bool {
        if o < Self::EXACT {
            self.bits[(o / 64) as usize] >> (o % 64) & 1 == 1
        } else {
            o < self.tail
        }
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.bits == [0; 2] && self.tail == 0
    }

    /// Number of ordinals in the set.
    pub fn len(&self) -> usize {
        (self.bits[0].count_ones() + self.bits[1].count_ones()) as usize
            + self.tail.saturating_sub(Self::EXACT) as usize
    }

    /// The ordinals, ascending.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..Self::EXACT)
            .filter(|&o| self.contains(o))
            .chain(Self::EXACT..self.tail.max(Self::EXACT))
    }

    /// The ordinals, ascending, as a vector.
    pub fn to_vec(&self) -> Vec<u32> {
        self.iter().collect()
    }
}

impl FromIterator<u32> for Deps {
    fn from_iter<I: IntoIterator<Item = u32>>(it: I) -> Self {
        let mut d = Deps::NONE;
        for o in it {
            d.insert(o);
        }
        d
    }
}

/// What a thread does next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// It needs the engine for this instruction; the engine calls [`Program::resume`] with the
    /// reply before the next [`Program::step`].
    Op(Op, At, Deps),
    /// It just took a backward branch to the instruction at `head` (a loop head): the engine may
    /// compare [`Program::fingerprint`]s to detect an iteration that changed nothing.
    LoopHead {
        /// Instruction index of the loop head.
        head: usize,
        /// Source position of the branch (of the head's line, on entry).
        at: At,
        /// Reached by entering the loop (falling or jumping forward into its head), not by its
        /// backward branch: reported only by programs that ask for it
        /// (`Code::entry_heads`), so that the state before the first iteration is compared too.
        entry: bool,
    },
    /// It finished (`ret`/`exit`, or the end of its code).
    Done,
    /// A loop ran past the unroll bound (the path is cut: the verdict is `bounded`).
    Cut(At),
    /// `trap` (or `brkpt`): a failed assertion.
    Trap(At),
    /// Something this checker does not model, or an ISA-illegal operand at run time
    /// (`unsupported: <what>`).
    Unsupported(String, At),
}

/// A thread's interpreter. Deterministic: the same replies give the same steps.
pub trait Program: Clone {
    /// Runs local instructions until the next event.
    fn step(&mut self) -> Step;
    /// Gives the reply to the last `Step::Op`.
    fn resume(&mut self, reply: Reply);
    /// A hash of the thread's local state (pc, registers, predicates): two equal fingerprints at
    /// the same loop head mean the iteration in between changed nothing.
    fn fingerprint(&self) -> u64;
    /// The value of register `r` (the front end's numbering; predicates are 0/1), for the final
    /// condition.
    fn reg(&self, r: usize) -> Val;
    /// Whether the thread may still perform a write (a store, an atomic, an mbarrier update, an
    /// async copy) from where it is, on any path. The engine lets a load wait for a write that is
    /// not there yet only if some thread may still make one; `true` is always safe.
    fn may_write(&self) -> bool {
        true
    }
    /// Whether the thread may still perform a write that `hit` cannot rule out: the program
    /// calls `hit(space, address, bytes, every_cta)` for each write it may still perform whose
    /// address it already knows (`u64::MAX` bytes: an unknown length from that address;
    /// `every_cta`: the same offsets in every CTA's copy, a multicast), and with `None` for a
    /// write whose address it does not know yet (any location of that state space; a generic
    /// one: any location at all). The engine asks it with `hit`
    /// = "may overlap the location this read waits on", so that a read waits for a later
    /// write only if one of that location may still come. The default, [`Program::may_write`],
    /// is always safe.
    fn may_write_to(&self, _hit: &mut dyn FnMut(Space, Option<Val>, u64, bool) -> bool) -> bool {
        self.may_write()
    }
    /// Whether the thread may still take a backward branch from where it is (it is in a loop, or
    /// a loop follows). A load left waiting for ever outside any loop is not a hang but an
    /// execution that does not exist; `true` is always safe.
    fn may_loop(&self) -> bool {
        true
    }
    /// Whether the instruction at source line `line` lies in a loop of the program (some
    /// backward branch may run it again). A read there may be a spin's; a read outside every
    /// loop is read once. `true` is always safe.
    fn repeats(&self, _line: usize) -> bool {
        true
    }
}

/// Where a thread runs (PTX ISA §8.5 scopes; §2.2 thread hierarchy).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Place {
    /// GPU index.
    pub gpu: u32,
    /// Cluster index (unique per GPU).
    pub cluster: u32,
    /// CTA index (unique per GPU).
    pub cta: u32,
    /// Rank of the CTA in its cluster (`%cluster_ctarank`).
    pub rank: u32,
    /// Warp in the CTA (`%warpid`) — threads in one warp share `warp`.
    pub warp: u32,
    /// Lane in the warp (`%laneid`).
    pub lane: u32,
}

/// The address space of a test or launch: where each variable lives.
///
/// Numbering (the checker's own; never part of an outcome):
/// - global variable `k` starts at `GLOBAL_BASE + 256·k` (each variable on its own 256-byte line,
///   whatever its size up to 256; larger ones get more lines);
/// - a shared variable's `.shared::cta` address is `SHARED_BASE + offset` (the same number in every
///   CTA: it names the executing CTA's copy);
/// - its `.shared::cluster` address in the CTA of rank `r` is `(r + 1) << 24 | (SHARED_BASE +
///   offset)`; a `.shared::cta` address is also a valid `.shared::cluster` address of the executing
///   CTA (PTX ISA §5.1.5.1);
/// - generic addresses: global addresses as they are; shared memory of rank `r` at
///   `GENERIC_SHARED + ((r + 1) << 24 | (SHARED_BASE + offset))`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// Variables, in declaration order.
    pub vars: Vec<Var>,
    /// Tensor maps (FORMAT part 2 `t @ tensormap x, …`): each is named by the address of its own
    /// 128-byte global variable (`var`), as a `CUtensorMap` is by its address.
    pub tmaps: Vec<TensorMap>,
}

/// A tiled tensor map over a global array (PTX ISA §5.5 "Tensors", tile mode), row-major:
/// element `(c0, c1)` is at byte `(c1 * dims[0] + c0) * elem` of the array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorMap {
    /// The variable whose address names the map (128 bytes, global).
    pub var: usize,
    /// The global array the map describes.
    pub data: usize,
    /// Element size in bytes.
    pub elem: u8,
    /// Tensor size in elements per dimension (innermost first); 1 or 2 dimensions.
    pub dims: Vec<u32>,
    /// Box size in elements per dimension (what one copy moves).
    pub boxdim: Vec<u32>,
}

/// One variable of a [`Layout`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Var {
    /// Its name.
    pub name: String,
    /// `.shared` (one copy per CTA) or global.
    pub shared: bool,
    /// Size in bytes.
    pub size: u32,
    /// Initial bytes (`size` of them); a shared variable's are every CTA's.
    pub init: Vec<u8>,
    /// Start: global address, or `.shared::cta` address.
    pub base: Val,
    /// `y @ generic aliases x` (PTX ISA §8.2.2): this variable is another virtual address of
    /// variable `x`'s memory (its own `size`/`init` are ignored).
    pub alias_of: Option<usize>,
}

/// First global address.
pub const GLOBAL_BASE: Val = 0x1_0000_0000;
/// First `.shared::cta` address.
pub const SHARED_BASE: Val = 0x400;
/// Start of the shared window in generic addresses.
pub const GENERIC_SHARED: Val = 0x7f00_0000_0000;
/// Start of the local window: a thread's `.local` memory (private to the thread, kept by its
/// interpreter, never an op) has its `.local` and generic addresses here (`cvta.local` is the
/// identity).
pub const GENERIC_LOCAL: Val = 0x7e00_0000_0000;
/// Bits of a `.shared::cluster` address below the rank.
pub const RANK_SHIFT: u32 = 24;

/// A resolved address: which variable, whose copy, which byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loc {
    /// Index in [`Layout::vars`] of the memory (the aliased variable for an alias).
    pub var: u32,
    /// Index of the variable whose address was used (differs from `var` for an alias: PTX ISA
    /// §8.6 treats distinct virtual addresses as different proxies).
    pub vaddr: u32,
    /// For a shared variable, the CTA rank (in the accessing thread's cluster) of the copy.
    pub rank: Option<u32>,
    /// Byte offset in the variable.
    pub off: u32,
}

/// Why an address does not resolve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AddrError {
    /// No variable there (or the access runs past its end).
    Outside(Val),
    /// The space named does not contain the address.
    WrongSpace(Space, Val),
    /// Shared memory of a rank that is not in the cluster.
    NoSuchRank(u32),
}

impl Layout {
    /// Adds a variable and gives it its address (see the type's docs).
    pub fn add(&mut self, name: &str, shared: bool, size: u32, init: Vec<u8>) -> usize {
        let lines = |v: &Var| v.size.div_ceil(256).max(1) as Val;
        let base = if shared {
            SHARED_BASE
                + self
                    .vars
                    .iter()
                    .filter(|v| v.shared)
                    .map(|v| 256 * lines(v))
                    .sum::<Val>()
        } else {
            GLOBAL_BASE
                + self
                    .vars
                    .iter()
                    .filter(|v| !v.shared)
                    .map(|v| 256 * lines(v))
                    .sum::<Val>()
        };
        let mut init = init;
        init.resize(size as usize, 0);
        self.vars.push(Var {
            name: name.to_string(),
            shared,
            size,
            init,
            base,
            alias_of: None,
        });
        self.vars.len() - 1
    }

    /// Adds `name` as a virtual alias of variable `of` (a global address range of its own that
    /// maps to `of`'s memory).
    pub fn add_alias(&mut self, name: &str, of: usize) -> usize {
        let (shared, size) = (self.vars[of].shared, self.vars[of].size);
        let v = self.add(name, shared, size, vec![]);
        self.vars[v].alias_of = Some(of);
        v
    }

    /// The tensor map whose object is at generic/global address `addr`.
    pub fn tmap_at(&self, addr: Val) -> Option<&TensorMap> {
        self.tmaps
            .iter()
            .find(|t| self.vars.get(t.var).is_some_and(|v| v.base == addr))
    }

    /// The variable named `name`.
    pub fn var(&self, name: &str) -> Option<usize> {
        self.vars.iter().position(|v| v.name == name)
    }

    /// The address `mov` gives for a variable: global → its generic (= global) address;
    /// shared → its `.shared::cta` address.
    pub fn addr_of(&self, var: usize) -> Val {
        self.vars[var].base
    }

    /// `cvta.shared::cta` (to generic) for a thread of rank `rank`.
    pub fn cvta_shared_to_generic(addr: Val, rank: u32) -> Val {
        if addr >> RANK_SHIFT == 0 {
            GENERIC_SHARED + ((rank as Val + 1) << RANK_SHIFT | addr)
        } else {
            GENERIC_SHARED + addr
        }
    }

    /// `cvta.to.shared::cta` (from generic); `None` if not a shared-window address.
    pub fn cvta_generic_to_shared(addr: Val) -> Option<Val> {
        let a = addr.checked_sub(GENERIC_SHARED)?;
        if a >> 32 != 0 {
            return None;
        }
        Some(a & ((1 << RANK_SHIFT) - 1))
    }

    /// `mapa.shared::cluster` of a `.shared::cta`/`.shared::cluster` address to rank `target`.
    pub fn mapa_shared(addr: Val, target: u32) -> Val {
        ((target as Val + 1) << RANK_SHIFT) | (addr & ((1 << RANK_SHIFT) - 1))
    }

    /// `mapa` of a generic address to rank `target` (global addresses are returned as they are).
    pub fn mapa_generic(addr: Val, target: u32) -> Val {
        match addr.checked_sub(GENERIC_SHARED) {
            Some(a) if a >> 32 == 0 => GENERIC_SHARED + Self::mapa_shared(a, target),
            _ => addr,
        }
    }

    /// Resolves an access of `size` bytes at `addr` in `space` by a thread of cluster rank `rank`
    /// in a cluster of `cluster_size` CTAs.
    pub fn resolve(
        &self,
        space: Space,
        addr: Val,
        size: u8,
        rank: u32,
        cluster_size: u32,
    ) -> Result<Loc, AddrError> {
        let shared = |a: Val, own_only: bool| -> Result<Loc, AddrError> {
            let r = (a >> RANK_SHIFT) as u32;
            let (target, off) = if r == 0 {
                (rank, a)
            } else if own_only && r - 1 != rank {
                return Err(AddrError::WrongSpace(space, addr));
            } else {
                (r - 1, a & ((1 << RANK_SHIFT) - 1))
            };
            if target >= cluster_size {
                return Err(AddrError::NoSuchRank(target));
            }
            self.find(true, off, size)
                .map(|(var, vaddr, o)| Loc {
                    var,
                    vaddr,
                    rank: Some(target),
                    off: o,
                })
                .ok_or(AddrError::Outside(addr))
        };
        let global = |a: Val| -> Result<Loc, AddrError> {
            self.find(false, a, size)
                .map(|(var, vaddr, o)| Loc {
                    var,
                    vaddr,
                    rank: None,
                    off: o,
                })
                .ok_or(AddrError::Outside(addr))
        };
        match space {
            Space::Global => global(addr),
            Space::SharedCta => {
                if addr >> 32 != 0 {
                    return Err(AddrError::WrongSpace(space, addr));
                }
                shared(addr, true)
            }
            Space::SharedCluster => {
                if addr >> 32 != 0 {
                    return Err(AddrError::WrongSpace(space, addr));
                }
                shared(addr, false)
            }
            Space::Generic => match Self::cvta_generic_to_shared_cluster(addr) {
                Some(a) => shared(a, false),
                None => global(addr),
            },
        }
    }

    fn cvta_generic_to_shared_cluster(addr: Val) -> Option<Val> {
        let a = addr.checked_sub(GENERIC_SHARED)?;
        (a >> 32 == 0).then_some(a)
    }

    /// (physical variable, virtual variable, offset) of an access.
    fn find(&self, shared: bool, addr: Val, size: u8) -> Option<(u32, u32, u32)> {
        self.vars.iter().enumerate().find_map(|(i, v)| {
            if v.shared != shared || addr < v.base {
                return None;
            }
            let off = addr - v.base;
            let phys = v.alias_of.unwrap_or(i);
            (off + size as Val <= self.vars[phys].size as Val).then_some((
                phys as u32,
                i as u32,
                off as u32,
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_resolve_to_their_variables_and_copies() {
        let mut l = Layout::default();
        let x = l.add("x", false, 8, vec![]);
        let s = l.add("s", true, 16, vec![]);
        let gx = l.addr_of(x);
        assert_eq!(
            l.resolve(Space::Generic, gx + 4, 4, 0, 1),
            Ok(Loc {
                var: 0,
                vaddr: 0,
                rank: None,
                off: 4
            })
        );
        assert_eq!(
            l.resolve(Space::Global, gx + 8, 4, 0, 1),
            Err(AddrError::Outside(gx + 8))
        );
        let sa = l.addr_of(s);
        // A .shared::cta address names the executing CTA's copy.
        assert_eq!(
            l.resolve(Space::SharedCta, sa, 8, 1, 2).unwrap().rank,
            Some(1)
        );
        // mapa to rank 0, then used with .shared::cluster by rank 1: rank 0's copy.
        let remote = Layout::mapa_shared(sa, 0);
        assert_eq!(
            l.resolve(Space::SharedCluster, remote + 8, 8, 1, 2),
            Ok(Loc {
                var: 1,
                vaddr: 1,
                rank: Some(0),
                off: 8
            })
        );
        // A remote address is not a .shared::cta address.
        assert!(matches!(
            l.resolve(Space::SharedCta, remote, 4, 1, 2),
            Err(AddrError::WrongSpace(..))
        ));
        // Rank 2 is outside a cluster of 2.
        assert_eq!(
            l.resolve(Space::SharedCluster, Layout::mapa_shared(sa, 2), 4, 0, 2),
            Err(AddrError::NoSuchRank(2))
        );
        // Generic round trip through cvta.
        let g = Layout::cvta_shared_to_generic(sa, 1);
        assert_eq!(Layout::cvta_generic_to_shared(g), Some(sa));
        assert_eq!(l.resolve(Space::Generic, g, 4, 1, 2).unwrap().rank, Some(1));
        assert_eq!(
            l.resolve(Space::Generic, Layout::mapa_generic(g, 0), 4, 1, 2)
                .unwrap()
                .rank,
            Some(0)
        );
        // An alias is another address of the same memory.
        let y = l.add_alias("y", x);
        let loc = l
            .resolve(Space::Generic, l.addr_of(y) + 4, 4, 0, 1)
            .unwrap();
        assert_eq!((loc.var, loc.vaddr, loc.off), (0, y as u32, 4));
    }
}
