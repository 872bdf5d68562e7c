// inline_injective.cpp — injective nodes inlined into their users.
#include "graph/passes/passes.h"
#include "graph/rewrite.h"

namespace hds::graph {

namespace {

bool is_single_load(const Node& n) {
    return ir::as<ir::Load>(n.compute.value) != nullptr;
}

}  // namespace

void inline_injective(Graph& g) {
    for (Node* n : g.live()) {
        if (n->kind != Node::Kind::Compute || !n->compute.injective() || n == g.output) continue;
        std::vector<Node*> users;
        for (Node* u : g.live())
            for (const ir::Buffer& r : reads(*u))
                if (r == n->buffer) users.push_back(u);
        // An anchor loads each input element many times (once per tile that
        // needs it): only an index remapping or a single user's value is worth
        // recomputing there.
        bool anchor_user = false;
        for (Node* u : users) anchor_user |= u->kind == Node::Kind::Anchor;
        if (anchor_user && users.size() > 1 && !is_single_load(*n)) continue;
        for (Node* u : users) {
            if (u->kind == Node::Kind::Compute)
                rewrite_compute(u->compute, [&](const ir::Expr& e) { return inline_producer(e, *n); });
            else
                u->anchor.body = replace_loads(u->anchor.body, [&](const ir::Load& l) -> ir::Expr {
                    return l.buffer == n->buffer ? value_at(n->compute, l.indices) : nullptr;
                });
        }
        n->dead = true;
    }
}

}  // namespace hds::graph
