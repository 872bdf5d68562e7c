// passes.h — graph → graph passes, one per file, run in this order by
// run_graph_passes() (graph/pipeline.cpp):
#pragma once

#include "graph/graph.h"

namespace hds::graph {

// cse.cpp: nodes with the same definition (up to renaming their axes) are one.
void eliminate_common_subexpressions(Graph& g);
// fold_constants.cpp: literals are inlined into their users; rank-0 computes
// of literals are evaluated.
void fold_constants(Graph& g);
// fuse_epilogues.cpp: an injective node that reads a reduction's or an
// anchor's result at its own indices, as that result's only user, becomes
// part of how the result is stored (bias + activation after matmul, scaling
// after a reduction).
void fuse_epilogues(Graph& g);
// inline_injective.cpp: the remaining injective nodes are inlined into their
// users (prologues of reductions and anchors, chains of elementwise ops),
// except the output and nodes an anchor would recompute per tile.
void inline_injective(Graph& g);
// fuse_rows.cpp: reductions over the rows of an injective node that only it
// (and each other) read are computed in its kernel, one block per row
// (softmax, layer norm: one kernel each).
void fuse_rows(Graph& g);
// prefetch_epilogue_loads.cpp: vector loads of read-only tensors after an
// anchor's main loop (a bias, the same for every row of a tile) are issued
// before that loop into registers (at most 64 bytes per thread).
void prefetch_epilogue_loads(Graph& g);

}  // namespace hds::graph
