// values.h — scalar semantics of the emulator: conversions, operators and
// math built-ins on Values of a given ScalarType, following CUDA (integers
// wrap, float -> int conversion truncates and saturates, f16/bf16 round once).
#pragma once

#include <optional>

#include "codegen/cpu/machine.h"

namespace hds::emu {

// a op b for operands of type t; nullopt for integer division by zero.
std::optional<Value> apply_binary(ir::BinOp op, ScalarType t, Value a, Value b);
Value apply_unary(ir::UnOp op, ScalarType t, Value a);
// Math built-ins (min, max, abs, exp, ..., fma) on type t.
Value apply_math(Builtin b, ScalarType t, const Value* args);

}  // namespace hds::emu
