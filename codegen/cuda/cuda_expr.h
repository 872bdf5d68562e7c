// cuda_expr.h — spells IR expressions as CUDA C++.
#pragma once

#include "ir/expr_printer.h"

namespace hds::codegen {

class CudaExprPrinter : public ir::ExprPrinter {
  protected:
    std::string var(const ir::VarNode* v) override;
    std::string int_imm(const ir::IntImm* i) override;
    std::string float_imm(const ir::FloatImm* f) override;
    std::string special(const ir::SpecialReg* s) override;
    std::string cast(const ir::Cast* c, const std::string& value) override;
    std::string load(const ir::Load* l, const std::vector<std::string>& indices) override;
    std::string call(const ir::Call* c, const std::vector<std::string>& args) override;
};

// Launchers evaluate grid/block sizes in 64-bit: size variables are widened.
class LauncherExprPrinter : public CudaExprPrinter {
  protected:
    std::string var(const ir::VarNode* v) override;
    // min/max take 64-bit arguments (host overloads would be ambiguous for int and long long).
    std::string call(const ir::Call* c, const std::vector<std::string>& args) override;
};

// `buf[i]` or `buf[i][j]` for an access with already printed indices.
std::string cuda_access(const ir::Buffer& b, const std::vector<std::string>& indices);

}  // namespace hds::codegen
