// fold_constants.cpp — literals inlined into their users, float arithmetic on
// literals evaluated, rank-0 computes of literals turned into literals.
#include <cmath>

#include "graph/passes/passes.h"
#include "graph/rewrite.h"
#include "ir/ir_mutator.h"
#include "ir/passes/passes.h"

namespace hds::graph {

namespace {

class FloatFolder : public ir::IRMutator {
  protected:
    ir::Expr visit(const ir::Binary* op, const ir::Expr& self) override {
        ir::Expr e = ir::IRMutator::visit(op, self);
        auto* b = ir::as<ir::Binary>(e);
        if (!b) return e;
        auto* x = ir::as<ir::FloatImm>(b->a);
        auto* y = ir::as<ir::FloatImm>(b->b);
        if (!x || !y) return e;
        switch (b->op) {
            case ir::BinOp::Add:
                return ir::FloatImm::make(b->type, x->value + y->value);
            case ir::BinOp::Sub:
                return ir::FloatImm::make(b->type, x->value - y->value);
            case ir::BinOp::Mul:
                return ir::FloatImm::make(b->type, x->value * y->value);
            case ir::BinOp::Div:
                return y->value == 0 ? e : ir::FloatImm::make(b->type, x->value / y->value);
            default:
                return e;
        }
    }
    ir::Expr visit(const ir::Cast* op, const ir::Expr& self) override {
        ir::Expr e = ir::IRMutator::visit(op, self);
        auto* c = ir::as<ir::Cast>(e);
        if (!c || !is_float(c->type)) return e;
        // Only conversions that are exact in the target type.
        if (auto* f = ir::as<ir::FloatImm>(c->value)) {
            if (c->type == ScalarType::F32 && static_cast<double>(static_cast<float>(f->value)) == f->value)
                return ir::FloatImm::make(c->type, f->value);
            if (c->type == ScalarType::F64) return ir::FloatImm::make(c->type, f->value);
        }
        return e;
    }
};

ir::Expr fold(const ir::Expr& e) {
    return FloatFolder().mutate(ir::simplify(e));
}

}  // namespace

void fold_constants(Graph& g) {
    for (Node* c : g.live()) {
        if (c->kind == Node::Kind::Compute && c->compute.injective() && c->buffer->shape.empty() && c != g.output) {
            ir::Expr v = fold(c->compute.value);
            if (ir::as<ir::FloatImm>(v) || ir::as<ir::IntImm>(v)) {
                c->kind = Node::Kind::Constant;
                c->constant = v;
            }
        }
        if (c->kind != Node::Kind::Constant) continue;
        for (Node* n : g.live()) {
            if (n->kind == Node::Kind::Compute)
                rewrite_compute(n->compute, [&](const ir::Expr& e) { return fold(inline_producer(e, *c)); });
            if (n->kind == Node::Kind::Anchor)
                n->anchor.body = replace_loads(
                    n->anchor.body, [&](const ir::Load& l) { return l.buffer == c->buffer ? c->constant : nullptr; });
        }
        if (c != g.output) c->dead = true;
    }
}

}  // namespace hds::graph
