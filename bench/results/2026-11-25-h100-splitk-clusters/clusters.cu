// How many clusters of each size can be resident at once (cudaOccupancyMaxActiveClusters) for
// the split tile kernels of splitk_variants.hds: a split whose clusters do not all fit runs in
// two waves. nvcc -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I runtime -I .devcarry/variants clusters.cu
#include <cstdio>

#include "v64x128s.cu"
#include "v64x64s.cu"

template <class K>
void report(const char* name, K kernel, int threads, int smem) {
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    for (int size = 1; size <= 16; ++size) {
        cudaLaunchAttribute cluster;
        cluster.id = cudaLaunchAttributeClusterDimension;
        cluster.val.clusterDim.x = size;
        cluster.val.clusterDim.y = cluster.val.clusterDim.z = 1;
        cudaLaunchConfig_t config = {};
        config.gridDim = dim3(size * 16);
        config.blockDim = dim3(threads);
        config.dynamicSmemBytes = smem;
        config.attrs = &cluster;
        config.numAttrs = 1;
        int clusters = 0;
        cudaError_t e = cudaOccupancyMaxActiveClusters(&clusters, kernel, &config);
        printf("%s cluster %2d: %3d clusters (%3d blocks)%s\n", name, size, clusters, clusters * size,
               e == cudaSuccess ? "" : cudaGetErrorString(e));
    }
}

int main() {
    report("64x128 (191488 B)", v64x128s_rows16_k0_mm64x128s, 256, 191488);
    report("64x64 (158720 B)", v64x64s_rows16_k0_mm64x64s, 256, 158720);
    return 0;
}
