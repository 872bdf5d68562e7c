// graph_printer.h — `--emit=graph` (the graph after each pass, as text) and
// `--emit=dot` (the fused graph for Graphviz).
#pragma once

#include <ostream>

#include "graph/graph.h"

namespace hds::graph {

void print_graph(const Graph& g, std::ostream& os);
void print_dot(const Graph& g, std::ostream& os);

}  // namespace hds::graph
