//! A tiled copy through a TMA pipeline, as a user of `ptx-sync` writes it: one source for the GPU
//! kernel (built for `nvptx64-nvidia-cuda`) and for CPU threads (ptx-sync's host backend).
//!
//! The data is a row-major `u32` matrix `height × width` (`width % 4 == 0`: TMA wants the row
//! pitch to be a multiple of 16 bytes), cut into `TILE_W × TILE_H` tiles; edge tiles are partial.
//! Thread 0 streams tiles into a ring of `STAGES` shared-memory buffers with TMA
//! (`cp.async.bulk.tensor.2d`, completing on the stage's `full` mbarrier; out-of-bounds elements
//! of an edge box are zero-filled); `consumers` threads (32, 33, …) copy each stage out to global
//! memory and hand it back on `empty` — the seed's §5 full/empty ring, with
//! [`ptx_sync::pipeline::Pipeline`]:
//!
//! ```text
//! producer (thread 0)                            consumer c (thread 32 + c)
//! st = producer_start()          (phase 1)       st = consumer_start()     (phase 0)
//! for each tile:                                 for each tile:
//!   producer_acquire(st, TILE_BYTES)               stage = consumer_wait(st) try_wait.parity.acquire full[i]
//!     try_wait.parity.acquire empty[i]             out[..] = stage i        generic ld.shared / st.global
//!     arrive.expect_tx.release full[i]             consumer_release(stage) fence.proxy.async; arrive.release empty[i]
//!   TMA tile -> stage i (complete_tx full[i])      st.advance()
//!   st.advance()
//! producer_tail(st)   every empty once: no exit while consumers still read
//! ```
//!
//! Every wait is bounded by the job's [`Budget`]; a wait that runs out ends the role and ORs its
//! bit ([`CONSUMER_STALL`], [`PRODUCER_STALL`], [`TAIL_STALL`]) into the status word instead of
//! hanging the GPU. On the host the TMA copy happens at issue and completes the `full` barrier's
//! tx count, and `ptx_sync::index::launch` gives each CPU "CTA" its own barriers and ring.
#![cfg_attr(target_arch = "nvptx64", no_std)]
#![cfg_attr(target_arch = "nvptx64", feature(abi_ptx, asm_experimental_arch))]

use ptx_sync::copy::{cp_async_bulk_tensor_load, TensorMap};
use ptx_sync::pipeline::{Empty, Full};
use ptx_sync::prelude::*;
use ptx_sync::proxy::{fence_proxy_async, fence_proxy_tensormap_acquire};
use ptx_sync::shared::shared_slice;

/// Tile width (elements of the innermost dimension) and height (rows).
pub const TILE_W: u32 = 64;
/// Tile height (rows).
pub const TILE_H: u32 = 32;
/// Bytes of one tile: every stage's `expect_tx` (TMA completes the whole box, also at an edge).
pub const TILE_BYTES: u32 = TILE_W * TILE_H * 4;
/// The most stages (barriers reserved in shared memory).
pub const MAX_STAGES: usize = 4;
/// Status bits: a consumer's wait on `full`, the producer's on `empty`, its final tail wait.
pub const CONSUMER_STALL: u32 = 1;
/// The producer's wait on `empty` ran out (a stage was never handed back).
pub const PRODUCER_STALL: u32 = 2;
/// The producer's final wait on every `empty` ran out.
pub const TAIL_STALL: u32 = 4;

shared_array!(static FULL: [Mbarrier<Full>; MAX_STAGES], align 8);
shared_array!(static EMPTY: [Mbarrier<Empty>; MAX_STAGES], align 8);

/// Tiles covering a `width × height` matrix: `(tiles_x, tiles)`.
pub const fn tiles(width: u32, height: u32) -> (u32, u32) {
    let tx = width.div_ceil(TILE_W);
    (tx, tx * height.div_ceil(TILE_H))
}

/// This CTA's pipeline over its `FULL` / `EMPTY` shared-memory barriers.
///
/// # Safety
/// One thread `init`s it and a barrier publishes that before any other use.
#[cfg(not(loom))] // the model's barriers cannot live in raw (shared) memory
pub unsafe fn pipeline<const S: usize>() -> Pipeline<'static, S, Cta> {
    Pipeline::new(shared_slice(FULL), shared_slice(EMPTY), 0, true)
}

/// One copy: `map` (`u32`, `width × height`, box `TILE_W × TILE_H`) into `out`.
#[derive(Clone, Copy)]
pub struct Job<'a> {
    /// The source's tensor map (in global memory).
    pub map: &'a TensorMap,
    /// The destination, `width × height` words.
    pub out: *mut u32,
    /// Matrix width (a multiple of 4) and height.
    pub width: u32,
    /// Matrix height.
    pub height: u32,
    /// Consumer threads (the arrivals `empty` counts).
    pub consumers: u32,
    /// Every wait's budget.
    pub budget: Budget,
}

impl Job<'_> {
    /// The producer, from state `st` (`PipelineState::producer_start()`): this CTA's tiles
    /// `block_idx, + grid_dim, …` into the ring at `ring`, then `producer_tail`.
    ///
    /// # Safety
    /// `ring` is 128-aligned shared memory of `S × TILE_BYTES` bytes; the map is valid.
    pub unsafe fn produce<const S: usize>(&self, pipe: &Pipeline<S, Cta>, mut st: PipelineState<S>, ring: SharedAddr) -> Result<(), u32> {
        let (tiles_x, tiles) = tiles(self.width, self.height);
        for t in (block_idx().x..tiles).step_by(grid_dim().x as usize) {
            let full = pipe.producer_acquire(st, TILE_BYTES, self.budget).map_err(|_| PRODUCER_STALL)?;
            let at = [(t % tiles_x * TILE_W) as i32, (t / tiles_x * TILE_H) as i32];
            cp_async_bulk_tensor_load(ring.offset(st.index() as u32 * TILE_BYTES), self.map, at, full);
            st.advance();
        }
        pipe.producer_tail(st, self.budget).map_err(|_| TAIL_STALL)
    }

    /// Consumer `c`: per tile, waits for `full`, stores its in-bounds elements `c, c + consumers,
    /// …`, and releases the stage (`fence.proxy.async`, then the release arrive on `empty`).
    ///
    /// # Safety
    /// As [`produce`](Self::produce); `out` holds `width × height` words, this consumer's alone.
    pub unsafe fn consume<const S: usize>(&self, pipe: &Pipeline<S, Cta>, c: u32, ring: SharedAddr) -> Result<(), u32> {
        let (tiles_x, tiles) = tiles(self.width, self.height);
        let mut st = PipelineState::<S>::consumer_start();
        for t in (block_idx().x..tiles).step_by(grid_dim().x as usize) {
            let stage = pipe.consumer_wait(st, self.budget).map_err(|_| CONSUMER_STALL)?;
            let s = ring.offset(stage.index() as u32 * TILE_BYTES).to_generic::<u32>();
            let (x0, y0) = (t % tiles_x * TILE_W, t / tiles_x * TILE_H);
            for e in (c..TILE_W * TILE_H).step_by(self.consumers as usize) {
                let (x, y) = (x0 + e % TILE_W, y0 + e / TILE_W);
                if x < self.width && y < self.height {
                    *self.out.add((y * self.width + x) as usize) = *s.add(e as usize);
                }
            }
            pipe.consumer_release(stage);
            st.advance();
        }
        Ok(())
    }
}

/// The kernel body: thread 0 inits the barriers and produces, threads `32..32 + consumers`
/// consume; a stalled role ORs its bit into `status`. Dynamic shared memory: `S × TILE_BYTES`.
///
/// # Safety
/// As [`Job::consume`], for a launch of at least `32 + consumers` threads.
#[cfg(not(loom))]
pub unsafe fn tiled_copy<const S: usize>(job: &Job, status: &Strong<u32>) {
    let (pipe, ring, t) = (pipeline::<S>(), dynamic_smem!(), thread_idx().x);
    if t == 0 {
        pipe.init(1, job.consumers);
        fence_proxy_async::<Shared>(); // the async proxy (TMA) sees the initialized barriers
    }
    sync_threads_unaligned(); // `.aligned` is wrong here: LLVM may duplicate it into `t == 0`
    let r = if t == 0 {
        fence_proxy_tensormap_acquire::<Gpu>(job.map); // the map was written by a host copy
        job.produce(&pipe, PipelineState::producer_start(), ring)
    } else if (32..32 + job.consumers).contains(&t) {
        job.consume(&pipe, t - 32, ring)
    } else {
        Ok(())
    };
    if let Err(bit) = r {
        status.at::<Gpu>().red_or::<Relaxed>(bit);
    }
}

/// The kernels `tiled_copy_s1` … `tiled_copy_s4`: grid `(G,1,1)`, block `(160,1,1)` (128
/// consumers), `STAGES × TILE_BYTES` of dynamic shared memory; `tmap` is a device pointer to the
/// 64-aligned map (rustc's nvptx ABI cannot pass it by value), `status` one zeroed word.
#[cfg(target_arch = "nvptx64")]
macro_rules! kernels {
    ($($name:ident $n:literal;)*) => {$(
        #[doc = concat!("The tiled copy with ", stringify!($n), " stage(s).")]
        #[no_mangle]
        pub unsafe extern "ptx-kernel" fn $name(tmap: *const TensorMap, out: *mut u32, width: u32, height: u32, status: *mut u32) {
            let job = Job { map: &*tmap, out, width, height, consumers: 128, budget: Budget::nanos(500_000_000) };
            tiled_copy::<$n>(&job, Strong::from_ptr(status))
        }
    )*};
}
#[cfg(target_arch = "nvptx64")]
kernels! { tiled_copy_s1 1; tiled_copy_s2 2; tiled_copy_s3 3; tiled_copy_s4 4; }
