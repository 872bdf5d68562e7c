// hopper.h — the sm_90 / sm_90a built-ins of hds: mbarriers, the bulk tensor
// copy engine (TMA: cp.async.bulk.tensor with a CUtensorMap made by the host
// launcher) and warpgroup mma (wgmma, sm_90a), plus setmaxnreg (sm_90a) and
// thread block clusters (multicast TMA, remote mbarrier arrivals, cluster barriers).
//
// Shared-memory layouts are the 128-byte swizzled ones a TMA box with 128-byte
// rows writes: wgmma descriptors take the start of the operand, the distance
// between 8-row groups (1024 bytes) and, for N-major B, the distance between
// 64-column tiles.
#pragma once

#include <cuda.h>  // CUtensorMap and its enums (types only; no libcuda link)
#include <cudaTypedefs.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include <atomic>
#include <initializer_list>
#include <type_traits>

namespace hds {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define HDS_SM90_ONLY __trap();
#define HDS_SM90_ASM 0
#else
#define HDS_SM90_ONLY
#define HDS_SM90_ASM 1
#endif
#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define HDS_SM90A_ONLY __trap();
#else
#define HDS_SM90A_ONLY
#endif

// A .cu for both targets (hdsc's default where an op's schedules differ on sm_90a; docs/cli.md,
// "The target") is compiled for sm_80 and for sm_90a: HDS_SM90A_CODE is 1 in its compute_90a
// build (and the host pass), where the sm_90a kernels have their bodies; in the others they
// have none and HDS_CLUSTER_DIMS drops their clusters. Its sm90a_code() asks which build the
// device runs by the launch bound of a probe kernel (HDS_SM90A_PROBE_THREADS, runs_sm90a_build).
#if !defined(__CUDA_ARCH__) || defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define HDS_SM90A_CODE 1
#define HDS_SM90A_PROBE_THREADS 64
#else
#define HDS_SM90A_CODE 0
#define HDS_SM90A_PROBE_THREADS 32
#endif
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define HDS_CLUSTER_DIMS(n) __cluster_dims__(n, 1, 1)
#else
#define HDS_CLUSTER_DIMS(n)
#endif

namespace detail {
// Whether the current device runs the compute_90a build of `probe` (a kernel declared
// `__launch_bounds__(HDS_SM90A_PROBE_THREADS)`: 64 threads there, 32 in the others), asked once
// per device into `known` (0: not yet, 1: no, 2: yes). No launch and no copy: safe while a
// stream is captured.
inline bool runs_sm90a_build(const void* probe, std::atomic<signed char> (&known)[64]) {
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= 64) return false;
    signed char k = known[dev].load(std::memory_order_relaxed);
    if (k == 0) {
        cudaFuncAttributes attr;
        if (cudaFuncGetAttributes(&attr, probe) != cudaSuccess) return false;
        k = attr.maxThreadsPerBlock == 64 ? 2 : 1;
        known[dev].store(k, std::memory_order_relaxed);
    }
    return k == 2;
}

__device__ __forceinline__ unsigned smem_addr(const void* p) {
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
}  // namespace detail

// ---- mbarrier (sm_90) ----
__device__ __forceinline__ void mbarrier_init(unsigned long long* bar, int count) {
    HDS_SM90_ONLY
#if HDS_SM90_ASM
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(detail::smem_addr(bar)), "r"(count) : "memory");
#endif
}

__device__ __forceinline__ void mbarrier_arrive(unsigned long long* bar) {
    HDS_SM90_ONLY
#if HDS_SM90_ASM
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(detail::smem_addr(bar)) : "memory");
#endif
}

__device__ __forceinline__ void mbarrier_arrive_expect_tx(unsigned long long* bar, int bytes) {
    HDS_SM90_ONLY
#if HDS_SM90_ASM
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(detail::smem_addr(bar)), "r"(bytes)
                 : "memory");
#endif
}

// Spins until the phase with this parity has completed.
__device__ __forceinline__ void mbarrier_wait(unsigned long long* bar, int parity) {
    HDS_SM90_ONLY
#if HDS_SM90_ASM
    unsigned done = 0;
    do {
        asm volatile(
            "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
            : "=r"(done)
            : "r"(detail::smem_addr(bar)), "r"(parity)
            : "memory");
    } while (!done);
#endif
}

__device__ __forceinline__ void fence_barrier_init() {
    HDS_SM90_ONLY
#if HDS_SM90_ASM
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
}

__device__ __forceinline__ void fence_proxy_async() {
    HDS_SM90_ONLY
#if HDS_SM90_ASM
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

// ---- TMA (sm_90) ----
// The box at (row, col) of the tensor `map` describes lands at dst; the copy
// completes on bar as transaction bytes. Out-of-bounds elements are zeros.
__device__ __forceinline__ void tma_load_2d(void* dst, const CUtensorMap* map, int row, int col,
                                            unsigned long long* bar) {
    HDS_SM90_ONLY
#if HDS_SM90_ASM
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::
            "r"(detail::smem_addr(dst)),
        "l"(reinterpret_cast<uint64_t>(map)), "r"(col), "r"(row), "r"(detail::smem_addr(bar))
        : "memory");
#endif
}

// The box at (row, col) of one slice of a tensor of 3 to 5 dimensions (the
// indices s0.. before the last two, outermost first; the map's box is 1 there).
__device__ __forceinline__ void tma_load_3d(void* dst, const CUtensorMap* map, int s0, int row, int col,
                                            unsigned long long* bar) {
    HDS_SM90_ONLY
#if HDS_SM90_ASM
    asm volatile(
        "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], "
        "[%5];\n" ::"r"(detail::smem_addr(dst)),
        "l"(reinterpret_cast<uint64_t>(map)), "r"(col), "r"(row), "r"(s0), "r"(detail::smem_addr(bar))
        : "memory");
#endif
}

__device__ __forceinline__ void tma_load_4d(void* dst, const CUtensorMap* map, int s0, int s1, int row, int col,
                                            unsigned long long* bar) {
    HDS_SM90_ONLY
#if HDS_SM90_ASM
    asm volatile(
        "cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], "
        "[%6];\n" ::"r"(detail::smem_addr(dst)),
        "l"(reinterpret_cast<uint64_t>(map)), "r"(col), "r"(row), "r"(s1), "r"(s0), "r"(detail::smem_addr(bar))
        : "memory");
#endif
}

__device__ __forceinline__ void tma_load_5d(void* dst, const CUtensorMap* map, int s0, int s1, int s2, int row, int col,
                                            unsigned long long* bar) {
    HDS_SM90_ONLY
#if HDS_SM90_ASM
    asm volatile(
        "cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], "
        "[%1, {%2, %3, %4, %5, %6}], [%7];\n" ::"r"(detail::smem_addr(dst)),
        "l"(reinterpret_cast<uint64_t>(map)), "r"(col), "r"(row), "r"(s2), "r"(s1), "r"(s0), "r"(detail::smem_addr(bar))
        : "memory");
#endif
}

// ---- thread block clusters (sm_90) ----
// tma_load_2d into the same box and barrier (the same shared offsets) of each
// block of the cluster whose bit is set in mask; each block's barrier counts
// the bytes that land in that block.
__device__ __forceinline__ void tma_load_2d_multicast(void* dst, const CUtensorMap* map, int row, int col,
                                                      unsigned long long* bar, int mask) {
    HDS_SM90_ONLY
#if HDS_SM90_ASM
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
        " [%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(detail::smem_addr(dst)),
        "l"(reinterpret_cast<uint64_t>(map)), "r"(col), "r"(row), "r"(detail::smem_addr(bar)),
        "h"(static_cast<unsigned short>(mask))
        : "memory");
#endif
}

// Arrives on the barrier at bar's offset in block `rank` of the cluster. The
// arrival has the default .release.cta semantics, as a local one: releasing a
// buffer whose reads (wgmma) have completed needs no cluster-wide fence, and
// one per slice would stall the warpgroup.
__device__ __forceinline__ void mbarrier_arrive_cluster(unsigned long long* bar, int rank) {
    HDS_SM90_ONLY
#if HDS_SM90_ASM
    asm volatile(
        "{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, %0, %1;\n"
        "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n" ::"r"(detail::smem_addr(bar)),
        "r"(rank)
        : "memory");
#endif
}

// Every thread of every block of the cluster arrives, then waits for all (not
// .aligned: the threads of a warp may reach it apart, as warp-specialized code does).
__device__ __forceinline__ void cluster_sync() {
    HDS_SM90_ONLY
#if HDS_SM90_ASM
    asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;\n" ::: "memory");
#endif
}

// The same barrier without memory ordering (arrive.relaxed): no fence waits for this
// thread's earlier stores to global memory. For a block's last barrier, which only keeps
// it from leaving while the others may still read its shared memory: their reads must be
// complete by then (their values used), as they are once a thread has combined them.
__device__ __forceinline__ void cluster_sync_relaxed() {
    HDS_SM90_ONLY
#if HDS_SM90_ASM
    asm volatile("barrier.cluster.arrive.relaxed;\nbarrier.cluster.wait;\n" ::: "memory");
#endif
}

// The value at s's offset in the shared memory of block `rank` of the cluster
// (distributed shared memory: mapa to the other block's shared::cluster address,
// 32 bits like a local shared address, then ld.shared::cluster). Order it after
// the other block's write with cluster_sync() (both are volatile asm).
template <class T>
__device__ __forceinline__ T cluster_load(const T* s, int rank) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8, "cluster_load reads 2, 4 or 8 bytes");
    HDS_SM90_ONLY
#if HDS_SM90_ASM
    unsigned remote;
    asm("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(remote) : "r"(detail::smem_addr(s)), "r"(rank));
    T value;
    if constexpr (sizeof(T) == 2) {
        unsigned short bits;
        asm volatile("ld.shared::cluster.b16 %0, [%1];\n" : "=h"(bits) : "r"(remote));
        memcpy(&value, &bits, 2);
    } else if constexpr (sizeof(T) == 4) {
        unsigned bits;
        asm volatile("ld.shared::cluster.b32 %0, [%1];\n" : "=r"(bits) : "r"(remote));
        memcpy(&value, &bits, 4);
    } else {
        unsigned long long bits;
        asm volatile("ld.shared::cluster.b64 %0, [%1];\n" : "=l"(bits) : "r"(remote));
        memcpy(&value, &bits, 8);
    }
    return value;
#else
    return *s;
#endif
}

namespace detail {

// cuTensorMapEncodeTiled of a tensor of `rank` dimensions (2 to 5; `dims` and the
// byte `strides` of all but the innermost, innermost first) in boxes of box_rows x
// box_cols of its two innermost, with the swizzle of the box's row width (32, 64
// or 128 bytes). cudaErrorInvalidValue where the copy engine cannot: a base not
// 16-byte aligned, a stride not a multiple of 16 bytes.
template <typename T>
inline cudaError_t encode_tensor_map(CUtensorMap* map, const T* base, int rank, const cuuint64_t* dims,
                                     const cuuint64_t* strides, int box_rows, int box_cols) {
    static PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
    if (!encode) {
        cudaDriverEntryPointQueryResult found;
        void* fn = nullptr;
        cudaError_t e =
            cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found);
        if (e != cudaSuccess || found != cudaDriverEntryPointSuccess || !fn) return cudaErrorNotSupported;
        encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
    }
    if (reinterpret_cast<uintptr_t>(base) % 16 != 0) return cudaErrorInvalidValue;
    for (int d = 0; d + 1 < rank; ++d)
        if (strides[d] % 16 != 0 || strides[d] >= (1ull << 40)) return cudaErrorInvalidValue;
    cuuint32_t box[5] = {static_cast<cuuint32_t>(box_cols), static_cast<cuuint32_t>(box_rows), 1, 1, 1};
    cuuint32_t elem_strides[5] = {1, 1, 1, 1, 1};
    const int row_bytes = box_cols * static_cast<int>(sizeof(T));
    CUtensorMapSwizzle swizzle = row_bytes == 128  ? CU_TENSOR_MAP_SWIZZLE_128B
                                 : row_bytes == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                                                   : CU_TENSOR_MAP_SWIZZLE_32B;
    CUtensorMapDataType type = sizeof(T) == 2   ? (std::is_same_v<T, __half> ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16
                                                                             : CU_TENSOR_MAP_DATA_TYPE_BFLOAT16)
                               : sizeof(T) == 4 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
                                                : CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
    CUresult r =
        encode(map, type, rank, const_cast<T*>(base), dims, strides, box, elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
               swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

}  // namespace detail

// Host: the tensor map of a row-major tensor of 2 to 5 dimensions (`extents`,
// outermost first) read in boxes of box_rows x box_cols of its last two, one
// slice of the others at a time, with the swizzle of the box's row width (32,
// 64 or 128 bytes). cudaErrorInvalidValue when the base is not 16-byte aligned
// or the row pitch not a multiple of 16 bytes (the copy engine's requirements).
template <typename T>
inline cudaError_t make_tensor_map(CUtensorMap* map, const T* base, std::initializer_list<long long> extents,
                                   int box_rows, int box_cols) {
    const int rank = static_cast<int>(extents.size());
    if (rank < 2 || rank > 5) return cudaErrorInvalidValue;
    cuuint64_t dims[5], strides[4];
    long long pitch = static_cast<long long>(sizeof(T));  // bytes between consecutive indices of dimension d
    for (int d = 0; d < rank; ++d) {
        const long long n = extents.begin()[rank - 1 - d];  // innermost first
        if (n <= 0) return cudaErrorInvalidValue;
        dims[d] = static_cast<cuuint64_t>(n);
        if (d > 0) strides[d - 1] = static_cast<cuuint64_t>(pitch);
        pitch *= n;
    }
    return detail::encode_tensor_map(map, base, rank, dims, strides, box_rows, box_cols);
}

// make_tensor_map of a strided view of memory: element (i0, .., in) at base +
// sum(strides[d] * id) (elements, outermost first, the last 1). A dimension of
// one index is never stepped along: its stride is any the copy engine takes.
template <typename T>
inline cudaError_t make_tensor_map_strided(CUtensorMap* map, const T* base, std::initializer_list<long long> extents,
                                           std::initializer_list<long long> strides, int box_rows, int box_cols) {
    const int rank = static_cast<int>(extents.size());
    if (rank < 2 || rank > 5 || strides.size() != extents.size() || strides.begin()[rank - 1] != 1)
        return cudaErrorInvalidValue;
    cuuint64_t dims[5], steps[4];
    long long widest = 16;  // bytes
    for (int d = 0; d < rank; ++d) {
        const long long n = extents.begin()[rank - 1 - d], step = strides.begin()[rank - 1 - d];
        if (n <= 0 || step < 0) return cudaErrorInvalidValue;
        dims[d] = static_cast<cuuint64_t>(n);
        if (d > 0) steps[d - 1] = static_cast<cuuint64_t>(step * static_cast<long long>(sizeof(T)));
        if (d > 0 && n > 1 && step * static_cast<long long>(sizeof(T)) > widest)
            widest = step * static_cast<long long>(sizeof(T));
    }
    for (int d = 1; d < rank; ++d)
        if (dims[d] == 1) steps[d - 1] = static_cast<cuuint64_t>(widest);
    return detail::encode_tensor_map(map, base, rank, dims, steps, box_rows, box_cols);
}

// make_tensor_map of a rows x cols tensor.
template <typename T>
inline cudaError_t make_tensor_map_2d(CUtensorMap* map, const T* base, long long rows, long long cols, int box_rows,
                                      int box_cols) {
    return make_tensor_map(map, base, {rows, cols}, box_rows, box_cols);
}

// ---- wgmma (sm_90a) ----
// Shared-memory matrix descriptor of a 128-byte swizzled operand starting at p:
// `stride` bytes between 8-row groups, `leading` bytes between 64-column tiles
// (N-major operands only).
__device__ __forceinline__ uint64_t wgmma_desc(const void* p, unsigned leading, unsigned stride) {
    const uint64_t addr = detail::smem_addr(p);
    return ((addr & 0x3FFFF) >> 4) | (static_cast<uint64_t>((leading >> 4) & 0x3FFF) << 16) |
           (static_cast<uint64_t>((stride >> 4) & 0x3FFF) << 32) | (1ull << 62);
}

__device__ __forceinline__ void wgmma_fence() {
    HDS_SM90A_ONLY
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}

__device__ __forceinline__ void wgmma_commit() {
    HDS_SM90A_ONLY
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}

template <int N>
__device__ __forceinline__ void wgmma_wait() {
    HDS_SM90A_ONLY
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
#endif
}

template <int N>
__device__ __forceinline__ void setmaxnreg_inc() {
    HDS_SM90A_ONLY
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(N));
#endif
}

template <int N>
__device__ __forceinline__ void setmaxnreg_dec() {
    HDS_SM90A_ONLY
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(N));
#endif
}

// d[0 .. N/2) += A (64 x 16, K-major, descriptor da) * B (16 x N, N-major, db),
// accumulated in f32 (_bt: B given transposed, K-major rows as A; _ra: A from four
// registers per thread, the mma.sync m16n8k16 A fragment of its warp's 16 rows); fragment element i of thread t of the
// warpgroup is row 16 (t / 32) + (t % 32) / 4 + 8 ((i / 2) % 2), column 8 (i / 4) + 2 (t % 4) + i % 2.
// clang-format off
// Per shape N: the accumulator operands ("+f"(d[0]), ...), their names in the
// PTX string, and the operand numbers of the two descriptors and the scale flag.
#define HDS_F8(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), \
                  "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), "+f"(d[i + 7])
#define HDS_F32(i) HDS_F8(i), HDS_F8(i + 8), HDS_F8(i + 16), HDS_F8(i + 24)
#define HDS_OUTS_64 HDS_F32(0)
#define HDS_OUTS_128 HDS_F32(0), HDS_F32(32)
#define HDS_OUTS_256 HDS_F32(0), HDS_F32(32), HDS_F32(64), HDS_F32(96)
#define HDS_REGS_64 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define HDS_REGS_128 HDS_REGS_64 ", " "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define HDS_REGS_256 HDS_REGS_128 ", " "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
    "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, " \
    "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, " \
    "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
// The operands after the accumulators: descriptors da, db (B N-major: trans-b 1); B given
// transposed, K-major (trans-b 0); A from four registers of f16/bf16 pairs, then db.
#define HDS_REST_64 "%32, %33, p, 1, 1, 0, 1;", "%34"
#define HDS_REST_128 "%64, %65, p, 1, 1, 0, 1;", "%66"
#define HDS_REST_256 "%128, %129, p, 1, 1, 0, 1;", "%130"
#define HDS_REST_BT_64 "%32, %33, p, 1, 1, 0, 0;", "%34"
#define HDS_REST_BT_128 "%64, %65, p, 1, 1, 0, 0;", "%66"
#define HDS_REST_BT_256 "%128, %129, p, 1, 1, 0, 0;", "%130"
#define HDS_REST_RA_64 "{%32, %33, %34, %35}, %36, p, 1, 1, 1;", "%37"
#define HDS_REST_RA_128 "{%64, %65, %66, %67}, %68, p, 1, 1, 1;", "%69"
#define HDS_REST_RA_256 "{%128, %129, %130, %131}, %132, p, 1, 1, 1;", "%133"
// The swapped product (_at: A M-major, B K-major, trans-a 1, trans-b 0), N a multiple of 16 up to 192.
#define HDS_OUTS_16 HDS_F8(0)
#define HDS_REGS_16 "%0, %1, %2, %3, %4, %5, %6, %7"
#define HDS_OUTS_32 HDS_F8(0), HDS_F8(8)
#define HDS_REGS_32 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15"
#define HDS_OUTS_48 HDS_F8(0), HDS_F8(8), HDS_F8(16)
#define HDS_REGS_48 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15" ", " "%16, %17, %18, %19, %20, %21, %22, %23"
#define HDS_OUTS_80 HDS_F32(0), HDS_F8(32)
#define HDS_REGS_80 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15" ", " "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31" ", " "%32, %33, %34, %35, %36, %37, %38, %39"
#define HDS_OUTS_96 HDS_F32(0), HDS_F8(32), HDS_F8(40)
#define HDS_REGS_96 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15" ", " "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31" ", " "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47"
#define HDS_OUTS_112 HDS_F32(0), HDS_F8(32), HDS_F8(40), HDS_F8(48)
#define HDS_REGS_112 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15" ", " "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31" ", " "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47" ", " "%48, %49, %50, %51, %52, %53, %54, %55"
#define HDS_OUTS_144 HDS_F32(0), HDS_F32(32), HDS_F8(64)
#define HDS_REGS_144 HDS_REGS_128 ", " "%64, %65, %66, %67, %68, %69, %70, %71"
#define HDS_REST_AT_144 "%72, %73, p, 1, 1, 1, 0;", "%74"
#define HDS_OUTS_160 HDS_F32(0), HDS_F32(32), HDS_F8(64), HDS_F8(72)
#define HDS_REGS_160 HDS_REGS_128 ", " "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79"
#define HDS_REST_AT_160 "%80, %81, p, 1, 1, 1, 0;", "%82"
#define HDS_OUTS_176 HDS_F32(0), HDS_F32(32), HDS_F8(64), HDS_F8(72), HDS_F8(80)
#define HDS_REGS_176 HDS_REGS_128 ", " "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87"
#define HDS_REST_AT_176 "%88, %89, p, 1, 1, 1, 0;", "%90"
#define HDS_OUTS_192 HDS_F32(0), HDS_F32(32), HDS_F32(64)
#define HDS_REGS_192 HDS_REGS_128 ", " "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95"
#define HDS_REST_AT_192 "%96, %97, p, 1, 1, 1, 0;", "%98"
#define HDS_REST_AT_16 "%8, %9, p, 1, 1, 1, 0;", "%10"
#define HDS_REST_AT_32 "%16, %17, p, 1, 1, 1, 0;", "%18"
#define HDS_REST_AT_48 "%24, %25, p, 1, 1, 1, 0;", "%26"
#define HDS_REST_AT_80 "%40, %41, p, 1, 1, 1, 0;", "%42"
#define HDS_REST_AT_96 "%48, %49, p, 1, 1, 1, 0;", "%50"
#define HDS_REST_AT_112 "%56, %57, p, 1, 1, 1, 0;", "%58"
#define HDS_REST_AT_64 "%32, %33, p, 1, 1, 1, 0;", "%34"
#define HDS_REST_AT_128 "%64, %65, p, 1, 1, 1, 0;", "%66"
#define HDS_WGMMA_PTX(N, TY, REST, SCALE) \
    "{\n.reg .pred p;\nsetp.ne.b32 p, " SCALE ", 0;\nwgmma.mma_async.sync.aligned.m64n" #N "k16.f32." TY "." TY \
    " {" HDS_REGS_##N "}, " REST "\n}\n"
#define HDS_WGMMA_PTX_(N, TY, ...) HDS_WGMMA_PTX(N, TY, __VA_ARGS__)
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define HDS_WGMMA_ASM(N, TY) asm volatile(HDS_WGMMA_PTX_(N, TY, HDS_REST_##N) : HDS_OUTS_##N : "l"(da), "l"(db), "r"(1))
#define HDS_WGMMA_BT_ASM(N, TY) \
    asm volatile(HDS_WGMMA_PTX_(N, TY, HDS_REST_BT_##N) : HDS_OUTS_##N : "l"(da), "l"(db), "r"(1))
#define HDS_WGMMA_RA_ASM(N, TY) \
    asm volatile(HDS_WGMMA_PTX_(N, TY, HDS_REST_RA_##N) : HDS_OUTS_##N : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), \
                 "l"(db), "r"(1))
#define HDS_WGMMA_AT_ASM(N, TY) \
    asm volatile(HDS_WGMMA_PTX_(N, TY, HDS_REST_AT_##N) : HDS_OUTS_##N : "l"(da), "l"(db), "r"(1))
#else
#define HDS_WGMMA_ASM(N, TY)
#define HDS_WGMMA_BT_ASM(N, TY)
#define HDS_WGMMA_RA_ASM(N, TY)
#define HDS_WGMMA_AT_ASM(N, TY)
#endif
#define HDS_WGMMA_TYPED(ASM, N) \
    HDS_SM90A_ONLY \
    if constexpr (std::is_same_v<T, __half>) { \
        ASM(N, "f16"); \
    } else { \
        ASM(N, "bf16"); \
    }
#define HDS_WGMMA(N) \
    template <typename T> \
    __device__ __forceinline__ void wgmma_m64n##N##k16(float* d, uint64_t da, uint64_t db) { \
        HDS_WGMMA_TYPED(HDS_WGMMA_ASM, N) \
    } \
    template <typename T> \
    __device__ __forceinline__ void wgmma_m64n##N##k16_bt(float* d, uint64_t da, uint64_t db) { \
        HDS_WGMMA_TYPED(HDS_WGMMA_BT_ASM, N) \
    } \
    template <typename T> \
    __device__ __forceinline__ void wgmma_m64n##N##k16_ra(float* d, const T* a, uint64_t db) { \
        [[maybe_unused]] const unsigned* A = reinterpret_cast<const unsigned*>(a); \
        HDS_WGMMA_TYPED(HDS_WGMMA_RA_ASM, N) \
    }
HDS_WGMMA(64)
HDS_WGMMA(128)
HDS_WGMMA(256)
#define HDS_WGMMA_AT(N) \
    template <typename T> \
    __device__ __forceinline__ void wgmma_m64n##N##k16_at(float* d, uint64_t da, uint64_t db) { \
        HDS_WGMMA_TYPED(HDS_WGMMA_AT_ASM, N) \
    }
HDS_WGMMA_AT(16)
HDS_WGMMA_AT(32)
HDS_WGMMA_AT(48)
HDS_WGMMA_AT(64)
HDS_WGMMA_AT(80)
HDS_WGMMA_AT(96)
HDS_WGMMA_AT(112)
HDS_WGMMA_AT(128)
HDS_WGMMA_AT(144)
HDS_WGMMA_AT(160)
HDS_WGMMA_AT(176)
HDS_WGMMA_AT(192)
#undef HDS_WGMMA_AT
#undef HDS_WGMMA
#undef HDS_WGMMA_TYPED
#undef HDS_WGMMA_ASM
#undef HDS_WGMMA_BT_ASM
#undef HDS_WGMMA_RA_ASM
#undef HDS_WGMMA_AT_ASM
#undef HDS_WGMMA_PTX_
#undef HDS_WGMMA_PTX
#undef HDS_OUTS_64
#undef HDS_REGS_64
#undef HDS_REST_64
#undef HDS_OUTS_128
#undef HDS_REGS_128
#undef HDS_REST_128
#undef HDS_OUTS_256
#undef HDS_REGS_256
#undef HDS_REST_256
#undef HDS_REST_BT_64
#undef HDS_REST_BT_128
#undef HDS_REST_BT_256
#undef HDS_REST_RA_64
#undef HDS_REST_RA_128
#undef HDS_REST_RA_256
#undef HDS_OUTS_16
#undef HDS_REGS_16
#undef HDS_OUTS_32
#undef HDS_REGS_32
#undef HDS_OUTS_48
#undef HDS_REGS_48
#undef HDS_OUTS_80
#undef HDS_REGS_80
#undef HDS_OUTS_96
#undef HDS_REGS_96
#undef HDS_OUTS_112
#undef HDS_REGS_112
#undef HDS_OUTS_144
#undef HDS_REGS_144
#undef HDS_REST_AT_144
#undef HDS_OUTS_160
#undef HDS_REGS_160
#undef HDS_REST_AT_160
#undef HDS_OUTS_176
#undef HDS_REGS_176
#undef HDS_REST_AT_176
#undef HDS_OUTS_192
#undef HDS_REGS_192
#undef HDS_REST_AT_192
#undef HDS_REST_AT_16
#undef HDS_REST_AT_32
#undef HDS_REST_AT_48
#undef HDS_REST_AT_80
#undef HDS_REST_AT_96
#undef HDS_REST_AT_112
#undef HDS_REST_AT_64
#undef HDS_REST_AT_128
#undef HDS_F32
#undef HDS_F8
// clang-format on

#undef HDS_SM90_ONLY
#undef HDS_SM90_ASM
#undef HDS_SM90A_ONLY

}  // namespace hds
