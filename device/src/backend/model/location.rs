//! Strong locations (a loom atomic of store indices and the store log) and scoped fences.

#[allow(unused_imports)]
use super::*;

// ---------------------------------------------------------------------------------------------
// Strong locations: loom atomic of store indices + the store log
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
pub(super) struct Entry<T> {
    pub(super) value: T,
    /// Release heads this store carries (the writer's fences before it; inherited along
    /// read-modify-write chains).
    pub(super) heads: Vec<Head>,
    /// Threads whose loom-native release clock this store carries.
    pub(super) native: Vec<Who>,
}

/// One strong location under loom: a loom `AtomicUsize` holding the index of the store it
/// currently holds (loom explores which store each load returns), the stores' values and what
/// they carry, and the access history of the scope check.
#[doc(hidden)]
pub struct Location<T> {
    ix: loom::sync::atomic::AtomicUsize,
    log: Mutex<Vec<Entry<T>>>,
    hist: History,
}

impl<T> core::fmt::Debug for Location<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Location")
    }
}

pub(super) fn is_acquire(o: Ordering) -> bool {
    matches!(o, Ordering::Acquire | Ordering::AcqRel | Ordering::SeqCst)
}
pub(super) fn is_release(o: Ordering) -> bool {
    matches!(o, Ordering::Release | Ordering::AcqRel | Ordering::SeqCst)
}

/// What a store by the calling thread carries.
pub(super) fn own_carry(o: Ordering) -> (Vec<Head>, Vec<Who>) {
    let me = who();
    with_ts(|t| {
        let mut heads: Vec<Head> = Vec::new();
        for h in t.fences.iter().flatten() {
            if !heads.iter().any(|x| x.cell == h.cell) {
                heads.push(*h);
            }
        }
        let native = if is_release(o) || t.native_release {
            std::vec![me]
        } else {
            Vec::new()
        };
        (heads, native)
    })
}

/// After a strong read of a store carrying `heads`/`native`: an acquire read joins the heads it
/// synchronizes with (PTX ISA §8.9.4: the fence heading the release pattern and this read are
/// morally strong); a non-acquire strong read remembers them for a later acquire fence.
pub(super) fn after_read(level: i8, acquire: bool, heads: &[Head], native: &[Who]) {
    if level < 0 {
        return; // a weak read takes part in no pattern
    }
    let me = who();
    let level = level as u8;
    if acquire {
        let todo: Vec<usize> = heads
            .iter()
            .filter(|h| {
                !h.universal && h.who.thread != me.thread && h.level.min(level) >= dist(h.who, me)
            })
            .map(|h| h.cell)
            .collect();
        if !todo.is_empty() {
            let c = cells();
            for x in todo {
                join(&c, x);
            }
        }
    }
    // Every strong read may also start an acquire pattern with a later fence ("a strong read on
    // M followed by a fence", §8.8).
    with_ts(|t| {
        for h in heads {
            if h.who.thread != me.thread && !t.observed.iter().any(|x| x.cell == h.cell) {
                t.observed.push(*h);
            }
        }
        if !acquire {
            for w in native {
                t.native_far = t.native_far.max(dist(*w, me));
            }
        }
    });
}

impl<T: Copy + Default> Location<T> {
    /// A location holding `v`.
    pub fn new(v: T) -> Self {
        touch();
        Location {
            ix: loom::sync::atomic::AtomicUsize::new(0),
            log: Mutex::new(std::vec![Entry {
                value: v,
                heads: Vec::new(),
                native: Vec::new(),
            }]),
            hist: History::new(),
        }
    }

    fn entry(&self, i: usize) -> Entry<T> {
        self.log.lock().unwrap_or_else(|e| e.into_inner())[i].clone()
    }

    fn push(&self, e: Entry<T>) -> usize {
        let mut l = self.log.lock().unwrap_or_else(|e| e.into_inner());
        l.push(e);
        l.len() - 1
    }

    fn set(&self, i: usize, e: Entry<T>) {
        self.log.lock().unwrap_or_else(|e| e.into_inner())[i] = e;
    }

    /// A strong load (`ld`, or a barrier's read) at effective level `level`.
    pub fn load(&self, level: i8, o: Ordering, what: &'static str) -> T {
        strong_access(&self.hist, level, false, what);
        let i = self.ix.load(o);
        let e = self.entry(i);
        after_read(level, is_acquire(o), &e.heads, &e.native);
        e.value
    }

    /// A strong store.
    pub fn store(&self, v: T, level: i8, o: Ordering, what: &'static str) {
        strong_access(&self.hist, level, true, what);
        let (heads, native) = own_carry(o);
        let j = self.push(Entry {
            value: v,
            heads,
            native,
        });
        self.ix.store(j, o);
    }

    /// A read-modify-write: one loom swap (which reads the latest store, PTX ISA §8.7.1
    /// atomicity), the new value `f(old)`. Returns the old value.
    pub fn rmw(&self, level: i8, o: Ordering, what: &'static str, f: impl FnOnce(T) -> T) -> T {
        strong_access(&self.hist, level, true, what);
        let (mut heads, mut native) = own_carry(o);
        let j = self.push(Entry {
            value: T::default(),
            heads: Vec::new(),
            native: Vec::new(),
        });
        let old = self.ix.swap(j, o);
        let prev = self.entry(old);
        for h in &prev.heads {
            if !heads.iter().any(|x| x.cell == h.cell) {
                heads.push(*h);
            }
        }
        native.extend(prev.native.iter().copied());
        self.set(
            j,
            Entry {
                value: f(prev.value),
                heads,
                native,
            },
        );
        after_read(level, is_acquire(o), &prev.heads, &prev.native);
        prev.value
    }

    /// A compare-and-swap: writes `new` if the value equals `current` (by `eq`). A failed one is
    /// a read with ordering `fail`.
    #[allow(clippy::too_many_arguments)]
    pub fn cas(
        &self,
        level: i8,
        o: Ordering,
        fail: Ordering,
        what: &'static str,
        current: T,
        new: T,
        eq: fn(T, T) -> bool,
    ) -> Result<T, T> {
        strong_access(&self.hist, level, true, what);
        loop {
            let probe = match self.ix.compare_exchange(
                usize::MAX,
                usize::MAX,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(x) | Err(x) => x,
            };
            let prev = self.entry(probe);
            if !eq(prev.value, current) {
                if !is_acquire(fail) {
                    after_read(level, false, &prev.heads, &prev.native);
                    return Err(prev.value);
                }
                match self.ix.compare_exchange(usize::MAX, usize::MAX, fail, fail) {
                    Ok(x) | Err(x) if x == probe => {
                        after_read(level, true, &prev.heads, &prev.native);
                        return Err(prev.value);
                    }
                    _ => continue,
                }
            }
            let (mut heads, mut native) = own_carry(o);
            for h in &prev.heads {
                if !heads.iter().any(|x| x.cell == h.cell) {
                    heads.push(*h);
                }
            }
            native.extend(prev.native.iter().copied());
            let j = self.push(Entry {
                value: new,
                heads,
                native,
            });
            if self.ix.compare_exchange(probe, j, o, fail).is_ok() {
                after_read(level, is_acquire(o), &prev.heads, &prev.native);
                return Ok(prev.value);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Fences
// ---------------------------------------------------------------------------------------------

/// The semantic of a fence, for [`fence`].
#[doc(hidden)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FenceKind {
    Sc,
    AcqRel,
    Acquire,
    Release,
}

/// `fence{.sem}.scope` under loom, with its scope (see the module docs, "Fences").
#[doc(hidden)]
pub fn fence(kind: FenceKind, level: u8, what: &'static str) {
    ensure_registered();
    let me = who();
    let c = cells();
    let universal = with_exec(|e| level >= e.d);
    if universal && level < 3 {
        with_exec(|e| {
            if level < e.min_native {
                e.min_native = level;
                e.min_native_what = what;
            }
        });
    }
    let acquires = kind != FenceKind::Release;
    let releases = kind != FenceKind::Acquire;
    // The acquire half runs as loom's acquire fence when it cannot synchronize with anything
    // out of scope: the fence includes every thread, or every loom release clock this thread has
    // read comes from a thread within its scope.
    let native_acq = acquires && (universal || with_ts(|t| t.native_far <= level));
    if acquires {
        with_ts(|t| t.last_acq = Some((level, what)));
        // "A strong read on M followed by a fence" (PTX ISA §8.8): join the release heads the
        // earlier strong reads saw, when the head and this fence are morally strong (§8.9.4).
        let todo: Vec<usize> = with_ts(|t| {
            t.observed
                .iter()
                .filter(|h| !(native_acq && h.universal) && h.level.min(level) >= dist(h.who, me))
                .map(|h| h.cell)
                .collect()
        });
        for x in todo {
            join(&c, x);
        }
    }
    if universal {
        loom::sync::atomic::fence(match kind {
            FenceKind::Sc => Ordering::SeqCst,
            FenceKind::AcqRel => Ordering::AcqRel,
            FenceKind::Acquire => Ordering::Acquire,
            FenceKind::Release => Ordering::Release,
        });
        if releases {
            with_ts(|t| t.native_release = true);
        }
    } else if native_acq {
        loom::sync::atomic::fence(Ordering::Acquire);
    }
    if !releases {
        return;
    }
    let cell = alloc_cell(what);
    deposit(&c, cell);
    if kind == FenceKind::Sc {
        // Fence-SC order (PTX ISA §8.9.3) relates morally strong fence.sc pairs: this one is
        // ordered after every earlier fence.sc whose scope includes this thread and whose thread
        // this one's scope includes (execution order is one Fence-SC order; loom explores others
        // by reordering the threads). The record is pushed right after the deposit, in the same
        // loom step, so a later fence.sc always finds this one's clock deposited.
        let todo: Vec<usize> = with_exec(|e| {
            let v =
                e.sc.iter()
                    .filter(|r| {
                        r.who.thread != me.thread
                            && !(universal && r.universal)
                            && r.level.min(level) >= dist(r.who, me)
                    })
                    .map(|r| r.cell)
                    .collect();
            e.sc.push(ScRec {
                who: me,
                level,
                cell,
                universal,
            });
            v
        });
        if !todo.is_empty() {
            for x in todo {
                join(&c, x);
            }
            // What this fence acquired is released by it too (causality is transitive).
            deposit(&c, cell);
            if universal {
                loom::sync::atomic::fence(Ordering::Release);
            }
        }
    }
    let h = Head {
        who: me,
        level,
        what,
        cell,
        universal,
    };
    with_ts(|t| {
        for m in 0..=level as usize {
            t.fences[m] = Some(h);
        }
    });
}
