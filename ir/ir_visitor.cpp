// ir_visitor.cpp — kind dispatch and default child traversal.
#include "ir/ir_visitor.h"

#include <algorithm>

#include "ir/builtins.h"

namespace hds::ir {

void IRVisitor::visit_expr(const Expr& e) {
    if (!e) return;
    switch (e->kind) {
        case ExprKind::IntImm:
            return visit(static_cast<const IntImm*>(e.get()));
        case ExprKind::FloatImm:
            return visit(static_cast<const FloatImm*>(e.get()));
        case ExprKind::BoolImm:
            return visit(static_cast<const BoolImm*>(e.get()));
        case ExprKind::Var:
            return visit(static_cast<const VarNode*>(e.get()));
        case ExprKind::SpecialReg:
            return visit(static_cast<const SpecialReg*>(e.get()));
        case ExprKind::Cast:
            return visit(static_cast<const Cast*>(e.get()));
        case ExprKind::Unary:
            return visit(static_cast<const Unary*>(e.get()));
        case ExprKind::Binary:
            return visit(static_cast<const Binary*>(e.get()));
        case ExprKind::Select:
            return visit(static_cast<const Select*>(e.get()));
        case ExprKind::Load:
            return visit(static_cast<const Load*>(e.get()));
        case ExprKind::Call:
            return visit(static_cast<const Call*>(e.get()));
    }
}

void IRVisitor::visit_stmt(const Stmt& s) {
    if (!s) return;
    switch (s->kind) {
        case StmtKind::Decl:
            return visit(static_cast<const Decl*>(s.get()));
        case StmtKind::Assign:
            return visit(static_cast<const Assign*>(s.get()));
        case StmtKind::Store:
            return visit(static_cast<const Store*>(s.get()));
        case StmtKind::Alloc:
            return visit(static_cast<const Alloc*>(s.get()));
        case StmtKind::For:
            return visit(static_cast<const For*>(s.get()));
        case StmtKind::MapFor:
            return visit(static_cast<const MapFor*>(s.get()));
        case StmtKind::If:
            return visit(static_cast<const If*>(s.get()));
        case StmtKind::Block:
            return visit(static_cast<const Block*>(s.get()));
        case StmtKind::Evaluate:
            return visit(static_cast<const Evaluate*>(s.get()));
        case StmtKind::Return:
            return visit(static_cast<const Return*>(s.get()));
        case StmtKind::Break:
        case StmtKind::Continue:
            return visit(static_cast<const Jump*>(s.get()));
    }
}

void IRVisitor::visit(const Binary* op) {
    visit_expr(op->a);
    visit_expr(op->b);
}
void IRVisitor::visit(const Select* op) {
    visit_expr(op->cond);
    visit_expr(op->t);
    visit_expr(op->f);
}
void IRVisitor::visit(const Load* op) {
    for (const Expr& i : op->indices) visit_expr(i);
}
void IRVisitor::visit(const Call* op) {
    for (const Expr& a : op->args) visit_expr(a);
}
void IRVisitor::visit(const Store* op) {
    for (const Expr& i : op->indices) visit_expr(i);
    visit_expr(op->value);
}
void IRVisitor::visit(const For* op) {
    visit_expr(op->lo);
    visit_expr(op->hi);
    visit_expr(op->step);
    visit_stmt(op->body);
}
void IRVisitor::visit(const MapFor* op) {
    visit_expr(op->worker);
    visit_stmt(op->body);
}
void IRVisitor::visit(const If* op) {
    visit_expr(op->cond);
    visit_stmt(op->then_s);
    visit_stmt(op->else_s);
}
void IRVisitor::visit(const Block* op) {
    for (const Stmt& s : op->stmts) visit_stmt(s);
}
void IRVisitor::visit(const Return* op) {
    visit_expr(op->value);
}

int required_arch(const Stmt& body) {
    struct Finder : IRVisitor {
        int arch = 0;
        void visit(const Call* c) override {
            IRVisitor::visit(c);
            if (c->builtin != Builtin::DeviceFn) arch = std::max(arch, builtin_min_arch(c->builtin));
        }
    } f;
    f.visit_stmt(body);
    return f.arch;
}

int required_arch(const Kernel& k) {
    return std::max(required_arch(k.body), k.cluster > 1 || k.cluster_per_call ? 90 : 0);
}

int64_t shared_bytes(const Kernel& k) {
    struct Sum : IRVisitor {
        bool sm90 = false;
        int64_t total = 0;
        void visit(const Alloc* a) override {
            if (a->buffer->scope == Scope::Shared) total = shared_array_end(total, a->buffer, sm90);
        }
    } s;
    s.sm90 = required_arch(k) >= 90;
    s.visit_stmt(k.body);
    return s.total;
}

std::vector<Buffer> vector_copied_globals(const Stmt& body) {
    struct Finder : IRVisitor {
        std::vector<Buffer> found;
        void visit(const Call* c) override {
            IRVisitor::visit(c);
            // cp.async's source: 16 bytes of global memory (its third argument is a count).
            std::vector<Expr> refs = c->builtin == Builtin::CpAsync16 ? std::vector<Expr>{c->args.at(1)} : c->args;
            if (copy_bytes(*c) == 0 && c->builtin != Builtin::CpAsync16) return;
            for (const Expr& a : refs) {
                const Buffer& b = as<Load>(a)->buffer;
                if (b->scope == Scope::Global && std::find(found.begin(), found.end(), b) == found.end())
                    found.push_back(b);
            }
        }
    } f;
    f.visit_stmt(body);
    return f.found;
}

}  // namespace hds::ir
