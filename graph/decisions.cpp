// decisions.cpp — the values a graph build gives conditions on symbolic sizes.
#include "graph/decisions.h"

#include <algorithm>

#include "ir/ir_mutator.h"
#include "ir/ir_printer.h"
#include "ir/passes/passes.h"

namespace hds::graph {

namespace {

// `X <= c` with c a constant: X's text and c.
std::optional<std::pair<std::string, int64_t>> upper_bound(const ir::Expr& e) {
    auto* b = ir::as<ir::Binary>(e);
    if (!b || b->op != ir::BinOp::Le) return std::nullopt;
    auto c = ir::const_int(b->b);
    if (!c) return std::nullopt;
    return std::make_pair(ir::to_string(b->a), *c);
}

std::vector<std::string> conjunct_texts(const ir::Expr& e) {
    std::vector<std::string> out;
    for (const ir::Expr& p : conjuncts(e)) out.push_back(ir::to_string(p));
    return out;
}

}  // namespace

std::vector<ir::Expr> conjuncts(const ir::Expr& e) {
    auto* b = ir::as<ir::Binary>(e);
    if (!b || b->op != ir::BinOp::And) return {e};
    std::vector<ir::Expr> out = conjuncts(b->a);
    for (const ir::Expr& p : conjuncts(b->b)) out.push_back(p);
    return out;
}

// What the decisions made so far say of `e` (one conjunct): a condition taken
// as true holds each of its conjuncts, and bounds on one size imply each
// other (`M <= 16` true: `M <= 256` holds; `M <= 256` false: `M <= 16` fails).
std::optional<bool> Decisions::known(const ir::Expr& e, int depth) const {
    if (auto* u = ir::as<ir::Unary>(e); u && u->op == ir::UnOp::Not) {
        // `!(K % 8 == 0 && N % 8 == 0)`: the opposite of what the decisions say of the inner condition.
        std::optional<bool> inner = depth < kMaxDepth ? determined(u->a, depth + 1) : std::nullopt;
        return inner ? std::optional<bool>(!*inner) : std::nullopt;
    }
    std::string text = ir::to_string(e);
    auto bound = upper_bound(e);
    for (const Made& m : made_) {
        // A false && says nothing of its parts.
        std::vector<ir::Expr> parts = m.value ? conjuncts(m.condition.expr) : std::vector<ir::Expr>{m.condition.expr};
        for (const ir::Expr& p : parts) {
            if (ir::to_string(p) == text) return m.value;
            auto other = upper_bound(p);
            if (!bound || !other || other->first != bound->first) continue;
            if (m.value && other->second <= bound->second) return true;
            if (!m.value && bound->second <= other->second) return false;
        }
    }
    return std::nullopt;
}

bool Decisions::decide(const Condition& c) {
    if (evaluate_) {
        struct Sizes : ir::IRMutator {
            const std::map<std::string, int64_t>* at;
            ir::Expr visit(const ir::VarNode* v, const ir::Expr& self) override {
                auto it = at->find(v->name);
                return it == at->end() ? self : ir::IntImm::make(v->type, it->second);
            }
        } sizes;
        sizes.at = &at_;
        return ir::const_bool(ir::simplify(sizes.mutate(c.expr))).value_or(false);
    }
    // A condition the earlier ones decide gets no decision of its own: a case that
    // cannot occur gets no build.
    if (std::optional<bool> v = determined(c.expr)) return *v;
    bool value = made_.size() < forced_.size() ? forced_[made_.size()] : true;
    made_.push_back({c, ir::to_string(c.expr), value});
    return value;
}

// The value of `e` the decisions made so far imply: the one it got (the same
// text); false where `!e` was taken as true; true when each of its conjuncts
// is known to hold; false when one is known not to, or when it implies a
// condition taken as false (every conjunct of that one is one of its own or
// known to hold); else none.
std::optional<bool> Decisions::determined(const ir::Expr& e, int depth) const {
    std::string text = ir::to_string(e);
    for (const Made& m : made_) {
        if (m.text == text) return m.value;
        if (!m.value) continue;
        for (const ir::Expr& p : conjuncts(m.condition.expr))  // `!e` taken as true
            if (auto* u = ir::as<ir::Unary>(p); u && u->op == ir::UnOp::Not && ir::to_string(u->a) == text)
                return false;
    }
    bool all = true;
    for (const ir::Expr& p : conjuncts(e)) {
        std::optional<bool> v = known(p, depth);
        if (v == std::optional<bool>(false)) return false;
        all &= v.has_value();
    }
    if (all) return true;
    std::vector<std::string> mine = conjunct_texts(e);
    for (const Made& m : made_) {
        if (m.value) continue;
        bool implied = true;  // each conjunct of m is one of e's, or known to hold
        for (const ir::Expr& p : conjuncts(m.condition.expr))
            implied &= std::find(mine.begin(), mine.end(), ir::to_string(p)) != mine.end() ||
                       known(p, depth) == std::optional<bool>(true);
        if (implied) return false;
    }
    return std::nullopt;
}

std::vector<Condition> Decisions::taken() const {
    std::vector<Condition> out;
    for (const Made& m : made_)
        if (m.value) out.push_back(m.condition);
    return out;
}

std::optional<std::vector<bool>> Decisions::next() const {
    for (size_t i = made_.size(); i-- > 0;) {
        if (!made_[i].value) continue;
        std::vector<bool> forced;
        for (size_t j = 0; j < i; ++j) forced.push_back(made_[j].value);
        forced.push_back(false);
        return forced;
    }
    return std::nullopt;
}

}  // namespace hds::graph
