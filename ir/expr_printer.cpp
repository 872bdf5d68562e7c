// expr_printer.cpp — precedence-aware infix printing.
#include "ir/expr_printer.h"

#include <fmt/format.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace hds::ir {

namespace {
int binary_precedence(BinOp op) {
    switch (op) {
        case BinOp::Or:
            return 4;
        case BinOp::And:
            return 5;
        case BinOp::BitOr:
            return 6;
        case BinOp::BitXor:
            return 7;
        case BinOp::BitAnd:
            return 8;
        case BinOp::Eq:
        case BinOp::Ne:
            return 9;
        case BinOp::Lt:
        case BinOp::Le:
        case BinOp::Gt:
        case BinOp::Ge:
            return 10;
        case BinOp::Shl:
        case BinOp::Shr:
            return 11;
        case BinOp::Add:
        case BinOp::Sub:
            return 12;
        case BinOp::Mul:
        case BinOp::Div:
        case BinOp::Mod:
            return 13;
    }
    return 0;
}
bool is_bitwise(BinOp op) {
    return op == BinOp::BitAnd || op == BinOp::BitOr || op == BinOp::BitXor;
}
}  // namespace

std::string float_text(double v) {
    if (std::isinf(v)) return v > 0 ? "INFINITY" : "-INFINITY";
    if (std::isnan(v)) return "NAN";
    for (int digits = 1; digits <= 17; ++digits) {
        std::string s = fmt::format("{:.{}g}", v, digits);
        if (std::strtod(s.c_str(), nullptr) == v) {
            if (s.find_first_of(".eE") == std::string::npos) s += ".0";
            return s;
        }
    }
    return fmt::format("{:.17g}", v);
}

int ExprPrinter::precedence(const Expr& e) {
    switch (e->kind) {
        case ExprKind::Select:
            return 3;
        case ExprKind::Binary:
            return binary_precedence(static_cast<const Binary*>(e.get())->op);
        case ExprKind::Unary:
            return 14;
        case ExprKind::IntImm:
            return static_cast<const IntImm*>(e.get())->value < 0 ? 14 : 16;
        case ExprKind::FloatImm:
            return static_cast<const FloatImm*>(e.get())->value < 0 ? 14 : 16;
        default:
            return 16;
    }
}

std::string ExprPrinter::int_imm(const IntImm* i) {
    return std::to_string(i->value);
}
std::string ExprPrinter::float_imm(const FloatImm* f) {
    return float_text(f->value);
}

std::string ExprPrinter::print_at(const Expr& e, int min_prec) {
    std::string s = print(e);
    return precedence(e) < min_prec ? "(" + s + ")" : s;
}

std::string ExprPrinter::print(const Expr& e) {
    switch (e->kind) {
        case ExprKind::IntImm:
            return int_imm(static_cast<const IntImm*>(e.get()));
        case ExprKind::FloatImm:
            return float_imm(static_cast<const FloatImm*>(e.get()));
        case ExprKind::BoolImm:
            return static_cast<const BoolImm*>(e.get())->value ? "true" : "false";
        case ExprKind::Var:
            return var(static_cast<const VarNode*>(e.get()));
        case ExprKind::SpecialReg:
            return special(static_cast<const SpecialReg*>(e.get()));
        case ExprKind::Cast: {
            auto* c = static_cast<const Cast*>(e.get());
            return cast(c, print(c->value));
        }
        case ExprKind::Unary: {
            auto* u = static_cast<const Unary*>(e.get());
            std::string inner = print_at(u->a, 14);
            // Avoid "--x" for a negated negative literal.
            if (u->op == UnOp::Neg && !inner.empty() && inner[0] == '-') inner = "(" + inner + ")";
            return op_symbol(u->op) + inner;
        }
        case ExprKind::Binary: {
            auto* b = static_cast<const Binary*>(e.get());
            int p = binary_precedence(b->op);
            auto side = [&](const Expr& child, int min_prec) {
                auto* cb = as<Binary>(child);
                bool clarify =
                    cb && ((b->op == BinOp::Or && cb->op == BinOp::And) || (is_bitwise(b->op) && cb->op != b->op) ||
                           ((b->op == BinOp::Shl || b->op == BinOp::Shr) && binary_precedence(cb->op) == 12));
                return clarify ? "(" + print(child) + ")" : print_at(child, min_prec);
            };
            return side(b->a, p) + " " + op_symbol(b->op) + " " + side(b->b, p + 1);
        }
        case ExprKind::Select: {
            auto* s = static_cast<const Select*>(e.get());
            return print_at(s->cond, 4) + " ? " + print_at(s->t, 4) + " : " + print_at(s->f, 3);
        }
        case ExprKind::Load: {
            auto* l = static_cast<const Load*>(e.get());
            std::vector<std::string> idx;
            for (const Expr& i : l->indices) idx.push_back(print(i));
            return load(l, idx);
        }
        case ExprKind::Call: {
            auto* c = static_cast<const Call*>(e.get());
            std::vector<std::string> args;
            for (const Expr& a : c->args) args.push_back(print(a));
            return call(c, args);
        }
    }
    return "?";
}

}  // namespace hds::ir
