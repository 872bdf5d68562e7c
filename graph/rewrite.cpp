// rewrite.cpp — variable substitution and load replacement over IR.
#include "graph/rewrite.h"

#include "ir/internal_error.h"
#include "ir/ir_mutator.h"

namespace hds::graph {

namespace {

class Substituter : public ir::IRMutator {
  public:
    explicit Substituter(const VarMap& m) : m_(m) {}

  protected:
    ir::Expr visit(const ir::VarNode* v, const ir::Expr& self) override {
        auto it = m_.find(v);
        return it == m_.end() ? self : it->second;
    }

  private:
    const VarMap& m_;
};

class LoadReplacer : public ir::IRMutator {
  public:
    explicit LoadReplacer(const LoadFn& f) : f_(f) {}

  protected:
    ir::Expr visit(const ir::Load* op, const ir::Expr& self) override {
        ir::Expr rebuilt = ir::IRMutator::visit(op, self);  // indices first
        if (ir::Expr r = f_(*ir::as<ir::Load>(rebuilt))) return r;
        return rebuilt;
    }

  private:
    const LoadFn& f_;
};

class CopyScalarizer : public ir::IRMutator {
  public:
    explicit CopyScalarizer(const ir::Buffer& src) : src_(src) {}

  protected:
    ir::Stmt visit(const ir::Evaluate* op, const ir::Stmt& self) override {
        auto* c = ir::as<ir::Call>(op->value);
        if (!c || c->builtin != Builtin::CopyVec4) return self;
        auto* dst = ir::as<ir::Load>(c->args[0]);
        auto* src = ir::as<ir::Load>(c->args[1]);
        if (src->buffer != src_) return self;
        auto shifted = [](const ir::Load& l, int64_t i) {
            std::vector<ir::Expr> at = l.indices;
            at.back() = ir::add(at.back(), ir::i32(i));
            return at;
        };
        std::vector<ir::Stmt> stores;
        for (int64_t i = 0; i < 4; ++i)
            stores.push_back(ir::Store::make(op->loc, dst->buffer, shifted(*dst, i),
                                             ir::Load::make(src->buffer, shifted(*src, i), src->loc)));
        return ir::Block::make(op->loc, stores);
    }

  private:
    const ir::Buffer& src_;
};

}  // namespace

ir::Stmt scalarize_copies(const ir::Stmt& s, const ir::Buffer& src) {
    return CopyScalarizer(src).mutate(s);
}

ir::Expr substitute(const ir::Expr& e, const VarMap& m) {
    return m.empty() ? e : Substituter(m).mutate(e);
}
ir::Stmt substitute(const ir::Stmt& s, const VarMap& m) {
    return m.empty() ? s : Substituter(m).mutate(s);
}
ir::Expr replace_loads(const ir::Expr& e, const LoadFn& f) {
    return LoadReplacer(f).mutate(e);
}
ir::Stmt replace_loads(const ir::Stmt& s, const LoadFn& f) {
    return LoadReplacer(f).mutate(s);
}

void rewrite_compute(Compute& c, const std::function<ir::Expr(const ir::Expr&)>& f) {
    c.value = f(c.value);
    if (!c.reduction) return;
    Reduction& r = *c.reduction;
    r.body = f(r.body);
    for (ir::Expr& e : r.lo) e = f(e);
    for (ir::Expr& e : r.hi) e = f(e);
}

ir::Expr value_at(const Compute& c, const std::vector<ir::Expr>& indices) {
    HDS_CHECK(c.injective(), "value_at of a reduction");
    HDS_CHECK(indices.size() == c.axes.size(), "value_at with the wrong number of indices");
    VarMap m;
    for (size_t d = 0; d < indices.size(); ++d) m[c.axes[d].get()] = indices[d];
    return substitute(c.value, m);
}

ir::Expr inline_producer(const ir::Expr& e, const Node& producer) {
    return replace_loads(e, [&](const ir::Load& l) -> ir::Expr {
        if (l.buffer != producer.buffer) return nullptr;
        if (producer.kind == Node::Kind::Constant) return producer.constant;
        return value_at(producer.compute, l.indices);
    });
}

}  // namespace hds::graph
