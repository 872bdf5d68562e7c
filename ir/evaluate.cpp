// evaluate.cpp — expressions over named sizes (evaluate.h).
#include "ir/evaluate.h"

namespace hds::ir {

std::optional<int64_t> evaluate(const Expr& e, const std::map<std::string, int64_t>& sizes) {
    if (auto c = const_int(e)) return *c;
    if (auto c = const_bool(e)) return *c ? 1 : 0;
    if (auto* v = as<VarNode>(e)) {
        auto it = sizes.find(v->name);
        return it == sizes.end() ? std::nullopt : std::optional<int64_t>(it->second);
    }
    if (auto* c = as<Cast>(e)) return evaluate(c->value, sizes);
    if (auto* u = as<Unary>(e)) {
        auto x = evaluate(u->a, sizes);
        if (!x) return std::nullopt;
        return u->op == UnOp::Not ? int64_t{*x == 0} : u->op == UnOp::Neg ? -*x : ~*x;
    }
    if (auto* s = as<Select>(e)) {
        auto c = evaluate(s->cond, sizes);
        return c ? evaluate(*c ? s->t : s->f, sizes) : std::nullopt;
    }
    auto* b = as<Binary>(e);
    if (!b) return std::nullopt;
    auto x = evaluate(b->a, sizes), y = evaluate(b->b, sizes);
    if (!x || !y) return std::nullopt;
    switch (b->op) {
        case BinOp::Add:
            return *x + *y;
        case BinOp::Sub:
            return *x - *y;
        case BinOp::Mul:
            return *x * *y;
        case BinOp::Div:
            return *y == 0 ? std::nullopt : std::optional<int64_t>(*x / *y);
        case BinOp::Mod:
            return *y == 0 ? std::nullopt : std::optional<int64_t>(*x % *y);
        case BinOp::Lt:
            return int64_t{*x < *y};
        case BinOp::Le:
            return int64_t{*x <= *y};
        case BinOp::Gt:
            return int64_t{*x > *y};
        case BinOp::Ge:
            return int64_t{*x >= *y};
        case BinOp::Eq:
            return int64_t{*x == *y};
        case BinOp::Ne:
            return int64_t{*x != *y};
        case BinOp::And:
            return int64_t{*x != 0 && *y != 0};
        case BinOp::Or:
            return int64_t{*x != 0 || *y != 0};
        default:
            return std::nullopt;
    }
}

}  // namespace hds::ir
