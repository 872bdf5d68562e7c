// test_passes.cpp — simplify, flatten_indices, remove_dead_decls,
// flatten_blocks, rename_locals, narrow_half_arith, the verifier and same_value.
#include <catch2/catch.hpp>

#include "ir/internal_error.h"
#include "ir/ir_printer.h"
#include "ir/passes/passes.h"
#include "ir/polynomial.h"
#include "ir/verifier.h"

using namespace hds;
using namespace hds::ir;

TEST_CASE("simplify folds integer constants and identities", "[passes]") {
    Var x = make_var(ScalarType::I32, "x");
    CHECK(to_string(simplify(add(i32(2), mul(i32(3), i32(4))))) == "14");
    CHECK(to_string(simplify(add(mul(x, i32(1)), i32(0)))) == "x");
    CHECK(to_string(simplify(mul(mul(x, i32(4)), i32(8)))) == "x * 32");
    CHECK(to_string(simplify(sub(add(x, i32(255)), i32(1)))) == "x + 254");
    CHECK(to_string(simplify(sub(add(x, i32(1)), i32(1)))) == "x");
    CHECK(to_string(simplify(sub(add(x, i32(3)), add(x, i32(3))))) == "0");
    CHECK(to_string(simplify(sub(add(x, i32(3)), x))) == "x + 3 - x");
    CHECK(to_string(simplify(add(sub(x, i32(2)), i32(1)))) == "x - 1");
    CHECK(to_string(simplify(add(sub(x, i32(2)), i32(5)))) == "x + 3");
    CHECK(to_string(simplify(add(sub(x, i32(2)), i32(2)))) == "x");
    CHECK(to_string(simplify(div(x, i32(1)))) == "x");
    CHECK(to_string(simplify(mod(x, i32(1)))) == "0");
    // Division by a constant zero is left for the program to fail on, not folded.
    CHECK(to_string(simplify(div(i32(1), i32(0)))) == "1 / 0");
    // i32 arithmetic wraps like the device does.
    CHECK(to_string(simplify(mul(i32(65536), i32(65536)))) == "0");
}

TEST_CASE("simplify leaves floating point alone", "[passes]") {
    Expr e = add(FloatImm::make(ScalarType::F32, 0.1), FloatImm::make(ScalarType::F32, 0.2));
    CHECK(to_string(simplify(e)) == "0.1 + 0.2");
}

TEST_CASE("simplify prunes constant branches and empty loops", "[passes]") {
    Var x = make_var(ScalarType::I32, "x");
    Buffer b = make_buffer("b", ScalarType::I32, {i32(4)}, Scope::Global);
    Stmt store = Block::make({}, {Store::make({}, b, {i32(0)}, i32(1))});
    Stmt s = Block::make({}, {If::make({}, Binary::make(BinOp::Lt, i32(1), i32(2)), store, nullptr),
                              For::make({}, x, i32(4), i32(4), i32(1), false, store)});
    Stmt r = simplify(s);
    auto* blk = as<Block>(r);
    REQUIRE(blk);
    REQUIRE(blk->stmts.size() == 2);
    CHECK(as<Block>(blk->stmts[0]));
    CHECK(as<Block>(blk->stmts[1])->stmts.empty());
}

namespace {
// The stores and loops of `s`, blocks looked through (an `if`'s branches and loop bodies too).
void stores_and_loops(const Stmt& s, std::vector<const Store*>* stores, int* loops) {
    if (auto* b = as<Block>(s)) {
        for (const Stmt& t : b->stmts) stores_and_loops(t, stores, loops);
    } else if (auto* f = as<For>(s)) {
        ++*loops;
        stores_and_loops(f->body, stores, loops);
    } else if (auto* c = as<If>(s)) {
        stores_and_loops(c->then_s, stores, loops);
    } else if (auto* st = as<Store>(s)) {
        stores->push_back(st);
    }
}
}  // namespace

TEST_CASE("simplify replaces a loop of one iteration by its body, unless the body jumps out of it", "[passes]") {
    Var x = make_var(ScalarType::I32, "x"), y = make_var(ScalarType::I32, "y");
    Buffer b = make_buffer("b", ScalarType::I32, {i32(8)}, Scope::Global);
    Stmt store = Block::make({}, {Store::make({}, b, {add(x, i32(1))}, x)});
    // for x in 3..4, and 3..5 step 2: one iteration, with x = 3
    for (auto [hi, step] : {std::pair{4, 1}, std::pair{5, 2}}) {
        std::vector<const Store*> stores;
        int loops = 0;
        Stmt r = simplify(For::make({}, x, i32(3), i32(hi), i32(step), false, store));
        stores_and_loops(r, &stores, &loops);
        CHECK(loops == 0);
        REQUIRE(stores.size() == 1);
        CHECK(to_string(stores[0]->indices[0]) == "4");
        CHECK(to_string(stores[0]->value) == "3");
    }
    // two iterations, or a body with a `break` of this loop: kept
    CHECK(as<For>(simplify(For::make({}, x, i32(0), i32(2), i32(1), false, store))));
    Stmt jumps = Block::make({}, {If::make({}, Binary::make(BinOp::Lt, y, x), Jump::make_break({}), nullptr), store});
    CHECK(as<For>(simplify(For::make({}, x, i32(0), i32(1), i32(1), false, jumps))));
    // a `break` of a loop inside it is that loop's: the outer one goes, the inner one stays
    Stmt inner = For::make({}, y, i32(0), add(x, i32(5)), i32(1), false, jumps);
    Stmt r = simplify(For::make({}, x, i32(0), i32(1), i32(1), false, Block::make({}, {inner})));
    std::vector<const Store*> stores;
    int loops = 0;
    stores_and_loops(r, &stores, &loops);
    CHECK(loops == 1);
    REQUIRE(stores.size() == 1);
    CHECK(to_string(stores[0]->value) == "0");
}

TEST_CASE("simplify folds a let of a constant boolean into its uses", "[passes]") {
    // `let pointwise = R == 1 && ...` with the sizes known: the branch on it folds.
    Var flag = make_var(ScalarType::Bool, "pointwise"), other = make_var(ScalarType::Bool, "other");
    Var n = make_var(ScalarType::I32, "n");
    Buffer b = make_buffer("b", ScalarType::I32, {i32(4)}, Scope::Global);
    Stmt then_s = Block::make({}, {Store::make({}, b, {i32(0)}, i32(1))});
    Stmt else_s = Block::make({}, {Store::make({}, b, {i32(0)}, i32(2))});
    Stmt s = Block::make(
        {}, {Decl::make({}, flag, Binary::make(BinOp::Eq, i32(1), i32(1)), true), If::make({}, flag, then_s, else_s),
             // a runtime boolean is not folded
             Decl::make({}, other, Binary::make(BinOp::Lt, n, i32(2)), true), If::make({}, other, then_s, else_s)});
    Stmt r = simplify(s);
    auto* blk = as<Block>(r);
    REQUIRE(blk);
    REQUIRE(blk->stmts.size() == 4);
    CHECK(as<Block>(blk->stmts[1]) == as<Block>(then_s));  // the then branch alone
    CHECK(as<If>(blk->stmts[3]));
}

TEST_CASE("flatten_indices linearises global accesses row-major", "[passes]") {
    Var m = make_var(ScalarType::I32, "M"), n = make_var(ScalarType::I32, "N");
    Var i = make_var(ScalarType::I32, "i"), j = make_var(ScalarType::I32, "j");
    Buffer g = make_buffer("g", ScalarType::F32, {m, n, i32(3)}, Scope::Global);
    Buffer s = make_buffer("s", ScalarType::F32, {i32(4), i32(4)}, Scope::Shared);
    Stmt st = Store::make({}, g, {i, j, i32(2)}, Load::make(s, {i, j}));
    Stmt r = simplify(flatten_indices(st));
    auto* out = as<Store>(r);
    REQUIRE(out);
    REQUIRE(out->indices.size() == 1);
    CHECK(to_string(out->indices[0]) == "(i * N + j) * 3 + 2");
    CHECK(as<Load>(out->value)->indices.size() == 2);  // shared stays 2-D
}

TEST_CASE("remove_dead_decls drops unused pure lets only", "[passes]") {
    Var a = make_var(ScalarType::I32, "a"), b = make_var(ScalarType::I32, "b");
    Var c = make_var(ScalarType::F32, "c"), v = make_var(ScalarType::I32, "v");
    Buffer out = make_buffer("out", ScalarType::I32, {i32(4)}, Scope::Global);
    Expr call = Call::make(ScalarType::F32, Builtin::ShflXor, {FloatImm::make(ScalarType::F32, 1), i32(1)});
    Stmt s = Block::make(
        {}, {Decl::make({}, a, i32(1), true), Decl::make({}, b, add(a, i32(1)), true), Decl::make({}, c, call, true),
             Decl::make({}, v, i32(0), false), Store::make({}, out, {i32(0)}, i32(2))});
    Stmt result = remove_dead_decls(s);
    auto* r = as<Block>(result);
    REQUIRE(r);
    // a and b go (b first, then a, which only b used); the call and the var stay.
    REQUIRE(r->stmts.size() == 3);
    CHECK(as<Decl>(r->stmts[0])->var == c);
    CHECK(as<Decl>(r->stmts[1])->var == v);
}

TEST_CASE("remove_dead_decls drops local arrays nothing reads or writes", "[passes]") {
    Buffer used = make_buffer("used", ScalarType::F32, {i32(4)}, Scope::Register);
    Buffer unused = make_buffer("unused", ScalarType::F32, {i32(4)}, Scope::Register);
    Buffer out = make_buffer("out", ScalarType::F32, {i32(4)}, Scope::Global);
    Stmt s = Block::make({}, {Alloc::make({}, used), Alloc::make({}, unused),
                              Store::make({}, used, {i32(0)}, FloatImm::make(ScalarType::F32, 1)),
                              Store::make({}, out, {i32(0)}, Load::make(used, {i32(0)}))});
    Stmt result = remove_dead_decls(s);
    auto* r = as<Block>(result);
    REQUIRE(r);
    REQUIRE(r->stmts.size() == 3);
    CHECK(as<Alloc>(r->stmts[0])->buffer == used);
}

TEST_CASE("flatten_blocks keeps braces only where names would clash", "[passes]") {
    Var i1 = make_var(ScalarType::I32, "i"), i2 = make_var(ScalarType::I32, "i");
    Var j = make_var(ScalarType::I32, "j");
    Stmt inner_clash = Block::make({}, {Decl::make({}, i2, i32(2), true)});
    Stmt inner_ok = Block::make({}, {Decl::make({}, j, i32(3), true)});
    Stmt s = Block::make({}, {Decl::make({}, i1, i32(1), true), inner_clash, inner_ok});
    Stmt result = flatten_blocks(s);
    auto* r = as<Block>(result);
    REQUIRE(r->stmts.size() == 3);
    CHECK(as<Block>(r->stmts[1]));  // kept: would redeclare i
    CHECK(as<Decl>(r->stmts[2]));   // spliced
}

TEST_CASE("rename_locals renames the locals that would hide a parameter", "[passes]") {
    Buffer r = make_buffer("r", ScalarType::F32, {i32(16)}, Scope::Global);  // a kernel parameter
    Buffer tmp = make_buffer("r_2", ScalarType::F32, {i32(4)}, Scope::Register);
    Buffer cs = make_buffer("cs", ScalarType::F32, {i32(4)}, Scope::Shared);
    Var local = make_var(ScalarType::I32, "r"), k = make_var(ScalarType::I32, "k");
    Stmt body = Block::make(
        {}, {Alloc::make({}, tmp), Alloc::make({}, cs), Decl::make({}, local, i32(3), true),
             For::make({}, k, i32(0), i32(4), i32(1), true,
                       Store::make({}, r, {add(local, k)}, add(Load::make(r, {k}), Load::make(tmp, {k}))))});
    Stmt renamed = rename_locals(body, {"r", "cs"});
    auto* b = as<Block>(renamed);
    REQUIRE((b && b->stmts.size() == 4));
    CHECK(as<Alloc>(b->stmts[0])->buffer == tmp);           // no clash: kept
    CHECK(as<Alloc>(b->stmts[1])->buffer->name == "cs_2");  // reserved by the caller
    CHECK(as<Decl>(b->stmts[2])->var->name == "r_3");       // `r_2` is the register array's
    auto* store = as<Store>(as<For>(b->stmts[3])->body);
    REQUIRE(store);
    CHECK(store->buffer == r);  // the parameter keeps its name
    CHECK(to_string(store->indices[0]) == "r_3 + k");
    CHECK(to_string(store->value) == "r[k] + r_2[k]");
    CHECK(rename_locals(body, {"x"}) == body);  // nothing to rename: the same statement
}

TEST_CASE("rename_locals renames a loop variable that hides a variable of an enclosing scope", "[passes]") {
    // var n = 0; for i { for n { a[n] = 1 } n += 1 }; for n { a[n] = 2 }
    Buffer a = make_buffer("a", ScalarType::F32, {i32(16)}, Scope::Global);
    Var n = make_var(ScalarType::I32, "n"), i = make_var(ScalarType::I32, "i");
    Var inner = make_var(ScalarType::I32, "n"), later = make_var(ScalarType::I32, "n");
    Stmt loop = For::make({}, inner, i32(0), i32(2), i32(1), false,
                          Store::make({}, a, {inner}, FloatImm::make(ScalarType::F32, 1.0)));
    Stmt body = Block::make({}, {Decl::make({}, n, i32(0), false),
                                 For::make({}, i, i32(0), i32(4), i32(1), false,
                                           Block::make({}, {loop, Assign::make({}, n, i32(1), BinOp::Add)})),
                                 For::make({}, later, i32(0), i32(2), i32(1), false,
                                           Store::make({}, a, {later}, FloatImm::make(ScalarType::F32, 2.0)))});
    Stmt result = rename_locals(body, {});
    auto* b = as<Block>(result);
    REQUIRE(b);
    auto* outer_loop = as<Block>(as<For>(b->stmts[1])->body);
    REQUIRE(outer_loop);
    auto* renamed = as<For>(outer_loop->stmts[0]);
    CHECK(renamed->var->name == "n_2");  // inside var n's scope: renamed, with its uses
    CHECK(to_string(as<Store>(renamed->body)->indices[0]) == "n_2");
    CHECK(as<Assign>(outer_loop->stmts[1])->var == n);  // the outer n keeps its name
    CHECK(as<For>(b->stmts[2])->var->name == "n_3");    // still inside var n's block: renamed too
    Stmt siblings = Block::make({}, {For::make({}, i, i32(0), i32(2), i32(1), false,
                                               Store::make({}, a, {i}, FloatImm::make(ScalarType::F32, 1.0))),
                                     For::make({}, make_var(ScalarType::I32, "i"), i32(0), i32(2), i32(1), false,
                                               Store::make({}, a, {i32(0)}, FloatImm::make(ScalarType::F32, 1.0)))});
    CHECK(rename_locals(siblings, {}) == siblings);  // loops one after the other hide nothing
}

TEST_CASE("narrow_half_arith computes f16 + and - in f16 only where the result is the same", "[passes]") {
    Buffer h = make_buffer("h", ScalarType::F16, {i32(4)}, Scope::Global);
    Buffer g = make_buffer("g", ScalarType::BF16, {i32(4)}, Scope::Global);
    Buffer f = make_buffer("f", ScalarType::F32, {i32(4)}, Scope::Global);
    auto load = [](const Buffer& b, int i) { return Load::make(b, {i32(i)}); };
    auto wide = [](Expr e) { return Cast::make(ScalarType::F32, std::move(e)); };
    auto store = [](const Buffer& b, Expr v) {
        return Store::make({}, b, {i32(0)}, Cast::make(b->elem, std::move(v)));
    };
    auto value = [](const Stmt& s) { return to_string(as<Store>(s)->value); };
    // f16 operands, + and -: one f16 operation (nested ones too).
    CHECK(value(narrow_half_arith(store(h, add(wide(load(h, 1)), wide(load(h, 2)))))) == "h[1] + h[2]");
    Expr diff = Cast::make(ScalarType::F16, sub(wide(load(h, 1)), wide(load(h, 2))));
    CHECK(value(narrow_half_arith(store(h, add(wide(diff), wide(load(h, 3)))))) == "h[1] - h[2] + h[3]");
    // A product (an f16 fma could take it and the add after it), division, bf16, an f32
    // operand, an f32 result: unchanged.
    for (Stmt s : {store(h, mul(wide(load(h, 1)), wide(load(h, 2)))), store(h, div(wide(load(h, 1)), wide(load(h, 2)))),
                   store(g, add(wide(load(g, 1)), wide(load(g, 2)))), store(h, add(wide(load(h, 1)), load(f, 2))),
                   Store::make({}, f, {i32(0)}, add(wide(load(h, 1)), wide(load(h, 2))))})
        CHECK(narrow_half_arith(s) == s);
}

TEST_CASE("the verifier rejects broken IR", "[passes]") {
    Module m;
    Kernel k;
    k.name = "k";
    Var x = make_var(ScalarType::I32, "x");
    Var undeclared = make_var(ScalarType::I32, "y");
    k.body = Block::make({}, {Decl::make({}, x, undeclared, true)});
    m.kernels.push_back(k);
    CHECK_THROWS_AS(verify_module(m, {}, "test"), InternalError);

    m.kernels[0].body = Block::make({}, {Decl::make({}, x, i32(1), true), Assign::make({}, x, i32(2))});
    CHECK_THROWS_WITH(verify_module(m, {}, "test"), Catch::Contains("assignment to immutable 'x'"));

    Buffer g = make_buffer("g", ScalarType::I32, {i32(2), i32(2)}, Scope::Global);
    m.kernels[0].params.push_back({KernelParam::Kind::Tensor, g, nullptr, true});
    m.kernels[0].body = Block::make({}, {Store::make({}, g, {i32(0), i32(1)}, i32(1))});
    CHECK_NOTHROW(verify_module(m, {}, "test"));
    CHECK_THROWS_WITH(verify_module(m, {true, true}, "test"), Catch::Contains("not flattened"));
}

TEST_CASE("node constructors check their invariants", "[ir]") {
    CHECK_THROWS_AS(Binary::make(BinOp::Add, i32(1), FloatImm::make(ScalarType::F32, 1.0)), InternalError);
    CHECK_THROWS_AS(If::make({}, i32(1), Block::make({}, {}), nullptr), InternalError);
    Buffer g = make_buffer("g", ScalarType::I32, {i32(2), i32(2)}, Scope::Global);
    CHECK_THROWS_AS(Load::make(g, {FloatImm::make(ScalarType::F32, 0.0)}), InternalError);
    CHECK_THROWS_AS(Alloc::make({}, g), InternalError);
}

TEST_CASE("same_value expands index expressions into polynomials", "[passes]") {
    Var i1 = make_var(ScalarType::I32, "i1"), i2 = make_var(ScalarType::I32, "i2");
    Var t = make_var(ScalarType::I32, "T");
    // A row of 12 heads of 64 read back as a row of 768: (i1 * 12 + i2 / 64) * 64 + i2 % 64.
    Expr split = add(mul(add(mul(i1, i32(12)), div(i2, i32(64))), i32(64)), mod(i2, i32(64)));
    CHECK(same_value(split, add(mul(i1, i32(768)), i2)));
    CHECK_FALSE(same_value(split, add(mul(i1, i32(767)), i2)));
    // Symbolic factors, in any order: (i1 / T) * T + i1 % T and i1; T * i2 * 3 and i2 * (3 * T).
    CHECK(same_value(add(mul(div(i1, t), t), mod(i1, t)), i1));
    CHECK(same_value(mul(mul(t, i2), i32(3)), mul(i2, mul(i32(3), t))));
    // A division is an atom: (i1 * 2) / 2 is not proved to be i1 (nor is it for a wrapping i1).
    CHECK_FALSE(same_value(div(mul(i1, i32(2)), i32(2)), i1));
    CHECK_FALSE(same_value(div(i1, i32(64)), div(i2, i32(64))));
}
