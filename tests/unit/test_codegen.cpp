// test_codegen.cpp — properties of the emitted CUDA (the golden files show
// whole outputs; these pin down individual rules).
#include <catch2/catch.hpp>

#include "tests/unit/test_helpers.h"

using hds::test::check_errors;
using hds::test::compile;
using hds::test::contains;

TEST_CASE("kernels take restrict pointers, const when only read", "[codegen]") {
    auto c = compile(
        "kernel copy(a: f32[N], b: f32[N]) grid((N + 63) / 64) block(64) {\n"
        "  let i = blockIdx.x * 64 + threadIdx.x;\n  if (i < N) { b[i] = a[i]; }\n}");
    REQUIRE(c.errors.empty());
    CHECK(contains(c.cu,
                   "__global__ void __launch_bounds__(64) copy(const float* __restrict__ a, "
                   "float* __restrict__ b,\n"));
    CHECK(contains(c.cu, "if (i < N) {  // test.hds:3\n        b[i] = a[i];\n"));
}

TEST_CASE("launchers validate sizes, pointers and grid limits", "[codegen]") {
    auto c = compile("kernel k(a: f32[M, N]) grid((N + 31) / 32, M) block(32) { }");
    REQUIRE(c.errors.empty());
    CHECK(contains(c.header, "cudaError_t launch_k(float* a, int M, int N, cudaStream_t stream = 0);") ==
          false);  // a is never written: const
    CHECK(contains(c.header, "cudaError_t launch_k(const float* a, int M, int N, cudaStream_t stream = 0);"));
    CHECK(contains(c.cu, "if (M <= 0 || N <= 0)"));
    CHECK(contains(c.cu, "if (a == nullptr)"));
    CHECK(contains(c.cu, "(long long)M * (long long)N > 2147483647LL"));
    CHECK(contains(c.cu, "const long long grid[3] = {((long long)N + 31) / 32, (long long)M, 1};"));
    CHECK(contains(c.cu, "grid[1] > 65535"));
    CHECK(contains(c.cu, "return cudaGetLastError();"));
}

TEST_CASE("symbolic blocks are validated at launch", "[codegen]") {
    auto c = compile("kernel k(a: f32[N], t: i32) grid(1) block(t) { }");
    REQUIRE(c.errors.empty());
    CHECK(contains(c.cu, "block[0] * block[1] * block[2] > 1024"));
    CHECK_FALSE(contains(c.cu, "__launch_bounds__"));
}

TEST_CASE("min_blocks_per_sm becomes launch bounds' second argument", "[codegen]") {
    auto c = compile(
        "kernel k<B: i32 = 3>(a: f32[N]) grid(N) block(128) min_blocks_per_sm(B - 1) { a[threadIdx.x] = 0.0; }\n"
        "kernel k2 = k<3>;\n"
        "kernel plain(a: f32[N]) grid(N) block(128) { a[threadIdx.x] = 0.0; }\n"
        "kernel sized(a: f32[N]) grid(N) block(128) min_blocks_per_sm(N > 0 ? 2 : 1) { a[threadIdx.x] = 0.0; }");
    REQUIRE(c.errors.empty());
    CHECK(contains(c.cu, "__global__ void __launch_bounds__(128, 2) k2("));
    CHECK(contains(c.cu, "__global__ void __launch_bounds__(128) plain("));
    CHECK(contains(c.cu, "__global__ void __launch_bounds__(128) sized("));  // N is symbolic: nothing asked
}

TEST_CASE("literals are spelled with their type", "[codegen]") {
    auto c = compile(
        "kernel k(f: f32[N], d: f64[N], h: f16[N], l: i64[N], u: u32[N]) grid(1) block(1) {\n"
        "  f[0] = 1.5; d[0] = 0.1; h[0] = 2.0; l[0] = 3; u[0] = 4;\n}");
    REQUIRE(c.errors.empty());
    CHECK(contains(c.cu, "f[0] = 1.5f;"));
    CHECK(contains(c.cu, "d[0] = 0.1;"));
    CHECK(contains(c.cu, "h[0] = __half(2.0f);"));
    CHECK(contains(c.cu, "l[0] = 3LL;"));
    CHECK(contains(c.cu, "u[0] = 4u;"));
}

TEST_CASE("math and conversions pick the CUDA function for the type", "[codegen]") {
    auto c = compile(
        "kernel k(f: f32[N], d: f64[N], h: f16[N], n: i32[N]) grid(1) block(1) {\n"
        "  f[0] = exp(f[1]); d[0] = exp(d[1]); h[0] = exp(h[1]); n[0] = max(n[1], 3);\n"
        "  f[2] = cast<f32>(h[2]) + cast<f32>(n[2]);\n}");
    REQUIRE(c.errors.empty());
    CHECK(contains(c.cu, "f[0] = expf(f[1]);"));
    CHECK(contains(c.cu, "d[0] = exp(d[1]);"));
    CHECK(contains(c.cu, "h[0] = hds::exp(h[1]);"));
    CHECK(contains(c.cu, "n[0] = max(n[1], 3);"));
    CHECK(contains(c.cu, "hds::cast<float>(h[2]) + static_cast<float>(n[2])"));
}

TEST_CASE("C++ keywords used as names are escaped", "[codegen]") {
    auto c = compile("kernel k(float: f32[N], new: f32[N]) grid(1) block(1) { let int = 1; new[int] = float[0]; }");
    REQUIRE(c.errors.empty());
    CHECK(contains(c.cu, "const float* __restrict__ float_"));
    CHECK(contains(c.cu, "const int int_ = 1;"));
    CHECK(contains(c.cu, "new_[int_] = float_[0];"));
}

TEST_CASE("unroll attributes become pragmas and unused device fns are dropped", "[codegen]") {
    auto c = compile(
        "device fn unused(x: f32) -> f32 { return x; }\n"
        "kernel k(a: f32[N]) grid(1) block(1) { @unroll for i in 0..4 { a[i] = 0.0; } }");
    REQUIRE(c.errors.empty());
    CHECK(contains(c.cu, "#pragma unroll\n    for (int i = 0; i < 4; ++i) {"));
    CHECK_FALSE(contains(c.cu, "unused"));
}

TEST_CASE("parenthesisation follows precedence", "[codegen]") {
    auto c = compile(
        "kernel k(a: i32[N]) grid(1) block(1) {\n"
        "  let x = a[0]; let y = a[1];\n"
        "  a[2] = (x + y) * (x - y) - (x - y) + -(x);\n"
        "  a[3] = x & 3 | y << 1;\n"
        "  a[4] = (x < y || x == 2 && y > 0) ? 1 : 0;\n"
        "  let h: f16 = x < y ? 1.0 : 2.0;\n  a[5] = cast<i32>(h);\n}");
    REQUIRE(c.errors.empty());
    CHECK(contains(c.cu, "a[2] = (x + y) * (x - y) - (x - y) + -x;"));
    CHECK(contains(c.cu, "a[3] = (x & 3) | (y << 1);"));
    CHECK(contains(c.cu, "a[4] = x < y || (x == 2 && y > 0) ? 1 : 0;"));
    // Literal branches of a run-time conditional adopt the declared type.
    CHECK(contains(c.cu, "x < y ? __half(1.0f) : __half(2.0f)"));
}

TEST_CASE("a repeat index recovered by division addresses a register array directly", "[codegen]") {
    auto c = compile(R"(kernel k(a: f32[M, K], out: f32[M, K]) grid(1) block(256) {
    var pa: register f32[4];
    @unroll for (m, k) in repeat(4, 1) * spatial(32, 8) on threadIdx.x {
        pa[m / 32] = a[m, k];
    }
    @unroll for (m, k) in repeat(4, 1) * spatial(32, 8) on threadIdx.x {
        out[m, k] = pa[m / 32] + cast<f32>(m % 32);
    }
})");
    REQUIRE(c.errors.empty());
    CHECK(contains(c.cu, "pa[m_r] = a[m * K + k];"));
    CHECK(contains(c.cu, "out[m * K + k] = pa[m_r_2] + static_cast<float>((int)threadIdx.x / 8);"));
}

TEST_CASE("without a constant block size only the provable part of a division goes", "[codegen]") {
    auto c = compile(R"(kernel k(a: f32[M], t: i32) grid(1) block(t) {
    for (m) in repeat(4) * spatial(32) on threadIdx.x / 8 {
        a[m] = cast<f32>(m / 32);
    }
})");
    REQUIRE(c.errors.empty());
    // threadIdx.x may reach 1023: the part past the repeat index stays.
    CHECK(contains(c.cu, "static_cast<float>(m_r + (int)threadIdx.x / 8 / 32)"));
}

TEST_CASE("expression statements without effects are dropped", "[codegen]") {
    auto c = compile("kernel k(a: f32[N]) grid(1) block(1) {\n  5;\n  a[0] + 1.0;\n  syncthreads();\n  a[0] = 2.0;\n}");
    REQUIRE(c.errors.empty());
    CHECK_FALSE(contains(c.cu, "5;"));
    CHECK_FALSE(contains(c.cu, "a[0] + 1.0f;"));
    CHECK(contains(c.cu, "__syncthreads();  // test.hds:4"));
}

TEST_CASE("names of CUDA math functions are escaped", "[codegen]") {
    auto c = compile(
        "device fn exp(x: f32) -> f32 { return x; }\n"
        "kernel k(a: f32[N]) grid(1) block(1) { let expf = 2.0; a[0] = exp(expf) + exp(1.0); }");
    REQUIRE(c.errors.empty());
    CHECK(contains(c.cu, "static __device__ __forceinline__ float exp_(float x)"));
    CHECK(contains(c.cu, "a[0] = exp_(expf_) + exp_(1.0f);"));
}

TEST_CASE("over 48 KiB of shared memory becomes dynamic shared memory", "[codegen]") {
    auto small = compile("kernel k(a: f32[N]) grid(1) block(32) { var s: shared f32[64]; s[0] = 1.0; a[0] = s[0]; }");
    REQUIRE(small.errors.empty());
    CHECK(contains(small.cu, "__shared__ alignas(16) float s[64];"));
    CHECK(contains(small.cu, "cudaFuncSetAttribute") == false);
    auto big = compile(
        "kernel k(a: f32[N]) grid(1) block(32) {\n"
        "  var s: shared f32[100, 128]; var t: shared f16[3];\n"
        "  s[0, 0] = 1.0; t[0] = 1.0; a[0] = s[0, 0];\n}");
    REQUIRE(big.errors.empty());
    // one declaration for every kernel of a file (TMA's 1024); this kernel's arrays are carved at 16
    CHECK(contains(big.cu, "extern __shared__ __align__(1024) unsigned char hds_dynamic_smem[];"));
    CHECK(contains(big.cu, "auto& s = *reinterpret_cast<float (*)[100][128]>(hds_dynamic_smem + 0);"));
    // the next array starts 16-byte aligned after 51200 bytes; 51216 bytes in all
    CHECK(contains(big.cu, "auto& t = *reinterpret_cast<__half (*)[3]>(hds_dynamic_smem + 51200);"));
    CHECK(contains(big.cu, "cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 51216);"));
    CHECK(contains(big.cu, "block[2]), 51216, stream>>>("));
}

TEST_CASE("integer kernel parameters are constants of each instance", "[codegen]") {
    auto c = compile(
        "kernel fill<T, N_: i32 = 4>(a: T[M]) grid(1) block(1) { for i in 0..N_ { a[i] = cast<T>(i); } }\n"
        "kernel fill_f32 = fill<f32>;\nkernel fill8_f16 = fill<f16, 8>;");
    REQUIRE(c.errors.empty());
    CHECK(contains(c.cu, "for (int i = 0; i < 4; ++i)"));
    CHECK(contains(c.cu, "for (int i = 0; i < 8; ++i)"));
}

TEST_CASE("float kernel parameters and constant lets", "[codegen]") {
    // `scale: f32` takes a float constant per instance (an integer literal converts);
    // a let of a constant sizes a register array and keeps its name.
    auto c = compile(
        "kernel scaled<T, scale: f32 = 1.0, W: i32 = 2>(a: T[M]) grid(1) block(1) {\n"
        "    let V = W * 2;\n    var r: register f32[V];\n"
        "    for i in 0..V { r[i] = cast<f32>(i) * scale; }\n    a[0] = cast<T>(r[V - 1]);\n}\n"
        "kernel half_f32 = scaled<f32, 0.5>;\nkernel two_f32 = scaled<f32, 2, 4>;");
    REQUIRE(c.errors.empty());
    CHECK(contains(c.cu, "0.5f"));
    CHECK(contains(c.cu, "2.0f"));
    CHECK(contains(c.cu, "const int V = 4;"));
    CHECK(contains(c.cu, "const int V = 8;"));
    CHECK(contains(c.cu, "float r[8];"));
    CHECK(contains(check_errors("kernel k<s: f32 = 1.0>(a: f32[M]) grid(1) block(1) { a[0] = s; }\n"
                                "kernel k1 = k<true>;"),
                   "cannot convert 'bool' to 'f32'"));
}
