// dispatch_cases.h — the if chain of a graph's dispatcher (graph_emitter.h): each
// variant's test, the comment listing the variants and their kernels, and the block of
// sm_90a variants a .cu for both targets starts with (docs/graphs.md, "Runtime dispatch").
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "codegen/cuda/graph_emitter.h"

namespace hds::codegen {

struct DispatchCases {
    std::vector<std::string> names;  // the variants' programs, in order
    std::vector<std::string> tests;  // each one's C test ("": any sizes, the last of its block)
    size_t sm90a = 0;                // the first `sm90a` are tested under `sm90a_test` first
    std::string sm90a_test;
    std::string listing;  // the comment above the dispatcher (no last newline)
};

// `chain_label(program, k)`: how the listing names the launch of kernel k, where a chain of
// kernels picked by the sizes starts there.
DispatchCases dispatch_cases(const std::string& api, const std::vector<GraphVariant>& variants,
                             const std::function<std::string(const graph::Program&, size_t)>& chain_label);

// The static sm90a_code() of a .cu whose dispatch tests it (graph::kSm90aCodeName).
std::string sm90a_code_function();

}  // namespace hds::codegen
