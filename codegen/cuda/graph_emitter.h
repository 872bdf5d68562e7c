// graph_emitter.h — one .cu + header per graph: the fused kernels and the host
// API `NAME_run`, `NAME_workspace_size`, `NAME_capture` / `NAME_replay` (a
// CUDA graph of one run), all extern "C" and returning cudaError_t.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "codegen/cuda/cuda_emitter.h"
#include "graph/decisions.h"
#include "graph/program.h"

namespace hds::codegen {

// The global tensors some kernel of `m` accesses with vector copies (or TMA):
// `NAME_run` refuses them where they are not 16-byte aligned.
std::vector<ir::Buffer> vector_accessed(const ir::Module& m);

// `p.module` went through the IR pipeline.
CudaOutput emit_graph_cuda(const graph::Program& p, const CudaOptions& opts);

// One graph compiled for several cases of its sizes (graph/variants.h):
// `program` runs when every condition of `when` holds (none: always). The host
// API `api`_run / _workspace_size / _capture / _replay picks the first variant
// whose case holds, in a commented if chain; the variants' own host functions
// are static.
struct GraphVariant {
    const graph::Program* program;
    std::vector<graph::Condition> when;
};
// `emitted`, where given: the variants' programs as the .cu has them (each distinct kernel
// once, under the name kernel_sharing.h gives it), in the order of `variants`.
CudaOutput emit_graph_cuda_dispatch(const std::string& api, const std::vector<GraphVariant>& variants,
                                    const CudaOptions& opts, std::vector<graph::Program>* emitted = nullptr);

}  // namespace hds::codegen
