// probe.cu — how fast can blocks read a [K, N] f16 matrix whose rows are not 16-byte multiples
// in the pattern of matmul_skinny_shifted (a strip of COLS columns a block, in the aligned
// 16-byte chunks that hold each row's run, K split over blocks, BK rows a slice by cp.async,
// STAGES deep, one barrier a slice), with nothing computed? Against a device-to-device copy of
// the same bytes. Strip widths 128 ... 1024 columns, 1 or 2 blocks a multiprocessor; then the
// same slices by bulk copies (`cp.async.bulk`, the copy engine: one copy a row's run, issued by
// one warp, on an mbarrier a stage) instead of a cp.async a 16-byte chunk.
//   nvcc -O3 -arch=sm_90a -std=c++17 probe.cu -o probe && ./probe
#include <cuda_fp16.h>
#include <cstdio>
#include <algorithm>
#include <vector>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

__device__ __forceinline__ void cp_async_16(void* smem, const void* gmem) {
    unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n"); }
template <int N> __device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

// b as bytes: row k starts at k * row_bytes; the block's strip starts at byte n0b of each row.
template <int STAGES>
__global__ void __launch_bounds__(256) strips(const char* __restrict__ b, int K, long row_bytes, int seg,
                                              int split, float* sink) {
    extern __shared__ __align__(16) char smem[];
    const int BK = 128;
    int cb = seg / 16 + 1;                   // chunks a row
    int strip = blockIdx.x / split, share = blockIdx.x % split;
    long n0b = (long)strip * seg;
    int slices = (K + BK - 1) / BK;
    int per = (slices + split - 1) / split;
    int first = share * per, count = max(0, min(per, slices - first));
    long total = (long)K * row_bytes;
    float acc = 0.f;
    for (int kt = 0; kt < count + STAGES - 1; ++kt) {
        if (kt >= STAGES - 1) {
            cp_async_wait<STAGES - 2>();
            __syncthreads();
            int s = (kt - STAGES + 1) % STAGES;
            acc += __half2float(reinterpret_cast<const __half*>(smem + (long)s * BK * cb * 16)[threadIdx.x * 8]);
        }
        if (kt < count) {
            int st = kt % STAGES;
            int k0 = (first + kt) * BK;
            for (int x = threadIdx.x; x < BK * cb; x += 256) {
                int r = x / cb, c = x % cb;
                long at = (long)(k0 + r) * row_bytes + n0b;
                at = at / 16 * 16 + c * 16;  // the aligned chunk
                if (k0 + r < K && at < total)
                    cp_async_16(smem + ((long)st * BK * cb + x) * 16, b + at);
            }
        }
        cp_async_commit();
    }
    cp_async_wait<0>();
    if (acc == 12345.f) sink[0] = acc;
}

__device__ __forceinline__ unsigned smem_addr(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

template <int STAGES>
__global__ void __launch_bounds__(256) bulk(const char* __restrict__ b, int K, long row_bytes, int seg, int split,
                                            float* sink) {
    extern __shared__ __align__(16) char smem[];
    __shared__ __align__(8) unsigned long long full[STAGES];
    const int BK = 128;
    int cb = seg / 16 + 1;
    int strip = blockIdx.x / split, share = blockIdx.x % split;
    long n0b = (long)strip * seg;
    int slices = (K + BK - 1) / BK;
    int per = (slices + split - 1) / split;
    int first = share * per, count = max(0, min(per, slices - first));
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s)
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(smem_addr(&full[s])));
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    __syncthreads();
    float acc = 0.f;
    for (int kt = 0; kt < count + STAGES - 1; ++kt) {
        if (kt >= STAGES - 1) {
            int s = (kt - STAGES + 1) % STAGES;
            unsigned parity = ((kt - STAGES + 1) / STAGES) & 1, done = 0;
            while (!done)
                asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }\n"
                             : "=r"(done) : "r"(smem_addr(&full[s])), "r"(parity) : "memory");
            acc += __half2float(reinterpret_cast<const __half*>(smem + (long)s * BK * cb * 16)[threadIdx.x * 8]);
        }
        __syncthreads();
        if (kt < count && threadIdx.x < 32) {
            int st = kt % STAGES;
            int k0 = (first + kt) * BK;
            int rows = min(BK, K - k0);
            if (threadIdx.x == 0)
                asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_addr(&full[st])),
                             "r"(rows * cb * 16) : "memory");
            __syncwarp();
            for (int r = threadIdx.x; r < rows; r += 32) {
                long at = ((long)(k0 + r) * row_bytes + n0b) / 16 * 16;
                asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n"
                             ::"r"(smem_addr(smem + ((long)st * BK + r) * cb * 16)), "l"(b + at), "r"(cb * 16),
                             "r"(smem_addr(&full[st])) : "memory");
            }
        }
    }
    if (acc == 12345.f) sink[0] = acc;
}

int main() {
    int K = 4095, N = 4097;
    long row_bytes = 2L * N, bytes = (long)K * row_bytes;
    char* b;
    float* sink;
    CHECK(cudaMalloc(&b, bytes + 4096));
    CHECK(cudaMalloc(&sink, 4));
    char* c;
    CHECK(cudaMalloc(&c, bytes + 4096));
    CHECK(cudaMemset(b, 1, bytes + 4096));
    int sms;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    auto time = [&](auto fn) {
        for (int i = 0; i < 3; ++i) fn();
        std::vector<float> t;
        for (int rep = 0; rep < 7; ++rep) {
            cudaEventRecord(e0);
            for (int i = 0; i < 20; ++i) fn();
            cudaEventRecord(e1);
            cudaEventSynchronize(e1);
            float ms;
            cudaEventElapsedTime(&ms, e0, e1);
            t.push_back(ms / 20);
        }
        std::sort(t.begin(), t.end());
        return t[3];
    };
    float copy_ms = time([&] { cudaMemcpyAsync(c, b, bytes, cudaMemcpyDeviceToDevice); });
    double copy_gbps = 2.0 * bytes / copy_ms / 1e6;
    printf("K %d N %d: %.1f MB; copy %.1f us, %.0f GB/s (read + write)\n", K, N, bytes / 1e6, copy_ms * 1e3, copy_gbps);
    for (int occ = 1; occ <= 2; ++occ) {
        for (int cols : {128, 256, 512, 1024}) {
            for (int stages : {3, 4}) {
                int seg = cols * 2, cb = seg / 16 + 1;
                int smem = stages * 128 * cb * 16;
                if (smem * occ > 227 * 1024) continue;
                int strips_n = (int)((row_bytes + seg - 1) / seg);
                int split = std::max(1, std::min(64, occ * sms / strips_n));
                auto k = stages == 3 ? strips<3> : strips<4>;
                CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
                float ms = time([&] { k<<<strips_n * split, 256, smem>>>(b, K, row_bytes, seg, split, sink); });
                CHECK(cudaGetLastError());
                printf("cols %4d stages %d blocks/SM %d: %d strips x %d = %d blocks, %6.1f us, %.2f of copy bandwidth\n",
                       cols, stages, occ, strips_n, split, strips_n * split, ms * 1e3, bytes / ms / 1e6 / copy_gbps);
            }
        }
    }
    for (int occ = 1; occ <= 2; ++occ) {
        for (int cols : {128, 256}) {
            for (int stages : {3, 4, 6}) {
                int seg = cols * 2, cb = seg / 16 + 1;
                int smem = stages * 128 * cb * 16;
                if (smem * occ > 220 * 1024) continue;
                int strips_n = (int)((row_bytes + seg - 1) / seg);
                int split = std::max(1, std::min(64, occ * sms / strips_n));
                auto k = stages == 3 ? bulk<3> : stages == 4 ? bulk<4> : bulk<6>;
                CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
                float ms = time([&] { k<<<strips_n * split, 256, smem>>>(b, K, row_bytes, seg, split, sink); });
                CHECK(cudaGetLastError());
                printf("bulk cols %4d stages %d blocks/SM %d: %d strips x %d = %d blocks, %6.1f us, %.2f of copy bandwidth\n",
                       cols, stages, occ, strips_n, split, strips_n * split, ms * 1e3, bytes / ms / 1e6 / copy_gbps);
            }
        }
    }
    // the bandwidth of a large copy (bench_sweep's copy_gbps: 256 MB)
    char *x, *y;
    CHECK(cudaMalloc(&x, 1L << 28));
    CHECK(cudaMalloc(&y, 1L << 28));
    float big = time([&] { cudaMemcpyAsync(y, x, 1L << 28, cudaMemcpyDeviceToDevice); });
    printf("copy of 256 MB: %.0f GB/s (read + write)\n", 2.0 * (1L << 28) / big / 1e6);
    return 0;
}
