// swiglu_pattern.cpp — see swiglu_pattern.h.
#include "graph/swiglu_pattern.h"

#include "graph/pattern_reader.h"

namespace hds::graph {

namespace {

class Finder : PatternReader {
  public:
    explicit Finder(const BlockStmt& body) : PatternReader(body) {}

    std::map<const Expr*, SwigluMatch> run(const BlockStmt& body) {
        std::map<const Expr*, SwigluMatch> found;
        std::function<void(const Expr&)> visit = [&](const Expr& e) {
            SwigluMatch m;
            if (match(e, &m)) {
                found[&e] = m;
                return;
            }
            for_each_child(e, visit);
        };
        for_each_root(body, visit);
        return found;
    }

  private:
    // matmul(a, b), possibly as reshape(matmul(a, b), shape=..): the call, and the reshape.
    const CallExpr* product(const Expr& e, const CallExpr** reshape, std::map<std::string, const Expr*>* lets) const {
        const Expr* x = &look_through(e, lets);
        *reshape = call(*x, {"reshape"}, 1, {"shape"});
        if (*reshape && !shape_of(**reshape)) *reshape = nullptr;
        if (*reshape) x = &look_through(*positional(**reshape), lets);
        return call(*x, {"matmul"}, 2);
    }

    static const Expr* positional(const CallExpr& c) {
        for (const CallArg& a : c.args)
            if (a.name.empty()) return a.value.get();
        return nullptr;
    }

    static const Expr* shape_of(const CallExpr& reshape) {
        for (const CallArg& a : reshape.args)
            if (a.name == "shape") return a.value.get();
        return nullptr;
    }

    bool match(const Expr& root, SwigluMatch* m) {
        if (root.kind != ExprKind::Binary || as<BinaryExpr>(root).op != BinaryOp::Mul) return false;
        auto& mul = as<BinaryExpr>(root);
        for (bool swapped : {false, true}) {
            const Expr& gate = swapped ? *mul.rhs : *mul.lhs;
            const Expr& up = swapped ? *mul.lhs : *mul.rhs;
            std::map<std::string, const Expr*> lets;
            const CallExpr* silu = call(look_through(gate, &lets), {"silu"}, 1);
            if (!silu) continue;
            const CallExpr *rg = nullptr, *ru = nullptr;
            const CallExpr* g = product(*silu->args[0].value, &rg, &lets);
            const CallExpr* h = g ? product(up, &ru, &lets) : nullptr;
            if (!h || (rg == nullptr) != (ru == nullptr)) continue;
            if (rg && !same(*shape_of(*rg), *shape_of(*ru), &lets)) continue;
            if (!same(*g->args[0].value, *h->args[0].value, &lets)) continue;
            *m = {g->args[0].value.get(), g->args[1].value.get(), h->args[1].value.get(), rg, std::move(lets)};
            return true;
        }
        return false;
    }
};

}  // namespace

std::map<const Expr*, SwigluMatch> find_swiglu_patterns(const BlockStmt& body) {
    return Finder(body).run(body);
}

}  // namespace hds::graph
