// ir_mutator.h — IR -> IR rewriting. mutate() rebuilds a node only when one of
// its children changed, so unchanged subtrees stay shared (Halide's IRMutator).
#pragma once

#include "ir/ir.h"

namespace hds::ir {

class IRMutator {
  public:
    virtual ~IRMutator() = default;
    virtual Expr mutate(const Expr& e);
    virtual Stmt mutate(const Stmt& s);

  protected:
    std::vector<Expr> mutate_all(const std::vector<Expr>& v, bool* changed);

    virtual Expr visit(const IntImm*, const Expr& self) { return self; }
    virtual Expr visit(const FloatImm*, const Expr& self) { return self; }
    virtual Expr visit(const BoolImm*, const Expr& self) { return self; }
    virtual Expr visit(const VarNode*, const Expr& self) { return self; }
    virtual Expr visit(const SpecialReg*, const Expr& self) { return self; }
    virtual Expr visit(const Cast* op, const Expr& self);
    virtual Expr visit(const Unary* op, const Expr& self);
    virtual Expr visit(const Binary* op, const Expr& self);
    virtual Expr visit(const Select* op, const Expr& self);
    virtual Expr visit(const Load* op, const Expr& self);
    virtual Expr visit(const Call* op, const Expr& self);

    virtual Stmt visit(const Decl* op, const Stmt& self);
    virtual Stmt visit(const Assign* op, const Stmt& self);
    virtual Stmt visit(const Store* op, const Stmt& self);
    virtual Stmt visit(const Alloc*, const Stmt& self) { return self; }
    virtual Stmt visit(const For* op, const Stmt& self);
    virtual Stmt visit(const MapFor* op, const Stmt& self);
    virtual Stmt visit(const If* op, const Stmt& self);
    virtual Stmt visit(const Block* op, const Stmt& self);
    virtual Stmt visit(const Evaluate* op, const Stmt& self);
    virtual Stmt visit(const Return* op, const Stmt& self);
    virtual Stmt visit(const Jump*, const Stmt& self) { return self; }
};

}  // namespace hds::ir
