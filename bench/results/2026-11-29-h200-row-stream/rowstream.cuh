// Hand-written persistent row kernels (issue 23, rows' copy bandwidth): a block per row as the
// emitted `_block512` / `_block1024` regimes, but the grid is what fits at once and each block
// walks rows r, r + grid, ... While it reduces and writes row r from registers, the next row's
// 16-byte chunks are already on their way into shared memory (cp.async, each thread its own
// chunks, so no barrier guards the stage). Without it, every block's reads wait for DRAM at its
// start and DRAM idles while the blocks reduce.
// Rows too long for a block: a cluster of C blocks per row, block p holding the row's p-th part,
// each block's sums combined through distributed shared memory.
// Included by the variants variants.py makes of the emitted sweep graphs.
#pragma once
#include <cooperative_groups.h>
#include <cuda_fp16.h>
#include <cstdio>

namespace rowstream {

__device__ __forceinline__ void fetch16(void* smem, const void* gmem) {
    unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem));
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;\n" ::); }
__device__ __forceinline__ void wait_all() { asm volatile("cp.async.wait_group 0;\n" ::: "memory"); }

// Sum (or max) over the block; `part` holds THREADS / 32 floats (reused only after a barrier).
template <int THREADS, bool MAX = false>
__device__ __forceinline__ float block_reduce(float v, float* part) {
#pragma unroll
    for (int o = 16; o >= 1; o /= 2) {
        float u = __shfl_xor_sync(0xffffffffu, v, o);
        v = MAX ? fmaxf(v, u) : v + u;
    }
    if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = v;
    __syncthreads();
    v = part[0];
#pragma unroll
    for (int w = 1; w < THREADS / 32; ++w) v = MAX ? fmaxf(v, part[w]) : v + part[w];
    return v;
}

// block_reduce over the cluster's C blocks; `cpart` holds 2 * K floats (K reductions a row, two
// rows apart: a block writes a slot again only after every block passed the next row's barrier).
template <int THREADS, int C, bool MAX = false>
__device__ __forceinline__ float reduce(float v, float* part, float* cpart, int slot) {
    v = block_reduce<THREADS, MAX>(v, part);
    if constexpr (C > 1) {
        namespace cg = cooperative_groups;
        cg::cluster_group cl = cg::this_cluster();
        if (threadIdx.x == 0) cpart[slot] = v;
        cl.sync();
        v = *cl.map_shared_rank(cpart + slot, 0);
#pragma unroll
        for (int q = 1; q < C; ++q) {
            float u = *cl.map_shared_rank(cpart + slot, q);
            v = MAX ? fmaxf(v, u) : v + u;
        }
    }
    return v;
}

// The chunks of 16 bytes (uint4) of row r this thread copies into its slots of `stage`.
template <int THREADS, int CH>
__device__ __forceinline__ void prefetch(uint4* stage, const void* rows, int r, int R, int chunks, int first) {
    if (r < R) {
        const uint4* src = reinterpret_cast<const uint4*>(rows) + static_cast<size_t>(r) * chunks;
#pragma unroll
        for (int c = 0; c < CH; ++c) {
            int i = first + threadIdx.x + c * THREADS;
            if (i < chunks) fetch16(&stage[c * THREADS + threadIdx.x], src + i);
        }
    }
    commit();
}

template <int THREADS, int CH>
__device__ __forceinline__ void take(uint4 (&v)[CH], const uint4* stage, int chunks, int first) {
#pragma unroll
    for (int c = 0; c < CH; ++c) {
        int i = first + threadIdx.x + c * THREADS;
        v[c] = i < chunks ? stage[c * THREADS + threadIdx.x] : make_uint4(0, 0, 0, 0);
    }
}

// layer_norm of f32 rows, N % 4 == 0, up to THREADS * CH * 4 values (eps 1e-5).
template <int THREADS, int CH, int C>
__global__ void __launch_bounds__(THREADS) layer_norm(const float* __restrict__ x, const float* __restrict__ g,
                                                      const float* __restrict__ b, float* __restrict__ out, int R,
                                                      int N) {
    extern __shared__ uint4 stage[];
    __shared__ float part[2][THREADS / 32];
    const int chunks = N / 4;
    __shared__ float cpart[4];
    const int first = blockIdx.x % C * THREADS * CH, rows = gridDim.x / C;
    int r = blockIdx.x / C, it = 0;
    prefetch<THREADS, CH>(stage, x, r, R, chunks, first);
    for (; r < R; r += rows, it ^= 2) {
        wait_all();
        uint4 raw[CH];
        take<THREADS, CH>(raw, stage, chunks, first);
        prefetch<THREADS, CH>(stage, x, r + rows, R, chunks, first);
        __syncthreads();  // the last row's partial sums are read
        const float4* v = reinterpret_cast<const float4*>(raw);
        float s = 0.0f;
#pragma unroll
        for (int c = 0; c < CH; ++c) s += v[c].x + v[c].y + v[c].z + v[c].w;
        const float mu = reduce<THREADS, C>(s, part[0], cpart, it) / N;
        float q = 0.0f;
#pragma unroll
        for (int c = 0; c < CH; ++c) {
            if (first + threadIdx.x + c * THREADS >= chunks) break;
            float a = v[c].x - mu, bb = v[c].y - mu, cc = v[c].z - mu, d = v[c].w - mu;
            q += a * a + bb * bb + cc * cc + d * d;
        }
        const float inv = rsqrtf(reduce<THREADS, C>(q, part[1], cpart, it + 1) / N + 1e-5f);
        float4* o = reinterpret_cast<float4*>(out) + static_cast<size_t>(r) * chunks;
#pragma unroll
        for (int c = 0; c < CH; ++c) {
            int i = first + threadIdx.x + c * THREADS;
            if (i >= chunks) break;
            float4 gg = reinterpret_cast<const float4*>(g)[i], bb = reinterpret_cast<const float4*>(b)[i];
            o[i] = make_float4((v[c].x - mu) * inv * gg.x + bb.x, (v[c].y - mu) * inv * gg.y + bb.y,
                               (v[c].z - mu) * inv * gg.z + bb.z, (v[c].w - mu) * inv * gg.w + bb.w);
        }
    }
    if constexpr (C > 1) cooperative_groups::this_cluster().sync();  // no block leaves while read
}

// softmax of f32 rows, N % 4 == 0.
template <int THREADS, int CH, int C>
__global__ void __launch_bounds__(THREADS) softmax(const float* __restrict__ x, float* __restrict__ out, int R,
                                                   int N) {
    extern __shared__ uint4 stage[];
    __shared__ float part[2][THREADS / 32];
    const int chunks = N / 4;
    __shared__ float cpart[4];
    const int first = blockIdx.x % C * THREADS * CH, rows = gridDim.x / C;
    int r = blockIdx.x / C, it = 0;
    prefetch<THREADS, CH>(stage, x, r, R, chunks, first);
    for (; r < R; r += rows, it ^= 2) {
        wait_all();
        uint4 raw[CH];
        take<THREADS, CH>(raw, stage, chunks, first);
        prefetch<THREADS, CH>(stage, x, r + rows, R, chunks, first);
        __syncthreads();
        float4* v = reinterpret_cast<float4*>(raw);
        float m = -INFINITY;
#pragma unroll
        for (int c = 0; c < CH; ++c)
            if (first + threadIdx.x + c * THREADS < chunks) m = fmaxf(m, fmaxf(fmaxf(v[c].x, v[c].y), fmaxf(v[c].z, v[c].w)));
        m = reduce<THREADS, C, true>(m, part[0], cpart, it);
        float s = 0.0f;
        const float l2e = 1.4426950408889634f;
#pragma unroll
        for (int c = 0; c < CH; ++c) {
            if (first + threadIdx.x + c * THREADS >= chunks) break;
            v[c].x = exp2f((v[c].x - m) * l2e), v[c].y = exp2f((v[c].y - m) * l2e);
            v[c].z = exp2f((v[c].z - m) * l2e), v[c].w = exp2f((v[c].w - m) * l2e);
            s += v[c].x + v[c].y + v[c].z + v[c].w;
        }
        const float inv = 1.0f / reduce<THREADS, C>(s, part[1], cpart, it + 1);
        float4* o = reinterpret_cast<float4*>(out) + static_cast<size_t>(r) * chunks;
#pragma unroll
        for (int c = 0; c < CH; ++c) {
            int i = first + threadIdx.x + c * THREADS;
            if (i >= chunks) break;
            o[i] = make_float4(v[c].x * inv, v[c].y * inv, v[c].z * inv, v[c].w * inv);
        }
    }
    if constexpr (C > 1) cooperative_groups::this_cluster().sync();  // no block leaves while read
}

// rms_norm of f16 rows, N % 8 == 0 (eps 1e-6).
template <int THREADS, int CH, int C>
__global__ void __launch_bounds__(THREADS) rms_norm(const __half* __restrict__ x, const __half* __restrict__ g,
                                                    __half* __restrict__ out, int R, int N) {
    extern __shared__ uint4 stage[];
    __shared__ float part[THREADS / 32];
    const int chunks = N / 8;
    __shared__ float cpart[4];
    const int first = blockIdx.x % C * THREADS * CH, rows = gridDim.x / C;
    int r = blockIdx.x / C, it = 0;
    prefetch<THREADS, CH>(stage, x, r, R, chunks, first);
    for (; r < R; r += rows, it ^= 2) {
        wait_all();
        uint4 raw[CH];
        take<THREADS, CH>(raw, stage, chunks, first);
        prefetch<THREADS, CH>(stage, x, r + rows, R, chunks, first);
        __syncthreads();
        float acc = 0.0f;
#pragma unroll
        for (int c = 0; c < CH; ++c) {
            const __half2* h = reinterpret_cast<const __half2*>(&raw[c]);
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                float2 f = __half22float2(h[e]);
                acc += f.x * f.x + f.y * f.y;
            }
        }
        const float inv = rsqrtf(reduce<THREADS, C>(acc, part, cpart, it) / N + 1e-6f);
        uint4* o = reinterpret_cast<uint4*>(out) + static_cast<size_t>(r) * chunks;
#pragma unroll
        for (int c = 0; c < CH; ++c) {
            int i = first + threadIdx.x + c * THREADS;
            if (i >= chunks) break;
            uint4 gw = reinterpret_cast<const uint4*>(g)[i], res;
            const __half2 *h = reinterpret_cast<const __half2*>(&raw[c]), *w = reinterpret_cast<const __half2*>(&gw);
            __half2* y = reinterpret_cast<__half2*>(&res);
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                float2 f = __half22float2(h[e]), gf = __half22float2(w[e]);
                y[e] = __floats2half2_rn(f.x * inv * gf.x, f.y * inv * gf.y);
            }
            o[i] = res;
        }
    }
    if constexpr (C > 1) cooperative_groups::this_cluster().sync();  // no block leaves while read
}

// Launches `kernel` on as many blocks (clusters of C) as fit at once (at most R rows' worth),
// THREADS * CH 16-byte chunks of stage each.
template <int THREADS, int CH, int C, typename K, typename... A>
cudaError_t launch(K kernel, int R, cudaStream_t stream, A... args) {
    static int rows = 0;
    const int smem = THREADS * CH * 16;
    cudaLaunchConfig_t config = {};
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = C, attr[0].val.clusterDim.y = 1, attr[0].val.clusterDim.z = 1;
    config.blockDim = dim3(THREADS);
    config.dynamicSmemBytes = smem;
    config.stream = stream;
    config.attrs = attr;
    config.numAttrs = 1;
    if (!rows) {
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
        if (C > 8) cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
        int per_sm = 0, sms = 0, dev = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, THREADS, smem);
        rows = per_sm * sms;
        if (C > 1) {
            config.gridDim = dim3(C * 132);
            cudaOccupancyMaxActiveClusters(&rows, kernel, &config);
        }
        printf("rowstream: %d rows at once, clusters of %d x %d threads, %d B stage, %d blocks a multiprocessor\n",
               rows, C, THREADS, smem, per_sm);
    }
    config.gridDim = dim3(C * (R < rows ? R : rows));
    return cudaLaunchKernelEx(&config, kernel, args...);
}

}  // namespace rowstream
