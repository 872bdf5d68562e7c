// cse.cpp — common subexpression elimination over graph nodes.
#include <map>

#include "graph/passes/passes.h"
#include "graph/rewrite.h"
#include "ir/ir_printer.h"

namespace hds::graph {

namespace {

// A printable definition with the axes renamed canonically.
std::string signature(const Node& n) {
    if (n.kind != Node::Kind::Compute) return "";
    VarMap m;
    for (size_t d = 0; d < n.compute.axes.size(); ++d)
        m[n.compute.axes[d].get()] = ir::make_var(ScalarType::I32, "$" + std::to_string(d));
    std::string s = std::string(scalar_name(n.buffer->elem));
    for (const ir::Expr& d : n.buffer->shape) s += "," + ir::to_string(d);
    if (const auto& r = n.compute.reduction) {
        s += std::string(";") + reduce_name(r->kind);
        for (size_t i = 0; i < r->vars.size(); ++i) {
            m[r->vars[i].get()] = ir::make_var(ScalarType::I32, "$r" + std::to_string(i));
            s += ";" + ir::to_string(substitute(r->lo[i], m)) + ".." + ir::to_string(substitute(r->hi[i], m));
        }
        m[r->acc.get()] = ir::make_var(r->acc->type, "$acc");
        s += ";" + ir::to_string(substitute(r->body, m));
    }
    return s + ";" + ir::to_string(substitute(n.compute.value, m));
}

void redirect(Graph& g, const ir::Buffer& from, const ir::Buffer& to) {
    LoadFn f = [&](const ir::Load& l) -> ir::Expr {
        return l.buffer == from ? ir::Load::make(to, l.indices, l.loc) : nullptr;
    };
    for (Node* n : g.live()) {
        if (n->kind == Node::Kind::Compute)
            rewrite_compute(n->compute, [&](const ir::Expr& e) { return replace_loads(e, f); });
        if (n->kind == Node::Kind::Anchor) n->anchor.body = replace_loads(n->anchor.body, f);
    }
}

}  // namespace

void eliminate_common_subexpressions(Graph& g) {
    std::map<std::string, Node*> seen;
    for (Node* n : g.live()) {
        std::string s = signature(*n);
        if (s.empty() || n == g.output) continue;
        auto [it, fresh] = seen.emplace(s, n);
        if (fresh) continue;
        redirect(g, n->buffer, it->second->buffer);
        n->dead = true;
    }
}

}  // namespace hds::graph
