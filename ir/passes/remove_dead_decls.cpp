// remove_dead_decls.cpp — deletes `let` declarations that nothing reads and
// whose initializer has no side effects (calls are kept), and local arrays that
// nothing reads or writes, so that emitted code has no dead temporaries (e.g.
// an unused task index of a mapping loop, or the registers of a path that a
// constant condition removed).
// Repeats until nothing changes, since removing one may free another.
#include <unordered_set>

#include "ir/ir_mutator.h"
#include "ir/ir_visitor.h"
#include "ir/passes/passes.h"

namespace hds::ir {

namespace {

class CountUses : public IRVisitor {
  public:
    std::unordered_set<const VarNode*> used;
    std::unordered_set<const BufferNode*> used_buffers;
    bool has_call = false;

  protected:
    void visit(const VarNode* v) override { used.insert(v); }
    void visit(const Load* l) override {
        used_buffers.insert(l->buffer.get());
        IRVisitor::visit(l);
    }
    void visit(const Store* s) override {
        used_buffers.insert(s->buffer.get());
        IRVisitor::visit(s);
    }
    void visit(const Call* c) override {
        has_call = true;
        IRVisitor::visit(c);
    }
    void visit(const Assign* a) override {
        used.insert(a->var.get());
        IRVisitor::visit(a);
    }
};

class RemoveDead : public IRMutator {
  public:
    RemoveDead(const std::unordered_set<const VarNode*>& used, const std::unordered_set<const BufferNode*>& buffers)
        : used_(used), buffers_(buffers) {}
    bool removed = false;

  protected:
    Stmt visit(const Alloc* op, const Stmt& self) override {
        if (buffers_.count(op->buffer.get())) return self;
        removed = true;
        return nullptr;
    }
    Stmt visit(const Decl* op, const Stmt& self) override {
        if (!op->is_const || used_.count(op->var.get())) return self;
        CountUses c;
        c.visit_expr(op->init);
        if (c.has_call) return self;
        removed = true;
        return nullptr;
    }

  private:
    const std::unordered_set<const VarNode*>& used_;
    const std::unordered_set<const BufferNode*>& buffers_;
};

}  // namespace

Stmt remove_dead_decls(const Stmt& body) {
    Stmt s = body;
    for (;;) {
        CountUses uses;
        uses.visit_stmt(s);
        RemoveDead pass(uses.used, uses.used_buffers);
        s = pass.mutate(s);
        if (!pass.removed) return s;
    }
}

}  // namespace hds::ir
