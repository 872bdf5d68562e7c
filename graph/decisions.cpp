// decisions.cpp — the values a graph build gives conditions on symbolic sizes.
#include "graph/decisions.h"

#include <fmt/format.h>

#include <algorithm>
#include <mutex>
#include <unordered_map>

#include "ir/evaluate.h"
#include "ir/ir_mutator.h"
#include "ir/ir_printer.h"
#include "ir/ir_visitor.h"
#include "ir/passes/passes.h"
#include "ir/polynomial.h"

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

// The sizes an expression names, each once, added to `out`.
void size_names(const ir::Expr& e, std::vector<std::string>& out) {
    struct Names : ir::IRVisitor {
        std::vector<std::string>* out;
        void visit(const ir::VarNode* v) override {
            if (std::find(out->begin(), out->end(), v->name) == out->end()) out->push_back(v->name);
        }
    } names;
    names.out = &out;
    names.visit_expr(e);
}

// Sizes a graph is called with: small ones, both sides of powers of two, model widths.
// (Tiles of 16-row steps up to 192: a schedule whose `when` holds only between two samples
// is never emitted, as 161-176 and 177-192 rows were.)
constexpr int64_t kSampleSizes[] = {1,    2,    3,    4,    7,     8,     13,    15,    16,    17,    24,    31,   32,
                                    33,   48,   63,   64,   65,    77,    96,    100,   127,   128,   129,   144,  160,
                                    176,  192,  200,  255,  256,   257,   300,   384,   511,   512,   513,   600,  768,
                                    1000, 1023, 1024, 1025, 1300,  1536,  2048,  2049,  2304,  3072,  4095,  4096, 4097,
                                    5000, 6144, 8192, 8193, 11008, 12288, 14336, 16384, 32768, 65536, 131072};

// Whether two conditions are one: the same text, or the same comparison of sides that are
// equal as polynomials (`K * N >= c` of one matmul and `N * K >= c` of another, over the
// same two sizes).
bool same_condition(const ir::Expr& a, const std::string& a_text, const ir::Expr& b, const std::string& b_text) {
    if (b_text == a_text) return true;
    auto* x = ir::as<ir::Binary>(a);
    auto* y = ir::as<ir::Binary>(b);
    return x && y && x->op == y->op && ir::is_comparison(x->op) && is_int(x->a->type) && is_int(y->a->type) &&
           ir::same_value(x->a, y->a) && ir::same_value(x->b, y->b);
}

std::vector<std::string> conjunct_texts(const ir::Expr& e) {
    std::vector<std::string> out;
    for (const ir::Expr& p : conjuncts(e)) out.push_back(ir::to_string(p));
    return out;
}

}  // namespace

std::optional<Condition> shared_memory_condition(int arch, int64_t bytes) {
    if (arch >= 90 || bytes <= ir::kSharedMemorySm86) return std::nullopt;
    ir::Expr device = ir::make_var(ScalarType::I32, kSharedMemoryName);
    return Condition{ir::Binary::make(ir::BinOp::Ge, device, ir::IntImm::make(ScalarType::I32, bytes)),
                     fmt::format("{} bytes of shared memory a block: more than the 99 KiB of sm_86/89/120 GPUs", bytes),
                     "smem"};
}

Condition sm90a_condition() {
    return Condition{ir::make_var(ScalarType::Bool, kSm90aCodeName),
                     "the device runs this file's sm_90a code: an H100/H200, the .cu built for compute_90a", "sm90a"};
}

bool is_sm90a_condition(const Condition& c) {
    auto* v = ir::as<ir::VarNode>(c.expr);
    return v && v->name == kSm90aCodeName;
}

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
        size_t n = m.value ? m.parts.size() : 1;
        for (size_t i = 0; i < n; ++i) {
            const ir::Expr& p = m.value ? m.parts[i] : m.condition.expr;
            if (same_condition(e, text, p, m.value ? m.part_texts[i] : m.text)) return m.value;
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
    if (!possible(c)) return false;
    bool value = made_.size() < forced_.size() ? forced_[made_.size()] : true;
    std::vector<ir::Expr> parts = conjuncts(c.expr);
    std::vector<std::string> part_texts;
    for (const ir::Expr& p : parts) part_texts.push_back(ir::to_string(p));
    made_.push_back({c, ir::to_string(c.expr), value, std::move(parts), std::move(part_texts)});
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
        if (same_condition(e, text, m.condition.expr, m.text)) return m.value;
        if (!m.value) continue;
        for (const ir::Expr& p : m.parts)  // `!e` taken as true
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
        for (size_t i = 0; i < m.parts.size(); ++i)
            implied &= std::find(mine.begin(), mine.end(), m.part_texts[i]) != mine.end() ||
                       known(m.parts[i], depth) == std::optional<bool>(true);
        if (implied) return false;
    }
    return std::nullopt;
}

// Whether some sample sizes satisfy `c` and the decisions made so far. The answer depends on their
// texts alone, and a graph's variants ask the same questions again and again (each variant's
// build replays its decisions): answers are kept for the process (a symbolic Llama MLP's
// variants took 13 s, most of it here).
bool Decisions::possible(const Condition& c) const {
    std::string key = ir::to_string(c.expr);
    for (const Made& m : made_) key += (m.value ? "\n+ " : "\n- ") + m.text;
    static std::mutex mutex;
    static std::unordered_map<std::string, bool> answers;
    {
        std::lock_guard<std::mutex> lock(mutex);
        if (auto it = answers.find(key); it != answers.end()) return it->second;
    }
    bool answer = sample(c);
    std::lock_guard<std::mutex> lock(mutex);
    answers.emplace(std::move(key), answer);
    return answer;
}

bool Decisions::sample(const Condition& c) const {
    std::vector<std::string> names;
    size_names(c.expr, names);
    for (const Made& m : made_) size_names(m.condition.expr, names);
    if (names.empty()) return true;
    // Each size's samples, less those that a conjunct over that size alone of a condition that
    // must hold rules out (`M > 112 && M <= 128 && ...` leaves M two of them): three sizes with
    // narrow bands each would otherwise rarely meet in a random pick of their combinations.
    std::map<std::string, std::vector<ir::Expr>> own;  // per size, the conjuncts over it alone
    auto add_own = [&](const ir::Expr& e) {
        for (const ir::Expr& p : conjuncts(e)) {
            std::vector<std::string> of;
            size_names(p, of);
            if (of.size() == 1) own[of[0]].push_back(p);
        }
    };
    add_own(c.expr);
    for (const Made& m : made_)
        if (m.value) add_own(m.condition.expr);
    std::vector<std::vector<int64_t>> domain(names.size());
    for (size_t i = 0; i < names.size(); ++i) {
        // The device's shared memory: 99, 163 and 227 KiB (ir.h).
        static const std::vector<int64_t> device = {ir::kSharedMemorySm86, ir::kSharedMemorySm80,
                                                    ir::kSharedMemorySm90};
        static const std::vector<int64_t> sizes(std::begin(kSampleSizes), std::end(kSampleSizes));
        for (int64_t v : names[i] == kSharedMemoryName ? device : sizes) {
            std::map<std::string, int64_t> one = {{names[i], v}};
            bool ok = true;
            for (const ir::Expr& p : own[names[i]]) {
                std::optional<int64_t> r = ir::evaluate(p, one);
                ok = ok && (!r || *r != 0);
            }
            if (ok) domain[i].push_back(v);
        }
        if (domain[i].empty()) return false;
    }
    // Every combination where they number at most 20000; past that a fixed pseudo-random 20000.
    size_t total = 1;
    for (const auto& d : domain) total = std::min<size_t>(total * d.size(), 20001);
    size_t points = std::min<size_t>(total, 20000);
    uint64_t state = 0x9E3779B97F4A7C15ull;
    // The conditions to hold (the new one true, the ones made so far their values), each
    // compiled over the sizes' positions in `names`.
    std::vector<std::pair<ir::CompiledExpr, bool>> conds = {{ir::CompiledExpr(c.expr, names), true}};
    for (const Made& m : made_) conds.emplace_back(ir::CompiledExpr(m.condition.expr, names), m.value);
    std::vector<int64_t> at(names.size());
    for (size_t p = 0; p < points; ++p) {
        size_t rest = p;
        for (size_t i = 0; i < names.size(); ++i) {
            size_t pick = rest % domain[i].size();
            rest /= domain[i].size();
            if (total > 20000) {
                state = state * 6364136223846793005ull + 1442695040888963407ull;
                pick = static_cast<size_t>(state >> 33) % domain[i].size();
            }
            at[i] = domain[i][pick];
        }
        bool ok = true;
        for (size_t k = 0; ok && k < conds.size(); ++k) {
            std::optional<int64_t> v = conds[k].first(at);
            ok = !v || (*v != 0) == conds[k].second;  // unknown: not ruled out
        }
        if (ok) return true;
    }
    return false;
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
