// sema_call.cpp — calls: task-mapping constructors, built-in functions and
// device functions.
#include <algorithm>

#include "frontend/sema.h"
#include "ir/builtins.h"

namespace hds {

namespace {
bool is_mapping_ctor(const std::string& n) {
    return n == "spatial" || n == "repeat" || n == "column_spatial" || n == "column_repeat" || n == "auto_map";
}

bool atomic_supports(Builtin b, ScalarType t) {
    if (b == Builtin::AtomicAdd)
        return t == ScalarType::I32 || t == ScalarType::U32 || t == ScalarType::U64 || t == ScalarType::F32 ||
               t == ScalarType::F64 || t == ScalarType::F16 || t == ScalarType::BF16;
    return t == ScalarType::I32 || t == ScalarType::U32 || t == ScalarType::I64 || t == ScalarType::U64;
}

// The types __shfl_*_sync has overloads for.
bool shuffle_supports(ScalarType t) {
    return t == ScalarType::F16 || t == ScalarType::BF16 || (t != ScalarType::Bool && bit_width(t) >= 32);
}
}  // namespace

bool Sema::check_arg_count(CallExpr& e, size_t expected) {
    if (e.args.size() == expected) return true;
    diags_.error(DiagId::wrong_arg_count, e.range, e.callee, expected, expected == 1 ? "" : "s", e.args.size());
    return false;
}

SemaType Sema::check_call(CallExpr& e) {
    if (is_mapping_ctor(e.callee) && !scope_->lookup(e.callee)) return check_mapping_call(e);
    for (CallArg& a : e.args) {
        if (!a.name.empty()) diags_.error(DiagId::unexpected_named_arg, a.name_range, e.callee, a.name);
    }
    if (Symbol* s = scope_->lookup(e.callee)) {
        if (s->kind == Symbol::Kind::DeviceFn) return check_fn_call(e, *s);
        if (s->kind == Symbol::Kind::Kernel) {
            diags_.error(DiagId::kernel_call, e.callee_range, e.callee);
            for (CallArg& a : e.args) check_expr(*a.value);
            return SemaType::error();
        }
    }
    if (const BuiltinInfo* b = find_builtin(e.callee)) return check_builtin_call(e, *b);
    diags_.error(DiagId::unknown_function, e.callee_range, e.callee);
    for (CallArg& a : e.args) check_expr(*a.value);
    return SemaType::error();
}

SemaType Sema::check_mapping_call(CallExpr& e) {
    std::vector<int64_t> dims;
    std::optional<int64_t> workers;
    std::vector<int> ranks;
    bool ok = true;
    bool is_auto = e.callee == "auto_map";
    for (CallArg& a : e.args) {
        if (a.name.empty()) {
            auto v = check_const_int(*a.value, "a task mapping dimension");
            if (v && *v <= 0) diags_.error(DiagId::mapping_bad_dim, a.value->range);
            ok &= v && *v > 0;
            dims.push_back(v.value_or(1));
        } else if (a.name == "workers" && is_auto) {
            workers = check_const_int(*a.value, "the worker count");
            if (workers && *workers <= 0) diags_.error(DiagId::auto_map_bad_workers, a.value->range, *workers);
            ok &= workers && *workers > 0;
        } else if (a.name == "ranks" && !is_auto && a.value->kind == ExprKind::List) {
            a.value->checked = true;
            for (ExprPtr& r : as<ListExpr>(*a.value).elems) {
                auto v = check_const_int(*r, "a rank");
                ok &= v.has_value();
                ranks.push_back(static_cast<int>(v.value_or(0)));
            }
        } else {
            diags_.error(DiagId::unexpected_named_arg, a.name_range, e.callee, a.name);
            check_expr(*a.value);
            ok = false;
        }
    }
    if (dims.empty()) {
        diags_.error(DiagId::wrong_arg_count, e.range, e.callee, "at least 1", "", 0);
        return SemaType::error();
    }
    if (is_auto && !workers && ok) {
        diags_.error(DiagId::not_constant, e.range, "auto_map's 'workers=' argument");
        return SemaType::error();
    }
    if (!ok) return SemaType::error();
    auto m = std::make_shared<TaskMapping>();
    if (is_auto) {
        if (!TaskMapping::auto_map(dims, *workers, m.get())) {
            int64_t tasks = 1;
            for (int64_t d : dims) tasks *= d;
            diags_.error(DiagId::auto_map_indivisible, e.range, tasks, *workers);
            return SemaType::error();
        }
    } else {
        bool column = e.callee.rfind("column_", 0) == 0;
        auto kind =
            e.callee.find("spatial") != std::string::npos ? MappingAtom::Kind::Spatial : MappingAtom::Kind::Repeat;
        MappingAtom atom = TaskMapping::make_atom(kind, dims, column);
        if (!ranks.empty()) {
            std::vector<int> sorted = ranks;
            std::sort(sorted.begin(), sorted.end());
            bool perm = sorted.size() == dims.size();
            for (size_t i = 0; perm && i < sorted.size(); ++i) perm = sorted[i] == static_cast<int>(i);
            if (!perm) {
                diags_.error(DiagId::mapping_bad_ranks, e.range, dims.size() - 1);
                return SemaType::error();
            }
            atom.ranks = ranks;
        }
        m->atoms.push_back(atom);
    }
    SemaType t{SemaType::Kind::Mapping};
    t.mapping = m;
    return t;
}

SemaType Sema::check_builtin_call(CallExpr& e, const BuiltinInfo& b) {
    if (!check_arg_count(e, static_cast<size_t>(b.arity))) {
        for (CallArg& a : e.args) check_expr(*a.value);
        return SemaType::error();
    }
    switch (b.cls) {
        case BuiltinClass::Barrier:
            return SemaType::void_type();
        case BuiltinClass::Reference:
            return check_tensor_core_call(e, b);
        case BuiltinClass::Shuffle: {
            SemaType v = check_value(*e.args[0].value);
            bool ok = check_int(*e.args[1].value, "a lane");
            if (v.is_error() || !ok) return SemaType::error();
            coerce(*e.args[1].value, ScalarType::I32);
            ScalarType t = v.default_scalar();
            if (!shuffle_supports(t)) {
                diags_.error(DiagId::unsupported_type, e.args[0].value->range, b.name, scalar_name(t));
                return SemaType::error();
            }
            coerce(*e.args[0].value, t);
            return SemaType::of(t);
        }
        case BuiltinClass::Atomic: {
            Expr& target = *e.args[0].value;
            SemaType t = check_expr(target);
            SemaType v = check_value(*e.args[1].value);
            if (t.is_error() || v.is_error()) return SemaType::error();
            const IndexExpr* idx = target.kind == ExprKind::Index ? &as<IndexExpr>(target) : nullptr;
            const NameExpr* base = idx && idx->base->kind == ExprKind::Name ? &as<NameExpr>(*idx->base) : nullptr;
            if (!base || !base->symbol || base->symbol->kind != Symbol::Kind::Tensor ||
                base->symbol->tensor.space == MemSpace::Register) {
                diags_.error(DiagId::atomic_target, target.range, b.name);
                return SemaType::error();
            }
            base->symbol->written = true;
            if (!atomic_supports(b.id, t.scalar)) {
                diags_.error(DiagId::unsupported_type, target.range, b.name, t.str());
                return SemaType::error();
            }
            if (!coerce(*e.args[1].value, t.scalar)) return SemaType::error();
            return t;
        }
        case BuiltinClass::Math:
        case BuiltinClass::FloatMath: {
            std::optional<SemaType> common;
            for (CallArg& a : e.args) {
                SemaType t = check_value(*a.value);
                if (t.is_error()) return SemaType::error();
                common = common ? arithmetic_type(*common, t) : t;
                if (!common) {
                    diags_.error(DiagId::invalid_operands, e.range, b.name, e.args[0].value->type.str(), t.str());
                    return SemaType::error();
                }
            }
            ScalarType t = common->default_scalar();
            if (common->kind == SemaType::Kind::UntypedInt && b.cls == BuiltinClass::FloatMath) t = ScalarType::F32;
            bool ok = b.cls == BuiltinClass::FloatMath ? is_float(t) : (is_float(t) || is_int(t));
            if (b.id == Builtin::Abs && is_unsigned_int(t)) ok = false;
            if (!ok) {
                diags_.error(DiagId::unsupported_type, e.range, b.name, scalar_name(t));
                return SemaType::error();
            }
            for (CallArg& a : e.args) coerce(*a.value, t);
            return SemaType::of(t);
        }
    }
    return SemaType::error();
}

SemaType Sema::check_fn_call(CallExpr& e, Symbol& fn) {
    e.symbol = &fn;
    if (!check_arg_count(e, fn.param_types.size())) {
        for (CallArg& a : e.args) check_expr(*a.value);
        return SemaType::error();
    }
    for (size_t i = 0; i < e.args.size(); ++i) check_value_as(*e.args[i].value, fn.param_types[i]);
    return fn.ret ? SemaType::of(*fn.ret) : SemaType::void_type();
}

}  // namespace hds
