// attention_pattern.h — finding attention written as separate ops in a graph:
//
//     bmm(softmax(bmm(q, permute(k, dims=[.., n - 1, n - 2])) * s), v)
//
// with the scores optionally through `causal_mask` (outside the scale, or inside a
// positive one): then `attention(..., causal=1)`
// (three dimensions or more, [.., heads, rows, d], as attention takes them; the
// scale as `* s`, `s *` or `/ s` with a literal s, or none), so that the graph
// builder can run
// the `attention` op instead: one kernel on the tensor cores whose scores never
// reach memory, as Inductor's SDPA pattern does. Intermediate results may be
// named by `let`s that nothing else uses; the match lists them, so that the
// builder can defer them (and builds them only if the operands turn out not to
// fit `attention`'s shapes).
#pragma once

#include <map>
#include <string>

#include "frontend/ast.h"

namespace hds::graph {

struct AttentionMatch {
    const Expr* q = nullptr;  // the operands, as written
    const Expr* k = nullptr;
    const Expr* v = nullptr;
    double scale = 1.0;
    bool causal = false;                      // the scores through causal_mask (nn.hds)
    std::map<std::string, const Expr*> lets;  // the lets the pattern reads through (used only there): their values
};

// The attention patterns among the graph's statements, by the expression that is
// their final product. Lets used more than once are not looked through.
std::map<const Expr*, AttentionMatch> find_attention_patterns(const BlockStmt& body);

}  // namespace hds::graph
