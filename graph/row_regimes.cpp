// row_regimes.cpp — row groups whose rows have a symbolic length N (or a
// constant one the register staging of row_group.cpp does not take: no
// multiple of 16 bytes). Which way of holding a row is fast depends on N,
// which only the call knows, so there is a kernel per way (each with its own
// block size and registers: one kernel with every way behind an `if` ran all
// of them with its hungriest branch's registers) and the host picks one per
// call by N (graph::Program::Launch), sizing its grid:
//   - N <= V (a 16-byte chunk), 16, 32, 64: 1, 2, 4, 8 threads per row, 256, 128, 64, 32 rows per block. A
//     block of 256 threads per row of 61 values left 3/4 of them idle and ran at
//     0.12–0.16 of copy bandwidth (bench/results/2026-11-24-h100-small-m); a warp
//     per row still had too few bytes in flight per thread (2026-11-25-h100-row-regimes),
//     as had 8 threads per row of 16 values (2026-11-29-h200-short-stream).
//   - then 16 (rows of 16- or 8-byte multiples), 32, 64, 128, 256 and 512 threads
//     per row (groups of lanes, a warp, groups of warps, blocks), each holding
//     two 16-byte chunks; then 512 threads holding 16 and 32 values, 1024
//     threads holding C (2026-11-27-h200-row-blocks, 2026-11-28-h200-row-chunks).
//   - N <= 8·512·C (4-byte values) or 8·256·2C (2-byte), sm_90a: a thread block
//     cluster per row of the fewest blocks that hold it (4 or 8), each holding
//     its part; a reduction combines the blocks' parts through distributed
//     shared memory (cluster_load). Up to 8·256·C, 8 blocks of 256 threads holding
//     C (2-byte rows from 128 rows: the wider blocks; 2026-11-29-h200-cluster-blocks).
//     A block per row left half the GPU idle for a
//     vocabulary-sized softmax of 65 rows and read the row once per pass
//     (0.15–0.54 of copy bandwidth, 2026-11-25-h100-row-regimes); 16 blocks
//     for every length made blocks of 8 KB at N = 32768, where the clusters'
//     barriers cost more than the reads (2026-11-25-h100-row-clusters).
//   - longer: a block per row, each pass reading the row from memory again
//     (row_group.cpp's loops).
// Up to the clusters each thread keeps the elements it reads of the rows two
// or more passes read in registers, C of them at most over those rows, so
// device memory is read once per element: elements lane, lane + T, ...
// (coalesced), or, when N is a multiple of 16 bytes (a kernel of its own),
// 16-byte chunks (8-byte ones on up to a warp per row where N is a multiple
// of 8 bytes only; from 64 threads, f16 rows of any length in the aligned
// 16-byte chunks that hold them, and f32 ones in the clusters). The cluster
// size is chosen per call, with the grid.
#include <fmt/format.h>

#include <algorithm>

#include "graph/rewrite.h"
#include "graph/row_group.h"
#include "graph/row_holding.h"
#include "graph/schedule.h"
#include "graph/shapes.h"
#include "ir/passes/passes.h"

namespace hds::graph {

namespace {

constexpr int64_t kStageBytes = 8192;  // the block's short rows copied into shared memory at most

// How many threads hold a row (`lanes`: 8 or 32, a group of a warp's lanes,
// threads / lanes rows per block; lanes = threads: a block per row) and how many
// values each holds in registers at most.
struct Regime {
    int64_t lanes;
    int64_t per_thread;
    int64_t cluster = 1;         // blocks per row (a thread block cluster)
    int64_t threads = kThreads;  // per block
    int64_t after = 0;           // the clusters: the longest rows of the regime before
    std::string name = "";       // of the kernel, where its lanes do not say it
    bool whole_only = false;     // only rows read in chunks (of 16 or 8 bytes), not element by element
    int64_t extra = 0;           // columns a row takes past N (shifted chunks: up to V - 1 before its first)
    int64_t stream = 0;          // rows of 16-byte multiples streamed (row_stream.cpp): blocks a multiprocessor
    // The clusters' wide regime: rows of up to `shorter` values (the next regime's longest) take
    // it only where there are at least `rows` of them (0: none do).
    int64_t shorter = 0, rows = 0;
    // Short rows through shared memory (stage_rows): the block's threads take `rounds` sets of rows in
    // turn, all of them copied in (and out) at once, so that each thread has `rounds` times the copies in flight.
    int64_t rounds = 1;
    bool apart = false;  // ... a warp's groups of lanes on rows a warp apart (see spacing)
    int64_t longest() const { return lanes * per_thread * cluster; }
    int64_t rows_per_round() const { return threads / lanes; }
    int64_t rows_per_block() const { return rows_per_round() * rounds; }
    std::string threads_per_row() const { return lanes == 1 ? "a thread" : fmt::format("{} threads", lanes); }
    // `shifted`: the longest rows of other lengths, read in the aligned chunks that hold them.
    std::string note(int64_t v, int64_t shifted = 0) const {
        std::string who = cluster > 1 ? fmt::format("a cluster of up to {} blocks of {} per row", cluster, threads)
                          : lanes == threads ? fmt::format("a block of {} threads per row", threads)
                          : lanes == 32      ? "a warp per row"
                          : rounds > 1
                              ? fmt::format("{} per row ({} rounds of {} rows per block)", threads_per_row(), rounds,
                                            rows_per_round())
                              : fmt::format("{} per row ({} rows per block)", threads_per_row(), rows_per_block());
        std::string how = !shifted ? (v > 1 ? fmt::format(", {} at a time", v) : "")
                                   : fmt::format(", {} at a time from the aligned chunks that hold the row", v);
        int64_t up_to = shorter - (shifted ? longest() - shifted : 0);  // the next regime's (shifted: the same less)
        std::string when = !shorter ? ""
                           : rows   ? fmt::format(" (up to {}: from {} rows)", up_to, rows)
                                    : fmt::format(" (past {})", up_to);
        return fmt::format("rows of up to {}{}: {}, {} values per thread in registers{}", shifted ? shifted : longest(),
                           when, who, per_thread, how);
    }
    // The kernel's name: how it holds a row.
    std::string suffix(int64_t v) const {
        std::string who = !name.empty()      ? name
                          : cluster > 1      ? "cluster"
                          : lanes == threads ? fmt::format("block{}", threads)
                          : lanes == 32      ? "warp"
                                             : fmt::format("lanes{}", lanes);
        return v > 1 ? who + "_vec" : who;
    }
};

// The blocks per row of the clusters' regime `g`: the fewest (a power of
// two) whose threads hold `width` values (and g.extra), per_thread each (rows
// longer than g.after, or than g.shorter where it takes no shorter ones: no fewer than hold more).
ir::Expr cluster_parts(const Regime& g, const ir::Expr& width) {
    ir::Expr parts = ir::i32(g.cluster);
    int64_t after = g.rows ? g.after : std::max(g.after, g.shorter);
    for (int64_t c = g.cluster / 2; c >= 2 && c * g.lanes * g.per_thread > after; c /= 2)
        parts = ir::Select::make(ir::le(width, ir::i32(c * g.lanes * g.per_thread - g.extra)), ir::i32(c), parts);
    return parts;
}

// Whether the staged rows are laid out as the output (the same shape): the block's rows are then
// one span in each, and a row's 16-byte chunks start at the same columns in each.
bool laid_out_like(const Node& n, const std::vector<ir::Buffer>& rows) {
    for (const ir::Buffer& b : rows) {
        if (b->shape.size() != n.buffer->shape.size()) return false;
        for (size_t d = 0; d < b->shape.size(); ++d)
            if (!same_dim(b->shape[d], n.buffer->shape[d])) return false;
    }
    return true;
}

// Short rows held by a few threads each (8 per row: N <= 64) are read and
// written a few elements per row at a time, each warp-wide access touching
// several rows' sectors (f16 rms_norm at N = 61: 0.65x torch.compile). The
// block's rows are contiguous in memory, so the staged rows and the output go
// through shared memory instead, copied by consecutive threads (0.91x;
// bench/results/2026-11-25-h100-short-rows-decode). `before` copies the
// staged rows in, `after` the output out; only where the staged rows are laid
// out like the output (laid_out_like: row_by checks it).
void stage_rows(const Node& n, const Regime& g, const RowPasses& p, Holding& h, std::vector<ir::Stmt>& before,
                std::vector<ir::Stmt>& after) {
    SourceLoc loc = n.loc;
    const Shape& shape = n.buffer->shape;
    std::vector<ir::Buffer> rows = shared_rows(p, h.width);
    int64_t held = g.rows_per_block() * g.longest();  // elements of the block's rows at most
    ir::Expr bid = ir::SpecialReg::make(ir::SpecialKind::BlockIdx, 0);
    ir::Expr r0 = ir::mul(bid, ir::i32(g.rows_per_block()));
    Shape row_shape(shape.begin(), shape.end() - 1);
    ir::Expr left = ir::sub(numel(row_shape), r0);
    ir::Expr count = ir::Select::make(ir::lt(left, ir::i32(g.rows_per_block())), left, ir::i32(g.rows_per_block()));
    ir::Var span = ir::make_var(ScalarType::I32, "span"), base = ir::make_var(ScalarType::I32, "base");
    before.push_back(ir::Decl::make(loc, base, ir::mul(r0, h.width), true));
    before.push_back(ir::Decl::make(loc, span, ir::mul(count, h.width), true));
    auto element = [&](const ir::Expr& i) { return unflatten(shape, ir::add(base, i)); };
    // Copies the block's span between `global` (at `element`) and its shared copy `stage`, 16
    // bytes at a time (V elements), the last block's last few elements one at a time:
    //   i = threadIdx.x * V; if (i + V <= span) copy 16 bytes; else if (i < span) copy i .. span
    // or, where each thread copies several chunks (held > 256 V),
    //   for (q < held / (256 V)) unrolled: i = (q * 256 + threadIdx.x) * V; if (i + V <= span) copy
    //   if (threadIdx.x < span % V) copy element span - span % V + threadIdx.x
    // A block's rows start 16-byte aligned where rows_per_block elements are a multiple of 16
    // bytes (always for 32 rows). f16 rms_norm at N = 61 read one element per load: 0.87x
    // torch.compile, 0.96x by 16 bytes (0.93x with the second form). With the first form's
    // `else` in the loop, f32's two copies per thread were not in flight together: layer_norm
    // 0.93 -> 0.83x, 1.04x with the second (H200, bench/results/2026-11-27-h200-short-rows).
    auto copies = [&](const ir::Buffer& global, const ir::Buffer& stage, bool in) {
        int64_t size = byte_size(global->elem);
        int64_t v = 16 / size;
        if (v < 2 || g.rows_per_block() * size % 16 != 0) v = 1;  // (stage has global's element type)
        int64_t steps = (held + g.threads * v - 1) / (g.threads * v);
        auto one = [&](const ir::Expr& i) {
            return in ? ir::Store::make(loc, stage, {i}, ir::Load::make(global, element(i)))
                      : ir::Store::make(loc, global, element(i), ir::Load::make(stage, {i}));
        };
        ir::Var q = ir::make_var(ScalarType::I32, "q"), i = ir::make_var(ScalarType::I32, "i");
        ir::Var at = ir::make_var(ScalarType::I32, "at");
        ir::Stmt each = ir::If::make(loc, ir::lt(i, span), one(i), nullptr);
        if (v > 1) {
            ir::Expr s = ir::Load::make(stage, {i}), m = ir::Load::make(global, element(i));
            ir::Stmt whole = ir::Evaluate::make(
                loc,
                ir::Call::make_void(Builtin::Copy16, in ? std::vector<ir::Expr>{s, m} : std::vector<ir::Expr>{m, s}));
            ir::Stmt tail = nullptr;
            if (steps == 1) {  // for (e < V) unrolled: at = i + e; if (at < span) copy at
                ir::Var e = ir::make_var(ScalarType::I32, "e");
                tail = ir::Block::make(loc, {ir::Decl::make(loc, at, ir::add(i, e), true),
                                             ir::If::make(loc, ir::lt(at, span), one(at), nullptr)});
                tail = ir::If::make(loc, ir::lt(i, span),
                                    ir::For::make(loc, e, ir::i32(0), ir::i32(v), ir::i32(1), true, tail), nullptr);
            }
            each = ir::If::make(loc, ir::le(ir::add(i, ir::i32(v)), span), whole, tail);
        }
        ir::Expr at_q = steps == 1 ? ir::i32(0) : ir::Expr(q);  // one step: no loop
        ir::Expr first = ir::simplify(ir::add(ir::mul(at_q, ir::i32(g.threads)), tid()));
        ir::Stmt body =
            ir::Block::make(loc, {ir::Decl::make(loc, i, v > 1 ? ir::mul(first, ir::i32(v)) : first, true), each});
        if (steps == 1) return body;
        ir::Stmt loop = ir::For::make(loc, q, ir::i32(0), ir::i32(steps), ir::i32(1), true, body);
        if (v == 1) return loop;
        ir::Expr rest = ir::mod(span, ir::i32(v));
        ir::Stmt tail =
            ir::Block::make(loc, {ir::Decl::make(loc, at, ir::add(ir::sub(span, rest), tid()), true), one(at)});
        return ir::Block::make(loc, {loop, ir::If::make(loc, ir::lt(tid(), rest), tail, nullptr)});
    };
    for (const ir::Buffer& b : rows) {
        ir::Buffer s = ir::make_buffer("stage_" + b->name, b->elem, {ir::i32(held)}, ir::Scope::Shared);
        before.push_back(ir::Alloc::make(loc, s));
        before.push_back(copies(b, s, true));
        h.stage[b.get()] = s;
    }
    h.out_stage = ir::make_buffer("stage_" + n.buffer->name, n.buffer->elem, {ir::i32(held)}, ir::Scope::Shared);
    before.push_back(ir::Alloc::make(loc, h.out_stage));
    before.push_back(ir::Evaluate::make(loc, ir::Call::make_void(Builtin::SyncThreads, {})));
    after.push_back(ir::Evaluate::make(loc, ir::Call::make_void(Builtin::SyncThreads, {})));
    after.push_back(copies(n.buffer, h.out_stage, false));
}

// Which rows a warp's groups of lanes take in a shared-memory copy of the block's short rows
// (stage_rows). Each read of a staged row reads `lanes` neighbouring elements of each of the warp's
// 32 / lanes rows, N elements apart: consecutive rows of odd lengths fall into the same banks (f16 on
// 4 lanes, N = 63: rows a halfword apart mod 128 bytes, 8 of them on 2-3 banks). Rows 8 apart (a
// warp's groups taking rows a warp apart) then lie 16 N bytes apart, at distinct multiples of 4 banks
// for odd N. Against consecutive rows, H200, two runs, torch.compile
// (bench/results/2026-11-29-h200-short-rows-banks): f16 rms_norm on 4 lanes at N = 63 0.88 -> 1.37x
// (0.49 -> 0.77 of copy bandwidth), 31 1.01 -> 1.17, 33 1.75 -> 1.86, 61 1.37 -> 1.43, but at even N
// 2-3 % slower (50, 62: consecutive rows of N = 4k + 2 are mostly conflict-free); f32 on 8 lanes (N %
// 4 != 0) at every N: layer_norm at 63 1.12 -> 1.23, 62 0.86 -> 0.93, softmax at 62 0.92 -> 0.96. With
// 2 lanes or 1 it lost (f16 N = 6 1.45 -> 0.81x, f32 14 0.90 -> 0.70; 16 or 32 rows a warp land on
// fewer banks a warp apart than consecutive).
// OddLengths: a kernel of its own for them (a select on N in the kernel cost 2-6 % at N = 35-62).
enum class Spacing { Never, OddLengths, Always };
Spacing spacing(const Regime& g) {
    if (g.lanes >= 32) return Spacing::Never;      // a warp or more per row: no shared-memory copy
    if (g.lanes >= 8) return Spacing::Always;      // 4 rows a warp (4-byte values: of 8 banks each)
    if (g.lanes == 4) return Spacing::OddLengths;  // 8 rows a warp (4-byte values at N = 4k + 2: 4-way)
    return Spacing::Never;
}

// The row group's body under regime `g`, chunks of v; `staged` (if given) says
// whether the rows go through shared memory (stage_rows).
ir::Stmt row_by(const Node& n, const Regime& g, int64_t v, bool* staged = nullptr, bool shifted = false) {
    SourceLoc loc = n.loc;
    Shape row_shape(n.buffer->shape.begin(), n.buffer->shape.end() - 1);
    ir::Var row = ir::make_var(ScalarType::I32, "row");
    ir::Expr bid = ir::SpecialReg::make(ir::SpecialKind::BlockIdx, 0);
    bool group = g.lanes < g.threads;
    std::vector<ir::Var> axes = fresh_row_axes(n);
    ir::Expr width = n.buffer->shape.back(), limit = width;
    RowPasses p = row_passes(n, axes);
    bool stages = group && g.lanes < 32 && v == 1 && g.cluster == 1 && laid_out_like(n, shared_rows(p, width));
    // This thread's row among the block's: its group of lanes' (rounds: among those of round `round`).
    ir::Var round = ir::make_var(ScalarType::I32, "round"), slot = ir::make_var(ScalarType::I32, "slot");
    ir::Expr local = ir::div(tid(), ir::i32(g.lanes));
    if (stages) {
        // Rows through shared memory: where a warp's consecutive rows would read the same banks (their
        // lanes' bytes at a stride of N elements), its groups take rows a warp apart instead (see spacing).
        ir::Expr apart =
            ir::add(ir::mul(ir::div(ir::mod(tid(), ir::i32(32)), ir::i32(g.lanes)), ir::i32(g.threads / 32)),
                    ir::div(tid(), ir::i32(32)));
        if (g.apart) local = apart;
        if (g.rounds > 1) local = ir::add(ir::mul(round, ir::i32(g.rows_per_round())), local);
    }
    ir::Expr first_row =
        group ? ir::add(ir::mul(bid, ir::i32(g.rows_per_block())), stages ? ir::Expr(slot) : local) : bid;
    std::vector<ir::Stmt> mine;
    ir::Var parts = ir::make_var(ScalarType::I32, "parts");
    if (g.cluster > 1) {  // blocks per row: the cluster's size, as the host chose it
        mine.push_back(ir::Decl::make(loc, parts, cluster_parts(g, n.buffer->shape.back()), true));
        first_row = ir::div(bid, parts);
    }
    if (stages) mine.push_back(ir::Decl::make(loc, slot, local, true));
    mine.push_back(ir::Decl::make(loc, row, first_row, true));
    for (ir::Stmt& s : unravel(row, axes, row_shape, loc)) mine.push_back(s);
    // Shifted chunks: the row's first element (flat index `base`) lies `shift` elements into its 16-byte chunk.
    ir::Var shift = ir::make_var(ScalarType::I32, "shift");
    ir::Expr base = ir::mul(row, width);
    auto shifted_holding = [&](Holding& h) {
        h.base = base;
        h.shift = shift;
        h.shape = n.buffer->shape;
        h.not_last = ir::Binary::make(ir::BinOp::Ne, row, ir::simplify(ir::sub(numel(row_shape), ir::i32(1))));
    };
    if (shifted) {
        if (!laid_out_like(n, shared_rows(p, width))) return nullptr;
        ir::Expr at = ir::mod(base, ir::i32(v));
        // (past the last row a group reads nothing: no chunk before its first column either)
        if (group && g.lanes != 32) at = ir::Select::make(ir::lt(row, numel(row_shape)), at, ir::i32(0));
        mine.push_back(ir::Decl::make(loc, shift, at, true));
    }
    if (g.cluster > 1) {
        // Block `part` of the cluster holds columns start .. end, whole chunks of v (shifted
        // chunks: start - shift .. end, the cluster's chunks taking up to V - 1 columns before 0).
        ir::Var part = ir::make_var(ScalarType::I32, "part"), span = ir::make_var(ScalarType::I32, "span");
        ir::Var start = ir::make_var(ScalarType::I32, "start"), end = ir::make_var(ScalarType::I32, "end");
        mine.push_back(ir::Decl::make(loc, part, ir::mod(bid, parts), true));
        ir::Expr step = v > 1 ? ir::mul(parts, ir::i32(v)) : ir::Expr(parts);
        ir::Expr need = g.extra ? ir::add(width, ir::i32(g.extra)) : width;
        ir::Expr chunks_each = ir::div(ir::sub(ir::add(need, step), ir::i32(1)), step);
        mine.push_back(ir::Decl::make(loc, span, v > 1 ? ir::mul(chunks_each, ir::i32(v)) : chunks_each, true));
        mine.push_back(ir::Decl::make(loc, start, ir::mul(part, span), true));
        ir::Expr stop = shifted ? ir::sub(ir::add(start, span), shift) : ir::add(start, span);
        mine.push_back(ir::Decl::make(loc, end, ir::Select::make(ir::lt(stop, width), stop, width), true));
        Holding h{g.threads, g.per_thread, v, tid(), width, end, {}, start, parts};
        h.threads = g.threads;
        if (shifted) shifted_holding(h);
        row_in_registers(n, h, p, mine);
        // No block leaves while the others may still read its parts. Relaxed: every thread has
        // used the parts it read, and a release here waited for the row's stores to complete
        // (membar stalls: rms_norm f16 at N = 32768 0.84 -> 0.89x torch.compile, H200;
        // bench/results/2026-11-26-h100-row-profile).
        mine.push_back(ir::Evaluate::make(loc, ir::Call::make_void(Builtin::ClusterSyncRelaxed, {})));
        return ir::Block::make(loc, mine);
    }
    if (group && g.lanes != 32) {
        // Past the last row a group reads no columns, but its lanes still take
        // part in the warp's shuffles (other groups of the warp may hold rows)
        // and, groups of several warps, in the block's barrier.
        ir::Var cols = ir::make_var(ScalarType::I32, "cols");
        mine.push_back(
            ir::Decl::make(loc, cols, ir::Select::make(ir::lt(row, numel(row_shape)), width, ir::i32(0)), true));
        limit = cols;
    }
    Holding h{g.lanes, g.per_thread, v, group ? ir::mod(tid(), ir::i32(g.lanes)) : tid(), width, limit, {}};
    h.threads = g.threads;
    // 4-byte rows read in 8- or 16-byte chunks on 16 to 256 lanes: each chunk under an `if`, not a
    // `break` out of the loop past the row (whose branches were 16 % of the instructions of f16
    // rms_norm at N = 250, Triton's none). f32 layer_norm at N = 98 0.94 -> 1.00x torch.compile,
    // 126 0.91 -> 0.96, 250 0.95 -> 0.97, 382 0.95 -> 0.99, softmax at 130 0.89 -> 0.91, 2046
    // 1.64 -> 1.66; f16 rows lost (rms_norm at 250 0.91 -> 0.84), and so did 4-byte rows on fewer
    // lanes (layer_norm at 30 0.93 -> 0.83) and on 512 (at 8190 1.25 -> 1.17) or in clusters (at
    // 128256 1.06 -> 0.83); element by element (odd N) it went both ways (layer_norm at 97 1.15 ->
    // 0.79, 383 0.89 -> 0.97; H200, two runs, bench/results/2026-12-01-h200-row-predicated).
    h.predicated = byte_size(n.buffer->elem) == 4 && v > 1 && g.lanes >= 16 && g.lanes <= 256;
    if (shifted) shifted_holding(h);
    std::vector<ir::Stmt> before, after;
    if (stages) {
        stage_rows(n, g, p, h, before, after);
        if (staged) *staged = true;
        h.local = slot;
        row_in_registers(n, h, p, mine);
        if (g.rounds > 1) {  // for (round < rounds) unrolled { this thread's row of the round }
            before.push_back(
                ir::For::make(loc, round, ir::i32(0), ir::i32(g.rounds), ir::i32(1), true, ir::Block::make(loc, mine)));
        } else {
            before.insert(before.end(), mine.begin(), mine.end());
        }
        before.insert(before.end(), after.begin(), after.end());
        return ir::Block::make(loc, before);
    }
    row_in_registers(n, h, p, mine);
    if (g.lanes != 32) return ir::Block::make(loc, mine);
    // A warp per row: warps past the last row have nothing to do (the condition is uniform per warp).
    std::vector<ir::Stmt> rest(mine.begin() + 1, mine.end());
    return ir::Block::make(
        loc, {mine[0], ir::If::make(loc, ir::lt(row, numel(row_shape)), ir::Block::make(loc, rest), nullptr)});
}

}  // namespace

std::vector<KernelCase> row_regimes(const Node& n, const ir::Kernel& fallback, int arch) {
    ir::Expr width = n.buffer->shape.back();
    Shape row_shape(n.buffer->shape.begin(), n.buffer->shape.end() - 1);
    ir::Expr rows = numel(row_shape);
    std::vector<ir::Var> probe_axes = fresh_row_axes(n);
    RowPasses probe = row_passes(n, probe_axes);
    if (!walks_rows(probe, width)) return {};
    int64_t v = 16 / byte_size(n.buffer->elem);  // elements per 16-byte chunk
    // The register budget over the staged rows, in whole chunks (chunks() loops over per_thread / v of them).
    int64_t staged = std::max<int64_t>(1, static_cast<int64_t>(shared_rows(probe, width).size()));
    int64_t small = std::max<int64_t>(8, v);
    int64_t per_thread = std::max(small, kRowRegisters / staged / small * small);
    // Short rows by a thread (a 16-byte chunk), 2, 4 and 8 threads (8 values each); then by 16, 32, 64, ... 512
    // threads, two 16-byte chunks each; then by 512 threads with twice, four times as many, up to `per_thread`, and by
    // 1024 with `per_thread` (then, on sm_90a, by a cluster of blocks of 256: holding twice as many values per thread
    // instead took 110 registers; 1024 threads of two chunks lost to 512 of more at f32 8192 and 16384, softmax 1.22
    // -> 1.09x, layer_norm 1.17 -> 1.01x). A kernel's registers are those of the most it holds, so a row takes the
    // fewest chunks per thread that hold it: layer_norm f32 at N = 1000 0.96 -> 1.04x torch.compile on 128 threads of 2
    // chunks, not a warp of 8; at 2048 0.89 -> 1.08x (256 threads of 2, not of 8); blocks of 512 and 1024 threads beat
    // clusters of 2 and 4 blocks of 256 (f16 rms_norm at N = 16384 0.91 -> 1.09x,
    // 32768 0.87 -> 1.02x; bench/results/2026-11-27-h200-row-blocks).
    int64_t pair = std::min(per_thread, std::max<int64_t>(2 * v, 8));  // two 16-byte chunks (8 values at least)
    // The lanes start at 16 where rows are 16-byte multiples: f16 rows of 65-256 values on a warp
    // left half its lanes' second chunk empty (rms_norm at N = 256 0.94 -> 0.96x torch.compile).
    // Other rows of 65-256 stay on a warp: through shared memory by 16 lanes, f16 at N = 255 lost
    // 4 %, f32 layer_norm at 127 3 %. Four chunks a thread on half the lanes lost 2-5 % from 256
    // to 4096 (H200, bench/results/2026-11-28-h200-row-chunks).
    // Rows of up to 16 and 32 values on 2 and 4 threads each (128 and 64 rows a block), not 8: a
    // thread held a few bytes of its row (softmax f32 at N = 9 0.76 -> 1.61x torch.compile, 16 0.61
    // -> 0.98, 31 0.91 -> 1.17; rms_norm f16 at 16 0.45 -> 0.98, 17 0.80 -> 1.21); rows of one
    // 16-byte chunk at most on a thread each (256 rows a block): f16 rms_norm at N = 5 1.18 ->
    // 1.85x, 8 0.82 -> 1.00x, N = 1 0.13 -> 0.27x (f32 rows of 8 on a thread, two chunks: 0.97 ->
    // 0.75x; H200, bench/results/2026-11-29-h200-short-stream).
    // 2-byte rows of 33 to 64 values on 4 threads of 16 (64 rows a block), not 8 of 8: f16 rms_norm
    // at N = 35 1.65 -> 2.08x torch.compile, 50 0.76 -> 0.93, 61 1.13 -> 1.36 (0.60 -> 0.71 of copy
    // bandwidth), 62 0.70 -> 0.93, 63 0.96 -> 0.89 (H200, two runs; f32 lost from 48 values:
    // softmax at 61 1.27 -> 1.18; bench/results/2026-11-29-h200-short-rows4).
    std::vector<Regime> regimes = {{1, v}, {2, small}, {4, small}, {8, small}};
    if (v == 8) regimes.back() = Regime{4, 2 * small, 1, kThreads, 0, "lanes4_16"};
    // 4-byte values: between two of those, the same lanes holding three chunks. A row just past
    // a regime's bound otherwise went to twice the lanes, each holding little more than one
    // chunk: softmax f32 at N = 300 0.86 -> 0.98x torch.compile, 513 0.77 -> 0.90x, 600 0.88
    // -> 0.98x, layer_norm f32 at 513 1.11 -> 1.23x (-0.01 at 384 and 1536). f16 rms_norm lost
    // 2-6 % from 768 (its weight no longer held; H200, bench/results/2026-11-28-h200-row-chunks).
    bool threes = v == 4 && 3 * v <= per_thread && pair == 2 * v;
    for (int64_t lanes = 16; lanes <= 512; lanes *= 2) {
        regimes.push_back({lanes, pair, 1, std::max<int64_t>(kThreads, lanes), 0, "", lanes == 16});
        if (threes && lanes >= 32)
            regimes.push_back({lanes, 3 * v, 1, std::max<int64_t>(kThreads, lanes), 0,
                               fmt::format("{}_{}", regimes.back().suffix(1), 3 * v)});
    }
    for (int64_t held = 2 * pair; held <= per_thread; held *= 2)
        regimes.push_back({512, held, 1, 512, 0, fmt::format("block512_{}", held)});
    regimes.push_back({1024, per_thread, 1, 1024});
    bool clusters = arch >= 90 && !ir::const_int(width);
    // The clusters: at most 8 blocks (portable; clusters of 16 did not pack into the GPU's
    // processor clusters), each holding twice as much as a block of 256 threads of `per_thread`:
    // 2-byte values 2 * per_thread a thread, 4-byte ones on 512 threads (2 * per_thread took 110
    // registers). Against 16 blocks of 256 with `per_thread` each, H200, two runs, torch.compile
    // (bench/results/2026-11-29-h200-cluster-blocks): f16 rms_norm at N = 100000 (167 rows)
    // 0.99 -> 1.22x, 128256 (130) 1.05 -> 1.22, 65544 (255) 0.79 -> 1.15, 131072 (600) 1.32 ->
    // 1.51 (0.72 -> 0.83 of copy bandwidth); f32 layer_norm at 128256 (65 rows) 0.97 -> 1.09, (8)
    // 0.87 -> 1.01, 131072 (32) 0.80 -> 0.90; softmax at 128256 (8) 1.34 -> 1.58, 65544 (600)
    // 1.01 -> 1.17. Up to 65536 values (the next regime's: 8 blocks of 256) the 2-byte rows only
    // from 128 rows (on fewer, 4 blocks a row lost to 8: N = 65536 with 32 rows 1.47 -> 1.31;
    // from 255 rows they won, 32776 with 511 0.93 -> 1.05), and the 4-byte ones not (4 blocks
    // of 512 lost: softmax at 65536 with 128 rows 1.59 -> 1.50, layer_norm at 40000 with 600 rows
    // 1.35 -> 1.29, the folder's call 4).
    if (clusters) {
        int64_t after = regimes.back().longest();
        std::string twice = fmt::format("cluster_{}", 2 * per_thread);
        Regime wide = v == 8 ? Regime{kThreads, 2 * per_thread, kClusterBlocks, kThreads, after, twice}
                             : Regime{512, per_thread, kClusterBlocks, 512, after, "cluster512"};
        wide.shorter = kThreads * per_thread * kClusterBlocks;
        wide.rows = v == 8 ? 128 : 0;
        regimes.push_back(wide);
        regimes.push_back({kThreads, per_thread, kClusterBlocks, kThreads, after});
    }
    auto grid = [&](const Regime& g) {
        if (g.cluster > 1) return ir::simplify(ir::mul(rows, cluster_parts(g, width)));
        return ir::simplify(ir::div(ir::add(rows, ir::i32(g.rows_per_block() - 1)), ir::i32(g.rows_per_block())));
    };
    // f32 rows past 16384 values, on a block of 1024 threads each (one a multiprocessor), streamed
    // by persistent blocks (row_stream.cpp; its stage, 128 KB, keeps it at one): softmax at N =
    // 20480 1.11 -> 1.18x torch.compile, 24576 1.09 -> 1.25, 32768 1.55 -> 1.82 (0.64 -> 0.75 of copy
    // bandwidth); layer_norm 1.02 -> 1.05, 1.06 -> 1.13, 1.23 -> 1.38. Not on two blocks of 512
    // threads a multiprocessor (8193-16384): softmax at 8196 1.43 -> 1.31, 16384 1.11 -> 1.18 (H200,
    // bench/results/2026-11-29-h200-row-stream).
    for (Regime& g : regimes)
        if (v == 4 && g.cluster == 1 && g.lanes == g.threads && g.longest() > 16384) g.stream = 1;
    auto kernel = [&](const Regime& g, ir::Stmt body, int64_t persistent = 0) {
        ir::Kernel k;
        k.body = std::move(body);
        k.grid = {grid(g)};
        k.block = {ir::i32(g.threads)};
        if (g.cluster > 1) k.cluster_per_call = cluster_parts(g, width);
        k.persistent = persistent;
        if (persistent) k.min_blocks = ir::i32(persistent);
        return k;
    };
    // Where 8-byte chunks are read (below): values of 1 to 4 bytes, outside the clusters; not
    // 8 threads of 4-byte values, whose block's rows through shared memory were faster (softmax
    // f32 at N = 62 0.92 -> 0.88x torch.compile in 8-byte chunks, layer_norm 0.86 -> 0.84), nor 2 or 4
    // (layer_norm at N = 18 0.87 -> 0.79x, 30 0.95 -> 0.68x; bench/results/2026-11-29-h200-short-stream).
    // On more than a warp 4-byte values were read element by element, 2-byte ones in the aligned 16-byte
    // chunks that hold them: softmax f32 at N = 510 0.97 -> 1.04x, 1022 0.97 -> 1.03, 2046 1.53 -> 1.65;
    // layer_norm at 510 0.92 -> 0.99, 1022 0.99 -> 1.07; f16 rms_norm (8 and 4 bytes at a time) at 514
    // 0.80 -> 1.07, 1022 0.75 -> 0.99, 2046 0.99 -> 1.21, 4100 0.91 -> 1.17, 16382 0.89 -> 1.22 (0.50 ->
    // 0.69 of copy bandwidth; H200, two runs, bench/results/2026-11-29-h200-rows-4k2).
    auto eights = [&](const Regime& g) { return v >= 4 && g.cluster == 1 && !(v == 4 && g.lanes <= 8); };
    if (auto known = ir::const_int(width)) {  // a constant length: the one regime it takes, or none
        for (const Regime& g : regimes) {
            int64_t by = *known % v == 0 && v > 1 ? v : eights(g) && *known % (v / 2) == 0 ? v / 2 : 1;
            if (*known > g.longest() || (g.whole_only && by == 1)) continue;
            Regime just = g;  // as many values per thread as it needs
            just.per_thread = ((*known + g.lanes * by - 1) / (g.lanes * by)) * by;
            return {{kernel(just, row_by(n, just, by)), nullptr, "", ""}};
        }
        return {};
    }
    // Rows whose length is a multiple of V start 16-byte aligned: read (and written) 16 bytes at a time.
    auto divisible_by = [&](int64_t d) {
        return ir::Binary::make(ir::BinOp::Eq, ir::mod(width, ir::i32(d)), ir::i32(0));
    };
    ir::Expr whole = divisible_by(v);
    std::vector<KernelCase> cases;
    for (const Regime& g : regimes) {
        ir::Expr fits = ir::le(width, ir::i32(g.longest()));
        // The clusters' wide regime: rows longer than the next one holds (shifted chunks: V - 1
        // columns shorter, but not its longest whole rows, which it reads 16 bytes at a time), or
        // enough of them.
        auto busy = [&](const ir::Expr& cond, bool shifted) {
            if (!g.shorter) return cond;
            ir::Expr longer = ir::lt(ir::i32(g.shorter), width);
            if (shifted)
                longer = ir::Binary::make(ir::BinOp::And, ir::lt(ir::i32(g.shorter - (v - 1)), width),
                                          ir::Binary::make(ir::BinOp::Ne, width, ir::i32(g.shorter)));
            if (g.rows) longer = ir::Binary::make(ir::BinOp::Or, longer, ir::le(ir::i32(g.rows), rows));
            return ir::Binary::make(ir::BinOp::And, cond, longer);
        };
        if (g.stream) {
            cases.push_back({kernel(g, row_stream(n, g.threads, g.per_thread, v), g.stream),
                             ir::Binary::make(ir::BinOp::And, whole, fits), g.suffix(v) + "_stream",
                             g.note(v) + fmt::format(", streamed: {} persistent block{} a multiprocessor, each copying "
                                                     "its next row into shared memory meanwhile",
                                                     g.stream, g.stream > 1 ? "s" : "")});
        } else {
            cases.push_back({kernel(g, row_by(n, g, v)), busy(ir::Binary::make(ir::BinOp::And, whole, fits), false),
                             g.suffix(v), g.note(v)});
        }
        // Rows of 8-byte multiples that are not 16-byte ones (f16 at N % 8 == 4, f32 at N % 4 == 2)
        // 8 bytes at a time, on up to a warp per row (as Inductor vectorizes by the largest power
        // of two that divides N), not element by element: f16 rms_norm at N = 100 0.58 -> 0.90x
        // torch.compile, 132 0.78 -> 1.09, 300 0.81 -> 1.03, 508 0.73 -> 0.98; f32 layer_norm at
        // 382 0.83 -> 0.96, softmax at 258 0.90 -> 0.95 (H200, bench/results/2026-11-29-h200-row-eights).
        // (the row read `by` elements at a time where N is a multiple of them: 8 or 4 bytes)
        auto narrower = [&](int64_t by) {
            int64_t bytes = by * (16 / v);
            // (f16 4 bytes at a time on 16 lanes: up to 5 words a lane, 160 values, then on a warp)
            int64_t longest = v == 8 && by == 2 && g.lanes == 16 ? 16 * 5 * 2 : g.longest();
            std::string note = g.note(by);
            note = fmt::format("rows of up to {}{} ({} bytes)", longest, note.substr(note.find(':')), bytes);
            cases.push_back({kernel(g, row_by(n, g, by)),
                             ir::Binary::make(ir::BinOp::And, divisible_by(by), ir::le(width, ir::i32(longest))),
                             g.suffix(by) + fmt::format("{}b", bytes), note});
        };
        if (eights(g)) narrower(v / 2);
        // 2-byte rows of even lengths that are not 8-byte multiples 4 bytes at a time on 16 lanes and a
        // warp (65 to 512 values), not element by element: f16 rms_norm at N = 98 0.68 -> 0.95x
        // torch.compile, 126 0.72 -> 0.91, 250 0.76 -> 0.79, 510 0.70 -> 0.92; on 4 lanes or fewer
        // the rows through shared memory were faster (N = 50 0.94 -> 0.50; H200, two runs,
        // bench/results/2026-11-29-h200-f16-fours). On 16 lanes up to 160 values (5 4-byte words a lane),
        // past that on a warp: N = 162 0.83 -> 0.85x, 194 0.81 -> 0.87, 226 0.80 -> 0.92, 250 0.80 -> 0.92,
        // 254 0.82 -> 0.95; at 130 0.98 -> 0.87, 146 0.91 -> 0.86 (8-byte chunks on a warp from 129 lost
        // too: N = 132 1.08 -> 0.87; H200, two runs, bench/results/2026-11-29-h200-rows-4k2).
        if (v == 8 && eights(g) && g.lanes >= 16) narrower(v / 4);
        // Rows of other lengths of 2-byte elements (outside the clusters: odd ones) 16 bytes at a time,
        // in the aligned chunks that hold them, from 64 threads per row (the chunks a row may straddle:
        // one more than N / V):
        // one element a lane read half a 32-bit load (f16 rms_norm at N = 1001 1.27 -> 1.56x
        // torch.compile, 8191 1.17 -> 1.32x). Not on fewer threads (their per-element checks of
        // the row's ends cost more than the loads saved: N = 127 0.94 -> 0.81x, 255 0.91 -> 0.73x)
        // nor for f32 (softmax at 16383 1.35 -> 1.08x); H200, bench/results/2026-11-28-h200-row-chunks.
        // In the clusters too (each block's columns shifted with the row): f16 N = 50257 1.40 -> 2.06x,
        // 100003 1.03 -> 1.50, 131065 0.68 -> 1.07 (0.31 -> 0.49 of copy bandwidth); 65530 needs
        // clusters of 16 (-0.02; H200, bench/results/2026-11-29-h200-row-cluster-shift).
        // f32 in the clusters too (unlike on a block or fewer threads per row): layer_norm at 65533
        // 0.96 -> 1.25x, 131069 0.82 -> 1.03x, softmax at 100003 1.51 -> 1.63x (32769 -0.02; same folder).
        bool shift_pays = (v == 8 && g.lanes >= 64) || (v == 4 && g.cluster > 1);
        Regime gs = g;  // its rows take up to V - 1 columns more
        gs.extra = v - 1;
        ir::Stmt shifted = shift_pays ? row_by(n, gs, v, nullptr, true) : nullptr;
        if (shifted) {
            int64_t longest = g.longest() - (v - 1);
            cases.push_back({kernel(gs, shifted), busy(ir::le(width, ir::i32(longest)), true), g.suffix(v) + "_shifted",
                             g.note(v, longest)});
            continue;
        }
        if (g.whole_only) continue;
        bool staged = false;
        Regime gr = g;
        // Short rows through shared memory in rounds, while the block's rows copied in take at most 8 KB (2
        // rounds: f16 rows of up to 32 values, f32 of up to 4): f16 rms_norm at N = 3 1.16 -> 1.35x
        // torch.compile, 6 1.41 -> 1.62, 14 0.76 -> 0.82, 30 0.82 -> 0.88, f32 layer_norm at 3 1.58 -> 1.81;
        // 16 KB lost or gained nothing (N = 30 0.71x, 61 1.36 -> 1.12, f32 layer_norm at 30 0.94 -> 0.80;
        // H200, two runs, bench/results/2026-11-29-h200-short-rows-banks): copies in flight are not what is short.
        std::vector<ir::Buffer> rows_in = shared_rows(probe, width);
        if (g.lanes < 32 && laid_out_like(n, rows_in)) {  // as row_by stages them
            int64_t ins = 0;                              // a column of the block's rows in the stages copied in
            for (const ir::Buffer& b : rows_in) ins += byte_size(b->elem);
            while (ins && gr.rounds * 2 * g.rows_per_round() * g.longest() * ins <= kStageBytes) gr.rounds *= 2;
            gr.apart = spacing(g) == Spacing::Always;
        }
        ir::Stmt by_element = row_by(n, gr, 1, &staged);
        std::string through = staged ? ", the block's rows copied through shared memory" : "";
        if (staged && spacing(g) == Spacing::OddLengths) {
            Regime ga = gr;
            ga.apart = true;
            ir::Expr odd = ir::Binary::make(ir::BinOp::Eq, ir::mod(width, ir::i32(2)), ir::i32(1));
            cases.push_back({kernel(ga, row_by(n, ga, 1)), ir::Binary::make(ir::BinOp::And, odd, fits),
                             g.suffix(1) + "_apart",
                             ga.note(1) + through + ", a warp's rows a warp apart (odd lengths)"});
        }
        cases.push_back({kernel(gr, by_element), fits, g.suffix(1),
                         gr.note(1) + through + (staged && gr.apart ? ", a warp's rows a warp apart" : "")});
    }
    cases.push_back({fallback, nullptr, "loops",
                     fmt::format("rows longer than {}: a block per row, each pass reading the row again",
                                 regimes.back().longest())});
    return cases;
}

}  // namespace hds::graph
