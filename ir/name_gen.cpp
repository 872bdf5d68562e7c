// name_gen.cpp — collects used names and hands out unused ones.
#include "ir/name_gen.h"

#include "ir/ir_visitor.h"

namespace hds::ir {

namespace {
class NameCollector : public IRVisitor {
  public:
    explicit NameCollector(std::set<std::string>& used) : used_(used) {}

  protected:
    void visit(const VarNode* v) override { used_.insert(v->name); }
    void visit(const Load* l) override {
        used_.insert(l->buffer->name);
        IRVisitor::visit(l);
    }
    void visit(const Decl* d) override {
        used_.insert(d->var->name);
        IRVisitor::visit(d);
    }
    void visit(const For* f) override {
        used_.insert(f->var->name);
        IRVisitor::visit(f);
    }
    void visit(const MapFor* m) override {
        for (const Var& v : m->vars) used_.insert(v->name);
        IRVisitor::visit(m);
    }
    void visit(const Alloc* a) override { used_.insert(a->buffer->name); }

  private:
    std::set<std::string>& used_;
};
}  // namespace

NameGen::NameGen(const Stmt& body) {
    NameCollector c(used_);
    c.visit_stmt(body);
}

std::string NameGen::fresh(const std::string& base) {
    std::string name = base;
    for (int n = 2; used_.count(name); ++n) name = base + "_" + std::to_string(n);
    used_.insert(name);
    return name;
}

}  // namespace hds::ir
