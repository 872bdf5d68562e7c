// fuse_rows.cpp — reductions over the rows of an injective node, computed in
// its kernel: softmax (row max, row sum, then the row), layer norm (mean,
// variance, then the row). One block per row; the reductions' results never
// reach global memory.
#include "graph/passes/passes.h"
#include "graph/rewrite.h"
#include "graph/schedule.h"
#include "graph/shapes.h"

namespace hds::graph {

namespace {

class RowGrouper {
  public:
    RowGrouper(Graph& g, Node& out) : g_(g), out_(out) {
        rows_.assign(out.buffer->shape.begin(), out.buffer->shape.end() - 1);
    }

    // Collects the row reductions `e` reads at `axes`; false when something
    // else reads them or they are read elsewhere than at their row.
    bool collect(const ir::Expr& e, const std::vector<ir::Var>& axes) {
        bool ok = true;
        replace_loads(e, [&](const ir::Load& l) -> ir::Expr {
            Node* p = g_.producer(l.buffer);
            if (!p || !candidate(*p)) return nullptr;
            for (size_t d = 0; d < l.indices.size() && ok; ++d) ok = d < axes.size() && l.indices[d] == axes[d];
            if (ok && add(p)) {
                const Compute& c = p->compute;
                ok = collect(c.reduction->body, c.axes) && collect(c.value, c.axes);
                for (const ir::Expr& x : c.reduction->lo) ok = ok && collect(x, c.axes);
                for (const ir::Expr& x : c.reduction->hi) ok = ok && collect(x, c.axes);
            }
            return nullptr;
        });
        return ok;
    }

    // Every reader of the group's reductions is in the group.
    bool closed() const {
        for (Node* p : group_) {
            for (Node* n : g_.live()) {
                if (n == &out_ || contains(n)) continue;
                for (const ir::Buffer& b : reads(*n))
                    if (b == p->buffer) return false;
            }
            if (g_.output == p) return false;
        }
        return !group_.empty();
    }

    void fuse() {
        for (const auto& n : g_.nodes)  // the order of the graph is a topological one
            if (contains(n.get())) {
                out_.row_reductions.emplace_back(n->buffer, n->compute);
                out_.ops = n->ops == out_.ops ? out_.ops : n->ops + "+" + out_.ops;
                n->dead = true;
            }
        out_.kind = Node::Kind::RowGroup;
    }

  private:
    bool candidate(const Node& p) const {
        return p.kind == Node::Kind::Compute && p.compute.reduction &&
               same_shape(storage_shape(rows_), p.buffer->shape) && p.buffer->shape.size() == rows_.size() &&
               contiguous_rows(p.compute);
    }
    bool contains(const Node* n) const { return std::find(group_.begin(), group_.end(), n) != group_.end(); }
    bool add(Node* p) {
        if (contains(p)) return false;
        group_.push_back(p);
        return true;
    }

    Graph& g_;
    Node& out_;
    Shape rows_;
    std::vector<Node*> group_;
};

}  // namespace

void fuse_rows(Graph& g) {
    for (Node* n : g.live()) {
        if (n->kind != Node::Kind::Compute || !n->compute.injective() || n->buffer->shape.size() < 2) continue;
        RowGrouper grouper(g, *n);
        std::vector<ir::Var> rows(n->compute.axes.begin(), n->compute.axes.end() - 1);
        if (grouper.collect(n->compute.value, rows) && grouper.closed()) grouper.fuse();
    }
}

}  // namespace hds::graph
