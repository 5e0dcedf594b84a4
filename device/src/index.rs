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

// The special registers' markers and `read` leaves (host arms: the simulated launch's
// identity), from device/isa/index.rows.
include!(concat!(env!("OUT_DIR"), "/isa/index.rs"));

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
#[inline(always)]
pub fn thread_idx() -> Dim3 {
    unsafe {
        Dim3 {
            x: TidX::read(),
            y: TidY::read(),
            z: TidZ::read(),
        }
    }
}

/// `%ntid.{x,y,z}`: the CTA's shape (CUDA `blockDim`; PTX ISA §10.2, all SMs).
///
/// ```
/// use ptx_sync::index::{launch, block_dim, Dim3};
/// launch(Dim3::x(2), Dim3::new(4, 2, 1), 0, || assert_eq!(block_dim(), Dim3::new(4, 2, 1)));
/// ```
#[inline(always)]
pub fn block_dim() -> Dim3 {
    unsafe {
        Dim3 {
            x: NtidX::read(),
            y: NtidY::read(),
            z: NtidZ::read(),
        }
    }
}

/// `%ctaid.{x,y,z}`: this CTA's index in the grid (CUDA `blockIdx`; PTX ISA §10.6, all SMs).
///
/// ```
/// use ptx_sync::index::{launch, block_idx, Dim3};
/// launch(Dim3::new(2, 3, 1), Dim3::x(1), 0, || assert!(block_idx().y < 3));
/// ```
#[inline(always)]
pub fn block_idx() -> Dim3 {
    unsafe {
        Dim3 {
            x: CtaidX::read(),
            y: CtaidY::read(),
            z: CtaidZ::read(),
        }
    }
}

/// `%nctaid.{x,y,z}`: the grid's shape in CTAs (CUDA `gridDim`; PTX ISA §10.7, all SMs).
///
/// ```
/// use ptx_sync::index::{launch, grid_dim, Dim3};
/// launch(Dim3::x(3), Dim3::x(1), 0, || assert_eq!(grid_dim().x, 3));
/// ```
#[inline(always)]
pub fn grid_dim() -> Dim3 {
    unsafe {
        Dim3 {
            x: NctaidX::read(),
            y: NctaidY::read(),
            z: NctaidZ::read(),
        }
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
    unsafe { Laneid::read() }
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
    unsafe { Warpid::read() }
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

#[cfg(all(not(target_arch = "nvptx64"), not(loom)))]
pub use crate::backend::host::cta::try_launch;
#[cfg(not(target_arch = "nvptx64"))]
pub use crate::backend::host::cta::{identity, Identity, LaunchError, MAX_HOST_THREADS};
#[cfg(not(target_arch = "nvptx64"))]
pub use crate::backend::launch;
