// How many clusters of the split kernels of points.hds the GPU holds at once:
// cudaOccupancyMaxActiveClusters for each kernel and cluster size. Built here after build.sh, run on the GPU machine:
//   nvcc -std=c++17 -gencode arch=compute_90a,code=sm_90a -I runtime -include .devcarry/f32-split4/points.cu \
//       bench/results/2026-11-26-h100-f32-split4/occupancy.cu -o .devcarry/f32-split4/occ   (then, there: .devcarry/f32-split4/occ)
#include <cstdio>

// fixed: the kernel's own __cluster_dims__ (only that size is asked).
template <typename K>
static void report(const char* name, K kernel, int smem, int threads, int fixed = 0) {
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    for (int size = fixed ? fixed : 1; size <= (fixed ? fixed : 8); size *= 2) {
        cudaLaunchConfig_t config = {};
        cudaLaunchAttribute cluster;
        cluster.id = cudaLaunchAttributeClusterDimension;
        cluster.val.clusterDim.x = size;
        cluster.val.clusterDim.y = 1;
        cluster.val.clusterDim.z = 1;
        config.gridDim = dim3(size * 64, 1, 1);
        config.blockDim = dim3(threads, 1, 1);
        config.dynamicSmemBytes = smem;
        config.attrs = &cluster;
        config.numAttrs = fixed ? 0 : 1;
        int clusters = -1;
        cudaError_t e = cudaOccupancyMaxActiveClusters(&clusters, (void*)kernel, &config);
        printf("%s cluster %d: %d clusters (%d blocks) %s\n", name, size, clusters, clusters * size,
               e == cudaSuccess ? "" : cudaGetErrorString(e));
    }
}

int main() {
    report("s2", s2, 99840, 256, 2);
    report("s4", s4, 99840, 256, 4);
    report("s8", s8, 99840, 256, 8);
    report("a32 (74880 B)", a32, 74880, 256);
    report("d2 (51328 B)", d2, 51328, 256);
}
