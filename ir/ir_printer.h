// ir_printer.h — textual IR for `hdsc --emit=ir` and `--emit=ir-after=PASS`.
#pragma once

#include <ostream>

#include "ir/ir.h"

namespace hds::ir {

void print_module(const Module& m, std::ostream& os);
std::string to_string(const Expr& e);

}  // namespace hds::ir
