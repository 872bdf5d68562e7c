// sema_stmt.cpp — semantic analysis of statements: declarations, assignments,
// control flow, range loops and task-mapping loops.
#include "frontend/sema.h"
#include "frontend/sema_scope.h"

namespace hds {

bool ends_with_return(const Stmt& s) {
    switch (s.kind) {
        case StmtKind::Return:
            return true;
        case StmtKind::Block: {
            auto& b = static_cast<const BlockStmt&>(s);
            return !b.stmts.empty() && ends_with_return(*b.stmts.back());
        }
        case StmtKind::If: {
            auto& i = static_cast<const IfStmt&>(s);
            return i.else_stmt && ends_with_return(*i.then_block) && ends_with_return(*i.else_stmt);
        }
        default:
            return false;
    }
}

void Sema::check_block(BlockStmt& b, bool new_scope) {
    if (new_scope) {
        ScopeGuard guard(*this);
        for (StmtPtr& s : b.stmts) check_stmt(*s);
    } else {
        for (StmtPtr& s : b.stmts) check_stmt(*s);
    }
}

void Sema::check_stmt(Stmt& s) {
    switch (s.kind) {
        case StmtKind::Let:
            return check_let(as<LetStmt>(s));
        case StmtKind::Assign:
            return check_assign(as<AssignStmt>(s));
        case StmtKind::ExprStmt:
            check_expr(*as<ExprStmt>(s).expr);
            return;
        case StmtKind::If: {
            auto& i = as<IfStmt>(s);
            SemaType c = check_expr(*i.cond);
            bool is_bool = c.kind == SemaType::Kind::Scalar && c.scalar == ScalarType::Bool;
            if (!c.is_error() && !is_bool) diags_.error(DiagId::condition_not_bool, i.cond->range, c.str());
            // In an instance of a generic kernel, a condition on its parameters (`BN == 64`)
            // selects code for that instance: the branch it rules out is neither checked nor
            // lowered (it may use shapes that only suit other instances), as `if constexpr`.
            if (is_bool && kernel_ && kernel_->instance && i.cond->value) i.constant_branch = i.cond->value->i != 0;
            if (i.constant_branch != -1) pruned_branch_ = true;
            if (i.constant_branch != 0) check_block(*i.then_block);
            if (i.else_stmt && i.constant_branch != 1) check_stmt(*i.else_stmt);
            return;
        }
        case StmtKind::For:
            return check_for(as<ForStmt>(s));
        case StmtKind::Return:
            return check_return(as<ReturnStmt>(s));
        case StmtKind::Break:
        case StmtKind::Continue:
            if (loop_depth_ == 0)
                diags_.error(DiagId::break_outside_loop, s.range, s.kind == StmtKind::Break ? "break" : "continue");
            return;
        case StmtKind::Block:
            return check_block(as<BlockStmt>(s));
    }
}

void Sema::check_local_tensor(LetStmt& s) {
    TypeRef& t = *s.declared;
    Symbol* sym = new_symbol(Symbol::Kind::Tensor, s.name, s.name_range);
    resolve_scalar(t.scalar, t.scalar_range, &sym->tensor.elem);
    if (t.space != MemSpace::Shared && t.space != MemSpace::Register) {
        diags_.error(DiagId::local_tensor_space, t.range);
        t.space = MemSpace::Register;
    }
    sym->tensor.space = t.space;
    int64_t elements = 1;
    for (ExprPtr& dim : t.dims) {
        check_expr(*dim);
        int64_t n = 1;
        if (!dim->type.is_error()) {
            if (!dim->value || dim->value->kind != ConstValue::Kind::Int)
                diags_.error(DiagId::local_dim_not_constant, dim->range);
            else if (dim->value->i <= 0)
                diags_.error(DiagId::tensor_dim_invalid, dim->range);
            else
                n = dim->value->i;
        }
        sym->tensor.dims.push_back({n, nullptr});
        elements *= n;
    }
    if (t.space == MemSpace::Shared)
        shared_arrays_.push_back({elements * byte_size(sym->tensor.elem), sym->tensor.elem});
    if (s.init) {
        diags_.error(DiagId::tensor_init, s.init->range);
        check_expr(*s.init);
    }
    sym->type.kind = SemaType::Kind::Tensor;
    sym->type.tensor = &sym->tensor;
    sym->is_mutable = true;
    s.symbol = sym;
    declare(sym);
    unused_candidates_.push_back(sym);
}

void Sema::check_let(LetStmt& s) {
    if (s.declared && s.declared->is_tensor) return check_local_tensor(s);
    Symbol* sym = new_symbol(Symbol::Kind::Local, s.name, s.name_range);
    sym->is_mutable = s.is_mutable;
    if (s.declared) {
        ScalarType t = ScalarType::F32;
        bool ok = resolve_scalar(s.declared->scalar, s.declared->scalar_range, &t);
        if (s.declared->space != MemSpace::None) diags_.error(DiagId::scalar_space, s.declared->range);
        sym->type = ok ? SemaType::of(t) : SemaType::error();
        if (!s.init)
            diags_.error(DiagId::var_needs_init, s.name_range, s.name);
        else if (ok)
            check_value_as(*s.init, t);
        else
            check_expr(*s.init);
    } else {
        SemaType t = check_expr(*s.init);
        if (t.kind == SemaType::Kind::Mapping && !s.is_mutable) {
            sym->kind = Symbol::Kind::Mapping;
            sym->type = t;
        } else if (t.is_value()) {
            sym->type = SemaType::of(t.default_scalar());
            if (t.is_untyped()) coerce(*s.init, t.default_scalar());
        } else {
            check_value(*s.init);  // reports tensors, mappings and void calls
            sym->type = SemaType::error();
        }
    }
    // `let TM = BM == 128 ? 8 : 4;` is a constant where its value is: usable in
    // array dimensions and task mappings like a `const`.
    if (!s.is_mutable && s.init && s.init->value && sym->kind == Symbol::Kind::Local && sym->type.is_value())
        sym->value = s.init->value;
    s.symbol = sym;
    declare(sym);
    unused_candidates_.push_back(sym);
}

void Sema::check_assign(AssignStmt& s) {
    SemaType target = check_expr(*s.target);
    bool ok = !target.is_error();
    if (ok) {
        if (s.target->kind == ExprKind::Name) {
            Symbol* sym = as<NameExpr>(*s.target).symbol;
            if (sym && !sym->is_mutable) {
                diags_.error(DiagId::assign_to_immutable, s.target->range, sym->name);
                ok = false;
            }
        } else if (s.target->kind == ExprKind::Index && target.kind == SemaType::Kind::Scalar) {
            auto& idx = as<IndexExpr>(*s.target);
            if (idx.base->kind == ExprKind::Name && as<NameExpr>(*idx.base).symbol)
                as<NameExpr>(*idx.base).symbol->written = true;
        } else {
            diags_.error(DiagId::not_assignable, s.target->range);
            ok = false;
        }
    }
    if (ok && target.kind != SemaType::Kind::Scalar) {
        check_value(*s.target);
        ok = false;
    }
    if (!ok) {
        check_expr(*s.value);
        return;
    }
    SemaType v = check_value(*s.value);
    if (s.op) {
        bool int_only = *s.op == BinaryOp::Mod || *s.op == BinaryOp::BitAnd || *s.op == BinaryOp::BitOr ||
                        *s.op == BinaryOp::BitXor || *s.op == BinaryOp::Shl || *s.op == BinaryOp::Shr;
        if (v.is_error()) return;
        if (target.scalar == ScalarType::Bool || (int_only && !(is_int(target.scalar) && v.is_int_like()))) {
            diags_.error(DiagId::invalid_operands, s.range, std::string(op_spelling(*s.op)) + "=", target.str(),
                         v.str());
            return;
        }
    }
    if (!v.is_error()) coerce(*s.value, target.scalar);
}

void Sema::check_for(ForStmt& s) {
    for (auto& [name, range] : s.attributes) {
        if (name == "unroll")
            s.unroll = true;
        else
            diags_.error(DiagId::unknown_attribute, range, name);
    }
    SemaType it = check_expr(*s.iterable);
    if (it.kind == SemaType::Kind::Mapping) return check_for_mapping(s);
    if (it.is_error()) {
        // Already reported: check the rest quietly, with the loop variables known.
        for (Expr* e : {s.hi.get(), s.step.get(), s.on.get()})
            if (e) check_expr(*e);
        return check_loop_body(s, std::nullopt);
    }
    if (s.on) {
        diags_.error(DiagId::range_with_on, s.on->range);
        check_expr(*s.on);
    }
    if (s.vars.size() != 1) diags_.error(DiagId::range_multi_var, s.vars[1].range);
    if (!s.hi) {
        diags_.error(DiagId::range_needs_bounds, s.iterable->range);
        return check_loop_body(s, std::nullopt);
    }
    bool ok = check_int(*s.iterable, "a loop bound");
    ok &= check_int(*s.hi, "a loop bound");
    SemaType t = arithmetic_type(s.iterable->type, s.hi->type).value_or(SemaType::of(ScalarType::I32));
    if (s.step) {
        ok &= check_int(*s.step, "a loop step");
        if (ok) t = arithmetic_type(t, s.step->type).value_or(t);
        if (ok && s.step->value && s.step->value->i <= 0)
            diags_.error(DiagId::step_not_positive, s.step->range, s.step->value->i);
    }
    ScalarType var_type = ok ? t.default_scalar() : ScalarType::I32;
    if (ok) {
        coerce(*s.iterable, var_type);
        coerce(*s.hi, var_type);
        if (s.step) coerce(*s.step, var_type);
    }
    check_loop_body(s, var_type);
}

void Sema::check_loop_body(ForStmt& s, std::optional<ScalarType> var_type) {
    ScopeGuard guard(*this);
    for (LoopVar& lv : s.vars) {
        lv.symbol = new_symbol(Symbol::Kind::LoopVar, lv.name, lv.range);
        if (var_type) lv.symbol->type = SemaType::of(*var_type);  // else: error type, uses stay quiet
        declare(lv.symbol);
    }
    ++loop_depth_;
    check_block(*s.body);
    --loop_depth_;
}

void Sema::check_for_mapping(ForStmt& s) {
    const TaskMapping& m = *s.iterable->type.mapping;
    if (s.hi) {
        diags_.error(DiagId::mapping_with_range, s.hi->range);
        check_expr(*s.hi);
    }
    if (!s.on)
        diags_.error(DiagId::mapping_needs_on, s.iterable->range);
    else if (check_int(*s.on, "a worker index")) {
        coerce(*s.on, ScalarType::I32);
        // `on threadIdx.d` with a constant block: the worker count must match.
        if (s.on->kind == ExprKind::Member) {
            auto& mem = as<MemberExpr>(*s.on);
            int dim = mem.member == "x" ? 0 : mem.member == "y" ? 1 : 2;
            bool is_tid = mem.base->kind == ExprKind::Name && as<NameExpr>(*mem.base).name == "threadIdx" &&
                          mem.base->type.kind == SemaType::Kind::Builtin3;
            if (is_tid && kernel_ && dim < static_cast<int>(block_dims_.size()) && block_dims_[dim] > 0 &&
                block_dims_[dim] != m.workers())
                diags_.error(DiagId::mapping_workers_mismatch, s.on->range, m.workers(), block_dims_[dim]);
        }
    }
    if (s.vars.size() != m.rank())
        diags_.error(DiagId::mapping_rank_mismatch, s.vars.front().range, m.rank(), s.vars.size(),
                     s.vars.size() == 1 ? " was" : "s were");
    check_loop_body(s, ScalarType::I32);
}

void Sema::check_return(ReturnStmt& s) {
    std::optional<ScalarType> ret = fn_ ? fn_->symbol->ret : std::nullopt;
    const std::string& name = fn_ ? fn_->name : kernel_ ? kernel_->name : std::string("?");
    if (!ret) {
        if (s.value) {
            diags_.error(DiagId::unexpected_return_value, s.value->range, name);
            check_expr(*s.value);
        }
        return;
    }
    if (!s.value) {
        diags_.error(DiagId::missing_return_value, s.range, name, scalar_name(*ret));
        return;
    }
    check_value_as(*s.value, *ret);
}

}  // namespace hds
