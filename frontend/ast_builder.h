// ast_builder.h — converts an ANTLR parse tree (free of syntax errors) into
// our AST. Internal to frontend/: only parser.cpp includes it.
#pragma once

#include <memory>

#include "HdsParser.h"
#include "frontend/ast.h"
#include "frontend/diagnostics.h"

namespace hds {

std::unique_ptr<Module> build_ast(HdsParser::FileContext* tree, uint32_t file, DiagnosticsEngine& diags);

}  // namespace hds
