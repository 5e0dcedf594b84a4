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

/// A tensor load's visit of one element at box offset `off` (`TensorMap::host_box` and its
/// kin): in bounds (`Some(global address)`) copied to `dst + off`, out of bounds zero-filled
/// (PTX ISA §9.7.9.25.5).
///
/// # Safety
/// `dst + off` valid for `eb` bytes; an in-bounds element readable.
unsafe fn load_elem(b: &mut Batch, dst: usize, eb: usize, off: usize, g: Option<usize>) {
    // SAFETY: the caller's contract.
    unsafe {
        match g {
            Some(a) => b.copy(dst + off, a as *const u8, eb),
            None => b.zero(dst + off, eb),
        }
    }
}

/// A tensor store's visit of one element at box offset `off`: in bounds copied from
/// `src + off` to global memory, out of bounds not written (PTX ISA §9.7.9.25.5).
///
/// # Safety
/// `src + off` valid for `eb` bytes; an in-bounds element writable.
unsafe fn store_elem(b: &mut Batch, src: usize, eb: usize, off: usize, g: Option<usize>) {
    if let Some(a) = g {
        // SAFETY: the caller's contract.
        unsafe { b.copy(a, (src + off) as *const u8, eb) };
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
    let eb = map.host_elem();
    let mut b = Batch::new();
    // SAFETY (both blocks): the load's contract (`dst` holds the box, the map is valid).
    let bytes = map.host_box(coords, |off, g| unsafe {
        load_elem(&mut b, dst.0, eb, off, g)
    });
    unsafe { b.issue(Done::tx(bar, bytes)) };
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
    let eb = map.host_elem();
    let mut b = Batch::new();
    // SAFETY (both blocks): the load's contract.
    let bytes = map.host_im2col_box(coords, offsets, |off, g| unsafe {
        load_elem(&mut b, dst.0, eb, off, g)
    });
    unsafe { b.issue(Done::tx(bar, bytes)) };
}

/// A tiled tensor store of the box at `coords` (out-of-bounds elements not written), through
/// a bulk group.
pub(crate) unsafe fn tensor_store(map: &TensorMap, coords: &[i32], src: SharedAddr) {
    let eb = map.host_elem();
    let mut b = Batch::new();
    // SAFETY (both blocks): the store's contract (`src` holds the box, the map is valid).
    map.host_box(coords, |off, g| unsafe {
        store_elem(&mut b, src.0, eb, off, g)
    });
    unsafe { b.issue(Done::BulkGroup) };
}

/// `.tile::gather4` on a 2-D tiled host map: each of the four rows `(x, rows[i])` a one-row
/// box of the map's box width, at `i · width` elements of `dst` (out-of-bounds elements
/// zero-filled, as the tile load does); the bytes complete on `bar`. `what` names the
/// instruction in the map's checks.
pub(crate) unsafe fn gather4<Tag>(
    dst: SharedAddr,
    map: &TensorMap,
    x: i32,
    rows: [i32; 4],
    bar: &Mbarrier<Tag>,
    what: &str,
) {
    let w = map.host_tile_sides(what, 2)[0];
    let eb = map.host_elem();
    let mut b = Batch::new();
    let mut bytes = 0;
    for (i, &y) in rows.iter().enumerate() {
        let base = dst.0 + i * w * eb;
        // SAFETY: the load's contract (`dst` holds the four rows).
        bytes += map.host_rows(&[x, y], &[w, 1], |off, g| unsafe {
            load_elem(&mut b, base, eb, off, g)
        });
    }
    // SAFETY: as above.
    unsafe { b.issue(Done::tx(bar, bytes)) };
}

/// `.tile::scatter4` on a 2-D tiled host map: row `i` of `src` (`width` elements at
/// `i · width`) to the one-row box at `(x, rows[i])`, out-of-bounds elements skipped, through a
/// bulk group.
pub(crate) unsafe fn scatter4(
    map: &TensorMap,
    x: i32,
    rows: [i32; 4],
    src: SharedAddr,
    what: &str,
) {
    let w = map.host_tile_sides(what, 2)[0];
    let eb = map.host_elem();
    let mut b = Batch::new();
    for (i, &y) in rows.iter().enumerate() {
        let base = src.0 + i * w * eb;
        // SAFETY: the store's contract (`src` holds the four rows).
        map.host_rows(&[x, y], &[w, 1], |off, g| unsafe {
            store_elem(&mut b, base, eb, off, g)
        });
    }
    // SAFETY: as above.
    unsafe { b.issue(Done::BulkGroup) };
}

/// `cp.async.bulk…bulk_group.cp_mask`: byte `i` of each 16-byte chunk of `src` to `dst` only
/// where bit `i` of `mask` is set, through a bulk group.
pub(crate) unsafe fn s2g_cp_mask(dst: *mut u8, src: SharedAddr, bytes: u32, mask: u16) {
    let s = src.0 as *const u8;
    let mut b = Batch::new();
    for i in 0..bytes as usize {
        if mask >> (i % 16) & 1 != 0 {
            // SAFETY: the copy's contract (`dst` and `src` valid for `bytes`).
            unsafe { b.copy(dst.add(i) as usize, s.add(i), 1) };
        }
    }
    // SAFETY: as above.
    unsafe { b.issue(Done::BulkGroup) };
}
