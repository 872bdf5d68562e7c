// graph_builder.h — checks a `graph` declaration and builds its graph IR:
// operator calls are instantiated (op_instance.h), the built-in layout
// operators (layout_ops.h) are added directly, shapes are inferred and
// mismatches reported at the call.
#pragma once

#include <memory>

#include "frontend/ast.h"
#include "frontend/diagnostics.h"
#include "frontend/sema.h"
#include "graph/graph.h"
#include "graph/tuning.h"

namespace hds::graph {

// Returns the graph, or null when errors were reported, for `target` (see tuning.h).
std::unique_ptr<Graph> build_graph(const GraphDecl& decl, const Module& m, Sema& sema, DiagnosticsEngine& diags,
                                   Target target = {});

}  // namespace hds::graph
