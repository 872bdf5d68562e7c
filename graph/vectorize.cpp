// vectorize.cpp — the injective schedule with 16-byte accesses: each thread
// computes V consecutive elements of the innermost dimension (V = 16 bytes /
// the element size: 8 for f16, 4 for f32), reading each input that walks that
// dimension contiguously with one vector copy into registers and writing its
// results with one vector store. Every vector access is aligned when the rows
// involved hold a multiple of V elements (tensors start 16-byte aligned); when
// that depends on sizes known only at run time, the kernel checks it and
// keeps the one-element-per-thread body for the other case (and the launch
// picks the grid to match); when only the inputs' rows may be unaligned (a
// padded copy, padding.h), the other case keeps V elements per thread and the
// vector store, reading the inputs one element at a time. Loads that broadcast
// along the row stay scalar.
#include <map>
#include <set>

#include "graph/rewrite.h"
#include "graph/row_staging.h"
#include "graph/schedule.h"
#include "graph/shapes.h"
#include "ir/ir_printer.h"
#include "ir/ir_visitor.h"
#include "ir/name_gen.h"
#include "ir/passes/passes.h"

namespace hds::graph {

namespace {

// A global (or shared, if `shared`) load whose last index is the innermost
// axis itself (and no other index uses it), from a buffer whose rows may hold
// a multiple of V elements: V of them starting at an aligned column are one
// copy of V * size bytes.
bool contiguous(const ir::Load& l, const ir::Var& inner, int64_t v, bool shared) {
    bool scope_ok = l.buffer->scope == ir::Scope::Global || (shared && l.buffer->scope == ir::Scope::Shared);
    if (!scope_ok || l.indices.empty()) return false;
    if (l.indices.back().get() != static_cast<const ir::ExprNode*>(inner.get())) return false;
    for (size_t d = 0; d + 1 < l.indices.size(); ++d)
        if (uses(l.indices[d], inner)) return false;
    auto cols = ir::const_int(l.buffer->shape.back());
    int64_t bytes = v * byte_size(l.buffer->elem);
    return (!cols || *cols % v == 0) && (bytes == 4 || bytes == 8 || bytes == 16);
}

// a && b, without repeating a condition a already has (two inputs of one width).
ir::Expr both(const ir::Expr& a, const ir::Expr& b) {
    std::string text = ir::to_string(b);
    for (ir::Expr c = a; c;) {
        auto* and_ = ir::as<ir::Binary>(c);
        bool conj = and_ && and_->op == ir::BinOp::And;
        if (ir::to_string(conj ? and_->b : c) == text) return a;
        c = conj ? and_->a : nullptr;
    }
    return ir::simplify(ir::Binary::make(ir::BinOp::And, a, b));
}

// The loads that only a branch of a select evaluates (`i < K ? b[i, j] : 0`, concat's
// halves): their indices may lie outside the tensor where the branch is not taken.
std::set<const ir::Load*> loads_under_selects(const ir::Expr& e) {
    struct Finder : ir::IRVisitor {
        int depth = 0;
        std::set<const ir::Load*> found;
        void visit(const ir::Select* op) override {
            visit_expr(op->cond);
            ++depth;
            visit_expr(op->t);
            visit_expr(op->f);
            --depth;
        }
        void visit(const ir::Load* op) override {
            if (depth > 0) found.insert(op);
            ir::IRVisitor::visit(op);
        }
    } f;
    f.visit_expr(e);
    return f.found;
}

}  // namespace

bool VectorLoads::aligned_with(const ir::Expr& width, int64_t v) const {
    return ir::const_bool(aligned) == std::optional<bool>(true) ||
           ir::to_string(aligned) == ir::to_string(ir::simplify(divisible(width, v)));
}

VectorLoads vectorize_loads(const ir::Expr& value, const ir::Var& inner, int64_t v, const ir::Expr& first,
                            const ir::Var& e, bool shared, std::vector<ir::Stmt>& out, SourceLoc loc,
                            const RegisterRows* rows, const ir::Expr& it, ir::NameGen* names) {
    std::map<std::string, ir::Buffer> regs;  // by the load's text: the same access may occur twice
    ir::Expr aligned = ir::BoolImm::make(true);
    std::set<const ir::Load*> guarded = loads_under_selects(value);
    ir::Expr result = replace_loads(value, [&](const ir::Load& l) -> ir::Expr {
        if (rows && rows->holds(l.buffer)) {  // the thread's chunk `it` of a row in registers
            bool chunk = it && v == rows->v && l.indices.size() == 1 &&
                         l.indices[0].get() == static_cast<const ir::ExprNode*>(inner.get());
            if (!chunk) {
                rows->failed = true;
                return nullptr;
            }
            return ir::Load::make(l.buffer, {ir::simplify(ir::add(ir::mul(it, ir::i32(v)), e))}, l.loc);
        }
        if (!contiguous(l, inner, v, shared)) return nullptr;
        std::string key = ir::to_string(ir::Load::make(l.buffer, l.indices, l.loc));
        auto it = regs.find(key);
        if (it == regs.end()) {
            std::string name = "v_" + l.buffer->name;
            if (names) {
                name = names->fresh(name);
            } else {
                for (const auto& [k2, other] : regs)
                    if (other->name == name) name += "_" + std::to_string(regs.size());
            }
            ir::Buffer r = ir::make_buffer(name, l.buffer->elem, {ir::i32(v)}, ir::Scope::Register);
            it = regs.emplace(key, r).first;
            aligned = both(aligned, divisible(l.buffer->shape.back(), v));
            std::vector<ir::Expr> at(l.indices.begin(), l.indices.end() - 1);
            at.push_back(first);
            // A select's branch: the copy runs whether or not the branch is taken, so it reads
            // inside the tensor (the last row, the last V columns) where the indices leave it;
            // where the branch is taken they do not, and the clamps change nothing.
            if (guarded.count(&l))
                for (size_t d = 0; d < at.size(); ++d) {
                    ir::Expr last = ir::sub(l.buffer->shape[d], ir::i32(d + 1 == at.size() ? v : 1));
                    at[d] = ir::simplify(ir::Call::make(ScalarType::I32, Builtin::Min, {at[d], last}));
                }
            out.push_back(ir::Alloc::make(loc, r));
            out.push_back(ir::Evaluate::make(
                loc, ir::Call::make_void(copy_builtin(v * byte_size(l.buffer->elem)),
                                         {ir::Load::make(r, {ir::i32(0)}), ir::Load::make(l.buffer, at, l.loc)})));
        }
        return ir::Load::make(it->second, {e}, l.loc);
    });
    return {substitute(result, VarMap{{inner.get(), ir::add(first, e)}}), aligned};
}

std::vector<ir::Stmt> store_vector(const ir::Buffer& dst, const std::vector<ir::Expr>& at, const ir::Expr& value,
                                   const ir::Var& e, int64_t v, SourceLoc loc, const std::string& regs_name) {
    ir::Buffer regs = ir::make_buffer(regs_name, dst->elem, {ir::i32(v)}, ir::Scope::Register);
    Builtin copy = copy_builtin(static_cast<int>(v * byte_size(dst->elem)));
    return {ir::Alloc::make(loc, regs),
            ir::For::make(loc, e, ir::i32(0), ir::i32(v), ir::i32(1), true, ir::Store::make(loc, regs, {e}, value)),
            ir::Evaluate::make(
                loc, ir::Call::make_void(copy, {ir::Load::make(dst, at), ir::Load::make(regs, {ir::i32(0)})}))};
}

bool vectorize_injective(const Node& n, ir::Kernel& k) {
    const Shape& shape = n.buffer->shape;
    int64_t v = 16 / byte_size(n.buffer->elem);
    ir::Expr aligned = divisible(shape.back(), v);  // when the vector body may run
    if (v < 2 || ir::const_bool(aligned) == std::optional<bool>(false)) return false;
    const ir::Var& inner = n.compute.axes.back();

    std::vector<ir::Var> axes(n.compute.axes.begin(), n.compute.axes.end() - 1);
    ir::Var col = ir::make_var(ScalarType::I32, "vec");  // the index of this thread's V columns
    axes.push_back(col);
    Shape vec_shape = shape;
    vec_shape.back() = ir::simplify(ir::div(shape.back(), ir::i32(v)));
    ir::Expr total = ir::simplify(numel(vec_shape));
    ir::Expr first = ir::mul(col, ir::i32(v));  // the first of the thread's columns
    std::vector<ir::Expr> at(axes.begin(), axes.end() - 1);
    at.push_back(first);

    // V columns per thread, stored with one copy; the inputs read with copies too
    // (`copies`), or one element at a time.
    auto columns = [&](bool copies, ir::Expr* loads_aligned) {
        std::vector<ir::Stmt> body;
        ir::Var idx = flat_index(body, n.loc);
        std::vector<ir::Stmt> inner_body = unravel(idx, axes, vec_shape, n.loc);
        ir::Var e = ir::make_var(ScalarType::I32, "e");
        ir::Expr value = substitute(n.compute.value, VarMap{{inner.get(), ir::add(first, e)}});
        if (copies) {
            VectorLoads loads = vectorize_loads(n.compute.value, inner, v, first, e, false, inner_body, n.loc);
            *loads_aligned = loads.aligned;
            value = loads.value;
        }
        for (ir::Stmt& s : store_vector(n.buffer, at, value, e, v, n.loc)) inner_body.push_back(s);
        body.push_back(ir::If::make(n.loc, ir::Binary::make(ir::BinOp::Lt, idx, total),
                                    ir::Block::make(n.loc, inner_body), nullptr));
        return ir::Block::make(n.loc, body);
    };
    ir::Expr loads_aligned;
    ir::Stmt vec_body = columns(true, &loads_aligned);
    ir::Expr vec_grid = ir::simplify(ir::div(ir::add(total, ir::i32(kThreads - 1)), ir::i32(kThreads)));
    bool store_aligned = ir::const_bool(aligned) == std::optional<bool>(true);
    aligned = both(aligned, loads_aligned);
    if (ir::const_bool(aligned) == std::optional<bool>(true)) {
        k.body = vec_body;
        k.grid = {vec_grid};
        return true;
    }
    if (store_aligned) {  // rows of the result always aligned (a padded copy): inputs' rows may not be
        k.body = ir::If::make(n.loc, aligned, vec_body, columns(false, nullptr));
        k.grid = {vec_grid};
        return true;
    }
    k.body = ir::If::make(n.loc, aligned, vec_body, k.body);
    k.grid = {ir::Select::make(aligned, vec_grid, k.grid.at(0))};
    return true;
}

}  // namespace hds::graph
