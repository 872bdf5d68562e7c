// row_staging.h — staging the rows a row group reads repeatedly, in registers
// or in shared memory.
#pragma once

#include <functional>
#include <vector>

#include "graph/graph.h"

namespace hds::graph {

// Rows held in registers: thread t holds the chunks t, t + T, t + 2T, ... of
// V elements of each staged row (T threads), chunk after chunk, so that a loop
// over the row's chunks reads them at constant register indices once unrolled.
struct RegisterRows {
    std::vector<ir::Buffer> buffers;  // Scope::Register, iters(chunks) * v elements each
    int64_t v = 0;                    // elements per chunk
    int64_t chunks = 0;               // chunks per row
    // Set when the row cannot be staged so, or a pass cannot read it chunk by
    // chunk: the caller discards what it built and stages in shared memory.
    mutable bool failed = false;
    bool holds(const ir::Buffer& b) const;
};

// How many of a thread's chunks a loop over `count` chunks visits.
int64_t chunk_iterations(int64_t count);

// A loop over a row's `count` chunks of V elements, chunk `col` per step:
// `for (col = tid; col < count; col += T)`, or, when `regs` holds the row,
// unrolled over this thread's chunks (`body(it)` reads registers at `it`;
// `it` is null without `regs`).
ir::Stmt chunk_loop(const RegisterRows* regs, const ir::Var& col, int64_t count,
                    const std::function<ir::Stmt(const ir::Expr& it)>& body, SourceLoc loc);

// `passes`: the expressions of a row group's passes over one row (reduction
// bodies, then the output value), in terms of `row_axes`. Rows of constant
// length that two or more passes read are staged once; the passes are
// rewritten to read them there. With `regs` they go to registers, chunks of
// `regs->v` elements (which sets `regs->failed` when they do not fit or
// divide), else to shared memory. Returns the statements that stage them.
std::vector<ir::Stmt> stage_rows(const std::vector<ir::Var>& row_axes, const std::vector<ir::Expr*>& passes,
                                 RegisterRows* regs, SourceLoc loc);

}  // namespace hds::graph
