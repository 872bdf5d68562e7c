// const_fold.h — compile-time evaluation of operators on constant values, with
// the wrap-around of the result type (integers) applied.
#pragma once

#include <optional>

#include "frontend/ast.h"

namespace hds {

// Folds `a op b` computed in type `t` (a value of kind Int, Float or Bool).
// Returns nullopt on division by zero (*div_by_zero is set) or when the
// operation has no constant meaning.
std::optional<ConstValue> fold_binary(BinaryOp op, const ConstValue& a, const ConstValue& b, const SemaType& t,
                                      bool* div_by_zero);
std::optional<ConstValue> fold_unary(UnaryOp op, const ConstValue& a);
// Converts a constant to scalar type `t` as a cast would (integers wrap,
// floats truncate toward zero).
ConstValue convert_const(const ConstValue& v, ScalarType t);
// The value `v` has once stored in float type `t` (f16, bf16, f32: round to
// nearest even, overflow to infinity, gradual underflow); f64 keeps it.
double round_to_float(double v, ScalarType t);

}  // namespace hds
