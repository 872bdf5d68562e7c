// Prototype (not the product): M <= 2 GEMV whose rows of b are not 16-byte
// aligned (K, N odd), reading b 16 bytes at a time anyway. Variants:
//   0: the element-wise gemv (stdlib/matmul_gemv.hds's layout: 32 warps, lane = column, U = 8);
//   1/2: 16-byte chunks from two aligned loads shifted together (funnel shifts), 4 chunk
//        lanes x 256 row groups per block (32 columns), U = 4 / 8 rows in flight;
//   3: as 1, the second aligned chunk taken from the next lane by a shuffle.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

// gemv<T, WARPS, U>, the element-wise GEMV of the session that wrote matmul_gemv (variant 0), and tof.
#include "../2026-11-25-h100-short-rows-decode/gemv_proto.cu"

// The 16 bytes at src (aligned to 2 bytes only) from the two aligned chunks lo, hi covering them.
__device__ inline uint4 shift16(uint4 lo, uint4 hi, unsigned sh) {
    uint32_t w[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
    if (sh & 8) {
#pragma unroll
        for (int i = 0; i < 6; ++i) w[i] = w[i + 2];
    }
    if (sh & 4) {
#pragma unroll
        for (int i = 0; i < 5; ++i) w[i] = w[i + 1];
    }
    const unsigned b = (sh & 3) * 8;
    return make_uint4(__funnelshift_r(w[0], w[1], b), __funnelshift_r(w[1], w[2], b), __funnelshift_r(w[2], w[3], b),
                      __funnelshift_r(w[3], w[4], b));
}

__device__ inline uint4 load16_unaligned(const void* src) {
    const uintptr_t p = (uintptr_t)src;
    const uint4* q = (const uint4*)(p & ~(uintptr_t)15);
    const unsigned sh = (unsigned)(p & 15);
    uint4 lo = q[0];
    uint4 hi = lo;
    if (sh) hi = q[1];
    return shift16(lo, hi, sh);
}

// The sums of a block of 1024 threads, 256 row groups of 32 columns in `part`, added and stored
// from column n0 of c: column = t % 32, 32 slices of 8 groups each, then warp 0 adds the slices.
__device__ inline void add_groups(float (*part)[33], __half* __restrict__ c, int n0, int N) {
    __shared__ float part2[32][33];
    const int col = threadIdx.x % 32, sl = threadIdx.x / 32;
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < 8; ++i) s += part[sl * 8 + i][col];
    part2[sl][col] = s;
    __syncthreads();
    if (threadIdx.x < 32) {
        float t = 0.0f;
#pragma unroll
        for (int i = 0; i < 32; ++i) t += part2[i][col];
        if (n0 + col < N) c[n0 + col] = __float2half_rn(t);
    }
}

// 1024 threads: q = chunk lane (4 x 8 columns), g = row group (256); rows k = g, g + 256, ...
template <int U, bool SHFL>
__global__ void __launch_bounds__(1024) gemv_vec(const __half* __restrict__ a, const __half* __restrict__ b,
                                                 __half* __restrict__ c, int K, int N) {
    __shared__ float part[256][33];
    const int q = threadIdx.x % 4, g = threadIdx.x / 4;
    const int n0 = blockIdx.x * 32;
    const int nq = n0 + q * 8;
    const int ns = min(nq, N - 8);  // the chunk read (inside the row); d of its columns belong to the lane before
    const int d = nq - ns;
    float acc[8];
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[j] = 0.0f;
    for (int k = g; k < K; k += 256 * U) {
        uint4 v[U];
        __half va[U];
#pragma unroll
        for (int u = 0; u < U; ++u) {
            const int kk = min(k + 256 * u, K - 1);
            const __half* src = b + (size_t)kk * N + ns;
            if (SHFL) {
                const uintptr_t p = (uintptr_t)src;
                const uint4* qp = (const uint4*)(p & ~(uintptr_t)15);
                const unsigned sh = (unsigned)(p & 15);
                uint4 lo = qp[0];
                uint4 hi;
                hi.x = __shfl_down_sync(0xffffffffu, lo.x, 1, 4);
                hi.y = __shfl_down_sync(0xffffffffu, lo.y, 1, 4);
                hi.z = __shfl_down_sync(0xffffffffu, lo.z, 1, 4);
                hi.w = __shfl_down_sync(0xffffffffu, lo.w, 1, 4);
                // lane 3 of each group, or a lane whose chunk was clamped, reads its own
                if ((q == 3 || d != 0) && sh) hi = qp[1];
                v[u] = shift16(lo, hi, sh);
            } else {
                v[u] = load16_unaligned(src);
            }
            va[u] = a[kk];
        }
#pragma unroll
        for (int u = 0; u < U; ++u) {
            const float av = k + 256 * u < K ? tof(va[u]) : 0.0f;
            const __half2* h = (const __half2*)&v[u];
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                float2 f = __half22float2(h[j]);
                acc[2 * j] += av * f.x;
                acc[2 * j + 1] += av * f.y;
            }
        }
    }
#pragma unroll
    for (int j = 0; j < 8; ++j)
        if (j >= d) part[g][q * 8 + j - d] = acc[j];
    __syncthreads();
    add_groups(part, c, n0, N);
}

extern "C" int gemv_proto1(int variant, const void* a, const void* b, void* c, int K, int N, cudaStream_t s) {
    const __half* A = (const __half*)a;
    const __half* B = (const __half*)b;
    __half* C = (__half*)c;
    const int blocks = (N + 31) / 32;
    switch (variant) {
        case 0: gemv<__half, 32, 8><<<blocks, 1024, 0, s>>>(A, B, C, K, N); break;
        case 1: gemv_vec<4, false><<<blocks, 1024, 0, s>>>(A, B, C, K, N); break;
        case 2: gemv_vec<8, false><<<blocks, 1024, 0, s>>>(A, B, C, K, N); break;
        case 3: gemv_vec<4, true><<<blocks, 1024, 0, s>>>(A, B, C, K, N); break;
        case 4: gemv_vec<2, false><<<blocks, 1024, 0, s>>>(A, B, C, K, N); break;
        default: return 1;
    }
    return (int)cudaGetLastError();
}
