//! Catalog kernels for the async families (barrier, cluster, mbarrier, proxy, copy): one call of
//! every variant through the public API, so that each row's `PTX` text appears in catalog.ptx and
//! ptxas (sm_90a) accepts it. Lists written here by hand, independently of the device crate's
//! tables. Assembled, never launched (addresses are arbitrary).

use ptx_sync::cluster::*;
use ptx_sync::copy::*;
use ptx_sync::shared::{to_shared, ClusterAddr, SharedAddr};
use ptx_sync::*;

#[inline(always)]
fn keep<T: Copy>(out: *mut u64, v: T) {
    unsafe { core::ptr::write_volatile(out as *mut T, v) }
}

/// `bar.*` (`NamedBarrier<Aligned>`), `barrier.{sync,arrive,red}` (the default, no `.aligned`), `barrier.cluster.*`, cluster special registers, `mapa`, `getctarank`, `elect.sync`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn catalog_barrier_cluster(p: *mut u64, out: *mut u64) {
    // The barrier rows (device/isa/barrier.rows), each through its Rust path (assembled, never
    // run: the contract of `new_aligned` and `sync_threads_aligned` is the caller's).
    ptx_sync::catalog_calls_barrier!(p, out);
    // The cluster rows (device/isa/cluster.rows): special registers, `mapa`, `getctarank`,
    // `elect.sync`.
    ptx_sync::catalog_calls_cluster!(p, out);
}

/// Every mbarrier variant: the rows of device/isa/mbarrier.rows, each through its Rust path.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn catalog_mbarrier(p: *mut u64, out: *mut u64) {
    ptx_sync::catalog_calls_mbarrier!(p, out);
}

/// Proxy fences, the restricted fences, `tensormap.cp_fenceproxy`, `createpolicy`,
/// `prefetch.tensormap`: the rows of device/isa/{proxy,sync_restrict,tensormap,policy}.rows, each
/// through its Rust path.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn catalog_proxy(p: *mut u64) {
    // (no output pointer: the calls that keep a value write it through `p`)
    ptx_sync::catalog_calls_proxy!(p, p);
    ptx_sync::catalog_calls_sync_restrict!(p, p);
    ptx_sync::catalog_calls_tensormap!(p, p);
    ptx_sync::catalog_calls_policy!(p, p);
    ptx_sync::catalog_calls_tensormap_prefetch!(p, p);
}

/// `griddepcontrol`, `membar`, `nanosleep`: the rows of device/isa/{grid,membar,wait}.rows.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn catalog_control(p: *mut u64) {
    ptx_sync::catalog_calls_grid!(p, p);
    ptx_sync::catalog_calls_membar!(p, p);
    ptx_sync::catalog_calls_wait!(p, p);
}

/// `st.async` / `red.async`: the rows of device/isa/st_async.rows, each through its Rust path
/// (assembled, never run: the destination and barrier stand for a peer CTA's, rank 1, as the ISA
/// requires).
#[no_mangle]
pub unsafe extern "ptx-kernel" fn catalog_st_async(p: *mut u64) {
    let m: &Mbarrier = Mbarrier::from_shared(p);
    let dst = mapa(to_shared(p.add(2)), 1);
    let x = *p.add(1);
    ptx_sync::catalog_calls_st_async!(p, p, dst, m, x);
}

/// cp.async, bulk and tensor copies.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn catalog_copy(p: *mut u64, map: *const TensorMap) {
    let map = &*map;
    let s: SharedAddr = to_shared(p);
    let g = p as *const u8;
    let m: &Mbarrier = Mbarrier::from_shared(p.add(8));
    cp_async::<Ca, 4>(s, g);
    cp_async::<Ca, 8>(s, g);
    cp_async::<Ca, 16>(s, g);
    cp_async::<Cg, 16>(s, g);
    cp_async_zfill::<Ca, 4>(s, g, 2);
    cp_async_zfill::<Ca, 8>(s, g, 4);
    cp_async_zfill::<Ca, 16>(s, g, 8);
    cp_async_zfill::<Cg, 16>(s, g, 0);
    // the cp.async groups and the bulk copies (device/isa/copy.rows)
    ptx_sync::catalog_calls_copy_groups!(p, p, s, g, m);
    // the .L2::cache_hint forms, with a policy from createpolicy
    let pol = ptx_sync::policy::createpolicy::<
        ptx_sync::policy::EvictFirst,
        ptx_sync::policy::NoSecondary,
    >(1.0);
    // cp.reduce.async.bulk: the PTX ISA's op/type table (device/isa/copy_reduce.rows)
    ptx_sync::catalog_calls_copy_reduce!(p, p, s, m, pol);
    cp_async_hint::<Ca, 4>(s, g, pol);
    cp_async_hint::<Ca, 8>(s, g, pol);
    cp_async_hint::<Ca, 16>(s, g, pol);
    cp_async_hint::<Cg, 16>(s, g, pol);
    cp_async_zfill_hint::<Ca, 4>(s, g, 2, pol);
    cp_async_zfill_hint::<Ca, 8>(s, g, 4, pol);
    cp_async_zfill_hint::<Ca, 16>(s, g, 8, pol);
    cp_async_zfill_hint::<Cg, 16>(s, g, 0, pol);
    // .level::prefetch_size (PTX ISA §9.7.9.25.3): every cp.async row per prefetch size
    macro_rules! cp_pf {
        ($($C:ident $n:literal $z:literal),*) => {$(
            cp_pf!(@ $C $n $z; Prefetch64B Prefetch128B Prefetch256B);
        )*};
        (@ $C:ident $n:literal $z:literal; $($P:ident)*) => {$(
            cp_async_prefetch::<$C, $n, $P>(s, g);
            cp_async_zfill_prefetch::<$C, $n, $P>(s, g, $z);
            cp_async_hint_prefetch::<$C, $n, $P>(s, g, pol);
            cp_async_zfill_hint_prefetch::<$C, $n, $P>(s, g, $z, pol);
        )*};
    }
    cp_pf!(Ca 4 2, Ca 8 4, Ca 16 8, Cg 16 0);
    // the .L2::cache_hint bulk copies and the tiled tensor copies (device/isa/copy.rows)
    ptx_sync::catalog_calls_copy_hint!(p, p, s, g, m, pol);
    ptx_sync::catalog_calls_copy_tensor!(p, p, s, m, map, pol);
    // cp.reduce.async.bulk.tensor: every redOp, .tile on 1d-5d, .im2col_no_offs on 3d-5d
    // (device/isa/copy_tensor_reduce.rows)
    ptx_sync::catalog_calls_tensor_reduce!(p, p, s, map, pol);
    // the .im2col loads and prefetches (3d-5d, D - 2 16-bit offsets: device/isa/copy.rows)
    ptx_sync::catalog_calls_copy_im2col!(p, p, s, m, map, pol);
}
