// swiglu_pattern.h — finding a SwiGLU written as separate ops in a graph (the gate and up
// projections of a Llama MLP):
//
//     silu(matmul(a, b)) * matmul(a, u)        (either operand first)
//
// each product possibly through the same `reshape(.., shape=[..])` (torch's views around
// `mm`), and the two a's the same expression (one name, or lets used once whose values are
// the same), so that the graph builder can run the `swiglu` op instead: one GEMM computing
// both products of a tile from one read of a, the silu and the product on its accumulators
// (stdlib/matmul_wgmma_glu.hds). Lets used only there are looked through and listed, as
// attention_pattern.h does, so that the builder can defer them.
#pragma once

#include <map>
#include <string>

#include "frontend/ast.h"

namespace hds::graph {

struct SwigluMatch {
    const Expr* a = nullptr;                  // the operands, as written (a: the gate product's)
    const Expr* b = nullptr;                  // the gate weight (under silu)
    const Expr* u = nullptr;                  // the up weight
    const CallExpr* reshape = nullptr;        // the reshape around both products, if any
    std::map<std::string, const Expr*> lets;  // the lets the pattern reads through (used only there): their values
};

// The SwiGLU patterns among the graph's statements, by their `*` expression.
std::map<const Expr*, SwigluMatch> find_swiglu_patterns(const BlockStmt& body);

}  // namespace hds::graph
