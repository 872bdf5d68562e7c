// decisions.cpp — the values a graph build gives conditions on symbolic sizes.
#include "graph/decisions.h"

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

}  // namespace

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
    std::string text = ir::to_string(c.expr);
    for (const Made& m : made_)
        if (m.text == text) return m.value;
    // Bounds on one size imply each other (`M <= 16` taken: `M <= 256` holds): a case
    // that cannot occur gets no build.
    if (auto bound = upper_bound(c.expr)) {
        for (const Made& m : made_) {
            auto other = upper_bound(m.condition.expr);
            if (!other || other->first != bound->first) continue;
            if (m.value && other->second <= bound->second) return true;
            if (!m.value && bound->second <= other->second) return false;
        }
    }
    bool value = made_.size() < forced_.size() ? forced_[made_.size()] : true;
    made_.push_back({c, text, value});
    return value;
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
