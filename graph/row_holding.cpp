// row_holding.cpp — a row of symbolic length held in registers by a row regime's threads
// (graph/row_holding.h; the regimes and their dispatch: graph/row_regimes.cpp).
#include "graph/row_holding.h"

#include <algorithm>

#include "graph/rewrite.h"
#include "graph/schedule.h"
#include "graph/shapes.h"
#include "ir/ir_mutator.h"
#include "ir/ir_printer.h"
#include "ir/passes/passes.h"

namespace hds::graph {

namespace {

// A load of the row at `row_axes`, walking it along `col`.
bool row_load(const ir::Load& l, const std::vector<ir::Var>& row_axes, const ir::Var& col) {
    if (l.buffer->scope != ir::Scope::Global || l.indices.size() != row_axes.size() + 1) return false;
    for (size_t d = 0; d < row_axes.size(); ++d)
        if (l.indices[d].get() != static_cast<const ir::ExprNode*>(row_axes[d].get())) return false;
    return l.indices.back().get() == static_cast<const ir::ExprNode*>(col.get());
}

// One pass over the row: its expression and the variable walking the row.
struct Walk {
    const ir::Expr* expr;
    ir::Var col;
};

std::vector<Walk> walks(const RowPasses& p) {
    std::vector<Walk> out;
    for (const RowPass& pass : p.reductions) out.push_back({&pass.r.body, pass.r.vars[0]});
    out.push_back({&p.out, p.col});
    return out;
}

}  // namespace

// The buffers whose rows (of length `width`) two or more passes read.
std::vector<ir::Buffer> shared_rows(const RowPasses& p, const ir::Expr& width) {
    std::vector<std::pair<ir::Buffer, int>> readers;
    for (const Walk& w : walks(p)) {
        std::vector<ir::Buffer> mine;
        replace_loads(*w.expr, [&](const ir::Load& l) -> ir::Expr {
            if (row_load(l, p.row_axes, w.col) && same_dim(l.buffer->shape.back(), width) &&
                std::find(mine.begin(), mine.end(), l.buffer) == mine.end())
                mine.push_back(l.buffer);
            return nullptr;
        });
        for (const ir::Buffer& b : mine) {
            auto it = std::find_if(readers.begin(), readers.end(), [&](const auto& r) { return r.first == b; });
            if (it == readers.end())
                readers.push_back({b, 1});
            else
                ++it->second;
        }
    }
    std::vector<ir::Buffer> out;
    for (const auto& [b, count] : readers)
        if (count >= 2) out.push_back(b);
    return out;
}

namespace {

// A load of a vector at column `col` (a norm's weight or bias: one index, the column).
bool vector_load(const ir::Load& l, const ir::Var& col) {
    return l.buffer->scope == ir::Scope::Global && l.indices.size() == 1 &&
           l.indices[0].get() == static_cast<const ir::ExprNode*>(col.get());
}

// The vectors as long as the rows that the output reads at its column.
std::vector<ir::Buffer> output_vectors(const RowPasses& p, const ir::Expr& width) {
    std::vector<ir::Buffer> out;
    replace_loads(p.out, [&](const ir::Load& l) -> ir::Expr {
        if (vector_load(l, p.col) && same_dim(l.buffer->shape[0], width) &&
            std::find(out.begin(), out.end(), l.buffer) == out.end())
            out.push_back(l.buffer);
        return nullptr;
    });
    return out;
}

}  // namespace

std::vector<ir::Var> fresh_row_axes(const Node& n, const std::string& prefix) {
    std::vector<ir::Var> out;
    for (size_t d = 0; d + 1 < n.compute.axes.size(); ++d)
        out.push_back(ir::make_var(ScalarType::I32, prefix + n.compute.axes[d]->name));
    return out;
}

// Where this thread's row holds column `col` in a shared-memory copy of the block's rows (stage_rows),
// or of its one row (`local` null: row_stream.cpp).
ir::Expr in_stage(const Holding& h, const ir::Expr& col) {
    return h.local ? ir::add(ir::mul(h.local, h.width), col) : col;
}

// Chunks are whole (v divides N), or shifted (h.shift: the row starts that many elements into
// its first chunk, so `first` may be negative).
ir::Stmt chunks(const Holding& h, const std::function<ir::Stmt(const ir::Expr& c, const ir::Var& first)>& each,
                SourceLoc loc) {
    ir::Var c = ir::make_var(ScalarType::I32, "c"), first = ir::make_var(ScalarType::I32, h.v == 1 ? "col" : "first");
    ir::Expr at = ir::add(h.lane, ir::mul(c, ir::i32(h.lanes)));
    if (h.v > 1) at = ir::mul(at, ir::i32(h.v));
    if (h.start) at = ir::add(h.start, at);
    if (h.shift) at = ir::sub(at, h.shift);
    ir::Stmt decl = ir::Decl::make(loc, first, at, true);
    // (first grows with c: once a chunk is past the row, so is every later one, and the two forms agree)
    std::vector<ir::Stmt> body = {decl};
    if (h.predicated) {
        body.push_back(ir::If::make(loc, ir::lt(first, h.limit), each(c, first), nullptr));
    } else {
        body.push_back(
            ir::If::make(loc, ir::Binary::make(ir::BinOp::Ge, first, h.limit), ir::Jump::make_break(loc), nullptr));
        body.push_back(each(c, first));
    }
    return ir::For::make(loc, c, ir::i32(0), ir::i32(h.per_thread / h.v), ir::i32(1), true, ir::Block::make(loc, body));
}

namespace {

// Whether column `col` of a chunk lies in this thread's row (chunks shifted to 16 bytes).
ir::Expr in_row(const Holding& h, const ir::Expr& col) {
    return ir::Binary::make(ir::BinOp::And, ir::Binary::make(ir::BinOp::Ge, col, ir::i32(0)), ir::lt(col, h.limit));
}

// Each element of each chunk: each(slot, col) with slot = c * v + e, col = first + e (in the
// row: chunks shifted to 16 bytes also hold the elements of the rows around it).
ir::Stmt elements(const Holding& h, const std::function<ir::Stmt(const ir::Expr& slot, const ir::Expr& col)>& each,
                  SourceLoc loc) {
    return chunks(
        h,
        [&](const ir::Expr& c, const ir::Var& first) {
            if (h.v == 1) return each(c, first);
            ir::Var e = ir::make_var(ScalarType::I32, "e");
            ir::Expr col = ir::add(first, e);
            ir::Stmt one = each(ir::add(ir::mul(c, ir::i32(h.v)), e), col);
            if (h.shift) one = ir::If::make(loc, in_row(h, col), one, nullptr);
            return ir::For::make(loc, e, ir::i32(0), ir::i32(h.v), ir::i32(1), true, one);
        },
        loc);
}

// `e` (a pass walking the row along `walk`) with the staged rows read from this thread's element `slot`.
ir::Expr from_registers(const Holding& h, const RowPasses& p, const ir::Expr& e, const ir::Var& walk,
                        const ir::Expr& slot) {
    return replace_loads(e, [&](const ir::Load& l) -> ir::Expr {
        auto r = h.regs.find(l.buffer.get());
        if (r != h.regs.end() && row_load(l, p.row_axes, walk)) return ir::Load::make(r->second, {slot}, l.loc);
        auto w = h.held.find(l.buffer.get());
        if (w != h.held.end() && vector_load(l, walk)) return ir::Load::make(w->second, {slot}, l.loc);
        return nullptr;
    });
}

// `e` at this thread's element `slot`, column `col`.
ir::Expr at_element(const Holding& h, const RowPasses& p, const ir::Expr& e, const ir::Var& walk, const ir::Expr& slot,
                    const ir::Expr& col) {
    return substitute(from_registers(h, p, e, walk, slot), {{walk.get(), col}});
}

// The output's V values of the chunk at column `first` (slot c * v + e of the staged rows):
// the other rows the output reads along the row (a norm's weight and bias, a residual) copied 16
// bytes at a time into registers first, into `stmts`. They start aligned where the output's rows
// do (their rows are as long: N % V == 0 in this branch); others stay one element at a time.
// (One element at a time, f16 rms_norm's weight took 8 two-byte loads per 16-byte chunk of x.)
ir::Expr out_chunk(const Holding& h, const RowPasses& p, const ir::Expr& slot, const ir::Var& first, const ir::Var& e,
                   std::vector<ir::Stmt>& stmts, SourceLoc loc) {
    ir::Expr held = from_registers(h, p, p.out, p.col, slot);
    std::vector<ir::Stmt> copies;
    VectorLoads loads = vectorize_loads(held, p.col, h.v, first, e, false, copies, loc);
    if (!loads.aligned_with(h.width, h.v)) return substitute(held, {{p.col.get(), ir::add(first, e)}});
    stmts.insert(stmts.end(), copies.begin(), copies.end());
    return loads.value;
}

// Each reduction across the block (block_reduce), then across the blocks of
// the cluster: thread 0 leaves the block's part in shared memory and, after a
// cluster_sync, every thread combines the parts of all `parts` blocks (at most
// kClusterBlocks: one read per thread, then warp shuffles).
void reduce_in_cluster(const RowPasses& p, const ir::Expr& parts, int64_t threads, std::vector<ir::Stmt>& body,
                       SourceLoc loc, const std::function<ir::Stmt(const RowPass&)>& accumulate) {
    RowScratch scratch(body, loc, threads);
    std::map<ScalarType, ir::Buffer> kept;  // per accumulator type: a slot per reduction
    for (size_t i = 0; i < p.reductions.size(); ++i) {
        const RowPass& pass = p.reductions[i];
        const Reduction& r = pass.r;
        ScalarType t = r.acc->type;
        if (!kept.count(t)) {
            std::string name = kept.empty() ? "block_part" : "block_part_" + std::string(scalar_name(t));
            kept[t] = ir::make_buffer(name, t, {ir::i32(static_cast<int64_t>(p.reductions.size()))}, ir::Scope::Shared);
            body.push_back(ir::Alloc::make(loc, kept[t]));
        }
        ir::Expr slot = ir::Load::make(kept[t], {ir::i32(static_cast<int64_t>(i))});
        ir::Stmt keep = ir::Store::make(loc, kept[t], {ir::i32(static_cast<int64_t>(i))}, r.acc);
        block_reduce(r, scratch.partial(t), {ir::If::make(loc, ir::eq(tid(), ir::i32(0)), keep, nullptr)}, loc, body,
                     nullptr, accumulate(pass), threads);
        body.push_back(ir::Evaluate::make(loc, ir::Call::make_void(Builtin::ClusterSync, {})));
        // Lane l of each group of kClusterBlocks lanes reads block l's part (l < parts); the group's
        // shuffles combine them.
        ir::Expr lane = ir::mod(tid(), ir::i32(kClusterBlocks));
        body.push_back(ir::Assign::make(loc, r.acc, r.init()));
        body.push_back(ir::If::make(loc, ir::lt(lane, parts),
                                    ir::Assign::make(loc, r.acc, ir::Call::make(t, Builtin::ClusterLoad, {slot, lane})),
                                    nullptr));
        warp_reduce(r, body, loc, kClusterBlocks);
        body.push_back(ir::Decl::make(loc, pass.v, pass.value, true));
    }
}

// Each reduction across the `lanes` threads of a row (a group of warps, up to the
// whole block of `threads`): warp shuffles, then each warp's total in shared memory
// and, after one barrier, every thread adds its group's. A buffer per reduction, so
// that the next one needs no barrier before it writes (a block per row with two
// barriers per reduction: layer_norm f32 at N = 4096 1.04 -> 1.08x torch.compile with
// one, bench/results/2026-11-27-h200-row-blocks).
void reduce_in_group(const RowPasses& p, int64_t lanes, int64_t threads, std::vector<ir::Stmt>& body, SourceLoc loc,
                     const std::function<ir::Stmt(const RowPass&)>& accumulate) {
    ir::Expr warp = ir::div(tid(), ir::i32(32));
    for (const RowPass& pass : p.reductions) {
        const Reduction& r = pass.r;
        body.push_back(ir::Decl::make(loc, r.acc, r.init(), false));
        body.push_back(accumulate(pass));
        warp_reduce(r, body, loc);
        ir::Buffer part =
            ir::make_buffer("part_" + pass.buf->name, r.acc->type, {ir::i32(threads / 32)}, ir::Scope::Shared);
        body.push_back(ir::Alloc::make(loc, part));
        body.push_back(ir::If::make(loc, ir::eq(ir::mod(tid(), ir::i32(32)), ir::i32(0)),
                                    ir::Store::make(loc, part, {warp}, r.acc), nullptr));
        body.push_back(ir::Evaluate::make(loc, ir::Call::make_void(Builtin::SyncThreads, {})));
        ir::Var w = ir::make_var(ScalarType::I32, "w");
        ir::Expr first = ir::mul(ir::div(tid(), ir::i32(lanes)), ir::i32(lanes / 32));  // the group's first warp
        ir::Expr theirs = ir::Load::make(part, {ir::simplify(ir::add(first, w))});
        body.push_back(ir::Assign::make(loc, r.acc, r.init()));
        body.push_back(ir::For::make(loc, w, ir::i32(0), ir::i32(lanes / 32), ir::i32(1), true,
                                     ir::Assign::make(loc, r.acc, r.combine(r.acc, theirs))));
        body.push_back(ir::Decl::make(loc, pass.v, pass.value, true));
    }
}

}  // namespace

std::vector<ir::Expr> unflatten(const Shape& shape, const ir::Expr& flat) {
    std::vector<ir::Expr> at(shape.size());
    ir::Expr rest = flat;
    for (size_t d = shape.size() - 1; d > 0; --d) {
        at[d] = ir::mod(rest, shape[d]);
        rest = ir::div(rest, shape[d]);
    }
    at[0] = rest;
    return at;
}

namespace {

// `e` with each subexpression printed as `key` replaced by `with` (`found`: whether one was).
class ReplaceSame : public ir::IRMutator {
  public:
    ReplaceSame(std::string key, ir::Expr with) : key_(std::move(key)), with_(std::move(with)) {}
    ir::Expr mutate(const ir::Expr& e) override {
        if (ir::to_string(e) != key_) return ir::IRMutator::mutate(e);
        found = true;
        return with_;
    }
    bool found = false;

  private:
    std::string key_;
    ir::Expr with_;
};

// The terms of a reduction that the output computes again (softmax's exp(x - m), summed, then
// divided by the sum): where they read one staged row of their own type that nothing after them
// reads, each is stored over the row's value in its registers as the reduction adds it, and the
// output reads it there (p.out's copy of the terms becomes a load of a stand-in row, which h.regs
// maps to those registers; the terms are found by their printed form, in which one row group's
// variables print apart). Not for shifted chunks, whose output computes values outside the row
// that the reduction skips, nor where the terms would need registers of their own (f16 softmax's
// f32 terms: not measured). f32 softmax at N = 130 0.91 -> 1.01x torch.compile, 129 0.89 -> 0.97,
// 259 0.92 -> 0.97, 258 0.96 -> 1.00, 61 1.29 -> 1.42, none slower (H200, two runs each of a hand
// edit and of this, bench/results/2026-12-01-h200-row-predicated). The registers by reduction buffer.
std::map<const ir::BufferNode*, ir::Buffer> keep_terms(const Node& n, Holding& h, RowPasses& p,
                                                       std::vector<ir::Buffer>& stand_ins) {
    std::map<const ir::BufferNode*, ir::Buffer> kept;
    if (h.shift) return kept;
    auto rows_read = [&](const ir::Expr& e, std::vector<const ir::BufferNode*>& reads) {
        replace_loads(e, [&](const ir::Load& l) -> ir::Expr {
            if (h.regs.count(l.buffer.get())) reads.push_back(l.buffer.get());
            return nullptr;
        });
    };
    for (const RowPass& pass : p.reductions) {
        ir::Expr terms = substitute(pass.r.body, {{pass.r.vars[0].get(), p.col}});
        if (ir::as<ir::Load>(terms) || ir::as<ir::VarNode>(terms)) continue;  // a load is in registers already
        std::vector<const ir::BufferNode*> reads;
        rows_read(terms, reads);
        const ir::BufferNode* source = reads.empty() ? nullptr : reads.front();
        if (!source || std::any_of(reads.begin(), reads.end(), [&](auto* b) { return b != source; }) ||
            h.regs.at(source)->elem != terms->type)
            continue;
        ir::Buffer row = ir::make_buffer("kept_" + pass.buf->name, terms->type, n.buffer->shape, ir::Scope::Global);
        std::vector<ir::Expr> at(p.row_axes.begin(), p.row_axes.end());
        at.push_back(p.col);
        ReplaceSame replace(ir::to_string(terms), ir::Load::make(row, at));
        ir::Expr out = replace.mutate(p.out);
        if (!replace.found) continue;
        std::vector<const ir::BufferNode*> later;  // what reads rows after this reduction
        for (auto next = &pass + 1; next != p.reductions.data() + p.reductions.size(); ++next)
            rows_read(next->r.body, later);
        rows_read(out, later);
        if (std::find(later.begin(), later.end(), source) != later.end()) continue;
        p.out = out;
        h.regs[row.get()] = h.regs.at(source);
        stand_ins.push_back(row);
        kept[pass.buf.get()] = h.regs.at(source);
    }
    return kept;
}

}  // namespace

// The row at `row_axes`, held as `h` says: the staged rows' registers filled,
// each reduction (across the lanes of the row, or across the block), then the output.
void row_in_registers(const Node& n, Holding& h, const RowPasses& passes, std::vector<ir::Stmt>& body) {
    SourceLoc loc = n.loc;
    RowPasses p = passes;  // (its output reads the terms keep_terms keeps)
    auto row_at = [&](const ir::Expr& col) {
        std::vector<ir::Expr> at(p.row_axes.begin(), p.row_axes.end());
        at.push_back(col);
        return at;
    };
    std::vector<ir::Buffer> rows = shared_rows(p, h.width);
    // A norm's weight (or bias) read with the rows, before the reductions, not after them, where
    // the row is read 16 bytes at a time and the held values take at most kHeldBytes a thread:
    // f16 rms_norm, 64 bytes, 1.5-7 % faster at N = 256 ... 8192 (0.94 -> 0.97x torch.compile at
    // 256, 1.01 -> 1.08x at 8192); f32 layer_norm's weight and bias, 96 bytes, lost 1-4 % at N =
    // 512 and 1000 (H200, bench/results/2026-11-28-h200-row-chunks).
    std::vector<ir::Buffer> vectors = output_vectors(p, h.width);
    int64_t bytes = 0;
    for (const std::vector<ir::Buffer>* list : {&rows, &vectors})
        for (const ir::Buffer& b : *list) bytes += h.per_thread * byte_size(b->elem);
    bool hold = h.v > 1 && !h.shift && !rows.empty() && !vectors.empty() && bytes <= kHeldBytes;
    std::vector<std::pair<ir::Buffer, std::string>> fill;
    for (const ir::Buffer& g : rows) fill.push_back({g, "row_"});
    if (hold)
        for (const ir::Buffer& g : vectors) fill.push_back({g, "held_"});
    for (const auto& entry : fill) {  // (not a structured binding: lambdas below capture g)
        const ir::Buffer& g = entry.first;
        const std::string& prefix = entry.second;
        ir::Buffer s = ir::make_buffer(prefix + g->name, g->elem, {ir::i32(h.per_thread)}, ir::Scope::Register);
        body.push_back(ir::Alloc::make(loc, s));
        bool vector = prefix == "held_";
        (vector ? h.held : h.regs)[g.get()] = s;
        auto staged = h.stage.find(g.get());
        body.push_back(chunks(
            h,
            [&](const ir::Expr& c, const ir::Var& first) -> ir::Stmt {
                if (staged != h.stage.end() && h.v == 1)
                    return ir::Store::make(loc, s, {c}, ir::Load::make(staged->second, {in_stage(h, first)}));
                if (h.v == 1) return ir::Store::make(loc, s, {c}, ir::Load::make(g, row_at(first)));
                ir::Expr slot = ir::mul(c, ir::i32(h.v));
                ir::Expr from = staged != h.stage.end() ? ir::Load::make(staged->second, {in_stage(h, first)})
                                : vector                ? ir::Load::make(g, {first})
                                : h.shift               ? ir::Load::make(g, unflatten(h.shape, ir::add(h.base, first)))
                                                        : ir::Load::make(g, row_at(first));
                Builtin copy = copy_builtin(static_cast<int>(h.v * byte_size(g->elem)));
                ir::Stmt whole = ir::Evaluate::make(loc, ir::Call::make_void(copy, {ir::Load::make(s, {slot}), from}));
                if (!h.shift) return whole;
                // The tensor's last chunk may pass its end: element by element, up to it.
                ir::Var e = ir::make_var(ScalarType::I32, "e");
                ir::Expr col = ir::add(first, e);
                ir::Stmt one =
                    ir::If::make(loc, ir::lt(col, h.width),
                                 ir::Store::make(loc, s, {ir::add(slot, e)},
                                                 ir::Load::make(g, unflatten(h.shape, ir::add(h.base, col)))),
                                 nullptr);
                ir::Expr inside =
                    ir::Binary::make(ir::BinOp::Or, h.not_last, ir::le(ir::add(first, ir::i32(h.v)), h.width));
                return ir::If::make(loc, inside, whole,
                                    ir::For::make(loc, e, ir::i32(0), ir::i32(h.v), ir::i32(1), true, one));
            },
            loc));
    }
    if (h.after_fill) body.push_back(h.after_fill);
    std::vector<ir::Buffer> stand_ins;
    std::map<const ir::BufferNode*, ir::Buffer> kept = keep_terms(n, h, p, stand_ins);
    auto accumulate = [&](const RowPass& pass) {
        auto keep = kept.find(pass.buf.get());
        return elements(
            h,
            [&](const ir::Expr& slot, const ir::Expr& col) -> ir::Stmt {
                ir::Expr x = at_element(h, p, pass.r.body, pass.r.vars[0], slot, col);
                if (keep == kept.end()) return ir::Assign::make(loc, pass.r.acc, pass.r.combine(pass.r.acc, x));
                ir::Expr term = ir::Load::make(keep->second, {slot});
                return ir::Block::make(loc, {ir::Store::make(loc, keep->second, {slot}, x),
                                             ir::Assign::make(loc, pass.r.acc, pass.r.combine(pass.r.acc, term))});
            },
            loc);
    };
    auto forget = [&] {  // (the stand-ins live no longer than p)
        for (const ir::Buffer& b : stand_ins) h.regs.erase(b.get());
    };
    if (h.lanes <= 32) {
        for (const RowPass& pass : p.reductions) {  // every lane of the row's group ends with the row's result
            body.push_back(ir::Decl::make(loc, pass.r.acc, pass.r.init(), false));
            body.push_back(accumulate(pass));
            warp_reduce(pass.r, body, loc, h.lanes);
            body.push_back(ir::Decl::make(loc, pass.v, pass.value, true));
        }
    } else if (h.parts) {
        reduce_in_cluster(p, h.parts, h.threads, body, loc, accumulate);
    } else {
        reduce_in_group(p, h.lanes, h.threads, body, loc, accumulate);
    }
    if (h.v == 1) {
        body.push_back(elements(
            h,
            [&](const ir::Expr& slot, const ir::Expr& col) {
                ir::Expr value = at_element(h, p, p.out, p.col, slot, col);
                if (h.out_stage) return ir::Store::make(loc, h.out_stage, {in_stage(h, col)}, value);
                return ir::Store::make(loc, n.buffer, row_at(col), value);
            },
            loc));
        forget();
        return;
    }
    body.push_back(chunks(  // V values computed into registers, one 16-byte store
        h,
        [&](const ir::Expr& c, const ir::Var& first) -> ir::Stmt {
            ir::Var e = ir::make_var(ScalarType::I32, "e");
            ir::Expr slot = ir::add(ir::mul(c, ir::i32(h.v)), e);
            if (h.shift) {
                // Every lane computes its chunk's V values (the other tensors read at a column
                // clamped into the row: no lane branches off), then stores them 16 bytes at a
                // time where the chunk lies in the row, else the row's ones one at a time.
                ir::Expr col = ir::add(first, e);
                ir::Expr last = ir::sub(h.width, ir::i32(1));
                ir::Expr clamped =
                    ir::Call::make(ScalarType::I32, Builtin::Min,
                                   {ir::Call::make(ScalarType::I32, Builtin::Max, {col, ir::i32(0)}), last});
                ir::Expr value = at_element(h, p, p.out, p.col, slot, clamped);
                std::vector<ir::Stmt> stmts = store_vector(n.buffer, row_at(first), value, e, h.v, loc);
                ir::Stmt whole = stmts.back();
                stmts.pop_back();
                ir::Buffer regs = static_cast<const ir::Alloc*>(stmts.front().get())->buffer;
                ir::Stmt one =
                    ir::If::make(loc, in_row(h, col),
                                 ir::Store::make(loc, n.buffer, row_at(col), ir::Load::make(regs, {e})), nullptr);
                ir::Expr inside = ir::Binary::make(ir::BinOp::And, ir::Binary::make(ir::BinOp::Ge, first, ir::i32(0)),
                                                   ir::le(ir::add(first, ir::i32(h.v)), h.limit));
                stmts.push_back(ir::If::make(loc, inside, whole,
                                             ir::For::make(loc, e, ir::i32(0), ir::i32(h.v), ir::i32(1), true, one)));
                return ir::Block::make(loc, stmts);
            }
            std::vector<ir::Stmt> stmts;
            ir::Expr value = out_chunk(h, p, slot, first, e, stmts, loc);
            for (ir::Stmt& s : store_vector(n.buffer, row_at(first), value, e, h.v, loc)) stmts.push_back(s);
            return ir::Block::make(loc, stmts);
        },
        loc));
    forget();
}

// Whether every reduction walks the row from 0 to its length, as `elements` does.
bool walks_rows(const RowPasses& p, const ir::Expr& width) {
    for (const RowPass& pass : p.reductions) {
        const Reduction& r = pass.r;
        if (r.vars.size() != 1 || ir::const_int(r.lo[0]) != std::optional<int64_t>(0) || !same_dim(r.hi[0], width))
            return false;
    }
    return true;
}

}  // namespace hds::graph
