// schedule.cpp — automatic schedules of injective and reduction nodes.
#include "graph/schedule.h"

#include "graph/rewrite.h"
#include "graph/shapes.h"
#include "ir/ir_visitor.h"
#include "ir/passes/passes.h"

namespace hds::graph {

namespace {

ir::Expr tid() {
    return ir::SpecialReg::make(ir::SpecialKind::ThreadIdx, 0);
}
ir::Expr bid() {
    return ir::SpecialReg::make(ir::SpecialKind::BlockIdx, 0);
}
ir::Expr lt(ir::Expr a, ir::Expr b) {
    return ir::Binary::make(ir::BinOp::Lt, std::move(a), std::move(b));
}
ir::Expr eq(ir::Expr a, ir::Expr b) {
    return ir::Binary::make(ir::BinOp::Eq, std::move(a), std::move(b));
}
ir::Expr ceil_div(const ir::Expr& a, int64_t b) {
    return ir::simplify(ir::div(ir::add(a, ir::i32(b - 1)), ir::i32(b)));
}

// `const int idx = blockIdx.x * 256 + threadIdx.x;` and the guard `idx < n`.
ir::Var flat_index(std::vector<ir::Stmt>& out, SourceLoc loc) {
    ir::Var idx = ir::make_var(ScalarType::I32, "idx");
    out.push_back(ir::Decl::make(loc, idx, ir::add(ir::mul(bid(), ir::i32(kThreads)), tid()), true));
    return idx;
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

bool uses(const ir::Expr& e, const ir::Var& v) {
    VarUses u;
    u.visit_expr(e);
    for (const ir::VarNode* x : u.found)
        if (x == v.get()) return true;
    return false;
}

// One block per output element when the first load of the body walks the
// innermost reduction variable contiguously (its last index uses that
// variable and no output axis): row reductions, softmax, norms.
bool block_per_output(const Compute& c) {
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

// acc = combine(acc, shfl_xor(acc, 16)) ... down to 1.
void warp_reduce(const Reduction& r, std::vector<ir::Stmt>& out, SourceLoc loc) {
    for (int off = 16; off >= 1; off /= 2) {
        ir::Expr other = ir::Call::make(r.acc->type, Builtin::ShflXor, {r.acc, ir::i32(off)});
        out.push_back(ir::Assign::make(loc, r.acc, r.combine(r.acc, other)));
    }
}

// Declarations of the reduction variables for the flat reduction index `flat`.
std::vector<ir::Stmt> reduction_point(const Reduction& r, const ir::Expr& flat, SourceLoc loc) {
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

}  // namespace

std::vector<ir::Stmt> unravel(const ir::Expr& flat, const std::vector<ir::Var>& axes,
                              const std::vector<ir::Expr>& shape, SourceLoc loc) {
    std::vector<ir::Stmt> out(axes.size());
    ir::Expr stride = ir::i32(1);
    for (size_t d = axes.size(); d-- > 0;) {
        ir::Expr v = ir::div(flat, stride);
        if (d > 0) v = ir::mod(v, shape[d]);
        out[d] = ir::Decl::make(loc, axes[d], ir::simplify(v), true);
        stride = ir::simplify(ir::mul(stride, shape[d]));
    }
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
    body.push_back(ir::If::make(n.loc, lt(idx, total), block(n.loc, inner), nullptr));
    k.body = block(n.loc, body);
}

void schedule_reduction(const Node& n, ir::Kernel& k) {
    const Compute& c = n.compute;
    const Reduction& r = *c.reduction;
    SourceLoc loc = n.loc;
    const Shape& shape = n.buffer->shape;
    ir::Expr total = numel(shape);
    ir::Expr extent = ir::i32(1);
    for (size_t i = 0; i < r.vars.size(); ++i) extent = ir::simplify(ir::mul(extent, ir::sub(r.hi[i], r.lo[i])));
    std::vector<ir::Expr> at(c.axes.begin(), c.axes.end());
    std::vector<ir::Stmt> body;

    if (!block_per_output(c)) {
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
        body.push_back(ir::If::make(loc, lt(idx, total), block(loc, inner), nullptr));
        k.body = block(loc, body);
        return;
    }

    // One block per output element.
    k.grid = {total};
    k.block = {ir::i32(kThreads)};
    ir::Var out = ir::make_var(ScalarType::I32, "out_idx");
    body.push_back(ir::Decl::make(loc, out, bid(), true));
    for (ir::Stmt& s : unravel(out, c.axes, shape, loc)) body.push_back(s);
    body.push_back(ir::Decl::make(loc, r.acc, r.init(), false));
    ir::Var ri = ir::make_var(ScalarType::I32, "r");
    std::vector<ir::Stmt> point = reduction_point(r, ri, loc);
    point.push_back(ir::Assign::make(loc, r.acc, r.combine(r.acc, r.body)));
    body.push_back(ir::For::make(loc, ri, tid(), extent, ir::i32(kThreads), false, block(loc, point)));
    warp_reduce(r, body, loc);
    constexpr int warps = kThreads / 32;
    ir::Buffer partial = ir::make_buffer("partial", r.acc->type, {ir::i32(warps)}, ir::Scope::Shared);
    body.push_back(ir::Alloc::make(loc, partial));
    ir::Expr lane = ir::mod(tid(), ir::i32(32)), warp = ir::div(tid(), ir::i32(32));
    body.push_back(ir::If::make(loc, eq(lane, ir::i32(0)), ir::Store::make(loc, partial, {warp}, r.acc), nullptr));
    body.push_back(ir::Evaluate::make(loc, ir::Call::make_void(Builtin::SyncThreads, {})));
    std::vector<ir::Stmt> first;
    ir::Expr mine = ir::Select::make(lt(tid(), ir::i32(warps)), ir::Load::make(partial, {tid()}), r.init());
    first.push_back(ir::Assign::make(loc, r.acc, mine));
    warp_reduce(r, first, loc);
    first.push_back(ir::If::make(loc, eq(tid(), ir::i32(0)), ir::Store::make(loc, n.buffer, at, c.value), nullptr));
    body.push_back(ir::If::make(loc, lt(tid(), ir::i32(32)), block(loc, first), nullptr));
    k.body = block(loc, body);
}

}  // namespace hds::graph
