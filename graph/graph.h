// graph.h — the graph IR: tensors defined by operators, after instantiation.
//
// Every tensor of a graph is an ir::Buffer (global memory, shape over the
// graph's size variables). A node defines its buffer either
//   - as a Compute: a value per output index (`axes`), possibly after a
//     reduction, reading other buffers through ir::Load; or
//   - as an Anchor: a hand-written schedule kernel (an instantiated generic
//     kernel) whose loads and stores already name graph buffers.
// Fusion rewrites these definitions (inlining loads, rewriting stores), so a
// node that survives fusion is one kernel.
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "ir/source_loc.h"

namespace hds::graph {

enum class ReduceKind { Sum, Max, Min };
const char* reduce_name(ReduceKind k);

struct Reduction {
    ReduceKind kind = ReduceKind::Sum;
    std::vector<ir::Var> vars;     // reduction variables, outermost first
    std::vector<ir::Expr> lo, hi;  // half-open range of each
    ir::Var acc;                   // the accumulator (named in `Compute::value`)
    ir::Expr body;                 // combined into acc once per point of the ranges
    ir::Expr init() const;         // 0, lowest, highest of acc's type
    ir::Expr combine(ir::Expr a, ir::Expr b) const;
};

struct Compute {
    std::vector<ir::Var> axes;           // one per output dimension
    std::optional<Reduction> reduction;  // reduce first, then evaluate value with acc bound
    ir::Expr value;                      // of the buffer's element type
    bool injective() const { return !reduction; }
};

struct Node {
    enum class Kind { Input, Constant, Compute, Anchor, RowGroup };
    Kind kind = Kind::Compute;
    ir::Buffer buffer;
    std::string ops;    // the operators folded into this node, for names and comments ("matmul+add+gelu")
    SourceLoc loc;      // the graph expression it came from
    ir::Expr constant;  // Constant: a rank-0 value
    Compute compute;    // Compute
    ir::Kernel anchor;  // Anchor: the schedule kernel over graph buffers
    // RowGroup: reductions over the rows of `compute` (an injective node over
    // [rows..., N]) computed in the same kernel, one row per block; loads of
    // their buffers read the row's result (see passes/fuse_rows.cpp).
    std::vector<std::pair<ir::Buffer, Compute>> row_reductions;
    bool dead = false;         // removed by a pass
    bool then_second = false;  // Anchor: the second kernel of a `then` schedule (reads the node before it)
};

// A condition on the graph's sizes that an op's `require` puts on every run
// (where it cannot be decided when the graph is built).
struct Requirement {
    ir::Expr cond;
    std::string why;  // "`require H % G == 0` of attention (nn.hds:127), called at model.hds:9"
};

struct Graph {
    std::string name;
    SourceLoc loc;
    std::vector<ir::Var> sizes;  // symbolic sizes of the inputs, in order of first appearance
    std::vector<Node*> inputs;
    Node* output = nullptr;
    std::vector<std::unique_ptr<Node>> nodes;  // in a topological order
    std::vector<Requirement> requirements;     // checked by each run, before any launch
    int arch = 80;        // what it is built for (Target::arch): 0 the CPU emulator, 80 sm_80, 90 sm_90a
    bool passed = false;  // the graph passes have run on it (run_graph_passes)

    std::set<std::string> names;  // buffer names in use

    Node* add(std::unique_ptr<Node> n);
    // `base`, or `base_2`, `base_3`... whichever is not taken yet (and takes it).
    std::string fresh_name(const std::string& base);
    Node* producer(const ir::Buffer& b) const;  // the node defining b (null if none)
    std::vector<Node*> live() const;            // nodes not removed, in order
};

// The buffer `n` only reshapes: it loads element i of it for its own element i in
// row-major order, provably (a permute folded into a reshape does not); else null.
ir::Buffer reshape_source(const Node& n);
// sum of indices[d] * (product of shape[d+1..]): the element's row-major offset.
ir::Expr row_major_offset(const std::vector<ir::Expr>& indices, const std::vector<ir::Expr>& shape);

// The buffers a node reads (in order of first use, each once).
std::vector<ir::Buffer> reads(const Node& n);
// Number of live nodes reading each buffer, and whether the output is one.
int use_count(const Graph& g, const ir::Buffer& b);

}  // namespace hds::graph
