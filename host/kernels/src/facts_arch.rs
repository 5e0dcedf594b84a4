//! The architecture-specific operations compared with CUDA C++ (`cuda::ptx` of CCCL 13.0):
//! `cmp_<op>` here, built with the arch catalogs (feature `catalog_arch`, `-Ctarget-cpu=sm_90a`
//! into `catalog_sm90a.ptx`, `sm_100a` into `catalog_sm100a.ptx`), against `cpp_<op>` of
//! `host/kernels/cpp/reference_arch.cu` built by nvcc for the same target
//! (`device/tests/cpp_compare.rs`). Assembled, never launched.

#[allow(unused_imports)]
use ptx_sync::copy::TensorMap;
#[allow(unused_imports)]
use ptx_sync::tensormap::replace::*;
#[allow(unused_imports)]
use ptx_sync::*;

/// `tensormap.replace.tile.global_address.global.b1024.b64 [m], v` ≡
/// `cuda::ptx::tensormap_replace_global_address(space_global, m, v)`.
#[cfg(any(target_feature = "sm_90a", target_feature = "sm_100a"))]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_tensormap_replace_global_address_global(m: *mut u32, v: u64) {
    tensormap_replace::<GlobalAddress, Global>(m as *mut TensorMap, v);
}

/// `tensormap.replace.tile.rank.shared::cta.b1024.b32 [m], v` (`m` a generic address of this
/// CTA's shared memory) ≡ `cuda::ptx::tensormap_replace_rank(space_shared, m, v)`.
#[cfg(any(target_feature = "sm_90a", target_feature = "sm_100a"))]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_tensormap_replace_rank_shared(m: *mut u32, v: u32) {
    tensormap_replace::<Rank, Shared>(m as *mut TensorMap, v);
}

/// `tensormap.replace.tile.box_dim.global.b1024.b32 [m], 1, v` ≡
/// `cuda::ptx::tensormap_replace_box_dim(space_global, m, n32_t<1>, v)`.
#[cfg(any(target_feature = "sm_90a", target_feature = "sm_100a"))]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_tensormap_replace_box_dim_global(m: *mut u32, v: u32) {
    tensormap_replace_ord::<BoxDim, Global, 1>(m as *mut TensorMap, v);
}

/// `tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [m], 2, v` ≡
/// `cuda::ptx::tensormap_replace_global_stride(space_shared, m, n32_t<2>, v)`.
#[cfg(any(target_feature = "sm_90a", target_feature = "sm_100a"))]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_tensormap_replace_global_stride_shared(m: *mut u32, v: u64) {
    tensormap_replace_ord::<GlobalStride, Shared, 2>(m as *mut TensorMap, v);
}

/// `tensormap.replace.tile.elemtype.global.b1024.b32 [m], 7` ≡
/// `cuda::ptx::tensormap_replace_elemtype(space_global, m, n32_t<7>)`.
#[cfg(any(target_feature = "sm_90a", target_feature = "sm_100a"))]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_tensormap_replace_elemtype_global(m: *mut u32) {
    tensormap_replace_imm::<Elemtype, Global, 7>(m as *mut TensorMap);
}

/// `tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [m], 3` ≡
/// `cuda::ptx::tensormap_replace_swizzle_mode(space_shared, m, n32_t<3>)`.
#[cfg(any(target_feature = "sm_90a", target_feature = "sm_100a"))]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_tensormap_replace_swizzle_mode_shared(m: *mut u32) {
    tensormap_replace_imm::<SwizzleMode, Shared, 3>(m as *mut TensorMap);
}

/// `tensormap.replace.tile.global_dim.global.b1024.b32 [m], 3, v` ≡
/// `cuda::ptx::tensormap_replace_global_dim(space_global, m, n32_t<3>, v)`.
#[cfg(any(target_feature = "sm_90a", target_feature = "sm_100a"))]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_tensormap_replace_global_dim_global(m: *mut u32, v: u32) {
    tensormap_replace_ord::<GlobalDim, Global, 3>(m as *mut TensorMap, v);
}

/// `tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [m], 4, v` ≡
/// `cuda::ptx::tensormap_replace_element_stride(space_shared, m, n32_t<4>, v)`.
#[cfg(any(target_feature = "sm_90a", target_feature = "sm_100a"))]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_tensormap_replace_element_stride_shared(m: *mut u32, v: u32) {
    tensormap_replace_ord::<ElementStride, Shared, 4>(m as *mut TensorMap, v);
}

/// `tensormap.replace.tile.interleave_layout.global.b1024.b32 [m], 1` ≡
/// `cuda::ptx::tensormap_replace_interleave_layout(space_global, m, n32_t<1>)`.
#[cfg(any(target_feature = "sm_90a", target_feature = "sm_100a"))]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_tensormap_replace_interleave_layout_global(m: *mut u32) {
    tensormap_replace_imm::<InterleaveLayout, Global, 1>(m as *mut TensorMap);
}

/// `tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [m], 1` ≡
/// `cuda::ptx::tensormap_replace_fill_mode(space_shared, m, n32_t<1>)`.
#[cfg(any(target_feature = "sm_90a", target_feature = "sm_100a"))]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_tensormap_replace_fill_mode_shared(m: *mut u32) {
    tensormap_replace_imm::<FillMode, Shared, 1>(m as *mut TensorMap);
}

/// sm_100a: `tensormap.replace.tile.swizzle_atomicity.global.b1024.b32 [m], 1` ≡
/// `cuda::ptx::tensormap_replace_swizzle_atomicity(space_global, m, n32_t<1>)`.
#[cfg(target_feature = "sm_100a")]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_tensormap_replace_swizzle_atomicity_global(m: *mut u32) {
    tensormap_replace_imm::<SwizzleAtomicity, Global, 1>(m as *mut TensorMap);
}

/// sm_100: `clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128
/// [r], [b]` ≡ `cuda::ptx::clusterlaunchcontrol_try_cancel(r, b)` (both generic addresses of
/// this CTA's shared memory).
#[cfg(target_feature = "sm_100a")]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_clusterlaunchcontrol_try_cancel(r: *mut u32, b: *mut u32) {
    let bar: &Mbarrier = Mbarrier::from_shared(b as *mut u64);
    clc::try_cancel(r as *mut clc::ClcResponse, bar);
}

/// sm_100a: `….multicast::cluster::all.b128 [r], [b]` ≡
/// `cuda::ptx::clusterlaunchcontrol_try_cancel_multicast(r, b)`.
#[cfg(target_feature = "sm_100a")]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_clusterlaunchcontrol_try_cancel_multicast(
    r: *mut u32,
    b: *mut u32,
) {
    let bar: &Mbarrier = Mbarrier::from_shared(b as *mut u64);
    clc::try_cancel_multicast(r as *mut clc::ClcResponse, bar);
}

/// sm_100: `clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 p, q` of the response at
/// `r`, stored as 0/1 to `r[4]` ≡ `cuda::ptx::clusterlaunchcontrol_query_cancel_is_canceled`.
#[cfg(target_feature = "sm_100a")]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_clusterlaunchcontrol_query_cancel_is_canceled(r: *mut u32) {
    let q = *(r as *const clc::ClcResponse);
    *r.add(4) = q.is_canceled() as u32;
}

/// sm_100: `clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128 d, q` ≡
/// `cuda::ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x`.
#[cfg(target_feature = "sm_100a")]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_clusterlaunchcontrol_query_cancel_get_first_ctaid_x(
    r: *mut u32,
) {
    let q = *(r as *const clc::ClcResponse);
    *r.add(4) = q.first_ctaid_x_unchecked();
}

/// sm_100: `clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {x, y, z, _}, q`,
/// `x`, `y`, `z` stored to `r[4..7]` ≡ `cuda::ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid`
/// (`B32 (&)[4]`; its 4th element not stored).
#[cfg(target_feature = "sm_100a")]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_clusterlaunchcontrol_query_cancel_get_first_ctaid_v4(
    r: *mut u32,
) {
    let q = *(r as *const clc::ClcResponse);
    let [x, y, z] = q.first_ctaid_unchecked();
    *r.add(4) = x;
    *r.add(5) = y;
    *r.add(6) = z;
}

/// `cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [d], [s], 256, [b]` (PTX 8.6,
/// sm_90; compared in the sm_100a build) ≡ `cuda::ptx::cp_async_bulk(space_shared,
/// space_global, d, s, 256, b)`.
#[cfg(target_feature = "sm_100a")]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_cp_async_bulk_g2s_cta(d: *mut u32, s: *mut u32, b: *mut u32) {
    let m: &Mbarrier = Mbarrier::from_shared(b as *mut u64);
    copy::blackwell::cp_async_bulk_g2s_cta(shared::to_shared(d), s as *const u8, 256, m);
}

/// sm_100: `cp.async.bulk.global.shared::cta.bulk_group.cp_mask [d], [s], 256, 0xff` ≡
/// `cuda::ptx::cp_async_bulk_cp_mask(space_global, space_shared, d, s, 256, 0xff)`.
#[cfg(target_feature = "sm_100a")]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_cp_async_bulk_s2g_cp_mask(d: *mut u32, s: *mut u32) {
    copy::blackwell::cp_async_bulk_s2g_cp_mask(d as *mut u8, shared::to_shared(s), 256, 0xff);
}

/// sm_100: `cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes
/// [d], [m, {c[0], c[1..5]}], [b]` ≡ `cuda::ptx::cp_async_bulk_tensor_tile_gather4(space_shared,
/// space_global, d, m, c, b)`.
#[cfg(target_feature = "sm_100a")]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_cp_async_bulk_tensor_gather4_cta(
    d: *mut u32,
    m: *mut u32,
    c: *mut i32,
    b: *mut u32,
) {
    let bar: &Mbarrier = Mbarrier::from_shared(b as *mut u64);
    let map = &*(m as *const TensorMap);
    let rows = [*c.add(1), *c.add(2), *c.add(3), *c.add(4)];
    copy::blackwell::cp_async_bulk_tensor_gather4::<Shared, _>(
        shared::to_shared(d),
        map,
        *c,
        rows,
        bar,
    );
}

/// sm_100a: `cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group [m, {c[0],
/// c[1..5]}], [s]` ≡ `cuda::ptx::cp_async_bulk_tensor_tile_scatter4(space_global, space_shared,
/// m, c, s)`.
#[cfg(target_feature = "sm_100a")]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_cp_async_bulk_tensor_scatter4(
    m: *mut u32,
    c: *mut i32,
    s: *mut u32,
) {
    let map = &*(m as *const TensorMap);
    let rows = [*c.add(1), *c.add(2), *c.add(3), *c.add(4)];
    copy::blackwell::cp_async_bulk_tensor_scatter4(map, *c, rows, shared::to_shared(s));
}
