// cuda_names.h — how hds types, literals and names are spelled in CUDA C++.
#pragma once

#include <string>

#include "ir/ir.h"

namespace hds::codegen {

// "float", "__half", "unsigned long long", ...
std::string cuda_type(ScalarType t);
// A literal of type t: "16", "16LL", "1.0f", "__half(1.0f)".
std::string cuda_int_literal(ScalarType t, int64_t v);
std::string cuda_float_literal(ScalarType t, double v);
// A source name that is safe as a C++ identifier (keywords get a '_' suffix).
std::string cuda_ident(const std::string& name);

}  // namespace hds::codegen
