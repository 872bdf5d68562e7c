// fuse_epilogues.cpp — injective users folded into how a reduction or an
// anchor stores its result.
#include <algorithm>

#include "graph/passes/passes.h"
#include "graph/rewrite.h"
#include "graph/shapes.h"
#include "ir/ir_mutator.h"
#include "ir/ir_visitor.h"
#include "ir/name_gen.h"

namespace hds::graph {

namespace {

// The only live user of `b` (null when there are none, several, or the graph returns b).
Node* only_user(Graph& g, const ir::Buffer& b) {
    if (g.output && g.output->buffer == b) return nullptr;
    Node* user = nullptr;
    for (Node* n : g.live()) {
        for (const ir::Buffer& r : reads(*n)) {
            if (r != b) continue;
            if (user) return nullptr;
            user = n;
        }
    }
    return user;
}

// Every load of `b` in `e` is at exactly `axes`.
bool reads_at_own_index(const ir::Expr& e, const ir::Buffer& b, const std::vector<ir::Var>& axes) {
    bool ok = true;
    replace_loads(e, [&](const ir::Load& l) -> ir::Expr {
        if (l.buffer != b) return nullptr;
        for (size_t d = 0; d < l.indices.size(); ++d) ok &= l.indices[d] == axes[d];
        return nullptr;
    });
    return ok;
}

// Stores into `from` become stores of the epilogue's value into its buffer.
class EpilogueStores : public ir::IRMutator {
  public:
    // The value the producer stored gets a name (the producer's buffer name, made unique).
    EpilogueStores(const Graph& g, const Node& producer, const Node& epilogue)
        : p_(producer), c_(epilogue), names_(producer.anchor.body) {
        for (const Node* n : g.live()) names_.reserve(n->buffer->name);
        name_ = names_.fresh(producer.buffer->name);
    }

  protected:
    ir::Stmt visit(const ir::Store* op, const ir::Stmt& self) override {
        if (op->buffer != p_.buffer || op->op) return self;
        bool simple =
            ir::as<ir::VarNode>(op->value) || ir::as<ir::IntImm>(op->value) || ir::as<ir::FloatImm>(op->value);
        std::vector<ir::Stmt> stmts;
        ir::Expr v = op->value;
        if (!simple) {
            ir::Var tmp = ir::make_var(v->type, name_);
            stmts.push_back(ir::Decl::make(op->loc, tmp, v, true));
            v = tmp;
        }
        VarMap at;
        for (size_t d = 0; d < op->indices.size(); ++d) at[c_.compute.axes[d].get()] = op->indices[d];
        ir::Expr value = substitute(c_.compute.value, at);
        value = replace_loads(value, [&](const ir::Load& l) { return l.buffer == p_.buffer ? v : nullptr; });
        stmts.push_back(ir::Store::make(op->loc, c_.buffer, op->indices, value));
        return stmts.size() == 1 ? stmts[0] : ir::Block::make(op->loc, stmts);
    }

  private:
    const Node& p_;
    const Node& c_;
    ir::NameGen names_;
    std::string name_;
};

bool fuse_one(Graph& g, Node* p) {
    Node* c = only_user(g, p->buffer);
    if (!c || c->kind != Node::Kind::Compute || !c->compute.injective()) return false;
    if (!same_shape(c->buffer->shape, p->buffer->shape)) return false;
    if (!reads_at_own_index(c->compute.value, p->buffer, c->compute.axes)) return false;
    if (p->kind == Node::Kind::Compute) {
        VarMap to_p;
        for (size_t d = 0; d < c->compute.axes.size(); ++d) to_p[c->compute.axes[d].get()] = p->compute.axes[d];
        ir::Expr value = substitute(c->compute.value, to_p);
        p->compute.value =
            replace_loads(value, [&](const ir::Load& l) { return l.buffer == p->buffer ? p->compute.value : nullptr; });
    } else {
        p->anchor.body = EpilogueStores(g, *p, *c).mutate(p->anchor.body);
    }
    p->buffer = c->buffer;
    p->ops += "+" + c->ops;
    c->dead = true;
    if (g.output == c) g.output = p;
    // p now also reads c's other inputs: it takes c's place in the order.
    auto pos_p = std::find_if(g.nodes.begin(), g.nodes.end(), [&](auto& n) { return n.get() == p; });
    auto pos_c = std::find_if(g.nodes.begin(), g.nodes.end(), [&](auto& n) { return n.get() == c; });
    std::rotate(pos_p, pos_p + 1, pos_c + 1);
    return true;
}

}  // namespace

void fuse_epilogues(Graph& g) {
    for (Node* p : g.live()) {
        if (p->kind == Node::Kind::Anchor || (p->kind == Node::Kind::Compute && !p->compute.injective()))
            while (fuse_one(g, p)) {
            }
    }
}

}  // namespace hds::graph
