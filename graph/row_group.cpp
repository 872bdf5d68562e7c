// row_group.cpp — the kernel of a row group (passes/fuse_rows.cpp): one
// block per row computes the row's reductions (block_reduce), then the row.
// Rows of a constant length that several passes read are staged once, in
// registers or shared memory (row_staging.cpp); rows of a symbolic length are
// held as row_regimes.cpp decides at run time.
#include <map>

#include "graph/rewrite.h"
#include "graph/row_group.h"
#include "graph/schedule.h"
#include "graph/shapes.h"
#include "ir/passes/passes.h"

namespace hds::graph {

namespace {}  // namespace

RowPasses row_passes(const Node& n, const std::vector<ir::Var>& row_axes) {
    const Compute& out = n.compute;
    RowPasses p;
    p.row_axes = row_axes;
    p.col = out.axes.back();
    // Loads of a finished row reduction read its value.
    std::map<const ir::BufferNode*, ir::Var> values;
    LoadFn from_values = [&](const ir::Load& l) -> ir::Expr {
        auto it = values.find(l.buffer.get());
        return it == values.end() ? nullptr : it->second;
    };
    auto localize = [&](const ir::Expr& e, const VarMap& m) { return replace_loads(substitute(e, m), from_values); };
    for (const auto& [buf, c] : n.row_reductions) {
        Reduction r = *c.reduction;
        VarMap m;
        for (size_t d = 0; d < c.axes.size(); ++d) m[c.axes[d].get()] = row_axes[d];
        ir::Var acc = ir::make_var(r.acc->type, buf->name + "_acc");
        m[r.acc.get()] = acc;
        r.body = localize(r.body, m);
        for (ir::Expr& e : r.lo) e = localize(e, m);
        for (ir::Expr& e : r.hi) e = localize(e, m);
        ir::Expr value = localize(c.value, m);
        r.acc = acc;
        ir::Var v = ir::make_var(buf->elem, buf->name);
        values[buf.get()] = v;
        p.reductions.push_back({buf, r, value, v});
    }
    VarMap m;
    for (size_t d = 0; d < row_axes.size(); ++d) m[out.axes[d].get()] = row_axes[d];
    p.out = localize(out.value, m);
    return p;
}

ir::Buffer RowScratch::get(std::map<ScalarType, ir::Buffer>& m, ScalarType t, const std::string& base, int64_t size) {
    auto it = m.find(t);
    if (it != m.end()) return it->second;
    std::string name = m.empty() ? base : base + "_" + std::string(scalar_name(t));
    ir::Buffer b = ir::make_buffer(name, t, {ir::i32(size)}, ir::Scope::Shared);
    out_.push_back(ir::Alloc::make(loc_, b));
    return m[t] = b;
}
ir::Buffer RowScratch::partial(ScalarType t) {
    return get(partial_, t, "partial", threads_ / 32);
}
ir::Buffer RowScratch::result(ScalarType t) {
    return get(result_, t, "row_value", 1);
}

void reduce_in_block(const RowPasses& p, RowScratch& scratch, std::vector<ir::Stmt>& body, SourceLoc loc,
                     const RegisterRows* regs, const std::function<ir::Stmt(const RowPass&)>& accumulate) {
    for (const RowPass& pass : p.reductions) {
        ir::Buffer part = scratch.partial(pass.r.acc->type);
        ir::Buffer res = scratch.result(pass.buf->elem);
        ir::Stmt store = ir::Store::make(loc, res, {ir::i32(0)}, pass.value);
        block_reduce(pass.r, part, {ir::If::make(loc, ir::eq(tid(), ir::i32(0)), store, nullptr)}, loc, body, regs,
                     accumulate ? accumulate(pass) : nullptr);
        body.push_back(ir::Evaluate::make(loc, ir::Call::make_void(Builtin::SyncThreads, {})));
        body.push_back(ir::Decl::make(loc, pass.v, ir::Load::make(res, {ir::i32(0)}), true));
    }
}

namespace {

// The row group's output pass: threads stride over the row; with a constant
// row length of a multiple of 16 bytes, each writes 16 bytes at a time (V
// values computed into registers, one vector store).
ir::Stmt row_output_loop(const Node& n, const ir::Expr& value, const RegisterRows* regs) {
    const Compute& out = n.compute;
    SourceLoc loc = n.loc;
    std::vector<ir::Expr> at(out.axes.begin(), out.axes.end());
    auto width = ir::const_int(n.buffer->shape.back());
    int64_t v = 16 / byte_size(n.buffer->elem);
    if (!width || v < 2 || *width % v != 0) {
        if (regs) regs->failed = true;  // the rows in registers are read chunk by chunk only
        return ir::For::make(loc, out.axes.back(), tid(), n.buffer->shape.back(), ir::i32(kThreads), false,
                             ir::Store::make(loc, n.buffer, at, value));
    }
    ir::Var col = ir::make_var(ScalarType::I32, "vec"), e = ir::make_var(ScalarType::I32, "e");
    ir::Expr first = ir::mul(col, ir::i32(v));
    at.back() = first;
    return chunk_loop(
        regs, col, *width / v,
        [&](const ir::Expr& it) {
            // Staged rows and parameters along the row (a norm's weights) are read V at a time too.
            std::vector<ir::Stmt> each;
            VectorLoads loads = vectorize_loads(value, out.axes.back(), v, first, e, true, each, loc, regs, it);
            if (ir::const_bool(loads.aligned) != std::optional<bool>(true)) {
                if (regs) regs->failed = true;
                each.clear();  // some row's alignment is not known: scalar reads
                loads.value = substitute(value, {{out.axes.back().get(), ir::add(first, e)}});
            }
            for (ir::Stmt& s : store_vector(n.buffer, at, loads.value, e, v, loc)) each.push_back(s);
            return ir::Block::make(loc, each);
        },
        loc);
}

// The body of a row group's kernel, its rows staged in registers (`regs`) or
// in shared memory (null); with registers, null when some pass cannot read them.
ir::Stmt row_group_body(const Node& n, RegisterRows* regs) {
    const Compute& out = n.compute;
    SourceLoc loc = n.loc;
    Shape rows(n.buffer->shape.begin(), n.buffer->shape.end() - 1);
    std::vector<ir::Var> row_axes(out.axes.begin(), out.axes.end() - 1);
    std::vector<ir::Stmt> body;
    ir::Var row = ir::make_var(ScalarType::I32, "row");
    body.push_back(ir::Decl::make(loc, row, ir::SpecialReg::make(ir::SpecialKind::BlockIdx, 0), true));
    for (ir::Stmt& s : unravel(row, row_axes, rows, loc)) body.push_back(s);

    // Every pass in terms of this row: the reductions (in order), then the output.
    RowPasses p = row_passes(n, row_axes);
    std::vector<ir::Expr*> exprs;
    for (RowPass& pass : p.reductions) exprs.push_back(&pass.r.body);
    exprs.push_back(&p.out);
    for (ir::Stmt& s : stage_rows(row_axes, exprs, regs, loc)) body.push_back(s);
    if (regs && regs->failed) return nullptr;
    if (regs && regs->buffers.empty()) regs = nullptr;  // nothing staged: plain strided loops

    RowScratch scratch(body, loc);
    reduce_in_block(p, scratch, body, loc, regs, nullptr);
    body.push_back(row_output_loop(n, p.out, regs));
    return regs && regs->failed ? nullptr : ir::Block::make(loc, body);
}

}  // namespace

std::vector<KernelCase> schedule_row_group(const Node& n, int arch) {
    Shape rows(n.buffer->shape.begin(), n.buffer->shape.end() - 1);
    ir::Kernel k;
    k.grid = {numel(rows)};
    k.block = {ir::i32(kThreads)};
    if (ir::const_int(n.buffer->shape.back())) {  // a constant length: its chunks in registers where they fit
        RegisterRows regs;
        regs.v = 16 / byte_size(n.buffer->elem);
        if ((k.body = row_group_body(n, &regs))) return {{k, nullptr, "", ""}};
    }
    // A symbolic length, held as it turns out at run time (a kernel per way); or a
    // constant one that does not split into 16-byte chunks or is too long for
    // registers: element by element where the length allows it, else (constant)
    // staged in shared memory.
    k.body = row_group_body(n, nullptr);
    std::vector<KernelCase> cases = row_regimes(n, k, arch);
    if (cases.empty()) cases.push_back({k, nullptr, "", ""});
    return cases;
}

}  // namespace hds::graph
