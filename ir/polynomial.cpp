// polynomial.cpp — integer expressions as polynomials over atoms (see polynomial.h).
#include "ir/polynomial.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ir/ir_printer.h"

namespace hds::ir {

namespace {

using Monomial = std::vector<std::string>;  // the atoms multiplied, by their printed form, sorted
using Poly = std::map<Monomial, int64_t>;   // monomial -> coefficient (none zero)

constexpr size_t kMaxTerms = 256;  // beyond that the expression is no index worth expanding

void add_term(Poly& p, const Monomial& m, int64_t c) {
    if ((p[m] += c) == 0) p.erase(m);
}

std::optional<Poly> sum(const Poly& a, const Poly& b, int64_t sign) {
    Poly r = a;
    for (const auto& [m, c] : b) add_term(r, m, sign * c);
    if (r.size() > kMaxTerms) return std::nullopt;
    return r;
}

std::optional<Poly> product(const Poly& a, const Poly& b) {
    Poly r;
    for (const auto& [ma, ca] : a)
        for (const auto& [mb, cb] : b) {
            Monomial m = ma;
            m.insert(m.end(), mb.begin(), mb.end());
            std::sort(m.begin(), m.end());
            add_term(r, m, ca * cb);
            if (r.size() > kMaxTerms) return std::nullopt;
        }
    return r;
}

Poly atom(const Expr& e) {
    return Poly{{Monomial{to_string(e)}, 1}};
}

std::optional<Poly> expand(const Expr& e) {
    if (!is_int(e->type)) return std::nullopt;
    if (auto c = const_int(e)) return *c == 0 ? Poly{} : Poly{{Monomial{}, *c}};
    auto* b = as<Binary>(e);
    if (!b) return atom(e);
    switch (b->op) {
        case BinOp::Add:
        case BinOp::Sub:
        case BinOp::Mul: {
            std::optional<Poly> x = expand(b->a), y = expand(b->b);
            if (!x || !y) return std::nullopt;
            return b->op == BinOp::Mul ? product(*x, *y) : sum(*x, *y, b->op == BinOp::Add ? 1 : -1);
        }
        case BinOp::Mod: {  // x - (x / y) * y
            std::optional<Poly> x = expand(b->a), y = expand(b->b);
            if (!x || !y) return std::nullopt;
            std::optional<Poly> q = product(atom(Binary::make(BinOp::Div, b->a, b->b)), *y);
            if (!q) return std::nullopt;
            return sum(*x, *q, -1);
        }
        default:
            return atom(e);
    }
}

}  // namespace

bool same_value(const Expr& a, const Expr& b) {
    if (!a || !b || !is_int(a->type) || !is_int(b->type)) return false;
    std::optional<Poly> x = expand(a), y = expand(b);
    if (!x || !y) return false;
    std::optional<Poly> d = sum(*x, *y, -1);
    return d && d->empty();
}

}  // namespace hds::ir
