//! Everything a kernel needs, in one import: `use ptx_sync::prelude::*;`.
//!
//! The semantics and scopes ([`sem`](crate::sem), PTX ISA §8.4–8.5, seed §3), the typed locations
//! ([`Strong`], [`Data`], [`AtomicRef`], seed §3.4), [`fence`](fn@crate::fence) (§9.7.13.4,
//! seed §3.6), the CTA barriers ([`sync_threads`], [`NamedBarrier`], seed §5.1), mbarriers and the
//! pipeline (seed §5.2–5.4), bounded waits ([`spin_until`], [`Budget`]), shared memory
//! ([`shared_array!`](crate::shared_array), [`dynamic_smem!`](crate::dynamic_smem),
//! [`SharedAddr`]), and the thread / block / grid / cluster / lane / warp indices
//! ([`thread_idx`], [`block_idx`], [`lane_id`], [`cluster_ctarank`] …), the loops of CUDA's
//! idioms ([`grid_stride`], [`block_stride`], [`halving`]) and [`kernel!`](macro@crate::kernel)
//! (one definition for the GPU entry point and the CPU tests). Nothing here emits PTX by being
//! imported.
//!
//! ```
//! use ptx_sync::prelude::*;
//! let flag = Strong::new(0u32);
//! launch(Dim3::x(2), Dim3::x(1), 0, || {
//!     if block_idx().x == 0 {
//!         flag.at::<Gpu>().store::<Release>(1);                // st.release.gpu.u32
//!     } else {
//!         spin_until(Budget::nanos(1_000_000_000), || flag.at::<Gpu>().load::<Acquire>() == 1)
//!             .expect("CTA 0 publishes");                      // ld.acquire.gpu.u32, bounded
//!     }
//! });
//! ```

pub use crate::atomic::{AtomicRef, Data, Scalar, Strong};
pub use crate::barrier::{sync_threads, sync_threads_unaligned, NamedBarrier};
pub use crate::cluster::{cluster_ctarank, cluster_nctarank, elect_sync, mapa};
pub use crate::fence::fence;
#[cfg(not(target_arch = "nvptx64"))]
pub use crate::index::launch;
pub use crate::index::{
    block_dim, block_idx, block_stride, global_thread_x, grid_dim, grid_stride, grid_threads_x,
    halving, lane_id, thread_idx, warp_id, warp_in_block, Dim3,
};
pub use crate::mbarrier::{Mbarrier, Phase};
pub use crate::pipeline::{Consumer, ConsumerStage, Pipeline, PipelineState, Producer};
pub use crate::sem::{
    AcqRel, Acquire, Cluster, Cta, Generic, Global, Gpu, Relaxed, Release, Sc, Shared,
    SharedCluster, Sys, Volatile, Weak,
};
pub use crate::shared::{shared_slice, to_shared, SharedAddr, SharedArray};
pub use crate::wait::{spin_until, Budget, Timeout};
pub use crate::{dynamic_smem, kernel, shared_array};
