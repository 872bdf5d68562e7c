// evaluate.cpp — expressions over named sizes (evaluate.h).
#include "ir/evaluate.h"

#include <algorithm>

namespace hds::ir {

namespace {

int64_t apply(UnOp op, int64_t x) {
    return op == UnOp::Not ? int64_t{x == 0} : op == UnOp::Neg ? -x : ~x;
}

std::optional<int64_t> apply(BinOp op, int64_t x, int64_t y) {
    switch (op) {
        case BinOp::Add:
            return x + y;
        case BinOp::Sub:
            return x - y;
        case BinOp::Mul:
            return x * y;
        case BinOp::Div:
            return y == 0 ? std::nullopt : std::optional<int64_t>(x / y);
        case BinOp::Mod:
            return y == 0 ? std::nullopt : std::optional<int64_t>(x % y);
        case BinOp::Lt:
            return int64_t{x < y};
        case BinOp::Le:
            return int64_t{x <= y};
        case BinOp::Gt:
            return int64_t{x > y};
        case BinOp::Ge:
            return int64_t{x >= y};
        case BinOp::Eq:
            return int64_t{x == y};
        case BinOp::Ne:
            return int64_t{x != y};
        case BinOp::And:
            return int64_t{x != 0 && y != 0};
        case BinOp::Or:
            return int64_t{x != 0 || y != 0};
        default:
            return std::nullopt;
    }
}

}  // namespace

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
        return x ? std::optional<int64_t>(apply(u->op, *x)) : std::nullopt;
    }
    if (auto* s = as<Select>(e)) {
        auto c = evaluate(s->cond, sizes);
        return c ? evaluate(*c ? s->t : s->f, sizes) : std::nullopt;
    }
    auto* b = as<Binary>(e);
    if (!b) return std::nullopt;
    auto x = evaluate(b->a, sizes), y = evaluate(b->b, sizes);
    if (!x || !y) return std::nullopt;
    return apply(b->op, *x, *y);
}

CompiledExpr::CompiledExpr(const Expr& e, const std::vector<std::string>& names) : root_(add(e, names)) {}

int CompiledExpr::add(const Expr& e, const std::vector<std::string>& names) {
    Node n{Code::Unknown};
    if (auto c = const_int(e)) {
        n = Node{Code::Const, *c};
    } else if (auto c = const_bool(e)) {
        n = Node{Code::Const, *c ? 1 : 0};
    } else if (auto* v = as<VarNode>(e)) {
        auto it = std::find(names.begin(), names.end(), v->name);
        if (it != names.end()) n = Node{Code::Size, it - names.begin()};
    } else if (auto* c = as<Cast>(e)) {
        n.code = Code::Cast;
        n.a = add(c->value, names);
    } else if (auto* u = as<Unary>(e)) {
        n.code = Code::Unary;
        n.un = u->op;
        n.a = add(u->a, names);
    } else if (auto* s = as<Select>(e)) {
        n.code = Code::Select;
        n.a = add(s->cond, names);
        n.b = add(s->t, names);
        n.c = add(s->f, names);
    } else if (auto* b = as<Binary>(e)) {
        n.code = Code::Binary;
        n.bin = b->op;
        n.a = add(b->a, names);
        n.b = add(b->b, names);
    }
    nodes_.push_back(n);
    return static_cast<int>(nodes_.size()) - 1;
}

std::optional<int64_t> CompiledExpr::eval(int i, const std::vector<int64_t>& sizes) const {
    const Node& n = nodes_[i];
    switch (n.code) {
        case Code::Const:
            return n.value;
        case Code::Size:
            return sizes[n.value];
        case Code::Unknown:
            return std::nullopt;
        case Code::Cast:
            return eval(n.a, sizes);
        case Code::Unary: {
            auto x = eval(n.a, sizes);
            return x ? std::optional<int64_t>(apply(n.un, *x)) : std::nullopt;
        }
        case Code::Select: {
            auto c = eval(n.a, sizes);
            return c ? eval(*c ? n.b : n.c, sizes) : std::nullopt;
        }
        case Code::Binary: {
            auto x = eval(n.a, sizes), y = eval(n.b, sizes);
            return x && y ? apply(n.bin, *x, *y) : std::nullopt;
        }
    }
    return std::nullopt;
}

}  // namespace hds::ir
