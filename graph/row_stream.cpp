// row_stream.cpp — rows held by a block each, streamed (graph/row_regimes.cpp picks the
// regime: f32 rows of 16385 to 32768 values, 16-byte multiples, on blocks of 1024 threads). A
// block per row read its row only once it started, and all the blocks of a wave (one a
// multiprocessor) reduced at once while DRAM idled. Here the kernel is persistent
// (ir::Kernel::persistent: at most so many blocks a multiprocessor) and each block walks the
// rows blockIdx.x, blockIdx.x + gridDim.x, ...: while it reduces and writes one row from
// registers, the next row's 16-byte chunks are on their way into shared memory (cp.async,
// each thread copying the chunks it holds, so no barrier guards the stage):
//
//   copy row blockIdx.x's chunks into the stage
//   for (row = blockIdx.x; row < rows; row += gridDim.x) {
//       wait for the copies; the stage's chunks into registers
//       copy row + gridDim.x's chunks into the stage (if any)
//       __syncthreads()  (one reduction: the last row's is done with its shared memory)
//       reductions, the output
//   }
//
// Measured in bench/results/2026-11-29-h200-row-stream (hand-written kernels first, then these).
#include "graph/row_holding.h"
#include "graph/schedule.h"
#include "graph/shapes.h"

namespace hds::graph {

ir::Stmt row_stream(const Node& n, int64_t threads, int64_t per_thread, int64_t v) {
    SourceLoc loc = n.loc;
    Shape row_shape(n.buffer->shape.begin(), n.buffer->shape.end() - 1);
    ir::Expr rows = numel(row_shape), width = n.buffer->shape.back();
    std::vector<ir::Var> axes = fresh_row_axes(n);
    RowPasses p = row_passes(n, axes);
    Holding h{threads, per_thread, v, tid(), width, width, {}};
    h.threads = threads;
    std::vector<ir::Stmt> body;
    std::vector<ir::Buffer> staged = shared_rows(p, width);
    for (const ir::Buffer& b : staged) {
        ir::Buffer s = ir::make_buffer("stage_" + b->name, b->elem, {ir::i32(threads * per_thread)}, ir::Scope::Shared);
        body.push_back(ir::Alloc::make(loc, s));
        h.stage[b.get()] = s;
    }
    // Row `row`'s chunks of each staged row copied into its stage, one group of copies.
    auto fetch = [&](const ir::Expr& row, const std::string& prefix) {
        std::vector<ir::Var> at = fresh_row_axes(n, prefix);
        std::vector<ir::Stmt> stmts = unravel(row, at, row_shape, loc);
        for (const ir::Buffer& b : staged) {
            stmts.push_back(chunks(
                h,
                [&](const ir::Expr&, const ir::Var& first) -> ir::Stmt {
                    std::vector<ir::Expr> idx(at.begin(), at.end());
                    idx.push_back(first);
                    return ir::Evaluate::make(
                        loc, ir::Call::make_void(Builtin::CpAsync16, {ir::Load::make(h.stage[b.get()], {first}),
                                                                      ir::Load::make(b, idx), ir::i32(16)}));
                },
                loc));
        }
        return stmts;
    };
    auto commit = ir::Evaluate::make(loc, ir::Call::make_void(Builtin::CpAsyncCommit, {}));
    ir::Expr bid = ir::SpecialReg::make(ir::SpecialKind::BlockIdx, 0);
    ir::Expr step = ir::SpecialReg::make(ir::SpecialKind::GridDim, 0);
    for (ir::Stmt& s : fetch(bid, "first_")) body.push_back(s);  // (the grid has no more blocks than rows)
    body.push_back(commit);
    // Each row: its chunks from the stage into registers, the next row's copies issued.
    ir::Var row = ir::make_var(ScalarType::I32, "row"), next = ir::make_var(ScalarType::I32, "next");
    std::vector<ir::Stmt> each = unravel(row, axes, row_shape, loc);
    each.push_back(ir::Evaluate::make(loc, ir::Call::make_void(Builtin::CpAsyncWait, {ir::i32(0)})));
    std::vector<ir::Stmt> refill = {ir::Decl::make(loc, next, ir::add(row, step), true)};
    refill.push_back(ir::If::make(loc, ir::lt(next, rows), ir::Block::make(loc, fetch(next, "next_")), nullptr));
    refill.push_back(commit);
    // One reduction: its shared partial sums are written again only once every thread has read
    // the last row's (with two or more, the barrier of each lies between two uses of the other's).
    if (p.reductions.size() < 2)
        refill.push_back(ir::Evaluate::make(loc, ir::Call::make_void(Builtin::SyncThreads, {})));
    h.after_fill = ir::Block::make(loc, refill);
    row_in_registers(n, h, p, each);
    body.push_back(ir::For::make(loc, row, bid, rows, step, false, ir::Block::make(loc, each)));
    return ir::Block::make(loc, body);
}

}  // namespace hds::graph
