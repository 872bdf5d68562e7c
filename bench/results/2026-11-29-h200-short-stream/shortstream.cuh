// Hand-written persistent kernels for rows of up to 64 values (issue 23, rows' copy bandwidth at
// N = 61): as the emitted `_lanes8` regime (8 threads a row, the block's 32 rows one span copied
// through shared memory 16 bytes at a time, the output back the same way), but the grid is what
// fits at once and each block walks the spans blockIdx.x, + gridDim.x, ...; the next span is
// copied into a second stage (cp.async, zero-filling past the tensor's end) while this one is
// reduced and written. A block of the emitted kernel has 2-4 16-byte loads in flight (f16 / f32
// at N = 61), and only while it starts.
// Included by the variants variants.py makes of the emitted sweep graphs.
#pragma once
#include <cuda_fp16.h>
#include <cstdio>

namespace shortstream {

__device__ __forceinline__ void fetch16(void* smem, const void* gmem, int bytes) {
    unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(gmem), "r"(bytes));
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N>
__device__ __forceinline__ void wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory"); }

__device__ __forceinline__ float sum8(float v) {
#pragma unroll
    for (int o = 4; o >= 1; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}
__device__ __forceinline__ float max8(float v) {
#pragma unroll
    for (int o = 4; o >= 1; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

// The op on one row of `cols` values (0 past the last row) held by 8 lanes: values lane, lane + 8, ...
struct RmsNorm {
    const __half* g;
    __device__ void operator()(const __half* in, __half* out, int lane, int cols, int N) const {
        float v[8], s = 0.0f;
#pragma unroll
        for (int c = 0; c < 8; ++c) {
            int col = lane + c * 8;
            v[c] = col < cols ? __half2float(in[col]) : 0.0f;
            s += v[c] * v[c];
        }
        float inv = rsqrtf(sum8(s) / N + 1e-6f);
#pragma unroll
        for (int c = 0; c < 8; ++c) {
            int col = lane + c * 8;
            if (col < cols) out[col] = __float2half(v[c] * inv * __half2float(g[col]));
        }
    }
};
struct LayerNorm {
    const float *g, *b;
    __device__ void operator()(const float* in, float* out, int lane, int cols, int N) const {
        float v[8], s = 0.0f;
#pragma unroll
        for (int c = 0; c < 8; ++c) {
            int col = lane + c * 8;
            v[c] = col < cols ? in[col] : 0.0f;
            s += v[c];
        }
        float mu = sum8(s) / N, q = 0.0f;
#pragma unroll
        for (int c = 0; c < 8; ++c)
            if (lane + c * 8 < cols) q += (v[c] - mu) * (v[c] - mu);
        float inv = rsqrtf(sum8(q) / N + 1e-5f);
#pragma unroll
        for (int c = 0; c < 8; ++c) {
            int col = lane + c * 8;
            if (col < cols) out[col] = (v[c] - mu) * inv * g[col] + b[col];
        }
    }
};
struct Softmax {
    __device__ void operator()(const float* in, float* out, int lane, int cols, int N) const {
        float v[8], m = -INFINITY;
#pragma unroll
        for (int c = 0; c < 8; ++c) {
            int col = lane + c * 8;
            v[c] = col < cols ? in[col] : -INFINITY;
            m = fmaxf(m, v[c]);
        }
        m = max8(m);
        float s = 0.0f;
#pragma unroll
        for (int c = 0; c < 8; ++c) {
            v[c] = lane + c * 8 < cols ? __expf(v[c] - m) : 0.0f;
            s += v[c];
        }
        float inv = 1.0f / sum8(s);
#pragma unroll
        for (int c = 0; c < 8; ++c) {
            int col = lane + c * 8;
            if (col < cols) out[col] = v[c] * inv;
        }
    }
};

template <typename T, int THREADS, typename Op>
__global__ void __launch_bounds__(THREADS) rows(const T* __restrict__ x, T* __restrict__ y, int R, int N, Op op) {
    constexpr int ROWS = THREADS / 8, V = 16 / sizeof(T), HELD = ROWS * 64;
    __shared__ alignas(16) T stage[2][HELD];
    __shared__ alignas(16) T sout[HELD];
    const int groups = (R + ROWS - 1) / ROWS;
    auto fetch = [&](int grp, int buf) {
        if (grp < groups) {
            const T* src = x + static_cast<size_t>(grp) * ROWS * N;
            int span = min(ROWS, R - grp * ROWS) * N;
#pragma unroll
            for (int q = 0; q < HELD / (THREADS * V); ++q) {
                int i = (q * THREADS + threadIdx.x) * V;
                if (i < span) fetch16(&stage[buf][i], src + i, min(V, span - i) * static_cast<int>(sizeof(T)));
            }
        }
        commit();
    };
    int buf = 0;
    fetch(blockIdx.x, 0);
    for (int grp = blockIdx.x; grp < groups; grp += gridDim.x, buf ^= 1) {
        fetch(grp + gridDim.x, buf ^ 1);
        wait<1>();
        __syncthreads();  // every thread's copies of this span landed
        int local = threadIdx.x / 8, row = grp * ROWS + local;
        op(&stage[buf][local * N], &sout[local * N], threadIdx.x % 8, row < R ? N : 0, N);
        __syncthreads();  // the span's results are in sout; stage[buf] is read
        T* dst = y + static_cast<size_t>(grp) * ROWS * N;
        int span = min(ROWS, R - grp * ROWS) * N;
#pragma unroll
        for (int q = 0; q < HELD / (THREADS * V); ++q) {
            int i = (q * THREADS + threadIdx.x) * V;
            if (i + V <= span) {
                *reinterpret_cast<uint4*>(dst + i) = *reinterpret_cast<const uint4*>(&sout[i]);
            } else {
                for (int e = i; e < span; ++e) dst[e] = sout[e];
            }
        }
    }
}

template <typename T, int THREADS, typename Op>
cudaError_t launch(const T* x, T* y, int R, int N, Op op, cudaStream_t stream) {
    static int grid = 0;
    auto kernel = rows<T, THREADS, Op>;
    if (!grid) {
        int per_sm = 0, sms = 0, dev = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, THREADS, 0);
        grid = per_sm * sms;
        printf("shortstream: %d blocks of %d threads, %d a multiprocessor\n", grid, THREADS, per_sm);
    }
    int groups = (R + THREADS / 8 - 1) / (THREADS / 8);
    kernel<<<groups < grid ? groups : grid, THREADS, 0, stream>>>(x, y, R, N, op);
    return cudaGetLastError();
}

}  // namespace shortstream
