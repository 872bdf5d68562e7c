// What cudaFuncGetAttributes says of the sm90a_code() probe (hds/hopper.h) in each build:
//   nvcc -std=c++17 -I runtime GENCODE probe.cu -o probe && ./probe
#include <cstdio>

#include "hds/runtime.h"

static __global__ void __launch_bounds__(HDS_SM90A_PROBE_THREADS) sm90a_probe() {}

int main() {
    cudaFuncAttributes attr;
    cudaError_t e = cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(sm90a_probe));
    std::printf("error %d (%s) max threads %d binary %d ptx %d\n", (int)e, cudaGetErrorString(e),
                attr.maxThreadsPerBlock, attr.binaryVersion, attr.ptxVersion);
    static std::atomic<signed char> known[64];
    std::printf("runs_sm90a_build: %d\n",
                (int)hds::detail::runs_sm90a_build(reinterpret_cast<const void*>(sm90a_probe), known));
}
