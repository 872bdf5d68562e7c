// Hand-written row kernels that try other ways of holding a row than the emitted regimes
// (graph/row_regimes.cpp): LANES threads per row (a warp, several warps or a whole block of up
// to 1024 threads), THREADS / LANES rows per block, CH chunks of 16 bytes per thread held in
// registers, one barrier per block reduction (every thread sums its row's warp partials).
// Included by the variants variants.py makes of the emitted sweep graphs.
#pragma once
#include <cuda_fp16.h>

namespace rowvar {

template <int V>
__device__ __forceinline__ void copy16(void* dst, const void* src) {
    *reinterpret_cast<uint4*>(dst) = *reinterpret_cast<const uint4*>(src);
}

// The sum of `v` over the LANES threads of this thread's row; `part` holds THREADS / 32 floats.
template <int THREADS, int LANES>
__device__ __forceinline__ float row_sum(float v, float* part) {
#pragma unroll
    for (int o = (LANES < 32 ? LANES : 32) / 2; o >= 1; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
    if constexpr (LANES > 32) {
        if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = v;
        __syncthreads();
        const float* mine = part + threadIdx.x / LANES * (LANES / 32);
        v = 0.0f;
#pragma unroll
        for (int w = 0; w < LANES / 32; ++w) v += mine[w];
    }
    return v;
}

// rms_norm of f16 rows, N % 8 == 0; GPRE: the weight's chunks are read with the row's.
template <int THREADS, int LANES, int CH, bool GPRE>
__global__ void __launch_bounds__(THREADS) rms_norm(const __half* __restrict__ x, const __half* __restrict__ g,
                                                    __half* __restrict__ out, int R, int N) {
    __shared__ float part[THREADS / 32];
    const int lane = threadIdx.x % LANES;
    const int row = blockIdx.x * (THREADS / LANES) + threadIdx.x / LANES;
    const int cols = row < R ? N : 0;
    const size_t base = (size_t)row * N;
    alignas(16) __half rx[CH * 8];
    alignas(16) __half rg[GPRE ? CH * 8 : 8];
#pragma unroll
    for (int c = 0; c < CH; ++c) {
        const int first = (lane + c * LANES) * 8;
        if (first >= cols) break;
        copy16<16>(&rx[c * 8], &x[base + first]);
        if constexpr (GPRE) copy16<16>(&rg[c * 8], &g[first]);
    }
    float acc = 0.0f;
#pragma unroll
    for (int c = 0; c < CH; ++c) {
        const int first = (lane + c * LANES) * 8;
        if (first >= cols) break;
#pragma unroll
        for (int e = 0; e < 8; ++e) acc += __half2float(rx[c * 8 + e]) * __half2float(rx[c * 8 + e]);
    }
    const float inv = rsqrtf(row_sum<THREADS, LANES>(acc, part) / (float)N + 1e-6f);
#pragma unroll
    for (int c = 0; c < CH; ++c) {
        const int first = (lane + c * LANES) * 8;
        if (first >= cols) break;
        alignas(16) __half vg[8];
        if constexpr (GPRE) {
#pragma unroll
            for (int e = 0; e < 8; ++e) vg[e] = rg[c * 8 + e];
        } else {
            copy16<16>(vg, &g[first]);
        }
        alignas(16) __half vo[8];
#pragma unroll
        for (int e = 0; e < 8; ++e) vo[e] = __float2half(__half2float(rx[c * 8 + e]) * inv * __half2float(vg[e]));
        copy16<16>(&out[base + first], vo);
    }
}

// layer_norm of f32 rows, N % 4 == 0 (eps 1e-5, two-pass variance from registers).
template <int THREADS, int LANES, int CH, bool GPRE>
__global__ void __launch_bounds__(THREADS) layer_norm(const float* __restrict__ x, const float* __restrict__ g,
                                                      const float* __restrict__ b, float* __restrict__ out, int R,
                                                      int N) {
    __shared__ float part[2][THREADS / 32];
    const int lane = threadIdx.x % LANES;
    const int row = blockIdx.x * (THREADS / LANES) + threadIdx.x / LANES;
    const int cols = row < R ? N : 0;
    const size_t base = (size_t)row * N;
    alignas(16) float rx[CH * 4];
    alignas(16) float rg[GPRE ? CH * 4 : 4];
    alignas(16) float rb[GPRE ? CH * 4 : 4];
#pragma unroll
    for (int c = 0; c < CH; ++c) {
        const int first = (lane + c * LANES) * 4;
        if (first >= cols) break;
        copy16<16>(&rx[c * 4], &x[base + first]);
        if constexpr (GPRE) {
            copy16<16>(&rg[c * 4], &g[first]);
            copy16<16>(&rb[c * 4], &b[first]);
        }
    }
    float s = 0.0f;
#pragma unroll
    for (int c = 0; c < CH; ++c) {
        if ((lane + c * LANES) * 4 >= cols) break;
#pragma unroll
        for (int e = 0; e < 4; ++e) s += rx[c * 4 + e];
    }
    const float mu = row_sum<THREADS, LANES>(s, part[0]) / (float)N;
    float q = 0.0f;
#pragma unroll
    for (int c = 0; c < CH; ++c) {
        if ((lane + c * LANES) * 4 >= cols) break;
#pragma unroll
        for (int e = 0; e < 4; ++e) q += (rx[c * 4 + e] - mu) * (rx[c * 4 + e] - mu);
    }
    const float inv = rsqrtf(row_sum<THREADS, LANES>(q, part[1]) / (float)N + 1e-5f);
#pragma unroll
    for (int c = 0; c < CH; ++c) {
        const int first = (lane + c * LANES) * 4;
        if (first >= cols) break;
        alignas(16) float vg[4], vb[4], vo[4];
        if constexpr (GPRE) {
#pragma unroll
            for (int e = 0; e < 4; ++e) vg[e] = rg[c * 4 + e], vb[e] = rb[c * 4 + e];
        } else {
            copy16<16>(vg, &g[first]);
            copy16<16>(vb, &b[first]);
        }
#pragma unroll
        for (int e = 0; e < 4; ++e) vo[e] = (rx[c * 4 + e] - mu) * inv * vg[e] + vb[e];
        copy16<16>(&out[base + first], vo);
    }
}

}  // namespace rowvar
