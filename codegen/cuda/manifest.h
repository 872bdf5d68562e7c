// manifest.h — the machine-readable description of a graph's host API, for
// callers that bind it without parsing the header (the Python package,
// python/hds): its functions, parameters with dtypes and shape expressions, the
// output, the sizes and the order `NAME_run` takes them in, the per-run
// requirements and which tensors must be 16-byte aligned. `hdsc --manifest FILE`
// writes one for every graph of a file (docs/cli.md, "The manifest").
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "codegen/cuda/graph_emitter.h"

namespace hds::codegen {

// Graph `api` compiled as `variants` (one with an empty `when` where there is
// no dispatch); they share inputs, output and sizes. The kernels are listed by the
// names the programs give them: a dispatcher's as its .cu has them (emit_graph_cuda_dispatch's
// `emitted`).
nlohmann::json graph_manifest(const std::string& api, const std::vector<GraphVariant>& variants);

}  // namespace hds::codegen
