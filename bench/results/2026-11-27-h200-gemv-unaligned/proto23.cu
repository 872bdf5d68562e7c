// Prototypes 2 and 3 (not the product): M = 1 GEMV reading b 16 bytes at a time whatever the
// alignment of its rows, through `copy16u` (below: what a built-in copy_16_unaligned would
// emit). Built with -DPROTO=2 (the second chunk from the next lane by a shuffle where it read
// it) or -DPROTO=3 (the plain two-load copy). Layouts:
//   A<U>: 1024 threads own 32 columns (4 chunk lanes x 256 row groups), U rows in flight;
//   B<L, U>: 64 * L threads own 8 L columns (L chunk lanes x 64 row groups), K split over a
//            cluster of `split` blocks (chosen per call up to `target` blocks), sums added
//            through distributed shared memory.
#include <cooperative_groups.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>
namespace cg = cooperative_groups;

// tof, shift16 (the aligned chunks shifted together) and prototype 1's kernels.
#include "proto.cu"

// The words of the aligned chunk after q that a copy shifted by sh bytes uses (never past its last byte).
__device__ inline uint4 next_words(const uint4* q, unsigned sh) {
    const uint32_t* w = (const uint32_t*)(q + 1);
    uint4 hi = make_uint4(w[0], 0, 0, 0);
    if (sh > 4) hi.y = w[1];
    if (sh > 8) hi.z = w[2];
    if (sh > 12) hi.w = w[3];
    return hi;
}

#if PROTO == 2
// 16 bytes from src (aligned to its element only). The aligned chunk after src's own comes
// from the next lane where that lane read it, else from memory, word by word (never past
// the copy's last byte).
__device__ inline uint4 copy16u(const void* src, const void*) {
    const uintptr_t p = (uintptr_t)src;
    const uint4* q = (const uint4*)(p & ~(uintptr_t)15);
    const unsigned sh = (unsigned)(p & 15);
    const uint4 lo = *q;
    const unsigned mask = __activemask();
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    const unsigned long long peer = __shfl_down_sync(mask, (unsigned long long)(uintptr_t)q, 1);
    uint4 hi;
    hi.x = __shfl_down_sync(mask, lo.x, 1);
    hi.y = __shfl_down_sync(mask, lo.y, 1);
    hi.z = __shfl_down_sync(mask, lo.z, 1);
    hi.w = __shfl_down_sync(mask, lo.w, 1);
    const bool have = lane < 31 && ((mask >> (lane + 1)) & 1u) && peer == (unsigned long long)(uintptr_t)(q + 1);
    if (sh != 0 && !have) {
        hi = next_words(q, sh);
    }
    return shift16(lo, hi, sh);
}
#else
// 16 bytes from src (aligned to its element only): the aligned chunk holding src's first byte
// and, where the copy does not start on one, the next, shifted together. The next chunk is
// read whole unless it would reach past `end` (the tensor's end), then word by word.
__device__ inline uint4 copy16u(const void* src, const void* end) {
    const uintptr_t p = (uintptr_t)src;
    const uint4* q = (const uint4*)(p & ~(uintptr_t)15);
    const unsigned sh = (unsigned)(p & 15);
    const uint4 lo = q[0];
    uint4 hi = lo;
    if (sh != 0) {
        if ((const char*)(q + 2) <= (const char*)end) {
            hi = q[1];
        } else {
            hi = next_words(q, sh);
        }
    }
    return shift16(lo, hi, sh);
}
#endif

__device__ inline void fma8(float* acc, float av, uint4 v) {
    const __half2* h = (const __half2*)&v;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        float2 f = __half22float2(h[j]);
        acc[2 * j] += av * f.x;
        acc[2 * j + 1] += av * f.y;
    }
}

// Rows kb + g, kb + g + STRIDE, ... below ke of b's 8 columns from ns (U rows in flight),
// times a's values, summed; the sums of columns ns + d ... stored at out[0 ..].
template <int U, int STRIDE>
__device__ inline void rows(const __half* __restrict__ a, const __half* __restrict__ b, int K, int N, int kb, int ke,
                            int g, int ns, int d, float* out) {
    float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int k = kb + g; k < ke; k += STRIDE * U) {
        uint4 v[U];
        __half va[U];
#pragma unroll
        for (int u = 0; u < U; ++u) {
            const int kk = min(k + STRIDE * u, ke - 1);
            v[u] = copy16u(b + (size_t)kk * N + ns, b + (size_t)K * N);
            va[u] = a[kk];
        }
#pragma unroll
        for (int u = 0; u < U; ++u) fma8(acc, k + STRIDE * u < ke ? tof(va[u]) : 0.0f, v[u]);
    }
#pragma unroll
    for (int j = 0; j < 8; ++j)
        if (j >= d) out[j - d] = acc[j];
}

template <int U>
__global__ void __launch_bounds__(1024) gemv_a(const __half* __restrict__ a, const __half* __restrict__ b,
                                               __half* __restrict__ c, int K, int N) {
    __shared__ float part[256][33];
    const int q = threadIdx.x % 4, g = threadIdx.x / 4;
    const int n0 = blockIdx.x * 32;
    const int nq = n0 + q * 8;
    const int ns = min(nq, N - 8);
    const int d = nq - ns;
    rows<U, 256>(a, b, K, N, 0, K, g, ns, d, &part[g][q * 8]);
    __syncthreads();
    add_groups(part, c, n0, N);
}

__host__ __device__ inline int pick_split(int strips, int K, int target) {
    for (int s = 8; s > 1; s /= 2)
        if (strips * s <= target && K >= s * 512) return s;
    return 1;
}

// L chunk lanes x 64 row groups; this block's share of K: rows [kb, ke).
template <int L, int U>
__global__ void __launch_bounds__(64 * L) gemv_b(const __half* __restrict__ a, const __half* __restrict__ b,
                                                 __half* __restrict__ c, int K, int N, int split) {
    constexpr int COLS = 8 * L;
    __shared__ float part[64][COLS + 1];
    __shared__ float sums[COLS];
    const int q = threadIdx.x % L, g = threadIdx.x / L;
    const int strip = blockIdx.x / split, r = blockIdx.x % split;
    const int n0 = strip * COLS;
    const int nq = n0 + q * 8;
    const int ns = min(nq, N - 8);
    const int d = nq - ns;
    const int kb = (int)((long long)K * r / split), ke = (int)((long long)K * (r + 1) / split);
    rows<U, 64>(a, b, K, N, kb, ke, g, ns, d, &part[g][q * 8]);
    __syncthreads();
    // COLS columns x 64 groups: threads t < COLS * 8 add 8 groups each, then COLS threads the 8 slices.
    __shared__ float part2[8][COLS + 1];
    if (threadIdx.x < COLS * 8) {
        const int col = threadIdx.x % COLS, sl = threadIdx.x / COLS;
        float s = 0.0f;
#pragma unroll
        for (int i = 0; i < 8; ++i) s += part[sl * 8 + i][col];
        part2[sl][col] = s;
    }
    __syncthreads();
    if (threadIdx.x < COLS) {
        float s = 0.0f;
#pragma unroll
        for (int i = 0; i < 8; ++i) s += part2[i][threadIdx.x];
        sums[threadIdx.x] = s;
    }
    if (split == 1) {
        __syncthreads();
        if (threadIdx.x < COLS && n0 + threadIdx.x < N) c[n0 + threadIdx.x] = __float2half_rn(sums[threadIdx.x]);
        return;
    }
    cg::cluster_group cl = cg::this_cluster();
    cl.sync();
    const int per = COLS / split;
    if (threadIdx.x < per) {
        const int col = r * per + threadIdx.x;
        float s = 0.0f;
        for (int o = 0; o < split; ++o) s += cl.map_shared_rank(sums, o)[col];
        if (n0 + col < N) c[n0 + col] = __float2half_rn(s);
    }
    cl.sync();
}

template <int L, int U>
static int launch_b(const __half* A, const __half* B, __half* C, int K, int N, int target, cudaStream_t s) {
    const int strips = (N + 8 * L - 1) / (8 * L);
    const int split = pick_split(strips, K, target);
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(strips * split);
    cfg.blockDim = dim3(64 * L);
    cfg.stream = s;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = split;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    return (int)cudaLaunchKernelEx(&cfg, gemv_b<L, U>, A, B, C, K, N, split);
}

#if PROTO == 2
extern "C" int gemv_proto2(int variant, const void* a, const void* b, void* c, int K, int N, cudaStream_t s) {
    const int targets[] = {0, 528, 1056, 264, 528, 132, 264};  // variants 1-6: L = 4, 4, 8, 8, 16, 16 (U = 8, 8, 8, 8, 4, 4)
#else
extern "C" int gemv_proto3(int variant, const void* a, const void* b, void* c, int K, int N, cudaStream_t s) {
    const int targets[] = {0, 1, 396, 792, 132, 132, 264};  // variants 1-6: L = 4, 4, 4, 16, 16, 8 (U = 8, 8, 8, 4, 8, 8)
#endif
    const __half* A = (const __half*)a;
    const __half* B = (const __half*)b;
    __half* C = (__half*)c;
    const int t = variant >= 1 && variant <= 6 ? targets[variant] : 0;
    switch (variant) {
        case 0: gemv_a<8><<<(N + 31) / 32, 1024, 0, s>>>(A, B, C, K, N); break;
#if PROTO == 2
        case 1:
        case 2: return launch_b<4, 8>(A, B, C, K, N, t, s);
        case 3:
        case 4: return launch_b<8, 8>(A, B, C, K, N, t, s);
        case 5:
        case 6: return launch_b<16, 4>(A, B, C, K, N, t, s);
#else
        case 1:
        case 2:
        case 3: return launch_b<4, 8>(A, B, C, K, N, t, s);
        case 4: return launch_b<16, 4>(A, B, C, K, N, t, s);
        case 5: return launch_b<16, 8>(A, B, C, K, N, t, s);
        case 6: return launch_b<8, 8>(A, B, C, K, N, t, s);
#endif
        default: return 1;
    }
    return (int)cudaGetLastError();
}
