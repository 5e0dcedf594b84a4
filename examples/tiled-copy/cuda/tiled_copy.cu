// The tiled copy of src/lib.rs in CUDA C++ with libcu++ (cuda::ptx), for the line count of
// examples/README.md. Built by tests/cuda.rs with `nvcc -arch=sm_90 -ptx`.
#include <cuda/atomic>
#include <cuda/ptx>
#include <cuda/std/cstdint>
namespace ptx = cuda::ptx;

__device__ constexpr unsigned TILE_W = 64, TILE_H = 32, TILE_BYTES = TILE_W * TILE_H * 4, MAX_STAGES = 4;
__device__ constexpr unsigned CONSUMER_STALL = 1, PRODUCER_STALL = 2, TAIL_STALL = 4;

__device__ uint64_t globaltimer() {
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// A full/empty ring position: stage index and phase parity (CUTLASS's PipelineState).
template <int S>
struct State {
    unsigned index, phase;
    __device__ void advance() {
        if (++index == S) { index = 0; phase ^= 1; }
    }
};

// Bounded wait for the phase `parity` of `bar` (mbarrier.try_wait.parity.acquire.cta).
__device__ bool wait(uint64_t* bar, unsigned parity, uint64_t budget) {
    uint64_t t0 = globaltimer();
    while (!ptx::mbarrier_try_wait_parity(bar, parity)) {
        if (globaltimer() - t0 > budget) return false;
    }
    return true;
}

struct Job {
    const void* map;
    unsigned* out;
    unsigned width, height, consumers;
    uint64_t budget;
};

template <int S>
__device__ unsigned produce(const Job& j, uint64_t* full, uint64_t* empty, State<S> st, char* ring) {
    unsigned tiles_x = (j.width + TILE_W - 1) / TILE_W, tiles = tiles_x * ((j.height + TILE_H - 1) / TILE_H);
    for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x) {
        if (!wait(&empty[st.index], st.phase, j.budget)) return PRODUCER_STALL;
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[st.index], TILE_BYTES);
        int32_t at[2] = {int32_t(t % tiles_x * TILE_W), int32_t(t / tiles_x * TILE_H)};
        ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, ring + st.index * TILE_BYTES, j.map, at,
                                  &full[st.index]);
        st.advance();
    }
    for (int i = 0; i < S; i++) {  // the tail: every stage handed back once
        if (!wait(&empty[st.index], st.phase, j.budget)) return TAIL_STALL;
        st.advance();
    }
    return 0;
}

template <int S>
__device__ unsigned consume(const Job& j, uint64_t* full, uint64_t* empty, unsigned c, char* ring) {
    unsigned tiles_x = (j.width + TILE_W - 1) / TILE_W, tiles = tiles_x * ((j.height + TILE_H - 1) / TILE_H);
    State<S> st{0, 0};
    for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x) {
        if (!wait(&full[st.index], st.phase, j.budget)) return CONSUMER_STALL;
        const unsigned* s = reinterpret_cast<const unsigned*>(ring + st.index * TILE_BYTES);
        unsigned x0 = t % tiles_x * TILE_W, y0 = t / tiles_x * TILE_H;
        for (unsigned e = c; e < TILE_W * TILE_H; e += j.consumers) {
            unsigned x = x0 + e % TILE_W, y = y0 + e / TILE_W;
            if (x < j.width && y < j.height) j.out[y * j.width + x] = s[e];
        }
        ptx::fence_proxy_async(ptx::space_shared);
        ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &empty[st.index]);
        st.advance();
    }
    return 0;
}

template <int S>
__device__ void tiled_copy(const Job& j, unsigned* status) {
    __shared__ uint64_t full[MAX_STAGES], empty[MAX_STAGES];
    extern __shared__ __align__(1024) char ring[];
    unsigned t = threadIdx.x, r = 0;
    if (t == 0) {
        for (int i = 0; i < S; i++) {
            ptx::mbarrier_init(&full[i], 1);
            ptx::mbarrier_init(&empty[i], j.consumers);
        }
        ptx::fence_proxy_async(ptx::space_shared);
    }
    __syncthreads();
    if (t == 0) {
        ptx::fence_proxy_tensormap_generic(ptx::sem_acquire, ptx::scope_gpu, j.map, ptx::n32_t<128>());
        r = produce<S>(j, full, empty, State<S>{0, 1}, ring);
    } else if (t >= 32 && t < 32 + j.consumers) {
        r = consume<S>(j, full, empty, t - 32, ring);
    }
    if (r) cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*status).fetch_or(r, cuda::memory_order_relaxed);
}

#define KERNEL(NAME, S)                                                                                   \
    extern "C" __global__ void NAME(const void* tmap, unsigned* out, unsigned width, unsigned height,   \
                                    unsigned* status) {                                                 \
        tiled_copy<S>(Job{tmap, out, width, height, 128, 500000000}, status);                          \
    }
KERNEL(tiled_copy_s1, 1)
KERNEL(tiled_copy_s2, 2)
KERNEL(tiled_copy_s3, 3)
KERNEL(tiled_copy_s4, 4)
