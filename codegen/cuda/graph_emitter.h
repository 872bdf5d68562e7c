// graph_emitter.h — one .cu + header per graph: the fused kernels and the host
// API `NAME_run`, `NAME_workspace_size`, `NAME_capture` / `NAME_replay` (a
// CUDA graph of one run), all extern "C" and returning cudaError_t.
#pragma once

#include "codegen/cuda/cuda_emitter.h"
#include "graph/program.h"

namespace hds::codegen {

// `p.module` went through the IR pipeline.
CudaOutput emit_graph_cuda(const graph::Program& p, const CudaOptions& opts);

}  // namespace hds::codegen
