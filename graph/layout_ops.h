// layout_ops.h — the operators built into the graph layer because their index
// functions depend on attribute lists: permute, reshape, slice, concat. They
// do no arithmetic and are always fused into their consumers (or producers'
// stores). Every operator that computes something is written in .hds (stdlib/).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "frontend/ast.h"
#include "frontend/diagnostics.h"
#include "graph/graph.h"

namespace hds::graph {

struct LayoutCall {
    std::string op;
    std::vector<Node*> args;
    std::map<std::string, const Expr*> attrs;
    SourceRange range;
    std::string result_name;
};

bool is_layout_op(const std::string& name);
// Adds the node; null after reporting errors. `dim` evaluates a shape entry of
// reshape (a literal, a graph size name or an expression of those).
Node* build_layout_op(const LayoutCall& call, Graph& g, DiagnosticsEngine& diags,
                      const std::function<ir::Expr(const Expr&)>& dim);

// permute / reshape from the graph layer itself (reductions over `axes`).
Node* permute_node(Node* x, const std::vector<int64_t>& dims, SourceRange range, Graph& g, DiagnosticsEngine& diags);
Node* reshape_node(Node* x, const std::vector<ir::Expr>& shape, SourceRange range, Graph& g, DiagnosticsEngine& diags);

// The permutation and reshape that move `axes` of a rank-`rank` tensor last and
// merge them: used for reductions called with `axes=[...]`.
std::vector<int64_t> axes_last_permutation(const std::vector<int64_t>& axes, size_t rank);

// Integer list attribute ([0, 2, -1]); false when `e` is not one.
bool int_list(const Expr* e, std::vector<int64_t>* out);
bool int_value(const Expr* e, int64_t* out);

}  // namespace hds::graph
