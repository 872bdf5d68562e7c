// Prototype (not the product): a GEMV-like kernel for M = 1 whose rows of b
// need not be 16-byte aligned. A block owns 32 columns of c (lane = column:
// each warp-wide read of b is 32 consecutive elements of one row) and its
// WARPS warps split K into contiguous runs; each thread keeps U reads of b in
// flight. The warps' sums meet in shared memory. Compared with matmul_skinny's
// scalar staging (256 threads, one 256 x 32 slice in flight per block).
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__device__ inline float tof(__half v) { return __half2float(v); }
__device__ inline float tof(float v) { return v; }
template <typename T> __device__ inline T fromf(float v);
template <> __device__ inline __half fromf<__half>(float v) { return __float2half_rn(v); }
template <> __device__ inline float fromf<float>(float v) { return v; }

template <typename T, int WARPS, int U>
__global__ void __launch_bounds__(WARPS * 32) gemv(const T* __restrict__ a, const T* __restrict__ b,
                                                    T* __restrict__ c, int K, int N) {
    __shared__ float part[WARPS][33];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int n = blockIdx.x * 32 + lane;
    const int nc = min(n, N - 1);
    const int per = (K + WARPS - 1) / WARPS;
    const int k0 = warp * per, k1 = min(K, k0 + per);
    float acc = 0.0f;
    for (int k = k0; k < k1; k += U) {
        T vb[U], va[U];
#pragma unroll
        for (int u = 0; u < U; ++u) {
            const int kk = min(k + u, k1 - 1);
            vb[u] = b[kk * N + nc];
            va[u] = a[kk];
        }
#pragma unroll
        for (int u = 0; u < U; ++u) acc += (k + u < k1 ? tof(va[u]) : 0.0f) * tof(vb[u]);
    }
    part[warp][lane] = acc;
    __syncthreads();
    if (warp == 0) {
        float s = 0.0f;
#pragma unroll
        for (int w = 0; w < WARPS; ++w) s += part[w][lane];
        if (n < N) c[n] = fromf<T>(s);
    }
}

template <typename T, int WARPS, int U>
static int launch(const void* a, const void* b, void* c, int K, int N, cudaStream_t s) {
    gemv<T, WARPS, U><<<(N + 31) / 32, WARPS * 32, 0, s>>>((const T*)a, (const T*)b, (T*)c, K, N);
    return (int)cudaGetLastError();
}

extern "C" int gemv_proto(int dtype_bytes, int variant, const void* a, const void* b, void* c, int K, int N,
                          cudaStream_t s) {
    if (dtype_bytes == 2) {
        switch (variant) {
            case 0: return launch<__half, 16, 8>(a, b, c, K, N, s);
            case 1: return launch<__half, 16, 16>(a, b, c, K, N, s);
            case 2: return launch<__half, 32, 8>(a, b, c, K, N, s);
            case 3: return launch<__half, 32, 16>(a, b, c, K, N, s);
        }
    } else {
        switch (variant) {
            case 0: return launch<float, 16, 8>(a, b, c, K, N, s);
            case 1: return launch<float, 16, 16>(a, b, c, K, N, s);
            case 2: return launch<float, 32, 8>(a, b, c, K, N, s);
            case 3: return launch<float, 32, 16>(a, b, c, K, N, s);
        }
    }
    return 1;
}
