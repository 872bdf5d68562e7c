// graph_compile.h — a built graph through the graph passes, scheduling and the
// IR pipeline: the Program both the CUDA emitter and the emulator run.
#pragma once

#include <ostream>

#include "graph/program.h"
#include "ir/lower.h"

namespace hds::driver {

// `lowered`: the file's lowered module (its device functions are available to
// the graph's kernels). `graph_dump` prints the graph after each graph pass.
graph::Program compile_graph(graph::Graph& g, const ir::Module& lowered, const ir::PipelineOptions& popts,
                             std::ostream* graph_dump = nullptr);

}  // namespace hds::driver
