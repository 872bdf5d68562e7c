// row_holding.h — how the threads of a row regime hold a row of symbolic length in
// registers (graph/row_regimes.cpp's kernels): the staged rows' and held vectors' register
// arrays, the chunks a thread reads, the reductions across its lanes, the output.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "graph/row_group.h"
#include "graph/shapes.h"

namespace hds::graph {

constexpr int64_t kRowRegisters = 32;  // staged row values per thread
constexpr int64_t kHeldBytes = 64;     // staged rows and held vectors per thread (row_in_registers)
constexpr int64_t kClusterBlocks = 8;  // blocks per row in a cluster at most (portable: 16 did not pack)

// How a regime holds a row: `lanes` threads per row, each holding
// `per_thread` elements in chunks of `v` (contiguous columns, read 16 bytes at
// a time; v = 1: one element).
struct Holding {
    int64_t lanes;
    int64_t per_thread;
    int64_t v;
    ir::Expr lane;   // this thread's place among the row's threads
    ir::Expr width;  // the rows' length
    ir::Expr limit;  // the end of the columns this thread's row has: width, or 0 past the last row
    std::map<const ir::BufferNode*, ir::Buffer> regs;  // staged rows: their register arrays
    ir::Expr start = nullptr;                          // the first column the threads hold (null: 0)
    ir::Expr parts = nullptr;                          // blocks per row (a thread block cluster), or null
    // Short rows staged through shared memory (stage_rows): each staged row's and the output's
    // copy of the block's rows, and this thread's row among them.
    std::map<const ir::BufferNode*, ir::Buffer> stage;
    ir::Buffer out_stage = nullptr;
    ir::Expr local = nullptr;
    int64_t threads = kThreads;  // per block
    // Vectors as long as the rows that the output reads at its column (a norm's weight and
    // bias), copied into registers with the rows: their register arrays.
    std::map<const ir::BufferNode*, ir::Buffer> held;
    // Rows that are not 16-byte multiples read in the aligned chunks that hold them (v > 1):
    // this row's first element lies `shift` elements into its first chunk, so a chunk's first
    // column is negative for the first and may pass the row's end for the last; the elements
    // outside the row (the rows before and after it) are read but neither counted nor written.
    // `not_last`: whether this is not the tensor's last row (whose last chunk may pass the
    // tensor's end: read element by element).
    ir::Expr shift = nullptr;
    ir::Expr not_last = nullptr;
    ir::Expr base = nullptr;  // the flat index of the row's first element; chunks are read at
    Shape shape;              // flat indices of a tensor of this shape (the output's)
    // Run once the staged rows are in registers (row_stream.cpp: the next row's copies issued).
    ir::Stmt after_fill = nullptr;
    // Each chunk under `if (first < limit)` instead of a `break` out of the chunks' loop at the first
    // chunk past the row, so that nvcc predicates the loads and arithmetic instead of branching
    // (row_regimes.cpp says where).
    bool predicated = false;
};

// The indices of flat element `flat` of a tensor of `shape`, each dimension divided off in turn,
// so that the flattened index folds back to `flat` (simplify's x / c * c + x % c) and each index
// stays within its dimension where `flat` lies in the tensor.
std::vector<ir::Expr> unflatten(const Shape& shape, const ir::Expr& flat);

// Fresh variables for the row dimensions, named like the output's axes (after `prefix`).
std::vector<ir::Var> fresh_row_axes(const Node& n, const std::string& prefix = "");
// The buffers whose rows (of length `width`) two or more passes read.
std::vector<ir::Buffer> shared_rows(const RowPasses& p, const ir::Expr& width);
// Where this thread's row holds column `col` in a shared-memory copy of the block's rows (stage_rows;
// `local` null: a copy of one row).
ir::Expr in_stage(const Holding& h, const ir::Expr& col);
// for (c < per_thread / v) unrolled {
//     const int first = start + (lane + c * lanes) * v;  // "col" for v = 1
//     if (first >= limit) break;
//     each(c, first);
// }
ir::Stmt chunks(const Holding& h, const std::function<ir::Stmt(const ir::Expr& c, const ir::Var& first)>& each,
                SourceLoc loc);
// The row at `row_axes`, held as `h` says: the staged rows' registers filled (and the vectors the
// output reads, where they fit), each reduction (across the lanes of the row, or across the
// block), then the output.
void row_in_registers(const Node& n, Holding& h, const RowPasses& p, std::vector<ir::Stmt>& body);
// Rows of `width` held by a block each (`threads`, `per_thread` values each in chunks of v, whole
// chunks only), streamed by a persistent kernel: each block walks rows blockIdx.x, + gridDim.x, ...,
// copying the next one into shared memory while it works on this one (row_stream.cpp).
ir::Stmt row_stream(const Node& n, int64_t threads, int64_t per_thread, int64_t v);
// Whether every reduction walks the row from 0 to its length, as the chunks do.
bool walks_rows(const RowPasses& p, const ir::Expr& width);

}  // namespace hds::graph
