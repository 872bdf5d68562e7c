// evaluate.h — the value of an integer or bool expression over named sizes: the
// emulator's launch dimensions and the variants' sampled sizes (graph/decisions.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ir/ir.h"

namespace hds::ir {

// nullopt where a size is missing, on a division by zero, or for an expression of
// another kind (loads, calls). Arithmetic in int64; comparisons and logic give 0 or 1.
std::optional<int64_t> evaluate(const Expr& e, const std::map<std::string, int64_t>& sizes);

// `e` prepared for evaluating at many sizes, given by position in `names`: the value
// evaluate() gives with those sizes, without a name looked up or a node's kind tested
// (the variants' sampling evaluates conditions at up to 20000 points each).
class CompiledExpr {
  public:
    CompiledExpr(const Expr& e, const std::vector<std::string>& names);
    std::optional<int64_t> operator()(const std::vector<int64_t>& sizes) const { return eval(root_, sizes); }

  private:
    enum class Code { Const, Size, Unknown, Cast, Unary, Select, Binary };
    struct Node {
        Code code;
        int64_t value = 0;  // Const: the value; Size: the position
        UnOp un = UnOp::Neg;
        BinOp bin = BinOp::Add;
        int a = -1, b = -1, c = -1;  // operands (Select: condition, true, false)
    };
    int add(const Expr& e, const std::vector<std::string>& names);
    std::optional<int64_t> eval(int i, const std::vector<int64_t>& sizes) const;
    std::vector<Node> nodes_;
    int root_;
};

}  // namespace hds::ir
