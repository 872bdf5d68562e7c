// attention_pattern.cpp — see attention_pattern.h.
#include "graph/attention_pattern.h"

#include <functional>
#include <vector>

#include "graph/layout_ops.h"
#include "graph/pattern_reader.h"

namespace hds::graph {

namespace {

class Finder : PatternReader {
  public:
    explicit Finder(const BlockStmt& body) : PatternReader(body) {}

    std::map<const Expr*, AttentionMatch> run(const BlockStmt& body) {
        std::map<const Expr*, AttentionMatch> found;
        std::function<void(const Expr&)> visit = [&](const Expr& e) {
            AttentionMatch m;
            if (match(e, &m)) {
                found[&e] = m;
                return;  // its operands are not searched again
            }
            for_each_child(e, visit);
        };
        for_each_root(body, visit);
        return found;  // (a let read through is used once: no two matches share one)
    }

  private:
    // k's transpose over its last two dimensions, permute(k, dims=[0, .., n - 1, n - 2]) with
    // n >= 3 (attention takes [.., heads, rows, d]: `transpose` of a 2-D k has no head).
    static const Expr* transposed(const Expr& e) {
        const CallExpr* p = call(e, {"permute"}, 1, {"dims"});
        if (!p || p->args.size() != 2) return nullptr;
        std::vector<int64_t> dims;
        if (!int_list(p->args[1].value.get(), &dims) || dims.size() < 3) return nullptr;
        size_t n = dims.size();
        for (size_t i = 0; i + 2 < n; ++i)
            if (dims[i] != static_cast<int64_t>(i)) return nullptr;
        if (dims[n - 2] != static_cast<int64_t>(n - 1) || dims[n - 1] != static_cast<int64_t>(n - 2)) return nullptr;
        return p->args[0].value.get();
    }

    bool match(const Expr& root, AttentionMatch* m) {
        const CallExpr* pv = call(root, {"bmm"}, 2);
        if (!pv) return false;
        const CallExpr* sm = call(look_through(*pv->args[0].value, &m->lets), {"softmax"}, 1);
        if (!sm) return false;
        const Expr* s = &look_through(*sm->args[0].value, &m->lets);
        // The mask outside the scale or inside it (then only for a positive scale, which
        // keeps masked scores the lowest).
        auto unmask = [&] {
            if (const CallExpr* c = call(*s, {"causal_mask"}, 1); c && !m->causal) {
                m->causal = true;
                s = &look_through(*c->args[0].value, &m->lets);
            }
        };
        unmask();
        if (s->kind == ExprKind::Binary) {
            auto& b = as<BinaryExpr>(*s);
            double c = 0;
            if (b.op == BinaryOp::Mul && literal(*b.rhs, &c)) {
                s = b.lhs.get();
            } else if (b.op == BinaryOp::Mul && literal(*b.lhs, &c)) {
                s = b.rhs.get();
            } else if (b.op == BinaryOp::Div && literal(*b.rhs, &c) && c != 0) {
                s = b.lhs.get();
                c = 1.0 / c;
            } else {
                return false;
            }
            m->scale = c;
            s = &look_through(*s, &m->lets);
            if (c > 0) unmask();
        }
        const CallExpr* qk = call(*s, {"bmm"}, 2);
        if (!qk) return false;
        m->k = transposed(look_through(*qk->args[1].value, &m->lets));
        if (!m->k) return false;
        m->q = qk->args[0].value.get();
        m->v = pv->args[1].value.get();
        return true;
    }
};

}  // namespace

std::map<const Expr*, AttentionMatch> find_attention_patterns(const BlockStmt& body) {
    return Finder(body).run(body);
}

}  // namespace hds::graph
