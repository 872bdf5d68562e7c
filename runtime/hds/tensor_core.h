// tensor_core.h — the tensor-core built-ins of hds (mma_16816, ldmatrix_x4,
// ldmatrix_x4_trans, cp_async_16, cp_async_commit, cp_async_wait) as inline
// PTX for sm_80 and newer. Fragments are passed as pointers to the first
// element of a register array row (declared alignas(16) by hdsc), so after
// unrolling they stay in registers.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace hds {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define HDS_TENSOR_CORE_UNSUPPORTED __trap();
#else
#define HDS_TENSOR_CORE_UNSUPPORTED
#endif

namespace detail {
template <typename T>
struct MmaType;
template <>
struct MmaType<__half> {
    static constexpr bool bf16 = false;
};
template <>
struct MmaType<__nv_bfloat16> {
    static constexpr bool bf16 = true;
};
}  // namespace detail

// d[0..3] += A (16x16, row-major fragment a[0..7]) * B (16x8, column fragment b[0..3]).
template <typename T>
__device__ __forceinline__ void mma_16816(float* d, const T* a, const T* b) {
    HDS_TENSOR_CORE_UNSUPPORTED
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    const unsigned* A = reinterpret_cast<const unsigned*>(a);
    const unsigned* B = reinterpret_cast<const unsigned*>(b);
    if constexpr (detail::MmaType<T>::bf16) {
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
            "{%0,%1,%2,%3};\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]));
    } else {
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
            "{%0,%1,%2,%3};\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]));
    }
#endif
}

// Four 8x8 matrices of 16-bit values from shared memory; lane L gives the
// address of row L % 8 of matrix L / 8. ldmatrix_x4_trans transposes each.
#define HDS_LDMATRIX_X4(name, ptx)                                                                                \
    template <typename T>                                                                                         \
    __device__ __forceinline__ void name(T* dst, const T* src) {                                                  \
        HDS_TENSOR_CORE_UNSUPPORTED                                                                               \
        unsigned* D = reinterpret_cast<unsigned*>(dst);                                                           \
        unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(src));                                     \
        asm volatile(ptx " {%0,%1,%2,%3}, [%4];\n" : "=r"(D[0]), "=r"(D[1]), "=r"(D[2]), "=r"(D[3]) : "r"(addr)); \
    }
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
HDS_LDMATRIX_X4(ldmatrix_x4, "ldmatrix.sync.aligned.m8n8.x4.shared.b16")
HDS_LDMATRIX_X4(ldmatrix_x4_trans, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16")
#else
template <typename T>
__device__ __forceinline__ void ldmatrix_x4(T*, const T*) {
    __trap();
}
template <typename T>
__device__ __forceinline__ void ldmatrix_x4_trans(T*, const T*) {
    __trap();
}
#endif
#undef HDS_LDMATRIX_X4

// 16 bytes global -> shared, bypassing L1; the bytes past `bytes` are zero-filled
// (bytes == 0 reads nothing).
template <typename T>
__device__ __forceinline__ void cp_async_16(T* dst, const T* src, int bytes) {
    HDS_TENSOR_CORE_UNSUPPORTED
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(addr), "l"(src), "r"(bytes));
#endif
}

__device__ __forceinline__ void cp_async_commit() {
    HDS_TENSOR_CORE_UNSUPPORTED
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}

template <int N>
__device__ __forceinline__ void cp_async_wait() {
    HDS_TENSOR_CORE_UNSUPPORTED
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#endif
}

#undef HDS_TENSOR_CORE_UNSUPPORTED

}  // namespace hds
