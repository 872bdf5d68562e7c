// graph_builder.cpp — graph declarations to graph IR.
#include "graph/graph_builder.h"

#include <set>

#include "graph/attention_pattern.h"
#include "graph/layout_ops.h"
#include "graph/op_instance.h"
#include "graph/shapes.h"
#include "graph/swiglu_pattern.h"

namespace hds::graph {

namespace {

class GraphBuilder {
  public:
    GraphBuilder(const GraphDecl& d, const Module& m, Sema& sema, DiagnosticsEngine& diags, Target target)
        : d_(d), m_(m), diags_(diags), g_(std::make_unique<Graph>()), ops_(m, sema, diags, *g_, target) {}

    std::unique_ptr<Graph> build() {
        g_->name = d_.name;
        g_->loc = d_.range.begin;
        g_->arch = ops_.arch();
        patterns_ = find_attention_patterns(*d_.body);
        for (const auto& [root, m] : patterns_) deferred_.insert(m.lets.begin(), m.lets.end());
        swiglus_ = find_swiglu_patterns(*d_.body);
        for (const auto& [root, m] : swiglus_) deferred_.insert(m.lets.begin(), m.lets.end());
        bool ok = params();
        for (const StmtPtr& s : d_.body->stmts) ok &= stmt(*s);
        if (ok && !g_->output) {
            diags_.error(DiagId::graph_no_return, d_.name_range, d_.name);
            ok = false;
        }
        return ok && !diags_.has_errors() ? std::move(g_) : nullptr;
    }

  private:
    // A graph dimension: a literal, a size name, or + - * of those.
    ir::Expr dim(const Expr& e, bool declare) {
        int64_t v = 0;
        if (int_value(&e, &v) && v > 0) return ir::i32(v);
        if (e.kind == ExprKind::Name) {
            const std::string& n = as<NameExpr>(e).name;
            for (const ir::Var& s : g_->sizes)
                if (s->name == n) return s;
            if (declare) {
                g_->sizes.push_back(ir::make_var(ScalarType::I32, n));
                g_->names.insert(n);
                return g_->sizes.back();
            }
            diags_.error(DiagId::unknown_name, e.range, n);
            return nullptr;
        }
        if (e.kind == ExprKind::Binary) {
            auto& b = as<BinaryExpr>(e);
            ir::Expr l = dim(*b.lhs, false), r = l ? dim(*b.rhs, false) : nullptr;
            if (!r) return nullptr;
            if (b.op == BinaryOp::Add) return ir::add(l, r);
            if (b.op == BinaryOp::Sub) return ir::sub(l, r);
            if (b.op == BinaryOp::Mul) return ir::mul(l, r);
        }
        diags_.error(DiagId::tensor_dim_invalid, e.range);
        return nullptr;
    }

    bool params() {
        bool ok = true;
        for (const Param& p : d_.params) {
            if (!p.type.is_tensor || p.default_value) {
                diags_.error(DiagId::graph_param_not_tensor, p.name_range);
                ok = false;
                continue;
            }
            auto elem = parse_scalar(p.type.scalar);
            if (!elem) {
                diags_.error(DiagId::unknown_type, p.type.scalar_range, p.type.scalar);
                ok = false;
                continue;
            }
            Shape shape;
            for (const ExprPtr& e : p.type.dims) {
                ir::Expr d = e->kind == ExprKind::Name || e->kind == ExprKind::IntLit ? dim(*e, true) : nullptr;
                if (!d) {
                    if (e->kind != ExprKind::Name && e->kind != ExprKind::IntLit)
                        diags_.error(DiagId::tensor_dim_invalid, e->range);
                    ok = false;
                    d = ir::i32(1);
                }
                shape.push_back(d);
            }
            auto n = std::make_unique<Node>();
            n->kind = Node::Kind::Input;
            n->ops = "input";
            n->loc = p.name_range.begin;
            if (g_->names.count(p.name)) {
                diags_.error(DiagId::redefinition, p.name_range, p.name);
                ok = false;
            }
            g_->names.insert(p.name);
            n->buffer = ir::make_buffer(p.name, *elem, shape, ir::Scope::Global);
            env_[p.name] = g_->add(std::move(n));
            g_->inputs.push_back(env_[p.name]);
        }
        return ok;
    }

    bool stmt(const Stmt& s) {
        if (s.kind == StmtKind::Let) {
            auto& l = as<LetStmt>(s);
            if (l.is_mutable || !l.init) {
                diags_.error(DiagId::graph_stmt, s.range);
                return false;
            }
            if (env_.count(l.name)) {
                diags_.error(DiagId::redefinition, l.name_range, l.name);
                return false;
            }
            if (deferred_.count(l.name)) return true;  // part of an attention pattern: built if it is not one
            Node* n = value(*l.init, std::nullopt, l.name);
            if (!n) {
                failed_.insert(l.name);
                return false;
            }
            env_[l.name] = n;
            return true;
        }
        if (s.kind == StmtKind::Return) {
            auto& r = as<ReturnStmt>(s);
            if (!r.value || g_->output) {
                diags_.error(DiagId::graph_stmt, s.range);
                return false;
            }
            Node* n = value(*r.value, std::nullopt, "out");
            if (!n) return false;
            return set_output(n, r);
        }
        diags_.error(DiagId::graph_stmt, s.range);
        return false;
    }

    bool set_output(Node* n, const ReturnStmt& r) {
        Shape want;
        for (const ExprPtr& e : d_.result.dims) {
            ir::Expr d = dim(*e, false);
            if (!d) return false;
            want.push_back(d);
        }
        auto elem = parse_scalar(d_.result.scalar);
        if (!elem || *elem != n->buffer->elem || !same_shape(want, n->buffer->shape)) {
            diags_.error(DiagId::graph_result_mismatch, r.value->range, d_.name, scalar_name(n->buffer->elem),
                         shape_str(n->buffer->shape), d_.result.scalar, shape_str(want));
            return false;
        }
        if (n->kind == Node::Kind::Input || n->kind == Node::Kind::Constant) {
            // The output must be a buffer of its own: copy.
            n = copy_of(n);
        }
        g_->output = n;
        return true;
    }

    Node* copy_of(Node* src) {
        auto n = std::make_unique<Node>();
        n->kind = Node::Kind::Compute;
        n->ops = "copy";
        n->loc = src->loc;
        n->buffer = ir::make_buffer(g_->fresh_name("out"), src->buffer->elem, src->buffer->shape, ir::Scope::Global);
        std::vector<ir::Expr> idx;
        for (size_t d = 0; d < src->buffer->shape.size(); ++d) {
            n->compute.axes.push_back(ir::make_var(ScalarType::I32, "i" + std::to_string(d)));
            idx.push_back(n->compute.axes.back());
        }
        n->compute.value = ir::Load::make(src->buffer, idx);
        return g_->add(std::move(n));
    }

    Node* constant(const Expr& e, ScalarType elem) {
        auto n = std::make_unique<Node>();
        n->kind = Node::Kind::Constant;
        n->ops = "constant";
        n->loc = e.range.begin;
        double v = e.kind == ExprKind::FloatLit ? as<FloatLit>(e).value : static_cast<double>(as<IntLit>(e).value);
        n->constant = is_float(elem) ? ir::FloatImm::make(elem, v) : ir::IntImm::make(elem, static_cast<int64_t>(v));
        n->buffer = ir::make_buffer(g_->fresh_name("c"), elem, {ir::i32(1)}, ir::Scope::Global);
        return g_->add(std::move(n));
    }

    // Ops may be overloaded on their number of tensors (`max(a, b)`, `max(x)`).
    const OpDecl* find_op(const std::string& name, size_t tensors) {
        const OpDecl* any = nullptr;
        for (const DeclPtr& d : m_.decls) {
            if (d->kind != DeclKind::Op || d->name != name) continue;
            auto& op = as<OpDecl>(*d);
            size_t n = 0;
            for (const Param& p : op.params) n += p.type.is_tensor;
            if (n == tensors) return &op;
            if (!any) any = &op;
        }
        return any;
    }

    // `hint`: element type for untyped literals (the other operand's).
    Node* value(const Expr& e, std::optional<ScalarType> hint, const std::string& name) {
        switch (e.kind) {
            case ExprKind::Name: {
                const std::string& n = as<NameExpr>(e).name;
                auto it = env_.find(n);
                if (it != env_.end()) return it->second;
                if (auto d = deferred_.find(n); d != deferred_.end()) {  // its pattern's operands did not fit
                    const Expr* init = d->second;
                    deferred_.erase(d);
                    Node* node = value(*init, std::nullopt, n);
                    if (node)
                        env_[n] = node;
                    else
                        failed_.insert(n);
                    return node;
                }
                // A let whose value had errors is known: its uses add none of their own.
                if (!failed_.count(as<NameExpr>(e).name))
                    diags_.error(DiagId::unknown_name, e.range, as<NameExpr>(e).name);
                return nullptr;
            }
            case ExprKind::IntLit:
            case ExprKind::FloatLit:
                return constant(e, hint.value_or(e.kind == ExprKind::IntLit ? ScalarType::I32 : ScalarType::F32));
            case ExprKind::Unary: {
                auto& u = as<UnaryExpr>(e);
                if (u.op != UnaryOp::Neg) break;
                return call_op("neg", e.range, {u.operand.get()}, {}, name);
            }
            case ExprKind::Binary: {
                auto& b = as<BinaryExpr>(e);
                static const std::map<BinaryOp, const char*> names = {
                    {BinaryOp::Add, "add"}, {BinaryOp::Sub, "sub"}, {BinaryOp::Mul, "mul"}, {BinaryOp::Div, "div"}};
                auto it = names.find(b.op);
                if (it == names.end()) break;
                if (swiglus_.count(&e) && &e != as_written_) return swiglu_or_as_written(e, name);
                return call_op(it->second, e.range, {b.lhs.get(), b.rhs.get()}, {}, name);
            }
            case ExprKind::Call: {
                auto& c = as<CallExpr>(e);
                if (patterns_.count(&e) && &e != as_written_) return attention_or_as_written(e, name);
                std::vector<const Expr*> args;
                std::vector<const CallArg*> named;
                for (const CallArg& a : c.args) {
                    if (a.name.empty())
                        args.push_back(a.value.get());
                    else
                        named.push_back(&a);
                }
                return call_op(c.callee, e.range, args, named, name, c.callee_range);
            }
            default:
                break;
        }
        diags_.error(DiagId::graph_expr, e.range);
        return nullptr;
    }

    // `bmm(softmax(bmm(q, permute(k, ..)) * s), v)` as `attention(q, k, v, scale=s)` where the
    // operands fit its shapes and one of its schedules runs (attention_pattern.h); else as
    // written: without a schedule attention is four reductions, slower than the products.
    Node* attention_or_as_written(const Expr& e, const std::string& name) {
        const AttentionMatch& m = patterns_.at(&e);
        Node* q = value(*m.q, std::nullopt, "");
        Node* k = q ? value(*m.k, std::nullopt, "") : nullptr;
        Node* v = k ? value(*m.v, std::nullopt, "") : nullptr;
        if (!v) return nullptr;
        const Shape &qs = q->buffer->shape, &ks = k->buffer->shape, &vs = v->buffer->shape;
        size_t r = qs.size();
        bool fits = r >= 3 && ks.size() == r && vs.size() == r && q->buffer->elem == k->buffer->elem &&
                    q->buffer->elem == v->buffer->elem && is_float(q->buffer->elem) &&
                    same_shape(Shape(qs.begin(), qs.end() - 2), Shape(ks.begin(), ks.end() - 2)) &&
                    same_shape(Shape(qs.begin(), qs.end() - 2), Shape(vs.begin(), vs.end() - 2)) &&
                    same_shape({qs.back()}, {ks.back()}) && same_shape({ks[r - 2]}, {vs[r - 2]});
        size_t mark = g_->nodes.size();
        if (fits) {
            auto scale = std::make_unique<FloatLit>(e.range);
            scale->value = m.scale;
            std::map<std::string, const Expr*> attrs = {{"scale", scale.get()}};
            synthesized_.push_back(std::move(scale));
            if (m.causal) {
                auto one = std::make_unique<IntLit>(e.range);
                one->value = 1;
                attrs["causal"] = one.get();
                synthesized_.push_back(std::move(one));
            }
            Node* n = call_nodes("attention", e.range, {q, k, v}, {m.q->range, m.k->range, m.v->range}, attrs,
                                 {{"scale", e.range}, {"causal", e.range}}, name, e.range);
            if (!n || n->kind == Node::Kind::Anchor) return n;
        }
        return as_written(e, name, mark);
    }

    // `silu(matmul(a, b)) * matmul(a, u)` as `swiglu(a, b, u)` where the operands fit its shapes
    // and one of its schedules runs (swiglu_pattern.h); else as written: without a schedule
    // swiglu is two reductions, slower than the products as written.
    Node* swiglu_or_as_written(const Expr& e, const std::string& name) {
        const SwigluMatch& m = swiglus_.at(&e);
        Node* a = value(*m.a, std::nullopt, "");
        Node* b = a ? value(*m.b, std::nullopt, "") : nullptr;
        Node* u = b ? value(*m.u, std::nullopt, "") : nullptr;
        if (!u) return nullptr;
        const Shape &as = a->buffer->shape, &bs = b->buffer->shape, &us = u->buffer->shape;
        bool fits = as.size() == 2 && bs.size() == 2 && same_shape(bs, us) && a->buffer->elem == b->buffer->elem &&
                    a->buffer->elem == u->buffer->elem && same_shape({as[1]}, {bs[0]}) && find_op("swiglu", 3);
        size_t mark = g_->nodes.size();
        if (fits) {
            Node* n = call_nodes("swiglu", e.range, {a, b, u}, {m.a->range, m.b->range, m.u->range}, {}, {},
                                 m.reshape ? "" : name, e.range);
            if (!n) return nullptr;
            if (n->kind == Node::Kind::Anchor) return m.reshape ? reshaped(n, *m.reshape, name) : n;
        }
        return as_written(e, name, mark);
    }

    // A pattern's root e as written, the nodes its op's call added from `mark` on dropped (they
    // were appended last: nothing reads them); its lets are built where they are named.
    Node* as_written(const Expr& e, const std::string& name, size_t mark) {
        for (size_t i = mark; i < g_->nodes.size(); ++i) g_->names.erase(g_->nodes[i]->buffer->name);
        g_->nodes.resize(mark);
        const Expr* outer = as_written_;
        as_written_ = &e;
        Node* n = value(e, std::nullopt, name);
        as_written_ = outer;
        return n;
    }

    // n through a reshape as written (its named arguments).
    Node* reshaped(Node* n, const CallExpr& reshape, const std::string& name) {
        std::vector<const CallArg*> named;
        for (const CallArg& arg : reshape.args)
            if (!arg.name.empty()) named.push_back(&arg);
        return call_named("reshape", reshape.range, {n}, {reshape.range}, named, name, reshape.callee_range);
    }

    Node* call_op(const std::string& op, SourceRange range, const std::vector<const Expr*>& args,
                  const std::vector<const CallArg*>& named, const std::string& name, SourceRange callee = {}) {
        // Tensors first, so that literals can take their element type.
        std::optional<ScalarType> hint;
        std::vector<Node*> nodes(args.size(), nullptr);
        bool ok = true;
        for (size_t i = 0; i < args.size(); ++i) {
            if (args[i]->kind == ExprKind::IntLit || args[i]->kind == ExprKind::FloatLit) continue;
            nodes[i] = value(*args[i], std::nullopt, "");
            ok &= nodes[i] != nullptr;
            if (nodes[i] && !hint) hint = nodes[i]->buffer->elem;
        }
        if (!ok) return nullptr;
        for (size_t i = 0; i < args.size(); ++i)
            if (!nodes[i]) nodes[i] = value(*args[i], hint, "");
        std::vector<SourceRange> arg_ranges;
        for (const Expr* a : args) arg_ranges.push_back(a->range);
        return call_named(op, range, nodes, arg_ranges, named, name, callee);
    }

    // call_nodes with the call's named arguments as the attributes.
    Node* call_named(const std::string& op, SourceRange range, const std::vector<Node*>& nodes,
                     const std::vector<SourceRange>& arg_ranges, const std::vector<const CallArg*>& named,
                     const std::string& name, SourceRange callee) {
        std::map<std::string, const Expr*> attrs;
        std::map<std::string, SourceRange> attr_ranges;
        for (const CallArg* a : named) {
            attrs[a->name] = a->value.get();
            attr_ranges[a->name] = a->name_range;
        }
        return call_nodes(op, range, nodes, arg_ranges, attrs, attr_ranges, name, callee);
    }

    Node* call_nodes(const std::string& op, SourceRange range, std::vector<Node*> nodes,
                     const std::vector<SourceRange>& arg_ranges, std::map<std::string, const Expr*> attrs,
                     const std::map<std::string, SourceRange>& attr_ranges, const std::string& name,
                     SourceRange callee) {
        if (is_layout_op(op))
            return build_layout_op({op, nodes, attrs, range, name}, *g_, diags_,
                                   [&](const Expr& e) { return dim(e, false); });
        const OpDecl* decl = find_op(op, nodes.size());
        if (!decl) {
            diags_.error(DiagId::unknown_op, callee.valid() ? callee : range, op);
            return nullptr;
        }
        if (attrs.count("axes") && !nodes.empty()) {
            Node* moved = axes_last(nodes[0], attrs.at("axes"), op, range);
            if (!moved) return nullptr;
            nodes[0] = moved;
            attrs.erase("axes");
        }
        OpCall call;
        call.op = decl;
        call.args = nodes;
        call.arg_ranges = arg_ranges;
        call.attrs = attrs;
        call.attr_ranges = attr_ranges;
        call.range = range;
        call.result_name = name;
        return ops_.instantiate(call);
    }

    // `op(x, axes=[a, b])` for an op over the last dimension: permute the axes
    // last and merge them (both fuse into the op's loads).
    Node* axes_last(Node* x, const Expr* axes_expr, const std::string& op, SourceRange range) {
        std::vector<int64_t> axes;
        size_t rank = x->buffer->shape.size();
        bool ok = int_list(axes_expr, &axes) && !axes.empty();
        for (int64_t& a : axes) {
            if (a < 0) a += static_cast<int64_t>(rank);
            ok &= a >= 0 && a < static_cast<int64_t>(rank);
        }
        for (size_t i = 1; ok && i < axes.size(); ++i) ok = axes[i] > axes[i - 1];
        if (!ok) {
            diags_.error(DiagId::layout_attr, axes_expr->range, op,
                         "axes=[...], increasing dimensions of its argument");
            return nullptr;
        }
        std::vector<int64_t> perm = axes_last_permutation(axes, rank);
        bool identity = true;
        for (size_t i = 0; i < perm.size(); ++i) identity &= perm[i] == static_cast<int64_t>(i);
        Node* p = identity ? x : permute_node(x, perm, range, *g_, diags_);
        if (!p || axes.size() == 1) return p;
        Shape out(p->buffer->shape.begin(), p->buffer->shape.end() - static_cast<long>(axes.size()));
        Shape merged(p->buffer->shape.end() - static_cast<long>(axes.size()), p->buffer->shape.end());
        out.push_back(numel(merged));
        return reshape_node(p, out, range, *g_, diags_);
    }

    const GraphDecl& d_;
    const Module& m_;
    DiagnosticsEngine& diags_;
    std::unique_ptr<Graph> g_;
    OpInstantiator ops_;
    std::map<std::string, Node*> env_;
    std::set<std::string> failed_;                    // lets whose value had errors
    std::map<const Expr*, AttentionMatch> patterns_;  // attention written as separate ops, by their root
    std::map<const Expr*, SwigluMatch> swiglus_;      // gate and up projections written as separate ops
    std::map<std::string, const Expr*> deferred_;     // lets such a pattern reads through: built if named
    const Expr* as_written_ = nullptr;                // a pattern's root being built as written
    std::vector<ExprPtr> synthesized_;                // the scale and causal literals of the attention calls
};

}  // namespace

std::unique_ptr<Graph> build_graph(const GraphDecl& decl, const Module& m, Sema& sema, DiagnosticsEngine& diags,
                                   Target target) {
    return GraphBuilder(decl, m, sema, diags, target).build();
}

}  // namespace hds::graph
