// Unit tests of graph/decisions.h: the depth-first walk over conditions on
// symbolic sizes that gives a graph's variants (graph/variants.h).
#include <catch2/catch.hpp>

#include "graph/decisions.h"
#include "ir/evaluate.h"
#include "ir/ir.h"
#include "ir/ir_printer.h"

using namespace hds;
using graph::Condition;
using graph::Decisions;

namespace {

Condition le(const char* size, int64_t v) {
    ir::Expr s = ir::make_var(ScalarType::I32, size);
    return {ir::Binary::make(ir::BinOp::Le, s, ir::i32(v)), "test", size};
}

// One build of a "graph" with a schedule `when M <= 16`, then one with TMA rows
// (`N <= 8` stands for it) that is decided only when the first is false.
std::vector<std::string> build(Decisions& d) {
    if (d.decide(le("M", 16))) return {"skinny"};
    d.decide(le("M", 16));  // met again in the same build: the same value, no new decision
    return {d.decide(le("N", 8)) ? "wgmma" : "mma"};
}

}  // namespace

TEST_CASE("decisions walk the cases depth first, true before false", "[graph]") {
    std::vector<std::string> order;
    std::vector<size_t> cases;
    std::optional<std::vector<bool>> forced = std::vector<bool>{};
    while (forced) {
        Decisions d(*forced);
        order.push_back(build(d)[0]);
        cases.push_back(d.taken().size());
        forced = d.next();
    }
    CHECK(order == std::vector<std::string>{"skinny", "wgmma", "mma"});
    CHECK(cases == std::vector<size_t>{1, 1, 0});  // the last build (any sizes) took nothing
}

TEST_CASE("a condition met again keeps its value", "[graph]") {
    Decisions d({false});
    CHECK_FALSE(d.decide(le("M", 16)));
    CHECK(d.decide(le("N", 8)));         // not forced: true
    CHECK_FALSE(d.decide(le("M", 16)));  // as before
    REQUIRE(d.taken().size() == 1);
    CHECK(d.taken()[0].tag == "N");
    CHECK(d.next() == std::optional<std::vector<bool>>(std::vector<bool>{false, false}));
}

TEST_CASE("bounds on one size imply each other", "[graph]") {
    Decisions taken({true});
    CHECK(taken.decide(le("M", 16)));
    CHECK(taken.decide(le("M", 256)));  // implied: no decision of its own
    CHECK(taken.taken().size() == 1);
    CHECK(taken.next() == std::optional<std::vector<bool>>(std::vector<bool>{false}));
    Decisions not_taken({false});
    CHECK_FALSE(not_taken.decide(le("M", 256)));
    CHECK_FALSE(not_taken.decide(le("M", 16)));  // implied false
    CHECK(not_taken.decide(le("M", 512)));       // not implied: decided (not forced: true)
    CHECK(not_taken.decide(le("N", 16)));        // another size: decided
    CHECK(not_taken.taken().size() == 2);
}

TEST_CASE("decisions at given sizes evaluate each condition", "[graph]") {
    Decisions d = Decisions::at({{"M", 16}});
    CHECK(d.decide(le("M", 16)));
    CHECK_FALSE(d.decide(le("M", 8)));
    CHECK_FALSE(d.decide(le("N", 8)));  // a size not given: false
    CHECK(d.taken().empty());           // nothing to walk
    CHECK_FALSE(d.next().has_value());
}

TEST_CASE("a && taken as true holds its conjuncts; one that cannot hold fails undecided", "[graph]") {
    auto both = [] {
        Condition m = le("M", 16), n = le("N", 8);
        return Condition{ir::Binary::make(ir::BinOp::And, m.expr, n.expr), "test", "both"};
    };
    Decisions taken({true});
    CHECK(taken.decide(both()));
    CHECK(taken.decide(le("N", 8)));    // a conjunct: implied
    CHECK(taken.decide(le("M", 256)));  // implied by the conjunct M <= 16
    CHECK(taken.taken().size() == 1);
    Decisions part_false({false});
    CHECK_FALSE(part_false.decide(le("N", 8)));
    CHECK_FALSE(part_false.decide(both()));  // it implies N <= 8, taken as false
    CHECK_FALSE(part_false.next().has_value());
    Decisions bound_false({false});
    CHECK_FALSE(bound_false.decide(le("M", 256)));
    CHECK_FALSE(bound_false.decide(both()));  // its M <= 16 cannot hold
    Decisions whole_false({false});
    CHECK_FALSE(whole_false.decide(both()));
    CHECK(whole_false.decide(le("M", 16)));  // a false && says nothing of its parts: decided
    CHECK(whole_false.taken().size() == 1);
}

TEST_CASE("a negation is the opposite of what the decisions say of its operand", "[graph]") {
    auto rows = [](const char* k, const char* n) {  // `K <= 8 && N <= 8` stands for 16-byte rows
        Condition a = le(k, 8), b = le(n, 8);
        return Condition{ir::Binary::make(ir::BinOp::And, a.expr, b.expr), "test", "rows"};
    };
    auto gemv = [&](const char* k, const char* n) {  // `M <= 4 && !(rows)`
        Condition m = le("M", 4);
        ir::Expr unaligned = ir::Unary::make(ir::UnOp::Not, rows(k, n).expr);
        return Condition{ir::Binary::make(ir::BinOp::And, m.expr, unaligned), "test", "gemv"};
    };
    Decisions aligned({true});
    CHECK(aligned.decide(rows("K", "N")));
    CHECK_FALSE(aligned.decide(gemv("K", "N")));  // rows hold: the negation fails, no decision
    CHECK(aligned.taken().size() == 1);
    Decisions unaligned({false, true});
    CHECK_FALSE(unaligned.decide(rows("K", "N")));
    CHECK(unaligned.decide(gemv("K", "N")));  // the negation holds; M <= 4 is decided
    CHECK(unaligned.taken().size() == 1);
    // The same with the operands of the inner && the other way round (the second matmul of an
    // MLP, K and N swapped): rows taken as false, M <= 4 && !(rows) taken as false.
    Decisions swapped({false, false});
    CHECK_FALSE(swapped.decide(rows("K", "N")));
    CHECK_FALSE(swapped.decide(gemv("K", "N")));
    CHECK_FALSE(swapped.decide(gemv("N", "K")));  // implies the one taken as false: no decision
    CHECK_FALSE(swapped.next().has_value());
    // A negation nothing decides is a decision of its own.
    Decisions fresh{std::vector<bool>{}};
    CHECK(fresh.decide(gemv("K", "N")));
    CHECK(fresh.decide(le("M", 16)));           // implied by M <= 4
    CHECK_FALSE(fresh.decide(rows("K", "N")));  // its negation was taken as true
    CHECK(fresh.taken().size() == 1);
}

TEST_CASE("a condition no sampled size lets hold with the earlier ones is false, without a decision", "[graph]") {
    // `M <= 64` taken as false, then `(M + 63) / 64 <= 1` (true only for M <= 64): no case.
    ir::Expr m = ir::make_var(ScalarType::I32, "M");
    Condition tiles{
        ir::Binary::make(ir::BinOp::Le, ir::Binary::make(ir::BinOp::Div, ir::add(m, ir::i32(63)), ir::i32(64)),
                         ir::i32(1)),
        "test", "tiles"};
    Decisions d({false});
    CHECK_FALSE(d.decide(le("M", 64)));
    CHECK_FALSE(d.decide(tiles));  // cannot hold: no decision
    CHECK(d.taken().empty());
    CHECK(d.next() == std::nullopt);  // one decision made (false): the walk is over
    // Where it can hold, it is decided as before: `(M + 63) / 64 <= 2` holds for M in 65..128.
    Condition two{ir::Binary::make(ir::BinOp::Le,
                                   ir::Binary::make(ir::BinOp::Div, ir::add(m, ir::i32(63)), ir::i32(64)), ir::i32(2)),
                  "test", "two"};
    Decisions e({false});
    CHECK_FALSE(e.decide(le("M", 64)));
    CHECK(e.decide(two));
    CHECK(e.taken().size() == 1);
}

TEST_CASE("comparisons of sides equal as polynomials are one condition", "[graph]") {
    // Two matmuls of one graph, x @ w1 ([T, D] x [D, F]) and h @ w2 ([T, F] x [F, D]): the weight
    // sizes of their schedules' conditions are D * F and F * D.
    ir::Expr d = ir::make_var(ScalarType::I32, "D"), f = ir::make_var(ScalarType::I32, "F");
    auto big = [](ir::Expr a, ir::Expr b) {
        return Condition{ir::Binary::make(ir::BinOp::Ge, ir::Binary::make(ir::BinOp::Mul, a, b), ir::i32(4194304)),
                         "test", "big"};
    };
    for (bool value : {true, false}) {
        Decisions ds({value});
        CHECK(ds.decide(big(d, f)) == value);
        CHECK(ds.decide(big(f, d)) == value);  // the same condition: no decision of its own
        CHECK(ds.next() == (value ? std::optional<std::vector<bool>>(std::vector<bool>{false}) : std::nullopt));
    }
    // A different bound is a different condition.
    Decisions other({true});
    CHECK(other.decide(big(d, f)));
    auto small = Condition{ir::Binary::make(ir::BinOp::Ge, ir::Binary::make(ir::BinOp::Mul, f, d), ir::i32(65536)),
                           "test", "small"};
    CHECK(other.decide(small));
    CHECK(other.taken().size() == 2);
}

TEST_CASE("a case of three sizes in narrow bands is found among the samples", "[graph]") {
    // T in 113 ... 128, N = F's band of one sample, D one sample, and a condition over all three:
    // one combination in 60^3, which a random 20000 of them would likely miss; each size's
    // samples are first narrowed by the conditions over it alone.
    ir::Expr t = ir::make_var(ScalarType::I32, "T"), f = ir::make_var(ScalarType::I32, "F"),
             d = ir::make_var(ScalarType::I32, "D");
    auto band = [](ir::Expr s, int64_t lo, int64_t hi, const char* tag) {
        return Condition{ir::Binary::make(ir::BinOp::And, ir::Binary::make(ir::BinOp::Gt, s, ir::i32(lo)),
                                          ir::Binary::make(ir::BinOp::Le, s, ir::i32(hi))),
                         "test", tag};
    };
    auto all = [&](int64_t sum) {
        return Condition{ir::Binary::make(ir::BinOp::Eq, ir::add(ir::add(t, f), d), ir::i32(sum)), "test", "all"};
    };
    Decisions ds(std::vector<bool>{});
    CHECK(ds.decide(band(t, 127, 128, "t")));
    CHECK(ds.decide(band(f, 10000, 11008, "f")));
    CHECK(ds.decide(band(d, 4095, 4096, "d")));
    CHECK(ds.decide(all(128 + 11008 + 4096)));            // T = 128, F = 11008, D = 4096: decided true
    CHECK_FALSE(ds.decide(all(128 + 11008 + 4096 + 1)));  // no sample reaches it: false, no decision
    CHECK(ds.taken().size() == 4);
}

TEST_CASE("a compiled expression gives evaluate()'s values", "[ir]") {
    using ir::BinOp;
    ir::Expr m = ir::make_var(ScalarType::I32, "M"), n = ir::make_var(ScalarType::I32, "N");
    ir::Expr k = ir::make_var(ScalarType::I32, "K");  // a size the positions do not give
    auto bin = [](BinOp op, ir::Expr a, ir::Expr b) { return ir::Binary::make(op, std::move(a), std::move(b)); };
    std::vector<ir::Expr> exprs = {
        bin(BinOp::And, bin(BinOp::Le, bin(BinOp::Mul, m, n), ir::i32(4096)), bin(BinOp::Gt, m, ir::i32(16))),
        bin(BinOp::Div, bin(BinOp::Add, n, ir::i32(127)), m),  // division by zero at M = 0: none
        bin(BinOp::Mod, n, ir::i32(8)),
        ir::Unary::make(ir::UnOp::Not, bin(BinOp::Eq, bin(BinOp::Mod, m, ir::i32(8)), ir::i32(0))),
        ir::Select::make(bin(BinOp::Lt, m, n), bin(BinOp::Sub, n, m), ir::Unary::make(ir::UnOp::Neg, m)),
        bin(BinOp::Or, bin(BinOp::Ge, k, ir::i32(1)), bin(BinOp::Ne, m, n)),  // K unknown: none
    };
    std::vector<std::string> names = {"N", "M"};
    for (const ir::Expr& e : exprs) {
        ir::CompiledExpr compiled(e, names);
        for (int64_t mv : {0, 1, 16, 17, 300})
            for (int64_t nv : {1, 8, 129, 4096}) {
                INFO(ir::to_string(e) << " at M = " << mv << ", N = " << nv);
                CHECK(compiled({nv, mv}) == ir::evaluate(e, {{"M", mv}, {"N", nv}}));
            }
    }
}
