// lower.h — the IR pass pipeline, in order, on one screen (see lower.cpp).
#pragma once

#include <ostream>
#include <string>

#include "ir/ir.h"

namespace hds::ir {

struct PipelineOptions {
    bool verify = false;     // run the IR verifier after every pass
    std::string dump_after;  // print the module after this pass ("" = none)
    std::ostream* dump = nullptr;
    bool flatten = true;  // false keeps multi-dimensional global accesses (the CPU emulator checks each index)
};

// Names of the passes, in order (for --emit=ir-after=NAME).
const std::vector<std::string>& pass_names();

void run_pipeline(Module& m, const PipelineOptions& opts);

}  // namespace hds::ir
