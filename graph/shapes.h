// shapes.h — symbolic shapes of graph tensors: dimensions are i32 IR
// expressions over the graph's sizes; binding an op's declared shapes
// (`T[*S, N]`) to argument shapes; numpy broadcasting.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "frontend/ast.h"
#include "ir/ir.h"

namespace hds::graph {

using Shape = std::vector<ir::Expr>;

bool same_dim(const ir::Expr& a, const ir::Expr& b);
bool same_shape(const Shape& a, const Shape& b);
std::string shape_str(const Shape& s);  // "[B, 768]"
ir::Expr numel(const Shape& s);
// `extent % v == 0`, folded where it is known (a constant, or a size rounded up to a multiple).
ir::Expr divisible(const ir::Expr& extent, int64_t v);
// Buffers have at least one dimension: a rank-0 value is stored as shape [1].
Shape storage_shape(const Shape& s);

// What an op's size names and spreads stand for in one instantiation.
struct Bindings {
    std::map<std::string, ir::Expr> sizes;
    std::map<std::string, Shape> spreads;
};

// Evaluates a dimension written in an op (a literal, a bound size, a spread's
// name for the product of its sizes, + - * / of those, %) or returns null when it
// uses something unbound (`*unbound` set to it).
ir::Expr eval_dim(const Expr& e, const Bindings& b, std::string* unbound);
// The same for a condition (`M <= 16 && N % 8 == 0`): comparisons of such
// dimensions, && || ! and true/false; a bool IR expression.
ir::Expr eval_condition(const Expr& e, const Bindings& b, std::string* unbound);

// Binds declared dims (`[*S, N]`) to `actual`. Returns "" or why they do not match.
std::string bind_dims(const std::vector<ExprPtr>& declared, const Shape& actual, Bindings& b);

// numpy broadcasting of two shapes; nullopt when they do not broadcast.
std::optional<Shape> broadcast(const Shape& a, const Shape& b);
// Indices into a tensor of shape `from` for the point `idx` of its broadcast to `to`.
std::vector<ir::Expr> broadcast_indices(const Shape& from, const Shape& to, const std::vector<ir::Expr>& idx);

}  // namespace hds::graph
