//! The host's simulated launch (`index::launch`, `try_launch`): the thread's [`Identity`]
//! (what the special registers read on the host), its simulated CTA (`bar.sync 0`, the warps'
//! rendezvous, dynamic shared memory, the `shared_array!` copies) and the launch itself (one
//! host thread per GPU thread, supervised by [`launch::Supervisor`](super::launch)). Under
//! `--cfg loom` the launch is `backend::loom::launch` (model threads) over the same CTAs.

use crate::index::Dim3;
use std::sync::Arc;

/// A host thread's place in a simulated launch: what [`thread_idx`](crate::index::thread_idx), [`block_dim`](crate::index::block_dim),
/// [`block_idx`](crate::index::block_idx) and [`grid_dim`](crate::index::grid_dim) return on the host. Host only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Identity {
    /// `%tid`.
    pub tid: Dim3,
    /// `%ntid`.
    pub ntid: Dim3,
    /// `%ctaid`.
    pub ctaid: Dim3,
    /// `%nctaid`.
    pub nctaid: Dim3,
}

impl Identity {
    /// Thread 0 of a 1 × 1 grid: the identity of a host thread outside any [`launch`](crate::index::launch).
    ///
    /// ```
    /// use ptx_sync::index::{Identity, Dim3};
    /// assert_eq!(Identity::SINGLE.ntid, Dim3::x(1));
    /// ```
    pub const SINGLE: Identity = Identity {
        tid: Dim3::new(0, 0, 0),
        ntid: Dim3::x(1),
        ctaid: Dim3::new(0, 0, 0),
        nctaid: Dim3::x(1),
    };
}

/// Runs `kernel` on CPU threads as a launch of `grid` CTAs of `block` threads with
/// `dyn_smem` bytes of dynamic shared memory per CTA would run it on the GPU: one host thread
/// per GPU thread, each with its [`Identity`]; per CTA a [`sync_threads`](crate::barrier::sync_threads)
/// barrier over its `block.count()` threads, a zeroed, 1024-aligned
/// [`dynamic_smem`](crate::shared::dynamic_smem) window and its own copy of every
/// [`shared_array!`](crate::shared_array). Returns when every thread has returned. Host only
/// (`std` threads; under `--cfg loom` model threads, so `kernel` must be `'static`).
///
/// A failed launch panics with [`try_launch`](crate::index::try_launch)'s error, which says what went wrong: a panic in
/// any thread is resumed here (the first one; the other threads' barrier waits end at once
/// instead of waiting for it), a barrier no thread can complete is a `deadlock: …` naming it,
/// and a shape no GPU launches (a zero or too large extent, a count that overflows) runs nothing.
///
/// The threads really run concurrently, so the kernel's synchronization is what orders them —
/// as on the GPU. A thread waiting in a CTA barrier sleeps (it does not spin). Keep grids
/// small: a thread per GPU thread.
///
/// ```
/// use ptx_sync::index::{launch, thread_idx, Dim3};
/// use ptx_sync::barrier::sync_threads;
/// use ptx_sync::shared::dynamic_smem;
/// use ptx_sync::{AtomicRef, Strong, Cta, Gpu, Relaxed};
/// let total = Strong::new(0u32);
/// launch(Dim3::x(2), Dim3::x(4), 16, || {
///     // Each thread writes its slot of the CTA's window, the barrier publishes, thread 0 sums.
///     let w = dynamic_smem().to_generic::<u32>();
///     let t = thread_idx().x as usize;
///     unsafe { AtomicRef::<u32, Cta>::from_ptr(w.add(t)).store::<Relaxed>(t as u32 + 1) };
///     sync_threads();
///     if t == 0 {
///         let s: u32 = (0..4).map(|i| unsafe { AtomicRef::<u32, Cta>::from_ptr(w.add(i)).load::<Relaxed>() }).sum();
///         let _ = total.at::<Gpu>().fetch_add::<Relaxed>(s);
///     }
/// });
/// assert_eq!(total.at::<Gpu>().load::<Relaxed>(), 2 * (1 + 2 + 3 + 4));
/// ```
#[cfg(not(loom))]
pub fn launch<F: Fn() + Sync>(grid: Dim3, block: Dim3, dyn_smem: usize, kernel: F) {
    if let Err((e, payload)) = host_run(grid, block, dyn_smem, &kernel) {
        match payload {
            Some(p) => std::panic::resume_unwind(p),
            None => panic!("{e}"),
        }
    }
}

/// [`launch`](crate::index::launch), reporting a failed launch as a [`LaunchError`] instead of a panic: the first
/// thread that panicked (where, and its message), a deadlock (every thread that has not
/// returned waits in a barrier no completion can reach; the message names the barrier and the
/// waiting threads), a grid or block shape no GPU launches, or a launch the host cannot run.
/// Host only, not under `--cfg loom` (loom reports deadlocks and panics itself).
///
/// No instruction (the host's stand-in for a kernel launch).
///
/// ```
/// use ptx_sync::index::{try_launch, thread_idx, Dim3, LaunchError};
/// use ptx_sync::barrier::sync_threads;
/// // Half of the CTA returns early; the other half waits at `bar.sync 0` for it.
/// let r = try_launch(Dim3::x(1), Dim3::x(4), 0, || {
///     if thread_idx().x < 2 {
///         sync_threads();
///     }
/// });
/// assert!(matches!(&r, Err(LaunchError::Deadlock(m)) if m.starts_with("deadlock: bar.sync")));
/// // 65536 × 65536 CTAs: more than a `u32` counts (and than %nctaid.y allows).
/// let r = try_launch(Dim3::new(1 << 16, 1 << 16, 1), Dim3::x(1), 0, || {});
/// assert!(matches!(r, Err(LaunchError::Shape(_))));
/// ```
#[cfg(not(loom))]
pub fn try_launch<F: Fn() + Sync>(
    grid: Dim3,
    block: Dim3,
    dyn_smem: usize,
    kernel: F,
) -> Result<(), LaunchError> {
    host_run(grid, block, dyn_smem, &kernel).map_err(|(e, _)| e)
}

/// Why a simulated launch failed ([`try_launch`](crate::index::try_launch)). Host only.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LaunchError {
    /// The grid or block is not a shape a GPU launches (an extent of 0, above the PTX ISA's
    /// maximum of `%ntid` (§10.2) or `%nctaid` (§10.7), a CTA of more than 1024 threads), or it
    /// has more threads than the host runs ([`MAX_HOST_THREADS`]); nothing ran.
    Shape(std::string::String),
    /// A thread of the kernel panicked (the launch's first panic): its place and message.
    Panicked {
        /// The thread's `%ctaid`.
        ctaid: Dim3,
        /// The thread's `%tid`.
        tid: Dim3,
        /// The panic's message.
        message: std::string::String,
    },
    /// Every thread that had not returned waited in a barrier that no thread could complete:
    /// `deadlock: <the barrier's instruction and what it waits for>: <the waiting threads>`.
    Deadlock(std::string::String),
    /// The host could not allocate a CTA's shared memory or start a thread.
    Resources(std::string::String),
}

impl core::fmt::Display for LaunchError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            LaunchError::Shape(m) | LaunchError::Deadlock(m) | LaunchError::Resources(m) => {
                f.write_str(m)
            }
            LaunchError::Panicked {
                ctaid: c,
                tid: t,
                message,
            } => write!(
                f,
                "CTA ({}, {}, {}) thread ({}, {}, {}) panicked: {message}",
                c.x, c.y, c.z, t.x, t.y, t.z
            ),
        }
    }
}

impl std::error::Error for LaunchError {}

/// The most threads (CTAs × threads per CTA) a simulated launch runs: one host thread each.
pub const MAX_HOST_THREADS: u64 = 1 << 16;

/// The launch's shape checked: `(CTAs, threads per CTA)`, or why no GPU (or the host) runs it.
pub(crate) fn shape(grid: Dim3, block: Dim3) -> Result<(u32, u32), LaunchError> {
    let bad = |m: std::string::String| Err(LaunchError::Shape(m));
    let shape = std::format!(
        "grid ({}, {}, {}) of blocks ({}, {}, {})",
        grid.x,
        grid.y,
        grid.z,
        block.x,
        block.y,
        block.z
    );
    // PTX ISA §10.2 (%ntid: at most 1024, 1024, 64 from sm_20) and §10.7 (%nctaid: at most
    // 2^31 - 1, 65535, 65535 from sm_30); every extent is at least 1.
    if [grid.x, grid.y, grid.z, block.x, block.y, block.z].contains(&0) {
        return bad(std::format!(
            "{shape}: an extent is 0 (PTX ISA §10.2, §10.7: at least 1)"
        ));
    }
    if block.x > 1024 || block.y > 1024 || block.z > 64 {
        return bad(std::format!(
            "{shape}: %ntid is at most (1024, 1024, 64) (PTX ISA §10.2)"
        ));
    }
    if grid.x > (1 << 31) - 1 || grid.y > 65535 || grid.z > 65535 {
        return bad(std::format!(
            "{shape}: %nctaid is at most (2^31 - 1, 65535, 65535) (PTX ISA §10.7)"
        ));
    }
    let threads = block.x as u64 * block.y as u64 * block.z as u64;
    if threads > 1024 {
        return bad(std::format!(
            "{shape}: {threads} threads per CTA; a CTA has at most 1024 (CUDA)"
        ));
    }
    let ctas = grid.x as u64 * grid.y as u64 * grid.z as u64;
    if ctas * threads > MAX_HOST_THREADS {
        return bad(std::format!(
            "{shape}: {} threads; the host runs at most {MAX_HOST_THREADS} (one CPU thread each)",
            ctas * threads
        ));
    }
    Ok((ctas as u32, threads as u32))
}

/// The host launch: `Err((error, the first panic's payload))` if it failed.
#[cfg(not(loom))]
#[allow(clippy::type_complexity)]
fn host_run(
    grid: Dim3,
    block: Dim3,
    dyn_smem: usize,
    kernel: &(dyn Fn() + Sync),
) -> Result<
    (),
    (
        LaunchError,
        Option<std::boxed::Box<dyn core::any::Any + Send>>,
    ),
> {
    use super::launch::{Failure, Supervisor};
    use std::sync::Arc;
    let (nctas, nthreads) = shape(grid, block).map_err(|e| (e, None))?;
    let sup = Supervisor::new(nctas * nthreads);
    let mut ctas = std::vec::Vec::with_capacity(nctas as usize);
    for _ in 0..nctas {
        let cta = Cta::new(nthreads, dyn_smem, Some(sup.clone())).ok_or_else(|| {
            (
                LaunchError::Resources(std::format!(
                    "cannot allocate {dyn_smem} bytes of dynamic shared memory per CTA"
                )),
                None,
            )
        })?;
        ctas.push(Arc::new(cta));
    }
    std::thread::scope(|s| {
        'spawn: for (c, cta) in ctas.iter().enumerate() {
            for t in 0..nthreads {
                let id = Identity {
                    tid: Dim3::from_linear(t, block),
                    ntid: block,
                    ctaid: Dim3::from_linear(c as u32, grid),
                    nctaid: grid,
                };
                let (cta, sup2) = (cta.clone(), sup.clone());
                let spawned = std::thread::Builder::new().spawn_scoped(s, move || {
                    enter(id, cta);
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(kernel));
                    sup2.finish(r.err());
                });
                if let Err(e) = spawned {
                    sup.fail(Failure::Resources(std::format!(
                        "cannot start thread {t} of CTA {c}: {e}"
                    )));
                    break 'spawn;
                }
            }
        }
    });
    match sup.take_failure() {
        None => Ok(()),
        Some(Failure::Panicked {
            id,
            message,
            payload,
        }) => Err((
            LaunchError::Panicked {
                ctaid: id.ctaid,
                tid: id.tid,
                message,
            },
            Some(payload),
        )),
        Some(Failure::Deadlock(m)) => Err((LaunchError::Deadlock(m), None)),
        Some(Failure::Resources(m)) => Err((LaunchError::Resources(m), None)),
    }
}

use super::launch::SmemBlock;

/// One simulated CTA: its `bar.sync 0` barrier, its dynamic shared memory, its copies of
/// the `shared_array!`s and the supervisor of its launch.
pub(crate) struct Cta {
    pub(crate) bar: crate::barrier::NamedBarrier,
    /// Its warps' `.sync` rendezvous (`elect.sync`, `bar.warp.sync`).
    pub(crate) warps: crate::backend::host::warp::Warps,
    smem: SmemBlock,
    /// The CTA's copies of the `shared_array!` statics: (static's address, copy).
    statics: std::sync::Mutex<std::vec::Vec<(usize, SmemBlock)>>,
    #[cfg(not(loom))]
    pub(crate) sup: Option<Arc<super::launch::Supervisor>>,
}

impl Cta {
    /// A CTA of `threads` threads with `bytes` of dynamic shared memory (`None` if the host
    /// cannot allocate them).
    pub(crate) fn new(
        threads: u32,
        bytes: usize,
        #[cfg(not(loom))] sup: Option<Arc<super::launch::Supervisor>>,
    ) -> Option<Self> {
        Some(Cta {
            bar: crate::barrier::NamedBarrier::new(0, threads.max(1)),
            warps: crate::backend::host::warp::Warps::new(),
            smem: SmemBlock::zeroed(bytes)?,
            statics: std::sync::Mutex::new(std::vec::Vec::new()),
            #[cfg(not(loom))]
            sup,
        })
    }
    pub(crate) fn smem(&self) -> usize {
        self.smem.addr()
    }
    /// The CTA's copy of the static at `key` (`bytes` long), zeroed when first asked for.
    pub(crate) fn static_copy(&self, key: usize, bytes: usize) -> usize {
        let mut s = self.statics.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, b)) = s.iter().find(|(k, _)| *k == key) {
            return b.addr();
        }
        let b = SmemBlock::zeroed(bytes).unwrap_or_else(|| {
            panic!("shared_array!: cannot allocate the CTA's copy ({bytes} bytes)")
        });
        let p = b.addr();
        s.push((key, b));
        p
    }
}

#[cfg(not(loom))]
std::thread_local! {
    static ID: core::cell::RefCell<(Identity, Option<Arc<Cta>>)> = const { core::cell::RefCell::new((Identity::SINGLE, None)) };
}
#[cfg(loom)]
loom::thread_local! {
    static ID: core::cell::RefCell<(Identity, Option<Arc<Cta>>)> = core::cell::RefCell::new((Identity::SINGLE, None));
}

pub(crate) fn enter(id: Identity, cta: Arc<Cta>) {
    ID.with(|c| *c.borrow_mut() = (id, Some(cta)));
}
pub(crate) fn with<R>(f: impl FnOnce(&Identity) -> R) -> R {
    ID.with(|c| f(&c.borrow().0))
}
/// The calling thread's CTA, `None` outside a [`launch`](crate::index::launch)(crate::index::launch).
pub(crate) fn cta() -> Option<Arc<Cta>> {
    ID.with(|c| c.borrow().1.clone())
}

/// The calling host thread's [`Identity`] (what [`launch`](crate::index::launch) set; [`Identity::SINGLE`] outside
/// one). Host only.
///
/// ```
/// use ptx_sync::index::{identity, Identity};
/// assert_eq!(identity(), Identity::SINGLE);
/// ```
pub fn identity() -> Identity {
    with(|id| *id)
}

/// Host: the supervisor of the calling thread's launch (`None` outside one, and under loom).
pub(crate) fn supervisor() -> Option<std::sync::Arc<super::launch::Supervisor>> {
    #[cfg(not(loom))]
    return cta().and_then(|c| c.sup.clone());
    #[cfg(loom)]
    return None;
}

/// Host `bar.sync 0`: the barrier of the calling thread's simulated CTA; a thread outside a
/// [`launch`](crate::index::launch) is a CTA of one (passes).
pub(crate) fn sync_threads() {
    if let Some(c) = cta() {
        c.bar.sync();
    }
}

/// Host `shared_array!` storage: the calling thread's CTA copy of the static at `key`, or the
/// static itself outside a [`launch`](crate::index::launch).
pub(crate) fn cta_static(key: usize, bytes: usize) -> usize {
    match cta() {
        Some(c) => c.static_copy(key, bytes),
        None => key,
    }
}

/// Host dynamic shared memory: the window of the calling thread's simulated CTA; outside a
/// [`launch`](crate::index::launch), a window of size 0 (a dangling, 1024-aligned address).
pub(crate) fn dyn_smem() -> usize {
    match cta() {
        Some(c) => c.smem(),
        None => 1024,
    }
}
