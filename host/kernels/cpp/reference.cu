// CUDA C++ reference kernels (libcu++), compiled by the tests with the PyPI nvcc 13.0:
//   nvcc -arch=sm_90 -cubin -O3 -I<cccl> reference.cu
// Each `cpp_X` does what the Rust kernel `cmp_X` in ../src/facts.rs does, the way a CUDA C++
// author writes it. The test compares the memory/synchronization SASS of each pair.
#include <cuda/atomic>
#include <cuda/ptx>
#include <cuda_fp16.h>

using ref_gpu = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;
using ref_cta = cuda::atomic_ref<unsigned, cuda::thread_scope_block>;
using ref_sys = cuda::atomic_ref<unsigned, cuda::thread_scope_system>;

// `compare_exchange_strong(0 -> 1)` at `.gpu` with order `o`, the value it saw stored in `p[1]`:
// the body of every `cpp_cas_*_gpu` (they differ only in the order).
__device__ __forceinline__ void cas_0_1_gpu(unsigned* p, cuda::memory_order o) {
  unsigned e = 0;
  ref_gpu(*p).compare_exchange_strong(e, 1, o);
  p[1] = e;
}

extern "C" {
__global__ void cpp_fence_sc_gpu(unsigned*) { cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_device); }
__global__ void cpp_fence_sc_cta(unsigned*) { cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_block); }
__global__ void cpp_fence_acq_rel_gpu(unsigned*) { cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_device); }
__global__ void cpp_fence_acq_rel_cta(unsigned*) { cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_block); }
__global__ void cpp_fence_acquire_gpu(unsigned*) { cuda::ptx::fence(cuda::ptx::sem_acquire, cuda::ptx::scope_gpu); }
__global__ void cpp_fence_acquire_cta(unsigned*) { cuda::ptx::fence(cuda::ptx::sem_acquire, cuda::ptx::scope_cta); }
__global__ void cpp_fence_release_gpu(unsigned*) { cuda::ptx::fence(cuda::ptx::sem_release, cuda::ptx::scope_gpu); }
__global__ void cpp_fence_release_cta(unsigned*) { cuda::ptx::fence(cuda::ptx::sem_release, cuda::ptx::scope_cta); }
__global__ void cpp_load_acquire_gpu(unsigned* p) { p[1] = ref_gpu(*p).load(cuda::memory_order_acquire); }
__global__ void cpp_load_relaxed_gpu(unsigned* p) { p[1] = ref_gpu(*p).load(cuda::memory_order_relaxed); }
__global__ void cpp_store_release_gpu(unsigned* p) { ref_gpu(*p).store(1, cuda::memory_order_release); }
__global__ void cpp_store_relaxed_gpu(unsigned* p) { ref_gpu(*p).store(1, cuda::memory_order_relaxed); }
__global__ void cpp_fetch_add_relaxed_gpu(unsigned* p) { p[1] = ref_gpu(*p).fetch_add(1, cuda::memory_order_relaxed); }
__global__ void cpp_fetch_add_acq_rel_gpu(unsigned* p) { p[1] = ref_gpu(*p).fetch_add(1, cuda::memory_order_acq_rel); }
__global__ void cpp_fetch_add_relaxed_cta(unsigned* p) { p[1] = ref_cta(*p).fetch_add(1, cuda::memory_order_relaxed); }
__global__ void cpp_cas_acq_rel_gpu(unsigned* p) { cas_0_1_gpu(p, cuda::memory_order_acq_rel); }
__global__ void cpp_cas_relaxed_gpu(unsigned* p) { cas_0_1_gpu(p, cuda::memory_order_relaxed); }
// memory_order_seq_cst (issue #13 item 10)
__global__ void cpp_load_sc_gpu(unsigned* p) { p[1] = ref_gpu(*p).load(cuda::memory_order_seq_cst); }
__global__ void cpp_load_sc_cta(unsigned* p) { p[1] = ref_cta(*p).load(cuda::memory_order_seq_cst); }
__global__ void cpp_store_sc_gpu(unsigned* p) { ref_gpu(*p).store(1, cuda::memory_order_seq_cst); }
__global__ void cpp_store_sc_sys(unsigned* p) { ref_sys(*p).store(1, cuda::memory_order_seq_cst); }
__global__ void cpp_fetch_add_sc_gpu(unsigned* p) { p[1] = ref_gpu(*p).fetch_add(1, cuda::memory_order_seq_cst); }
__global__ void cpp_swap_sc_gpu(unsigned* p) { p[1] = ref_gpu(*p).exchange(1, cuda::memory_order_seq_cst); }
__global__ void cpp_cas_sc_gpu(unsigned* p) { cas_0_1_gpu(p, cuda::memory_order_seq_cst); }
// half-precision and vector float atomics (issue #13 item 7): CUDA's atomicAdd overloads
// (libcu++'s atomic_ref<__half> has no fetch_add)
__global__ void cpp_fetch_add_f16_relaxed_gpu(__half* p) { p[1] = atomicAdd(p, __float2half(1.0f)); }
__global__ void cpp_fetch_add_v4f32_relaxed_gpu(float4* p) { p[1] = atomicAdd(p, make_float4(1.0f, 1.0f, 1.0f, 1.0f)); }
// the cuda::ptx forms added in this session (issue #13 "What must be shown")
__global__ void cpp_fence_sync_restrict_release_shared(unsigned*) { cuda::ptx::fence_sync_restrict(cuda::ptx::sem_release, cuda::ptx::space_shared, cuda::ptx::scope_cluster); }
__global__ void cpp_fence_sync_restrict_acquire_cluster(unsigned*) { cuda::ptx::fence_sync_restrict(cuda::ptx::sem_acquire, cuda::ptx::space_cluster, cuda::ptx::scope_cluster); }
__global__ void cpp_fence_proxy_async_sync_restrict_release_shared(unsigned*) { cuda::ptx::fence_proxy_async_generic_sync_restrict(cuda::ptx::sem_release, cuda::ptx::space_shared, cuda::ptx::scope_cluster); }
__global__ void cpp_fence_proxy_async_sync_restrict_acquire_cluster(unsigned*) { cuda::ptx::fence_proxy_async_generic_sync_restrict(cuda::ptx::sem_acquire, cuda::ptx::space_cluster, cuda::ptx::scope_cluster); }
// cuda::ptx has no griddepcontrol: the CUDA device runtime's PDL calls
__global__ void cpp_griddepcontrol_wait(unsigned*) { cudaGridDependencySynchronize(); }
__global__ void cpp_griddepcontrol_launch_dependents(unsigned*) { cudaTriggerProgrammaticLaunchCompletion(); }
// two-operand pairs: the addresses are kernel parameters (no address arithmetic on either side)
__global__ void cpp_tensormap_cp_fenceproxy_gpu(unsigned* d, unsigned* s) { cuda::ptx::tensormap_cp_fenceproxy(cuda::ptx::sem_release, cuda::ptx::scope_gpu, d, s, cuda::ptx::n32_t<128>()); }
__global__ void cpp_cp_reduce_async_bulk_add_u32(unsigned* d, unsigned* s) { cuda::ptx::cp_reduce_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared, cuda::ptx::op_add, d, s, 16u); }
__global__ void cpp_mbarrier_arrive_expect_tx_release_cta(unsigned* p) {
  uint64_t* m = reinterpret_cast<uint64_t*>(p);
  m[1] = cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta, cuda::ptx::space_shared, m, 64u);
}
__global__ void cpp_mbarrier_expect_tx_relaxed_cta(unsigned* p) {
  cuda::ptx::mbarrier_expect_tx(cuda::ptx::sem_relaxed, cuda::ptx::scope_cta, cuda::ptx::space_shared, reinterpret_cast<uint64_t*>(p), 64u);
}
__global__ void cpp_mbarrier_arrive_expect_tx_remote_cluster(unsigned* p) {
  uint64_t* r = static_cast<uint64_t*>(__cluster_map_shared_rank(p, 1));
  cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cluster, cuda::ptx::space_cluster, r, 64u);
}
__global__ void cpp_st_async_u32(unsigned* d, unsigned* b) {
  cuda::ptx::st_async(static_cast<unsigned*>(__cluster_map_shared_rank(d, 1)), d[1],
                      static_cast<uint64_t*>(__cluster_map_shared_rank(b, 1)));
}
__global__ void cpp_red_async_add_u32(unsigned* d, unsigned* b) {
  cuda::ptx::red_async(cuda::ptx::op_add, static_cast<unsigned*>(__cluster_map_shared_rank(d, 1)), d[1],
                       static_cast<uint64_t*>(__cluster_map_shared_rank(b, 1)));
}
__global__ void cpp_cp_reduce_async_bulk_tensor_2d_add(unsigned* m, int* c, unsigned* s) {
  const int32_t co[2] = {c[0], c[1]};
  cuda::ptx::cp_reduce_async_bulk_tensor(cuda::ptx::space_global, cuda::ptx::space_shared, cuda::ptx::op_add, m, co, s);
}
__global__ void cpp_st_async_v4_b32(unsigned* d, unsigned* b) {
  const int32_t v[4] = {int(d[1]), int(d[2]), int(d[3]), int(d[4])};
  cuda::ptx::st_async(static_cast<int32_t*>(__cluster_map_shared_rank(d, 1)), v,
                      static_cast<uint64_t*>(__cluster_map_shared_rank(b, 1)));
}
__global__ void cpp_cp_reduce_async_bulk_s2c_add_u32(unsigned* d, unsigned* s, unsigned* b) {
  cuda::ptx::cp_reduce_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_shared, cuda::ptx::op_add,
                                  static_cast<unsigned*>(__cluster_map_shared_rank(d, 1)), s, 16u,
                                  static_cast<uint64_t*>(__cluster_map_shared_rank(b, 1)));
}
}
