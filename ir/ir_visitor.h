// ir_visitor.h — read-only traversal of IR. Override the visit() overloads you
// care about; the defaults visit every child.
#pragma once

#include "ir/ir.h"

namespace hds::ir {

class IRVisitor {
  public:
    virtual ~IRVisitor() = default;
    void visit_expr(const Expr& e);
    void visit_stmt(const Stmt& s);

  protected:
    virtual void visit(const IntImm*) {}
    virtual void visit(const FloatImm*) {}
    virtual void visit(const BoolImm*) {}
    virtual void visit(const VarNode*) {}
    virtual void visit(const SpecialReg*) {}
    virtual void visit(const Cast* op) { visit_expr(op->value); }
    virtual void visit(const Unary* op) { visit_expr(op->a); }
    virtual void visit(const Binary* op);
    virtual void visit(const Select* op);
    virtual void visit(const Load* op);
    virtual void visit(const Call* op);

    virtual void visit(const Decl* op) { visit_expr(op->init); }
    virtual void visit(const Assign* op) { visit_expr(op->value); }
    virtual void visit(const Store* op);
    virtual void visit(const Alloc*) {}
    virtual void visit(const For* op);
    virtual void visit(const MapFor* op);
    virtual void visit(const If* op);
    virtual void visit(const Block* op);
    virtual void visit(const Evaluate* op) { visit_expr(op->value); }
    virtual void visit(const Return* op);
    virtual void visit(const Jump*) {}
};

// The oldest target the built-ins called in `body` run on: 0 (any), 80 (sm_80) or 90 (sm_90a).
int required_arch(const Stmt& body);
// ... and of a kernel: its body's, or 90 for a kernel launched in clusters.
int required_arch(const Kernel& k);

// The bytes of a kernel's shared arrays as the emitted code lays them out (each at
// shared_array_align of its type, in order; 1024-byte aligned in kernels of sm_90a).
int64_t shared_bytes(const Kernel& k);

// The global tensors `body` reads or writes with vector copies (copy_4/8/16,
// copy_vec4) or copies with cp.async, in order of appearance: their launchers
// require 16-byte alignment.
std::vector<Buffer> vector_copied_globals(const Stmt& body);

}  // namespace hds::ir
