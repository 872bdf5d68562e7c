// hds/runtime.h — the only header code emitted by hdsc includes besides the
// CUDA toolkit's own. Header-only: conversions that involve __half and
// __nv_bfloat16 (always rounding to nearest even, through float where CUDA has
// no direct intrinsic), and math functions on them computed in float.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <atomic>
#include <cstdlib>

#include "hds/math.h"

namespace hds {

namespace detail {
template <typename T>
struct Convert {
    // Non-half types: C++ conversion rules (what static_cast does).
    template <typename From>
    static __host__ __device__ __forceinline__ T from(From x) {
        return static_cast<T>(x);
    }
    static __host__ __device__ __forceinline__ T from(__half x) { return static_cast<T>(__half2float(x)); }
    static __host__ __device__ __forceinline__ T from(__nv_bfloat16 x) { return static_cast<T>(__bfloat162float(x)); }
};
template <>
struct Convert<__half> {
    template <typename From>
    static __host__ __device__ __forceinline__ __half from(From x) {
        return __float2half_rn(static_cast<float>(x));
    }
    static __host__ __device__ __forceinline__ __half from(double x) { return __double2half(x); }
    static __host__ __device__ __forceinline__ __half from(__half x) { return x; }
    static __host__ __device__ __forceinline__ __half from(__nv_bfloat16 x) {
        return __float2half_rn(__bfloat162float(x));
    }
};
template <>
struct Convert<__nv_bfloat16> {
    template <typename From>
    static __host__ __device__ __forceinline__ __nv_bfloat16 from(From x) {
        return __float2bfloat16_rn(static_cast<float>(x));
    }
    static __host__ __device__ __forceinline__ __nv_bfloat16 from(double x) { return __double2bfloat16(x); }
    static __host__ __device__ __forceinline__ __nv_bfloat16 from(__half x) {
        return __float2bfloat16_rn(__half2float(x));
    }
    static __host__ __device__ __forceinline__ __nv_bfloat16 from(__nv_bfloat16 x) { return x; }
};
}  // namespace detail

// cast<To>(x): the conversion hds's cast<T>(...) means when f16/bf16 is involved.
template <typename To, typename From>
__host__ __device__ __forceinline__ To cast(From x) {
    return detail::Convert<To>::from(x);
}

// Math on f16/bf16: computed in f32, rounded back once.
#define HDS_HALF_UNARY(name, f32fn)                                  \
    __device__ __forceinline__ __half name(__half x) {               \
        return __float2half_rn(f32fn(__half2float(x)));              \
    }                                                                \
    __device__ __forceinline__ __nv_bfloat16 name(__nv_bfloat16 x) { \
        return __float2bfloat16_rn(f32fn(__bfloat162float(x)));      \
    }
HDS_HALF_UNARY(exp, expf)
HDS_HALF_UNARY(exp2, exp2f)
HDS_HALF_UNARY(log, logf)
HDS_HALF_UNARY(log2, log2f)
HDS_HALF_UNARY(sqrt, sqrtf)
HDS_HALF_UNARY(rsqrt, rsqrtf)
HDS_HALF_UNARY(tanh, tanhf)
HDS_HALF_UNARY(erf, erff)
HDS_HALF_UNARY(gelu, gelu)            // hds/math.h
HDS_HALF_UNARY(sigmoid, sigmoid)      // hds/math.h
HDS_HALF_UNARY(exp2_fast, exp2_fast)  // hds/math.h
HDS_HALF_UNARY(sin, sinf)
HDS_HALF_UNARY(cos, cosf)
HDS_HALF_UNARY(floor, floorf)
HDS_HALF_UNARY(ceil, ceilf)
HDS_HALF_UNARY(abs, fabsf)
#undef HDS_HALF_UNARY

#define HDS_HALF_BINARY(name, f32fn)                                                  \
    __device__ __forceinline__ __half name(__half x, __half y) {                      \
        return __float2half_rn(f32fn(__half2float(x), __half2float(y)));              \
    }                                                                                 \
    __device__ __forceinline__ __nv_bfloat16 name(__nv_bfloat16 x, __nv_bfloat16 y) { \
        return __float2bfloat16_rn(f32fn(__bfloat162float(x), __bfloat162float(y)));  \
    }
HDS_HALF_BINARY(min, fminf)
HDS_HALF_BINARY(max, fmaxf)
HDS_HALF_BINARY(pow, powf)
#undef HDS_HALF_BINARY

__device__ __forceinline__ __half fma(__half x, __half y, __half z) {
    return __hfma(x, y, z);
}
__device__ __forceinline__ __nv_bfloat16 fma(__nv_bfloat16 x, __nv_bfloat16 y, __nv_bfloat16 z) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
    // No bf16 arithmetic before sm_80: through f32 (the f32 result rounded once more).
    return __float2bfloat16_rn(fmaf(__bfloat162float(x), __bfloat162float(y), __bfloat162float(z)));
#else
    return __hfma(x, y, z);
#endif
}

// copy_4 / copy_8 / copy_16: N bytes in one access; both addresses N-byte aligned.
template <int N>
__host__ __device__ __forceinline__ void copy(void* dst, const void* src) {
    static_assert(N == 4 || N == 8 || N == 16, "copy of 4, 8 or 16 bytes");
    if constexpr (N == 16)
        *static_cast<uint4*>(dst) = *static_cast<const uint4*>(src);
    else if constexpr (N == 8)
        *static_cast<uint2*>(dst) = *static_cast<const uint2*>(src);
    else
        *static_cast<unsigned*>(dst) = *static_cast<const unsigned*>(src);
}

// Named barriers: barrier `id` (1..15; __syncthreads is 0) completes once `threads`
// threads (a multiple of 32, counted by warps) have arrived, waiting or not.
__device__ __forceinline__ void barrier_sync(int id, int threads) {
    asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}
__device__ __forceinline__ void barrier_arrive(int id, int threads) {
    asm volatile("bar.arrive %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

// Programmatic dependent launch (sm_90 and newer; nothing on older targets). In a
// graph built for sm_90a, hdsc launches the second kernel of a `then` schedule (such
// as flash decoding's combine) with launch_after_previous: the GPU may place its
// blocks while the first still runs, once every block of the first has called
// allow_next_kernel(); the second starts with wait_for_previous_kernels(), which
// returns once the kernels before it have finished and their writes are visible.
// So only the launch overlaps, never the work.
__device__ __forceinline__ void allow_next_kernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void wait_for_previous_kernels() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;\n" ::: "memory");
#endif
}
// kernel<<<grid, block, smem, stream>>>(args...), launched programmatically after
// the stream's previous kernel (cudaLaunchAttributeProgrammaticStreamSerialization);
// returns the launch's error.
template <typename... Params, typename... Args>
inline cudaError_t launch_after_previous(void (*kernel)(Params...), dim3 grid, dim3 block, size_t smem,
                                         cudaStream_t stream, Args... args) {
    cudaLaunchAttribute after;
    after.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    after.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = smem;
    config.stream = stream;
    config.attrs = &after;
    config.numAttrs = 1;
    return cudaLaunchKernelEx(&config, kernel, args...);
}

namespace detail {
// An attribute of the current device, asked once per device; 0 where it cannot be asked.
template <cudaDeviceAttr Attribute>
inline int device_attribute() {
    static std::atomic<int> value[64];
    int dev = 0, v = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= 64) return 0;
    if ((v = value[dev].load(std::memory_order_relaxed)) == 0) {
        if (cudaDeviceGetAttribute(&v, Attribute, dev) != cudaSuccess || v <= 0) return 0;
        value[dev].store(v, std::memory_order_relaxed);
    }
    return v;
}
}  // namespace detail

// The grid of a persistent kernel (whose blocks walk the work with a gridDim.x stride, such
// as hdsc's row ops on f32 rows of 8193 to 32768 values): `work` blocks, at most `per_sm` on
// each multiprocessor of the current device.
inline unsigned persistent_grid(long long work, int per_sm) {
    int sms = detail::device_attribute<cudaDevAttrMultiProcessorCount>();
    if (sms == 0) return static_cast<unsigned>(work);
    long long most = static_cast<long long>(sms) * per_sm;
    return static_cast<unsigned>(work < most ? work : most);
}

// The shared memory a block may have on the current device (its opt-in limit, bytes): the
// dispatch of sm_80 code tests it before a kernel over the 99 KiB of sm_86/89/120 GPUs, whose
// next schedule runs where it does not fit (0 where the device cannot be asked). The
// environment's HDS_SHARED_MEMORY_PER_BLOCK, where lower, takes its place: to run on one GPU
// the kernels a GPU of less shared memory gets.
inline int shared_memory_per_block() {
    static const int cap = [] {
        const char* s = std::getenv("HDS_SHARED_MEMORY_PER_BLOCK");
        return s ? std::atoi(s) : 0;
    }();
    int bytes = detail::device_attribute<cudaDevAttrMaxSharedMemoryPerBlockOptin>();
    return cap > 0 && cap < bytes ? cap : bytes;
}

}  // namespace hds

#include "hds/hopper.h"
#include "hds/tensor_core.h"
