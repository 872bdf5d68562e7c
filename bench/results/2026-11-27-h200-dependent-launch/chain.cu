// A chain of 20 memory-bound kernels in a CUDA graph: launched plainly, programmatically after
// the one before (griddepcontrol.wait first), and so with griddepcontrol.launch_dependents at the
// top of every kernel (the next one's blocks placed as soon as all of this one's have started).
//   nvcc -gencode=arch=compute_90a,code=sm_90a -O3 -o chain chain.cu && ./chain
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1);} } while (0)
template <int MODE>  // 0 plain, 1 wait only, 2 trigger at top + wait
__global__ void step(const float4* __restrict__ w, const float* __restrict__ in, float* __restrict__ out, int n4) {
    if (MODE == 2) asm volatile("griddepcontrol.launch_dependents;");
    if (MODE >= 1) asm volatile("griddepcontrol.wait;" ::: "memory");
    float acc = 0.f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
        float4 v = w[i];
        acc += v.x + v.y + v.z + v.w;
    }
    acc += in[blockIdx.x * 8 + (threadIdx.x >> 5)];
    for (int o = 16; o; o >>= 1) acc += __shfl_xor_sync(~0u, acc, o);
    if ((threadIdx.x & 31) == 0) out[blockIdx.x * 8 + (threadIdx.x >> 5)] = acc;
}
template <int MODE>
void launch(const float4* w, const float* in, float* out, int n4, cudaStream_t s, int blocks) {
    cudaLaunchAttribute a;
    a.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    a.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t c = {};
    c.gridDim = blocks; c.blockDim = 256; c.stream = s; c.attrs = &a; c.numAttrs = MODE == 0 ? 0 : 1;
    CK(cudaLaunchKernelEx(&c, step<MODE>, w, in, out, n4));
}
int main() {
    const int chain = 20, blocks = 132 * 4;
    float* buf;
    CK(cudaMalloc(&buf, (chain + 1) * 8192 * sizeof(float)));
    CK(cudaMemset(buf, 0, (chain + 1) * 8192 * sizeof(float)));
    cudaStream_t s; CK(cudaStreamCreate(&s));
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    for (long bytes : {256L << 10, 1L << 20, 4L << 20, 16L << 20, 64L << 20}) {
        float4* w; CK(cudaMalloc(&w, bytes * chain)); CK(cudaMemset(w, 0, bytes * chain));
        int n4 = bytes / 16;
        cudaGraphExec_t ex[3];
        for (int m = 0; m < 3; ++m) {
            cudaGraph_t g; CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
            for (int k = 0; k < chain; ++k) {
                const float4* wk = w + (long)k * n4; float* in = buf + k * 8192; float* out = buf + (k + 1) * 8192;
                if (m == 0) launch<0>(wk, in, out, n4, s, blocks);
                if (m == 1) launch<1>(wk, in, out, n4, s, blocks);
                if (m == 2) launch<2>(wk, in, out, n4, s, blocks);
            }
            CK(cudaStreamEndCapture(s, &g)); CK(cudaGraphInstantiate(&ex[m], g, 0));
        }
        float best[3] = {1e9, 1e9, 1e9};
        for (int rep = 0; rep < 30; ++rep)
            for (int m = 0; m < 3; ++m) {
                cudaEventRecord(e0, s);
                for (int i = 0; i < 10; ++i) CK(cudaGraphLaunch(ex[m], s));
                cudaEventRecord(e1, s); CK(cudaEventSynchronize(e1));
                float ms; cudaEventElapsedTime(&ms, e0, e1); ms = ms * 1000 / 10 / chain;
                if (ms < best[m]) best[m] = ms;
            }
        printf("%6ld KB a kernel: us per kernel: plain %.2f  programmatic, wait %.2f  programmatic, trigger + wait %.2f\n",
               bytes >> 10, best[0], best[1], best[2]);
        cudaFree(w);
    }
    return 0;
}
