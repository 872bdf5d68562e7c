// sema.cpp — semantic analysis of declarations: constants, device functions,
// kernels (parameters, symbolic sizes, launch configuration).
#include "frontend/sema.h"

#include "frontend/ast_clone.h"
#include "frontend/sema_scope.h"
#include "frontend/shared_race.h"
#include "ir/internal_error.h"
#include "ir/ir.h"

namespace hds {

Symbol* Scope::lookup(const std::string& name) const {
    for (const Scope* s = this; s; s = s->parent_)
        if (Symbol* sym = s->lookup_local(name)) return sym;
    return nullptr;
}

Symbol* Scope::lookup_local(const std::string& name) const {
    auto it = names_.find(name);
    return it == names_.end() ? nullptr : it->second;
}

Symbol* Sema::new_symbol(Symbol::Kind kind, const std::string& name, SourceRange range) {
    Symbol& s = symbols_.emplace_back();
    s.kind = kind;
    s.name = name;
    s.decl_range = range;
    return &s;
}

bool Sema::declare(Symbol* s) {
    if (Symbol* prev = scope_->lookup_local(s->name)) {
        diags_.error(DiagId::redefinition, s->decl_range, s->name);
        if (prev->decl_range.valid()) diags_.note(prev->decl_range, "previous definition is here");
        return false;
    }
    scope_->add(s);
    return true;
}

bool Sema::resolve_scalar(const std::string& name, SourceRange range, ScalarType* out) {
    if (auto t = parse_scalar(name)) {
        *out = *t;
        return true;
    }
    diags_.error(DiagId::unknown_type, range, name);
    return false;
}

// `kernel name = generic<f16>;` becomes a copy of the generic kernel with the types substituted.
// Runs in declaration order, so the arguments may use the constants declared before.
void Sema::instantiate_kernel(DeclPtr& d, const Module& m) {
    auto& inst = as<KernelDecl>(*d);
    const KernelDecl* generic = nullptr;
    for (const DeclPtr& g : m.decls)
        if (g->kind == DeclKind::Kernel && g->name == inst.instance_of && !as<KernelDecl>(*g).type_params.empty())
            generic = &as<KernelDecl>(*g);
    if (!generic) {
        diags_.error(DiagId::kernel_instance_unknown, inst.instance_of_range, inst.instance_of);
        return;
    }
    size_t required = 0;
    for (const TypeParam& p : generic->type_params) required += p.value_type.empty() || !p.default_value;
    if (inst.type_args.size() < required || inst.type_args.size() > generic->type_params.size()) {
        diags_.error(DiagId::kernel_instance_args, inst.instance_of_range, inst.instance_of,
                     generic->type_params.size(), inst.type_args.size());
        return;
    }
    CloneMap map;
    std::map<std::string, const Expr*> values;
    bool ok = true;
    for (size_t i = 0; i < inst.type_args.size(); ++i) {
        const TypeParam& p = generic->type_params[i];
        Expr& arg = *inst.type_args[i];
        if (p.value_type.empty()) {  // an element type: a scalar type's name
            ScalarType t = ScalarType::F32;
            std::string name = arg.kind == ExprKind::Name ? as<NameExpr>(arg).name : "";
            ok &= resolve_scalar(name.empty() ? "<expression>" : name, arg.range, &t);
            map.types[p.name] = name;
        } else if (auto t = parse_scalar(p.value_type); t && is_float(*t)) {
            // `scale: f32`: a constant of (or converting to) that type.
            if (check_value(arg).is_error() || !coerce(arg, *t)) {
                ok = false;
            } else if (!arg.value) {
                diags_.error(DiagId::not_constant, arg.range, "a kernel parameter");
                ok = false;
            }
            values[p.name] = &arg;
        } else {
            ok &= check_const_int(arg, "an integer kernel parameter").has_value();
            values[p.name] = &arg;
        }
    }
    if (!ok) return;
    bind_value_params(*generic, values, map);
    auto k = clone_kernel(*generic, inst.name, map);
    k->name_range = inst.name_range;
    k->from_import = inst.from_import;
    d = std::move(k);
}

void Sema::check(Module& m) {
    scopes_.emplace_back(nullptr);
    globals_ = scope_ = &scopes_.back();
    check_target_decls(m);
    // Functions and kernels are visible everywhere; constants from their
    // declaration on, so that constant evaluation never sees a cycle.
    for (auto& d : m.decls) {
        if (d->kind == DeclKind::DeviceFn) declare_fn(as<DeviceFnDecl>(*d));
        if (d->kind == DeclKind::Kernel) declare(new_symbol(Symbol::Kind::Kernel, d->name, d->name_range));
    }
    for (auto& d : m.decls) {
        switch (d->kind) {
            case DeclKind::Const:
                check_const(as<ConstDecl>(*d));
                break;
            case DeclKind::Kernel: {
                if (!as<KernelDecl>(*d).instance_of.empty()) {
                    // An error in the generic body is reported once, with a note per instantiation.
                    const auto& inst = as<KernelDecl>(*d);
                    SourceRange where = inst.instance_of_range;
                    std::string message =
                        "in instantiation of '" + inst.instance_of + "' as kernel '" + inst.name + "' requested here";
                    instantiate_kernel(d, m);
                    // An instantiation that failed (reported) has no body.
                    if (as<KernelDecl>(*d).instance_of.empty()) {
                        InstantiationScope scope(diags_, where, message);
                        instantiation_ = Instantiation{where, message};
                        check_kernel(as<KernelDecl>(*d));
                        instantiation_.reset();
                    }
                } else if (as<KernelDecl>(*d).type_params.empty()) {
                    // Generic kernels are checked per instantiation (check_instance).
                    check_kernel(as<KernelDecl>(*d));
                }
                check_tune_candidates(as<KernelDecl>(*d));
                break;
            }
            case DeclKind::DeviceFn:
                check_fn(as<DeviceFnDecl>(*d));
                break;
            case DeclKind::Import:
            case DeclKind::Target:  // check_target_decls
            case DeclKind::Op:      // checked by the graph layer, per instantiation
            case DeclKind::Graph:   // checked by the graph layer
                break;
        }
    }
    finish_target();
}

// `BN: i32 = 256 in {128, 256}`: `hdsc tune` reads the values without
// evaluating them, so they (and the default) are integer literals.
void Sema::check_tune_candidates(const KernelDecl& k) {
    for (const TypeParam& p : k.type_params) {
        if (p.candidates.empty()) continue;
        bool ok = p.default_value && p.default_value->kind == ExprKind::IntLit;
        for (const auto& c : p.candidates) ok &= c->kind == ExprKind::IntLit;
        if (!ok) diags_.error(DiagId::tune_candidates, p.range, p.name);
    }
}

void Sema::check_instance(KernelDecl& k) {
    HDS_CHECK(globals_, "check_instance before check");
    scope_ = globals_;
    in_instance_ = true;
    check_kernel(k);
    in_instance_ = false;
}

// Parameters and locals never named after their declaration. Not in a graph's
// instances (an op's schedule takes every tensor of the op, used or not), nor
// where an instance's constant condition left code unchecked; `_name` is exempt.
void Sema::warn_unused(const char* what, const std::string& name) {
    if (in_instance_ || pruned_branch_) return;
    for (const Symbol* s : unused_candidates_) {
        if (!s || s->used || s->name.empty() || s->name[0] == '_') continue;
        bool param = s->kind == Symbol::Kind::ScalarParam || (s->kind == Symbol::Kind::Tensor && s->is_param);
        if (param)
            diags_.warning(DiagId::unused_parameter, s->decl_range, s->name, what, name);
        else
            diags_.warning(DiagId::unused_variable, s->decl_range, s->name);
    }
    unused_candidates_.clear();
}

void Sema::check_no_defaults(std::vector<Param>& params) {
    for (Param& p : params)
        if (p.default_value) diags_.error(DiagId::default_outside_op, p.default_value->range);
}

void Sema::check_const(ConstDecl& d) {
    Symbol* s = new_symbol(Symbol::Kind::Const, d.name, d.name_range);
    ScalarType t = ScalarType::I32;
    bool ok = resolve_scalar(d.type.scalar, d.type.scalar_range, &t);
    if (d.type.is_tensor || d.type.space != MemSpace::None) {
        diags_.error(DiagId::not_constant, d.type.range, "a constant's type (a scalar)");
        ok = false;
    }
    s->type = SemaType::of(t);
    size_t errors_before = diags_.error_count();
    if (ok && check_value_as(*d.value, t)) {
        if (!d.value->value && diags_.error_count() == errors_before)
            diags_.error(DiagId::not_constant, d.value->range, "the value of a constant");
        s->value = d.value->value;
    }
    if (!s->value) s->type = SemaType::error();  // uses of it stay quiet
    d.symbol = s;
    declare(s);
}

void Sema::declare_fn(DeviceFnDecl& d) {
    Symbol* s = new_symbol(Symbol::Kind::DeviceFn, d.name, d.name_range);
    for (Param& p : d.params) {
        ScalarType t = ScalarType::I32;
        if (p.type.is_tensor)
            diags_.error(DiagId::tensor_param_in_fn, p.type.range);
        else if (p.type.space != MemSpace::None)
            diags_.error(DiagId::scalar_space, p.type.range);
        resolve_scalar(p.type.scalar, p.type.scalar_range, &t);
        s->param_types.push_back(t);
    }
    if (d.ret) {
        ScalarType t = ScalarType::I32;
        if (d.ret->is_tensor) diags_.error(DiagId::tensor_param_in_fn, d.ret->range);
        if (resolve_scalar(d.ret->scalar, d.ret->scalar_range, &t)) s->ret = t;
    }
    d.symbol = s;
    declare(s);
}

void Sema::check_fn(DeviceFnDecl& f) {
    check_no_defaults(f.params);
    ScopeGuard guard(*this);
    fn_ = &f;
    for (size_t i = 0; i < f.params.size(); ++i) {
        Param& p = f.params[i];
        Symbol* s = new_symbol(Symbol::Kind::ScalarParam, p.name, p.name_range);
        s->type = SemaType::of(f.symbol->param_types[i]);
        p.symbol = s;
        declare(s);
    }
    unused_candidates_.clear();
    pruned_branch_ = false;
    for (Param& p : f.params) unused_candidates_.push_back(p.symbol);
    check_block(*f.body, false);
    warn_unused("function", f.name);
    if (f.symbol->ret && !ends_with_return(*f.body))
        diags_.error(DiagId::missing_return_value, f.name_range, f.name, scalar_name(*f.symbol->ret));
    fn_ = nullptr;
}

void Sema::check_param_tensor(Param& p, KernelDecl& k, Symbol* s) {
    if (p.type.space == MemSpace::Shared || p.type.space == MemSpace::Register)
        diags_.error(DiagId::param_space, p.type.range, space_name(p.type.space));
    s->tensor.space = MemSpace::Global;
    s->is_param = true;
    for (ExprPtr& dim : p.type.dims) {
        Dim d;
        // A bare name that is not a constant introduces (or reuses) a size.
        if (dim->kind == ExprKind::Name) {
            auto& n = as<NameExpr>(*dim);
            Symbol* found = scope_->lookup(n.name);
            if (!found || found->kind == Symbol::Kind::Size) {
                if (!found) {
                    found = new_symbol(Symbol::Kind::Size, n.name, n.range);
                    found->type = SemaType::of(ScalarType::I32);
                    declare(found);
                    k.sizes.push_back(found);
                }
                n.symbol = found;
                n.type = found->type;
                d.size = found;
                s->tensor.dims.push_back(d);
                continue;
            }
        }
        check_expr(*dim);
        if (dim->type.is_error()) {
            s->tensor.dims.push_back({1, nullptr});
            continue;
        }
        if (!dim->value || dim->value->kind != ConstValue::Kind::Int || dim->value->i <= 0) {
            diags_.error(DiagId::tensor_dim_invalid, dim->range);
            d.constant = 1;
        } else {
            d.constant = dim->value->i;
        }
        s->tensor.dims.push_back(d);
    }
}

std::vector<int64_t> Sema::check_launch(std::vector<ExprPtr>& dims, const char* what, SourceRange range) {
    if (dims.empty() || dims.size() > 3) diags_.error(DiagId::launch_dims, range, what, dims.size());
    std::vector<int64_t> values;
    for (ExprPtr& d : dims) {
        bool ok = check_int(*d, what);
        values.push_back(ok && d->value ? d->value->i : 0);
    }
    return values;
}

void Sema::check_kernel(KernelDecl& k) {
    size_t errors_before = diags_.error_count();
    check_no_defaults(k.params);
    ScopeGuard guard(*this);
    kernel_ = &k;
    shared_arrays_.clear();
    sm90_calls_ = false;
    setmaxnreg_call_ = SourceRange{};
    unused_candidates_.clear();
    pruned_branch_ = false;
    for (Param& p : k.params) {
        ScalarType t = ScalarType::F32;
        resolve_scalar(p.type.scalar, p.type.scalar_range, &t);
        Symbol* s;
        if (p.type.is_tensor) {
            s = new_symbol(Symbol::Kind::Tensor, p.name, p.name_range);
            s->tensor.elem = t;
            check_param_tensor(p, k, s);
            s->type.kind = SemaType::Kind::Tensor;
            s->type.tensor = &s->tensor;
        } else {
            if (p.type.space != MemSpace::None) diags_.error(DiagId::scalar_space, p.type.range);
            s = new_symbol(Symbol::Kind::ScalarParam, p.name, p.name_range);
            s->type = SemaType::of(t);
        }
        p.symbol = s;
        declare(s);
        unused_candidates_.push_back(s);
    }
    check_launch(k.grid, "grid", k.grid_range);
    block_dims_ = check_launch(k.block, "block", k.block_range);
    int64_t threads = 1;
    bool constant = true;
    for (int64_t b : block_dims_) {
        threads *= b;
        constant &= b > 0;
    }
    if (constant && threads > 1024) diags_.error(DiagId::block_too_large, k.block_range, threads);
    if (k.cluster) check_cluster(*k.cluster);
    check_block(*k.body, false);
    if (k.min_blocks) check_min_blocks(k, constant ? threads : 0);
    // As the emitted code lays them out, each at a multiple of ir::shared_array_align.
    int64_t shared = 0;
    for (auto [bytes, elem] : shared_arrays_)
        shared = ir::shared_array_end(shared, bytes, elem, sm90_calls_ || k.cluster);
    if (shared > ir::kSharedMemorySm90)
        diags_.error(DiagId::shared_too_large, k.name_range, k.name, shared);
    else
        check_sm80_shared(k, shared);
    warn_unused("kernel", k.name);
    if (!in_instance_ && diags_.error_count() == errors_before) warn_shared_reads_before_barrier(k, diags_);
    kernel_ = nullptr;
    block_dims_.clear();
}

}  // namespace hds
