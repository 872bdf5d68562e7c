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

namespace hds::graph {

// Returns the graph, or null when errors were reported. `arch`: the target (0:
// the CPU emulator, 80: sm_80, 90: sm_90a); schedules that use built-ins the
// target lacks are skipped.
std::unique_ptr<Graph> build_graph(const GraphDecl& decl, const Module& m, Sema& sema, DiagnosticsEngine& diags,
                                   int arch = 80);

}  // namespace hds::graph
