// rename_locals.cpp — gives the kernel's local variables and arrays that share
// a name with one of its parameters (or another name the caller reserves) a
// fresh name (`r` -> `r_2`). A graph's schedule kernel is written in its own
// .hds file, so its locals (`r`, `w`, `lane`) may meet the graph's tensors
// when an epilogue reads them: in C++ the local would hide the parameter.
// So does a loop variable that hides a variable of an enclosing scope (`for n`
// inside the scope of a `var n`): the language allows it, and C++ does too, but
// nvcc warns where the outer variable is used after the loop (#780-D), which
// -Werror builds refuse. (Other declarations that hide an outer one keep their
// names: C++ scopes them as the source does, and no compiler warns.)
#include <map>
#include <vector>

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
    Stmt visit(const Block* op, const Stmt& self) override {
        scopes_.emplace_back();
        Stmt s = IRMutator::visit(op, self);
        scopes_.pop_back();
        return s;
    }
    Stmt visit(const Alloc* op, const Stmt& self) override {
        scopes_.back().insert(op->buffer->name);
        if (!taken_.count(op->buffer->name)) return self;
        const BufferNode& b = *op->buffer;
        Buffer fresh = make_buffer(names_.fresh(b.name), b.elem, b.shape, b.scope);
        scopes_.back().insert(fresh->name);
        buffers_[op->buffer.get()] = fresh;
        return Alloc::make(op->loc, fresh);
    }
    Stmt visit(const Decl* op, const Stmt& self) override {
        Expr init = mutate(op->init);
        Var v = rename(op->var, false);
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
        scopes_.emplace_back();  // the loop's: its variable and body
        Var v = rename(op->var, true);
        Stmt s = IRMutator::visit(op, self);
        scopes_.pop_back();
        if (v == op->var) return s;
        auto* f = as<For>(s);
        return For::make(f->loc, v, f->lo, f->hi, f->step, f->unroll, f->body);
    }
    Stmt visit(const MapFor* op, const Stmt& self) override {
        std::vector<Var> vars;
        bool changed = false;
        scopes_.emplace_back();
        for (const Var& v : op->vars) {
            vars.push_back(rename(v, false));
            changed |= vars.back() != v;
        }
        Stmt s = IRMutator::visit(op, self);
        scopes_.pop_back();
        if (!changed) return s;
        auto* m = as<MapFor>(s);
        return MapFor::make(m->loc, vars, m->mapping, m->worker, m->unroll, m->body);
    }

  private:
    // Whether a variable of `name` is declared in an enclosing scope.
    bool visible(const std::string& name) const {
        for (const std::set<std::string>& s : scopes_)
            if (s.count(name)) return true;
        return false;
    }
    // The variable declared here: `v`, or a fresh one where `v` would hide a reserved name
    // or (a loop variable: `loop`) one of an enclosing scope.
    Var rename(const Var& v, bool loop) {
        if (!taken_.count(v->name) && !(loop && visible(v->name))) {
            scopes_.back().insert(v->name);
            return v;
        }
        Var fresh = make_var(v->type, names_.fresh(v->name));
        scopes_.back().insert(fresh->name);
        vars_[v.get()] = fresh;
        return fresh;
    }

    const std::set<std::string>& taken_;
    std::vector<std::set<std::string>> scopes_{1};  // names declared in each enclosing scope
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
