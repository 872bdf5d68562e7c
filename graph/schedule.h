// schedule.h — automatic schedules for compute nodes (Hidet's rule-based
// scheduling): one thread per output element for injective nodes; for
// reductions either one block per output element (threads stride over the
// reduced elements, then a warp-shuffle and shared-memory block reduction) or
// one thread per output element looping over the reduction, whichever reads
// memory contiguously.
#pragma once

#include "graph/graph.h"
#include "ir/name_gen.h"

namespace hds::graph {

constexpr int kThreads = 256;

struct RegisterRows;

// Body, grid and block of the kernel computing `n` (a compute node).
void schedule_injective(const Node& n, ir::Kernel& k);
// Rewrites the injective kernel `k` of `n` to 16-byte accesses where the rows
// allow them (vectorize.cpp); false when they never can.
bool vectorize_injective(const Node& n, ir::Kernel& k);

// `value` (a function of the innermost axis `inner`) at the V columns first + e:
// the loads that walk `inner` contiguously (global ones, and shared ones if
// `shared`) become one copy each into a register array, appended to `out`,
// and read from it. `aligned`: when those copies are aligned (the rows they
// read hold a multiple of V elements; folded to true when known). Rows that
// `regs` holds in registers are read at the thread's chunk `it` (see
// chunk_loop), which sets `regs->failed` where that is not possible. With `names`,
// the register arrays take fresh names from it (a kernel body that has arrays already).
struct VectorLoads {
    ir::Expr value;
    ir::Expr aligned;
    // Whether the copies are aligned wherever rows of `width` elements start on 16 bytes:
    // `aligned` is true, or is that very condition (the rows read are as long). Where a kernel
    // writes such rows 16 bytes at a time, they are then aligned whenever it runs.
    bool aligned_with(const ir::Expr& width, int64_t v) const;
};
VectorLoads vectorize_loads(const ir::Expr& value, const ir::Var& inner, int64_t v, const ir::Expr& first,
                            const ir::Var& e, bool shared, std::vector<ir::Stmt>& out, SourceLoc loc,
                            const RegisterRows* regs = nullptr, const ir::Expr& it = nullptr,
                            ir::NameGen* names = nullptr);

// dst[at] .. dst[at + V) = value at e = 0 .. V: computed into a register array
// (`regs_name`), then one copy of V elements (at's last index: the first of the V columns).
std::vector<ir::Stmt> store_vector(const ir::Buffer& dst, const std::vector<ir::Expr>& at, const ir::Expr& value,
                                   const ir::Var& e, int64_t v, SourceLoc loc, const std::string& regs_name = "v_out");
void schedule_reduction(const Node& n, ir::Kernel& k);
// One of a node's kernels where the node runs as one of several, picked per call by
// the sizes (the row regimes: a kernel per way of holding a row, each with its own
// registers and block size; a kernel for every regime took the most registers any
// of them needs, for all of them: bench/results/2026-11-27-h200-row-blocks).
struct KernelCase {
    ir::Kernel k;        // body, grid, block, cluster_per_call
    ir::Expr when;       // the sizes it takes, tested in order (null: the rest)
    std::string suffix;  // of the kernel's name
    std::string note;    // what it is for: the host's comment
};
// A row group: one block per row computes the row's reductions, then the row
// (row_group.cpp; rows of symbolic length: row_regimes.cpp, a kernel per way of
// holding the row, which splits long rows over thread block clusters when `arch`
// is 90). One case without `when`, or the regimes in the order they are tested.
std::vector<KernelCase> schedule_row_group(const Node& n, int arch);

// acc = combine(acc, shfl_xor(acc, lanes / 2)) ... down to 1: every lane holds
// the total of its aligned group of `lanes` lanes (a power of two up to 32).
void warp_reduce(const Reduction& r, std::vector<ir::Stmt>& out, SourceLoc loc, int64_t lanes = 32);
// Declares r.acc, accumulates r's body (`accumulate`, or a loop over r's
// ranges strided by the block, reading the rows `regs` holds from registers),
// and reduces across the block (warp shuffles, then `partial` in shared
// memory, one per warp of the block's `threads` (kThreads unless given; a loop strides by
// kThreads): afterwards every lane of warp 0 holds the total, and `tail` runs there.
void block_reduce(const Reduction& r, const ir::Buffer& partial, std::vector<ir::Stmt> tail, SourceLoc loc,
                  std::vector<ir::Stmt>& body, const RegisterRows* regs = nullptr, const ir::Stmt& accumulate = nullptr,
                  int64_t threads = kThreads);

// A reduction whose body's first load walks the innermost reduction variable
// contiguously (its last index uses that variable and no output axis): row
// sums, softmax, norms. Scheduled one block per output element.
bool contiguous_rows(const Compute& c);

// threadIdx.x.
ir::Expr tid();

// `const int idx = blockIdx.x * 256 + threadIdx.x;` (appended to `out`).
ir::Var flat_index(std::vector<ir::Stmt>& out, SourceLoc loc);

// Whether `e` mentions `v`.
bool uses(const ir::Expr& e, const ir::Var& v);

// The row-major indices of flat index `flat` in `shape` (the first one undivided).
std::vector<ir::Expr> unravel_indices(const ir::Expr& flat, const std::vector<ir::Expr>& shape);
// Declarations `const int axes[d] = ...` unravelling `flat` over `shape`.
std::vector<ir::Stmt> unravel(const ir::Expr& flat, const std::vector<ir::Var>& axes,
                              const std::vector<ir::Expr>& shape, SourceLoc loc);

}  // namespace hds::graph
