// Layer norm f32 8192^2 variants: where do the last 10% of copy bandwidth go?
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <vector>
#include "hds/runtime.h"
#define N 8192
#define ln_f32_k0 v0_smem
#include "ln_emitted.inc"
#undef ln_f32_k0

__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}
template <int T>
__device__ __forceinline__ float block_sum(float v, float* part) {
    v = warp_sum(v);
    if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = v;
    __syncthreads();
    float r = 0;
#pragma unroll
    for (int i = 0; i < T / 32; ++i) r += part[i];
    return r;
}
// One row in registers: each thread holds N/T elements (N/4/T float4s). (The measured file had this body
// written out in both kernels below; it was folded into this function after the run, unchanged.)
template <int T>
__device__ __forceinline__ void ln_row(const float* __restrict__ x, const float* __restrict__ g,
                                       const float* __restrict__ b, float* __restrict__ out, size_t row,
                                       float (*part)[T / 32]) {
    constexpr int V = N / 4 / T;
    const float4* xr = reinterpret_cast<const float4*>(x + row * N);
    float4 r[V];
#pragma unroll
    for (int i = 0; i < V; ++i) r[i] = xr[threadIdx.x + i * T];
    float s = 0;
#pragma unroll
    for (int i = 0; i < V; ++i) s += r[i].x + r[i].y + r[i].z + r[i].w;
    float mu = block_sum<T>(s, part[0]) / N;
    float q = 0;
#pragma unroll
    for (int i = 0; i < V; ++i) {
        float a = r[i].x - mu, bb = r[i].y - mu, c = r[i].z - mu, d = r[i].w - mu;
        q += a * a + bb * bb + c * c + d * d;
    }
    float var = block_sum<T>(q, part[1]) / N;
    float rs = rsqrtf(var + 1e-5f);
    float4* o = reinterpret_cast<float4*>(out + row * N);
#pragma unroll
    for (int i = 0; i < V; ++i) {
        float4 gg = reinterpret_cast<const float4*>(g)[threadIdx.x + i * T];
        float4 bv = reinterpret_cast<const float4*>(b)[threadIdx.x + i * T];
        float4 y;
        y.x = (r[i].x - mu) * rs * gg.x + bv.x;
        y.y = (r[i].y - mu) * rs * gg.y + bv.y;
        y.z = (r[i].z - mu) * rs * gg.z + bv.z;
        y.w = (r[i].w - mu) * rs * gg.w + bv.w;
        o[threadIdx.x + i * T] = y;
    }
}
template <int T>
__global__ void __launch_bounds__(T) v_reg(const float* __restrict__ x, const float* __restrict__ g,
                                           const float* __restrict__ b, float* __restrict__ out) {
    __shared__ float part[2][T / 32];
    ln_row<T>(x, g, b, out, blockIdx.x, part);
}
// registers + rows per block (g, b read once per RPB rows from L1/L2 anyway; fewer blocks)
template <int T, int RPB>
__global__ void __launch_bounds__(T) v_reg_rows(const float* __restrict__ x, const float* __restrict__ g,
                                                const float* __restrict__ b, float* __restrict__ out, int R) {
    __shared__ float part[2][2][T / 32];
    for (int rr = 0; rr < RPB; ++rr) {
        int row = blockIdx.x * RPB + rr;
        if (row >= R) break;
        ln_row<T>(x, g, b, out, row, part[rr & 1]);
    }
}

static float time_ms(void (*f)(void*), void* ctx) {
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for (int i = 0; i < 5; ++i) f(ctx);
    std::vector<float> ts;
    for (int i = 0; i < 30; ++i) {
        cudaEventRecord(a);
        f(ctx);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float t;
        cudaEventElapsedTime(&t, a, b);
        ts.push_back(t);
    }
    std::sort(ts.begin(), ts.end());
    return ts[ts.size() / 2];
}
struct Ctx {
    float *x, *g, *b, *o, *ref;
    char *s, *d;
    int R;
};
#define RUN(name, launch)                                                 \
    {                                                                     \
        auto f = [](void* p) {                                            \
            Ctx& c = *(Ctx*)p;                                            \
            launch;                                                       \
        };                                                                \
        float t = time_ms(f, &c);                                         \
        check(c, name);                                                   \
        printf("%-28s %8.1f us  %6.3f of copy\n", name, t * 1e3, tc / t); \
    }
static void check(Ctx& c, const char* name) {
    std::vector<float> a((size_t)c.R * N), r((size_t)c.R * N);
    cudaMemcpy(a.data(), c.o, a.size() * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(r.data(), c.ref, r.size() * 4, cudaMemcpyDeviceToHost);
    double m = 0;
    for (size_t i = 0; i < a.size(); i += 97) m = std::max(m, (double)fabsf(a[i] - r[i]));
    if (m > 1e-4) printf("%s: MISMATCH %g\n", name, m);
    cudaMemset(c.o, 0, a.size() * 4);
}
__global__ void fill(float* p, size_t n, unsigned seed) {
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        unsigned h = (unsigned)i * 2654435761u ^ seed;
        h ^= h >> 13;
        h *= 0x5bd1e995;
        h ^= h >> 15;
        p[i] = (h & 0xffff) / 65536.0f * 4.0f - 1.5f;
    }
}
int main() {
    Ctx c;
    c.R = 8192;
    size_t n = (size_t)c.R * N;
    cudaMalloc(&c.x, n * 4);
    cudaMalloc(&c.o, n * 4);
    cudaMalloc(&c.ref, n * 4);
    cudaMalloc(&c.g, N * 4);
    cudaMalloc(&c.b, N * 4);
    cudaMalloc(&c.s, n * 4);
    cudaMalloc(&c.d, n * 4);
    fill<<<1024, 256>>>(c.x, n, 1);
    fill<<<8, 256>>>(c.g, N, 2);
    fill<<<8, 256>>>(c.b, N, 3);
    v0_smem<<<c.R, 256>>>(c.x, c.g, c.b, c.ref, c.R);
    float tc;
    {
        auto f = [](void* p) {
            Ctx& c = *(Ctx*)p;
            cudaMemcpyAsync(c.d, c.s, (size_t)c.R * N * 4, cudaMemcpyDeviceToDevice);
        };
        tc = time_ms(f, &c);
        printf("%-28s %8.1f us\n", "copy (read+write n*4)", tc * 1e3);
    }
    RUN("v0 smem (emitted)", (v0_smem<<<c.R, 256>>>(c.x, c.g, c.b, c.o, c.R)));
    cudaFuncSetAttribute(v0_smem, cudaFuncAttributePreferredSharedMemoryCarveout, 50);
    RUN("v0 smem carveout 50%", (v0_smem<<<c.R, 256>>>(c.x, c.g, c.b, c.o, c.R)));
    cudaFuncSetAttribute(v0_smem, cudaFuncAttributePreferredSharedMemoryCarveout, 30);
    RUN("v0 smem carveout 30%", (v0_smem<<<c.R, 256>>>(c.x, c.g, c.b, c.o, c.R)));
    RUN("reg T=256", (v_reg<256><<<c.R, 256>>>(c.x, c.g, c.b, c.o)));
    RUN("reg T=512", (v_reg<512><<<c.R, 512>>>(c.x, c.g, c.b, c.o)));
    RUN("reg T=1024", (v_reg<1024><<<c.R, 1024>>>(c.x, c.g, c.b, c.o)));
    RUN("reg T=128", (v_reg<128><<<c.R, 128>>>(c.x, c.g, c.b, c.o)));
    RUN("reg rows T=256 RPB=2", (v_reg_rows<256, 2><<<c.R / 2, 256>>>(c.x, c.g, c.b, c.o, c.R)));
    RUN("reg rows T=256 RPB=4", (v_reg_rows<256, 4><<<c.R / 4, 256>>>(c.x, c.g, c.b, c.o, c.R)));
    RUN("reg rows T=512 RPB=4", (v_reg_rows<512, 4><<<c.R / 4, 512>>>(c.x, c.g, c.b, c.o, c.R)));
    return 0;
}
