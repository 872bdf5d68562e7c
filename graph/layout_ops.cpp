// layout_ops.cpp — permute, reshape, slice and concat as index functions.
#include "graph/layout_ops.h"

#include <algorithm>

#include "graph/shapes.h"
#include "ir/ir_printer.h"
#include "ir/passes/passes.h"

namespace hds::graph {

bool is_layout_op(const std::string& name) {
    return name == "permute" || name == "reshape" || name == "slice" || name == "concat";
}

bool int_value(const Expr* e, int64_t* out) {
    if (!e) return false;
    if (e->kind == ExprKind::Unary && as<UnaryExpr>(*e).op == UnaryOp::Neg) {
        if (!int_value(as<UnaryExpr>(*e).operand.get(), out)) return false;
        *out = -*out;
        return true;
    }
    if (e->kind != ExprKind::IntLit) return false;
    *out = static_cast<int64_t>(as<IntLit>(*e).value);
    return true;
}

bool int_list(const Expr* e, std::vector<int64_t>* out) {
    if (!e || e->kind != ExprKind::List) return false;
    for (const ExprPtr& x : as<ListExpr>(*e).elems) {
        int64_t v = 0;
        if (!int_value(x.get(), &v)) return false;
        out->push_back(v);
    }
    return true;
}

std::vector<int64_t> axes_last_permutation(const std::vector<int64_t>& axes, size_t rank) {
    std::vector<int64_t> perm;
    for (size_t d = 0; d < rank; ++d)
        if (std::find(axes.begin(), axes.end(), static_cast<int64_t>(d)) == axes.end())
            perm.push_back(static_cast<int64_t>(d));
    for (int64_t a : axes) perm.push_back(a);
    return perm;
}

namespace {

class Builder {
  public:
    Builder(const LayoutCall& c, Graph& g, DiagnosticsEngine& diags) : c_(c), g_(g), diags_(diags) {}

    Node* fail(const std::string& what) {
        diags_.error(DiagId::layout_attr, c_.range, c_.op, what);
        return nullptr;
    }

    // A compute node of `shape` whose value `f(axes)` reads the arguments.
    Node* make(const Shape& shape, const std::function<ir::Expr(const std::vector<ir::Var>&)>& f) {
        auto n = std::make_unique<Node>();
        n->kind = Node::Kind::Compute;
        n->ops = c_.op;
        n->loc = c_.range.begin;
        std::string base = c_.result_name.empty() ? c_.op : c_.result_name;
        n->buffer = ir::make_buffer(g_.fresh_name(base), c_.args[0]->buffer->elem, shape, ir::Scope::Global);
        for (size_t d = 0; d < shape.size(); ++d)
            n->compute.axes.push_back(ir::make_var(ScalarType::I32, "i" + std::to_string(d)));
        n->compute.value = f(n->compute.axes);
        return g_.add(std::move(n));
    }

    ir::Expr load(const Node* n, std::vector<ir::Expr> idx) {
        for (ir::Expr& i : idx) i = ir::simplify(i);
        return ir::Load::make(n->buffer, std::move(idx), c_.range.begin);
    }

    bool axis_attr(const char* name, size_t rank, int64_t* axis) {
        auto it = c_.attrs.find(name);
        if (it == c_.attrs.end() || !int_value(it->second, axis)) return false;
        if (*axis < 0) *axis += static_cast<int64_t>(rank);
        return *axis >= 0 && *axis < static_cast<int64_t>(rank);
    }

    Node* permute() {
        const Shape& in = c_.args[0]->buffer->shape;
        std::vector<int64_t> dims;
        auto it = c_.attrs.find("dims");
        if (it == c_.attrs.end() || !int_list(it->second, &dims) || dims.size() != in.size())
            return fail("dims=[...], a permutation of the argument's dimensions");
        for (int64_t& d : dims)
            if (d < 0) d += static_cast<int64_t>(in.size());
        std::vector<int64_t> sorted = dims;
        std::sort(sorted.begin(), sorted.end());
        for (size_t i = 0; i < sorted.size(); ++i)
            if (sorted[i] != static_cast<int64_t>(i))
                return fail("dims=[...], a permutation of the argument's dimensions");
        return permuted(dims);
    }

    // out[d] = in[dims[d]] (dims a permutation).
    Node* permuted(const std::vector<int64_t>& dims) {
        const Shape& in = c_.args[0]->buffer->shape;
        Shape out;
        for (int64_t d : dims) out.push_back(in[d]);
        return make(out, [&](const std::vector<ir::Var>& ax) {
            std::vector<ir::Expr> idx(in.size());
            for (size_t d = 0; d < dims.size(); ++d) idx[dims[d]] = ax[d];
            return load(c_.args[0], idx);
        });
    }

    Node* reshape(const std::function<ir::Expr(const Expr&)>& dim) {
        const Shape& in = c_.args[0]->buffer->shape;
        auto it = c_.attrs.find("shape");
        if (it == c_.attrs.end() || it->second->kind != ExprKind::List) return fail("shape=[...]");
        Shape out;
        int infer = -1;
        for (const ExprPtr& e : as<ListExpr>(*it->second).elems) {
            int64_t v = 0;
            if (int_value(e.get(), &v) && v == -1) {
                if (infer >= 0) return fail("at most one -1 in shape=[...]");
                infer = static_cast<int>(out.size());
                out.push_back(ir::i32(1));
                continue;
            }
            ir::Expr d = dim(*e);
            if (!d) return nullptr;
            out.push_back(d);
        }
        if (infer >= 0) out[infer] = ir::simplify(ir::div(numel(in), numel(out)));
        return reshaped(out);
    }

    // The same elements in row-major order, in `out`'s shape.
    Node* reshaped(const Shape& out) {
        const Shape& in = c_.args[0]->buffer->shape;
        ir::Expr n_in = numel(in), n_out = numel(out);
        if (!same_dim(n_in, n_out)) {
            diags_.error(DiagId::reshape_mismatch, c_.range, shape_str(in), ir::to_string(n_in), shape_str(out),
                         ir::to_string(n_out));
            return nullptr;
        }
        // Only dimensions of 1 added or removed: each other dimension indexes its own.
        auto non_unit = [](const Shape& s) {
            std::vector<size_t> at;
            for (size_t d = 0; d < s.size(); ++d)
                if (ir::const_int(s[d]) != std::optional<int64_t>(1)) at.push_back(d);
            return at;
        };
        std::vector<size_t> kept_in = non_unit(in), kept_out = non_unit(out);
        bool units_only = kept_in.size() == kept_out.size();
        for (size_t i = 0; units_only && i < kept_in.size(); ++i)
            units_only = same_dim(in[kept_in[i]], out[kept_out[i]]);
        if (units_only)
            return make(out, [&](const std::vector<ir::Var>& ax) {
                std::vector<ir::Expr> idx(in.size(), ir::i32(0));
                for (size_t i = 0; i < kept_in.size(); ++i) idx[kept_in[i]] = ax[kept_out[i]];
                return load(c_.args[0], idx);
            });
        // Runs of dimensions with equal products ([T, 768] -> [T, 12, 64]: T alone, 768 split
        // in two) index each other alone: a split is a row-major offset, only a merge divides.
        std::vector<Group> groups = matched_groups(in, out);
        if (groups.empty()) groups.push_back({0, in.size(), 0, out.size()});
        return make(out, [&](const std::vector<ir::Var>& ax) {
            std::vector<ir::Expr> idx(in.size());
            for (const Group& gr : groups) {
                ir::Expr flat = ir::i32(0);
                for (size_t d = gr.out_begin; d < gr.out_end; ++d) flat = ir::add(ir::mul(flat, out[d]), ax[d]);
                for (size_t d = gr.in_end; d-- > gr.in_begin;) {
                    bool unit = ir::const_int(in[d]) == std::optional<int64_t>(1);
                    idx[d] = unit ? ir::i32(0) : d == gr.in_begin ? flat : ir::mod(flat, in[d]);
                    if (!unit) flat = ir::div(flat, in[d]);
                }
            }
            return load(c_.args[0], idx);
        });
    }

    struct Group {
        size_t in_begin, in_end, out_begin, out_end;
    };

    // Consecutive runs of `in` and `out` whose products are provably equal, covering both;
    // empty where none is found (one group of everything then).
    static std::vector<Group> matched_groups(const Shape& in, const Shape& out) {
        std::vector<Group> groups;
        size_t i = 0, j = 0;
        while (i < in.size() && j < out.size()) {
            Group gr{i, i + 1, j, j + 1};
            ir::Expr pi = in[i], po = out[j];
            while (!same_dim(pi, po)) {
                auto ci = ir::const_int(pi), co = ir::const_int(po);
                bool grow_in;
                if (ci && co)
                    grow_in = *ci < *co;
                else if (gr.out_end < out.size() && same_dim(pi, ir::simplify(ir::mul(po, out[gr.out_end]))))
                    grow_in = false;
                else if (gr.in_end < in.size() && same_dim(ir::simplify(ir::mul(pi, in[gr.in_end])), po))
                    grow_in = true;
                else
                    return {};
                if (grow_in ? gr.in_end == in.size() : gr.out_end == out.size()) return {};
                if (grow_in)
                    pi = ir::simplify(ir::mul(pi, in[gr.in_end++]));
                else
                    po = ir::simplify(ir::mul(po, out[gr.out_end++]));
            }
            groups.push_back(gr);
            i = gr.in_end;
            j = gr.out_end;
        }
        if (i != in.size() || j != out.size()) return {};
        return groups;
    }

    Node* slice() {
        const Shape& in = c_.args[0]->buffer->shape;
        int64_t axis = 0, start = 0, end = 0;
        if (!axis_attr("axis", in.size(), &axis)) return fail("axis=N, a dimension of the argument");
        auto extent = ir::const_int(in[axis]);
        if (!int_value(c_.attrs.count("start") ? c_.attrs.at("start") : nullptr, &start) ||
            !int_value(c_.attrs.count("end") ? c_.attrs.at("end") : nullptr, &end) || !extent || start < 0 ||
            end > *extent || start >= end)
            return fail("start=A, end=B with 0 <= A < B <= the (constant) dimension");
        Shape out = in;
        out[axis] = ir::i32(end - start);
        return make(out, [&](const std::vector<ir::Var>& ax) {
            std::vector<ir::Expr> idx(ax.begin(), ax.end());
            idx[axis] = ir::add(idx[axis], ir::i32(start));
            return load(c_.args[0], idx);
        });
    }

    Node* concat() {
        if (c_.args.size() != 2) return fail("two tensors");
        const Shape& a = c_.args[0]->buffer->shape;
        const Shape& b = c_.args[1]->buffer->shape;
        int64_t axis = 0;
        if (!axis_attr("axis", a.size(), &axis)) return fail("axis=N, a dimension of the arguments");
        bool same = a.size() == b.size() && c_.args[0]->buffer->elem == c_.args[1]->buffer->elem;
        for (size_t d = 0; same && d < a.size(); ++d) same = static_cast<int64_t>(d) == axis || same_dim(a[d], b[d]);
        if (!same) return fail("tensors of one element type whose shapes differ only along the axis");
        Shape out = a;
        out[axis] = ir::simplify(ir::add(a[axis], b[axis]));
        return make(out, [&](const std::vector<ir::Var>& ax) {
            std::vector<ir::Expr> ia(ax.begin(), ax.end()), ib = ia;
            ib[axis] = ir::sub(ib[axis], a[axis]);
            ir::Expr in_a = ir::Binary::make(ir::BinOp::Lt, ax[axis], a[axis]);
            return ir::Select::make(in_a, load(c_.args[0], ia), load(c_.args[1], ib));
        });
    }

  private:
    const LayoutCall& c_;
    Graph& g_;
    DiagnosticsEngine& diags_;
};

}  // namespace

Node* permute_node(Node* x, const std::vector<int64_t>& dims, SourceRange range, Graph& g, DiagnosticsEngine& diags) {
    LayoutCall call{"permute", {x}, {}, range, ""};
    return Builder(call, g, diags).permuted(dims);
}

Node* reshape_node(Node* x, const Shape& shape, SourceRange range, Graph& g, DiagnosticsEngine& diags) {
    LayoutCall call{"reshape", {x}, {}, range, ""};
    return Builder(call, g, diags).reshaped(shape);
}

Node* build_layout_op(const LayoutCall& call, Graph& g, DiagnosticsEngine& diags,
                      const std::function<ir::Expr(const Expr&)>& dim) {
    Builder b(call, g, diags);
    if (call.op != "concat" && call.args.size() != 1) return b.fail("one tensor");
    if (call.op == "permute") return b.permute();
    if (call.op == "reshape") return b.reshape(dim);
    if (call.op == "slice") return b.slice();
    return b.concat();
}

}  // namespace hds::graph
