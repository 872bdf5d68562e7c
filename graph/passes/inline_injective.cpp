// inline_injective.cpp — injective nodes inlined into their users.
#include "graph/passes/passes.h"
#include "graph/rewrite.h"
#include "ir/ir_visitor.h"

namespace hds::graph {

namespace {

bool is_single_load(const Node& n) {
    return ir::as<ir::Load>(n.compute.value) != nullptr;
}

// The anchor passes an element of `b` by address (cp.async, atomics): such
// loads cannot become expressions. (copy_vec4 is rewritten into element loads
// when its source is inlined: scalarize_copies.)
bool takes_address(const Node& anchor, const ir::Buffer& b) {
    struct Finder : ir::IRVisitor {
        const ir::Buffer* b;
        bool found = false;
        void visit(const ir::Call* c) override {
            ir::IRVisitor::visit(c);
            if (c->builtin == Builtin::DeviceFn || c->builtin == Builtin::CopyVec4) return;
            BuiltinClass cls = builtin_info(c->builtin).cls;
            if (cls != BuiltinClass::Reference && cls != BuiltinClass::Atomic) return;
            for (const ir::Expr& a : c->args)
                if (auto* l = ir::as<ir::Load>(a)) found |= l->buffer == *b;
        }
    } f;
    f.b = &b;
    f.visit_stmt(anchor.anchor.body);
    return f.found;
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
        bool anchor_user = false, address = false;
        for (Node* u : users) {
            anchor_user |= u->kind == Node::Kind::Anchor;
            address |= u->kind == Node::Kind::Anchor && takes_address(*u, n->buffer);
        }
        if (address || (anchor_user && users.size() > 1 && !is_single_load(*n))) continue;
        for (Node* u : users) {
            if (u->kind == Node::Kind::Compute)
                rewrite_compute(u->compute, [&](const ir::Expr& e) { return inline_producer(e, *n); });
            else
                u->anchor.body =
                    replace_loads(scalarize_copies(u->anchor.body, n->buffer), [&](const ir::Load& l) -> ir::Expr {
                        return l.buffer == n->buffer ? value_at(n->compute, l.indices) : nullptr;
                    });
        }
        n->dead = true;
    }
}

}  // namespace hds::graph
