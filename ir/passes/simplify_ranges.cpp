// simplify_ranges.cpp — integer division and remainder by a positive constant,
// simplified with the value ranges of thread indices (from a constant block),
// loop variables and `let` values. The case that matters: a task-mapping index
// such as m = m_r * 32 + threadIdx.x / 8 with a 256-thread block gives
// m / 32 == m_r and m % 32 == threadIdx.x / 8, so a repeat index can address a
// register array without forcing it into local memory. Only non-negative
// operands of signed types are rewritten (where C's truncation is floor).
#include <unordered_map>

#include "ir/ir_mutator.h"
#include "ir/passes/passes.h"

namespace hds::ir {

namespace {

struct Interval {
    int64_t lo, hi;  // inclusive
};

class RangeSimplify : public IRMutator {
  public:
    explicit RangeSimplify(const std::vector<int64_t>& block) : block_(block) {}

  protected:
    Expr visit(const Binary* op, const Expr& self) override {
        Expr a = mutate(op->a), b = mutate(op->b);
        auto c = const_int(b);
        bool signed_int = op->type == ScalarType::I32 || op->type == ScalarType::I64;
        if (signed_int && c && *c > 0 && (op->op == BinOp::Div || op->op == BinOp::Mod))
            if (Expr r = div_mod(op->op, a, *c)) return r;
        return a == op->a && b == op->b ? self : Binary::make(op->op, a, b);
    }

    Stmt visit(const Decl* op, const Stmt& self) override {
        Stmt s = IRMutator::visit(op, self);
        auto* d = as<Decl>(s);
        if (d->is_const) {
            if (auto r = range(d->init)) ranges_[d->var.get()] = *r;
            defs_[d->var.get()] = d->init;
        }
        return s;
    }

    Stmt visit(const For* op, const Stmt& self) override {
        auto lo = range(op->lo), hi = range(op->hi), step = range(op->step);
        if (lo && hi && step && step->lo > 0 && hi->hi - 1 >= lo->lo) ranges_[op->var.get()] = {lo->lo, hi->hi - 1};
        return IRMutator::visit(op, self);
    }

  private:
    std::optional<Interval> range(const Expr& e) const {
        if (auto c = const_int(e)) return Interval{*c, *c};
        if (auto* v = as<VarNode>(e)) {
            auto it = ranges_.find(v);
            if (it != ranges_.end()) return it->second;
            return std::nullopt;
        }
        if (auto* s = as<SpecialReg>(e)) {
            switch (s->which) {
                case SpecialKind::ThreadIdx: {
                    int64_t n = s->dim < static_cast<int>(block_.size()) && block_[s->dim] > 0 ? block_[s->dim]
                                : s->dim < static_cast<int>(block_.size())                     ? 1024
                                                                                               : 1;
                    return Interval{0, n - 1};
                }
                case SpecialKind::BlockIdx:
                    return Interval{0, s->dim == 0 ? INT32_MAX - 1 : 65534};
                case SpecialKind::BlockDim:
                    return Interval{1, 1024};
                case SpecialKind::GridDim:
                    return Interval{1, s->dim == 0 ? INT32_MAX : 65535};
            }
        }
        auto* b = as<Binary>(e);
        if (!b || !(b->type == ScalarType::I32 || b->type == ScalarType::I64)) return std::nullopt;
        auto x = range(b->a), y = range(b->b);
        if (!x || !y) return std::nullopt;
        __int128 lo, hi;
        switch (b->op) {
            case BinOp::Add:
                lo = (__int128)x->lo + y->lo, hi = (__int128)x->hi + y->hi;
                break;
            case BinOp::Sub:
                lo = (__int128)x->lo - y->hi, hi = (__int128)x->hi - y->lo;
                break;
            case BinOp::Mul: {
                if (x->lo < 0 || y->lo < 0) return std::nullopt;
                lo = (__int128)x->lo * y->lo, hi = (__int128)x->hi * y->hi;
                break;
            }
            case BinOp::Div:
                if (x->lo < 0 || y->lo <= 0) return std::nullopt;
                lo = x->lo / y->hi, hi = x->hi / y->lo;
                break;
            case BinOp::Mod:
                if (x->lo < 0 || y->lo <= 0) return std::nullopt;
                lo = 0, hi = std::min(x->hi, y->hi - 1);
                break;
            default:
                return std::nullopt;
        }
        // Bounds that could wrap tell nothing.
        __int128 min = b->type == ScalarType::I32 ? INT32_MIN : INT64_MIN;
        __int128 max = b->type == ScalarType::I32 ? INT32_MAX : INT64_MAX;
        if (lo < min || hi > max) return std::nullopt;
        return Interval{static_cast<int64_t>(lo), static_cast<int64_t>(hi)};
    }

    bool non_negative(const Expr& e) const {
        auto r = range(e);
        return r && r->lo >= 0;
    }

    // e * k with k a multiple of c: returns e * (k / c); a constant multiple of c likewise.
    Expr divide_exact(const Expr& e, int64_t c) const {
        if (auto v = const_int(e)) return *v % c == 0 ? IntImm::make(e->type, *v / c) : nullptr;
        auto* m = as<Binary>(e);
        if (!m || m->op != BinOp::Mul) return nullptr;
        for (auto [x, k] : {std::pair{m->a, m->b}, std::pair{m->b, m->a}}) {
            auto kv = const_int(k);
            if (!kv || *kv % c != 0) continue;
            return *kv == c ? x : Binary::make(BinOp::Mul, x, IntImm::make(e->type, *kv / c));
        }
        return nullptr;
    }

    Expr div_mod(BinOp op, const Expr& a, int64_t c) {
        ScalarType t = a->type;
        if (auto r = range(a); r && r->lo >= 0 && r->hi < c) return op == BinOp::Div ? IntImm::make(t, 0) : a;
        Expr e = a;
        if (auto* v = as<VarNode>(a)) {  // see through a `let`
            auto it = defs_.find(v);
            if (it == defs_.end()) return nullptr;
            e = it->second;
        }
        if (!non_negative(e)) return nullptr;
        if (Expr q = divide_exact(e, c)) return op == BinOp::Div ? q : IntImm::make(t, 0);
        auto* add = as<Binary>(e);
        if (!add || add->op != BinOp::Add) return nullptr;
        for (auto [p, rest] : {std::pair{add->a, add->b}, std::pair{add->b, add->a}}) {
            Expr q = divide_exact(p, c);
            if (!q || !non_negative(p) || !non_negative(rest)) continue;
            // (p + rest) / c == p / c + rest / c and (p + rest) % c == rest % c for p % c == 0.
            Expr tail = div_mod(op, rest, c);
            if (!tail) tail = Binary::make(op, rest, IntImm::make(t, c));
            if (op == BinOp::Mod) return tail;
            return simplify(Binary::make(BinOp::Add, q, tail));
        }
        return nullptr;
    }

    const std::vector<int64_t>& block_;
    std::unordered_map<const VarNode*, Interval> ranges_;
    std::unordered_map<const VarNode*, Expr> defs_;
};

}  // namespace

Stmt simplify_ranges(const Stmt& body, const std::vector<int64_t>& block) {
    RangeSimplify pass(block);
    return pass.mutate(body);
}

}  // namespace hds::ir
