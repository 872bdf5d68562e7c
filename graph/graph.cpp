// graph.cpp — graph containers and queries.
#include "graph/graph.h"

#include <cmath>
#include <limits>

#include "graph/rewrite.h"
#include "ir/internal_error.h"
#include "ir/ir_visitor.h"
#include "ir/passes/passes.h"
#include "ir/polynomial.h"

namespace hds::graph {

const char* reduce_name(ReduceKind k) {
    switch (k) {
        case ReduceKind::Sum:
            return "sum";
        case ReduceKind::Max:
            return "max";
        case ReduceKind::Min:
            return "min";
    }
    return "?";
}

ir::Expr Reduction::init() const {
    ScalarType t = acc->type;
    if (kind == ReduceKind::Sum) return is_float(t) ? ir::FloatImm::make(t, 0.0) : ir::IntImm::make(t, 0);
    bool low = kind == ReduceKind::Max;  // max starts from the lowest value
    if (is_float(t)) {
        double big = t == ScalarType::F64 ? std::numeric_limits<double>::max() : std::numeric_limits<float>::max();
        return ir::FloatImm::make(t, low ? -big : big);
    }
    int64_t lo = t == ScalarType::I64 ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int32_t>::min();
    int64_t hi = t == ScalarType::I64 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int32_t>::max();
    return ir::IntImm::make(t, low ? lo : hi);
}

ir::Expr Reduction::combine(ir::Expr a, ir::Expr b) const {
    switch (kind) {
        case ReduceKind::Sum:
            return ir::Binary::make(ir::BinOp::Add, std::move(a), std::move(b));
        case ReduceKind::Max:
            return ir::Call::make(acc->type, Builtin::Max, {std::move(a), std::move(b)});
        case ReduceKind::Min:
            return ir::Call::make(acc->type, Builtin::Min, {std::move(a), std::move(b)});
    }
    return nullptr;
}

Node* Graph::add(std::unique_ptr<Node> n) {
    nodes.push_back(std::move(n));
    return nodes.back().get();
}

std::string Graph::fresh_name(const std::string& base) {
    std::string name = base;
    for (int i = 2; names.count(name); ++i) name = base + "_" + std::to_string(i);
    names.insert(name);
    return name;
}

Node* Graph::producer(const ir::Buffer& b) const {
    for (const auto& n : nodes)
        if (!n->dead && n->buffer == b) return n.get();
    return nullptr;
}

std::vector<Node*> Graph::live() const {
    std::vector<Node*> out;
    for (const auto& n : nodes)
        if (!n->dead) out.push_back(n.get());
    return out;
}

namespace {

class ReadCollector : public ir::IRVisitor {
  public:
    std::vector<ir::Buffer> found;
    using ir::IRVisitor::visit_expr;

  protected:
    void visit(const ir::Load* op) override {
        ir::IRVisitor::visit(op);
        if (op->buffer->scope != ir::Scope::Global) return;
        for (const ir::Buffer& b : found)
            if (b == op->buffer) return;
        found.push_back(op->buffer);
    }
    // A vector copy's destination (`copy_16(c[m, n], ..)`) is written, not read. Other built-ins
    // that write their first operand (atomics) also read it: a kernel accumulating its result
    // that way is then one of the result's readers, and no epilogue fuses into it.
    void visit(const ir::Call* op) override {
        auto* dst = ir::copy_bytes(*op) > 0 ? ir::as<ir::Load>(op->args.at(0)) : nullptr;
        if (!dst) {
            ir::IRVisitor::visit(op);
            return;
        }
        for (const ir::Expr& i : dst->indices) visit_expr(i);
        for (size_t k = 1; k < op->args.size(); ++k) visit_expr(op->args[k]);
    }
};

void visit_compute(ReadCollector& c, const Compute& x) {
    if (x.reduction) {
        for (const ir::Expr& e : x.reduction->lo) c.visit_expr(e);
        for (const ir::Expr& e : x.reduction->hi) c.visit_expr(e);
        c.visit_expr(x.reduction->body);
    }
    c.visit_expr(x.value);
}

}  // namespace

std::vector<ir::Buffer> reads(const Node& n) {
    ReadCollector c;
    switch (n.kind) {
        case Node::Kind::Input:
        case Node::Kind::Constant:
            break;
        case Node::Kind::Compute:
            visit_compute(c, n.compute);
            break;
        case Node::Kind::RowGroup: {
            for (const auto& [b, r] : n.row_reductions) visit_compute(c, r);
            visit_compute(c, n.compute);
            std::vector<ir::Buffer> outside;
            for (const ir::Buffer& b : c.found) {
                bool inner = false;
                for (const auto& rr : n.row_reductions) inner |= rr.first == b;
                if (!inner) outside.push_back(b);
            }
            return outside;
        }
        case Node::Kind::Anchor:
            c.visit_stmt(n.anchor.body);
            break;
    }
    return c.found;
}

int use_count(const Graph& g, const ir::Buffer& b) {
    int uses = g.output && g.output->buffer == b ? 1 : 0;
    for (Node* n : g.live())
        for (const ir::Buffer& r : reads(*n))
            if (r == b) ++uses;
    return uses;
}

ir::Expr row_major_offset(const std::vector<ir::Expr>& indices, const std::vector<ir::Expr>& shape) {
    ir::Expr offset = ir::i32(0);
    for (size_t d = 0; d < indices.size(); ++d) offset = ir::add(ir::mul(offset, shape[d]), indices[d]);
    return offset;
}

ir::Buffer reshape_source(const Node& n) {
    if (n.kind != Node::Kind::Compute || !n.compute.injective() || n.ops != "reshape") return nullptr;
    auto* l = ir::as<ir::Load>(n.compute.value);
    if (!l || l->buffer->elem != n.buffer->elem || l->buffer->scope != ir::Scope::Global) return nullptr;
    std::vector<ir::Expr> own(n.compute.axes.begin(), n.compute.axes.end());
    ir::Expr read = row_major_offset(l->indices, l->buffer->shape), own_offset = row_major_offset(own, n.buffer->shape);
    VarMap ones;  // an axis of extent 1 is 0
    for (size_t d = 0; d < own.size(); ++d)
        if (ir::const_int(n.buffer->shape[d]) == std::optional<int64_t>(1)) ones[n.compute.axes[d].get()] = ir::i32(0);
    if (!ones.empty()) {
        read = substitute(read, ones);
        own_offset = substitute(own_offset, ones);
    }
    read = ir::simplify(read);
    own_offset = ir::simplify(own_offset);
    bool same = ir::const_int(ir::simplify(ir::sub(read, own_offset))) == std::optional<int64_t>(0) ||
                ir::same_value(read, own_offset);
    return same ? l->buffer : nullptr;
}

}  // namespace hds::graph
