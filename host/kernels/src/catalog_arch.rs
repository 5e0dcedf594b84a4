//! Catalog kernels of the architecture-specific rows (`Variant::arch`, `Variant::sm` ≥ 100): one
//! call of every such variant through the public API, built by `cargo xtask ptx` with feature
//! `catalog_arch` for `-Ctarget-cpu=sm_90a` (`catalog_sm90a.ptx`) and `sm_100a`
//! (`catalog_sm100a.ptx`), and assembled by ptxas for that target. Lists written here by hand,
//! independently of the device crate's tables. Assembled, never launched.

#[allow(unused_imports)]
use ptx_sync::copy::TensorMap;
#[allow(unused_imports)]
use ptx_sync::tensormap::replace::*;
#[allow(unused_imports)]
use ptx_sync::*;

/// Every `tensormap.replace` row of sm_90a and sm_100a: in the global, the shared and the generic
/// space.
#[cfg(any(target_feature = "sm_90a", target_feature = "sm_100a"))]
#[inline(always)]
unsafe fn tensormap_replace_all(g: *mut TensorMap, s: *mut TensorMap, v: u32, w: u64) {
    // the rows of device/isa/tensormap_replace.rows, each through its Rust path
    ptx_sync::catalog_calls_tensormap_replace!(g, g, g, s, v, w);
    #[cfg(target_feature = "sm_100a")]
    ptx_sync::catalog_calls_tensormap_replace_sm100a!(g, g, g, s);
}

/// sm_90a: `tensormap.replace` on a map in global memory (`g`) and one staged in shared memory
/// (`s`, a generic address in this CTA's window).
#[cfg(target_feature = "sm_90a")]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn catalog_sm90a(
    g: *mut TensorMap,
    s: *mut TensorMap,
    v: u32,
    w: u64,
) {
    tensormap_replace_all(g, s, v, w);
}

/// sm_100 / sm_100a: `clusterlaunchcontrol.try_cancel` (both forms), and each `query_cancel`
/// of the response the request wrote.
#[cfg(target_feature = "sm_100a")]
#[inline(always)]
unsafe fn clc_all(p: *mut u64, out: *mut u32) {
    // the rows of device/isa/clc.rows, each through its Rust path
    ptx_sync::catalog_calls_clc!(p, out);
}

/// sm_100 / sm_100a: the Blackwell TMA forms of `copy::blackwell` (every `.cta_group` rank and
/// group, gather4 into both spaces, scatter4, the masked store).
#[cfg(target_feature = "sm_100a")]
#[inline(always)]
unsafe fn blackwell_all(p: *mut u64, map: &TensorMap, g: *mut u8) {
    use ptx_sync::shared::to_shared;
    let bar: &Mbarrier = Mbarrier::from_shared(p);
    let d = to_shared(p.add(16));
    let c = *(p as *const i32);
    // the rows of device/isa/copy_blackwell.rows, each through its Rust path
    ptx_sync::catalog_calls_blackwell!(p, p, d, map, c, bar, g);
}

/// sm_100a: `tensormap.replace` (with `.swizzle_atomicity`), cluster launch control, the
/// Blackwell TMA forms, and the portable sm_100 rows (PTX 8.7): `st.async`/`red.async`
/// `.release` to `.global` (`g` stands for a global address).
#[cfg(target_feature = "sm_100a")]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn catalog_sm100a(
    g: *mut TensorMap,
    s: *mut TensorMap,
    v: u32,
    w: u64,
    p: *mut u64,
    out: *mut u32,
    map: *const TensorMap,
) {
    tensormap_replace_all(g, s, v, w);
    clc_all(p, out);
    blackwell_all(p, &*map, out.cast());
    // the rows of device/isa/st_async_release.rows, each through its Rust path
    let gp = g as *mut u64;
    ptx_sync::catalog_calls_st_async_release!(p, out, gp, w);
}
