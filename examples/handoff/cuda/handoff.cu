// The hand-off of src/lib.rs in CUDA C++ with libcu++ (cuda::atomic_ref), for the line count of
// examples/README.md. Built by tests/cuda.rs with `nvcc -arch=sm_90 -ptx`.
#include <cuda/atomic>
#include <cuda/std/cstdint>

struct Handoff {
    unsigned data;
    unsigned full;
    unsigned count;
};
using Flag = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;

__device__ uint64_t globaltimer() {
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// Spins until flag == v or budget_ns pass; false on timeout.
__device__ bool spin_until(Flag flag, unsigned v, uint64_t budget_ns) {
    uint64_t t0 = globaltimer();
    while (flag.load(cuda::memory_order_acquire) != v) {
        if (globaltimer() - t0 > budget_ns) return false;
    }
    return true;
}

__device__ bool produce(Handoff* h, unsigned v, uint64_t b) {
    h->data = v;
    Flag(h->full).store(1, cuda::memory_order_release);
    if (!spin_until(Flag(h->count), 2, b)) return false;
    h->data = v + 1;
    return true;
}

__device__ bool consume(Handoff* h, unsigned* v, uint64_t b) {
    if (!spin_until(Flag(h->full), 1, b)) return false;
    *v = h->data;
    Flag(h->count).fetch_add(1, cuda::memory_order_release);
    return true;
}

extern "C" __global__ void handoff_kernel(Handoff* h, unsigned* out) {
    const uint64_t b = 1000000000;
    unsigned c = blockIdx.x;
    if (c == 0) {
        out[2] = produce(h, 42, b);
    } else {
        unsigned v;
        out[c - 1] = consume(h, &v, b) ? v : 0xdead;
    }
}
