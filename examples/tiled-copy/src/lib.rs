//! A tiled copy through a TMA pipeline, as a user of `ptx-sync` writes it: one source for the GPU
//! kernel (built for `nvptx64-nvidia-cuda`) and for CPU threads (ptx-sync's host backend).
//!
//! The data is a row-major `u32` matrix `height × width` (`width % 4 == 0`: TMA wants the row
//! pitch to be a multiple of 16 bytes), cut into `TILE_W × TILE_H` tiles; edge tiles are partial.
//! One producer thread streams tiles into a ring of `STAGES` shared-memory buffers with TMA
//! (`cp.async.bulk.tensor.2d`, completing on the stage's `full` mbarrier; out-of-bounds elements
//! of an edge box are zero-filled); `consumers` threads copy each stage out to global memory and
//! hand it back on `empty` — the seed's §5 full/empty ring, written with
//! [`ptx_sync::pipeline::Pipeline`]:
//!
//! ```text
//! producer (1 thread)                            consumer c (of `consumers`)
//! st = producer_start()          (phase 1)       st = consumer_start()     (phase 0)
//! for each tile:                                 for each tile:
//!   producer_acquire(st, TILE_BYTES)               consumer_wait(st)        try_wait.parity.acquire full[i]
//!     try_wait.parity.acquire empty[i]             out[..] = stage i        generic ld.shared / st.global
//!     arrive.expect_tx.release full[i]             consumer_release(st)     fence.proxy.async; arrive.release empty[i]
//!   TMA tile -> stage i (complete_tx full[i])      st.advance()
//!   st.advance()
//! producer_tail(st)   every empty once: no exit while consumers still read
//! ```
//!
//! Every wait is bounded by a [`Budget`]; a wait that runs out ends the role with a [`Stall`]
//! naming it (the kernel ORs [`Stall::bit`] into a status word) instead of hanging the GPU.
//!
//! On the host the TMA copy happens at issue and completes the `full` barrier's tx count, so the
//! same routine runs on a producer thread and consumer threads (`tests/cpu.rs`).
#![cfg_attr(target_arch = "nvptx64", no_std)]
#![cfg_attr(target_arch = "nvptx64", feature(abi_ptx, asm_experimental_arch))]

use ptx_sync::copy::{cp_async_bulk_tensor_load, TensorMap};
use ptx_sync::pipeline::{Empty, Full, Pipeline, PipelineState};
use ptx_sync::proxy::fence_proxy_async;
use ptx_sync::shared::SharedAddr;
use ptx_sync::wait::{Budget, Timeout};
use ptx_sync::{Cta, Mbarrier, Shared};

/// Tile width (elements of the innermost dimension).
pub const TILE_W: u32 = 64;
/// Tile height (rows).
pub const TILE_H: u32 = 32;
/// Bytes of one tile, the `expect_tx` count of every stage (TMA completes the whole box, also
/// for an edge tile).
pub const TILE_BYTES: u32 = TILE_W * TILE_H * 4;
/// The most stages the kernels use (barriers reserved in shared memory).
pub const MAX_STAGES: usize = 4;

/// Tiles covering a `width × height` matrix: `(tiles_x, tiles)`.
pub const fn tiles(width: u32, height: u32) -> (u32, u32) {
    let tx = width.div_ceil(TILE_W);
    (tx, tx * height.div_ceil(TILE_H))
}

/// A bounded wait that ran out: which role, and the [`Timeout`] of its wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stall {
    /// A consumer's wait on `full` (no tile arrived).
    Consumer(Timeout),
    /// The producer's wait on `empty` (a stage was never handed back).
    Producer(Timeout),
    /// The producer's final wait on every `empty` (`producer_tail`).
    Tail(Timeout),
}

impl Stall {
    /// The status-word bit of the kernel: 1 consumer, 2 producer, 4 tail.
    pub const fn bit(self) -> u32 {
        match self {
            Stall::Consumer(_) => 1,
            Stall::Producer(_) => 2,
            Stall::Tail(_) => 4,
        }
    }
}

/// One CTA's tiled copy: a `STAGES`-deep pipeline over `full`/`empty` barriers and a ring of
/// `STAGES × TILE_BYTES` bytes at `ring` (shared memory on the GPU).
pub struct TiledCopy<'a, const STAGES: usize> {
    pipe: Pipeline<'a, STAGES, Cta>,
    ring: SharedAddr,
    map: &'a TensorMap,
    out: *mut u32,
    width: u32,
    height: u32,
    consumers: u32,
    budget: Budget,
}

// SAFETY: the roles share the barriers (atomic / mbarrier operations), read the ring only after
// the acquire on `full` and write `out` at disjoint elements (consumer `c` owns the elements
// `c, c + consumers, …` of every tile).
unsafe impl<const STAGES: usize> Sync for TiledCopy<'_, STAGES> {}
unsafe impl<const STAGES: usize> Send for TiledCopy<'_, STAGES> {}

impl<'a, const STAGES: usize> TiledCopy<'a, STAGES> {
    /// The copy of the matrix `map` describes (`u32`, `width × height`, box `TILE_W × TILE_H`) into
    /// `out` (row-major, `width × height` words), through the ring at `ring`, with `consumers`
    /// consumer threads. Every wait is bounded by `budget`.
    ///
    /// # Safety
    /// `ring` is 128-byte aligned memory of `STAGES × TILE_BYTES` bytes that only this copy uses
    /// (on the GPU: this CTA's shared memory); `map` describes a valid source; `out` is valid for
    /// `width × height` words and not accessed by anyone else during the copy.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub unsafe fn new(
        full: &'a [Mbarrier<Full>],
        empty: &'a [Mbarrier<Empty>],
        ring: SharedAddr,
        map: &'a TensorMap,
        out: *mut u32,
        width: u32,
        height: u32,
        consumers: u32,
        budget: Budget,
    ) -> Self {
        TiledCopy {
            pipe: Pipeline::new(full, empty, 0, true),
            ring,
            map,
            out,
            width,
            height,
            consumers,
            budget,
        }
    }

    /// **One thread, before any role starts**: `mbarrier.init` of every stage's `full` (1
    /// arrival: the producer's `arrive.expect_tx`) and `empty` (`consumers` arrivals), then
    /// `fence.proxy.async.shared::cta` so that TMA (the async proxy) sees the initialized
    /// barriers. Publish it with `bar.sync` (GPU) or by starting the role threads afterwards
    /// (host).
    #[inline(always)]
    pub fn init(&self) {
        self.pipe.init(1, self.consumers);
        fence_proxy_async::<Shared>();
    }

    #[inline(always)]
    fn stage(&self, i: usize) -> SharedAddr {
        self.ring.offset(i as u32 * TILE_BYTES)
    }

    /// **The producer** (one thread): tiles `first, first + step, …` from the start state of a
    /// producer (phase 1: every stage starts empty), then `producer_tail`.
    #[inline(always)]
    pub fn produce(&self, first: u32, step: u32) -> Result<(), Stall> {
        self.produce_from(PipelineState::producer_start(), first, step)
    }

    /// The producer from an explicit start state (`produce` passes `producer_start()`; anything
    /// else is a bug that the bounded waits report as a [`Stall`]).
    #[inline(always)]
    pub fn produce_from(&self, mut st: PipelineState<STAGES>, first: u32, step: u32) -> Result<(), Stall> {
        let (tiles_x, tiles) = tiles(self.width, self.height);
        let mut t = first;
        while t < tiles {
            // Wait until the consumers handed stage st.index() back, then arm its `full`.
            let full = self.pipe.producer_acquire(st, TILE_BYTES, self.budget).map_err(Stall::Producer)?;
            let at = [((t % tiles_x) * TILE_W) as i32, ((t / tiles_x) * TILE_H) as i32];
            // SAFETY: the stage is ours (acquire on `empty`), 128-aligned and TILE_BYTES long (new's
            // contract); the TMA completes TILE_BYTES on `full`, armed just above.
            unsafe { cp_async_bulk_tensor_load(self.stage(st.index()), self.map, at, full) };
            st.advance();
            t += step;
        }
        self.pipe.producer_tail(st, self.budget).map_err(Stall::Tail)
    }

    /// **Consumer `c`** (of `consumers`): the same tiles; per tile, waits for `full`, stores its
    /// in-bounds elements `c, c + consumers, …` to `out`, and releases the stage
    /// (`consumer_release`: `fence.proxy.async` — the next write into the stage is TMA's — then
    /// the release arrive on `empty`).
    #[inline(always)]
    pub fn consume(&self, c: u32, first: u32, step: u32) -> Result<(), Stall> {
        let (tiles_x, tiles) = tiles(self.width, self.height);
        let mut st = PipelineState::<STAGES>::consumer_start();
        let mut t = first;
        while t < tiles {
            self.pipe.consumer_wait(st, self.budget).map_err(Stall::Consumer)?;
            let s = self.stage(st.index()).to_generic::<u32>();
            let (x0, y0) = ((t % tiles_x) * TILE_W, (t / tiles_x) * TILE_H);
            let mut e = c;
            while e < TILE_W * TILE_H {
                let (x, y) = (x0 + e % TILE_W, y0 + e / TILE_W);
                if x < self.width && y < self.height {
                    // SAFETY: the tile landed (acquire on `full`, which TMA completed); element
                    // (x, y) of `out` is in bounds and only this consumer writes it.
                    unsafe { *self.out.add(y as usize * self.width as usize + x as usize) = *s.add(e as usize) };
                }
                e += self.consumers;
            }
            self.pipe.consumer_release(st);
            st.advance();
            t += step;
        }
        Ok(())
    }
}

/// The kernels: `tiled_copy_s1` … `tiled_copy_s4` (1 to 4 stages).
///
/// | grid | block | dynamic shared memory |
/// |---|---|---|
/// | `(G,1,1)`, any `G ≥ 1` (CTA `b` copies tiles `b, b + G, …`) | `(160,1,1)`: thread 0 produces, threads 32..160 consume | `STAGES × TILE_BYTES` |
///
/// Parameters: `tmap: *const TensorMap` — a device pointer to the 128-byte map (64-aligned, in
/// global memory; rustc's nvptx kernel ABI cannot pass a 64-aligned struct by value),
/// `out: *mut u32`, `width: u32`, `height: u32`, `status: *mut u32` (one zeroed word; the
/// kernel ORs in [`Stall::bit`] of every stalled role).
#[cfg(target_arch = "nvptx64")]
pub mod kernel {
    use super::*;
    use ptx_sync::barrier::sync_threads_unaligned;
    use ptx_sync::proxy::fence_proxy_tensormap_acquire;
    use ptx_sync::shared::{dynamic_smem, shared_slice};
    use ptx_sync::{shared_array, AtomicRef, Gpu, Relaxed};

    /// Consumer threads per CTA (warps 1–4).
    pub const CONSUMERS: u32 = 128;
    /// Per-wait budget: 500 ms of `%globaltimer`.
    pub const BUDGET_NS: u64 = 500_000_000;

    shared_array!(static TC_FULL: [Mbarrier<Full>; MAX_STAGES], align 8);
    shared_array!(static TC_EMPTY: [Mbarrier<Empty>; MAX_STAGES], align 8);

    #[inline(always)]
    fn sreg() -> (u32, u32, u32) {
        let (t, b, g): (u32, u32, u32);
        unsafe {
            core::arch::asm!("mov.u32 {}, %tid.x;", out(reg32) t, options(pure, nomem, nostack));
            core::arch::asm!("mov.u32 {}, %ctaid.x;", out(reg32) b, options(pure, nomem, nostack));
            core::arch::asm!("mov.u32 {}, %nctaid.x;", out(reg32) g, options(pure, nomem, nostack));
        }
        (t, b, g)
    }

    #[inline(always)]
    unsafe fn run<const STAGES: usize>(tmap: *const TensorMap, out: *mut u32, width: u32, height: u32, status: *mut u32) {
        let (t, cta, ctas) = sreg();
        let copy = TiledCopy::<STAGES>::new(
            shared_slice(TC_FULL),
            shared_slice(TC_EMPTY),
            dynamic_smem(),
            &*tmap,
            out,
            width,
            height,
            CONSUMERS,
            Budget::nanos(BUDGET_NS),
        );
        if t == 0 {
            copy.init();
        }
        // `barrier.sync 0` (no `.aligned`): LLVM may duplicate the call into the `t == 0`
        // branch, and `.aligned` requires all threads of the CTA to execute one and the same
        // barrier instruction (PTX ISA §9.7.13.1).
        sync_threads_unaligned(); // publishes the inits to the CTA
        let r = if t == 0 {
            // The map was written by a host copy: acquire it for the tensormap proxy once.
            // `tmap` is a device allocation (`.global`), as the acquire fence requires.
            fence_proxy_tensormap_acquire::<Gpu>(tmap);
            copy.produce(cta, ctas)
        } else if (32..32 + CONSUMERS).contains(&t) {
            copy.consume(t - 32, cta, ctas)
        } else {
            Ok(())
        };
        if let Err(s) = r {
            AtomicRef::<u32, Gpu>::from_ptr(status).red_or::<Relaxed>(s.bit());
        }
    }

    macro_rules! kernels {
        ($($name:ident $n:literal;)*) => {$(
            #[doc = concat!("The tiled copy with ", stringify!($n), " stage(s).")]
            #[no_mangle]
            pub unsafe extern "ptx-kernel" fn $name(tmap: *const TensorMap, out: *mut u32, width: u32, height: u32, status: *mut u32) {
                run::<$n>(tmap, out, width, height, status)
            }
        )*};
    }
    kernels! {
        tiled_copy_s1 1;
        tiled_copy_s2 2;
        tiled_copy_s3 3;
        tiled_copy_s4 4;
    }
}

#[cfg(target_arch = "nvptx64")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    unsafe { core::arch::asm!("trap;", options(noreturn)) }
}
