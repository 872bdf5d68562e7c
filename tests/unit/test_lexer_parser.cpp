// test_lexer_parser.cpp — grammar, AST construction, literals, syntax errors.
#include <catch2/catch.hpp>

#include "tests/unit/test_helpers.h"

using namespace hds;
using hds::test::check_errors;
using hds::test::compile;
using hds::test::contains;

namespace {
const Expr& let_init(const Module& m, size_t decl, size_t stmt) {
    auto& k = as<KernelDecl>(*m.decls.at(decl));
    return *as<LetStmt>(*k.body->stmts.at(stmt)).init;
}
}  // namespace

TEST_CASE("binary operators follow C precedence", "[parser]") {
    auto c = compile("kernel k(a: i32[N]) grid(1) block(1) { let x = 1 + 2 * 3 << 1 < 9 == true; }");
    REQUIRE(c.errors.empty());
    const Expr& e = let_init(*c.ast, 0, 0);
    REQUIRE(e.kind == ExprKind::Binary);
    auto& eq = as<BinaryExpr>(e);
    CHECK(eq.op == BinaryOp::Eq);
    auto& lt = as<BinaryExpr>(*eq.lhs);
    CHECK(lt.op == BinaryOp::Lt);
    auto& shl = as<BinaryExpr>(*lt.lhs);
    CHECK(shl.op == BinaryOp::Shl);
    auto& add = as<BinaryExpr>(*shl.lhs);
    CHECK(add.op == BinaryOp::Add);
    CHECK(as<BinaryExpr>(*add.rhs).op == BinaryOp::Mul);
}

TEST_CASE("conditional expressions are right associative", "[parser]") {
    auto c = compile("kernel k(a: i32[N]) grid(1) block(1) { let x = true ? 1 : false ? 2 : 3; }");
    REQUIRE(c.errors.empty());
    auto& cond = as<CondExpr>(let_init(*c.ast, 0, 0));
    CHECK(cond.else_expr->kind == ExprKind::Cond);
}

TEST_CASE("literals decode bases and suffixes", "[parser]") {
    auto c = compile(
        "kernel k(a: i32[N]) grid(1) block(1) { let a1 = 0x1f; let a2 = 7u32; let a3 = 2.5f16; let a4 = 1e3; }");
    REQUIRE(c.errors.empty());
    CHECK(as<IntLit>(let_init(*c.ast, 0, 0)).value == 31);
    CHECK(as<IntLit>(let_init(*c.ast, 0, 1)).suffix == ScalarType::U32);
    CHECK(as<FloatLit>(let_init(*c.ast, 0, 2)).suffix == ScalarType::F16);
    CHECK(as<FloatLit>(let_init(*c.ast, 0, 3)).value == 1000.0);
}

TEST_CASE("source ranges point at the tokens", "[parser]") {
    auto c = compile("kernel k(a: i32[N]) grid(1) block(1) {\n    let x = a[0] + 1;\n}");
    REQUIRE(c.errors.empty());
    const Expr& e = let_init(*c.ast, 0, 0);
    CHECK(e.range.begin.line == 2);
    CHECK(e.range.begin.col == 13);
    CHECK(e.range.end.col == 21);
}

TEST_CASE("else-if chains and mapping loops parse", "[parser]") {
    auto c = compile(R"(kernel k(a: i32[N]) grid(1) block(64) {
        if (threadIdx.x < 1) { a[0] = 1; } else if (threadIdx.x < 2) { a[1] = 1; } else { a[2] = 2; }
        @unroll for (i, j) in repeat(2, 2) * spatial(8, 8) on threadIdx.x { a[i] = j; }
    })");
    REQUIRE(c.errors.empty());
    auto& k = as<KernelDecl>(*c.ast->decls[0]);
    auto& i = as<IfStmt>(*k.body->stmts[0]);
    REQUIRE(i.else_stmt);
    CHECK(i.else_stmt->kind == StmtKind::If);
    auto& f = as<ForStmt>(*k.body->stmts[1]);
    CHECK(f.unroll);
    CHECK(f.vars.size() == 2);
    CHECK(f.on);
}

TEST_CASE("syntax errors are located and all reported", "[parser]") {
    std::string err = check_errors("kernel k(a: f32[N]) grid(1) block(1) {\n  let x = ;\n  let y = 1 +;\n}");
    CHECK(contains(err, "test.hds:2:11: error: mismatched input ';' expecting an expression"));
    CHECK(contains(err, "test.hds:3:14: error:"));
    CHECK(contains(err, "2 errors generated."));
    CHECK(contains(err, "  let x = ;\n          ^"));
}

TEST_CASE("unterminated blocks and stray characters", "[parser]") {
    CHECK(contains(check_errors("kernel k(a: f32[N]) grid(1) block(1) {"), "a '{' is never closed"));
    CHECK(
        contains(check_errors("kernel k(a: f32[N]) grid(1) block(1) { a[0] = 1.0 ` ; }"), "unexpected character '`'"));
}

TEST_CASE("deep nesting is rejected before it can exhaust the stack", "[parser]") {
    std::string src = "const X: i32 = " + std::string(10000, '(') + "1" + std::string(10000, ')') + ";";
    CHECK(contains(check_errors(src), "brackets nested more than 200 deep"));
}
