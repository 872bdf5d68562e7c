// test_task_mapping.cpp — task-mapping semantics, and the lowering pass
// checked against them by running the lowered loops on a tiny interpreter.
#include <catch2/catch.hpp>
#include <map>

#include "ir/ir_mutator.h"
#include "ir/passes/passes.h"

using namespace hds;
using namespace hds::ir;

using Task = std::vector<int64_t>;

TEST_CASE("spatial unravels the worker row-major", "[mapping]") {
    TaskMapping m{{TaskMapping::make_atom(MappingAtom::Kind::Spatial, {4, 8}, false)}};
    CHECK(m.workers() == 32);
    CHECK(m.tasks_of(0) == std::vector<Task>{{0, 0}});
    CHECK(m.tasks_of(9) == std::vector<Task>{{1, 1}});
    CHECK(m.tasks_of(31) == std::vector<Task>{{3, 7}});
}

TEST_CASE("repeat gives one worker every task in order", "[mapping]") {
    TaskMapping m{{TaskMapping::make_atom(MappingAtom::Kind::Repeat, {2, 3}, false)}};
    CHECK(m.workers() == 1);
    CHECK(m.tasks_of(0) == std::vector<Task>{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}});
    TaskMapping c{{TaskMapping::make_atom(MappingAtom::Kind::Repeat, {2, 3}, true)}};
    CHECK(c.tasks_of(0) == std::vector<Task>{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}});
}

TEST_CASE("composition multiplies shapes and splits workers", "[mapping]") {
    // spatial(2, 2) * repeat(2, 2): worker 3 takes outer task (1, 1), inner all.
    TaskMapping a{{TaskMapping::make_atom(MappingAtom::Kind::Spatial, {2, 2}, false)}};
    TaskMapping b{{TaskMapping::make_atom(MappingAtom::Kind::Repeat, {2, 2}, false)}};
    TaskMapping m = TaskMapping::compose(a, b);
    CHECK(m.task_shape() == std::vector<int64_t>{4, 4});
    CHECK(m.workers() == 4);
    CHECK(m.tasks_of(3) == std::vector<Task>{{2, 2}, {2, 3}, {3, 2}, {3, 3}});
    // repeat(2, 1) * spatial(1, 4): worker w takes column w of both rows.
    TaskMapping r{{TaskMapping::make_atom(MappingAtom::Kind::Repeat, {2, 1}, false),
                   TaskMapping::make_atom(MappingAtom::Kind::Spatial, {1, 4}, false)}};
    CHECK(r.tasks_of(2) == std::vector<Task>{{0, 2}, {1, 2}});
}

TEST_CASE("auto_map picks repeat * spatial with contiguous workers", "[mapping]") {
    TaskMapping m;
    REQUIRE(TaskMapping::auto_map({8, 32}, 64, &m));
    CHECK(m.to_string() == "repeat(4, 1) * spatial(2, 32)");
    REQUIRE(TaskMapping::auto_map({8, 96}, 64, &m));
    CHECK(m.to_string() == "repeat(4, 3) * spatial(2, 32)");
    CHECK_FALSE(TaskMapping::auto_map({3, 5}, 4, &m));
}

namespace {

// Executes the subset of IR that lowered mapping loops contain and records
// every store's indices, in order.
struct MiniInterpreter {
    int64_t tid = 0;
    std::map<const VarNode*, int64_t> env;
    std::vector<Task> stores;

    int64_t eval(const Expr& e) {
        if (auto* i = as<IntImm>(e)) return i->value;
        if (auto* v = as<VarNode>(e)) return env.at(v);
        if (as<SpecialReg>(e)) return tid;
        auto* b = as<Binary>(e);
        REQUIRE(b != nullptr);
        int64_t x = eval(b->a), y = eval(b->b);
        switch (b->op) {
            case BinOp::Add:
                return x + y;
            case BinOp::Sub:
                return x - y;
            case BinOp::Mul:
                return x * y;
            case BinOp::Div:
                return x / y;
            case BinOp::Mod:
                return x % y;
            default:
                FAIL("unexpected operator");
                return 0;
        }
    }

    void run(const Stmt& s) {
        if (auto* b = as<Block>(s)) {
            for (const Stmt& x : b->stmts) run(x);
        } else if (auto* f = as<For>(s)) {
            for (int64_t i = eval(f->lo); i < eval(f->hi); i += eval(f->step)) {
                env[f->var.get()] = i;
                run(f->body);
            }
        } else if (auto* d = as<Decl>(s)) {
            env[d->var.get()] = eval(d->init);
        } else if (auto* st = as<Store>(s)) {
            Task t;
            for (const Expr& i : st->indices) t.push_back(eval(i));
            stores.push_back(t);
        } else {
            FAIL("unexpected statement");
        }
    }
};

void check_lowering(const TaskMapping& m) {
    std::vector<Var> vars;
    std::vector<Expr> idx;
    for (size_t d = 0; d < m.rank(); ++d) {
        vars.push_back(make_var(ScalarType::I32, "t" + std::to_string(d)));
        idx.push_back(vars.back());
    }
    std::vector<Expr> shape;
    for (int64_t s : m.task_shape()) shape.push_back(i32(s));
    Buffer out = make_buffer("out", ScalarType::I32, shape, Scope::Global);
    Stmt body = Block::make({}, {Store::make({}, out, idx, i32(0))});
    Stmt loop = MapFor::make({}, vars, m, SpecialReg::make(SpecialKind::ThreadIdx, 0), false, body);
    Stmt lowered = simplify(lower_task_mappings(Block::make({}, {loop})));
    for (int64_t w = 0; w < m.workers(); ++w) {
        MiniInterpreter interp;
        interp.tid = w;
        interp.run(lowered);
        INFO(m.to_string() << " worker " << w);
        CHECK(interp.stores == m.tasks_of(w));
    }
}

}  // namespace

TEST_CASE("lowered mapping loops enumerate exactly the mapping's tasks", "[mapping][passes]") {
    using K = MappingAtom::Kind;
    auto atom = [](K k, std::vector<int64_t> s, bool col = false) { return TaskMapping::make_atom(k, s, col); };
    check_lowering({{atom(K::Spatial, {4, 8})}});
    check_lowering({{atom(K::Repeat, {3, 5})}});
    check_lowering({{atom(K::Spatial, {4, 8}, true)}});
    check_lowering({{atom(K::Repeat, {2, 1}), atom(K::Spatial, {2, 32})}});
    check_lowering({{atom(K::Spatial, {2, 4}), atom(K::Repeat, {4, 4})}});
    check_lowering({{atom(K::Repeat, {2, 2}), atom(K::Spatial, {4, 4}), atom(K::Repeat, {2, 3}, true)}});
    check_lowering({{atom(K::Spatial, {2, 3, 4}), atom(K::Repeat, {1, 2, 1})}});
    MappingAtom ranked = atom(K::Spatial, {3, 4, 2});
    ranked.ranks = {2, 0, 1};
    check_lowering({{ranked, atom(K::Repeat, {2, 1, 2}, true)}});
}

namespace {

// Stores out[i / c, i % c, j / d, j % d] for every task (i, j) of `m`, then
// checks that simplify_ranges (with the block size known, and unknown) leaves
// every stored index the same for every worker.
void check_range_simplification(const TaskMapping& m, int64_t c, int64_t d, bool expect_no_division) {
    Var i = make_var(ScalarType::I32, "i"), j = make_var(ScalarType::I32, "j");
    std::vector<int64_t> shape = m.task_shape();
    Buffer out = make_buffer("out", ScalarType::I32, {i32(shape[0]), i32(c), i32(shape[1]), i32(d)}, Scope::Global);
    Stmt body = Block::make(
        {}, {Store::make({}, out, {div(i, i32(c)), mod(i, i32(c)), div(j, i32(d)), mod(j, i32(d))}, i32(0))});
    Stmt loop = MapFor::make({}, {i, j}, m, SpecialReg::make(SpecialKind::ThreadIdx, 0), true, body);
    Stmt plain = simplify(lower_task_mappings(Block::make({}, {loop})));
    Stmt known = simplify_ranges(plain, {m.workers()});
    Stmt unknown = simplify_ranges(plain, {0});
    for (int64_t w = 0; w < m.workers(); ++w) {
        MiniInterpreter a, b, u;
        a.tid = b.tid = u.tid = w;
        a.run(plain);
        b.run(known);
        u.run(unknown);
        INFO(m.to_string() << " c=" << c << " d=" << d << " worker " << w);
        REQUIRE(b.stores == a.stores);
        REQUIRE(u.stores == a.stores);
    }
    if (expect_no_division) {
        // i / c is exactly the repeat loop variable: no division is left in the index.
        struct FindStore : IRMutator {
            Expr first_index;
            Stmt visit(const Store* op, const Stmt& self) override {
                first_index = op->indices[0];
                return self;
            }
        } find;
        find.mutate(known);
        REQUIRE(find.first_index);
        CHECK(as<VarNode>(find.first_index) != nullptr);
    }
}

}  // namespace

TEST_CASE("range simplification keeps every index and removes repeat-index divisions", "[passes][mapping]") {
    using K = MappingAtom::Kind;
    auto atom = [](K k, std::vector<int64_t> s) { return TaskMapping::make_atom(k, s, false); };
    // m = m_r * 32 + tid / 8: m / 32 is m_r, m % 32 is tid / 8.
    check_range_simplification({{atom(K::Repeat, {4, 1}), atom(K::Spatial, {32, 8})}}, 32, 8, false);
    // i = i_r * 64 + tid / 4 ... with 256 workers: divisions by 64 vanish.
    check_range_simplification({{atom(K::Repeat, {2, 2}), atom(K::Spatial, {64, 4})}}, 64, 4, false);
    check_range_simplification({{atom(K::Repeat, {2, 3}), atom(K::Spatial, {16, 16}), atom(K::Repeat, {4, 4})}}, 64, 3,
                               false);
    check_range_simplification({{atom(K::Spatial, {8, 8}), atom(K::Repeat, {4, 4})}}, 3, 5, false);
    check_range_simplification({{atom(K::Repeat, {4, 2}), atom(K::Spatial, {32, 32})}}, 32, 32, true);
}
