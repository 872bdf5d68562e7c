// inline_injective.cpp — injective nodes inlined into their users.
#include "graph/passes/passes.h"
#include "graph/rewrite.h"
#include "graph/schedule.h"
#include "graph/shapes.h"
#include "ir/ir_visitor.h"
#include "ir/passes/passes.h"

namespace hds::graph {

namespace {

bool is_single_load(const Node& n) {
    return ir::as<ir::Load>(n.compute.value) != nullptr;
}

// How the anchor passes elements of `b` by address (cp.async, atomics): such
// loads cannot become expressions, except where only cp.async copies them and `b`
// is a contiguous remapping (below). (copy_vec4 is rewritten into element loads
// when its source is inlined: scalarize_copies.)
struct AddressUse {
    bool any = false;    // some built-in takes an element's address
    bool other = false;  // one other than cp.async does
};
AddressUse address_use(const Node& anchor, const ir::Buffer& b) {
    struct Finder : ir::IRVisitor {
        const ir::Buffer* b;
        AddressUse use;
        void visit(const ir::Call* c) override {
            ir::IRVisitor::visit(c);
            if (c->builtin == Builtin::DeviceFn || c->builtin == Builtin::CopyVec4) return;
            BuiltinClass cls = builtin_info(c->builtin).cls;
            if (cls != BuiltinClass::Reference && cls != BuiltinClass::Atomic) return;
            for (const ir::Expr& a : c->args)
                if (auto* l = ir::as<ir::Load>(a); l && l->buffer == *b) {
                    use.any = true;
                    use.other |= c->builtin != Builtin::CpAsync16;
                }
        }
    } f;
    f.b = &b;
    f.visit_stmt(anchor.anchor.body);
    return f.use;
}

// The terms of a sum (`a + (b + c)` -> a, b, c).
void terms(const ir::Expr& e, std::vector<ir::Expr>* out) {
    if (auto* add = ir::as<ir::Binary>(e); add && add->op == ir::BinOp::Add) {
        terms(add->a, out);
        terms(add->b, out);
    } else {
        out->push_back(e);
    }
}

// Whether `n` only moves the elements of another buffer of its type (a transpose of
// the leading dimensions, a head split: `x[i1, i0, i2]`) so that its element
// (.., i) lies at x's row-major offset E + i, E a multiple of 16 bytes: then the
// address of x's element serves where cp.async copies 16 bytes of n's row.
bool contiguous_remap(const Node& n) {
    auto* l = ir::as<ir::Load>(n.compute.value);
    if (!l || l->buffer->elem != n.buffer->elem || n.compute.axes.empty()) return false;
    ir::Expr offset = ir::i32(0);
    for (size_t d = 0; d < l->indices.size(); ++d)
        offset = ir::add(ir::mul(offset, l->buffer->shape[d]), l->indices[d]);
    std::vector<ir::Expr> parts;
    terms(ir::simplify(offset), &parts);
    const ir::Var& last = n.compute.axes.back();
    int64_t chunk = 16 / byte_size(n.buffer->elem), constant = 0;
    int seen = 0;
    for (const ir::Expr& t : parts) {
        if (t.get() == last.get()) {
            ++seen;
        } else if (auto c = ir::const_int(t)) {
            constant += *c;
        } else if (uses(t, last) || ir::const_bool(divisible(t, chunk)) != std::optional<bool>(true)) {
            return false;
        }
    }
    return seen == 1 && constant % chunk == 0;
}

std::vector<Node*> users_of(const Graph& g, const Node& n) {
    std::vector<Node*> users;
    for (Node* u : g.live())
        for (const ir::Buffer& r : reads(*u))
            if (r == n.buffer) users.push_back(u);
    return users;
}

// Whether `n` stays a node of its own: an anchor loads each input element many
// times (once per tile that needs it), so only an index remapping or a single
// user's value is worth recomputing there, and one that takes the elements'
// addresses (TMA, cp.async but for contiguous remappings) needs them in memory.
bool stays(const Node& n, const std::vector<Node*>& users) {
    bool anchor_user = false, address = false;
    for (Node* u : users) {
        anchor_user |= u->kind == Node::Kind::Anchor;
        if (u->kind != Node::Kind::Anchor) continue;
        AddressUse use = address_use(*u, n.buffer);
        address |= use.any && (use.other || !contiguous_remap(n));
    }
    return address || (anchor_user && users.size() > 1 && !is_single_load(n));
}

// A reshape that stays becomes a view of its input's memory (program.cpp), and
// one that cp.async copies from is read at its input's addresses: its producer is
// not inlined into it, or the reshape would compute and store it.
bool view_user(const Graph& g, const std::vector<Node*>& users) {
    for (Node* u : users) {
        if (u == g.output || !reshape_source(*u)) continue;
        std::vector<Node*> readers = users_of(g, *u);
        if (stays(*u, readers)) return true;
        for (Node* r : readers)
            if (r->kind == Node::Kind::Anchor && address_use(*r, u->buffer).any) return true;
    }
    return false;
}

}  // namespace

void inline_injective(Graph& g) {
    for (Node* n : g.live()) {
        if (n->kind != Node::Kind::Compute || !n->compute.injective() || n == g.output) continue;
        std::vector<Node*> users = users_of(g, *n);
        if (stays(*n, users) || view_user(g, users)) continue;
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
