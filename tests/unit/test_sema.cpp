// test_sema.cpp — name resolution, constants, types, sizes and mappings.
#include <catch2/catch.hpp>

#include "frontend/symbol.h"
#include "tests/unit/test_helpers.h"

using namespace hds;
using hds::test::check_errors;
using hds::test::compile;
using hds::test::contains;

namespace {
std::string ok_kernel(const std::string& body, const std::string& params = "a: f32[N]") {
    return "kernel k(" + params + ") grid(1) block(64) {\n" + body + "\n}";
}
}  // namespace

TEST_CASE("symbolic sizes are collected in order of first appearance", "[sema]") {
    auto c = compile("kernel mm(a: f32[M, K], b: f32[K, N], c: f32[M, N]) grid(1) block(1) { }");
    REQUIRE(c.errors.empty());
    auto& k = as<KernelDecl>(*c.ast->decls[0]);
    REQUIRE(k.sizes.size() == 3);
    CHECK(k.sizes[0]->name == "M");
    CHECK(k.sizes[1]->name == "K");
    CHECK(k.sizes[2]->name == "N");
}

TEST_CASE("constants fold and size tensors", "[sema]") {
    auto c = compile("const T: i32 = 4 * 8;\nkernel k(a: f32[T, 2]) grid(1) block(T) { var s: shared f32[T / 2]; }");
    REQUIRE(c.errors.empty());
    auto& cd = as<ConstDecl>(*c.ast->decls[0]);
    REQUIRE(cd.symbol->value);
    CHECK(cd.symbol->value->i == 32);
    auto& k = as<KernelDecl>(*c.ast->decls[1]);
    CHECK(k.params[0].symbol->tensor.dims[0].constant == 32);
    CHECK(k.params[0].symbol->tensor.dims[1].constant == 2);
}

TEST_CASE("a constant left side decides && and ||, a constant condition ?:", "[sema]") {
    // (matmul_wgmma's SPLITK = 1 kernels rely on it: their split code folds away.)
    auto c =
        compile(ok_kernel("let x = 1 > 2 && N > 4; let y = 1 < 2 || N > 4; let z = 2 > 1 ? 7 : N;"
                          "let w = 1 > 2 && N > 4 ? N : 3; let v = 1 < 2 && N > 4; a[0] = 0.0;"));
    REQUIRE(c.errors.empty());
    auto& body = *as<KernelDecl>(*c.ast->decls[0]).body;
    auto value = [&](size_t i) { return as<LetStmt>(*body.stmts.at(i)).symbol->value; };
    REQUIRE(value(0));
    CHECK(value(0)->i == 0);
    REQUIRE(value(1));
    CHECK(value(1)->i == 1);
    REQUIRE(value(2));
    CHECK(value(2)->i == 7);
    REQUIRE(value(3));
    CHECK(value(3)->i == 3);
    CHECK(!value(4));  // true && N > 4 depends on N
}

TEST_CASE("untyped literals take the type of their context", "[sema]") {
    CHECK(check_errors(ok_kernel("let h: f16 = 1.5; let i: i8 = 100; let d: f64 = 2;")).empty());
    CHECK(contains(check_errors(ok_kernel("let i: i8 = 200;")), "literal 200 does not fit in 'i8'"));
    CHECK(contains(check_errors(ok_kernel("let i: u32 = -1;")), "literal -1 does not fit in 'u32'"));
}

TEST_CASE("no implicit narrowing, but widening and int->float promotion", "[sema]") {
    CHECK(check_errors(ok_kernel("let x: f32 = h[0]; let y: f64 = x; let z: i64 = n[0]; let w: f32 = n[0];",
                                 "h: f16[N], n: i32[N]"))
              .empty());
    CHECK(contains(check_errors(ok_kernel("let x: f16 = a[0];")), "from 'f32' to 'f16'"));
    CHECK(contains(check_errors(ok_kernel("let x: i32 = n[0];", "n: i64[N]")), "from 'i64' to 'i32'"));
    CHECK(contains(check_errors(ok_kernel("let x: u32 = n[0];", "n: i32[N]")), "from 'i32' to 'u32'"));
    CHECK(contains(check_errors(ok_kernel("let x = h[0] + b[0];", "h: f16[N], b: bf16[N]")),
                   "invalid operands to '+': 'f16' and 'bf16'"));
}

TEST_CASE("every error of a file is reported in one run", "[sema]") {
    std::string err = check_errors(ok_kernel("let x = q; let y: f16 = a[0]; a[0, 1] = 2.0;"));
    CHECK(contains(err, "unknown name 'q'"));
    CHECK(contains(err, "from 'f32' to 'f16'"));
    CHECK(contains(err, "tensor 'a' has rank 1, but 2 indices were given"));
    CHECK(contains(err, "3 errors generated."));
}

TEST_CASE("errors do not cascade from an unknown name", "[sema]") {
    std::string err = check_errors(ok_kernel("let x = q + 1; let y = x * 2.0; a[0] = y;"));
    CHECK(contains(err, "1 error generated."));
}

TEST_CASE("mapping worker counts are checked against the block", "[sema]") {
    CHECK(check_errors(ok_kernel("for (i, j) in spatial(8, 8) on threadIdx.x { a[i * 8 + j] = 0.0; }")).empty());
    CHECK(contains(check_errors(ok_kernel("for (i, j) in spatial(4, 8) on threadIdx.x { }")),
                   "task mapping has 32 workers, but the block has 64 threads"));
    // Any other worker expression is not checked: it is the user's decomposition.
    CHECK(check_errors(ok_kernel("for (i) in spatial(4) on threadIdx.x / 16 { }")).empty());
}

TEST_CASE("auto_map follows the sketch's examples", "[sema]") {
    auto c = compile(ok_kernel("let m = auto_map(8, 96, workers=64); for (i, j) in m on threadIdx.x { }"));
    REQUIRE(c.errors.empty());
    auto& k = as<KernelDecl>(*c.ast->decls[0]);
    auto& let = as<LetStmt>(*k.body->stmts[0]);
    CHECK(let.symbol->type.mapping->to_string() == "repeat(4, 3) * spatial(2, 32)");
}

TEST_CASE("shared memory is limited per kernel", "[sema]") {
    // Up to 227 KiB (over 48 KiB, the emitted kernel uses dynamic shared memory).
    CHECK(check_errors(ok_kernel("var s: shared f32[96, 128];")).empty());
    CHECK(check_errors(ok_kernel("var s: shared f32[454, 128];")).empty());
    // Counted as laid out: each array 16-byte aligned, 1024 with sm_90 built-ins (swizzled TMA
    // tiles) but for u64 arrays (mbarriers).
    CHECK(contains(check_errors(ok_kernel("var s: shared f32[454, 128]; var t: shared f16[2];")),
                   "uses 232464 bytes of shared memory"));
    CHECK(check_errors(ok_kernel("var s: shared f32[453, 128]; var b: shared u64[1];")).empty());
    CHECK_FALSE(
        contains(check_errors(ok_kernel("var s: shared f32[453, 128]; var b: shared u64[4]; "
                                        "var c: shared u64[4]; mbarrier_init(b[0], 1); mbarrier_init(c[0], 1);")),
                 "bytes of shared memory"));
    CHECK(contains(check_errors(ok_kernel("var s: shared f32[453, 128]; var t: shared f16[2]; var b: shared u64[1]; "
                                          "mbarrier_init(b[0], 1);")),
                   "uses 232480 bytes of shared memory"));
}

TEST_CASE("device functions are checked like kernels", "[sema]") {
    CHECK(check_errors("device fn f(x: f32) -> f32 { return x * 2.0; }\n" + ok_kernel("a[0] = f(a[1]);")).empty());
    CHECK(contains(check_errors("device fn f(x: f32) -> f32 { return x; }\n" + ok_kernel("a[0] = f(1.0, 2.0);")),
                   "'f' expects 1 argument, but 2 were given"));
    CHECK(contains(check_errors("device fn f(x: f32) { }\n" + ok_kernel("a[0] = f(1.0);")),
                   "'f' returns nothing and cannot be used as a value"));
}

TEST_CASE("tensors written by a kernel are marked", "[sema]") {
    auto c =
        compile("kernel k(a: f32[N], b: f32[N], n: i32[N]) grid(1) block(1) { b[0] = a[0]; atomic_add(n[0], 1); }");
    REQUIRE(c.errors.empty());
    auto& k = as<KernelDecl>(*c.ast->decls[0]);
    CHECK_FALSE(k.params[0].symbol->written);
    CHECK(k.params[1].symbol->written);
    CHECK(k.params[2].symbol->written);
}

TEST_CASE("in an instance of a generic kernel a constant condition selects a branch", "[sema]") {
    // The branch an instance's parameters rule out is neither checked nor lowered (as
    // `if constexpr`): matmul_wgmma issues wgmma_m64n64k16 only where BN = 64, whose
    // operands would not suit m64n128k16.
    const std::string generic = R"(
kernel g<B: i32 = 2>(a: f32[N]) grid(1) block(32) {
    if (B == 4) {
        let x: i8 = 300;
    } else {
        a[0] = 1.0;
    }
}
)";
    CHECK(contains(check_errors(generic + "kernel four = g<4>;\n"), "literal 300 does not fit in 'i8'"));
    auto c = compile(generic + "kernel two = g<2>;\n");
    REQUIRE(c.errors.empty());
    CHECK(contains(c.cu, "a[0] = 1.0f;"));  // the else branch, lowered alone
    // An ordinary kernel checks both branches.
    CHECK(contains(check_errors(ok_kernel("if (1 == 1) { a[0] = 1.0; } else { let x: i8 = 300; }")),
                   "literal 300 does not fit in 'i8'"));
}
