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
    macro_rules! both {
        ($($f:ident::<$F:ident $(, $c:literal)?>($($a:expr)?);)*) => {$(
            $f::<$F, Global $(, $c)?>(g $(, $a)?);
            $f::<$F, Shared $(, $c)?>(s $(, $a)?);
            $f::<$F, Generic $(, $c)?>(g $(, $a)?);
        )*};
    }
    both! {
        tensormap_replace::<GlobalAddress>(w);
        tensormap_replace::<Rank>(v);
        tensormap_replace_ord::<BoxDim, 1>(v);
        tensormap_replace_ord::<GlobalDim, 2>(v);
        tensormap_replace_ord::<GlobalStride, 3>(w);
        tensormap_replace_ord::<ElementStride, 4>(v);
        tensormap_replace_imm::<Elemtype, 7>();
        tensormap_replace_imm::<InterleaveLayout, 0>();
        tensormap_replace_imm::<SwizzleMode, 3>();
        tensormap_replace_imm::<FillMode, 1>();
    }
    #[cfg(target_feature = "sm_100a")]
    both! {
        tensormap_replace_imm::<SwizzleAtomicity, 1>();
    }
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

/// sm_100a: `tensormap.replace` (with `.swizzle_atomicity`), and the portable sm_100 rows (PTX
/// 8.7): `st.async`/`red.async` `.release` to `.global` (`g` stands for a global address).
#[cfg(target_feature = "sm_100a")]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn catalog_sm100a(
    g: *mut TensorMap,
    s: *mut TensorMap,
    v: u32,
    w: u64,
) {
    tensormap_replace_all(g, s, v, w);
    use ptx_sync::st_async::release::*;
    let p = g as *mut u64;
    macro_rules! st {
        ($bits:tt $T:ident $pt:literal) => {
            st_async_release::<Gpu, $T>(p as *mut $T, w as $T);
            st_async_release::<Sys, $T>(p as *mut $T, w as $T);
            st_async_mmio_release::<$T>(p as *mut $T, w as $T);
        };
    }
    ptx_sync::st_async_release_rows! { st }
    macro_rules! red {
        ($bits:tt $T:ident $pt:literal) => {
            red_async_release_add::<Gpu, $T>(p as *mut $T, w as $T);
            red_async_release_add::<Sys, $T>(p as *mut $T, w as $T);
            red_async_mmio_release_add::<$T>(p as *mut $T, w as $T);
        };
    }
    ptx_sync::red_async_release_rows! { red }
}
