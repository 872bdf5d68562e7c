// schedule.cpp — automatic schedules of injective and reduction nodes.
#include "graph/schedule.h"

#include <map>

#include "graph/rewrite.h"
#include "graph/row_staging.h"
#include "graph/shapes.h"
#include "ir/ir_visitor.h"
#include "ir/passes/passes.h"

namespace hds::graph {

ir::Expr tid() {
    return ir::SpecialReg::make(ir::SpecialKind::ThreadIdx, 0);
}

namespace {

ir::Expr bid() {
    return ir::SpecialReg::make(ir::SpecialKind::BlockIdx, 0);
}
ir::Expr ceil_div(const ir::Expr& a, int64_t b) {
    return ir::simplify(ir::div(ir::add(a, ir::i32(b - 1)), ir::i32(b)));
}

ir::Stmt block(SourceLoc loc, std::vector<ir::Stmt> s) {
    return ir::Block::make(loc, std::move(s));
}

// Uses of variables, to pick a reduction schedule.
class VarUses : public ir::IRVisitor {
  public:
    std::vector<const ir::VarNode*> found;

  protected:
    void visit(const ir::VarNode* v) override { found.push_back(v); }
};

}  // namespace

ir::Var flat_index(std::vector<ir::Stmt>& out, SourceLoc loc) {
    ir::Var idx = ir::make_var(ScalarType::I32, "idx");
    out.push_back(ir::Decl::make(loc, idx, ir::add(ir::mul(bid(), ir::i32(kThreads)), tid()), true));
    return idx;
}

bool uses(const ir::Expr& e, const ir::Var& v) {
    VarUses u;
    u.visit_expr(e);
    for (const ir::VarNode* x : u.found)
        if (x == v.get()) return true;
    return false;
}

bool contiguous_rows(const Compute& c) {
    const Reduction& r = *c.reduction;
    const ir::Load* first = nullptr;
    replace_loads(r.body, [&](const ir::Load& l) -> ir::Expr {
        if (!first) first = &l;
        return nullptr;
    });
    if (!first || first->indices.empty()) return false;
    const ir::Expr& last = first->indices.back();
    if (!uses(last, r.vars.back())) return false;
    for (const ir::Var& a : c.axes)
        if (uses(last, a)) return false;
    return true;
}

void warp_reduce(const Reduction& r, std::vector<ir::Stmt>& out, SourceLoc loc, int64_t lanes) {
    for (int64_t off = lanes / 2; off >= 1; off /= 2) {
        ir::Expr other = ir::Call::make(r.acc->type, Builtin::ShflXor, {r.acc, ir::i32(off)});
        out.push_back(ir::Assign::make(loc, r.acc, r.combine(r.acc, other)));
    }
}

namespace {

// Declarations of the reduction variables for the flat reduction index `flat`.
std::vector<ir::Stmt> reduction_point(const Reduction& r, const ir::Expr& flat, SourceLoc loc) {
    if (r.vars.size() == 1) return {ir::Decl::make(loc, r.vars[0], ir::simplify(ir::add(r.lo[0], flat)), true)};
    std::vector<ir::Expr> extents;
    std::vector<ir::Var> offsets;
    for (size_t i = 0; i < r.vars.size(); ++i) {
        extents.push_back(ir::simplify(ir::sub(r.hi[i], r.lo[i])));
        offsets.push_back(ir::make_var(ScalarType::I32, r.vars[i]->name + "_off"));
    }
    std::vector<ir::Stmt> out = unravel(flat, offsets, extents, loc);
    for (size_t i = 0; i < r.vars.size(); ++i)
        out.push_back(ir::Decl::make(loc, r.vars[i], ir::simplify(ir::add(r.lo[i], offsets[i])), true));
    return out;
}

ir::Buffer partial_buffer(ScalarType t) {
    return ir::make_buffer("partial", t, {ir::i32(kThreads / 32)}, ir::Scope::Shared);
}

ir::Expr extent_of(const Reduction& r) {
    ir::Expr extent = ir::i32(1);
    for (size_t i = 0; i < r.vars.size(); ++i) extent = ir::simplify(ir::mul(extent, ir::sub(r.hi[i], r.lo[i])));
    return extent;
}

// The accumulation loop of a block reduction over one variable from 0 to a
// constant multiple of V, whose body reads rows contiguously (a staged row, a
// row sum's input): each thread takes V consecutive elements per step, read
// with one 16-byte copy per row (or from registers, for rows `regs` holds).
// Null when the reduction is not of that form.
ir::Stmt vector_accumulation(const Reduction& r, const RegisterRows* regs, SourceLoc loc) {
    if (r.vars.size() != 1 || ir::const_int(r.lo[0]) != std::optional<int64_t>(0)) return nullptr;
    auto extent = ir::const_int(r.hi[0]);
    ScalarType elem = ScalarType::F32;  // V from the narrowest row read: 16 bytes of it
    bool found = false;
    replace_loads(r.body, [&](const ir::Load& l) -> ir::Expr {
        if (!l.indices.empty() && l.indices.back().get() == static_cast<const ir::ExprNode*>(r.vars[0].get()) &&
            (!found || byte_size(l.buffer->elem) < byte_size(elem))) {
            elem = l.buffer->elem;
            found = true;
        }
        return nullptr;
    });
    int64_t v = 16 / byte_size(elem);
    if (!found || !extent || v < 2 || *extent % v != 0) return nullptr;
    ir::Var col = ir::make_var(ScalarType::I32, "vec"), e = ir::make_var(ScalarType::I32, "e");
    bool vectorized = true;
    ir::Stmt loop = chunk_loop(
        regs, col, *extent / v,
        [&](const ir::Expr& it) -> ir::Stmt {
            std::vector<ir::Stmt> step;
            VectorLoads loads =
                vectorize_loads(r.body, r.vars[0], v, ir::mul(col, ir::i32(v)), e, true, step, loc, regs, it);
            bool whole = ir::const_bool(loads.aligned) == std::optional<bool>(true);
            vectorized = whole && (!step.empty() || regs);
            step.push_back(ir::For::make(loc, e, ir::i32(0), ir::i32(v), ir::i32(1), true,
                                         ir::Assign::make(loc, r.acc, r.combine(r.acc, loads.value))));
            return block(loc, step);
        },
        loc);
    return vectorized ? loop : nullptr;
}

}  // namespace

void block_reduce(const Reduction& r, const ir::Buffer& partial, std::vector<ir::Stmt> tail, SourceLoc loc,
                  std::vector<ir::Stmt>& body, const RegisterRows* regs, const ir::Stmt& accumulate, int64_t threads) {
    body.push_back(ir::Decl::make(loc, r.acc, r.init(), false));
    if (accumulate) {
        body.push_back(accumulate);
    } else if (ir::Stmt vec = vector_accumulation(r, regs, loc)) {
        body.push_back(vec);
    } else {
        if (regs) regs->failed = true;  // the rows in registers are read chunk by chunk only
        ir::Var ri = ir::make_var(ScalarType::I32, "r");
        std::vector<ir::Stmt> point = reduction_point(r, ri, loc);
        point.push_back(ir::Assign::make(loc, r.acc, r.combine(r.acc, r.body)));
        body.push_back(ir::For::make(loc, ri, tid(), extent_of(r), ir::i32(kThreads), false, block(loc, point)));
    }
    warp_reduce(r, body, loc);
    const int64_t warps = threads / 32;
    ir::Expr lane = ir::mod(tid(), ir::i32(32)), warp = ir::div(tid(), ir::i32(32));
    body.push_back(ir::If::make(loc, ir::eq(lane, ir::i32(0)), ir::Store::make(loc, partial, {warp}, r.acc), nullptr));
    body.push_back(ir::Evaluate::make(loc, ir::Call::make_void(Builtin::SyncThreads, {})));
    std::vector<ir::Stmt> first;
    ir::Expr mine = ir::Select::make(ir::lt(tid(), ir::i32(warps)), ir::Load::make(partial, {tid()}), r.init());
    first.push_back(ir::Assign::make(loc, r.acc, mine));
    warp_reduce(r, first, loc);
    for (ir::Stmt& t : tail) first.push_back(t);
    body.push_back(ir::If::make(loc, ir::lt(tid(), ir::i32(32)), block(loc, first), nullptr));
}

std::vector<ir::Expr> unravel_indices(const ir::Expr& flat, const std::vector<ir::Expr>& shape) {
    std::vector<ir::Expr> out(shape.size());
    ir::Expr stride = ir::i32(1);
    for (size_t d = shape.size(); d-- > 0;) {
        ir::Expr v = ir::div(flat, stride);
        if (d > 0) v = ir::mod(v, shape[d]);
        out[d] = ir::simplify(v);
        stride = ir::simplify(ir::mul(stride, shape[d]));
    }
    return out;
}

std::vector<ir::Stmt> unravel(const ir::Expr& flat, const std::vector<ir::Var>& axes,
                              const std::vector<ir::Expr>& shape, SourceLoc loc) {
    std::vector<ir::Expr> at = unravel_indices(flat, std::vector<ir::Expr>(shape.begin(), shape.begin() + axes.size()));
    std::vector<ir::Stmt> out;
    for (size_t d = 0; d < axes.size(); ++d) out.push_back(ir::Decl::make(loc, axes[d], at[d], true));
    return out;
}

void schedule_injective(const Node& n, ir::Kernel& k) {
    const Shape& shape = n.buffer->shape;
    ir::Expr total = numel(shape);
    k.grid = {ceil_div(total, kThreads)};
    k.block = {ir::i32(kThreads)};
    std::vector<ir::Stmt> body;
    ir::Var idx = flat_index(body, n.loc);
    std::vector<ir::Stmt> inner = unravel(idx, n.compute.axes, shape, n.loc);
    std::vector<ir::Expr> at(n.compute.axes.begin(), n.compute.axes.end());
    inner.push_back(ir::Store::make(n.loc, n.buffer, at, n.compute.value));
    body.push_back(ir::If::make(n.loc, ir::lt(idx, total), block(n.loc, inner), nullptr));
    k.body = block(n.loc, body);
    vectorize_injective(n, k);
}

namespace {

enum class Strategy { ThreadPerOutput, WarpPerOutput, BlockPerOutput };

// Some load that streams through the reduction (an index uses a reduction
// variable) has a last index following the innermost output axis: neighbouring
// threads, one per output, read neighbouring elements.
bool coalesced_across_outputs(const Compute& c) {
    bool found = false;
    const Reduction& r = *c.reduction;
    replace_loads(r.body, [&](const ir::Load& l) -> ir::Expr {
        bool stream = false;
        for (const ir::Expr& i : l.indices)
            for (const ir::Var& v : r.vars) stream |= uses(i, v);
        if (stream && !l.indices.empty() && !c.axes.empty() && uses(l.indices.back(), c.axes.back())) found = true;
        return nullptr;
    });
    return found;
}

// Threads of a block read memory side by side: along the outputs when a load
// allows it (column sums, p @ v in attention, convolutions), else along the
// reduction (rows), by a warp when the reduction is short, else by the block.
Strategy strategy(const Compute& c) {
    if (coalesced_across_outputs(c) || !contiguous_rows(c)) return Strategy::ThreadPerOutput;
    auto extent = ir::const_int(extent_of(*c.reduction));
    return extent && *extent <= 256 ? Strategy::WarpPerOutput : Strategy::BlockPerOutput;
}

}  // namespace

void schedule_reduction(const Node& n, ir::Kernel& k) {
    const Compute& c = n.compute;
    const Reduction& r = *c.reduction;
    SourceLoc loc = n.loc;
    const Shape& shape = n.buffer->shape;
    ir::Expr total = numel(shape);
    std::vector<ir::Expr> at(c.axes.begin(), c.axes.end());
    std::vector<ir::Stmt> body;

    Strategy how = strategy(c);
    if (how == Strategy::WarpPerOutput) {
        // One warp per output element: 8 outputs per block, lanes stride over the reduction.
        constexpr int warps = kThreads / 32;
        k.grid = {ceil_div(total, warps)};
        k.block = {ir::i32(kThreads)};
        ir::Var out = ir::make_var(ScalarType::I32, "out_idx");
        body.push_back(
            ir::Decl::make(loc, out, ir::add(ir::mul(bid(), ir::i32(warps)), ir::div(tid(), ir::i32(32))), true));
        std::vector<ir::Stmt> inner = unravel(out, c.axes, shape, loc);
        inner.push_back(ir::Decl::make(loc, r.acc, r.init(), false));
        ir::Var ri = ir::make_var(ScalarType::I32, "r");
        std::vector<ir::Stmt> point = reduction_point(r, ri, loc);
        point.push_back(ir::Assign::make(loc, r.acc, r.combine(r.acc, r.body)));
        inner.push_back(
            ir::For::make(loc, ri, ir::mod(tid(), ir::i32(32)), extent_of(r), ir::i32(32), false, block(loc, point)));
        warp_reduce(r, inner, loc);
        ir::Expr lane0 = ir::eq(ir::mod(tid(), ir::i32(32)), ir::i32(0));
        inner.push_back(ir::If::make(loc, lane0, ir::Store::make(loc, n.buffer, at, c.value), nullptr));
        body.push_back(ir::If::make(loc, ir::lt(out, total), block(loc, inner), nullptr));  // uniform per warp
        k.body = block(loc, body);
        return;
    }
    if (how == Strategy::ThreadPerOutput) {
        // One thread per output element.
        k.grid = {ceil_div(total, kThreads)};
        k.block = {ir::i32(kThreads)};
        ir::Var idx = flat_index(body, loc);
        std::vector<ir::Stmt> inner = unravel(idx, c.axes, shape, loc);
        inner.push_back(ir::Decl::make(loc, r.acc, r.init(), false));
        ir::Stmt loop = ir::Assign::make(loc, r.acc, r.combine(r.acc, r.body));
        for (size_t i = r.vars.size(); i-- > 0;)
            loop = ir::For::make(loc, r.vars[i], r.lo[i], r.hi[i], ir::i32(1), false, loop);
        inner.push_back(loop);
        inner.push_back(ir::Store::make(loc, n.buffer, at, c.value));
        body.push_back(ir::If::make(loc, ir::lt(idx, total), block(loc, inner), nullptr));
        k.body = block(loc, body);
        return;
    }

    // One block per output element.
    k.grid = {total};
    k.block = {ir::i32(kThreads)};
    ir::Var out = ir::make_var(ScalarType::I32, "out_idx");
    body.push_back(ir::Decl::make(loc, out, bid(), true));
    for (ir::Stmt& s : unravel(out, c.axes, shape, loc)) body.push_back(s);
    ir::Buffer partial = partial_buffer(r.acc->type);
    body.push_back(ir::Alloc::make(loc, partial));
    block_reduce(r, partial,
                 {ir::If::make(loc, ir::eq(tid(), ir::i32(0)), ir::Store::make(loc, n.buffer, at, c.value), nullptr)},
                 loc, body);
    k.body = block(loc, body);
}

}  // namespace hds::graph
