//! Tiled copy through a TMA pipeline: global → shared (TMA tile loads into a `STAGES`-deep ring)
//! → global (consumer threads' generic stores), using [`ptx_sync::Pipeline`].
//!
//! The tensor is a row-major `u32` matrix `height × width` (`width % 4 == 0`: TMA requires the
//! row pitch to be a multiple of 16 bytes). Tiles are `TILE_W × TILE_H = 64 × 32` elements
//! (8 KiB); edge tiles are partial: TMA zero-fills the out-of-bounds part of the box (and still
//! completes the full 8 KiB on the barrier) and the consumers store only in-bounds elements.
//!
//! # Launch (host runner)
//!
//! | kernel | grid | block | cluster | dynamic smem |
//! |---|---|---|---|---|
//! | `tiled_copy_s1` … `tiled_copy_s4` | `(G,1,1)`, any `G ≥ 1` (e.g. `min(tiles, 2 × SMs)`) | `(160,1,1)` | none | `STAGES × 8192` |
//! | `tiled_copy_cluster2_s2` | `(G,1,1)`, `G` even | `(160,1,1)` | `(2,1,1)` | `2 × 8192` |
//!
//! Parameters, in order: `tmap: *const CUtensorMap` — a **device pointer to a 64-byte-aligned
//! copy of the 128-byte tensor map in global memory** (copy it with `cuMemcpyHtoD` before the
//! launch; the kernel executes `fence.proxy.tensormap::generic.acquire.gpu [tmap], 128` once
//! before its first TMA use). Not by value: rustc 1.97-nightly's nvptx kernel ABI panics on
//! by-value parameters aligned above 16 bytes (`rustc_target/src/callconv/nvptx64.rs:78`,
//! "Align is given as power of 2 no larger than 16 bytes"). Then `out: *mut u32` (`height × width` words), `width: u32`, `height: u32`, `status: *mut u32`
//! (one word, zeroed by the host; non-zero = a bounded wait timed out: 1 consumer, 2 producer,
//! 4 producer tail).
//!
//! The tensor map: `cuTensorMapEncodeTiled(CU_TENSOR_MAP_DATA_TYPE_UINT32, rank 2,
//! globalAddress = src, globalDim = {width, height}, globalStrides = {width * 4} (the stride of
//! dimension 1 in bytes), boxDim = {64, 32}, elementStrides = {1, 1},
//! CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE
//! (or L2_128B), CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)`.
//!
//! Roles: warp 0 lane 0 is the producer (TMA); warps 1–4 (128 threads) are consumers, each
//! storing 16 elements per tile. CTA `b` handles tiles `b, b + G, b + 2G, …` (tile `t` is at
//! column `t % tiles_x`, row `t / tiles_x`). The cluster variant: each cluster handles tiles
//! `clusterid, clusterid + nclusters, …`; rank 0 multicasts each tile into both CTAs; rank `r`
//! stores rows `16 r .. 16 r + 16` of the tile; all 256 consumers release rank 0's `empty`
//! barrier with `mbarrier.arrive.release.cluster.shared::cluster`.

use ptx_sync::barrier::{sync_threads_unaligned, ClusterBarrier};
use ptx_sync::cluster::{cluster_ctarank, clusterid_x, nclusterid_x};
use ptx_sync::copy::{cp_async_bulk_tensor_load, cp_async_bulk_tensor_load_with, Mods, TensorMap};
use ptx_sync::pipeline::{Empty, Full, PipelineScope};
use ptx_sync::proxy::{fence_mbarrier_init, fence_proxy_async, fence_proxy_tensormap_acquire};
use ptx_sync::sem::Scope;
use ptx_sync::shared::{dynamic_smem, shared_slice, SharedAddr};
use ptx_sync::wait::Budget;
use ptx_sync::*;

/// Tile width (elements, innermost dimension).
pub const TILE_W: u32 = 64;
/// Tile height (rows).
pub const TILE_H: u32 = 32;
/// Bytes per tile.
pub const TILE_BYTES: u32 = TILE_W * TILE_H * 4;
/// Per-wait budget: 500 ms.
pub const BUDGET: u64 = 500_000_000;
/// Consumer threads per CTA.
pub const CONSUMERS: u32 = 128;

shared_array!(static TC_FULL: [Mbarrier<Full>; 4], align 8);
shared_array!(static TC_EMPTY: [Mbarrier<Empty>; 4], align 8);

#[inline(always)]
fn sreg(which: u32) -> u32 {
    let v: u32;
    unsafe {
        match which {
            0 => {
                core::arch::asm!("mov.u32 {}, %tid.x;", out(reg32) v, options(pure, nomem, nostack))
            }
            1 => {
                core::arch::asm!("mov.u32 {}, %ctaid.x;", out(reg32) v, options(pure, nomem, nostack))
            }
            _ => {
                core::arch::asm!("mov.u32 {}, %nctaid.x;", out(reg32) v, options(pure, nomem, nostack))
            }
        }
    }
    v
}

struct Status {
    p: *mut u32,
    failed: bool,
}
impl Status {
    #[inline(always)]
    fn budget(&self) -> Budget {
        if self.failed {
            Budget::iterations(1)
        } else {
            Budget::nanos(BUDGET)
        }
    }
    #[inline(always)]
    fn fail(&mut self, bit: u32) {
        self.failed = true;
        unsafe { AtomicRef::<u32, Gpu>::from_ptr(self.p).red_or::<Relaxed>(bit) };
    }
}

#[inline(always)]
fn stage(i: usize) -> SharedAddr {
    dynamic_smem().offset(i as u32 * TILE_BYTES)
}

/// Consumer `c` (0..128) stores rows `row0..row1` of the tile in stage `i` to `out`.
#[inline(always)]
unsafe fn store_tile(
    i: usize,
    c: u32,
    tx: u32,
    ty: u32,
    row0: u32,
    row1: u32,
    out: *mut u32,
    width: u32,
    height: u32,
) {
    let s = stage(i).to_generic::<u32>();
    let mut e = row0 * TILE_W + c;
    while e < row1 * TILE_W {
        let (gx, gy) = (tx * TILE_W + e % TILE_W, ty * TILE_H + e / TILE_W);
        if gx < width && gy < height {
            *out.add(gy as usize * width as usize + gx as usize) = *s.add(e as usize);
        }
        e += CONSUMERS;
    }
}

#[inline(always)]
unsafe fn tiled_copy<const STAGES: usize, Sco: PipelineScope>(
    tmap: &TensorMap,
    out: *mut u32,
    width: u32,
    height: u32,
    status: *mut u32,
) {
    let t = sreg(0);
    let cluster = Sco::LEVEL == Cluster::LEVEL;
    let (rank, first, step) = if cluster {
        (cluster_ctarank(), clusterid_x(), nclusterid_x())
    } else {
        (0, sreg(1), sreg(2))
    };
    let is_leader = rank == 0;
    let pipe =
        Pipeline::<STAGES, Sco>::new(shared_slice(TC_FULL), shared_slice(TC_EMPTY), 0, is_leader);
    let cb = ClusterBarrier::new(0);
    if t == 0 {
        pipe.init(1, if cluster { 2 * CONSUMERS } else { CONSUMERS });
        if cluster {
            // Publishes the inits to the cluster and to the async proxy (seed §5.4).
            fence_mbarrier_init();
        } else {
            // The inits are generic-proxy writes that TMA (async proxy) will read.
            fence_proxy_async::<Shared>();
        }
    }
    if cluster {
        // No `.aligned` (`arrive`, not the `unsafe` `arrive_aligned`): rustc's inline asm is not `convergent`, and LLVM duplicates this barrier
        // into the `t == 0` branch above; `.aligned` would then be executed at two different
        // instructions by one warp (undefined, PTX ISA barrier.cluster).
        let a = cb.arrive::<Relaxed>();
        cb.wait::<Acquire>(a);
    } else {
        // `barrier.sync 0` (no `.aligned`): LLVM duplicates this barrier into the `t == 0`
        // branch as well (PTX ISA §9.7.13.1: `.aligned` requires all threads of the CTA to
        // execute the same barrier instruction).
        sync_threads_unaligned();
    }
    if t == 0 {
        // `tmap` is a device allocation (`.global`), as the acquire fence requires.
        fence_proxy_tensormap_acquire::<Gpu>(tmap);
    }
    let tiles_x = width.div_ceil(TILE_W);
    let tiles = tiles_x * height.div_ceil(TILE_H);
    let mut s = Status {
        p: status,
        failed: false,
    };
    if t == 0 {
        let mut st = PipelineState::<STAGES>::producer_start();
        let mut tile = first;
        while tile < tiles {
            match pipe.producer_acquire(st, TILE_BYTES, s.budget()) {
                Ok(full) => {
                    if is_leader {
                        let c = [
                            ((tile % tiles_x) * TILE_W) as i32,
                            ((tile / tiles_x) * TILE_H) as i32,
                        ];
                        if cluster {
                            cp_async_bulk_tensor_load_with(
                                stage(st.index()),
                                tmap,
                                c,
                                full,
                                Mods::NONE.multicast(0b11),
                            );
                        } else {
                            cp_async_bulk_tensor_load(stage(st.index()), tmap, c, full);
                        }
                    }
                }
                Err(_) => s.fail(2),
            }
            st.advance();
            tile += step;
        }
        if pipe.producer_tail(st, s.budget()).is_err() {
            s.fail(4);
        }
    } else if t >= 32 && t < 32 + CONSUMERS {
        let c = t - 32;
        let (row0, row1) = if cluster {
            (rank * TILE_H / 2, rank * TILE_H / 2 + TILE_H / 2)
        } else {
            (0, TILE_H)
        };
        let mut st = PipelineState::<STAGES>::consumer_start();
        let mut tile = first;
        while tile < tiles {
            if pipe.consumer_wait(st, s.budget()).is_err() {
                s.fail(1);
            }
            // SAFETY: the wait passed, or it timed out and the run has failed (status bit 1): the
            // stage is still released, so that the producer's waits stay bounded.
            let stage = pipe.consumer_stage_unchecked(st);
            store_tile(
                stage.index(),
                c,
                tile % tiles_x,
                tile / tiles_x,
                row0,
                row1,
                out,
                width,
                height,
            );
            pipe.consumer_release(stage);
            st.advance();
            tile += step;
        }
    }
    if cluster {
        // No CTA exits while its peer may still multicast into it or arrive on its barriers.
        let a = cb.arrive::<Release>();
        cb.wait::<Acquire>(a);
    }
}

macro_rules! tiled_kernels {
    ($($name:ident $n:literal $Sco:ident;)*) => {$(
        #[doc = concat!("Tiled copy, ", stringify!($n), " stage(s), scope `", stringify!($Sco), "` (see the module docs for the launch).")]
        #[no_mangle]
        pub unsafe extern "ptx-kernel" fn $name(tmap: *const TensorMap, out: *mut u32, width: u32, height: u32, status: *mut u32) {
            tiled_copy::<$n, $Sco>(&*tmap, out, width, height, status)
        }
    )*};
}
tiled_kernels! {
    tiled_copy_s1 1 Cta;
    tiled_copy_s2 2 Cta;
    tiled_copy_s3 3 Cta;
    tiled_copy_s4 4 Cta;
    tiled_copy_cluster2_s2 2 Cluster;
}
