// pattern_reader.cpp — see pattern_reader.h.
#include "graph/pattern_reader.h"

namespace hds::graph {

PatternReader::PatternReader(const BlockStmt& body) {
    for (const StmtPtr& s : body.stmts) {
        if (s->kind == StmtKind::Let) {
            auto& l = as<LetStmt>(*s);
            if (l.init) {
                lets_[l.name] = l.init.get();
                count_uses(*l.init);
            }
        } else if (s->kind == StmtKind::Return && as<ReturnStmt>(*s).value) {
            count_uses(*as<ReturnStmt>(*s).value);
        }
    }
}

void PatternReader::for_each_root(const BlockStmt& body, const std::function<void(const Expr&)>& f) const {
    for (const StmtPtr& s : body.stmts) {
        if (s->kind == StmtKind::Let && as<LetStmt>(*s).init) f(*as<LetStmt>(*s).init);
        if (s->kind == StmtKind::Return && as<ReturnStmt>(*s).value) f(*as<ReturnStmt>(*s).value);
    }
}

void PatternReader::for_each_child(const Expr& e, const std::function<void(const Expr&)>& f) {
    if (e.kind == ExprKind::Call)
        for (const CallArg& a : as<CallExpr>(e).args) f(*a.value);
    if (e.kind == ExprKind::Binary) {
        f(*as<BinaryExpr>(e).lhs);
        f(*as<BinaryExpr>(e).rhs);
    }
    if (e.kind == ExprKind::Unary) f(*as<UnaryExpr>(e).operand);
    if (e.kind == ExprKind::List)
        for (const ExprPtr& x : as<ListExpr>(e).elems) f(*x);
}

void PatternReader::count_uses(const Expr& e) {
    if (e.kind == ExprKind::Name) ++uses_[as<NameExpr>(e).name];
    for_each_child(e, [this](const Expr& c) { count_uses(c); });
}

const Expr& PatternReader::look_through(const Expr& e, std::map<std::string, const Expr*>* lets) const {
    if (e.kind != ExprKind::Name) return e;
    const std::string& n = as<NameExpr>(e).name;
    auto it = lets_.find(n);
    auto used = uses_.find(n);
    if (it == lets_.end() || used == uses_.end() || used->second != 1) return e;
    (*lets)[n] = it->second;
    return look_through(*it->second, lets);
}

const CallExpr* PatternReader::call(const Expr& e, std::initializer_list<const char*> names, size_t count,
                                    std::initializer_list<const char*> named) {
    if (e.kind != ExprKind::Call) return nullptr;
    auto& c = as<CallExpr>(e);
    bool known = false;
    for (const char* n : names) known |= c.callee == n;
    size_t positional = 0;
    for (const CallArg& a : c.args) {
        if (a.name.empty()) {
            ++positional;
            continue;
        }
        bool allowed = false;
        for (const char* n : named) allowed |= a.name == n;
        if (!allowed) return nullptr;
    }
    return known && positional == count ? &c : nullptr;
}

bool PatternReader::literal(const Expr& e, double* v) {
    if (e.kind == ExprKind::FloatLit)
        *v = as<FloatLit>(e).value;
    else if (e.kind == ExprKind::IntLit)
        *v = static_cast<double>(as<IntLit>(e).value);
    else
        return false;
    return true;
}

bool PatternReader::same(const Expr& a0, const Expr& b0, std::map<std::string, const Expr*>* lets) const {
    if (a0.kind == ExprKind::Name && b0.kind == ExprKind::Name && as<NameExpr>(a0).name == as<NameExpr>(b0).name)
        return true;
    std::map<std::string, const Expr*> read;  // recorded only where the two turn out the same
    const Expr& a = look_through(a0, &read);
    const Expr& b = look_through(b0, &read);
    if (&a == &a0 && &b == &b0 && a.kind == ExprKind::Name) return false;  // different names, neither read through
    if (a.kind != b.kind) return false;
    bool eq = false;
    switch (a.kind) {
        case ExprKind::IntLit:
            eq = as<IntLit>(a).value == as<IntLit>(b).value && as<IntLit>(a).suffix == as<IntLit>(b).suffix;
            break;
        case ExprKind::FloatLit:
            eq = as<FloatLit>(a).value == as<FloatLit>(b).value && as<FloatLit>(a).suffix == as<FloatLit>(b).suffix;
            break;
        case ExprKind::Name:
            eq = same(a, b, &read);
            break;
        case ExprKind::Unary:
            eq = as<UnaryExpr>(a).op == as<UnaryExpr>(b).op &&
                 same(*as<UnaryExpr>(a).operand, *as<UnaryExpr>(b).operand, &read);
            break;
        case ExprKind::Binary: {
            auto &x = as<BinaryExpr>(a), &y = as<BinaryExpr>(b);
            eq = x.op == y.op && same(*x.lhs, *y.lhs, &read) && same(*x.rhs, *y.rhs, &read);
            break;
        }
        case ExprKind::Call: {
            auto &x = as<CallExpr>(a), &y = as<CallExpr>(b);
            eq = x.callee == y.callee && x.args.size() == y.args.size();
            for (size_t i = 0; eq && i < x.args.size(); ++i)
                eq = x.args[i].name == y.args[i].name && same(*x.args[i].value, *y.args[i].value, &read);
            break;
        }
        case ExprKind::List: {
            auto &x = as<ListExpr>(a), &y = as<ListExpr>(b);
            eq = x.elems.size() == y.elems.size();
            for (size_t i = 0; eq && i < x.elems.size(); ++i) eq = same(*x.elems[i], *y.elems[i], &read);
            break;
        }
        default:
            break;
    }
    if (eq) lets->insert(read.begin(), read.end());
    return eq;
}

}  // namespace hds::graph
