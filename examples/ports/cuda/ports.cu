// Three kernels written first, as a CUDA C++ user would (src/lib.rs is their port to
// ptx_sync::prelude; README.md counts both). Built by tests/cuda.rs with `nvcc -arch=sm_90 -ptx`.
#include <cuda/atomic>

// ---- histogram: 256 bins of bytes, counted per CTA in shared memory, then added to the global bins
extern "C" __global__ void histogram(const unsigned char* in, unsigned n, unsigned* bins) {
    __shared__ unsigned local[256];
    for (unsigned i = threadIdx.x; i < 256; i += blockDim.x) local[i] = 0;
    __syncthreads();
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[in[i]], 1u);
    __syncthreads();
    for (unsigned i = threadIdx.x; i < 256; i += blockDim.x) atomicAdd(&bins[i], local[i]);
}

// ---- flag_handoff: CTA 0 publishes a value through a flag in global memory, CTA 1 copies it to out
extern "C" __global__ void flag_handoff(unsigned* data, unsigned* flag, unsigned* out) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> f(*flag);
    if (blockIdx.x == 0) {
        *data = 42;
        f.store(1, cuda::memory_order_release);
    } else {
        while (f.load(cuda::memory_order_acquire) != 1) {}
        *out = *data;
    }
}

// ---- block_sum: in[0..n) summed into *out (grid-stride partials, a shared-memory tree per CTA
// of 256 threads, one atomicAdd per CTA)
extern "C" __global__ void block_sum(const float* in, unsigned n, float* out) {
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    float v = 0;
    for (unsigned i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) v += in[i];
    s[t] = v;
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k > 0; k /= 2) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) atomicAdd(out, s[0]);
}
