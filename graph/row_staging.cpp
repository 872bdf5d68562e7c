// row_staging.cpp — a row group's passes (each reduction, then the output)
// read the same rows of their inputs again and again. A row that two or more
// passes read, of a constant length, is read from device memory once and the
// passes read it again where it was staged: one read of device memory per
// element instead of one per pass. Rows of up to 128 bytes per thread stay in
// registers (each thread keeps the chunks it reads in every pass); longer
// ones go to shared memory, 16 bytes at a time where the row allows. Shared
// memory takes the L1 cache's room, where the row's other inputs (a norm's
// weights, read again for every row) would stay: on the H100 the f32 layer
// norm at 8192 x 8192 ran at 0.91 of copy bandwidth staged in shared memory,
// 0.995 in registers (bench/results/2026-11-23-h100-row-registers).
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
constexpr int64_t kMaxRegisterBytes = 128;  // per thread: 32 registers

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

bool RegisterRows::holds(const ir::Buffer& b) const {
    return std::find(buffers.begin(), buffers.end(), b) != buffers.end();
}

int64_t chunk_iterations(int64_t count) {
    return (count + kThreads - 1) / kThreads;
}

ir::Stmt chunk_loop(const RegisterRows* regs, const ir::Var& col, int64_t count,
                    const std::function<ir::Stmt(const ir::Expr& it)>& body, SourceLoc loc) {
    if (!regs) return ir::For::make(loc, col, tid(), ir::i32(count), ir::i32(kThreads), false, body(nullptr));
    if (count > regs->chunks) regs->failed = true;  // reads past the staged row
    int64_t iters = chunk_iterations(count);
    ir::Var it = ir::make_var(ScalarType::I32, "it");
    ir::Expr at = iters == 1 ? ir::i32(0) : ir::Expr(it);  // one chunk per thread: no loop
    ir::Stmt each = body(at);
    if (count % kThreads != 0)
        each = ir::If::make(loc, ir::Binary::make(ir::BinOp::Lt, col, ir::i32(count)), each, nullptr);
    ir::Stmt first = ir::Decl::make(loc, col, ir::simplify(ir::add(tid(), ir::mul(at, ir::i32(kThreads)))), true);
    ir::Stmt step = ir::Block::make(loc, {first, each});
    return iters == 1 ? step : ir::For::make(loc, it, ir::i32(0), ir::i32(iters), ir::i32(1), true, step);
}

std::vector<ir::Stmt> stage_rows(const std::vector<ir::Var>& row_axes, const std::vector<ir::Expr*>& passes,
                                 RegisterRows* regs, SourceLoc loc) {
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
    for (const auto& [row, count] : readers) {
        const ir::Buffer& g = row;  // captured below: C++17 lambdas cannot capture a structured binding (clang)
        int64_t width = *ir::const_int(g->shape.back());
        int64_t size = byte_size(g->elem);
        if (count < 2) continue;
        if (regs) {
            // Registers: one 16-byte chunk per step, each thread's chunks within the budget.
            bool fits = regs->v * size == 16 && width % regs->v == 0;
            bytes += chunk_iterations(width / regs->v) * 16;
            if (!fits || bytes > kMaxRegisterBytes) {
                regs->failed = true;
                return {};
            }
            regs->chunks = width / regs->v;
            ir::Buffer s = ir::make_buffer("row_" + g->name, g->elem,
                                           {ir::i32(chunk_iterations(regs->chunks) * regs->v)}, ir::Scope::Register);
            regs->buffers.push_back(s);
            staged[g.get()] = s;
            out.push_back(ir::Alloc::make(loc, s));
            ir::Var k = ir::make_var(ScalarType::I32, "k");
            std::vector<ir::Expr> at(row_axes.begin(), row_axes.end());
            at.push_back(ir::mul(k, ir::i32(regs->v)));
            out.push_back(chunk_loop(
                regs, k, regs->chunks,
                [&](const ir::Expr& it) {
                    ir::Expr slot = ir::simplify(ir::mul(it, ir::i32(regs->v)));
                    return ir::Evaluate::make(
                        loc, ir::Call::make_void(Builtin::Copy16, {ir::Load::make(s, {slot}), ir::Load::make(g, at)}));
                },
                loc));
            continue;
        }
        if (bytes + width * size > kMaxStagedBytes) continue;
        bytes += width * size;
        ir::Buffer s = ir::make_buffer("row_" + g->name, g->elem, {ir::i32(width)}, ir::Scope::Shared);
        staged[g.get()] = s;
        out.push_back(ir::Alloc::make(loc, s));
        // 16 bytes per copy when rows start aligned (width a multiple of V), else one element.
        int64_t v = 16 / size;
        bool vector = v > 1 && width % v == 0;
        int64_t step = vector ? v : 1;
        ir::Var k = ir::make_var(ScalarType::I32, "k");
        std::vector<ir::Expr> at(row_axes.begin(), row_axes.end());
        at.push_back(ir::mul(k, ir::i32(step)));
        ir::Stmt copy = vector ? ir::Evaluate::make(
                                     loc, ir::Call::make_void(Builtin::Copy16,
                                                              {ir::Load::make(s, {at.back()}), ir::Load::make(g, at)}))
                               : ir::Store::make(loc, s, {k}, ir::Load::make(g, at));
        out.push_back(ir::For::make(loc, k, tid(), ir::i32(width / step), ir::i32(kThreads), false, copy));
    }
    if (staged.empty()) return out;
    if (!regs) out.push_back(ir::Evaluate::make(loc, ir::Call::make_void(Builtin::SyncThreads, {})));
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
