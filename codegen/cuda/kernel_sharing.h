// kernel_sharing.h — the kernels of a graph's variants (graph/variants.h), each
// distinct one emitted once. Variants differ in a few schedules; the other
// kernels (a rms_norm before a matmul whose tile the sizes decide) come out the
// same in each, and nvcc would compile every copy.
#pragma once

#include <string>
#include <vector>

#include "codegen/cuda/cuda_emitter.h"
#include "codegen/cuda/graph_emitter.h"
#include "graph/program.h"

namespace hds::codegen {

struct SharedKernels {
    ir::Module device;                     // each distinct kernel once, and the device functions
    std::vector<graph::Program> programs;  // the variants, their launches renamed to those kernels
};

// Kernels are the same when their CUDA is, but for the name. A kernel that several
// variants launch, the same in every variant that has it, is named for the graph
// (`api`_k1_rms_norm, as in a graph without variants); one of a single variant, or
// with several versions, keeps the name of the first variant that has it.
SharedKernels share_kernels(const std::string& api, const std::vector<GraphVariant>& variants, const CudaOptions& opts);

}  // namespace hds::codegen
