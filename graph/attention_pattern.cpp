// attention_pattern.cpp — see attention_pattern.h.
#include "graph/attention_pattern.h"

#include <functional>
#include <vector>

#include "graph/layout_ops.h"

namespace hds::graph {

namespace {

class Finder {
  public:
    explicit Finder(const BlockStmt& body) {
        for (const StmtPtr& s : body.stmts) {
            if (s->kind == StmtKind::Let) {
                auto& l = as<LetStmt>(*s);
                if (l.init) {
                    lets_[l.name] = l.init.get();
                    count_uses(*l.init);
                }
            } else if (s->kind == StmtKind::Return && as<ReturnStmt>(*s).value) {
                count_uses(*as<ReturnStmt>(*s).value);
            }
        }
    }

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
        for (const StmtPtr& s : body.stmts) {
            if (s->kind == StmtKind::Let && as<LetStmt>(*s).init) visit(*as<LetStmt>(*s).init);
            if (s->kind == StmtKind::Return && as<ReturnStmt>(*s).value) visit(*as<ReturnStmt>(*s).value);
        }
        return found;  // (a let read through is used once: no two matches share one)
    }

  private:
    static void for_each_child(const Expr& e, const std::function<void(const Expr&)>& f) {
        if (e.kind == ExprKind::Call)
            for (const CallArg& a : as<CallExpr>(e).args) f(*a.value);
        if (e.kind == ExprKind::Binary) {
            f(*as<BinaryExpr>(e).lhs);
            f(*as<BinaryExpr>(e).rhs);
        }
        if (e.kind == ExprKind::Unary) f(*as<UnaryExpr>(e).operand);
    }

    void count_uses(const Expr& e) {
        if (e.kind == ExprKind::Name) ++uses_[as<NameExpr>(e).name];
        for_each_child(e, [this](const Expr& c) { count_uses(c); });
    }

    // e itself, or the value of the let it names when nothing else uses that let.
    const Expr& look_through(const Expr& e, std::map<std::string, const Expr*>* lets) {
        if (e.kind != ExprKind::Name) return e;
        const std::string& n = as<NameExpr>(e).name;
        auto it = lets_.find(n);
        if (it == lets_.end() || uses_[n] != 1) return e;
        (*lets)[n] = it->second;
        return look_through(*it->second, lets);
    }

    // A call of `name` (one of `names`) with `count` positional arguments and no named ones
    // but those in `named`.
    static const CallExpr* call(const Expr& e, std::initializer_list<const char*> names, size_t count,
                                std::initializer_list<const char*> named = {}) {
        if (e.kind != ExprKind::Call) return nullptr;
        auto& c = as<CallExpr>(e);
        bool known = false;
        for (const char* n : names) known |= c.callee == n;
        size_t positional = 0;
        for (const CallArg& a : c.args) {
            if (a.name.empty()) {
                ++positional;
                continue;
            }
            bool allowed = false;
            for (const char* n : named) allowed |= a.name == n;
            if (!allowed) return nullptr;
        }
        return known && positional == count ? &c : nullptr;
    }

    static bool literal(const Expr& e, double* v) {
        if (e.kind == ExprKind::FloatLit)
            *v = as<FloatLit>(e).value;
        else if (e.kind == ExprKind::IntLit)
            *v = static_cast<double>(as<IntLit>(e).value);
        else
            return false;
        return true;
    }

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

    std::map<std::string, const Expr*> lets_;
    std::map<std::string, int> uses_;
};

}  // namespace

std::map<const Expr*, AttentionMatch> find_attention_patterns(const BlockStmt& body) {
    return Finder(body).run(body);
}

}  // namespace hds::graph
