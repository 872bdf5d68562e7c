// rewrite.h — the IR rewrites fusion is made of: substituting variables, and
// replacing the loads of a buffer by an expression of their indices (inlining
// a producer into its consumer).
#pragma once

#include <functional>
#include <map>

#include "graph/graph.h"

namespace hds::graph {

using VarMap = std::map<const ir::VarNode*, ir::Expr>;
ir::Expr substitute(const ir::Expr& e, const VarMap& m);
ir::Stmt substitute(const ir::Stmt& s, const VarMap& m);

// Called for every load; returns the replacement, or null to keep the load.
using LoadFn = std::function<ir::Expr(const ir::Load&)>;
ir::Expr replace_loads(const ir::Expr& e, const LoadFn& f);
ir::Stmt replace_loads(const ir::Stmt& s, const LoadFn& f);
// Applies `f` to every expression of a compute (value, reduction body and ranges).
void rewrite_compute(Compute& c, const std::function<ir::Expr(const ir::Expr&)>& f);

// Rewrites every `copy_vec4(dst[.., j], src[.., k])` whose source is `src` into
// four stores `dst[.., j + i] = src[.., k + i]` (copy_vec4 stays within a row),
// so that the source's loads can be replaced by a producer's value.
ir::Stmt scalarize_copies(const ir::Stmt& s, const ir::Buffer& src);

// The value of an injective compute at `indices`.
ir::Expr value_at(const Compute& c, const std::vector<ir::Expr>& indices);
// Inlines every load of `producer`'s buffer in `e` (the producer is injective).
ir::Expr inline_producer(const ir::Expr& e, const Node& producer);

}  // namespace hds::graph
