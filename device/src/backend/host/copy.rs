//! The host arms of the copies (`device/isa/copy.rows` names them): each copy described as
//! byte moves and issued on the copy engine (`backend/copy_engine.rs`) with its completion
//! mechanism — at once on the host, on an engine thread under loom.

use crate::backend::copy_engine::{self as engine, Batch, Done, Group};
use crate::backend::{Active, CpAsyncBackend};
use crate::copy::{CpAsyncLeaf, TensorMap};
use crate::mbarrier::{Mbarrier, RemoteMbarrier};
use crate::policy::CachePolicy;
use crate::shared::{ClusterAddr, SharedAddr};

/// `cp.async.commit_group` / `cp.async.bulk.commit_group`.
pub(crate) fn commit(g: Group) {
    engine::commit(g)
}

/// `cp.async.wait_group N` (`Some(N)`) / `wait_all` (`None`), and the bulk waits.
pub(crate) fn wait(g: Group, pending: Option<u32>) {
    engine::wait(g, pending)
}

/// `cp.async`: the copy at issue (host) or on an engine thread (loom), in the thread's
/// `cp.async` group; the hints change nothing.
impl CpAsyncBackend for Active {
    unsafe fn cp_async<L: CpAsyncLeaf>(dst: SharedAddr, src: *const u8) {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe {
            engine::host_copy(Done::CpAsync, dst.0, src, L::BYTES);
        }
    }
    unsafe fn cp_async_zfill<L: CpAsyncLeaf>(dst: SharedAddr, src: *const u8, src_size: u32) {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe {
            let mut b = Batch::new();
            b.copy(dst.0, src, src_size as usize);
            b.zero(dst.0 + src_size as usize, L::BYTES - src_size as usize);
            b.issue(Done::CpAsync);
        }
    }
    unsafe fn cp_async_hint<L: CpAsyncLeaf>(dst: SharedAddr, src: *const u8, _: CachePolicy) {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe { Self::cp_async::<L>(dst, src) }
    }
    unsafe fn cp_async_zfill_hint<L: CpAsyncLeaf>(
        dst: SharedAddr,
        src: *const u8,
        src_size: u32,
        _: CachePolicy,
    ) {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe { Self::cp_async_zfill::<L>(dst, src, src_size) }
    }
}

/// `cp.async.bulk` global → this CTA's shared memory, completing `bytes` on `bar`.
pub(crate) unsafe fn g2s<Tag>(dst: SharedAddr, src: *const u8, bytes: u32, bar: &Mbarrier<Tag>) {
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe {
        engine::host_copy(Done::tx(bar, bytes), dst.0, src, bytes as usize);
    }
}

/// … `.multicast::cluster`: the same copy in every CTA of `mask` (`engine::host_multicast`).
pub(crate) unsafe fn g2s_multicast<Tag>(
    dst: SharedAddr,
    src: *const u8,
    bytes: u32,
    bar: &Mbarrier<Tag>,
    mask: u16,
) {
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe {
        engine::host_multicast(bar, dst.0, src, bytes as usize, mask);
    }
}

/// `cp.async.bulk` this CTA's shared memory → global, completing through a bulk group.
pub(crate) unsafe fn s2g(dst: *mut u8, src: SharedAddr, bytes: u32) {
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe {
        engine::host_copy(
            Done::BulkGroup,
            dst as usize,
            src.0 as *const u8,
            bytes as usize,
        );
    }
}

/// `cp.async.bulk` this CTA → a peer CTA's shared memory, completing on the peer's barrier.
pub(crate) unsafe fn s2c<Tag>(
    dst: ClusterAddr,
    src: SharedAddr,
    bytes: u32,
    bar: RemoteMbarrier<'_, Tag>,
) {
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe {
        let done = Done::tx(bar.local(), bytes);
        engine::host_copy(done, dst.0, src.0 as *const u8, bytes as usize);
    }
}

/// A tiled tensor load of the box at `coords` (out-of-bounds elements zero-filled, the whole
/// box's bytes completed on `bar`).
pub(crate) unsafe fn tensor_load<Tag>(
    dst: SharedAddr,
    map: &TensorMap,
    coords: &[i32],
    bar: &Mbarrier<Tag>,
) {
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe {
        let eb = map.host_elem();
        let mut b = Batch::new();
        let bytes = map.host_box(coords, |off, g| match g {
            Some(a) => b.copy(dst.0 + off, a as *const u8, eb),
            None => b.zero(dst.0 + off, eb),
        });
        b.issue(Done::tx(bar, bytes));
    }
}

/// An im2col tensor load (`TensorMap::host_im2col`) of the box at `coords` with the im2col
/// `offsets`; out-of-tensor elements zero-filled; the bytes complete on `bar`.
pub(crate) unsafe fn im2col_load<Tag>(
    dst: SharedAddr,
    map: &TensorMap,
    coords: &[i32],
    offsets: &[u16],
    bar: &Mbarrier<Tag>,
) {
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe {
        let eb = map.host_elem();
        let mut b = Batch::new();
        let bytes = map.host_im2col_box(coords, offsets, |off, g| match g {
            Some(a) => b.copy(dst.0 + off, a as *const u8, eb),
            None => b.zero(dst.0 + off, eb),
        });
        b.issue(Done::tx(bar, bytes));
    }
}

/// A tiled tensor store of the box at `coords` (out-of-bounds elements not written), through
/// a bulk group.
pub(crate) unsafe fn tensor_store(map: &TensorMap, coords: &[i32], src: SharedAddr) {
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe {
        let eb = map.host_elem();
        let mut b = Batch::new();
        map.host_box(coords, |off, g| {
            if let Some(a) = g {
                b.copy(a, (src.0 + off) as *const u8, eb);
            }
        });
        b.issue(Done::BulkGroup);
    }
}
