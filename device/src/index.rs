//! Thread, block, grid, warp and lane indices: the special registers `%tid`, `%ntid`, `%ctaid`,
//! `%nctaid`, `%laneid`, `%warpid` (the cluster ones are in [`cluster`](crate::cluster) and
//! re-exported by the [`prelude`](crate::prelude)).
//!
//! PTX ISA §10.1 (`%tid`), §10.2 (`%ntid`), §10.3 (`%laneid`), §10.4 (`%warpid`), §10.6
//! (`%ctaid`), §10.7 (`%nctaid`). Seed §3.1: a kernel picks its role (producer, consumer) from
//! these indices — the P / C1 / C2 of the hand-off are CTAs 0, 1, 2.
//!
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`thread_idx`] | `mov.u32 r, %tid.{x,y,z};` | 1.0 / all |
//! | [`block_dim`] | `mov.u32 r, %ntid.{x,y,z};` | 1.0 / all |
//! | [`block_idx`] | `mov.u32 r, %ctaid.{x,y,z};` | 1.0 / all |
//! | [`grid_dim`] | `mov.u32 r, %nctaid.{x,y,z};` | 1.0 / all |
//! | [`lane_id`] | `mov.u32 r, %laneid;` | 1.3 / all |
//! | [`warp_id`] | `mov.u32 r, %warpid;` | 1.3 / all |
//! | [`global_thread_x`] | the three `mov`s above (`%ctaid.x * %ntid.x + %tid.x`) | 1.0 / all |
//! | [`grid_stride`], [`block_stride`] | those `mov`s and `%nctaid.x`: the loop of CUDA's grid- and block-stride idioms | 1.0 / all |
//! | [`halving`] | none (`n / 2, n / 4, …, 1`: a tree reduction's strides) | – |
//!
//! Each read is one `mov` in a pure asm (`options(pure, nomem)`): an unused component of a
//! [`Dim3`] costs nothing, and reading an index twice is one `mov`. `%warpid` is the *physical*
//! warp slot and may change during execution (PTX ISA §10.4); a kernel that needs a stable
//! warp number uses `thread_idx().x / 32` ([`warp_in_block`]).
//!
//! # Host backend
//!
//! On the host every index comes from a thread-local `Identity` that `launch` sets for each
//! CPU thread it starts (one per GPU thread of the grid; a thread outside any launch is thread 0
//! of a 1 × 1 grid). `launch` also gives each simulated CTA its own
//! [`sync_threads`](crate::barrier::sync_threads) barrier and its own
//! [`dynamic_smem`](crate::shared::dynamic_smem) window, so a kernel body runs unchanged on CPU
//! threads; every [`shared_array!`](crate::shared_array) is per CTA too. Under `--cfg loom` `launch` starts model threads placed in their CTA
//! (`ptx_sync::model::spawn_in`), so `.cta`-scoped operations between CTAs are
//! reported as the model reports them.
//!
//! ```
//! use ptx_sync::index::{self, Dim3};
//! use ptx_sync::{Strong, Gpu, Relaxed};
//! let hits = Strong::new(0u32);
//! // 2 CTAs of 3 threads: each adds its global index + 1 (1 + 2 + … + 6 = 21).
//! index::launch(Dim3::x(2), Dim3::x(3), 0, || {
//!     let _ = hits.at::<Gpu>().fetch_add::<Relaxed>(index::global_thread_x() + 1);
//! });
//! assert_eq!(hits.at::<Gpu>().load::<Relaxed>(), 21);
//! ```

use crate::instr::instr;
#[cfg(target_arch = "nvptx64")]
use core::arch::asm;

/// A three-component index or extent (`%tid`, `%ntid`, `%ctaid`, `%nctaid`; CUDA's `dim3`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dim3 {
    /// The `.x` component.
    pub x: u32,
    /// The `.y` component.
    pub y: u32,
    /// The `.z` component.
    pub z: u32,
}

impl Dim3 {
    /// `(x, y, z)`.
    ///
    /// ```
    /// let d = ptx_sync::index::Dim3::new(4, 2, 1);
    /// assert_eq!((d.x, d.y, d.z, d.count()), (4, 2, 1, 8));
    /// ```
    pub const fn new(x: u32, y: u32, z: u32) -> Self {
        Dim3 { x, y, z }
    }
    /// `(x, 1, 1)`: a one-dimensional extent.
    ///
    /// ```
    /// assert_eq!(ptx_sync::index::Dim3::x(8), ptx_sync::index::Dim3::new(8, 1, 1));
    /// ```
    pub const fn x(x: u32) -> Self {
        Dim3 { x, y: 1, z: 1 }
    }
    /// `x * y * z`: the number of elements of an extent.
    ///
    /// ```
    /// assert_eq!(ptx_sync::index::Dim3::new(3, 2, 2).count(), 12);
    /// ```
    pub const fn count(self) -> u32 {
        self.x * self.y * self.z
    }
    /// The linear position of index `self` in extent `ext` (`x` fastest, as CUDA numbers the
    /// threads of a block, PTX ISA §2.2.1).
    ///
    /// ```
    /// use ptx_sync::index::Dim3;
    /// assert_eq!(Dim3::new(1, 2, 0).linear(Dim3::new(4, 3, 1)), 9);
    /// ```
    pub const fn linear(self, ext: Dim3) -> u32 {
        (self.z * ext.y + self.y) * ext.x + self.x
    }
    /// The index at linear position `i` of extent `ext` (inverse of [`linear`](Self::linear)).
    ///
    /// ```
    /// use ptx_sync::index::Dim3;
    /// assert_eq!(Dim3::from_linear(9, Dim3::new(4, 3, 1)), Dim3::new(1, 2, 0));
    /// ```
    pub const fn from_linear(i: u32, ext: Dim3) -> Self {
        Dim3 {
            x: i % ext.x,
            y: (i / ext.x) % ext.y,
            z: i / (ext.x * ext.y),
        }
    }
}

macro_rules! sreg3 {
    ($( $(#[$m:meta])* $X:ident $Y:ident $Z:ident ($tx:literal, $ty:literal, $tz:literal) $fname:ident $field:ident; )*) => {
        $(
            sreg3!(@one $X $tx);
            sreg3!(@one $Y $ty);
            sreg3!(@one $Z $tz);
            $(#[$m])*
            #[inline(always)]
            pub fn $fname() -> Dim3 {
                #[cfg(target_arch = "nvptx64")]
                unsafe {
                    Dim3 { x: $X::read(), y: $Y::read(), z: $Z::read() }
                }
                #[cfg(not(target_arch = "nvptx64"))]
                {
                    host::with(|id| id.$field)
                }
            }
        )*
    };
    (@one $Name:ident $tok:literal) => {
        instr! {
            #[doc = concat!("`mov.u32 r, ", $tok, ";` (PTX ISA ch. 10).")]
            $Name = ($tok);
            fn read() -> u32 => m {
                let r: u32;
                asm!(concat!("mov.u32 {r}, ", m!(), ";"), r = out(reg32) r, options(pure, nomem, nostack, preserves_flags));
                r
            }
        }
    };
}

sreg3! {
    /// `%tid.{x,y,z}`: this thread's index in its CTA (CUDA `threadIdx`; PTX ISA §10.1, all SMs).
    ///
    /// ```
    /// use ptx_sync::index::{launch, thread_idx, Dim3};
    /// launch(Dim3::x(1), Dim3::new(2, 2, 1), 0, || {
    ///     let t = thread_idx();
    ///     assert!(t.x < 2 && t.y < 2 && t.z == 0);
    /// });
    /// assert_eq!(thread_idx(), Dim3::new(0, 0, 0)); // outside a launch: thread 0
    /// ```
    TidX TidY TidZ ("%tid.x", "%tid.y", "%tid.z") thread_idx tid;
    /// `%ntid.{x,y,z}`: the CTA's shape (CUDA `blockDim`; PTX ISA §10.2, all SMs).
    ///
    /// ```
    /// use ptx_sync::index::{launch, block_dim, Dim3};
    /// launch(Dim3::x(2), Dim3::new(4, 2, 1), 0, || assert_eq!(block_dim(), Dim3::new(4, 2, 1)));
    /// ```
    NtidX NtidY NtidZ ("%ntid.x", "%ntid.y", "%ntid.z") block_dim ntid;
    /// `%ctaid.{x,y,z}`: this CTA's index in the grid (CUDA `blockIdx`; PTX ISA §10.6, all SMs).
    ///
    /// ```
    /// use ptx_sync::index::{launch, block_idx, Dim3};
    /// launch(Dim3::new(2, 3, 1), Dim3::x(1), 0, || assert!(block_idx().y < 3));
    /// ```
    CtaidX CtaidY CtaidZ ("%ctaid.x", "%ctaid.y", "%ctaid.z") block_idx ctaid;
    /// `%nctaid.{x,y,z}`: the grid's shape in CTAs (CUDA `gridDim`; PTX ISA §10.7, all SMs).
    ///
    /// ```
    /// use ptx_sync::index::{launch, grid_dim, Dim3};
    /// launch(Dim3::x(3), Dim3::x(1), 0, || assert_eq!(grid_dim().x, 3));
    /// ```
    NctaidX NctaidY NctaidZ ("%nctaid.x", "%nctaid.y", "%nctaid.z") grid_dim nctaid;
}

instr! {
    /// `mov.u32 r, %laneid;` (PTX ISA §10.3).
    Laneid = ("%laneid");
    fn read() -> u32 => m {
        let r: u32;
        asm!(concat!("mov.u32 {r}, ", m!(), ";"), r = out(reg32) r, options(pure, nomem, nostack, preserves_flags));
        r
    }
}
instr! {
    /// `mov.u32 r, %warpid;` (PTX ISA §10.4).
    Warpid = ("%warpid");
    fn read() -> u32 => m {
        let r: u32;
        // Not `pure`: %warpid is volatile (PTX ISA §10.4: it may change at run time).
        asm!(concat!("mov.u32 {r}, ", m!(), ";"), r = out(reg32) r, options(nomem, nostack, preserves_flags));
        r
    }
}

/// `%laneid`: this thread's lane in its warp, `0..32` (PTX ISA §10.3, all SMs). Host: the
/// linear thread index of the CTA modulo 32.
///
/// ```
/// use ptx_sync::index::{launch, lane_id, Dim3};
/// launch(Dim3::x(1), Dim3::x(40), 0, || assert!(lane_id() < 32));
/// ```
#[inline(always)]
pub fn lane_id() -> u32 {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        Laneid::read()
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        host::with(|id| id.tid.linear(id.ntid) % 32)
    }
}

/// `%warpid`: the warp slot the thread runs in (PTX ISA §10.4, all SMs) — *volatile*: it may
/// change at run time (preemption, rescheduling), so use it for diagnostics only and
/// [`warp_in_block`] for roles. Host: the linear thread index of the CTA divided by 32.
///
/// ```
/// use ptx_sync::index::{launch, warp_id, Dim3};
/// launch(Dim3::x(1), Dim3::x(64), 0, || assert!(warp_id() < 2));
/// ```
#[inline(always)]
pub fn warp_id() -> u32 {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        Warpid::read()
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        host::with(|id| id.tid.linear(id.ntid) / 32)
    }
}

/// The stable warp number of the thread in its CTA: the linear thread index (`%tid`, `%ntid`)
/// divided by 32 (what CUTLASS calls `warp_idx`; no special register).
///
/// ```
/// use ptx_sync::index::{launch, warp_in_block, thread_idx, Dim3};
/// launch(Dim3::x(1), Dim3::x(64), 0, || assert_eq!(warp_in_block(), thread_idx().x / 32));
/// ```
#[inline(always)]
pub fn warp_in_block() -> u32 {
    thread_idx().linear(block_dim()) / 32
}

/// `%ctaid.x * %ntid.x + %tid.x`: the thread's index in a one-dimensional grid (CUDA's
/// `blockIdx.x * blockDim.x + threadIdx.x`).
///
/// ```
/// use ptx_sync::index::{launch, global_thread_x, Dim3};
/// launch(Dim3::x(2), Dim3::x(4), 0, || assert!(global_thread_x() < 8));
/// ```
#[inline(always)]
pub fn global_thread_x() -> u32 {
    block_idx().x * block_dim().x + thread_idx().x
}

/// `%nctaid.x * %ntid.x`: the number of threads of a one-dimensional grid (a grid-stride loop's
/// stride).
///
/// ```
/// use ptx_sync::index::{launch, grid_threads_x, Dim3};
/// launch(Dim3::x(2), Dim3::x(4), 0, || assert_eq!(grid_threads_x(), 8));
/// ```
#[inline(always)]
pub fn grid_threads_x() -> u32 {
    grid_dim().x * block_dim().x
}

/// The indices `global_thread_x(), + grid_threads_x(), …` below `n`, as `usize`: a
/// grid-stride loop (CUDA's `for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i +=
/// gridDim.x * blockDim.x)`), each element once across the grid.
///
/// PTX: the `mov`s of `%ctaid.x`, `%ntid.x`, `%tid.x`, `%nctaid.x` (PTX ISA §10.1, §10.2, §10.6,
/// §10.7; all SMs) and the loop's integer arithmetic.
///
/// ```
/// use ptx_sync::index::{grid_stride, launch, Dim3};
/// use ptx_sync::{Strong, Gpu, Relaxed};
/// let sum = Strong::new(0u32);
/// launch(Dim3::x(2), Dim3::x(3), 0, || {
///     grid_stride(10).for_each(|i| { let _ = sum.at::<Gpu>().fetch_add::<Relaxed>(i as u32); });
/// });
/// assert_eq!(sum.at::<Gpu>().load::<Relaxed>(), (0..10).sum::<u32>()); // each index once
/// ```
#[inline(always)]
pub fn grid_stride(n: u32) -> impl Iterator<Item = usize> {
    (global_thread_x()..n)
        .step_by(grid_threads_x() as usize)
        .map(|i| i as usize)
}

/// The indices `thread_idx().x, + block_dim().x, …` below `n`, as `usize`: a block-stride loop
/// (CUDA's `for (i = threadIdx.x; i < n; i += blockDim.x)`), each element once across the CTA
/// — the loop over a shared-memory array of `n` elements.
///
/// PTX: the `mov`s of `%tid.x` and `%ntid.x` (PTX ISA §10.1, §10.2; all SMs) and the loop's
/// integer arithmetic.
///
/// ```
/// use ptx_sync::index::{block_stride, launch, Dim3};
/// use ptx_sync::{Strong, Gpu, Relaxed};
/// let hits = Strong::new(0u32);
/// launch(Dim3::x(1), Dim3::x(4), 0, || {
///     block_stride(10).for_each(|_| { let _ = hits.at::<Gpu>().fetch_add::<Relaxed>(1); });
/// });
/// assert_eq!(hits.at::<Gpu>().load::<Relaxed>(), 10);
/// ```
#[inline(always)]
pub fn block_stride(n: u32) -> impl Iterator<Item = usize> {
    (thread_idx().x..n)
        .step_by(block_dim().x as usize)
        .map(|i| i as usize)
}

/// `n / 2, n / 4, …, 1`: the strides of a tree reduction over `n` elements (CUDA's `for (k =
/// blockDim.x / 2; k > 0; k /= 2)`); empty for `n < 2`.
///
/// No instruction of its own (integer arithmetic).
///
/// ```
/// use ptx_sync::index::halving;
/// assert!(halving(256).eq([128, 64, 32, 16, 8, 4, 2, 1]));
/// assert!(halving(6).eq([3, 1]));
/// assert_eq!(halving(1).count(), 0);
/// ```
#[inline(always)]
pub fn halving(n: u32) -> impl Iterator<Item = usize> {
    core::iter::successors(Some(n as usize / 2), |&k| Some(k / 2)).take_while(|&k| k > 0)
}

/// Every special register of this module: `(marker name, PTX register)`.
pub const SREGS: &[(&str, &str)] = {
    use crate::instr::Instr;
    &[
        ("TidX", TidX::PTX),
        ("TidY", TidY::PTX),
        ("TidZ", TidZ::PTX),
        ("NtidX", NtidX::PTX),
        ("NtidY", NtidY::PTX),
        ("NtidZ", NtidZ::PTX),
        ("CtaidX", CtaidX::PTX),
        ("CtaidY", CtaidY::PTX),
        ("CtaidZ", CtaidZ::PTX),
        ("NctaidX", NctaidX::PTX),
        ("NctaidY", NctaidY::PTX),
        ("NctaidZ", NctaidZ::PTX),
        ("Laneid", Laneid::PTX),
        ("Warpid", Warpid::PTX),
    ]
};

/// A host thread's place in a simulated launch: what [`thread_idx`], [`block_dim`],
/// [`block_idx`] and [`grid_dim`] return on the host. Host only.
#[cfg(not(target_arch = "nvptx64"))]
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

#[cfg(not(target_arch = "nvptx64"))]
impl Identity {
    /// Thread 0 of a 1 × 1 grid: the identity of a host thread outside any [`launch`].
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
/// A failed launch panics with [`try_launch`]'s error, which says what went wrong: a panic in
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
#[cfg(all(not(target_arch = "nvptx64"), not(loom)))]
pub fn launch<F: Fn() + Sync>(grid: Dim3, block: Dim3, dyn_smem: usize, kernel: F) {
    if let Err((e, payload)) = host_run(grid, block, dyn_smem, &kernel) {
        match payload {
            Some(p) => std::panic::resume_unwind(p),
            None => panic!("{e}"),
        }
    }
}

/// [`launch`], reporting a failed launch as a [`LaunchError`] instead of a panic: the first
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
#[cfg(all(not(target_arch = "nvptx64"), not(loom)))]
pub fn try_launch<F: Fn() + Sync>(
    grid: Dim3,
    block: Dim3,
    dyn_smem: usize,
    kernel: F,
) -> Result<(), LaunchError> {
    host_run(grid, block, dyn_smem, &kernel).map_err(|(e, _)| e)
}

/// Why a simulated launch failed ([`try_launch`]). Host only.
#[cfg(not(target_arch = "nvptx64"))]
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

#[cfg(not(target_arch = "nvptx64"))]
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

#[cfg(not(target_arch = "nvptx64"))]
impl std::error::Error for LaunchError {}

/// The most threads (CTAs × threads per CTA) a simulated launch runs: one host thread each.
#[cfg(not(target_arch = "nvptx64"))]
pub const MAX_HOST_THREADS: u64 = 1 << 16;

/// The launch's shape checked: `(CTAs, threads per CTA)`, or why no GPU (or the host) runs it.
#[cfg(not(target_arch = "nvptx64"))]
fn host_shape(grid: Dim3, block: Dim3) -> Result<(u32, u32), LaunchError> {
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
#[cfg(all(not(target_arch = "nvptx64"), not(loom)))]
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
    use crate::host_launch::{Failure, Supervisor};
    use std::sync::Arc;
    let (nctas, nthreads) = host_shape(grid, block).map_err(|e| (e, None))?;
    let sup = Supervisor::new(nctas * nthreads);
    let mut ctas = std::vec::Vec::with_capacity(nctas as usize);
    for _ in 0..nctas {
        let cta = host::Cta::new(nthreads, dyn_smem, Some(sup.clone())).ok_or_else(|| {
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
                    host::enter(id, cta);
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

/// [`launch`] under `--cfg loom`: each GPU thread is a model thread placed in CTA
/// `block_idx` (linear) of cluster 0 ([`model::spawn_in`](crate::model::spawn_in)); call it
/// inside [`model::check`](crate::model::check).
///
/// ```
/// // Under `--cfg loom`: two CTAs of one thread, each a model thread placed in its CTA.
/// use ptx_sync::index::{launch, block_idx, Dim3};
/// ptx_sync::model::check(0, || launch(Dim3::x(2), Dim3::x(1), 0, || assert!(block_idx().x < 2)));
/// ```
#[cfg(loom)]
pub fn launch<F: Fn() + Send + Sync + 'static>(
    grid: Dim3,
    block: Dim3,
    dyn_smem: usize,
    kernel: F,
) {
    let (nctas, nthreads) = host_shape(grid, block).unwrap_or_else(|e| panic!("{e}"));
    let kernel = loom::sync::Arc::new(kernel);
    let mut hs = std::vec::Vec::new();
    for c in 0..nctas {
        let cta = host::Cta::new(nthreads, dyn_smem)
            .unwrap_or_else(|| panic!("cannot allocate {dyn_smem} bytes of shared memory"));
        let cta = std::sync::Arc::new(cta);
        for t in 0..nthreads {
            let id = Identity {
                tid: Dim3::from_linear(t, block),
                ntid: block,
                ctaid: Dim3::from_linear(c, grid),
                nctaid: grid,
            };
            let (k, cta) = (kernel.clone(), cta.clone());
            hs.push(crate::model::spawn_in(0, c, move || {
                host::enter(id, cta);
                k()
            }));
        }
    }
    for h in hs {
        h.join();
    }
}

#[cfg(not(target_arch = "nvptx64"))]
pub(crate) mod host {
    use super::Identity;
    use crate::host_launch::SmemBlock;
    use std::sync::Arc;

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
        pub(crate) sup: Option<Arc<crate::host_launch::Supervisor>>,
    }

    impl Cta {
        /// A CTA of `threads` threads with `bytes` of dynamic shared memory (`None` if the host
        /// cannot allocate them).
        pub(crate) fn new(
            threads: u32,
            bytes: usize,
            #[cfg(not(loom))] sup: Option<Arc<crate::host_launch::Supervisor>>,
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
    /// The calling thread's CTA, `None` outside a [`launch`](super::launch).
    pub(crate) fn cta() -> Option<Arc<Cta>> {
        ID.with(|c| c.borrow().1.clone())
    }
}

/// The calling host thread's [`Identity`] (what [`launch`] set; [`Identity::SINGLE`] outside
/// one). Host only.
///
/// ```
/// use ptx_sync::index::{identity, Identity};
/// assert_eq!(identity(), Identity::SINGLE);
/// ```
#[cfg(not(target_arch = "nvptx64"))]
pub fn identity() -> Identity {
    host::with(|id| *id)
}

/// Host: the supervisor of the calling thread's launch (`None` outside one, and under loom).
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) fn host_supervisor() -> Option<std::sync::Arc<crate::host_launch::Supervisor>> {
    #[cfg(not(loom))]
    return host::cta().and_then(|c| c.sup.clone());
    #[cfg(loom)]
    return None;
}

/// Host `bar.sync 0`: the barrier of the calling thread's simulated CTA; a thread outside a
/// [`launch`] is a CTA of one (passes).
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) fn host_sync_threads() {
    if let Some(c) = host::cta() {
        c.bar.sync();
    }
}

/// Host `shared_array!` storage: the calling thread's CTA copy of the static at `key`, or the
/// static itself outside a [`launch`].
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) fn host_cta_static(key: usize, bytes: usize) -> usize {
    match host::cta() {
        Some(c) => c.static_copy(key, bytes),
        None => key,
    }
}

/// Host dynamic shared memory: the window of the calling thread's simulated CTA; outside a
/// [`launch`], a window of size 0 (a dangling, 1024-aligned address).
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) fn host_dyn_smem() -> usize {
    match host::cta() {
        Some(c) => c.smem(),
        None => 1024,
    }
}
