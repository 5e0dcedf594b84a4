// Sums in[0..n) into *out: a grid-stride partial sum per thread, a tree in shared memory per CTA,
// one atomicAdd per CTA. 256 threads per CTA. Written first, as a CUDA user would;
// src/block_sum.rs is its port.
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
