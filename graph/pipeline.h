// pipeline.h — the graph passes in order (see passes/passes.h), with the
// graph printed after each for `--emit=graph`.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "graph/graph.h"

namespace hds::graph {

const std::vector<std::string>& graph_pass_names();
// Runs every pass once: on a graph they ran on (Graph::passed) it does nothing. Prints the
// graph before and after each when `dump` is set.
void run_graph_passes(Graph& g, std::ostream* dump);

}  // namespace hds::graph
