// shim.cu — a few CUDA runtime calls exported with C linkage, linked into the
// same shared library as the kernels under test, so that the Python harness
// (ctypes) needs no CUDA bindings of its own.
#include <cuda_runtime.h>

extern "C" {
int hds_device_count() {
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
}
void* hds_alloc(size_t bytes) {
    void* p = nullptr;
    return cudaMalloc(&p, bytes) == cudaSuccess ? p : nullptr;
}
int hds_free(void* p) {
    return cudaFree(p);
}
int hds_to_device(void* dst, const void* src, size_t bytes) {
    return cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice);
}
int hds_to_host(void* dst, const void* src, size_t bytes) {
    return cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost);
}
int hds_fill_bytes(void* dst, int value, size_t bytes) {
    return cudaMemset(dst, value, bytes);
}
int hds_synchronize() {
    return cudaDeviceSynchronize();
}
const char* hds_error_string(int err) {
    return cudaGetErrorString(static_cast<cudaError_t>(err));
}
}
