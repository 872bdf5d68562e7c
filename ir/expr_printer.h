// expr_printer.h — prints IR expressions in C-like infix syntax with only the
// parentheses precedence requires (plus the ones clang would ask for around
// mixed && / || and bitwise operators). The IR printer and the CUDA emitter
// derive from it and override how leaves, casts, loads and calls are spelled.
#pragma once

#include <string>
#include <vector>

#include "ir/ir.h"

namespace hds::ir {

class ExprPrinter {
  public:
    virtual ~ExprPrinter() = default;
    std::string print(const Expr& e);

  protected:
    virtual std::string var(const VarNode* v) { return v->name; }
    virtual std::string int_imm(const IntImm* i);
    virtual std::string float_imm(const FloatImm* f);
    virtual std::string special(const SpecialReg* s) { return s->cuda_name(); }
    virtual std::string cast(const Cast* c, const std::string& value) = 0;
    virtual std::string load(const Load* l, const std::vector<std::string>& indices) = 0;
    virtual std::string call(const Call* c, const std::vector<std::string>& args) = 0;

    static int precedence(const Expr& e);
    // Prints `e` with parentheses if its precedence is below `min_prec`.
    std::string print_at(const Expr& e, int min_prec);
};

// Shortest decimal text that reads back as the same double.
std::string float_text(double v);

}  // namespace hds::ir
