// lower_to_ir.cpp — AST -> IR.
#include "frontend/lower_to_ir.h"

#include <unordered_map>

#include "frontend/symbol.h"
#include "ir/internal_error.h"

namespace hds {

namespace {

class Lowerer {
  public:
    // `fn_ret` is the result type of the device function being lowered.
    explicit Lowerer(std::optional<ScalarType> fn_ret = std::nullopt) : fn_ret_(fn_ret) {}

    ir::Kernel kernel(const KernelDecl& k) {
        ir::Kernel out;
        out.name = k.name;
        out.loc = k.range.begin;
        for (Symbol* s : k.sizes) {
            ir::Var v = ir::make_var(ScalarType::I32, s->name);
            vars_[s] = v;
            out.sizes.push_back(v);
        }
        for (const Param& p : k.params) {
            ir::KernelParam kp;
            if (p.symbol->kind == Symbol::Kind::Tensor) {
                kp.kind = ir::KernelParam::Kind::Tensor;
                kp.buffer = buffer(*p.symbol, ir::Scope::Global);
                kp.written = p.symbol->written;
            } else {
                kp.kind = ir::KernelParam::Kind::Scalar;
                kp.var = ir::make_var(p.symbol->type.scalar, p.name);
                vars_[p.symbol] = kp.var;
            }
            out.params.push_back(kp);
        }
        for (const ExprPtr& g : k.grid) out.grid.push_back(expr(*g, ScalarType::I32));
        for (const ExprPtr& b : k.block) out.block.push_back(expr(*b, ScalarType::I32));
        if (k.cluster && k.cluster->value)
            out.cluster = static_cast<int>(k.cluster->value->i);
        else if (k.cluster)  // over sizes: chosen per call
            out.cluster_per_call = expr(*k.cluster, ScalarType::I32);
        if (k.min_blocks) out.min_blocks = expr(*k.min_blocks, ScalarType::I32);
        out.body = block(*k.body);
        return out;
    }

    ir::DeviceFunction function(const DeviceFnDecl& f) {
        ir::DeviceFunction out;
        out.name = f.name;
        out.loc = f.range.begin;
        out.ret = f.symbol->ret;
        for (const Param& p : f.params) {
            ir::Var v = ir::make_var(p.symbol->type.scalar, p.name);
            vars_[p.symbol] = v;
            out.params.push_back(v);
        }
        out.body = block(*f.body);
        return out;
    }

  private:
    ir::Buffer buffer(const Symbol& s, ir::Scope scope) {
        std::vector<ir::Expr> shape;
        for (const Dim& d : s.tensor.dims) shape.push_back(d.size ? ir::Expr(vars_.at(d.size)) : ir::i32(d.constant));
        ir::Buffer b = ir::make_buffer(s.name, s.tensor.elem, shape, scope);
        buffers_[&s] = b;
        return b;
    }

    static ir::Expr immediate(const ConstValue& v, ScalarType t) {
        if (t == ScalarType::Bool) return ir::BoolImm::make(v.kind == ConstValue::Kind::Float ? v.f != 0 : v.i != 0);
        if (is_float(t)) return ir::FloatImm::make(t, v.as_double());
        return ir::IntImm::make(t, v.kind == ConstValue::Kind::Float ? static_cast<int64_t>(v.f) : v.i);
    }

    static ScalarType type_of(const Expr& e) {
        HDS_CHECK(e.type.is_value(), "lowering an expression without a value type");
        return e.type.default_scalar();
    }

    // Constant expressions become immediates, except a `let` of a constant used
    // by name: it keeps its name in the emitted code (`const int TM = 8;`).
    static bool folds(const Expr& e) {
        if (!e.value || e.kind == ExprKind::Call) return false;
        return e.kind != ExprKind::Name || !as<NameExpr>(e).symbol ||
               as<NameExpr>(e).symbol->kind != Symbol::Kind::Local;
    }

    // Lowers `e` and converts it to `want`.
    ir::Expr expr(const Expr& e, ScalarType want) {
        if (folds(e)) return immediate(*e.value, want);
        return ir::Cast::make(want, expr(e));
    }

    ir::Expr expr(const Expr& e) {
        if (folds(e)) return immediate(*e.value, type_of(e));
        switch (e.kind) {
            case ExprKind::Name: {
                const Symbol* s = as<NameExpr>(e).symbol;
                HDS_CHECK(s && vars_.count(s), "name without a lowered variable");
                return vars_.at(s);
            }
            case ExprKind::Member: {
                auto& m = as<MemberExpr>(e);
                const std::string& base = as<NameExpr>(*m.base).name;
                auto which = base == "threadIdx"  ? ir::SpecialKind::ThreadIdx
                             : base == "blockIdx" ? ir::SpecialKind::BlockIdx
                             : base == "blockDim" ? ir::SpecialKind::BlockDim
                                                  : ir::SpecialKind::GridDim;
                return ir::SpecialReg::make(which, m.member[0] - 'x');
            }
            case ExprKind::Index:
                return load(as<IndexExpr>(e));
            case ExprKind::Unary: {
                auto& u = as<UnaryExpr>(e);
                auto op = u.op == UnaryOp::Neg   ? ir::UnOp::Neg
                          : u.op == UnaryOp::Not ? ir::UnOp::Not
                                                 : ir::UnOp::BitNot;
                return ir::Unary::make(op, expr(*u.operand, type_of(e)));
            }
            case ExprKind::Binary: {
                auto& b = as<BinaryExpr>(e);
                ScalarType operand = arithmetic_type(b.lhs->type, b.rhs->type)->default_scalar();
                return ir::Binary::make(binop(b.op), expr(*b.lhs, operand), expr(*b.rhs, operand));
            }
            case ExprKind::Cond: {
                auto& c = as<CondExpr>(e);
                ScalarType t = type_of(e);
                if (c.cond->value)
                    return expr(c.cond->value->i ? *c.then_expr : *c.else_expr, t);  // (a test of constants)
                return ir::Select::make(expr(*c.cond, ScalarType::Bool), expr(*c.then_expr, t), expr(*c.else_expr, t));
            }
            case ExprKind::Cast: {
                auto& c = as<CastExpr>(e);
                return ir::Cast::make(type_of(e), expr(*c.operand, type_of(*c.operand)));
            }
            case ExprKind::Call:
                return call(as<CallExpr>(e));
            default:
                break;
        }
        HDS_CHECK(false, "unexpected expression kind in lowering");
        return nullptr;
    }

    static ir::BinOp binop(BinaryOp op) {
        switch (op) {
            case BinaryOp::Mul:
                return ir::BinOp::Mul;
            case BinaryOp::Div:
                return ir::BinOp::Div;
            case BinaryOp::Mod:
                return ir::BinOp::Mod;
            case BinaryOp::Add:
                return ir::BinOp::Add;
            case BinaryOp::Sub:
                return ir::BinOp::Sub;
            case BinaryOp::Shl:
                return ir::BinOp::Shl;
            case BinaryOp::Shr:
                return ir::BinOp::Shr;
            case BinaryOp::Lt:
                return ir::BinOp::Lt;
            case BinaryOp::Le:
                return ir::BinOp::Le;
            case BinaryOp::Gt:
                return ir::BinOp::Gt;
            case BinaryOp::Ge:
                return ir::BinOp::Ge;
            case BinaryOp::Eq:
                return ir::BinOp::Eq;
            case BinaryOp::Ne:
                return ir::BinOp::Ne;
            case BinaryOp::BitAnd:
                return ir::BinOp::BitAnd;
            case BinaryOp::BitXor:
                return ir::BinOp::BitXor;
            case BinaryOp::BitOr:
                return ir::BinOp::BitOr;
            case BinaryOp::And:
                return ir::BinOp::And;
            case BinaryOp::Or:
                return ir::BinOp::Or;
        }
        return ir::BinOp::Add;
    }

    std::pair<ir::Buffer, std::vector<ir::Expr>> access(const IndexExpr& e) {
        const Symbol* s = as<NameExpr>(*e.base).symbol;
        HDS_CHECK(s && buffers_.count(s), "index of a tensor without a buffer");
        std::vector<ir::Expr> idx;
        for (const ExprPtr& i : e.indices) idx.push_back(expr(*i, type_of(*i)));
        return {buffers_.at(s), idx};
    }

    ir::Expr load(const IndexExpr& e) {
        auto [b, idx] = access(e);
        return ir::Load::make(b, idx, e.range.begin);
    }

    ir::Expr call(const CallExpr& e) {
        std::vector<ir::Expr> args;
        if (e.symbol) {  // device function
            for (size_t i = 0; i < e.args.size(); ++i) args.push_back(expr(*e.args[i].value, e.symbol->param_types[i]));
            if (!e.symbol->ret) return ir::Call::make_void(Builtin::DeviceFn, args, e.callee);
            return ir::Call::make(*e.symbol->ret, Builtin::DeviceFn, args, e.callee);
        }
        const BuiltinInfo* b = find_builtin(e.callee);
        HDS_CHECK(b, "unknown builtin in lowering");
        if (b->cls == BuiltinClass::Barrier) return ir::Call::make_void(b->id, {});
        if (b->cls == BuiltinClass::Reference) {
            // Element references stay loads (their address is taken); counts are i32.
            for (const CallArg& a : e.args) {
                if (a.value->kind == ExprKind::Index)
                    args.push_back(load(as<IndexExpr>(*a.value)));
                else
                    args.push_back(expr(*a.value, ScalarType::I32));
            }
            if (b->id == Builtin::ClusterLoad) return ir::Call::make(type_of(e), b->id, args);  // a value
            return ir::Call::make_void(b->id, args);
        }
        ScalarType t = type_of(e);
        for (size_t i = 0; i < e.args.size(); ++i) {
            const Expr& a = *e.args[i].value;
            if (b->cls == BuiltinClass::Atomic && i == 0)
                args.push_back(load(as<IndexExpr>(a)));
            else if (b->cls == BuiltinClass::Shuffle && i == 1)
                args.push_back(expr(a, ScalarType::I32));
            else
                args.push_back(expr(a, t));
        }
        return ir::Call::make(t, b->id, args);
    }

    ir::Stmt block(const BlockStmt& b) {
        std::vector<ir::Stmt> out;
        for (const StmtPtr& s : b.stmts)
            if (ir::Stmt l = stmt(*s)) out.push_back(l);
        return ir::Block::make(b.range.begin, out);
    }

    ir::Stmt stmt(const Stmt& s) {
        SourceLoc loc = s.range.begin;
        switch (s.kind) {
            case StmtKind::Let: {
                auto& l = as<LetStmt>(s);
                Symbol* sym = l.symbol;
                // A named mapping has no run-time value: loops over it read its type.
                if (sym->kind == Symbol::Kind::Mapping) return nullptr;
                if (sym->kind == Symbol::Kind::Tensor) {
                    auto scope = sym->tensor.space == MemSpace::Shared ? ir::Scope::Shared : ir::Scope::Register;
                    return ir::Alloc::make(loc, buffer(*sym, scope));
                }
                ir::Var v = ir::make_var(sym->type.scalar, sym->name);
                vars_[sym] = v;
                return ir::Decl::make(loc, v, expr(*l.init, sym->type.scalar), !sym->is_mutable);
            }
            case StmtKind::Assign: {
                auto& a = as<AssignStmt>(s);
                std::optional<ir::BinOp> op;
                if (a.op) op = binop(*a.op);
                ScalarType t = type_of(*a.target);
                if (a.target->kind == ExprKind::Name) {
                    ir::Var v = vars_.at(as<NameExpr>(*a.target).symbol);
                    return ir::Assign::make(loc, v, expr(*a.value, t), op);
                }
                auto [b, idx] = access(as<IndexExpr>(*a.target));
                return ir::Store::make(loc, b, idx, expr(*a.value, t), op);
            }
            case StmtKind::ExprStmt: {
                // Only calls have effects; `x + 1;` alone does nothing and is dropped.
                const Expr& e = *as<ExprStmt>(s).expr;
                if (e.kind != ExprKind::Call) return nullptr;
                return ir::Evaluate::make(loc, expr(e));
            }
            case StmtKind::If: {
                auto& i = as<IfStmt>(s);
                if (i.constant_branch == 1) return block(*i.then_block);
                if (i.constant_branch == 0) return i.else_stmt ? stmt(*i.else_stmt) : nullptr;
                ir::Stmt else_s = i.else_stmt ? stmt(*i.else_stmt) : nullptr;
                return ir::If::make(loc, expr(*i.cond, ScalarType::Bool), block(*i.then_block), else_s);
            }
            case StmtKind::For:
                return for_stmt(as<ForStmt>(s));
            case StmtKind::Return: {
                auto& r = as<ReturnStmt>(s);
                ir::Expr v = r.value ? expr(*r.value, *fn_ret_) : nullptr;
                return ir::Return::make(loc, v);
            }
            case StmtKind::Break:
                return ir::Jump::make_break(loc);
            case StmtKind::Continue:
                return ir::Jump::make_continue(loc);
            case StmtKind::Block:
                return block(as<BlockStmt>(s));
        }
        return nullptr;
    }

    ir::Stmt for_stmt(const ForStmt& f) {
        SourceLoc loc = f.range.begin;
        if (f.iterable->type.kind == SemaType::Kind::Mapping) {
            std::vector<ir::Var> vars;
            for (const LoopVar& lv : f.vars) {
                ir::Var v = ir::make_var(ScalarType::I32, lv.name);
                vars_[lv.symbol] = v;
                vars.push_back(v);
            }
            ir::Expr worker = expr(*f.on, ScalarType::I32);
            return ir::MapFor::make(loc, vars, *f.iterable->type.mapping, worker, f.unroll, block(*f.body));
        }
        ScalarType t = f.vars[0].symbol->type.scalar;
        ir::Var v = ir::make_var(t, f.vars[0].name);
        vars_[f.vars[0].symbol] = v;
        ir::Expr step = f.step ? expr(*f.step, t) : ir::Expr(ir::IntImm::make(t, 1));
        return ir::For::make(loc, v, expr(*f.iterable, t), expr(*f.hi, t), step, f.unroll, block(*f.body));
    }

    std::optional<ScalarType> fn_ret_;
    std::unordered_map<const Symbol*, ir::Var> vars_;
    std::unordered_map<const Symbol*, ir::Buffer> buffers_;
};

}  // namespace

ir::Kernel lower_kernel(const KernelDecl& k) {
    return Lowerer().kernel(k);
}

ir::Module lower_to_ir(const Module& ast, const SourceManager& sources) {
    ir::Module m;
    for (uint32_t f = 1; f <= sources.file_count(); ++f) m.file_names.push_back(sources.base_name(f));
    m.source_path = sources.file_count() ? sources.path(1) : "";
    for (const DeclPtr& d : ast.decls) {
        if (d->kind == DeclKind::DeviceFn) {
            auto& f = as<DeviceFnDecl>(*d);
            m.functions.push_back(Lowerer(f.symbol->ret).function(f));
        } else if (d->kind == DeclKind::Kernel && !d->from_import && as<KernelDecl>(*d).type_params.empty()) {
            m.kernels.push_back(Lowerer().kernel(as<KernelDecl>(*d)));
        }
    }
    return m;
}

}  // namespace hds
