//! Kernels whose SASS the tests inspect: the seed's facts (§3.5 spin loops, §4.5 RED vs ATOM,
//! fence → MEMBAR) and the operations compared with CUDA C++ (libcu++) reference kernels
//! (`host/kernels/cpp/reference.cu`, same names with a `cpp_` prefix).

use ptx_sync::*;

/// Iteration bound of the spin loops below.
const SPIN_LIMIT: u32 = 1 << 30;

/// Seed §3.5: a spin on a *weak* load. The compiler may assume nobody else writes `full`, so
/// the loop (bounded here, as every device wait) and the flag's load are deleted: only the read
/// of `data` remains.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn fact_spin_weak(full: *mut u32, data: *mut u32, out: *mut u32) {
    let f = AtomicRef::<u32, Gpu, Global>::from_ptr(full);
    // Bounded, as every device wait here is (the kernels are assembled for their SASS, never
    // launched, but a copy of them must not hang a GPU).
    let mut n = 0u32;
    while f.load::<Weak>() != 1 && n < SPIN_LIMIT {
        n += 1;
    }
    *out = *data;
}

/// Seed §3.5: a spin on `ld.relaxed.gpu.global`: the loop stays (`LDG.E.STRONG.GPU` in a loop).
#[no_mangle]
pub unsafe extern "ptx-kernel" fn fact_spin_relaxed(full: *mut u32, data: *mut u32, out: *mut u32) {
    let f = AtomicRef::<u32, Gpu, Global>::from_ptr(full);
    // Bounded, as every device wait here is (the kernels are assembled for their SASS, never
    // launched, but a copy of them must not hang a GPU).
    let mut n = 0u32;
    while f.load::<Relaxed>() != 1 && n < SPIN_LIMIT {
        n += 1;
    }
    *out = *data;
}

/// Seed §3.5, generic addressing: `ld.relaxed.gpu` → `LD.E.STRONG.GPU` in a loop.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn fact_spin_relaxed_generic(
    full: *mut u32,
    data: *mut u32,
    out: *mut u32,
) {
    let f = AtomicRef::<u32, Gpu>::from_ptr(full);
    // Bounded, as every device wait here is (the kernels are assembled for their SASS, never
    // launched, but a copy of them must not hang a GPU).
    let mut n = 0u32;
    while f.load::<Relaxed>() != 1 && n < SPIN_LIMIT {
        n += 1;
    }
    *out = *data;
}

/// Seed §4.5: `atom.add` whose result is unused → `REDG`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn fact_atom_unused(count: *mut u32) {
    let _ = AtomicRef::<u32, Gpu, Global>::from_ptr(count).fetch_add::<Relaxed>(1);
}

/// Seed §4.5: `atom.add` whose result is used → `ATOMG`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn fact_atom_used(count: *mut u32, out: *mut u32) {
    *out = AtomicRef::<u32, Gpu, Global>::from_ptr(count).fetch_add::<Relaxed>(1);
}

macro_rules! cmp_kernels {
    ($( $(#[$m:meta])* $name:ident($p:ident) $body:block )*) => {$(
        $(#[$m])*
        #[no_mangle]
        pub unsafe extern "ptx-kernel" fn $name($p: *mut u32) $body
    )*};
}

// Kernels compared op-for-op with `cpp_<same name without cmp_>` in reference.cu.
cmp_kernels! {
    /// `fence.sc.gpu` ≡ `cuda::atomic_thread_fence(memory_order_seq_cst, thread_scope_device)`.
    cmp_fence_sc_gpu(_p) { fence::<Sc, Gpu>(); }
    /// `fence.sc.cta`.
    cmp_fence_sc_cta(_p) { fence::<Sc, Cta>(); }
    /// `fence.acq_rel.gpu` ≡ `atomic_thread_fence(memory_order_acq_rel, thread_scope_device)`.
    cmp_fence_acq_rel_gpu(_p) { fence::<AcqRel, Gpu>(); }
    /// `fence.acq_rel.cta`.
    cmp_fence_acq_rel_cta(_p) { fence::<AcqRel, Cta>(); }
    /// `fence.acquire.gpu` ≡ `cuda::ptx::fence(sem_acquire, scope_gpu)`.
    cmp_fence_acquire_gpu(_p) { fence::<Acquire, Gpu>(); }
    /// `fence.acquire.cta`.
    cmp_fence_acquire_cta(_p) { fence::<Acquire, Cta>(); }
    /// `fence.release.gpu` ≡ `cuda::ptx::fence(sem_release, scope_gpu)`.
    cmp_fence_release_gpu(_p) { fence::<Release, Gpu>(); }
    /// `fence.release.cta`.
    cmp_fence_release_cta(_p) { fence::<Release, Cta>(); }
    /// `ld.acquire.gpu` ≡ `atomic_ref<unsigned, thread_scope_device>::load(memory_order_acquire)`.
    cmp_load_acquire_gpu(p) { *p.add(1) = AtomicRef::<u32, Gpu>::from_ptr(p).load::<Acquire>(); }
    /// `ld.relaxed.gpu`.
    cmp_load_relaxed_gpu(p) { *p.add(1) = AtomicRef::<u32, Gpu>::from_ptr(p).load::<Relaxed>(); }
    /// `st.release.gpu` ≡ `store(1, memory_order_release)`.
    cmp_store_release_gpu(p) { AtomicRef::<u32, Gpu>::from_ptr(p).store::<Release>(1); }
    /// `st.relaxed.gpu`.
    cmp_store_relaxed_gpu(p) { AtomicRef::<u32, Gpu>::from_ptr(p).store::<Relaxed>(1); }
    /// `atom.relaxed.gpu.add.u32`, result used ≡ `fetch_add(1, memory_order_relaxed)`.
    cmp_fetch_add_relaxed_gpu(p) { *p.add(1) = AtomicRef::<u32, Gpu>::from_ptr(p).fetch_add::<Relaxed>(1); }
    /// `atom.acq_rel.gpu.add.u32`, result used ≡ `fetch_add(1, memory_order_acq_rel)`.
    cmp_fetch_add_acq_rel_gpu(p) { *p.add(1) = AtomicRef::<u32, Gpu>::from_ptr(p).fetch_add::<AcqRel>(1); }
    /// `atom.relaxed.cta.add.u32` ≡ the same at `thread_scope_block`.
    cmp_fetch_add_relaxed_cta(p) { *p.add(1) = AtomicRef::<u32, Cta>::from_ptr(p).fetch_add::<Relaxed>(1); }
    /// `atom.acq_rel.gpu.cas.b32` ≡ `compare_exchange_strong(e, 1, memory_order_acq_rel)`.
    cmp_cas_acq_rel_gpu(p) {
        let old = match AtomicRef::<u32, Gpu>::from_ptr(p).compare_exchange::<AcqRel>(0, 1) { Ok(v) | Err(v) => v };
        *p.add(1) = old;
    }
    /// `atom.relaxed.gpu.cas.b32` ≡ `compare_exchange_strong(e, 1, memory_order_relaxed)`.
    cmp_cas_relaxed_gpu(p) {
        let old = match AtomicRef::<u32, Gpu>::from_ptr(p).compare_exchange::<Relaxed>(0, 1) { Ok(v) | Err(v) => v };
        *p.add(1) = old;
    }
    /// `fence.sc.gpu; ld.acquire.gpu` ≡ `load(memory_order_seq_cst)` (issue #13 item 10).
    cmp_load_sc_gpu(p) { *p.add(1) = AtomicRef::<u32, Gpu>::from_ptr(p).load_sc(); }
    /// `fence.sc.cta; ld.acquire.cta` ≡ the same at `thread_scope_block`.
    cmp_load_sc_cta(p) { *p.add(1) = AtomicRef::<u32, Cta>::from_ptr(p).load_sc(); }
    /// `fence.sc.gpu; st.relaxed.gpu` ≡ `store(1, memory_order_seq_cst)`.
    cmp_store_sc_gpu(p) { AtomicRef::<u32, Gpu>::from_ptr(p).store_sc(1); }
    /// `fence.sc.sys; st.relaxed.sys` ≡ the same at `thread_scope_system`.
    cmp_store_sc_sys(p) { AtomicRef::<u32, Sys>::from_ptr(p).store_sc(1); }
    /// `fence.sc.gpu; atom.acquire.gpu.add.u32` ≡ `fetch_add(1, memory_order_seq_cst)`.
    cmp_fetch_add_sc_gpu(p) { *p.add(1) = AtomicRef::<u32, Gpu>::from_ptr(p).fetch_add_sc(1); }
    /// `fence.sc.gpu; atom.acquire.gpu.exch.b32` ≡ `exchange(1, memory_order_seq_cst)`.
    cmp_swap_sc_gpu(p) { *p.add(1) = AtomicRef::<u32, Gpu>::from_ptr(p).swap_sc(1); }
    /// `fence.sc.gpu; atom.acquire.gpu.cas.b32` ≡ `compare_exchange_strong(e, 1, memory_order_seq_cst)`.
    cmp_cas_sc_gpu(p) {
        let old = match AtomicRef::<u32, Gpu>::from_ptr(p).compare_exchange_sc(0, 1) { Ok(v) | Err(v) => v };
        *p.add(1) = old;
    }
    /// `atom.relaxed.gpu.add.noftz.f16` ≡ CUDA's `atomicAdd(__half*, __half)` (issue #13 item 7;
    /// libcu++'s `atomic_ref<__half>` has no `fetch_add`).
    cmp_fetch_add_f16_relaxed_gpu(p) {
        let h = p as *mut F16;
        *h.add(1) = AtomicRef::<F16, Gpu>::from_ptr(h).fetch_add::<Relaxed>(F16::from_bits(0x3c00));
    }
    /// `atom.relaxed.gpu.global.add.v4.f32` ≡ CUDA's sm_90 `atomicAdd(float4*, float4)`; the old
    /// vector stored as a 16-aligned plain store (C++'s `float4` store).
    cmp_fetch_add_v4f32_relaxed_gpu(p) {
        use ptx_sync::atomic::vector::{Vector, V4F32};
        #[repr(C, align(16))]
        struct Float4([f32; 4]);
        let v = p as *mut V4F32;
        let old = AtomicRef::<V4F32, Gpu, Global>::from_ptr(v).fetch_add::<Relaxed>(Vector([1.0; 4]));
        *(v.add(1) as *mut Float4) = Float4(old.0);
    }

    // The cuda::ptx forms this session added to the crate (issue #13 "What must be shown").
    /// `fence.release.sync_restrict::shared::cta.cluster` ≡
    /// `cuda::ptx::fence_sync_restrict(sem_release, space_shared, scope_cluster)`.
    cmp_fence_sync_restrict_release_shared(_p) {
        sync_restrict::fence_sync_restrict::<Release, Shared>();
    }
    /// `fence.acquire.sync_restrict::shared::cluster.cluster` ≡
    /// `cuda::ptx::fence_sync_restrict(sem_acquire, space_cluster, scope_cluster)`.
    cmp_fence_sync_restrict_acquire_cluster(_p) {
        sync_restrict::fence_sync_restrict::<Acquire, SharedCluster>();
    }
    /// `fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster` ≡
    /// `cuda::ptx::fence_proxy_async_generic_sync_restrict(sem_release, space_shared, scope_cluster)`.
    cmp_fence_proxy_async_sync_restrict_release_shared(_p) {
        sync_restrict::fence_proxy_async_sync_restrict::<Release, Shared>();
    }
    /// `fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster` ≡
    /// `cuda::ptx::fence_proxy_async_generic_sync_restrict(sem_acquire, space_cluster, scope_cluster)`.
    cmp_fence_proxy_async_sync_restrict_acquire_cluster(_p) {
        sync_restrict::fence_proxy_async_sync_restrict::<Acquire, SharedCluster>();
    }
    /// `griddepcontrol.wait` ≡ CUDA's `cudaGridDependencySynchronize()` (`cuda::ptx` has no
    /// `griddepcontrol`).
    cmp_griddepcontrol_wait(_p) { grid::griddepcontrol_wait(); }
    /// `griddepcontrol.launch_dependents` ≡ CUDA's `cudaTriggerProgrammaticLaunchCompletion()`.
    cmp_griddepcontrol_launch_dependents(_p) { grid::griddepcontrol_launch_dependents(); }
    /// `mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 state, [m], 64` ≡
    /// `cuda::ptx::mbarrier_arrive_expect_tx(sem_release, scope_cta, space_shared, m, 64)`; the
    /// state stored to `p[2..4]`.
    cmp_mbarrier_arrive_expect_tx_release_cta(p) {
        let m: &Mbarrier = Mbarrier::from_shared(p as *mut u64);
        *(p as *mut u64).add(1) = m.arrive_expect_tx::<Release, Cta>(64).raw();
    }
    /// `mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [m], 64` ≡
    /// `cuda::ptx::mbarrier_expect_tx(sem_relaxed, scope_cta, space_shared, m, 64)`.
    cmp_mbarrier_expect_tx_relaxed_cta(p) {
        let m: &Mbarrier = Mbarrier::from_shared(p as *mut u64);
        m.expect_tx::<Cta>(64);
    }
    /// `mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [rank 1's m], 64` ≡
    /// `cuda::ptx::mbarrier_arrive_expect_tx(sem_release, scope_cluster, space_cluster,
    /// __cluster_map_shared_rank(m, 1), 64)`.
    cmp_mbarrier_arrive_expect_tx_remote_cluster(p) {
        let m: &Mbarrier = Mbarrier::from_shared(p as *mut u64);
        m.remote(1).arrive_expect_tx::<Release, Cluster>(64);
    }
}

// Two-operand pairs: the addresses arrive as kernel parameters, so neither side does address
// arithmetic around the instruction (compared with `cpp_<same name>` as above).

/// `tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [d], [s], 128`
/// ≡ `cuda::ptx::tensormap_cp_fenceproxy(sem_release, scope_gpu, d, s, n32_t<128>)` (`s` a
/// generic address of shared memory, `cvta.to.shared` on both sides).
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_tensormap_cp_fenceproxy_gpu(d: *mut u32, s: *mut u32) {
    tensormap::tensormap_cp_fenceproxy::<Gpu>(
        d as *mut copy::TensorMap,
        s as *const copy::TensorMap,
    );
}

/// `cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [d], [s], 16` ≡
/// `cuda::ptx::cp_reduce_async_bulk(space_global, space_shared, op_add, d, s, 16)`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_cp_reduce_async_bulk_add_u32(d: *mut u32, s: *mut u32) {
    copy::cp_reduce_async_bulk::<atomic::op::Add, u32>(d, shared::to_shared(s), 16);
}

/// `st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.b32 [d'], d[1], [b']` with `d'`,
/// `b'` rank 1's copies of `d` and of the mbarrier `b` ≡ `cuda::ptx::st_async(d', d[1], b')`
/// with both from `__cluster_map_shared_rank(…, 1)`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_st_async_u32(d: *mut u32, b: *mut u32) {
    let m: &Mbarrier = Mbarrier::from_shared(b as *mut u64);
    let dst = cluster::mapa(shared::to_shared(d), 1);
    st_async::st_async(dst, *d.add(1), m.remote(1));
}

/// `red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [d'], d[1], [b']`
/// ≡ `cuda::ptx::red_async(op_add, d', d[1], b')`, addresses as in `cmp_st_async_u32`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_red_async_add_u32(d: *mut u32, b: *mut u32) {
    let m: &Mbarrier = Mbarrier::from_shared(b as *mut u64);
    let dst = cluster::mapa(shared::to_shared(d), 1);
    st_async::red_async::<atomic::op::Add, _, _>(dst, *d.add(1), m.remote(1));
}

/// `st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.v4.u32 [d'], {d[1..5]}, [b']` ≡
/// `cuda::ptx::st_async(d', int32_t[4], b')` (`.v4.b32`), addresses as in `cmp_st_async_u32`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_st_async_v4_b32(d: *mut u32, b: *mut u32) {
    let m: &Mbarrier = Mbarrier::from_shared(b as *mut u64);
    let dst = cluster::mapa(shared::to_shared(d), 1);
    let v = [*d.add(1), *d.add(2), *d.add(3), *d.add(4)];
    st_async::st_async(dst, v, m.remote(1));
}

/// `cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [m, {c[0], c[1]}], [s]`
/// ≡ `cuda::ptx::cp_reduce_async_bulk_tensor(space_global, space_shared, op_add, m, c, s)`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_cp_reduce_async_bulk_tensor_2d_add(
    m: *mut u32,
    c: *mut i32,
    s: *mut u32,
) {
    let map = &*(m as *const copy::TensorMap);
    let coords = [*c, *c.add(1)];
    let src = shared::to_shared(s);
    copy::cp_reduce_async_bulk_tensor::<atomic::op::Add, copy::Tile, _>(map, coords, src);
}

/// `cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [d'],
/// [s], 16, [b']` (`d'`, `b'` rank 1's copies of `d` and of the mbarrier `b`) ≡
/// `cuda::ptx::cp_reduce_async_bulk(space_cluster, space_shared, op_add, d', s, 16, b')`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_cp_reduce_async_bulk_s2c_add_u32(
    d: *mut u32,
    s: *mut u32,
    b: *mut u32,
) {
    let m: &Mbarrier = Mbarrier::from_shared(b as *mut u64);
    let dst = cluster::mapa(shared::to_shared(d), 1);
    let src = shared::to_shared(s);
    copy::cp_reduce_async_bulk_s2c::<atomic::op::Add, u32, _>(dst, src, 16, m.remote(1));
}

// The `.multicast::cluster` copies, compared on sm_90a (`kernels.sm_90a.cubin`: libcu++ gates
// `cuda::ptx::cp_async_bulk` multicast on sm_90a; the crate's rows are portable sm_90) with
// `cpp_<same name>` of `host/kernels/cpp/reference_arch.cu`.

/// `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [d],
/// [s], 256, [b], 3` ≡ `cuda::ptx::cp_async_bulk(space_cluster, space_global, d, s, 256, b, 3)`
/// (`d`, `b` generic addresses of this CTA's shared memory).
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_cp_async_bulk_g2s_multicast(
    d: *mut u32,
    s: *mut u32,
    b: *mut u32,
) {
    let m: &Mbarrier = Mbarrier::from_shared(b as *mut u64);
    copy::cp_async_bulk_g2s_with(
        shared::to_shared(d),
        s as *const u8,
        256,
        m,
        copy::Mods::NONE.multicast(0b11),
    );
}

/// `cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
/// [d], [m, {c[0], c[1]}], [b], 3` ≡ `cuda::ptx::cp_async_bulk_tensor(space_cluster,
/// space_global, d, m, c, b, 3)`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cmp_cp_async_bulk_tensor_2d_multicast(
    d: *mut u32,
    m: *mut u32,
    c: *mut i32,
    b: *mut u32,
) {
    let bar: &Mbarrier = Mbarrier::from_shared(b as *mut u64);
    let map = &*(m as *const copy::TensorMap);
    copy::cp_async_bulk_tensor_load_with(
        shared::to_shared(d),
        map,
        [*c, *c.add(1)],
        bar,
        copy::Mods::NONE.multicast(0b11),
    );
}
