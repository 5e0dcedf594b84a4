// The reduction of src/lib.rs in CUDA C++ with libcu++ (cuda::atomic_ref), for the line count of
// examples/README.md. Built by tests/cuda.rs with `nvcc -arch=sm_90 -ptx`.
#include <cuda/atomic>

using Ticket = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;
using Acc = cuda::atomic_ref<unsigned, cuda::thread_scope_block>;

// Thread 0 of CTA cta: publish sum, take a ticket; the last CTA sums the partials.
__device__ bool finish(unsigned* partials, unsigned n, unsigned* ticket, unsigned cta, unsigned sum,
                       unsigned* total) {
    partials[cta] = sum;
    if (Ticket(*ticket).fetch_add(1, cuda::memory_order_acq_rel) != n - 1) {
        return false;
    }
    unsigned t = 0;
    for (unsigned i = 0; i < n; i++) {
        t += partials[i];
    }
    Ticket(*ticket).store(0, cuda::memory_order_relaxed);
    *total = t;
    return true;
}

extern "C" __global__ void reduce_kernel(const unsigned* input, unsigned* partials, unsigned* ticket,
                                         unsigned* out, unsigned n) {
    extern __shared__ unsigned acc_mem[];
    Acc acc(acc_mem[0]);
    if (threadIdx.x == 0) {
        acc.store(0, cuda::memory_order_relaxed);
    }
    __syncthreads();
    unsigned v = 0;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        v += input[i];
    }
    acc.fetch_add(v, cuda::memory_order_relaxed);
    __syncthreads();
    unsigned total;
    if (threadIdx.x == 0 && finish(partials, gridDim.x, ticket, blockIdx.x,
                                   acc.load(cuda::memory_order_relaxed), &total)) {
        *out = total;
    }
}
