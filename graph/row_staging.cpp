// row_staging.cpp — a row group's passes (each reduction, then the output)
// read the same rows of their inputs again and again. A row that two or more
// passes read, of a constant length, is copied into shared memory once (16
// bytes at a time where the row allows) and the passes read it there: one
// read of device memory per element instead of one per pass.
#include <algorithm>
#include <map>

#include "graph/rewrite.h"
#include "graph/row_staging.h"
#include "graph/schedule.h"
#include "ir/ir_visitor.h"
#include "ir/passes/passes.h"

namespace hds::graph {

namespace {

constexpr int64_t kMaxStagedBytes = 64 * 1024;

// A load of exactly this row: its leading indices are the row axes themselves
// and its last one a variable (the pass walks the row).
bool reads_row(const ir::Load& l, const std::vector<ir::Var>& row_axes) {
    if (l.buffer->scope != ir::Scope::Global || l.indices.size() != row_axes.size() + 1) return false;
    for (size_t d = 0; d < row_axes.size(); ++d)
        if (l.indices[d].get() != static_cast<const ir::ExprNode*>(row_axes[d].get())) return false;
    return ir::as<ir::VarNode>(l.indices.back()) != nullptr && ir::const_int(l.buffer->shape.back()).has_value();
}

// The buffers whose rows a pass reads.
std::vector<ir::Buffer> rows_read(const ir::Expr& pass, const std::vector<ir::Var>& row_axes) {
    struct Finder : ir::IRVisitor {
        const std::vector<ir::Var>* axes;
        std::vector<ir::Buffer> found;
        void visit(const ir::Load* l) override {
            ir::IRVisitor::visit(l);
            if (reads_row(*l, *axes) && std::find(found.begin(), found.end(), l->buffer) == found.end())
                found.push_back(l->buffer);
        }
    } f;
    f.axes = &row_axes;
    f.visit_expr(pass);
    return f.found;
}

}  // namespace

std::vector<ir::Stmt> stage_rows(const std::vector<ir::Var>& row_axes, const std::vector<ir::Expr*>& passes,
                                 SourceLoc loc) {
    // How many passes read each buffer's row, in order of first use (the emitted order).
    std::vector<std::pair<ir::Buffer, int>> readers;
    for (ir::Expr* p : passes) {
        for (const ir::Buffer& b : rows_read(*p, row_axes)) {
            auto it = std::find_if(readers.begin(), readers.end(), [&](const auto& r) { return r.first == b; });
            if (it != readers.end())
                ++it->second;
            else
                readers.push_back({b, 1});
        }
    }
    std::vector<ir::Stmt> out;
    std::map<const ir::BufferNode*, ir::Buffer> staged;
    int64_t bytes = 0;
    ir::Expr tid = ir::SpecialReg::make(ir::SpecialKind::ThreadIdx, 0);
    for (const auto& [g, count] : readers) {
        int64_t width = *ir::const_int(g->shape.back());
        if (count < 2 || bytes + width * byte_size(g->elem) > kMaxStagedBytes) continue;
        bytes += width * byte_size(g->elem);
        ir::Buffer s = ir::make_buffer("row_" + g->name, g->elem, {ir::i32(width)}, ir::Scope::Shared);
        staged[g.get()] = s;
        out.push_back(ir::Alloc::make(loc, s));
        // 16 bytes per copy when rows start aligned (width a multiple of V), else one element.
        int64_t v = 16 / byte_size(g->elem);
        bool vector = v > 1 && width % v == 0;
        int64_t step = vector ? v : 1;
        ir::Var k = ir::make_var(ScalarType::I32, "k");
        std::vector<ir::Expr> at(row_axes.begin(), row_axes.end());
        at.push_back(ir::mul(k, ir::i32(step)));
        ir::Stmt copy = vector ? ir::Evaluate::make(
                                     loc, ir::Call::make_void(Builtin::Copy16,
                                                              {ir::Load::make(s, {at.back()}), ir::Load::make(g, at)}))
                               : ir::Store::make(loc, s, {k}, ir::Load::make(g, at));
        out.push_back(ir::For::make(loc, k, tid, ir::i32(width / step), ir::i32(kThreads), false, copy));
    }
    if (staged.empty()) return out;
    out.push_back(ir::Evaluate::make(loc, ir::Call::make_void(Builtin::SyncThreads, {})));
    for (ir::Expr* p : passes) {
        *p = replace_loads(*p, [&](const ir::Load& l) -> ir::Expr {
            auto it = staged.find(l.buffer.get());
            if (it == staged.end() || !reads_row(l, row_axes)) return nullptr;
            return ir::Load::make(it->second, {l.indices.back()}, l.loc);
        });
    }
    return out;
}

}  // namespace hds::graph
