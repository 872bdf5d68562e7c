// row_staging.h — staging the rows a row group reads repeatedly in shared memory.
#pragma once

#include <vector>

#include "graph/graph.h"

namespace hds::graph {

// `passes`: the expressions of a row group's passes over one row (reduction
// bodies, then the output value), in terms of `row_axes`. Rows of constant
// length that two or more passes read are copied to shared memory; the
// passes are rewritten to read them there. Returns the statements that stage
// them (allocations, copy loops, a barrier), or nothing.
std::vector<ir::Stmt> stage_rows(const std::vector<ir::Var>& row_axes, const std::vector<ir::Expr*>& passes,
                                 SourceLoc loc);

}  // namespace hds::graph
