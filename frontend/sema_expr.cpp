// sema_expr.cpp — type checking of expressions, implicit conversions and
// constant values.
#include "frontend/const_fold.h"
#include "frontend/sema.h"

#include <cmath>

namespace hds {

namespace {
bool is_builtin3(const std::string& n) {
    return n == "threadIdx" || n == "blockIdx" || n == "blockDim" || n == "gridDim";
}
std::string value_text(const Expr& e) {
    if (!e.value) return "value";
    return e.value->kind == ConstValue::Kind::Float ? fmt::format("{}", e.value->f) : fmt::format("{}", e.value->i);
}
}  // namespace

SemaType Sema::check_expr(Expr& e) {
    if (e.checked) return e.type;
    e.checked = true;
    SemaType t;
    switch (e.kind) {
        case ExprKind::IntLit: {
            auto& lit = as<IntLit>(e);
            bool big = lit.value > static_cast<uint64_t>(INT64_MAX);
            e.value = ConstValue::make_int(static_cast<int64_t>(lit.value));
            if (lit.suffix) {
                t = SemaType::of(*lit.suffix);
                bool fits = *lit.suffix == ScalarType::U64 || (!big && int_fits(e.value->i, *lit.suffix));
                if (!fits) diags_.error(DiagId::literal_out_of_range, e.range, lit.value, scalar_name(*lit.suffix));
            } else {
                t = SemaType::untyped_int();
                if (big) diags_.error(DiagId::literal_out_of_range, e.range, lit.value, "i64");
            }
            break;
        }
        case ExprKind::FloatLit: {
            auto& lit = as<FloatLit>(e);
            e.value = ConstValue::make_float(lit.value);
            t = lit.suffix ? SemaType::of(*lit.suffix) : SemaType::untyped_float();
            break;
        }
        case ExprKind::BoolLit:
            e.value = ConstValue::make_bool(as<BoolLit>(e).value);
            t = SemaType::of(ScalarType::Bool);
            break;
        case ExprKind::Name:
            t = check_name(as<NameExpr>(e));
            break;
        case ExprKind::Member: {
            auto& m = as<MemberExpr>(e);
            SemaType base = check_expr(*m.base);
            if (base.kind == SemaType::Kind::Builtin3 && (m.member == "x" || m.member == "y" || m.member == "z")) {
                t = SemaType::of(ScalarType::I32);
            } else if (!base.is_error()) {
                std::string name = m.base->kind == ExprKind::Name ? as<NameExpr>(*m.base).name : base.str();
                diags_.error(DiagId::unknown_member, e.range, name, m.member);
            }
            break;
        }
        case ExprKind::Index:
            t = check_index(as<IndexExpr>(e));
            break;
        case ExprKind::Unary:
            t = check_unary(as<UnaryExpr>(e));
            break;
        case ExprKind::Binary:
            t = check_binary(as<BinaryExpr>(e));
            break;
        case ExprKind::Cond:
            t = check_cond(as<CondExpr>(e));
            break;
        case ExprKind::Call:
            t = check_call(as<CallExpr>(e));
            break;
        case ExprKind::Cast:
            t = check_cast(as<CastExpr>(e));
            break;
        case ExprKind::List:
            diags_.error(DiagId::list_outside_args, e.range);
            for (ExprPtr& x : as<ListExpr>(e).elems) check_expr(*x);
            break;
        case ExprKind::Spread:
            diags_.error(DiagId::spread_outside_op, e.range, as<SpreadExpr>(e).name);
            break;
        case ExprKind::Reduce:
            diags_.error(DiagId::reduce_outside_compute, e.range, as<ReduceExpr>(e).reducer);
            break;
    }
    e.type = t;
    return t;
}

SemaType Sema::check_name(NameExpr& e) {
    Symbol* s = scope_->lookup(e.name);
    if (!s) {
        if (is_builtin3(e.name)) return {SemaType::Kind::Builtin3};
        diags_.error(DiagId::unknown_name, e.range, e.name);
        return SemaType::error();
    }
    e.symbol = s;
    s->used = true;
    if (s->kind == Symbol::Kind::DeviceFn || s->kind == Symbol::Kind::Kernel) {
        diags_.error(DiagId::unknown_name, e.range, e.name);
        diags_.note(s->decl_range, "'" + e.name + "' is a function; call it with (...)");
        return SemaType::error();
    }
    if (s->kind == Symbol::Kind::Const || (s->kind == Symbol::Kind::Local && !s->is_mutable)) e.value = s->value;
    return s->type;
}

SemaType Sema::check_index(IndexExpr& e) {
    SemaType base = check_expr(*e.base);
    for (ExprPtr& i : e.indices) check_int(*i, "an index");
    if (base.is_error()) return base;
    std::string name = e.base->kind == ExprKind::Name ? as<NameExpr>(*e.base).name : "expression";
    if (base.kind != SemaType::Kind::Tensor) {
        diags_.error(DiagId::not_indexable, e.base->range, name);
        return SemaType::error();
    }
    const TensorInfo& info = *base.tensor;
    if (e.indices.size() != info.dims.size()) {
        diags_.error(DiagId::index_rank_mismatch, e.range, name, info.dims.size(), e.indices.size());
        return SemaType::error();
    }
    for (size_t d = 0; d < e.indices.size(); ++d) {
        Expr& i = *e.indices[d];
        if (!i.value || i.value->kind != ConstValue::Kind::Int || info.dims[d].size) continue;
        if (i.value->i < 0 || i.value->i >= info.dims[d].constant)
            diags_.error(DiagId::index_out_of_bounds, i.range, i.value->i, d, name, info.dims[d].constant);
    }
    for (ExprPtr& i : e.indices)
        if (i->type.is_int_like()) coerce(*i, i->type.default_scalar());
    return SemaType::of(info.elem);
}

SemaType Sema::check_unary(UnaryExpr& e) {
    SemaType a = check_expr(*e.operand);
    if (a.is_error()) return a;
    bool ok = a.is_value();
    if (ok) {
        switch (e.op) {
            case UnaryOp::Neg:
                ok = a.is_int_like() || a.is_float_like();
                break;
            case UnaryOp::Not:
                ok = a.kind == SemaType::Kind::Scalar && a.scalar == ScalarType::Bool;
                break;
            case UnaryOp::BitNot:
                ok = a.is_int_like();
                break;
        }
    }
    if (!ok) {
        diags_.error(DiagId::invalid_operand, e.range, op_spelling(e.op), a.str());
        return SemaType::error();
    }
    if (e.operand->value) e.value = fold_unary(e.op, *e.operand->value);
    return a;
}

SemaType Sema::check_binary(BinaryExpr& e) {
    SemaType a = check_expr(*e.lhs), b = check_expr(*e.rhs);
    if (a.is_error() || b.is_error()) return SemaType::error();
    auto bad = [&]() {
        diags_.error(DiagId::invalid_operands, e.op_range, op_spelling(e.op), a.str(), b.str());
        return SemaType::error();
    };
    if (a.kind == SemaType::Kind::Mapping || b.kind == SemaType::Kind::Mapping) {
        if (e.op != BinaryOp::Mul || a.kind != b.kind) return bad();
        if (a.mapping->rank() != b.mapping->rank()) {
            diags_.error(DiagId::mapping_compose_rank, e.op_range, a.mapping->rank(), b.mapping->rank());
            return SemaType::error();
        }
        SemaType t{SemaType::Kind::Mapping};
        t.mapping = std::make_shared<TaskMapping>(TaskMapping::compose(*a.mapping, *b.mapping));
        return t;
    }
    if (!a.is_value() || !b.is_value()) {
        check_value(a.is_value() ? *e.rhs : *e.lhs);
        return SemaType::error();
    }
    SemaType result;
    bool is_bool_op = e.op == BinaryOp::And || e.op == BinaryOp::Or;
    bool is_bool = a.kind == SemaType::Kind::Scalar && a.scalar == ScalarType::Bool;
    if (is_bool_op) {
        if (!is_bool || !(b.kind == SemaType::Kind::Scalar && b.scalar == ScalarType::Bool)) return bad();
        result = a;
        // Constants fold, and so does a constant left side that decides (`false && x`, `true || x`).
        bool decides = e.lhs->value && (e.op == BinaryOp::And ? !e.lhs->value->i : e.lhs->value->i);
        if (decides)
            e.value = e.lhs->value;
        else if (e.lhs->value && e.rhs->value)
            e.value = fold_binary(e.op, *e.lhs->value, *e.rhs->value, result, nullptr);
    } else {
        auto common = arithmetic_type(a, b);
        if (!common) return bad();
        bool common_bool = common->kind == SemaType::Kind::Scalar && common->scalar == ScalarType::Bool;
        switch (e.op) {
            case BinaryOp::Eq:
            case BinaryOp::Ne:
                result = SemaType::of(ScalarType::Bool);
                break;
            case BinaryOp::Lt:
            case BinaryOp::Le:
            case BinaryOp::Gt:
            case BinaryOp::Ge:
                if (common_bool) return bad();
                result = SemaType::of(ScalarType::Bool);
                break;
            case BinaryOp::Mod:
            case BinaryOp::Shl:
            case BinaryOp::Shr:
            case BinaryOp::BitAnd:
            case BinaryOp::BitOr:
            case BinaryOp::BitXor:
                if (!common->is_int_like()) return bad();
                result = *common;
                break;
            default:
                if (common_bool) return bad();
                result = *common;
        }
        if (!common->is_untyped()) {
            coerce(*e.lhs, common->scalar);
            coerce(*e.rhs, common->scalar);
        }
        if (e.lhs->value && e.rhs->value) {
            bool div0 = false;
            e.value = fold_binary(e.op, *e.lhs->value, *e.rhs->value, *common, &div0);
            if (div0) diags_.error(DiagId::constant_div_by_zero, e.op_range);
        }
    }
    return result;
}

SemaType Sema::check_cond(CondExpr& e) {
    SemaType c = check_expr(*e.cond);
    if (!c.is_error() && !(c.kind == SemaType::Kind::Scalar && c.scalar == ScalarType::Bool))
        diags_.error(DiagId::condition_not_bool, e.cond->range, c.str());
    SemaType a = check_value(*e.then_expr), b = check_value(*e.else_expr);
    if (a.is_error() || b.is_error()) return SemaType::error();
    auto common = arithmetic_type(a, b);
    if (!common) {
        diags_.error(DiagId::invalid_operands, e.range, "?:", a.str(), b.str());
        return SemaType::error();
    }
    if (!common->is_untyped()) {
        coerce(*e.then_expr, common->scalar);
        coerce(*e.else_expr, common->scalar);
    }
    if (e.cond->value) {  // a constant condition: the value of the branch it takes, if that has one
        const Expr& taken = e.cond->value->i ? *e.then_expr : *e.else_expr;
        if (taken.value) e.value = taken.value;
    }
    return *common;
}

SemaType Sema::check_cast(CastExpr& e) {
    ScalarType t = ScalarType::F32;
    bool ok = resolve_scalar(e.target, e.target_range, &t);
    SemaType v = check_value(*e.operand);
    if (!ok || v.is_error()) return SemaType::error();
    if (v.is_untyped()) coerce(*e.operand, v.default_scalar());
    if (e.operand->value) e.value = convert_const(*e.operand->value, t);
    return SemaType::of(t);
}

SemaType Sema::check_value(Expr& e) {
    SemaType t = check_expr(e);
    switch (t.kind) {
        case SemaType::Kind::Tensor: {
            std::string name = e.kind == ExprKind::Name ? as<NameExpr>(e).name : "expression";
            diags_.error(DiagId::tensor_as_value, e.range, name);
            return SemaType::error();
        }
        case SemaType::Kind::Mapping:
            diags_.error(DiagId::mapping_as_value, e.range);
            return SemaType::error();
        case SemaType::Kind::Void: {
            std::string name = e.kind == ExprKind::Call ? as<CallExpr>(e).callee : "expression";
            diags_.error(DiagId::void_value, e.range, name);
            return SemaType::error();
        }
        case SemaType::Kind::Builtin3: {
            std::string name = e.kind == ExprKind::Name ? as<NameExpr>(e).name : "expression";
            diags_.error(DiagId::builtin3_as_value, e.range, name, name);
            return SemaType::error();
        }
        default:
            return t;
    }
}

bool Sema::check_int(Expr& e, const char* what) {
    SemaType t = check_value(e);
    if (t.is_error()) return false;
    if (!t.is_int_like()) {
        diags_.error(DiagId::not_integer, e.range, what, t.str());
        return false;
    }
    return true;
}

bool Sema::check_value_as(Expr& e, ScalarType target) {
    check_value(e);
    return coerce(e, target);
}

bool Sema::coerce(Expr& e, ScalarType target) {
    const SemaType& t = e.type;
    if (t.is_error()) return false;
    if (!t.is_value()) return !check_value(e).is_error();
    if (t.is_untyped() && !e.value) {
        // `c ? 1 : 2` with a run-time condition: the literals adopt the type.
        // (Any other untyped expression without a value failed to fold, which
        // was reported already.)
        bool ok = e.kind != ExprKind::Cond;
        if (!ok) {
            auto& c = as<CondExpr>(e);
            ok = coerce(*c.then_expr, target);
            ok &= coerce(*c.else_expr, target);
        }
        e.type = SemaType::of(target);
        return ok;
    }
    if (t.kind == SemaType::Kind::UntypedInt) {
        if (target == ScalarType::Bool) {
            diags_.error(DiagId::cannot_convert, e.range, t.str(), scalar_name(target));
            return false;
        }
        if (!int_fits(e.value->i, target)) {
            diags_.error(DiagId::literal_out_of_range, e.range, value_text(e), scalar_name(target));
            return false;
        }
    } else if (t.kind == SemaType::Kind::UntypedFloat) {
        if (!is_float(target)) {
            diags_.error(DiagId::implicit_narrowing, e.range, t.str(), scalar_name(target), scalar_name(target));
            return false;
        }
    } else if (!converts_implicitly(t.scalar, target)) {
        if (t.scalar == ScalarType::Bool || target == ScalarType::Bool)
            diags_.error(DiagId::cannot_convert, e.range, t.str(), scalar_name(target));
        else
            diags_.error(DiagId::implicit_narrowing, e.range, t.str(), scalar_name(target), scalar_name(target));
        return false;
    }
    if (t.is_untyped() && is_float(target)) {
        // A literal that a float type cannot hold: an integer it rounds, or any
        // value that overflows to infinity or underflows to zero.
        double v = e.value->as_double();
        double r = round_to_float(v, target);
        bool changed = t.kind == SemaType::Kind::UntypedInt ? r != v : (std::isinf(r) || (r == 0 && v != 0));
        if (changed) diags_.warning(DiagId::implicit_narrowing_literal, e.range, value_text(e), scalar_name(target), r);
    } else if (t.kind == SemaType::Kind::Scalar && is_int(t.scalar) && bit_width(t.scalar) > 8 &&
               (target == ScalarType::F16 || target == ScalarType::BF16)) {
        // Integers convert to floats implicitly, as in C; f16 holds integers
        // exactly up to 2048 and bf16 up to 256 only.
        diags_.warning(DiagId::implicit_int_to_half, e.range, t.str(), scalar_name(target), scalar_name(target));
    }
    // Untyped literals take the type their context gives them.
    if (t.is_untyped()) {
        e.type = SemaType::of(target);
        e.value = convert_const(*e.value, target);
    }
    return true;
}

std::optional<int64_t> Sema::check_const_int(Expr& e, const char* what) {
    if (!check_int(e, what)) return std::nullopt;
    if (!e.value) {
        diags_.error(DiagId::not_constant, e.range, what);
        return std::nullopt;
    }
    return e.value->i;
}

}  // namespace hds
