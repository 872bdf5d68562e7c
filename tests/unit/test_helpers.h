// test_helpers.h — runs source text through the compiler stages for tests.
#pragma once

#include <memory>
#include <string>

#include "frontend/ast.h"
#include "frontend/diagnostics.h"
#include "ir/ir.h"

namespace hds::test {

struct Compiled {
    std::shared_ptr<void> sema;  // owns the symbols the AST points to
    std::string errors;          // printed diagnostics ("" when none)
    std::unique_ptr<Module> ast;
    ir::Module ir;  // after the full pass pipeline (empty on errors)
    std::string cu, header;
};

// Parses, checks, lowers, runs all passes (with the verifier) and emits CUDA.
Compiled compile(const std::string& source, const std::string& name = "test.hds");

// Only parse + check; returns the printed diagnostics.
std::string check_errors(const std::string& source);

bool contains(const std::string& haystack, const std::string& needle);

}  // namespace hds::test
