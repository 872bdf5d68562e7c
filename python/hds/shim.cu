// shim.cu — linked into every library hds.load builds: the CUDA runtime's error
// names for the Python side (the library links its own copy of the runtime).
#include <cuda_runtime.h>

extern "C" const char* hds_error_string(int err) {
    return cudaGetErrorString(static_cast<cudaError_t>(err));
}
