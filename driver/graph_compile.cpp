// graph_compile.cpp — graph passes, scheduling, IR pipeline.
#include "driver/graph_compile.h"

#include "graph/pipeline.h"

namespace hds::driver {

graph::Program compile_graph(graph::Graph& g, const ir::Module& lowered, const ir::PipelineOptions& popts,
                             std::ostream* graph_dump) {
    graph::run_graph_passes(g, graph_dump);
    graph::Program p = graph::schedule_graph(g, lowered.functions, lowered.file_names);
    p.module.source_path = lowered.source_path;
    ir::run_pipeline(p.module, popts);
    return p;
}

}  // namespace hds::driver
