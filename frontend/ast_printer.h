// ast_printer.h — `hdsc --emit=ast`: a clang -ast-dump style tree with source
// locations and, after sema, the type of each expression.
#pragma once

#include <ostream>

#include "frontend/ast.h"

namespace hds {

void print_ast(const Module& m, std::ostream& os);

}  // namespace hds
