// parser.h — runs the ANTLR lexer/parser over one file and builds our AST.
// Nothing outside frontend/ sees ANTLR types.
#pragma once

#include <memory>
#include <ostream>

#include "frontend/ast.h"
#include "frontend/diagnostics.h"

namespace hds {

// Parses a registered file. Syntax errors are reported to `diags` in the usual
// file:line:col format (all of them, ANTLR recovers between them); returns
// nullptr when there were any.
std::unique_ptr<Module> parse_file(uint32_t file, const SourceManager& sources, DiagnosticsEngine& diags);

// `--emit=tokens`: one token per line, "line:col KIND 'text'".
void dump_tokens(uint32_t file, const SourceManager& sources, std::ostream& os);

}  // namespace hds
