// shapes.cpp — symbolic shapes, binding and broadcasting.
#include "graph/shapes.h"

#include <algorithm>

#include <fmt/format.h>

#include "ir/ir_printer.h"
#include "ir/passes/passes.h"

namespace hds::graph {

namespace {

// A product of sizes and constants as its constant and its sizes' names, sorted; false for
// anything else.
bool product_factors(const ir::Expr& e, int64_t* constant, std::vector<std::string>* names) {
    if (auto c = ir::const_int(e)) {
        *constant *= *c;
        return true;
    }
    if (auto* v = ir::as<ir::VarNode>(e)) {
        names->push_back(v->name);
        return true;
    }
    auto* m = ir::as<ir::Binary>(e);
    return m && m->op == ir::BinOp::Mul && product_factors(m->a, constant, names) &&
           product_factors(m->b, constant, names);
}

}  // namespace

bool same_dim(const ir::Expr& a, const ir::Expr& b) {
    if (a == b) return true;
    auto ca = ir::const_int(a), cb = ir::const_int(b);
    if (ca || cb) return ca && cb && *ca == *cb;
    if (ir::to_string(ir::simplify(a)) == ir::to_string(ir::simplify(b))) return true;
    int64_t ka = 1, kb = 1;  // products in another order: s0 * s1 * 32 and s1 * s0 * 32
    std::vector<std::string> na, nb;
    if (!product_factors(a, &ka, &na) || !product_factors(b, &kb, &nb)) return false;
    std::sort(na.begin(), na.end());
    std::sort(nb.begin(), nb.end());
    return ka == kb && na == nb;
}

bool same_shape(const Shape& a, const Shape& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (!same_dim(a[i], b[i])) return false;
    return true;
}

std::string shape_str(const Shape& s) {
    std::string out = "[";
    for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + ir::to_string(s[i]);
    return out + "]";
}

ir::Expr numel(const Shape& s) {
    ir::Expr n = ir::i32(1);
    for (const ir::Expr& d : s) n = ir::simplify(ir::mul(n, d));
    return n;
}

ir::Expr divisible(const ir::Expr& extent, int64_t v) {
    return ir::simplify(ir::Binary::make(ir::BinOp::Eq, ir::mod(extent, ir::i32(v)), ir::i32(0)));
}

Shape storage_shape(const Shape& s) {
    return s.empty() ? Shape{ir::i32(1)} : s;
}

ir::Expr eval_dim(const Expr& e, const Bindings& b, std::string* unbound) {
    switch (e.kind) {
        case ExprKind::IntLit:
            return ir::i32(static_cast<int64_t>(as<IntLit>(e).value));
        case ExprKind::Name: {
            auto it = b.sizes.find(as<NameExpr>(e).name);
            if (it != b.sizes.end()) return it->second;
            // A spread's name: the product of its sizes (1 for none), as a schedule's kernel sees it.
            if (auto sp = b.spreads.find(as<NameExpr>(e).name); sp != b.spreads.end()) return numel(sp->second);
            *unbound = as<NameExpr>(e).name;
            return nullptr;
        }
        case ExprKind::Binary: {
            auto& bin = as<BinaryExpr>(e);
            ir::Expr l = eval_dim(*bin.lhs, b, unbound);
            ir::Expr r = l ? eval_dim(*bin.rhs, b, unbound) : nullptr;
            if (!r) return nullptr;
            switch (bin.op) {
                case BinaryOp::Add:
                    return ir::simplify(ir::add(l, r));
                case BinaryOp::Sub:
                    return ir::simplify(ir::sub(l, r));
                case BinaryOp::Mul:
                    return ir::simplify(ir::mul(l, r));
                case BinaryOp::Div:
                    return ir::simplify(ir::div(l, r));
                case BinaryOp::Mod:
                    return ir::simplify(ir::mod(l, r));
                default:
                    break;
            }
            break;
        }
        default:
            break;
    }
    *unbound = "(" + std::string("an expression other than + - * / %") + ")";
    return nullptr;
}

ir::Expr eval_condition(const Expr& e, const Bindings& b, std::string* unbound) {
    static const std::map<BinaryOp, ir::BinOp> ops = {{BinaryOp::Lt, ir::BinOp::Lt},   {BinaryOp::Le, ir::BinOp::Le},
                                                      {BinaryOp::Gt, ir::BinOp::Gt},   {BinaryOp::Ge, ir::BinOp::Ge},
                                                      {BinaryOp::Eq, ir::BinOp::Eq},   {BinaryOp::Ne, ir::BinOp::Ne},
                                                      {BinaryOp::And, ir::BinOp::And}, {BinaryOp::Or, ir::BinOp::Or}};
    if (e.kind == ExprKind::BoolLit) return ir::BoolImm::make(as<BoolLit>(e).value);
    if (e.kind == ExprKind::Unary && as<UnaryExpr>(e).op == UnaryOp::Not) {
        ir::Expr a = eval_condition(*as<UnaryExpr>(e).operand, b, unbound);
        return a ? ir::simplify(ir::Unary::make(ir::UnOp::Not, a)) : nullptr;
    }
    if (e.kind == ExprKind::Binary) {
        auto& bin = as<BinaryExpr>(e);
        auto op = ops.find(bin.op);
        if (op != ops.end()) {
            bool logic = bin.op == BinaryOp::And || bin.op == BinaryOp::Or;
            auto side = [&](const Expr& x) { return logic ? eval_condition(x, b, unbound) : eval_dim(x, b, unbound); };
            ir::Expr l = side(*bin.lhs);
            ir::Expr r = l ? side(*bin.rhs) : nullptr;
            return r ? ir::simplify(ir::Binary::make(op->second, l, r)) : nullptr;
        }
    }
    *unbound = "(" + std::string("an expression other than a comparison of sizes, && || !") + ")";
    return nullptr;
}

std::string bind_dims(const std::vector<ExprPtr>& declared, const Shape& actual, Bindings& b) {
    size_t spreads = 0;
    for (const ExprPtr& d : declared) spreads += d->kind == ExprKind::Spread;
    size_t fixed = declared.size() - spreads;
    if (spreads == 0 && actual.size() != fixed)
        return fmt::format("has rank {} but rank {} is expected", actual.size(), fixed);
    if (spreads && actual.size() < fixed)
        return fmt::format("has rank {} but rank {} or more is expected", actual.size(), fixed);
    size_t pos = 0;
    for (const ExprPtr& d : declared) {
        if (d->kind == ExprKind::Spread) {
            size_t n = actual.size() - fixed;
            Shape part(actual.begin() + pos, actual.begin() + pos + n);
            pos += n;
            const std::string& name = as<SpreadExpr>(*d).name;
            auto [it, fresh] = b.spreads.emplace(name, part);
            if (!fresh && !same_shape(it->second, part))
                return fmt::format("has dimensions {} for '*{}', which is {} already", shape_str(part), name,
                                   shape_str(it->second));
            continue;
        }
        const ir::Expr& a = actual[pos++];
        if (d->kind == ExprKind::Name) {
            const std::string& name = as<NameExpr>(*d).name;
            auto [it, fresh] = b.sizes.emplace(name, a);
            if (!fresh && !same_dim(it->second, a))
                return fmt::format("has {} for size '{}', which is {} already", ir::to_string(a), name,
                                   ir::to_string(it->second));
            continue;
        }
        std::string unbound;
        ir::Expr want = eval_dim(*d, b, &unbound);
        if (!want) return fmt::format("has a dimension the op gives as an unbound '{}'", unbound);
        if (!same_dim(want, a))
            return fmt::format("has dimension {} where {} is expected", ir::to_string(a), ir::to_string(want));
    }
    return "";
}

std::optional<Shape> broadcast(const Shape& a, const Shape& b) {
    size_t n = std::max(a.size(), b.size());
    Shape out(n);
    for (size_t i = 0; i < n; ++i) {
        const ir::Expr* da = i < n - a.size() ? nullptr : &a[i - (n - a.size())];
        const ir::Expr* db = i < n - b.size() ? nullptr : &b[i - (n - b.size())];
        auto one = [](const ir::Expr* d) { return !d || ir::const_int(*d) == 1; };
        if (one(da))
            out[i] = db ? *db : *da;
        else if (one(db) || same_dim(*da, *db))
            out[i] = *da;
        else
            return std::nullopt;
    }
    return out;
}

std::vector<ir::Expr> broadcast_indices(const Shape& from, const Shape& to, const std::vector<ir::Expr>& idx) {
    std::vector<ir::Expr> out;
    size_t skip = to.size() - from.size();
    for (size_t d = 0; d < from.size(); ++d) {
        bool stretched = ir::const_int(from[d]) == 1 && ir::const_int(to[skip + d]) != 1;
        out.push_back(stretched ? ir::i32(0) : idx[skip + d]);
    }
    return out;
}

}  // namespace hds::graph
