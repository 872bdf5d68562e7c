// simplify.cpp — constant folding and algebraic simplification of integer and
// boolean expressions (index arithmetic above all). Floating-point expressions
// are left alone so that results match what the user wrote bit for bit. A
// `let` of a constant boolean is folded into its uses (`let pointwise = R == 1
// && ...` once the sizes are known), so that conditions on it fold too; a loop
// of one iteration becomes its body (`for h in 0..BN / 128` at BN = 128).
#include <unordered_map>

#include "ir/ir_mutator.h"
#include "ir/ir_printer.h"
#include "ir/ir_visitor.h"
#include "ir/passes/passes.h"

namespace hds::ir {

namespace {

// Two's-complement arithmetic without signed-overflow undefined behaviour.
int64_t add_wrap(int64_t x, int64_t y) {
    return static_cast<int64_t>(static_cast<uint64_t>(x) + static_cast<uint64_t>(y));
}
int64_t sub_wrap(int64_t x, int64_t y) {
    return static_cast<int64_t>(static_cast<uint64_t>(x) - static_cast<uint64_t>(y));
}
int64_t mul_wrap(int64_t x, int64_t y) {
    return static_cast<int64_t>(static_cast<uint64_t>(x) * static_cast<uint64_t>(y));
}

bool has_call(const Expr& e) {
    switch (e->kind) {
        case ExprKind::Call:
            return true;
        case ExprKind::Cast:
            return has_call(static_cast<const Cast*>(e.get())->value);
        case ExprKind::Unary:
            return has_call(static_cast<const Unary*>(e.get())->a);
        case ExprKind::Binary: {
            auto* b = static_cast<const Binary*>(e.get());
            return has_call(b->a) || has_call(b->b);
        }
        case ExprKind::Select: {
            auto* s = static_cast<const Select*>(e.get());
            return has_call(s->cond) || has_call(s->t) || has_call(s->f);
        }
        case ExprKind::Load:
            for (const Expr& i : static_cast<const Load*>(e.get())->indices)
                if (has_call(i)) return true;
            return false;
        default:
            return false;
    }
}

// Whether `body` has a `break` or `continue` of the loop it is the body of (not of a loop inside it).
bool jumps_out(const Stmt& body) {
    struct Finder : IRVisitor {
        bool found = false;
        void visit(const Jump*) override { found = true; }
        void visit(const For*) override {}  // its jumps are its own
        void visit(const MapFor*) override {}
    } f;
    f.visit_stmt(body);
    return f.found;
}

class Simplify : public IRMutator {
  protected:
    Stmt visit(const Decl* op, const Stmt& self) override {
        Stmt s = IRMutator::visit(op, self);
        auto* d = as<Decl>(s);
        if (d && d->is_const && const_bool(d->init)) constants_[d->var.get()] = d->init;
        return s;
    }

    Expr visit(const VarNode* op, const Expr& self) override {
        auto it = constants_.find(op);
        return it != constants_.end() ? it->second : self;
    }

    Expr visit(const Cast* op, const Expr& self) override {
        Expr v = mutate(op->value);
        if (auto c = const_int(v)) {
            if (is_int(op->type)) return IntImm::make(op->type, wrap_int(*c, op->type));
        }
        return v == op->value ? self : Cast::make(op->type, v);
    }

    Expr visit(const Unary* op, const Expr& self) override {
        Expr a = mutate(op->a);
        if (auto c = const_int(a)) {
            if (op->op == UnOp::Neg) return IntImm::make(a->type, wrap_int(sub_wrap(0, *c), a->type));
            if (op->op == UnOp::BitNot) return IntImm::make(a->type, wrap_int(~*c, a->type));
        }
        if (auto b = const_bool(a); b && op->op == UnOp::Not) return BoolImm::make(!*b);
        return a == op->a ? self : Unary::make(op->op, a);
    }

    Expr visit(const Binary* op, const Expr& self) override {
        Expr a = mutate(op->a), b = mutate(op->b);
        if (Expr r = fold(op->op, a, b)) return r;
        return a == op->a && b == op->b ? self : Binary::make(op->op, a, b);
    }

    Expr visit(const Select* op, const Expr& self) override {
        Expr c = mutate(op->cond);
        if (auto b = const_bool(c)) return mutate(*b ? op->t : op->f);
        Expr t = mutate(op->t), f = mutate(op->f);
        return c == op->cond && t == op->t && f == op->f ? self : Select::make(c, t, f);
    }

    Stmt visit(const If* op, const Stmt& self) override {
        Expr c = mutate(op->cond);
        if (auto b = const_bool(c)) {
            if (*b) return mutate(op->then_s);
            return op->else_s ? mutate(op->else_s) : Block::make(op->loc, {});
        }
        return IRMutator::visit(op, self);
    }

    Stmt visit(const For* op, const Stmt& self) override {
        Expr lo_e = mutate(op->lo);
        auto lo = const_int(lo_e), hi = const_int(mutate(op->hi)), step = const_int(mutate(op->step));
        if (lo && hi && *lo >= *hi) return Block::make(op->loc, {});
        // One iteration (`for h in 0..BN / 128` at BN = 128) without a break or continue of its
        // own: its body with the variable's value, in a block of its own (flatten_blocks splices
        // it where no name clashes).
        if (lo && hi && step && *step > 0 && *hi - *lo <= *step && !jumps_out(op->body)) {
            constants_[op->var.get()] = lo_e;
            return Block::make(op->loc, {mutate(op->body)});
        }
        return IRMutator::visit(op, self);
    }

  private:
    // `let`s of constant booleans, and the variables of loops of one iteration: their values
    std::unordered_map<const VarNode*, Expr> constants_;

    // (x / c) * c + x % c -> x (C's division identity, any signs): a flat index
    // split into a row and a column and joined again. c is a constant or the
    // same call-free expression each time (a size: x / N * N + x % N; a
    // division by zero would have been one before).
    static Expr div_mod_sum(const Expr& a, const Expr& b) {
        auto* mul = as<Binary>(a);
        auto* mod = as<Binary>(b);
        if (!mul || !mod || mul->op != BinOp::Mul || mod->op != BinOp::Mod) return nullptr;
        auto* div = as<Binary>(mul->a);
        if (!div || div->op != BinOp::Div || const_int(mul->b) == std::optional<int64_t>(0) || has_call(mul->b))
            return nullptr;
        std::string c = to_string(mul->b);
        if (to_string(div->b) != c || to_string(mod->b) != c) return nullptr;
        if (has_call(div->a) || to_string(div->a) != to_string(mod->a)) return nullptr;
        return div->a;
    }

    // Returns the folded expression, or null when nothing applies.
    static Expr fold(BinOp op, const Expr& a, const Expr& b) {
        ScalarType t = a->type;
        auto ca = const_int(a), cb = const_int(b);
        if (ca && cb && is_int(t)) {
            int64_t x = *ca, y = *cb;
            bool u = is_unsigned_int(t);
            switch (op) {
                case BinOp::Add:
                    return IntImm::make(t, wrap_int(add_wrap(x, y), t));
                case BinOp::Sub:
                    return IntImm::make(t, wrap_int(sub_wrap(x, y), t));
                case BinOp::Mul:
                    return IntImm::make(t, wrap_int(mul_wrap(x, y), t));
                case BinOp::Div:
                    if (y == 0 || u || (x == INT64_MIN && y == -1)) return nullptr;
                    return IntImm::make(t, wrap_int(x / y, t));
                case BinOp::Mod:
                    if (y == 0 || u || (x == INT64_MIN && y == -1)) return nullptr;
                    return IntImm::make(t, wrap_int(x % y, t));
                case BinOp::Lt:
                    return BoolImm::make(x < y);
                case BinOp::Le:
                    return BoolImm::make(x <= y);
                case BinOp::Gt:
                    return BoolImm::make(x > y);
                case BinOp::Ge:
                    return BoolImm::make(x >= y);
                case BinOp::Eq:
                    return BoolImm::make(x == y);
                case BinOp::Ne:
                    return BoolImm::make(x != y);
                default:
                    return nullptr;
            }
        }
        if (op == BinOp::And || op == BinOp::Or) {
            auto ba = const_bool(a), bb = const_bool(b);
            bool is_and = op == BinOp::And;
            if (ba) return *ba == is_and ? b : BoolImm::make(*ba);
            if (bb && !has_call(a)) return *bb == is_and ? a : BoolImm::make(*bb);
            return nullptr;
        }
        if (!is_int(t)) return nullptr;
        switch (op) {
            case BinOp::Add:
                if (ca == 0) return b;
                if (cb == 0) return a;
                if (Expr x = div_mod_sum(a, b)) return x;
                if (Expr x = div_mod_sum(b, a)) return x;
                // (x + c1) + c2 -> x + (c1 + c2)
                if (auto* ab = as<Binary>(a); cb && ab && ab->op == BinOp::Add && const_int(ab->b))
                    return Binary::make(BinOp::Add, ab->a,
                                        IntImm::make(t, wrap_int(add_wrap(*const_int(ab->b), *cb), t)));
                // (x - c1) + c2 -> x - (c1 - c2), or x + (c2 - c1) where that is positive
                if (auto* ab = as<Binary>(a); cb && ab && ab->op == BinOp::Sub && const_int(ab->b)) {
                    int64_t c = wrap_int(sub_wrap(*const_int(ab->b), *cb), t);
                    if (c == 0) return ab->a;
                    return c > 0 ? Binary::make(BinOp::Sub, ab->a, IntImm::make(t, c))
                                 : Binary::make(BinOp::Add, ab->a, IntImm::make(t, wrap_int(sub_wrap(0, c), t)));
                }
                return nullptr;
            case BinOp::Sub:
                if (cb == 0) return a;
                // x - x -> 0 for the same call-free expression (M - L where both are one size)
                if (!has_call(a) && to_string(a) == to_string(b)) return IntImm::make(t, 0);
                // (x + c1) - c2 -> x + (c1 - c2)
                if (auto* ab = as<Binary>(a); cb && ab && ab->op == BinOp::Add && const_int(ab->b)) {
                    int64_t c = wrap_int(sub_wrap(*const_int(ab->b), *cb), t);
                    return c == 0 ? ab->a : Binary::make(BinOp::Add, ab->a, IntImm::make(t, c));
                }
                return nullptr;
            case BinOp::Mul:
                if (ca == 1) return b;
                if (cb == 1) return a;
                if ((ca == 0 && !has_call(b)) || (cb == 0 && !has_call(a))) return IntImm::make(t, 0);
                // (x * c1) * c2 -> x * (c1 * c2)
                if (auto* ab = as<Binary>(a); cb && ab && ab->op == BinOp::Mul && const_int(ab->b))
                    return Binary::make(BinOp::Mul, ab->a,
                                        IntImm::make(t, wrap_int(mul_wrap(*const_int(ab->b), *cb), t)));
                return nullptr;
            case BinOp::Div:
                if (cb == 1) return a;
                // x / x -> 1 for the same call-free expression (a size by itself: sizes are positive)
                if (!has_call(a) && to_string(a) == to_string(b)) return IntImm::make(t, 1);
                // (x * c) / c -> x
                if (auto* ab = as<Binary>(a); cb && *cb != 0 && ab && ab->op == BinOp::Mul && const_int(ab->b) == cb)
                    return ab->a;
                return nullptr;
            case BinOp::Mod:
                if (cb == 1 && !has_call(a)) return IntImm::make(t, 0);
                if (!has_call(a) && to_string(a) == to_string(b)) return IntImm::make(t, 0);  // x % x
                // (x * c1) % c2 -> 0 when c2 divides c1 (a size rounded up to a multiple)
                if (auto* ab = as<Binary>(a); cb && *cb != 0 && ab && ab->op == BinOp::Mul && const_int(ab->b) &&
                                              *const_int(ab->b) % *cb == 0 && !has_call(ab->a))
                    return IntImm::make(t, 0);
                return nullptr;
            default:
                return nullptr;
        }
    }
};

}  // namespace

Expr simplify(const Expr& e) {
    Simplify s;
    return s.mutate(e);
}

Stmt simplify(const Stmt& body) {
    Simplify s;
    return s.mutate(body);
}

}  // namespace hds::ir
