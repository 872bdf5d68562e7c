// Many short blocks (1 to 64 MB copied by 256-thread blocks), ten kernels a CUDA graph: what
// griddepcontrol costs a block, launched plainly or programmatically.
//   nvcc -gencode=arch=compute_90a,code=sm_90a -O3 -o blocks blocks.cu && ./blocks
#include <cstdio>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1);} } while (0)
template <int TRIG, int WAIT>
__global__ void rows(const float4* __restrict__ x, float4* __restrict__ y, int n4) {
    if (TRIG) asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    if (WAIT) asm volatile("griddepcontrol.wait;" ::: "memory");
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) { float4 v = x[i]; v.x *= 2.f; y[i] = v; }
}
template <int T, int W>
void launch(bool pdl, const float4* x, float4* y, int n4, cudaStream_t s) {
    cudaLaunchAttribute a; a.id = cudaLaunchAttributeProgrammaticStreamSerialization; a.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t c = {}; c.gridDim = (n4 + 255) / 256; c.blockDim = 256; c.stream = s; c.attrs = &a; c.numAttrs = pdl ? 1 : 0;
    CK(cudaLaunchKernelEx(&c, rows<T, W>, x, y, n4));
}
int main() {
    cudaStream_t s; CK(cudaStreamCreate(&s));
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    const char* names[] = {"plain", "plain+wait", "plain+trig+wait", "pdl+wait", "pdl+trig+wait", "plain+trig"};
    for (long bytes : {1L << 20, 16L << 20, 64L << 20}) {
        float4 *x, *y; CK(cudaMalloc(&x, bytes)); CK(cudaMalloc(&y, bytes)); cudaMemset(x, 0, bytes);
        int n4 = bytes / 16;
        cudaGraphExec_t ex[6];
        for (int m = 0; m < 6; ++m) {
            cudaGraph_t g; CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
            for (int k = 0; k < 10; ++k) {
                if (m == 0) launch<0, 0>(false, x, y, n4, s);
                if (m == 1) launch<0, 1>(false, x, y, n4, s);
                if (m == 2) launch<1, 1>(false, x, y, n4, s);
                if (m == 3) launch<0, 1>(true, x, y, n4, s);
                if (m == 4) launch<1, 1>(true, x, y, n4, s);
                if (m == 5) launch<1, 0>(false, x, y, n4, s);
            }
            CK(cudaStreamEndCapture(s, &g)); CK(cudaGraphInstantiate(&ex[m], g, 0));
        }
        float best[6]; for (auto& b : best) b = 1e9;
        for (int rep = 0; rep < 40; ++rep)
            for (int m = 0; m < 6; ++m) {
                cudaEventRecord(e0, s); CK(cudaGraphLaunch(ex[m], s)); cudaEventRecord(e1, s); CK(cudaEventSynchronize(e1));
                float ms; cudaEventElapsedTime(&ms, e0, e1); ms = ms * 100;  // us per kernel
                if (ms < best[m]) best[m] = ms;
            }
        printf("%6ld KB, %d blocks:", bytes >> 10, (n4 + 255) / 256);
        for (int m = 0; m < 6; ++m) printf("  %s %.2f", names[m], best[m]);
        printf("  us/kernel\n");
        cudaFree(x); cudaFree(y);
    }
}
