// ast_clone.cpp — deep copies of AST subtrees with substitutions.
#include "frontend/ast_clone.h"

#include "ir/internal_error.h"

namespace hds {

namespace {

std::string type_name(const std::string& n, const CloneMap& map) {
    auto it = map.types.find(n);
    return it == map.types.end() ? n : it->second;
}

template <typename T>
std::unique_ptr<T> copy_base(const Expr& e) {
    return std::make_unique<T>(e.range);
}

// IntLit, FloatLit: a value and an optional suffix.
template <typename T>
ExprPtr copy_number(const Expr& e) {
    auto o = copy_base<T>(e);
    o->value = as<T>(e).value;
    o->suffix = as<T>(e).suffix;
    return o;
}

// NameExpr, SpreadExpr: a name.
template <typename T>
ExprPtr copy_named(const Expr& e) {
    auto o = copy_base<T>(e);
    o->name = as<T>(e).name;
    return o;
}

StmtPtr clone_stmt(const Stmt& s, const CloneMap& map);

ExprPtr opt(const ExprPtr& e, const CloneMap& map) {
    return e ? clone_expr(*e, map) : nullptr;
}

}  // namespace

std::vector<ExprPtr> clone_list(const std::vector<ExprPtr>& list, const CloneMap& map) {
    std::vector<ExprPtr> out;
    for (const ExprPtr& e : list) {
        if (e->kind == ExprKind::Spread) {
            auto it = map.spreads.find(as<SpreadExpr>(*e).name);
            if (it != map.spreads.end()) {
                for (const std::string& n : it->second) {
                    auto name = std::make_unique<NameExpr>(e->range);
                    name->name = n;
                    ExprPtr replaced = map.name ? map.name(*name) : nullptr;
                    out.push_back(replaced ? std::move(replaced) : std::move(name));
                }
                continue;
            }
        }
        out.push_back(clone_expr(*e, map));
    }
    return out;
}

ExprPtr clone_expr(const Expr& e, const CloneMap& map) {
    if (map.replace)
        if (ExprPtr r = map.replace(e, map)) return r;
    switch (e.kind) {
        case ExprKind::IntLit:
            return copy_number<IntLit>(e);
        case ExprKind::FloatLit:
            return copy_number<FloatLit>(e);
        case ExprKind::BoolLit: {
            auto o = copy_base<BoolLit>(e);
            o->value = as<BoolLit>(e).value;
            return o;
        }
        case ExprKind::Name:
            if (map.name)
                if (ExprPtr r = map.name(as<NameExpr>(e))) return r;
            return copy_named<NameExpr>(e);
        case ExprKind::Member: {
            auto o = copy_base<MemberExpr>(e);
            o->base = clone_expr(*as<MemberExpr>(e).base, map);
            o->member = as<MemberExpr>(e).member;
            return o;
        }
        case ExprKind::Index: {
            auto o = copy_base<IndexExpr>(e);
            o->base = clone_expr(*as<IndexExpr>(e).base, map);
            o->indices = clone_list(as<IndexExpr>(e).indices, map);
            return o;
        }
        case ExprKind::Unary: {
            auto o = copy_base<UnaryExpr>(e);
            o->op = as<UnaryExpr>(e).op;
            o->operand = clone_expr(*as<UnaryExpr>(e).operand, map);
            return o;
        }
        case ExprKind::Binary: {
            auto& b = as<BinaryExpr>(e);
            auto o = copy_base<BinaryExpr>(e);
            o->op = b.op;
            o->op_range = b.op_range;
            o->lhs = clone_expr(*b.lhs, map);
            o->rhs = clone_expr(*b.rhs, map);
            return o;
        }
        case ExprKind::Cond: {
            auto& c = as<CondExpr>(e);
            auto o = copy_base<CondExpr>(e);
            o->cond = clone_expr(*c.cond, map);
            o->then_expr = clone_expr(*c.then_expr, map);
            o->else_expr = clone_expr(*c.else_expr, map);
            return o;
        }
        case ExprKind::Call: {
            auto& c = as<CallExpr>(e);
            auto o = copy_base<CallExpr>(e);
            o->callee = c.callee;
            o->callee_range = c.callee_range;
            for (const CallArg& a : c.args) o->args.push_back({a.name, a.name_range, clone_expr(*a.value, map)});
            return o;
        }
        case ExprKind::Cast: {
            auto& c = as<CastExpr>(e);
            auto o = copy_base<CastExpr>(e);
            o->target = type_name(c.target, map);
            o->target_range = c.target_range;
            o->operand = clone_expr(*c.operand, map);
            return o;
        }
        case ExprKind::List: {
            auto o = copy_base<ListExpr>(e);
            o->elems = clone_list(as<ListExpr>(e).elems, map);
            return o;
        }
        case ExprKind::Spread:
            return copy_named<SpreadExpr>(e);
        case ExprKind::Reduce: {
            auto& r = as<ReduceExpr>(e);
            auto o = copy_base<ReduceExpr>(e);
            o->reducer = r.reducer;
            o->reducer_range = r.reducer_range;
            for (const ReduceRange& rr : r.ranges)
                o->ranges.push_back({rr.name, rr.range, clone_expr(*rr.lo, map), clone_expr(*rr.hi, map)});
            o->body = clone_expr(*r.body, map);
            return o;
        }
    }
    HDS_CHECK(false, "unexpected expression kind in clone");
    return nullptr;
}

TypeRef clone_type(const TypeRef& t, const CloneMap& map) {
    TypeRef o;
    o.range = t.range;
    o.space = t.space;
    o.scalar = type_name(t.scalar, map);
    o.scalar_range = t.scalar_range;
    o.is_tensor = t.is_tensor;
    o.dims = clone_list(t.dims, map);
    return o;
}

namespace {

std::unique_ptr<BlockStmt> block_of(const BlockStmt& b, const CloneMap& map) {
    auto o = std::make_unique<BlockStmt>(b.range);
    for (const StmtPtr& s : b.stmts) o->stmts.push_back(clone_stmt(*s, map));
    return o;
}

StmtPtr clone_stmt(const Stmt& s, const CloneMap& map) {
    switch (s.kind) {
        case StmtKind::Block:
            return block_of(as<BlockStmt>(s), map);
        case StmtKind::Let: {
            auto& l = as<LetStmt>(s);
            auto o = std::make_unique<LetStmt>(s.range);
            o->is_mutable = l.is_mutable;
            o->name = l.name;
            o->name_range = l.name_range;
            if (l.declared) o->declared = clone_type(*l.declared, map);
            o->init = opt(l.init, map);
            return o;
        }
        case StmtKind::Assign: {
            auto& a = as<AssignStmt>(s);
            auto o = std::make_unique<AssignStmt>(s.range);
            o->op = a.op;
            o->target = clone_expr(*a.target, map);
            o->value = clone_expr(*a.value, map);
            return o;
        }
        case StmtKind::ExprStmt: {
            auto o = std::make_unique<ExprStmt>(s.range);
            o->expr = clone_expr(*as<ExprStmt>(s).expr, map);
            return o;
        }
        case StmtKind::If: {
            auto& i = as<IfStmt>(s);
            auto o = std::make_unique<IfStmt>(s.range);
            o->cond = clone_expr(*i.cond, map);
            o->then_block = block_of(*i.then_block, map);
            if (i.else_stmt) o->else_stmt = clone_stmt(*i.else_stmt, map);
            return o;
        }
        case StmtKind::For: {
            auto& f = as<ForStmt>(s);
            auto o = std::make_unique<ForStmt>(s.range);
            o->attributes = f.attributes;
            for (const LoopVar& v : f.vars) o->vars.push_back({v.name, v.range, nullptr});
            o->iterable = opt(f.iterable, map);
            o->hi = opt(f.hi, map);
            o->step = opt(f.step, map);
            o->on = opt(f.on, map);
            o->body = block_of(*f.body, map);
            return o;
        }
        case StmtKind::Return: {
            auto o = std::make_unique<ReturnStmt>(s.range);
            o->value = opt(as<ReturnStmt>(s).value, map);
            return o;
        }
        case StmtKind::Break:
        case StmtKind::Continue:
            return std::make_unique<JumpStmt>(s.kind, s.range);
    }
    HDS_CHECK(false, "unexpected statement kind in clone");
    return nullptr;
}

}  // namespace

std::unique_ptr<BlockStmt> clone_block(const BlockStmt& b, const CloneMap& map) {
    return block_of(b, map);
}

void bind_value_params(const KernelDecl& generic, std::map<std::string, const Expr*> values, CloneMap& map) {
    std::map<std::string, std::pair<const Expr*, std::string>> bound;  // value, type
    for (const TypeParam& p : generic.type_params) {
        if (p.value_type.empty()) continue;
        auto it = values.find(p.name);
        const Expr* v = it != values.end() ? it->second : p.default_value;
        if (v) bound[p.name] = {v, p.value_type};
    }
    map.name = [bound](const NameExpr& n) -> ExprPtr {
        auto it = bound.find(n.name);
        if (it == bound.end()) return nullptr;
        auto cast = std::make_unique<CastExpr>(n.range);
        cast->target = it->second.second;
        cast->target_range = n.range;
        cast->operand = clone_expr(*it->second.first, CloneMap{});
        return cast;
    };
}

std::unique_ptr<KernelDecl> clone_kernel(const KernelDecl& k, const std::string& name, const CloneMap& map) {
    auto o = std::make_unique<KernelDecl>(k.range);
    o->name = name;
    o->instance = true;
    o->name_range = k.name_range;
    for (const Param& p : k.params) {
        Param q;
        q.name = p.name;
        q.name_range = p.name_range;
        q.type = clone_type(p.type, map);
        o->params.push_back(std::move(q));
    }
    o->grid = clone_list(k.grid, map);
    o->block = clone_list(k.block, map);
    o->grid_range = k.grid_range;
    o->block_range = k.block_range;
    if (k.cluster) o->cluster = clone_expr(*k.cluster, map);
    if (k.min_blocks) o->min_blocks = clone_expr(*k.min_blocks, map);
    o->body = clone_block(*k.body, map);
    return o;
}

}  // namespace hds
