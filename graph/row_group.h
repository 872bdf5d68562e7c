// row_group.h — the kernel of a row group (passes/fuse_rows.cpp): each row's
// reductions, then the row. row_group.cpp holds rows of a constant length;
// row_regimes.cpp picks, at run time, how to hold rows of a symbolic length.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "graph/row_staging.h"
#include "graph/schedule.h"

namespace hds::graph {

// One reduction of a row group over one row.
struct RowPass {
    ir::Buffer buf;  // the reduction's buffer; later passes read `v` instead
    Reduction r;     // over the row, its accumulator renamed after `buf`
    ir::Expr value;  // the row's result, from r.acc
    ir::Var v;       // the row's result
};

// A row group's passes over the row at `row_axes`: its reductions in order,
// then the output's value at column `col` (the output's last axis).
struct RowPasses {
    std::vector<ir::Var> row_axes;
    std::vector<RowPass> reductions;
    ir::Expr out;
    ir::Var col;
};
RowPasses row_passes(const Node& n, const std::vector<ir::Var>& row_axes);

// Shared memory of a block's row reductions: one `partial` array per
// accumulator type (a slot per warp of `threads`), one result slot per result type; their
// allocations go to `out` when first asked for.
class RowScratch {
  public:
    RowScratch(std::vector<ir::Stmt>& out, SourceLoc loc, int64_t threads = kThreads)
        : out_(out), loc_(loc), threads_(threads) {}
    ir::Buffer partial(ScalarType t);
    ir::Buffer result(ScalarType t);

  private:
    ir::Buffer get(std::map<ScalarType, ir::Buffer>& m, ScalarType t, const std::string& base, int64_t size);
    std::vector<ir::Stmt>& out_;
    SourceLoc loc_;
    int64_t threads_;
    std::map<ScalarType, ir::Buffer> partial_, result_;
};

// Each reduction of `p` across the block (block_reduce), its result shared
// through `scratch` and declared as the pass's `v`. `accumulate(pass)`: the
// pass's accumulation loop (null: block_reduce's own, reading `regs`).
void reduce_in_block(const RowPasses& p, RowScratch& scratch, std::vector<ir::Stmt>& body, SourceLoc loc,
                     const RegisterRows* regs, const std::function<ir::Stmt(const RowPass&)>& accumulate);

// The kernels of a row group for rows of symbolic length (or of a constant length
// the register staging of row_group.cpp does not take), one per way of holding a
// row, in the order the host tests the row length; `fallback` (a block per row of
// kThreads, whose passes read the row again) last, for the longest rows. A
// constant length: the one way it takes. Empty when the passes are not of the form
// it handles (one reduction variable from 0 to the row length each). On `arch` 90
// (sm_90a), rows too long for a block are split over a thread block cluster
// (cluster_per_call).
std::vector<KernelCase> row_regimes(const Node& n, const ir::Kernel& fallback, int arch);

}  // namespace hds::graph
