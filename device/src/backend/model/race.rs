//! The scope check of conflicting strong accesses, and weak (`Data`) accesses.

#[allow(unused_imports)]
use super::*;

// ---------------------------------------------------------------------------------------------
// The scope check of conflicting strong accesses (unchanged design)
// ---------------------------------------------------------------------------------------------

pub(super) struct Access {
    pub(super) thread: loom::thread::ThreadId,
    pub(super) place: Option<Place>,
    pub(super) level: i8,
    pub(super) write: bool,
    pub(super) what: &'static str,
    /// Created before the access: its creation stamp is the thread's clock at the access.
    pub(super) stamp: loom::cell::UnsafeCell<()>,
}

/// The strong accesses of one location, for the scope check (one per [`Strong`](crate::Strong)).
#[doc(hidden)]
pub struct History(Mutex<Vec<Access>>);

impl History {
    pub(crate) fn new() -> Self {
        History(Mutex::new(Vec::new()))
    }
}

impl core::fmt::Debug for History {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("History")
    }
}

/// Does the access that created `stamp` happen before the current point of this thread?
pub(super) fn happens_before(stamp: &loom::cell::UnsafeCell<()>) -> bool {
    panic::catch_unwind(AssertUnwindSafe(|| stamp.with(|_| ()))).is_ok()
}

/// Called by every strong access under loom, before the access itself.
#[doc(hidden)]
pub fn strong_access(hist: &History, level: i8, write: bool, what: &'static str) {
    let thread = loom::thread::current().id();
    let here = place();
    let mut h = hist.0.lock().unwrap_or_else(|e| e.into_inner());
    for x in h.iter() {
        if x.thread == thread || !(x.write || write) {
            continue;
        }
        let d = distance(x.place, here) as i8;
        if x.level.min(level) >= d {
            continue; // morally strong: an ordinary atomic race, which loom explores
        }
        if !happens_before(&x.stamp) {
            let msg = format!(
                "ptx-sync model: data race: `{}` by thread {} and `{}` by thread {} are not \
                 morally strong (PTX ISA §8.7: each one's scope must include the other's thread) \
                 and causality order does not order them",
                x.what,
                place_text(x.place),
                what,
                place_text(here),
            );
            drop(h);
            panic!("{}", msg);
        }
    }
    h.retain(|x| !(x.thread == thread && x.write == write && x.level == level));
    h.push(Access {
        thread,
        place: here,
        level,
        write,
        what,
        stamp: loom::cell::UnsafeCell::new(()),
    });
}

/// Fence scopes that did not include the other thread, for the data-race message: the calling
/// thread's fences and the fences it observed whose scope does not include the thread across.
pub(super) fn fence_note() -> String {
    let me = who();
    with_ts(|t| {
        let mut out = String::new();
        for h in t.observed.iter() {
            let d = dist(h.who, me);
            if h.level < d {
                out.push_str(&format!(
                    "; `{}` by thread {} does not synchronize with thread {}: its scope \
                     (`{}`) does not include that thread (PTX ISA §8.9.4: the first operation of \
                     the release pattern and the last of the acquire pattern must be morally \
                     strong, §8.7)",
                    h.what,
                    place_text(h.who.place),
                    place_text(me.place),
                    level_name(h.level)
                ));
            } else if let Some((g, gw)) = t.last_acq
                && g < d
            {
                out.push_str(&format!(
                    "; `{}` by thread {} does not synchronize with `{}` by thread {}: its \
                     scope (`{}`) does not include that thread (PTX ISA §8.9.4, §8.7)",
                    gw,
                    place_text(me.place),
                    h.what,
                    place_text(h.who.place),
                    level_name(g)
                ));
            }
        }
        out
    })
}

/// Runs a loom `UnsafeCell` access of a [`Data`](crate::Data), re-raising loom's race report with
/// the ptx-sync message.
#[doc(hidden)]
pub fn weak_access<R>(what: &'static str, f: impl FnOnce() -> R) -> R {
    match panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(e) => {
            let loom_msg: Option<String> = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| String::from(*s)));
            match loom_msg {
                Some(m) if m.contains("Causality violation") => panic!(
                    "ptx-sync model: data race on Data ({what}): two conflicting weak accesses \
                     that causality order does not order (PTX ISA §8.7.1){}; loom: {}",
                    fence_note(),
                    m.trim()
                ),
                _ => panic::resume_unwind(e as Box<dyn core::any::Any + Send>),
            }
        }
    }
}
