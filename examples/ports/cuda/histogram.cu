// A 256-bin histogram of bytes: each CTA counts into bins in shared memory, then adds them to
// the global bins. Written first, as a CUDA user would; src/histogram.rs is its port.
extern "C" __global__ void histogram(const unsigned char* in, unsigned n, unsigned* bins) {
    __shared__ unsigned local[256];
    for (unsigned i = threadIdx.x; i < 256; i += blockDim.x) local[i] = 0;
    __syncthreads();
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[in[i]], 1u);
    __syncthreads();
    for (unsigned i = threadIdx.x; i < 256; i += blockDim.x) atomicAdd(&bins[i], local[i]);
}
