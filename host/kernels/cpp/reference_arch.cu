// CUDA C++ reference kernels of the architecture-specific forms (CCCL 13.0 `cuda::ptx`),
// compiled by the tests with the PyPI nvcc 13.0 for each target:
//   nvcc -arch=sm_90a  -cubin -O3 -I<cccl> reference_arch.cu   (the sm_90a kernels)
//   nvcc -arch=sm_100a -cubin -O3 -I<cccl> reference_arch.cu   (the sm_90a and sm_100a kernels)
// Each `cpp_X` does what the Rust kernel `cmp_X` in ../src/facts_arch.rs (built into
// catalog_sm90a / catalog_sm100a) does, the way a CUDA C++ author writes it.
#include <cuda/ptx>
#include <cstdint>

extern "C" {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL) || defined(__CUDA_ARCH_FEAT_SM100_ALL)
// libcu++ gates the multicast copies on sm_90a (the ISA: sm_90, sm_90a advised); the Rust side
// is kernels.sm_90a.cubin (../src/facts.rs)
__global__ void cpp_cp_async_bulk_g2s_multicast(unsigned* d, unsigned* s, unsigned* b) {
  cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, d, s, 256u,
                           reinterpret_cast<uint64_t*>(b), uint16_t(3));
}
__global__ void cpp_cp_async_bulk_tensor_2d_multicast(unsigned* d, unsigned* m, int* c, unsigned* b) {
  const int32_t co[2] = {c[0], c[1]};
  cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, d, m, co,
                                  reinterpret_cast<uint64_t*>(b), uint16_t(3));
}
__global__ void cpp_tensormap_replace_global_address_global(unsigned* m, uint64_t v) {
  cuda::ptx::tensormap_replace_global_address(cuda::ptx::space_global, m, v);
}
__global__ void cpp_tensormap_replace_rank_shared(unsigned* m, unsigned v) {
  cuda::ptx::tensormap_replace_rank(cuda::ptx::space_shared, m, v);
}
__global__ void cpp_tensormap_replace_box_dim_global(unsigned* m, unsigned v) {
  cuda::ptx::tensormap_replace_box_dim(cuda::ptx::space_global, m, cuda::ptx::n32_t<1>(), v);
}
__global__ void cpp_tensormap_replace_global_stride_shared(unsigned* m, uint64_t v) {
  cuda::ptx::tensormap_replace_global_stride(cuda::ptx::space_shared, m, cuda::ptx::n32_t<2>(), v);
}
__global__ void cpp_tensormap_replace_global_dim_global(unsigned* m, unsigned v) {
  cuda::ptx::tensormap_replace_global_dim(cuda::ptx::space_global, m, cuda::ptx::n32_t<3>(), v);
}
__global__ void cpp_tensormap_replace_element_stride_shared(unsigned* m, unsigned v) {
  cuda::ptx::tensormap_replace_element_stride(cuda::ptx::space_shared, m, cuda::ptx::n32_t<4>(), v);
}
__global__ void cpp_tensormap_replace_interleave_layout_global(unsigned* m) {
  cuda::ptx::tensormap_replace_interleave_layout(cuda::ptx::space_global, m, cuda::ptx::n32_t<1>());
}
__global__ void cpp_tensormap_replace_fill_mode_shared(unsigned* m) {
  cuda::ptx::tensormap_replace_fill_mode(cuda::ptx::space_shared, m, cuda::ptx::n32_t<1>());
}
__global__ void cpp_tensormap_replace_elemtype_global(unsigned* m) {
  cuda::ptx::tensormap_replace_elemtype(cuda::ptx::space_global, m, cuda::ptx::n32_t<7>());
}
__global__ void cpp_tensormap_replace_swizzle_mode_shared(unsigned* m) {
  cuda::ptx::tensormap_replace_swizzle_mode(cuda::ptx::space_shared, m, cuda::ptx::n32_t<3>());
}
#endif
#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
__global__ void cpp_tensormap_replace_swizzle_atomicity_global(unsigned* m) {
  cuda::ptx::tensormap_replace_swizzle_atomicity(cuda::ptx::space_global, m, cuda::ptx::n32_t<1>());
}
__global__ void cpp_cp_async_bulk_g2s_cta(unsigned* d, unsigned* s, unsigned* b) {
  cuda::ptx::cp_async_bulk(cuda::ptx::space_shared, cuda::ptx::space_global, d, s, 256u, reinterpret_cast<uint64_t*>(b));
}
__global__ void cpp_cp_async_bulk_s2g_cp_mask(unsigned* d, unsigned* s) {
  cuda::ptx::cp_async_bulk_cp_mask(cuda::ptx::space_global, cuda::ptx::space_shared, d, s, 256u, uint16_t(0xff));
}
__global__ void cpp_cp_async_bulk_tensor_gather4_cta(unsigned* d, unsigned* m, int* c, unsigned* b) {
  const int32_t co[5] = {c[0], c[1], c[2], c[3], c[4]};
  cuda::ptx::cp_async_bulk_tensor_tile_gather4(cuda::ptx::space_shared, cuda::ptx::space_global, d, m, co,
                                               reinterpret_cast<uint64_t*>(b));
}
__global__ void cpp_cp_async_bulk_tensor_scatter4(unsigned* m, int* c, unsigned* s) {
  const int32_t co[5] = {c[0], c[1], c[2], c[3], c[4]};
  cuda::ptx::cp_async_bulk_tensor_tile_scatter4(cuda::ptx::space_global, cuda::ptx::space_shared, m, co, s);
}
__global__ void cpp_clusterlaunchcontrol_try_cancel(unsigned* r, unsigned* b) {
  cuda::ptx::clusterlaunchcontrol_try_cancel(r, reinterpret_cast<uint64_t*>(b));
}
__global__ void cpp_clusterlaunchcontrol_try_cancel_multicast(unsigned* r, unsigned* b) {
  cuda::ptx::clusterlaunchcontrol_try_cancel_multicast(r, reinterpret_cast<uint64_t*>(b));
}
__global__ void cpp_clusterlaunchcontrol_query_cancel_is_canceled(unsigned* r) {
  longlong2 q = *reinterpret_cast<longlong2*>(r);
  r[4] = cuda::ptx::clusterlaunchcontrol_query_cancel_is_canceled(q);
}
__global__ void cpp_clusterlaunchcontrol_query_cancel_get_first_ctaid_x(unsigned* r) {
  longlong2 q = *reinterpret_cast<longlong2*>(r);
  r[4] = cuda::ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x<unsigned>(q);
}
__global__ void cpp_clusterlaunchcontrol_query_cancel_get_first_ctaid_v4(unsigned* r) {
  longlong2 q = *reinterpret_cast<longlong2*>(r);
  unsigned d[4];
  cuda::ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid(d, q);
  r[4] = d[0];
  r[5] = d[1];
  r[6] = d[2];
}
#endif
}
