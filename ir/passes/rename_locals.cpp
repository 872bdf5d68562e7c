// rename_locals.cpp — gives the kernel's local variables and arrays that share
// a name with one of its parameters (or another name the caller reserves) a
// fresh name (`r` -> `r_2`). A graph's schedule kernel is written in its own
// .hds file, so its locals (`r`, `w`, `lane`) may meet the graph's tensors
// when an epilogue reads them: in C++ the local would hide the parameter.
#include <map>

#include "ir/ir_mutator.h"
#include "ir/name_gen.h"
#include "ir/passes/passes.h"

namespace hds::ir {

namespace {

class RenameLocals : public IRMutator {
  public:
    RenameLocals(const Stmt& body, const std::set<std::string>& taken) : taken_(taken), names_(body) {
        for (const std::string& t : taken) names_.reserve(t);
    }

  protected:
    Expr visit(const VarNode* op, const Expr& self) override {
        auto it = vars_.find(op);
        return it == vars_.end() ? self : it->second;
    }
    Expr visit(const Load* op, const Expr& self) override {
        Expr e = IRMutator::visit(op, self);
        auto* l = as<Load>(e);
        auto it = buffers_.find(l->buffer.get());
        return it == buffers_.end() ? e : Load::make(it->second, l->indices, l->loc);
    }
    Stmt visit(const Store* op, const Stmt& self) override {
        Stmt s = IRMutator::visit(op, self);
        auto* st = as<Store>(s);
        auto it = buffers_.find(st->buffer.get());
        return it == buffers_.end() ? s : Store::make(st->loc, it->second, st->indices, st->value, st->op);
    }
    Stmt visit(const Alloc* op, const Stmt& self) override {
        if (!taken_.count(op->buffer->name)) return self;
        const BufferNode& b = *op->buffer;
        Buffer fresh = make_buffer(names_.fresh(b.name), b.elem, b.shape, b.scope);
        buffers_[op->buffer.get()] = fresh;
        return Alloc::make(op->loc, fresh);
    }
    Stmt visit(const Decl* op, const Stmt& self) override {
        Expr init = mutate(op->init);
        Var v = rename(op->var);
        if (v == op->var && init == op->init) return self;
        return Decl::make(op->loc, v, init, op->is_const);
    }
    Stmt visit(const Assign* op, const Stmt& self) override {
        Stmt s = IRMutator::visit(op, self);
        auto* a = as<Assign>(s);
        auto it = vars_.find(a->var.get());
        return it == vars_.end() ? s : Assign::make(a->loc, it->second, a->value, a->op);
    }
    Stmt visit(const For* op, const Stmt& self) override {
        Var v = rename(op->var);
        Stmt s = IRMutator::visit(op, self);
        if (v == op->var) return s;
        auto* f = as<For>(s);
        return For::make(f->loc, v, f->lo, f->hi, f->step, f->unroll, f->body);
    }
    Stmt visit(const MapFor* op, const Stmt& self) override {
        std::vector<Var> vars;
        bool changed = false;
        for (const Var& v : op->vars) {
            vars.push_back(rename(v));
            changed |= vars.back() != v;
        }
        Stmt s = IRMutator::visit(op, self);
        if (!changed) return s;
        auto* m = as<MapFor>(s);
        return MapFor::make(m->loc, vars, m->mapping, m->worker, m->unroll, m->body);
    }

  private:
    Var rename(const Var& v) {
        if (!taken_.count(v->name)) return v;
        Var fresh = make_var(v->type, names_.fresh(v->name));
        vars_[v.get()] = fresh;
        return fresh;
    }

    const std::set<std::string>& taken_;
    NameGen names_;
    std::map<const VarNode*, Var> vars_;
    std::map<const BufferNode*, Buffer> buffers_;
};

}  // namespace

Stmt rename_locals(const Stmt& body, const std::set<std::string>& taken) {
    if (!body) return body;
    return RenameLocals(body, taken).mutate(body);
}

}  // namespace hds::ir
