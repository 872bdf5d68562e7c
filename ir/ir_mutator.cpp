// ir_mutator.cpp — kind dispatch and copy-on-change rebuilding.
#include "ir/ir_mutator.h"

namespace hds::ir {

Expr IRMutator::mutate(const Expr& e) {
    if (!e) return e;
    switch (e->kind) {
        case ExprKind::IntImm:
            return visit(static_cast<const IntImm*>(e.get()), e);
        case ExprKind::FloatImm:
            return visit(static_cast<const FloatImm*>(e.get()), e);
        case ExprKind::BoolImm:
            return visit(static_cast<const BoolImm*>(e.get()), e);
        case ExprKind::Var:
            return visit(static_cast<const VarNode*>(e.get()), e);
        case ExprKind::SpecialReg:
            return visit(static_cast<const SpecialReg*>(e.get()), e);
        case ExprKind::Cast:
            return visit(static_cast<const Cast*>(e.get()), e);
        case ExprKind::Unary:
            return visit(static_cast<const Unary*>(e.get()), e);
        case ExprKind::Binary:
            return visit(static_cast<const Binary*>(e.get()), e);
        case ExprKind::Select:
            return visit(static_cast<const Select*>(e.get()), e);
        case ExprKind::Load:
            return visit(static_cast<const Load*>(e.get()), e);
        case ExprKind::Call:
            return visit(static_cast<const Call*>(e.get()), e);
    }
    return e;
}

Stmt IRMutator::mutate(const Stmt& s) {
    if (!s) return s;
    switch (s->kind) {
        case StmtKind::Decl:
            return visit(static_cast<const Decl*>(s.get()), s);
        case StmtKind::Assign:
            return visit(static_cast<const Assign*>(s.get()), s);
        case StmtKind::Store:
            return visit(static_cast<const Store*>(s.get()), s);
        case StmtKind::Alloc:
            return visit(static_cast<const Alloc*>(s.get()), s);
        case StmtKind::For:
            return visit(static_cast<const For*>(s.get()), s);
        case StmtKind::MapFor:
            return visit(static_cast<const MapFor*>(s.get()), s);
        case StmtKind::If:
            return visit(static_cast<const If*>(s.get()), s);
        case StmtKind::Block:
            return visit(static_cast<const Block*>(s.get()), s);
        case StmtKind::Evaluate:
            return visit(static_cast<const Evaluate*>(s.get()), s);
        case StmtKind::Return:
            return visit(static_cast<const Return*>(s.get()), s);
        case StmtKind::Break:
        case StmtKind::Continue:
            return visit(static_cast<const Jump*>(s.get()), s);
    }
    return s;
}

std::vector<Expr> IRMutator::mutate_all(const std::vector<Expr>& v, bool* changed) {
    std::vector<Expr> out;
    out.reserve(v.size());
    for (const Expr& e : v) {
        out.push_back(mutate(e));
        if (out.back() != e) *changed = true;
    }
    return out;
}

Expr IRMutator::visit(const Cast* op, const Expr& self) {
    Expr v = mutate(op->value);
    return v == op->value ? self : Cast::make(op->type, v);
}
Expr IRMutator::visit(const Unary* op, const Expr& self) {
    Expr a = mutate(op->a);
    return a == op->a ? self : Unary::make(op->op, a);
}
Expr IRMutator::visit(const Binary* op, const Expr& self) {
    Expr a = mutate(op->a), b = mutate(op->b);
    return a == op->a && b == op->b ? self : Binary::make(op->op, a, b);
}
Expr IRMutator::visit(const Select* op, const Expr& self) {
    Expr c = mutate(op->cond), t = mutate(op->t), f = mutate(op->f);
    return c == op->cond && t == op->t && f == op->f ? self : Select::make(c, t, f);
}
Expr IRMutator::visit(const Load* op, const Expr& self) {
    bool changed = false;
    auto idx = mutate_all(op->indices, &changed);
    return changed ? Load::make(op->buffer, idx, op->loc) : self;
}
Expr IRMutator::visit(const Call* op, const Expr& self) {
    bool changed = false;
    auto args = mutate_all(op->args, &changed);
    if (!changed) return self;
    return op->has_value ? Call::make(op->type, op->builtin, args, op->function)
                         : Call::make_void(op->builtin, args, op->function);
}

Stmt IRMutator::visit(const Decl* op, const Stmt& self) {
    Expr i = mutate(op->init);
    return i == op->init ? self : Decl::make(op->loc, op->var, i, op->is_const);
}
Stmt IRMutator::visit(const Assign* op, const Stmt& self) {
    Expr v = mutate(op->value);
    return v == op->value ? self : Assign::make(op->loc, op->var, v, op->op);
}
Stmt IRMutator::visit(const Store* op, const Stmt& self) {
    bool changed = false;
    auto idx = mutate_all(op->indices, &changed);
    Expr v = mutate(op->value);
    if (!changed && v == op->value) return self;
    return Store::make(op->loc, op->buffer, idx, v, op->op);
}
Stmt IRMutator::visit(const For* op, const Stmt& self) {
    Expr lo = mutate(op->lo), hi = mutate(op->hi), st = mutate(op->step);
    Stmt body = mutate(op->body);
    if (lo == op->lo && hi == op->hi && st == op->step && body == op->body) return self;
    return For::make(op->loc, op->var, lo, hi, st, op->unroll, body);
}
Stmt IRMutator::visit(const MapFor* op, const Stmt& self) {
    Expr w = mutate(op->worker);
    Stmt body = mutate(op->body);
    if (w == op->worker && body == op->body) return self;
    return MapFor::make(op->loc, op->vars, op->mapping, w, op->unroll, body);
}
Stmt IRMutator::visit(const If* op, const Stmt& self) {
    Expr c = mutate(op->cond);
    Stmt t = mutate(op->then_s), e = mutate(op->else_s);
    if (c == op->cond && t == op->then_s && e == op->else_s) return self;
    return If::make(op->loc, c, t, e, op->note);
}
Stmt IRMutator::visit(const Block* op, const Stmt& self) {
    bool changed = false;
    std::vector<Stmt> out;
    for (const Stmt& s : op->stmts) {
        Stmt m = mutate(s);
        changed |= m != s;
        if (m) out.push_back(m);  // a pass may delete a statement by returning null
    }
    return changed ? Block::make(op->loc, out) : self;
}
Stmt IRMutator::visit(const Evaluate* op, const Stmt& self) {
    Expr v = mutate(op->value);
    return v == op->value ? self : Evaluate::make(op->loc, v);
}
Stmt IRMutator::visit(const Return* op, const Stmt& self) {
    Expr v = mutate(op->value);
    return v == op->value ? self : Return::make(op->loc, v);
}

}  // namespace hds::ir
