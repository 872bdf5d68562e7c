// strided_view.cpp — affine views read only by TMA (see strided_view.h).
#include "graph/strided_view.h"

#include <algorithm>

#include "graph/rewrite.h"
#include "graph/schedule.h"
#include "graph/shapes.h"
#include "ir/builtins.h"
#include "ir/ir_visitor.h"
#include "ir/passes/passes.h"

namespace hds::graph {

namespace {

bool multiple_of_16_bytes(const ir::Expr& elements, ScalarType elem) {
    int64_t per16 = 16 / byte_size(elem);
    return ir::const_bool(divisible(ir::simplify(elements), per16)) == std::optional<bool>(true);
}

bool uses_axis(const ir::Expr& e, const std::vector<ir::Var>& axes) {
    return std::any_of(axes.begin(), axes.end(), [&](const ir::Var& a) { return uses(e, a); });
}

// Whether `e` is a sum of terms each of which is one axis times a factor free of
// axes, or free of axes (no division, remainder or product of axes).
bool affine(const ir::Expr& e, const std::vector<ir::Var>& axes) {
    if (!uses_axis(e, axes)) return true;
    if (ir::as<ir::VarNode>(e)) return true;
    auto* b = ir::as<ir::Binary>(e);
    if (!b) return false;
    if (b->op == ir::BinOp::Add || b->op == ir::BinOp::Sub) return affine(b->a, axes) && affine(b->b, axes);
    if (b->op != ir::BinOp::Mul) return false;
    return (!uses_axis(b->a, axes) && affine(b->b, axes)) || (!uses_axis(b->b, axes) && affine(b->a, axes));
}

}  // namespace

std::optional<AffineForm> affine_form(const Node& n) {
    if (n.kind != Node::Kind::Compute || !n.compute.injective() || n.compute.axes.empty()) return std::nullopt;
    auto* l = ir::as<ir::Load>(n.compute.value);
    if (!l || l->buffer->elem != n.buffer->elem || l->buffer->scope != ir::Scope::Global) return std::nullopt;
    const std::vector<ir::Var>& axes = n.compute.axes;
    ir::Expr offset = row_major_offset(l->indices, l->buffer->shape);
    if (!affine(offset, axes)) return std::nullopt;
    // The offset at axes (0, .., 0), and each axis' coefficient: the offset at the
    // axis 1, the others 0, minus that.
    VarMap zero;
    for (const ir::Var& a : axes) zero[a.get()] = ir::i32(0);
    AffineForm form{l->buffer, ir::simplify(substitute(offset, zero)), {}};
    for (const ir::Var& a : axes) {
        VarMap unit = zero;
        unit[a.get()] = ir::i32(1);
        ir::Expr stride = ir::simplify(ir::sub(substitute(offset, unit), form.offset));
        if (uses_axis(stride, axes)) return std::nullopt;
        form.strides.push_back(stride);
    }
    if (ir::const_int(form.strides.back()) != std::optional<int64_t>(1)) return std::nullopt;
    if (!multiple_of_16_bytes(form.offset, n.buffer->elem)) return std::nullopt;
    for (size_t d = 0; d + 1 < form.strides.size(); ++d)
        if (!multiple_of_16_bytes(form.strides[d], n.buffer->elem)) return std::nullopt;
    return form;
}

bool only_tma_reads(const ir::Stmt& body, const ir::Buffer& b) {
    struct Finder : ir::IRVisitor {
        const ir::Buffer* b;
        bool tma = false, other = false;
        void visit(const ir::Load* l) override {
            ir::IRVisitor::visit(l);
            other |= l->buffer == *b;
        }
        void visit(const ir::Store* s) override {
            ir::IRVisitor::visit(s);
            other |= s->buffer == *b;
        }
        void visit(const ir::Call* c) override {
            auto* src = c->args.size() > 1 ? ir::as<ir::Load>(c->args[1]) : nullptr;
            if (!is_tma_load(c->builtin) || !src || src->buffer != *b) return ir::IRVisitor::visit(c);
            tma = true;
            for (size_t i = 0; i < c->args.size(); ++i)
                if (i != 1) visit_expr(c->args[i]);
            for (const ir::Expr& i : src->indices) visit_expr(i);
        }
    } f;
    f.b = &b;
    f.visit_stmt(body);
    return f.tma && !f.other;
}

}  // namespace hds::graph
