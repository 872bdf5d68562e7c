// evaluate.h — the value of an integer or bool expression over named sizes: the
// emulator's launch dimensions and the variants' sampled sizes (graph/decisions.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "ir/ir.h"

namespace hds::ir {

// nullopt where a size is missing, on a division by zero, or for an expression of
// another kind (loads, calls). Arithmetic in int64; comparisons and logic give 0 or 1.
std::optional<int64_t> evaluate(const Expr& e, const std::map<std::string, int64_t>& sizes);

}  // namespace hds::ir
