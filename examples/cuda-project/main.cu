// main.cu — calls the launchers hdsc generated from kernels/saxpy.hds.
#include <cstdio>
#include <vector>

#include "saxpy.h"

#define CHECK(call)                                                          \
    do {                                                                     \
        cudaError_t err_ = (call);                                           \
        if (err_ != cudaSuccess) {                                           \
            std::printf("%s failed: %s\n", #call, cudaGetErrorString(err_)); \
            return 1;                                                        \
        }                                                                    \
    } while (0)

int main() {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::printf("no CUDA device: built fine, nothing to run\n");
        return 0;
    }
    const int n = 1000003, blocks = 64;
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) {
        x[i] = 0.001f * (i % 1000);
        y[i] = 1.0f;
    }
    float *dx, *dy, *dsums;
    CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CHECK(cudaMalloc(&dy, n * sizeof(float)));
    CHECK(cudaMalloc(&dsums, blocks * sizeof(float)));
    CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(launch_saxpy(dx, dy, 2.0f, n));
    CHECK(launch_block_sums(dy, dsums, n, blocks));
    std::vector<float> sums(blocks);
    CHECK(cudaMemcpy(sums.data(), dsums, blocks * sizeof(float), cudaMemcpyDeviceToHost));
    double total = 0, expect = 0;
    for (float s : sums) total += s;
    for (int i = 0; i < n; ++i) expect += 2.0 * x[i] + 1.0;
    std::printf("sum %.1f, expected %.1f\n", total, expect);
    return std::abs(total - expect) < 1e-4 * expect ? 0 : 1;
}
