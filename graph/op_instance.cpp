// op_instance.cpp — binding an op to its arguments and turning its compute
// definitions into graph nodes (see op_instance.h).
#include "graph/op_instance.h"

#include "frontend/ast_clone.h"
#include "frontend/lower_to_ir.h"
#include "graph/anchor.h"
#include "graph/rewrite.h"
#include "ir/internal_error.h"
#include "ir/ir_printer.h"

namespace hds::graph {

ScalarType opmath(ScalarType t) {
    return t == ScalarType::F16 || t == ScalarType::BF16 ? ScalarType::F32 : t;
}

namespace {

// ------------------------------------------------------------ AST helpers
ExprPtr mk_name(const std::string& n, SourceRange r) {
    auto e = std::make_unique<NameExpr>(r);
    e->name = n;
    return e;
}
ExprPtr mk_int(int64_t v, SourceRange r) {
    auto e = std::make_unique<IntLit>(r);
    e->value = static_cast<uint64_t>(v);
    return e;
}
ExprPtr mk_cast(ScalarType t, ExprPtr v, SourceRange r) {
    auto e = std::make_unique<CastExpr>(r);
    e->target = scalar_name(t);
    e->target_range = r;
    e->operand = std::move(v);
    return e;
}
StmtPtr mk_store(const std::string& buf, std::vector<ExprPtr> idx, ExprPtr value, SourceRange r) {
    auto target = std::make_unique<IndexExpr>(r);
    target->base = mk_name(buf, r);
    target->indices = std::move(idx);
    auto s = std::make_unique<AssignStmt>(r);
    s->target = std::move(target);
    s->value = std::move(value);
    return s;
}
Param mk_param(const std::string& name, ScalarType elem, std::vector<ExprPtr> dims, SourceRange r) {
    Param p;
    p.name = name;
    p.name_range = r;
    p.type.range = r;
    p.type.scalar = scalar_name(elem);
    p.type.scalar_range = r;
    p.type.is_tensor = !dims.empty();
    p.type.dims = std::move(dims);
    return p;
}

// Calls f on e and every subexpression.
template <typename F>
void walk(const Expr& e, F&& f) {
    f(e);
    switch (e.kind) {
        case ExprKind::Member:
            return walk(*as<MemberExpr>(e).base, f);
        case ExprKind::Index:
            walk(*as<IndexExpr>(e).base, f);
            for (const ExprPtr& i : as<IndexExpr>(e).indices) walk(*i, f);
            return;
        case ExprKind::Unary:
            return walk(*as<UnaryExpr>(e).operand, f);
        case ExprKind::Binary:
            walk(*as<BinaryExpr>(e).lhs, f);
            return walk(*as<BinaryExpr>(e).rhs, f);
        case ExprKind::Cond:
            walk(*as<CondExpr>(e).cond, f);
            walk(*as<CondExpr>(e).then_expr, f);
            return walk(*as<CondExpr>(e).else_expr, f);
        case ExprKind::Call:
            for (const CallArg& a : as<CallExpr>(e).args) walk(*a.value, f);
            return;
        case ExprKind::Cast:
            return walk(*as<CastExpr>(e).operand, f);
        case ExprKind::List:
            for (const ExprPtr& x : as<ListExpr>(e).elems) walk(*x, f);
            return;
        case ExprKind::Reduce:
            for (const ReduceRange& r : as<ReduceExpr>(e).ranges) {
                walk(*r.lo, f);
                walk(*r.hi, f);
            }
            return walk(*as<ReduceExpr>(e).body, f);
        default:
            return;
    }
}

bool is_literal(const Expr& e) {
    if (e.kind == ExprKind::Unary && as<UnaryExpr>(e).op == UnaryOp::Neg) return is_literal(*as<UnaryExpr>(e).operand);
    return e.kind == ExprKind::IntLit || e.kind == ExprKind::FloatLit || e.kind == ExprKind::BoolLit;
}

std::string index_name(const Expr& e) {
    if (e.kind == ExprKind::Name) return as<NameExpr>(e).name;
    if (e.kind == ExprKind::Spread) return "*" + as<SpreadExpr>(e).name;
    return "";
}

}  // namespace

// One instantiation (one call of an op).
class Instance {
  public:
    Instance(OpInstantiator& o, const OpCall& c) : o_(o), c_(c), op_(*c.op) {}

    Node* run() {
        for (const Param& p : op_.params) (p.type.is_tensor ? tensors_ : attrs_).push_back(&p);
        if (op_.computes.empty()) {
            o_.diags().error(DiagId::op_no_compute, op_.name_range, op_.name);
            return nullptr;
        }
        if (!bind() || !bind_attrs() || !check_requires() || !bind_result()) return nullptr;
        if (!check_computes() || !infer_dims()) return nullptr;
        for (size_t i = 0; i < op_.computes.size(); ++i)
            if (!compute(i)) return nullptr;
        Node* result = nodes_.back();
        if (op_.schedules.empty()) return result;
        ir::Expr automatic = result->compute.value;
        Node* n = instantiate_anchor(o_, c_, types_, b_, result);
        // The schedule computes the intermediates itself (`result` is its anchor, or a slice of it).
        if (n && (n->kind == Node::Kind::Anchor || n->compute.value != automatic))
            for (Node* i : nodes_)
                if (i != n) i->dead = true;
        return n;
    }

  private:
    // ------------------------------------------------ binding
    bool bind_type(const TypeRef& t, ScalarType actual, size_t arg) {
        std::string want = t.scalar;
        bool is_var = false;
        for (const TypeParam& tp : op_.type_params) is_var |= tp.name == t.scalar;
        if (is_var) {
            auto [it, fresh] = types_.emplace(t.scalar, actual);
            if (fresh || it->second == actual) return true;
            want = scalar_name(it->second);
        } else if (parse_scalar(want) == actual) {
            return true;
        }
        o_.diags().error(DiagId::op_type_mismatch, c_.arg_ranges[arg], arg + 1, op_.name, scalar_name(actual), want);
        return false;
    }

    bool elementwise() const {
        if (tensors_.size() < 2) return false;
        for (const Param* p : tensors_) {
            const auto& d = p->type.dims;
            if (d.size() != 1 || d[0]->kind != ExprKind::Spread) return false;
            if (as<SpreadExpr>(*d[0]).name != as<SpreadExpr>(*tensors_[0]->type.dims[0]).name) return false;
        }
        return true;
    }

    bool bind() {
        if (c_.args.size() != tensors_.size()) {
            o_.diags().error(DiagId::op_arg_count, c_.range, op_.name, tensors_.size(), c_.args.size());
            return false;
        }
        bool ok = true;
        for (size_t i = 0; i < tensors_.size(); ++i) ok &= bind_type(tensors_[i]->type, c_.args[i]->buffer->elem, i);
        if (!ok) return false;
        if (elementwise()) {
            Shape s = c_.args[0]->buffer->shape;
            for (size_t i = 1; i < c_.args.size(); ++i) {
                auto b = broadcast(s, c_.args[i]->buffer->shape);
                if (!b) {
                    o_.diags().error(DiagId::broadcast_mismatch, c_.range, shape_str(s),
                                     shape_str(c_.args[i]->buffer->shape), op_.name);
                    return false;
                }
                s = *b;
            }
            b_.spreads[as<SpreadExpr>(*tensors_[0]->type.dims[0]).name] = s;
            broadcast_ = true;
            return true;
        }
        for (size_t i = 0; i < tensors_.size(); ++i) {
            std::string why = bind_dims(tensors_[i]->type.dims, c_.args[i]->buffer->shape, b_);
            if (!why.empty()) {
                o_.diags().error(DiagId::op_shape_mismatch, c_.arg_ranges[i], i + 1, op_.name,
                                 why + " (shape " + shape_str(c_.args[i]->buffer->shape) + ")");
                ok = false;
            }
        }
        return ok;
    }

    bool bind_attrs() {
        bool ok = true;
        for (const auto& [name, value] : c_.attrs) {
            bool known = false;
            for (const Param* a : attrs_) known |= a->name == name;
            if (!known) {
                o_.diags().error(DiagId::unknown_op_attribute, c_.attr_ranges.at(name), op_.name, name);
                ok = false;
            } else if (!is_literal(*value)) {
                o_.diags().error(DiagId::attribute_not_literal, value->range, name);
                ok = false;
            }
        }
        for (const Param* a : attrs_) {
            auto it = c_.attrs.find(a->name);
            const Expr* v = it != c_.attrs.end() ? it->second : a->default_value.get();
            if (!v) {
                o_.diags().error(DiagId::attribute_missing, c_.range, op_.name, a->name);
                ok = false;
            }
            ScalarType t = ScalarType::F32;
            ok &= resolve_type(a->type, &t);
            attr_values_[a->name] = {v, t};
            // Integer attributes can size the result (`stride` of conv2d).
            if (v && v->kind == ExprKind::IntLit && !b_.sizes.count(a->name))
                b_.sizes[a->name] = ir::i32(static_cast<int64_t>(as<IntLit>(*v).value));
        }
        return ok;
    }

    // The op's `require`s over this call's sizes: false (an error) where one does not
    // hold, recorded in the graph (checked per run) where it depends on symbolic sizes.
    bool check_requires() {
        bool ok = true;
        const SourceManager& sm = o_.diags().sources();
        for (const OpRequire& r : op_.requires_) {
            std::string unbound;
            ir::Expr c = eval_condition(*r.cond, b_, &unbound);
            if (!c) {
                o_.diags().error(DiagId::op_require_size, r.cond->range, op_.name, unbound);
                ok = false;
                continue;
            }
            std::string text = sm.range_text(r.cond->range);
            std::optional<bool> holds = ir::const_bool(c);
            if (holds == std::optional<bool>(false)) {
                std::vector<std::string> sizes;  // those the condition names, with their values
                walk(*r.cond, [&](const Expr& e) {
                    if (e.kind != ExprKind::Name) return;
                    std::string s = as<NameExpr>(e).name + " = " + ir::to_string(b_.sizes.at(as<NameExpr>(e).name));
                    if (std::find(sizes.begin(), sizes.end(), s) == sizes.end()) sizes.push_back(s);
                });
                o_.diags().error(DiagId::op_require, c_.range, op_.name, text,
                                 fmt::format("{}", fmt::join(sizes, ", ")));
                o_.diags().note(r.range, "required here");
                ok = false;
            } else if (!holds) {
                std::string why = fmt::format("`require {}` of {} ({}:{}), called at {}:{}", text, op_.name,
                                              sm.base_name(r.range.begin.file), r.range.begin.line,
                                              sm.base_name(c_.range.begin.file), c_.range.begin.line);
                o_.graph().requirements.push_back({c, why});
            }
        }
        return ok;
    }

    bool resolve_type(const TypeRef& t, ScalarType* out) {
        auto it = types_.find(t.scalar);
        if (it != types_.end()) {
            *out = it->second;
            return true;
        }
        if (auto s = parse_scalar(t.scalar)) {
            *out = *s;
            return true;
        }
        o_.diags().error(DiagId::unknown_type, t.scalar_range, t.scalar);
        return false;
    }

    bool eval_dims(const std::vector<const Expr*>& dims, Shape* out) {
        for (const Expr* d : dims) {
            if (d->kind == ExprKind::Spread) {
                auto it = b_.spreads.find(as<SpreadExpr>(*d).name);
                if (it == b_.spreads.end()) {
                    o_.diags().error(DiagId::result_dim_unbound, d->range, op_.name, "*" + as<SpreadExpr>(*d).name);
                    return false;
                }
                out->insert(out->end(), it->second.begin(), it->second.end());
                continue;
            }
            std::string unbound;
            ir::Expr v = eval_dim(*d, b_, &unbound);
            if (!v) {
                o_.diags().error(DiagId::result_dim_unbound, d->range, op_.name, unbound);
                return false;
            }
            out->push_back(v);
        }
        return true;
    }

    bool bind_result() {
        if (!resolve_type(op_.result, &result_elem_)) return false;
        std::vector<const Expr*> dims;
        for (const ExprPtr& d : op_.result.dims) dims.push_back(d.get());
        return eval_dims(dims, &result_);
    }

    // ------------------------------------------------ compute definitions
    bool check_computes() {
        bool ok = true;
        for (const ComputeDef& c : op_.computes) {
            int spreads = 0;
            for (const ExprPtr& i : c.indices) {
                if (i->kind == ExprKind::Spread && ++spreads == 1) continue;
                if (i->kind != ExprKind::Name) {
                    o_.diags().error(DiagId::compute_index_not_name, i->range);
                    ok = false;
                }
            }
            int reductions = 0;
            walk(*c.value, [&](const Expr& e) {
                if (e.kind != ExprKind::Reduce) return;
                auto& r = as<ReduceExpr>(e);
                if (++reductions == 2) {
                    o_.diags().error(DiagId::reduce_multiple, e.range);
                    ok = false;
                }
                if (r.reducer != "sum" && r.reducer != "max" && r.reducer != "min") {
                    o_.diags().error(DiagId::reduce_unknown, r.reducer_range, r.reducer);
                    ok = false;
                }
            });
        }
        return ok;
    }

    // Declared dims (AST) of a tensor the op can index: a parameter or an earlier compute.
    const std::vector<const Expr*>* dims_of(const std::string& name, size_t before) {
        for (size_t i = 0; i < tensors_.size(); ++i)
            if (tensors_[i]->name == name) return &param_dims_[i];
        for (size_t i = 0; i < before; ++i)
            if (op_.computes[i].name == name) return &cdims_ast_[i];
        return nullptr;
    }

    // The shape of every compute but the last comes from how its indices are
    // used: `x[*i, k]` with x: T[*S, N] makes `*i` range over S.
    bool infer_dims() {
        for (const Param* p : tensors_) {
            param_dims_.emplace_back();
            for (const ExprPtr& d : p->type.dims) param_dims_.back().push_back(d.get());
        }
        for (size_t ci = 0; ci < op_.computes.size(); ++ci) {
            const ComputeDef& c = op_.computes[ci];
            cdims_ast_.emplace_back();
            Shape shape;
            if (ci + 1 == op_.computes.size()) {
                shape = result_;
            } else {
                for (const ExprPtr& idx : c.indices) {
                    const Expr* found = nullptr;
                    std::string name = index_name(*idx);
                    walk(*c.value, [&](const Expr& e) {
                        if (found || e.kind != ExprKind::Index) return;
                        auto& ix = as<IndexExpr>(e);
                        if (ix.base->kind != ExprKind::Name) return;
                        auto* dims = dims_of(as<NameExpr>(*ix.base).name, ci);
                        if (!dims || dims->size() != ix.indices.size()) return;
                        for (size_t p = 0; p < ix.indices.size(); ++p)
                            if (index_name(*ix.indices[p]) == name) found = (*dims)[p];
                    });
                    if (!found) {
                        o_.diags().error(DiagId::compute_shape_unknown, idx->range, c.name, name);
                        return false;
                    }
                    cdims_ast_.back().push_back(found);
                }
                if (!eval_dims(cdims_ast_.back(), &shape)) return false;
            }
            cdims_.push_back(shape);
        }
        return true;
    }

    // Names a spread stands for in the synthetic kernel (sizes S__0.., indices i__0..).
    CloneMap clone_map(size_t ci) {
        CloneMap m;
        for (const auto& [name, t] : types_) m.types[name] = scalar_name(t);
        for (const auto& [name, shape] : b_.spreads) {
            auto& names = m.spreads[name];  // an empty spread (a 1-D softmax) stands for no dimension
            for (size_t d = 0; d < shape.size(); ++d) names.push_back(name + "__" + std::to_string(d));
        }
        const ComputeDef& c = op_.computes[ci];
        size_t fixed = 0;
        for (const ExprPtr& i : c.indices) fixed += i->kind != ExprKind::Spread;
        for (const ExprPtr& i : c.indices) {
            if (i->kind != ExprKind::Spread) continue;
            auto& names = m.spreads[as<SpreadExpr>(*i).name];
            names.clear();
            for (size_t d = 0; d + fixed < cdims_[ci].size(); ++d)
                names.push_back(as<SpreadExpr>(*i).name + "__" + std::to_string(d));
        }
        m.replace = [this](const Expr& e, const CloneMap& map) -> ExprPtr {
            if (e.kind == ExprKind::Name) {
                auto it = attr_values_.find(as<NameExpr>(e).name);
                if (it == attr_values_.end()) return nullptr;
                return mk_cast(it->second.second, clone_expr(*it->second.first, CloneMap{}), e.range);
            }
            if (e.kind == ExprKind::Reduce && reduce_seen_) return mk_name("__acc", e.range);
            if (e.kind != ExprKind::Index) return nullptr;
            auto& ix = as<IndexExpr>(e);
            auto copy = std::make_unique<IndexExpr>(e.range);
            copy->base = clone_expr(*ix.base, map);
            copy->indices = clone_list(ix.indices, map);
            if (copy->indices.empty()) copy->indices.push_back(mk_int(0, e.range));  // rank 0, stored as [1]
            // Loads of f16/bf16 inputs are computed in f32.
            for (size_t i = 0; ix.base->kind == ExprKind::Name && i < tensors_.size(); ++i) {
                if (tensors_[i]->name != as<NameExpr>(*ix.base).name) continue;
                ScalarType t = c_.args[i]->buffer->elem;
                if (opmath(t) != t) return mk_cast(opmath(t), std::move(copy), e.range);
            }
            return copy;
        };
        return m;
    }

    ScalarType elem_of(size_t ci) const { return ci + 1 == op_.computes.size() ? result_elem_ : opmath(result_elem_); }

    const ReduceExpr* reduction_of(const ComputeDef& c) {
        const ReduceExpr* r = nullptr;
        walk(*c.value, [&](const Expr& e) {
            if (e.kind == ExprKind::Reduce && !r) r = &as<ReduceExpr>(e);
        });
        return r;
    }

    // Builds the synthetic kernel for compute `ci` (see op_instance.h).
    std::unique_ptr<KernelDecl> synthesize(size_t ci, const ReduceExpr* red) {
        const ComputeDef& c = op_.computes[ci];
        SourceRange r = c.range;
        CloneMap map = clone_map(ci);
        auto k = std::make_unique<KernelDecl>(r);
        k->name = "__" + op_.name + "_" + c.name;
        k->name_range = c.name_range;
        for (const Param* p : tensors_) {
            Param q;
            q.name = p->name;
            q.name_range = p->name_range;
            q.type = clone_type(p->type, map);
            k->params.push_back(std::move(q));
        }
        for (size_t i = 0; i < ci; ++i) {
            std::vector<ExprPtr> dims;
            for (const Expr* d : cdims_ast_[i]) dims.push_back(clone_expr(*d, map));
            dims = clone_list(dims, map);                                             // expand spreads
            if (dims.empty()) dims.push_back(mk_int(1, op_.computes[i].name_range));  // rank 0, stored as [1]
            k->params.push_back(
                mk_param(op_.computes[i].name, elem_of(i), std::move(dims), op_.computes[i].name_range));
        }
        std::vector<ExprPtr> out_dims, out_idx;
        for (size_t d = 0; d < cdims_[ci].size(); ++d) out_dims.push_back(mk_name("__d" + std::to_string(d), r));
        for (ExprPtr& i : clone_list(c.indices, map)) {
            k->params.push_back(mk_param(as<NameExpr>(*i).name, ScalarType::I32, {}, i->range));
            out_idx.push_back(std::move(i));
        }
        if (out_idx.empty()) {  // rank 0, stored as [1]
            out_dims.push_back(mk_int(1, r));
            out_idx.push_back(mk_int(0, r));
        }
        k->params.push_back(mk_param("__out", elem_of(ci), std::move(out_dims), r));
        ScalarType acc = opmath(elem_of(ci));
        if (red) {
            std::vector<ExprPtr> one;
            one.push_back(mk_int(1, r));
            k->params.push_back(mk_param("__red", acc, std::move(one), r));
            std::vector<ExprPtr> n;
            n.push_back(mk_int(2 * static_cast<int64_t>(red->ranges.size()), r));
            k->params.push_back(mk_param("__rng", ScalarType::I32, std::move(n), r));
            for (const ReduceRange& rr : red->ranges)
                k->params.push_back(mk_param(rr.name, ScalarType::I32, {}, rr.range));
            k->params.push_back(mk_param("__acc", acc, {}, red->range));
        }
        k->grid.push_back(mk_int(1, r));
        k->block.push_back(mk_int(1, r));
        k->grid_range = k->block_range = r;
        k->body = std::make_unique<BlockStmt>(r);
        reduce_seen_ = true;
        k->body->stmts.push_back(
            mk_store("__out", std::move(out_idx), mk_cast(elem_of(ci), clone_expr(*c.value, map), r), r));
        reduce_seen_ = false;
        if (red) {
            std::vector<ExprPtr> zero;
            zero.push_back(mk_int(0, r));
            k->body->stmts.push_back(mk_store("__red", std::move(zero), clone_expr(*red->body, map), red->body->range));
            for (size_t i = 0; i < red->ranges.size(); ++i) {
                for (int hi = 0; hi < 2; ++hi) {
                    std::vector<ExprPtr> at;
                    at.push_back(mk_int(2 * static_cast<int64_t>(i) + hi, r));
                    const ExprPtr& bound = hi ? red->ranges[i].hi : red->ranges[i].lo;
                    k->body->stmts.push_back(mk_store("__rng", std::move(at), clone_expr(*bound, map), bound->range));
                }
            }
        }
        return k;
    }

    Node* compute(size_t ci) {
        const ComputeDef& c = op_.computes[ci];
        const ReduceExpr* red = reduction_of(c);
        auto lowered =
            o_.check_and_lower(synthesize(ci, red), c_.range, "in the instantiation of '" + op_.name + "' here");
        if (!lowered) return nullptr;
        const ir::Kernel& ik = *lowered;

        auto node = std::make_unique<Node>();
        node->kind = Node::Kind::Compute;
        node->ops = op_.name;
        node->loc = c_.range.begin;
        bool last = ci + 1 == op_.computes.size();
        std::string base = last ? (c_.result_name.empty() ? op_.name : c_.result_name) : op_.name + "_" + c.name;
        node->buffer =
            ir::make_buffer(o_.graph().fresh_name(base), elem_of(ci), storage_shape(cdims_[ci]), ir::Scope::Global);

        // Scalars of the synthetic kernel -> axes, reduction variables, acc; sizes -> bound dims.
        VarMap vars;
        std::map<std::string, ir::Var> scalars;
        for (const ir::KernelParam& p : ik.params)
            if (p.kind == ir::KernelParam::Kind::Scalar) scalars[p.var->name] = p.var;
        Compute& out = node->compute;
        for (const ExprPtr& i : clone_list(c.indices, clone_map(ci))) {
            const std::string& n = as<NameExpr>(*i).name;
            std::string pretty = n;
            if (auto pos = n.find("__"); pos != std::string::npos) pretty = n.substr(0, pos) + n.substr(pos + 2);
            ir::Var v = ir::make_var(ScalarType::I32, pretty);
            vars[scalars.at(n).get()] = v;
            out.axes.push_back(v);
        }
        if (out.axes.empty()) out.axes.push_back(ir::make_var(ScalarType::I32, "i0"));  // rank 0: shape [1]
        for (const ir::Var& s : ik.sizes) {
            const std::string& n = s->name;
            auto pos = n.find("__");
            if (pos != std::string::npos && n.rfind("__d", 0) != 0) {
                vars[s.get()] = b_.spreads.at(n.substr(0, pos)).at(std::stoul(n.substr(pos + 2)));
            } else if (b_.sizes.count(n)) {
                vars[s.get()] = b_.sizes.at(n);
            }
        }
        // Loads of the kernel's tensors -> loads of graph buffers.
        std::map<std::string, std::pair<Node*, bool>> sources;  // name -> node, broadcast
        for (size_t i = 0; i < tensors_.size(); ++i) sources[tensors_[i]->name] = {c_.args[i], broadcast_};
        for (size_t i = 0; i < ci; ++i) sources[op_.computes[i].name] = {nodes_[i], false};
        const Shape& full = cdims_[ci];
        LoadFn to_graph = [&](const ir::Load& l) -> ir::Expr {
            auto it = sources.find(l.buffer->name);
            if (it == sources.end()) return nullptr;
            const ir::Buffer& b = it->second.first->buffer;
            auto idx = it->second.second ? broadcast_indices(b->shape, full, l.indices) : l.indices;
            if (idx.size() < b->shape.size()) idx.push_back(ir::i32(0));  // a rank-0 value stored as [1]
            return ir::Load::make(b, idx, l.loc);
        };
        auto fix = [&](const ir::Expr& e) { return substitute(replace_loads(e, to_graph), vars); };
        std::map<std::string, std::vector<ir::Expr>> stores;
        std::vector<ir::Expr> bounds;
        auto* body = ir::as<ir::Block>(ik.body);
        for (const ir::Stmt& s : body->stmts) {
            auto* st = ir::as<ir::Store>(s);
            HDS_CHECK(st, "synthetic compute kernel holds something other than stores");
            if (st->buffer->name == "__rng") bounds.push_back(st->value);
            stores[st->buffer->name].push_back(st->value);
        }
        if (red) {
            Reduction rd;
            rd.kind = red->reducer == "sum"   ? ReduceKind::Sum
                      : red->reducer == "max" ? ReduceKind::Max
                                              : ReduceKind::Min;
            rd.acc = ir::make_var(opmath(elem_of(ci)), "acc");
            vars[scalars.at("__acc").get()] = rd.acc;
            for (const ReduceRange& rr : red->ranges) {
                ir::Var v = ir::make_var(ScalarType::I32, rr.name);
                vars[scalars.at(rr.name).get()] = v;
                rd.vars.push_back(v);
            }
            for (size_t i = 0; i < rd.vars.size(); ++i) {
                rd.lo.push_back(fix(bounds[2 * i]));
                rd.hi.push_back(fix(bounds[2 * i + 1]));
            }
            rd.body = fix(stores.at("__red")[0]);
            out.reduction = rd;
        }
        out.value = fix(stores.at("__out")[0]);
        nodes_.push_back(o_.graph().add(std::move(node)));
        return nodes_.back();
    }

    OpInstantiator& o_;
    const OpCall& c_;
    const OpDecl& op_;
    std::vector<const Param*> tensors_, attrs_;
    std::map<std::string, ScalarType> types_;
    std::map<std::string, std::pair<const Expr*, ScalarType>> attr_values_;  // value, declared type
    Bindings b_;
    bool broadcast_ = false;
    Shape result_;
    ScalarType result_elem_ = ScalarType::F32;
    std::vector<std::vector<const Expr*>> param_dims_;
    std::vector<std::vector<const Expr*>> cdims_ast_;
    std::vector<Shape> cdims_;
    std::vector<Node*> nodes_;
    bool reduce_seen_ = false;
};

std::optional<ir::Kernel> OpInstantiator::check_and_lower(std::unique_ptr<KernelDecl> k, SourceRange call,
                                                          const std::string& note, const std::string& key) {
    size_t errors = diags_.error_count();
    {
        // An error in the op's body is reported once, with a note at each call that instantiates it.
        InstantiationScope scope(diags_, call, note);
        sema_.check_instance(*k);
    }
    const KernelDecl& decl = *k;
    bool ok = diags_.error_count() == errors;
    if (ok && !key.empty() && target_.clones)
        target_.clones->keep(key, std::move(k));
    else
        synthetic_.push_back(std::move(k));
    if (!ok) return std::nullopt;
    return lower_kernel(decl);
}

Node* OpInstantiator::instantiate(const OpCall& call) {
    return Instance(*this, call).run();
}

}  // namespace hds::graph
