// padding.cpp — schedules run on zero-padded copies (`pad(K, N)`).
#include "graph/padding.h"

#include <algorithm>

#include "ir/ir_printer.h"
#include "ir/passes/passes.h"

namespace hds::graph {

namespace {

// For each dimension of the op's tensor declared `decl` (bound to a graph
// tensor of rank `rank`): the graph dimension it binds, or -1 for a spread.
std::vector<int> graph_dims(const TypeRef& decl, size_t rank) {
    std::vector<int> out;
    auto spread =
        std::find_if(decl.dims.begin(), decl.dims.end(), [](const ExprPtr& d) { return d->kind == ExprKind::Spread; });
    size_t count = spread == decl.dims.end() ? 0 : rank + 1 - decl.dims.size();  // graph dims behind the spread
    for (size_t i = 0; i < decl.dims.size(); ++i) {
        bool after = spread != decl.dims.end() && i > static_cast<size_t>(spread - decl.dims.begin());
        out.push_back(decl.dims[i]->kind == ExprKind::Spread ? -1 : static_cast<int>(after ? i + count - 1 : i));
    }
    return out;
}

// The op's tensors by name with their declared types: parameters, then the result.
std::vector<std::pair<std::string, const TypeRef*>> tensors(const OpDecl& op) {
    std::vector<std::pair<std::string, const TypeRef*>> out;
    for (const Param& p : op.params)
        if (p.type.is_tensor) out.emplace_back(p.name, &p.type);
    out.emplace_back(op.computes.back().name, &op.result);
    return out;
}

bool is_padded(const ScheduleRef& sched, const Expr& dim) {
    return dim.kind == ExprKind::Name &&
           std::find(sched.pad.begin(), sched.pad.end(), as<NameExpr>(dim).name) != sched.pad.end();
}

}  // namespace

Condition rows_condition(const std::map<std::string, std::pair<ir::Expr, int64_t>>& widths) {
    ir::Expr all;
    for (const auto& entry : widths) {
        const auto& [width, multiple] = entry.second;
        ir::Expr c = ir::Binary::make(ir::BinOp::Eq, ir::mod(width, ir::i32(multiple)), ir::i32(0));
        all = all ? ir::Binary::make(ir::BinOp::And, all, c) : c;
    }
    return {all, "rows of 16-byte multiples: 16-byte copies (cp.async, TMA)", "rows16"};
}

std::optional<Padding> plan_padding(const OpDecl& op, const ScheduleRef& sched, const Bindings& b,
                                    const std::map<std::string, ir::Buffer>& targets, Decisions* decisions) {
    if (sched.pad.empty()) return std::nullopt;
    // Elements per 16 bytes for each padded size: of the narrowest element type among its
    // tensors (a multiple of it is one of the others' too: powers of two).
    std::map<std::string, int64_t> multiple;
    for (const auto& [name, type] : tensors(op)) {
        const ir::Buffer& t = targets.at(name);
        for (const ExprPtr& d : type->dims)
            if (is_padded(sched, *d)) {
                int64_t m = 16 / std::max<int64_t>(1, byte_size(t->elem));
                auto [it, fresh] = multiple.emplace(as<NameExpr>(*d).name, m);
                if (!fresh) it->second = std::max(it->second, m);
            }
    }
    bool aligned = true;
    std::map<std::string, std::pair<ir::Expr, int64_t>> widths;  // the symbolic ones
    for (const auto& [name, m] : multiple) {
        const ir::Expr& size = b.sizes.at(name);
        if (auto c = ir::const_int(size)) {
            aligned &= *c % m == 0;
            continue;
        }
        auto& w = widths[ir::to_string(size)];
        w = {size, std::max(w.second, m)};
    }
    if (aligned && !widths.empty()) aligned = decisions && decisions->decide(rows_condition(widths));
    if (aligned) return std::nullopt;

    Padding p{b, {}};
    for (const auto& [name, m] : multiple) {
        ir::Expr& size = p.sizes.sizes.at(name);
        size = ir::simplify(ir::mul(ir::div(ir::add(size, ir::i32(m - 1)), ir::i32(m)), ir::i32(m)));
    }
    for (const auto& [name, type] : tensors(op)) {
        const ir::Buffer& t = targets.at(name);
        Shape shape = t->shape;
        std::vector<int> dims = graph_dims(*type, shape.size());
        bool changed = false;
        for (size_t i = 0; i < dims.size(); ++i) {
            if (dims[i] < 0 || !is_padded(sched, *type->dims[i])) continue;
            shape[dims[i]] = p.sizes.sizes.at(as<NameExpr>(*type->dims[i]).name);
            changed = true;
        }
        p.targets[name] = changed ? ir::make_buffer(t->name + "_padded", t->elem, shape, ir::Scope::Global) : t;
    }
    return p;
}

Node* commit_padding(Graph& g, const OpCall& call, Padding& padding, Node* result) {
    auto node = [&](const ir::Buffer& like, const std::string& ops, SourceLoc loc) {
        auto n = std::make_unique<Node>();
        n->kind = Node::Kind::Compute;
        n->ops = ops;
        n->loc = loc;
        n->buffer = ir::make_buffer(g.fresh_name(like->name), like->elem, like->shape, ir::Scope::Global);
        for (size_t d = 0; d < like->shape.size(); ++d)
            n->compute.axes.push_back(ir::make_var(ScalarType::I32, "i" + std::to_string(d)));
        return n;
    };
    // Inputs: a copy that reads zeros past the tensor's edges.
    size_t arg = 0;
    for (const Param& p : call.op->params) {
        if (!p.type.is_tensor) continue;
        const Node* x = call.args[arg++];
        ir::Buffer& target = padding.targets.at(p.name);
        if (target == x->buffer) continue;
        auto n = node(target, "pad", call.range.begin);
        ir::Expr inside;
        for (size_t d = 0; d < n->compute.axes.size(); ++d) {
            if (ir::to_string(x->buffer->shape[d]) == ir::to_string(target->shape[d])) continue;
            ir::Expr c = ir::Binary::make(ir::BinOp::Lt, n->compute.axes[d], x->buffer->shape[d]);
            inside = inside ? ir::Binary::make(ir::BinOp::And, inside, c) : c;
        }
        if (!inside) {  // padded to the size it has (a dimension the operand does not have padded)
            target = x->buffer;
            continue;
        }
        std::vector<ir::Expr> at(n->compute.axes.begin(), n->compute.axes.end());
        ir::Expr zero =
            is_float(target->elem) ? ir::FloatImm::make(target->elem, 0.0) : ir::IntImm::make(target->elem, 0);
        n->compute.value = ir::Select::make(inside, ir::Load::make(x->buffer, at, call.range.begin), zero);
        target = g.add(std::move(n))->buffer;
    }
    // The result: the schedule's node over the padded shape, and `result` its slice.
    ir::Buffer& out = padding.targets.at(call.op->computes.back().name);
    Node* padded = g.add(node(out, result->ops, result->loc));
    out = padded->buffer;
    Compute slice;
    for (size_t d = 0; d < result->buffer->shape.size(); ++d)
        slice.axes.push_back(ir::make_var(ScalarType::I32, "i" + std::to_string(d)));
    slice.value = ir::Load::make(out, std::vector<ir::Expr>(slice.axes.begin(), slice.axes.end()), result->loc);
    result->compute = slice;
    result->ops = "slice";
    // The slice reads the new nodes: it moves after them.
    auto pos = std::find_if(g.nodes.begin(), g.nodes.end(), [&](auto& n) { return n.get() == result; });
    std::rotate(pos, pos + 1, g.nodes.end());
    return padded;
}

}  // namespace hds::graph
