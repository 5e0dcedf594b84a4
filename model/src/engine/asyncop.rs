//! Asynchronous operations as threads of their own (PTX ISA §8.9.1.1; `model/SEMANTICS.md` S3).
//!
//! An async copy reads its source pieces, writes its destination pieces (or reduces into them),
//! then — when it completes on an mbarrier — performs the implicit generic-async proxy fence of
//! §9.7.9.25.2 and the complete-tx (release, `.cluster`). `cp.async.mbarrier.arrive` is an async
//! operation that first waits for the thread's prior `cp.async` operations, then arrives.

use super::op::{
    Access, At, Completion, Copy, Deps, MbarOp, Op, Order, Program, ProxyFence, Reply, Rmw, Space,
    Step, Val,
};
use crate::ast::{Proxy, Scope, Sem};

/// What an async thread does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AsyncKind {
    /// A copy: its pieces, then completion.
    Copy(Copy),
    /// The arrive-on of `cp.async.mbarrier.arrive` (after its join, done by the engine).
    Arrive {
        /// The mbarrier.
        space: Space,
        /// Its address.
        addr: Val,
    },
}

/// The async thread's program.
#[derive(Clone, Debug)]
pub struct AsyncProg {
    kind: AsyncKind,
    at: At,
    /// Position: 2·piece (+1 for the write half), then the completion steps.
    pos: usize,
    /// The value the last read returned.
    last: Val,
    /// Op ordinal counter (for dependencies).
    ord: u32,
    /// Ordinal of the last read (the write depends on it).
    last_read: u32,
    /// The values source-less pieces write, one per piece (st.async/red.async); zero fill
    /// otherwise.
    values: Option<Vec<Val>>,
}

impl AsyncProg {
    /// A new async operation.
    pub fn new(kind: AsyncKind, at: At) -> Self {
        AsyncProg {
            kind,
            at,
            pos: 0,
            last: 0,
            ord: 0,
            last_read: 0,
            values: None,
        }
    }
    /// Sets the value the next write stores (st.async: the value comes with the instruction).
    pub fn preset(&mut self, v: Vec<Val>) {
        self.values = Some(v);
    }
    /// The operation.
    pub fn kind(&self) -> &AsyncKind {
        &self.kind
    }
    fn emit(&mut self, op: Op, deps: Deps) -> Step {
        self.ord += 1;
        Step::Op(op, self.at.clone(), deps)
    }
}

fn weak(space: Space, addr: Val, size: u8, proxy: Proxy) -> Access {
    Access {
        space,
        addr,
        size,
        proxy,
        order: Order::WEAK,
    }
}

impl Program for AsyncProg {
    fn step(&mut self) -> Step {
        match self.kind.clone() {
            AsyncKind::Arrive { space, addr } => match self.pos {
                0 => {
                    self.pos = 1;
                    self.emit(
                        Op::Mbar {
                            space,
                            addr,
                            op: MbarOp::Arrive {
                                count: 1,
                                expect_tx: None,
                                no_complete: false,
                                drop: false,
                            },
                            sem: Sem::Release,
                            scope: Scope::Cta,
                        },
                        Deps::NONE,
                    )
                }
                _ => Step::Done,
            },
            AsyncKind::Copy(c) => {
                let n = c.moves.len();
                if self.pos < 2 * n {
                    let m = c.moves[self.pos / 2];
                    let read_half = self.pos.is_multiple_of(2);
                    self.pos += 1;
                    if read_half {
                        match m.src {
                            Some((s, a)) => {
                                self.last_read = self.ord;
                                self.emit(Op::Load(weak(s, a, m.size, c.proxy)), Deps::NONE)
                            }
                            None => {
                                let k = (self.pos - 1) / 2;
                                self.last = self
                                    .values
                                    .as_ref()
                                    .and_then(|v| v.get(k).copied())
                                    .unwrap_or(0);
                                self.step()
                            }
                        }
                    } else {
                        let Some((s, a)) = m.dst else {
                            return self.step();
                        };
                        let deps = if m.src.is_some() {
                            Deps::one(self.last_read)
                        } else {
                            Deps::NONE
                        };
                        let acc = weak(s, a, m.size, c.proxy);
                        match c.reduce {
                            Some(r) => {
                                let rmw = Rmw {
                                    a: self.last,
                                    returns: false,
                                    ..r
                                };
                                let acc = Access {
                                    order: Order {
                                        sem: Sem::Relaxed,
                                        scope: Some(Scope::Gpu),
                                    },
                                    ..acc
                                };
                                self.emit(Op::Rmw(acc, rmw), deps)
                            }
                            None => self.emit(Op::Store(acc, self.last), deps),
                        }
                    }
                } else {
                    let k = self.pos - 2 * n;
                    self.pos += 1;
                    match (c.completion, k) {
                        (Completion::Mbarrier(..), 0) => {
                            self.emit(Op::ProxyFence(ProxyFence::Async(None)), Deps::NONE)
                        }
                        (Completion::Mbarrier(space, addr), 1) => self.emit(
                            Op::Mbar {
                                space,
                                addr,
                                op: MbarOp::CompleteTx(c.tx_bytes),
                                sem: Sem::Release,
                                scope: Scope::Cluster,
                            },
                            Deps::NONE,
                        ),
                        (Completion::BulkGroup | Completion::AsyncGroup, 0) => {
                            // The implicit proxy fence precedes the group's completion.
                            if c.proxy == Proxy::Async {
                                self.emit(Op::ProxyFence(ProxyFence::Async(None)), Deps::NONE)
                            } else {
                                Step::Done
                            }
                        }
                        _ => Step::Done,
                    }
                }
            }
        }
    }

    fn resume(&mut self, reply: Reply) {
        if let Reply::Value(v) = reply {
            self.last = v;
        }
    }

    fn fingerprint(&self) -> u64 {
        self.pos as u64
    }

    fn may_write_to(&self, hit: &mut dyn FnMut(Space, Option<Val>, u64, bool) -> bool) -> bool {
        match &self.kind {
            AsyncKind::Arrive { space, addr } => {
                self.pos == 0 && hit(*space, Some(*addr), 8, false)
            }
            AsyncKind::Copy(c) => {
                let n = c.moves.len();
                // `pos` counts the steps already taken, the engine's pending one included: the
                // moves whose write half is pending or to come start at `(pos - 1) / 2`.
                let moves = c
                    .moves
                    .iter()
                    .skip(self.pos.saturating_sub(1).min(2 * n) / 2);
                for m in moves {
                    if let Some((s, a)) = m.dst {
                        if hit(s, Some(a), m.size as u64, false) {
                            return true;
                        }
                    }
                }
                match c.completion {
                    Completion::Mbarrier(space, addr) if self.pos <= 2 * n + 2 => {
                        hit(space, Some(addr), 8, false)
                    }
                    _ => false,
                }
            }
        }
    }

    fn reg(&self, _r: usize) -> Val {
        0
    }
}
