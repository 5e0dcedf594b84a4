//! Execution graphs: the events of one (partial) execution and their relations.

use super::mbar::MbarState;
use super::op::{At, Order, Place, ProxyFence, Restrict, Rmw, Space};
use crate::ast::{BarKind, FenceSem, Proxy, Scope, Sem};

/// Index of an event in [`Graph::ev`].
pub type EvId = usize;

/// A physical memory location's key: (variable, CTA that owns the copy or `u32::MAX` for global
/// memory). Bytes are addressed by offset inside the variable.
pub type LocKey = (u32, u32);

/// A value held by a location: plain bits, or an mbarrier object's state (PTX ISA §9.7.13.15.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Little-endian bits of the access's size.
    Bits(u64),
    /// The state of an mbarrier object.
    Mbar(MbarState),
}

impl Value {
    /// The byte at `i` of a plain value (an mbarrier state reads as zero bytes).
    pub fn byte(&self, i: u32) -> u8 {
        match self {
            Value::Bits(v) => (v >> (8 * i)) as u8,
            Value::Mbar(_) => 0,
        }
    }
}

/// Where a read takes (some of) its bytes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Src {
    /// The initial write W0 (PTX ISA §8.2.6).
    Init,
    /// A write event.
    Ev(EvId),
}

/// Bytes `lo..hi` (relative to the access's offset) of a read come from `src`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// First byte.
    pub lo: u8,
    /// One past the last byte.
    pub hi: u8,
    /// The write.
    pub src: Src,
}

/// What an mbarrier operation does to the object's state (see `mbar.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MbarAct {
    /// `mbarrier.init` (a weak write).
    Init(u64),
    /// `mbarrier.inval` (a weak write).
    Inval,
    /// An arrive-on (count), after an optional expect-tx (txCount); `drop` lowers the expected
    /// count; `no_complete` must not complete the phase.
    Arrive {
        /// Arrival count.
        count: u64,
        /// expect-tx before the arrive.
        expect_tx: Option<u64>,
        /// `arrive_drop`
        drop: bool,
        /// `.noComplete`
        no_complete: bool,
    },
    /// `mbarrier.expect_tx` (signed: `cp.async.mbarrier.arrive` without `.noinc` uses
    /// `PendingInc`).
    ExpectTx(u64),
    /// complete-tx (threads and async copies).
    CompleteTx(u64),
    /// The pending-count increment of `cp.async.mbarrier.arrive` without `.noinc`.
    PendingInc,
    /// `test_wait`/`try_wait` on a token's phase.
    WaitState(u64),
    /// `test_wait`/`try_wait.parity`.
    WaitParity(u64),
}

/// A memory access event (a read, a write, or both for an RMW).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mem {
    /// Physical location.
    pub key: LocKey,
    /// Byte offset in the variable.
    pub off: u32,
    /// Size in bytes.
    pub size: u8,
    /// The variable whose address was used (aliases differ, PTX ISA §8.6).
    pub vaddr: u32,
    /// Shared memory (else global).
    pub shared: bool,
    /// The proxy of the access.
    pub proxy: Proxy,
    /// Weak, or strong with sem and scope.
    pub order: Order,
    /// Reads memory.
    pub read: bool,
    /// Writes memory.
    pub write: bool,
    /// An atomic operation (`atom`, `red`, mbarrier RMWs).
    pub atomic: bool,
    /// A `red` (its read is never part of an acquire pattern, PTX ISA §8.8).
    pub red: bool,
    /// The RMW that computes the written value from the read one.
    pub rmw: Option<Rmw>,
    /// The mbarrier action, for operations on mbarrier objects.
    pub mbar: Option<MbarAct>,
    /// The value written (`None` while an RMW's read is pending).
    pub wval: Option<Value>,
    /// Where the read's bytes come from (`None`: a pending read).
    pub rf: Option<Vec<Piece>>,
    /// The value read.
    pub rval: Option<Value>,
}

impl Mem {
    /// An access of `size` bytes at `off` of location `key` (through variable `vaddr`), neither
    /// read nor write yet, not atomic, with nothing read or written.
    #[allow(clippy::too_many_arguments)]
    pub fn access(
        key: LocKey,
        off: u32,
        size: u8,
        vaddr: u32,
        shared: bool,
        proxy: Proxy,
        order: Order,
    ) -> Mem {
        Mem {
            key,
            off,
            size,
            vaddr,
            shared,
            proxy,
            order,
            read: false,
            write: false,
            atomic: false,
            red: false,
            rmw: None,
            mbar: None,
            wval: None,
            rf: None,
            rval: None,
        }
    }
    /// Whether two accesses share a byte.
    pub fn overlaps(&self, o: &Mem) -> bool {
        self.key == o.key && self.off < o.off + o.size as u32 && o.off < self.off + self.size as u32
    }
    /// Whether two accesses cover exactly the same bytes.
    pub fn same_bytes(&self, o: &Mem) -> bool {
        self.key == o.key && self.off == o.off && self.size == o.size
    }
    /// Strong (PTX ISA §8.4).
    pub fn strong(&self) -> bool {
        self.order.scope.is_some()
    }
}

/// What an event is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A memory access.
    Mem(Mem),
    /// `fence.sem.scope` (membar is `Sc`), with an optional restriction.
    Fence(FenceSem, Scope, Option<Restrict>),
    /// A proxy fence; `implicit` for the generic-async fence that follows an async copy's
    /// completion (PTX ISA §9.7.9.25.2).
    ProxyFence(ProxyFence),
    /// A CTA barrier arrival (with its wait when `kind.waits()`), in generation `gen` of barrier
    /// `(cta, id)` once it joined one.
    Bar {
        /// sync / arrive / red.
        kind: BarKind,
        /// The barrier's CTA.
        cta: u32,
        /// Barrier number.
        id: u32,
        /// The thread count it named (`None`: all threads of the CTA).
        count: Option<u64>,
        /// `bar.red`'s predicate.
        pred: bool,
        /// Generation.
        gen: u32,
    },
    /// The wait half of a `bar.sync`/`bar.red`: added when its generation completes; every
    /// arrival of the generation synchronizes with it (§8.9.4).
    BarWait {
        /// The barrier's CTA.
        cta: u32,
        /// Barrier number.
        id: u32,
        /// Generation.
        gen: u32,
    },
    /// `barrier.cluster.arrive` (phase `phase` of the cluster's barrier).
    ClusterArrive {
        /// `.relaxed`
        relaxed: bool,
        /// Cluster.
        cluster: u32,
        /// Phase.
        phase: u32,
    },
    /// `barrier.cluster.wait`.
    ClusterWait {
        /// Cluster.
        cluster: u32,
        /// Phase.
        phase: u32,
    },
    /// The issue of an asynchronous operation run by thread `child`.
    Issue {
        /// The async operation's thread.
        child: usize,
    },
    /// `cp.async.wait_*`, `cp.async.bulk.wait_group`, the join point of `cp.async.mbarrier.arrive`:
    /// preceded by the listed events (each async operation's last event, or its last read).
    Join {
        /// Events that precede it in base causality order.
        after: Vec<EvId>,
    },
    /// A warp collective (`bar.warp.sync` synchronizes like a barrier).
    Warp {
        /// Warp instance: (CTA, warp, sequence number).
        key: (u32, u32, u32),
        /// `bar.warp.sync` (a memory-ordering barrier among the lanes).
        sync: bool,
    },
    /// A clock read (no memory effect).
    Clock,
}

/// One event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// Thread (async operations are threads of their own).
    pub thread: usize,
    /// Position in the thread's program order.
    pub ord: u32,
    /// Where the thread runs.
    pub place: Place,
    /// What it is.
    pub kind: Kind,
    /// Source position.
    pub at: At,
}

impl Event {
    /// The memory access, if this is one.
    pub fn mem(&self) -> Option<&Mem> {
        match &self.kind {
            Kind::Mem(m) => Some(m),
            _ => None,
        }
    }
    /// The memory access, mutably.
    pub fn mem_mut(&mut self) -> Option<&mut Mem> {
        match &mut self.kind {
            Kind::Mem(m) => Some(m),
            _ => None,
        }
    }
    /// A read (load, atom, wait) whose value has been chosen.
    pub fn is_read(&self) -> bool {
        self.mem().is_some_and(|m| m.read)
    }
    /// A write.
    pub fn is_write(&self) -> bool {
        self.mem().is_some_and(|m| m.write)
    }
    /// Its scope, if strong (memory operations and fences).
    pub fn scope(&self) -> Option<Scope> {
        match &self.kind {
            Kind::Mem(m) => m.order.scope,
            Kind::Fence(_, s, _) => Some(*s),
            _ => None,
        }
    }
    /// Its memory semantics (fences map to theirs).
    pub fn sem(&self) -> Sem {
        match &self.kind {
            Kind::Mem(m) => m.order.sem,
            _ => Sem::Weak,
        }
    }
}

/// Whether scope `s` of a thread at `a` includes a thread at `b` (PTX ISA §8.5).
pub fn includes(s: Scope, a: &Place, b: &Place) -> bool {
    match s {
        Scope::Sys => true,
        Scope::Gpu => a.gpu == b.gpu,
        Scope::Cluster => a.gpu == b.gpu && a.cluster == b.cluster,
        Scope::Cta => a.gpu == b.gpu && a.cta == b.cta,
    }
}

/// Whether `space` of a proxy fence executed at `f` covers an access to `m`'s memory.
pub fn fence_covers(
    space: Option<Space>,
    f: &Place,
    m: &Mem,
    cluster_of: impl Fn(u32) -> u32,
) -> bool {
    match space {
        None | Some(Space::Generic) => true,
        Some(Space::Global) => !m.shared,
        Some(Space::SharedCta) => m.shared && m.key.1 == f.cta,
        Some(Space::SharedCluster) => m.shared && cluster_of(m.key.1) == f.cluster,
    }
}

/// A value shared between partial executions until one of them changes it (copy on write):
/// the search clones a whole state at every choice, and most of it (a kernel thread's hundreds
/// of registers, the events and program-order lists of the graph) does not change between two
/// choices.
#[derive(Debug, Default)]
pub struct Shared<T>(std::rc::Rc<T>);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<T> Shared<T> {
    /// Shares `t`.
    pub fn new(t: T) -> Self {
        Shared(std::rc::Rc::new(t))
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Clone> std::ops::DerefMut for Shared<T> {
    fn deref_mut(&mut self) -> &mut T {
        std::rc::Rc::make_mut(&mut self.0)
    }
}

/// The events of an execution, with each thread's events in program order.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    /// All events, in the order they were added.
    pub ev: Vec<Shared<Event>>,
    /// Per thread, its events sorted by `ord`.
    pub po: Vec<Shared<Vec<EvId>>>,
    /// Synchronizes-with edges that do not come from patterns or Fence-SC (barriers, cluster
    /// barriers, async joins, warp syncs), as (from, to).
    pub sync: Shared<Vec<(EvId, EvId)>>,
    /// Async operations: (the issuing event, the operation's thread).
    pub issued: Vec<(EvId, usize)>,
    /// Edges that order only their source event before the target (and what follows the
    /// target), not what precedes the source: the effect of restricted fences (§9.7.13.4
    /// `.op_restrict`, `.sync_restrict`). Not part of base causality order.
    pub narrow: Vec<(EvId, EvId)>,
    /// Issue events whose async operation is ordered only after the issuing thread's prior
    /// operations on the mbarrier object (`cp.async.mbarrier.arrive`).
    pub mbar_issues: Vec<EvId>,
}

impl Graph {
    /// Adds an event; returns its id.
    pub fn add(&mut self, e: Event) -> EvId {
        let id = self.ev.len();
        let t = e.thread;
        if self.po.len() <= t {
            self.po.resize(t + 1, Shared::default());
        }
        let ord = e.ord;
        let list = &mut self.po[t];
        let pos = list
            .iter()
            .rposition(|&x| self.ev[x].ord < ord)
            .map_or(0, |p| p + 1);
        list.insert(pos, id);
        self.ev.push(Shared::new(e));
        id
    }

    /// Whether `a` precedes `b` in program order.
    pub fn po_before(&self, a: EvId, b: EvId) -> bool {
        let (x, y) = (&self.ev[a], &self.ev[b]);
        x.thread == y.thread && x.ord < y.ord
    }

    /// The value `r` read, assembled from its pieces (mbarrier states come whole).
    pub fn read_value(&self, r: EvId, init: &dyn Fn(LocKey, u32) -> u8) -> Option<Value> {
        let m = self.ev[r].mem()?;
        let pieces = m.rf.as_ref()?;
        if let [p] = pieces.as_slice() {
            if let Src::Ev(w) = p.src {
                let wm = self.ev[w].mem()?;
                if let Some(Value::Mbar(s)) = wm.wval {
                    return Some(Value::Mbar(s));
                }
            }
        }
        let mut v: u64 = 0;
        for p in pieces {
            for b in p.lo..p.hi {
                let addr = m.off + b as u32;
                let byte = match p.src {
                    Src::Init => init(m.key, addr),
                    Src::Ev(w) => {
                        let wm = self.ev[w].mem()?;
                        wm.wval?.byte(addr - wm.off)
                    }
                };
                v |= (byte as u64) << (8 * b);
            }
        }
        Some(Value::Bits(v))
    }
}
