// verifier.h — checks IR invariants between passes: variables declared before
// use and in scope, buffers known, only mutable variables assigned, mapping
// loops gone after lowering, global accesses flat after flattening.
#pragma once

#include "ir/ir.h"

namespace hds::ir {

struct VerifyStage {
    bool mappings_lowered = false;
    bool indices_flattened = false;
};

// Throws InternalError naming the pass and the first violation.
void verify_module(const Module& m, VerifyStage stage, const std::string& after_pass);

}  // namespace hds::ir
