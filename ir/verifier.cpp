// verifier.cpp — IR invariant checks (see verifier.h).
#include "ir/verifier.h"

#include <unordered_set>
#include <vector>

#include "ir/internal_error.h"
#include "ir/ir_visitor.h"

namespace hds::ir {

namespace {

class Verifier : public IRVisitor {
  public:
    Verifier(VerifyStage stage, std::string where) : stage_(stage), where_(std::move(where)) {}

    void define(const Var& v, bool is_mutable) {
        scopes_.back().push_back(v.get());
        if (is_mutable) mutable_.insert(v.get());
    }
    void define_buffer(const Buffer& b) { buffers_.insert(b.get()); }
    void push() { scopes_.emplace_back(); }
    void pop() { scopes_.pop_back(); }

  protected:
    void fail(const std::string& what) { throw InternalError("IR verifier after " + where_ + ": " + what); }

    bool in_scope(const VarNode* v) const {
        for (const auto& s : scopes_)
            for (const VarNode* x : s)
                if (x == v) return true;
        return false;
    }

    void visit(const VarNode* v) override {
        if (!in_scope(v)) fail("variable '" + v->name + "' used outside its scope");
    }
    void visit(const Load* l) override {
        access(l->buffer, l->indices.size());
        IRVisitor::visit(l);
    }
    void visit(const Call* c) override {
        if (!is_tma_load(c->builtin)) return IRVisitor::visit(c);
        // The TMA source keeps its coordinates (see flatten_indices).
        for (size_t a = 0; a < c->args.size(); ++a) {
            if (a != 1) visit_expr(c->args[a]);
        }
        for (const Expr& i : as<Load>(c->args.at(1))->indices) visit_expr(i);
    }
    void visit(const Store* s) override {
        access(s->buffer, s->indices.size());
        IRVisitor::visit(s);
    }
    void visit(const Alloc* a) override { define_buffer(a->buffer); }
    void visit(const Decl* d) override {
        visit_expr(d->init);
        define(d->var, !d->is_const);
    }
    void visit(const Assign* a) override {
        if (!mutable_.count(a->var.get())) fail("assignment to immutable '" + a->var->name + "'");
        visit_expr(a->value);
    }
    void visit(const For* f) override {
        visit_expr(f->lo);
        visit_expr(f->hi);
        visit_expr(f->step);
        push();
        define(f->var, false);
        ++loops_;
        visit_stmt(f->body);
        --loops_;
        pop();
    }
    void visit(const MapFor* m) override {
        if (stage_.mappings_lowered) fail("task-mapping loop survived lowering");
        visit_expr(m->worker);
        push();
        for (const Var& v : m->vars) define(v, false);
        ++loops_;
        visit_stmt(m->body);
        --loops_;
        pop();
    }
    void visit(const Block* b) override {
        push();
        IRVisitor::visit(b);
        pop();
    }
    void visit(const Jump*) override {
        if (loops_ == 0) fail("break/continue outside a loop");
    }

  private:
    void access(const Buffer& b, size_t n) {
        if (!buffers_.count(b.get())) fail("access of unknown buffer '" + b->name + "'");
        if (stage_.indices_flattened && b->scope == Scope::Global && n != 1)
            fail("global access of '" + b->name + "' not flattened");
        if (!stage_.indices_flattened && n != b->shape.size()) fail("index count of '" + b->name + "' != rank");
    }

    VerifyStage stage_;
    std::string where_;
    std::vector<std::vector<const VarNode*>> scopes_{{}};
    std::unordered_set<const VarNode*> mutable_;
    std::unordered_set<const BufferNode*> buffers_;
    int loops_ = 0;
};

}  // namespace

void verify_module(const Module& m, VerifyStage stage, const std::string& after_pass) {
    for (const DeviceFunction& f : m.functions) {
        Verifier v(stage, after_pass + " (device fn " + f.name + ")");
        for (const Var& p : f.params) v.define(p, false);
        v.visit_stmt(f.body);
    }
    for (const Kernel& k : m.kernels) {
        Verifier v(stage, after_pass + " (kernel " + k.name + ")");
        for (const Var& s : k.sizes) v.define(s, false);
        for (const KernelParam& p : k.params) {
            if (p.kind == KernelParam::Kind::Tensor)
                v.define_buffer(p.buffer);
            else
                v.define(p.var, false);
        }
        v.visit_stmt(k.body);
    }
}

}  // namespace hds::ir
