// CTA 0 publishes a value through a flag in global memory; CTA 1 waits for the flag and copies
// the value to out. Written first, as a CUDA user would; src/flag_handoff.rs is its port.
#include <cuda/atomic>

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
