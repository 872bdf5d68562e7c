// hopper_runtime.cpp — the sm_90a built-ins at run time (hopper_runtime.h).
//
// Shared-memory layouts are those of the GPU: shared arrays of sm_90 kernels are
// 1024-byte aligned, so a byte offset into an array has the address bits the
// swizzles use. A TMA box with R-byte rows (R = 128, 64, 32) lands swizzled as the
// launcher's tensor map says (the 16-byte chunk c of row r at c ^ (r % 8 masked));
// wgmma reads its operands through the descriptors the emitter builds: 128-byte
// swizzled rows, 8-row groups 1024 bytes apart, N-major B's 64-column tiles
// wgmma_b_leading_bytes apart.
#include "codegen/cpu/hopper_runtime.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "codegen/cpu/compiler.h"
#include "codegen/cpu/half.h"

namespace hds::emu::detail {

namespace {

float half_value(Value v, ScalarType t) {
    return static_cast<float>(t == ScalarType::BF16 ? bf16_to_double(static_cast<uint16_t>(v.i))
                                                    : half_to_double(static_cast<uint16_t>(v.i)));
}

void join(std::vector<int32_t>& into, const std::vector<int32_t>& from) {
    if (into.size() < from.size()) into.resize(from.size(), 0);
    for (size_t i = 0; i < from.size(); ++i) into[i] = std::max(into[i], from[i]);
}

void complete_phase(Block& b, Mbarrier& m) {
    ++m.phase;
    m.pending = m.count;
    m.tx = 0;
    for (const Mbarrier::Box& box : m.boxes)
        for (int64_t i = box.begin; i < box.end; ++i) b.shared[box.shared].pending[i] = 0;
    m.boxes.clear();
    m.done_vc = std::move(m.vc);
    m.vc.clear();
}

std::string ordinal_block(const Thread& t, const Block& b) {
    return &b == t.block ? "" : fmt::format(" of block {} of the cluster", b.rank);
}

}  // namespace

int64_t swizzle(int64_t offset, int row_bytes) {
    int64_t mask = row_bytes == 128 ? 7 : row_bytes == 64 ? 3 : 1;
    return offset ^ (((offset >> 7) & mask) << 4);
}

Block* cluster_block(Thread& t, int64_t rank, SourceLoc loc) {
    Cluster* c = t.block->cluster;
    int64_t n = c ? static_cast<int64_t>(c->blocks.size()) : 1;
    if (rank < 0 || rank >= n)
        trap(t, loc, fmt::format("block rank {} is outside the cluster of {} block{}", rank, n, n == 1 ? "" : "s"));
    return c ? c->blocks[rank] : t.block;
}

Mbarrier& find_mbarrier(Thread& t, Block& b, BarrierKey key, const std::string& name, SourceLoc loc) {
    auto it = b.mbarriers.find(key);
    if (it == b.mbarriers.end())
        trap(t, loc,
             fmt::format("'{}' (element {}){} is not an mbarrier: no mbarrier_init initialized it", name, key.second,
                         ordinal_block(t, b)));
    return it->second;
}

void mbarrier_arrive(Thread& t, Block& b, BarrierKey key, int64_t tx, const std::string& name, SourceLoc loc) {
    Mbarrier& m = find_mbarrier(t, b, key, name, loc);
    if (m.pending == 0)
        trap(t, loc,
             fmt::format("arrival on '{}' (element {}){} beyond its count of {} in one phase (the phase still "
                         "awaits {} bytes of copies)",
                         name, key.second, ordinal_block(t, b), m.count, m.tx));
    m.tx += tx;
    if (&b == t.block && !t.vc.empty()) {  // a release: this thread's accesses so far come before the waits
        join(m.vc, t.vc);
        ++t.vc[t.linear];
    }
    if (--m.pending == 0 && m.tx == 0) complete_phase(b, m);
}

int64_t named_barrier_arrive(Thread& t, int64_t id, int64_t threads, SourceLoc loc) {
    const Machine& mc = *t.machine;
    int64_t block = int64_t{mc.block[0]} * mc.block[1] * mc.block[2];
    if (threads > block)
        trap(t, loc,
             fmt::format("named barrier {} waits for {} threads; the block has {}: it can never complete", id, threads,
                         block));
    auto [it, fresh] = t.block->mbarriers.try_emplace(BarrierKey{kNamedBarrier, id});
    Mbarrier& m = it->second;
    if (fresh || m.pending == m.count) {  // the phase's first arrival sets its count
        m.count = m.pending = static_cast<int>(threads);
    } else if (m.count != threads) {
        trap(t, loc,
             fmt::format("named barrier {} reached with {} threads while its phase counts {} (every call of one "
                         "phase must give the same count)",
                         id, threads, m.count));
    }
    int64_t phase = m.phase;
    mbarrier_arrive(t, *t.block, it->first, 0, fmt::format("named barrier {}", id), loc);  // (racecheck: a release)
    return phase;
}

void mbarrier_wait_phase(Thread& t, BarrierKey key, int parity, SourceLoc loc) {
    if (t.block->mbarriers.at(key).phase % 2 == parity) {
        t.wait_bar = key;
        t.wait_parity = parity;
        t.state = ThreadState::AtMbarrier;
        t.wait_loc = loc;
        t.fiber->yield();
    }
    mbarrier_acquire(t, t.block->mbarriers.at(key));
}

void mbarrier_acquire(Thread& t, const Mbarrier& m) {
    if (!t.vc.empty()) join(t.vc, m.done_vc);
}

void tma_load(Thread& t, const TmaCopy& c, int64_t at, const std::vector<int64_t>& index, BarrierKey bar,
              int64_t mask) {
    const GlobalBuf& g = t.machine->globals[c.global];
    const size_t n_dims = g.shape.size();
    const int64_t rows = g.shape[n_dims - 2], cols = g.shape[n_dims - 1], eb = c.elem_bytes;
    const int64_t row = index[n_dims - 2], col = index[n_dims - 1];
    // The slice the leading indices pick (outside the tensor: every element reads as 0).
    int64_t slice = 0;
    bool slice_inside = true;
    for (size_t d = 0; d + 2 < n_dims; ++d) {
        slice_inside = slice_inside && index[d] >= 0 && index[d] < g.shape[d];
        slice = slice * g.shape[d] + index[d];
    }
    if (cols * eb % 16 != 0)
        trap(t, c.loc,
             fmt::format("no tensor map for '{}': its rows of {} bytes are not a multiple of 16 (the launcher "
                         "returns cudaErrorInvalidValue)",
                         c.src_name, cols * eb));
    if (at * eb % 128 != 0)
        trap(t, c.loc,
             fmt::format("TMA box at element {} of '{}' is not 128-byte aligned (byte offset {})", at, c.dst_name,
                         at * eb));
    const int row_bytes = static_cast<int>(c.cols * eb);
    std::vector<std::pair<int64_t, Value>> writes;  // (element, value)
    writes.reserve(c.rows * c.cols);
    for (int64_t i = 0; i < c.rows; ++i)
        for (int64_t j = 0; j < c.cols; ++j) {
            int64_t r = row + i, q = col + j;
            bool inside = slice_inside && r >= 0 && r < rows && q >= 0 && q < cols;
            int64_t offset = swizzle(at * eb + i * row_bytes + j * eb, row_bytes);
            writes.emplace_back(offset / eb, inside ? g.data[(slice * rows + r) * cols + q] : Value{0});
        }
    Cluster* cluster = t.block->cluster;
    int64_t n = cluster ? static_cast<int64_t>(cluster->blocks.size()) : 1;
    if (mask >= 0 && (mask >> n) != 0)
        trap(t, c.loc, fmt::format("multicast mask {:#x} names blocks outside the cluster of {}", mask, n));
    for (int64_t r = 0; r < (mask < 0 ? 1 : n); ++r) {
        if (mask >= 0 && !((mask >> r) & 1)) continue;
        Block& b = mask < 0 ? *t.block : *cluster_block(t, r, c.loc);
        Mbarrier& m = find_mbarrier(t, b, bar, c.bar_name, c.loc);
        SharedBuf& buf = b.shared[c.shared];
        for (const auto& [e, v] : writes) {
            if (buf.pending[e])
                trap(t, c.loc,
                     fmt::format("TMA copy into '{}' (element {}){} while an earlier copy into it has not landed",
                                 c.dst_name, e, ordinal_block(t, b)));
            if (buf.wgmma_reads[e])
                trap(t, c.loc,
                     fmt::format("TMA copy into '{}' (element {}){} while a wgmma still reads it (no wgmma_wait "
                                 "has covered that wgmma's group: release the buffer after the wait)",
                                 c.dst_name, e, ordinal_block(t, b)));
            buf.data[e] = v;
            buf.written[e] = 1;
            buf.pending[e] = kPendingTma;
            buf.write_epoch[e] = -1;  // the copy engine's write: ordered by the barrier, not racecheck
        }
        m.boxes.push_back({c.shared, at, at + c.rows * c.cols});
        m.tx -= c.rows * c.cols * eb;
        if (m.pending == 0 && m.tx == 0) complete_phase(b, m);
    }
}

namespace {

std::string setmaxnreg(const std::vector<Thread*>& threads) {
    const WarpgroupOp& f = threads[0]->wg_op;
    for (const Thread* t : threads)
        if (t->wg_op.value != f.value)
            return fmt::format("setmaxnreg with different counts ({} and {}) in one warpgroup", f.value,
                               t->wg_op.value);
    // The limits the warpgroups have set (ptxas picks the count at launch: until a
    // warpgroup sets one, it counts as the least, 24).
    Block& b = *threads[0]->block;
    const Machine& m = *threads[0]->machine;
    int64_t nthreads = int64_t{m.block[0]} * m.block[1] * m.block[2];
    if (b.max_regs.empty()) b.max_regs.assign(static_cast<size_t>((nthreads + 127) / 128), 0);
    int wg = threads[0]->linear / 128;
    bool inc = f.builtin == Builtin::SetMaxNRegInc;
    int before = b.max_regs[wg];
    if (before > 0 && (inc ? f.value < before : f.value > before))
        return fmt::format("setmaxnreg_{}({}) where the warpgroup's limit is already {}", inc ? "inc" : "dec", f.value,
                           before);
    b.max_regs[wg] = f.value;
    // The block holds what it was launched with: __launch_bounds__(threads, 1) gives each
    // thread 65536 / threads registers (a multiple of 8, at most 256); an inc beyond what
    // the others gave back waits for ever.
    int64_t per_thread = std::min<int64_t>(256, 65536 / nthreads / 8 * 8);
    int64_t total = 0;
    for (int r : b.max_regs) total += int64_t{r > 0 ? r : 24} * 128;
    if (total > per_thread * nthreads)
        return fmt::format(
            "setmaxnreg_inc({}): the warpgroups' register limits add up to {} registers, more than the {} the "
            "block has ({} threads launched with {} each): the inc would wait for ever",
            f.value, total, per_thread * nthreads, nthreads, per_thread);
    return "";
}

// The elements of a shared operand, from its start through the descriptor's layout: `at(i, j)`
// gives the byte offset (before the swizzle) of row i, column j of the operand; "" or what is wrong.
template <typename At>
std::string operand_elements(const SharedBuf& buf, const std::string& name, int64_t start, int eb, int64_t rows,
                             int64_t cols, const char* what, At at, std::vector<int64_t>& out) {
    if (start * eb % 16 != 0)
        return fmt::format(
            "wgmma {} starts at element {} of '{}', not 16-byte aligned (a descriptor holds "
            "addresses in 16-byte units)",
            what, start, name);
    out.resize(rows * cols);
    const int64_t size = static_cast<int64_t>(buf.data.size());
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) {
            int64_t e = swizzle(start * eb + at(i, j), 128) / eb;
            if (e >= size)
                return fmt::format(
                    "wgmma {} ({} x {} from element {} of '{}') reaches element {}, outside the "
                    "array of {} elements",
                    what, rows, cols, start, name, e, size);
            if (buf.pending[e])
                return fmt::format("wgmma reads '{}' (element {}) before the {} that writes it has landed", name, e,
                                   buf.pending[e] == kPendingTma ? "TMA copy (wait on its mbarrier)"
                                                                 : "cp.async (no cp_async_wait covers its group)");
            if (!buf.written[e])
                return fmt::format("wgmma reads uninitialized shared memory '{}' (element {})", name, e);
            out[i * cols + j] = e;
        }
    return "";
}

}  // namespace

std::string run_warpgroup_op(const std::vector<Thread*>& threads) {
    const WarpgroupOp& f = threads[0]->wg_op;
    for (const Thread* t : threads)
        if (t->wg_op.builtin != f.builtin || t->wait_loc.line != threads[0]->wait_loc.line ||
            t->wait_loc.col != threads[0]->wait_loc.col)
            return "threads of a warpgroup at different warpgroup instructions";
    if (f.builtin == Builtin::SetMaxNRegInc || f.builtin == Builtin::SetMaxNRegDec) return setmaxnreg(threads);
    WgmmaForm form = wgmma_form(f.builtin);
    for (const Thread* t : threads)
        if ((form != WgmmaForm::ARegisters && t->wg_op.a_at != f.a_at) || t->wg_op.b_at != f.b_at)
            return fmt::format("the threads of the warpgroup give {} different shared operands",
                               builtin_info(f.builtin).name);
    auto op = std::make_shared<WgmmaOp>();
    op->builtin = f.builtin;
    op->elem = f.elem;
    op->loc = threads[0]->wait_loc;
    op->n = wgmma_n(f.builtin);
    op->block = threads[0]->block;
    op->threads = threads;
    const Program& p = *threads[0]->machine->program;
    const int eb = byte_size(f.elem);
    const int64_t lead = f.b_tile_bytes;
    if (form != WgmmaForm::ARegisters) {
        op->a_shared = f.a_shared;
        // K-major rows; or, given transposed, M-major as N-major B is (64 rows: one 64-column tile).
        bool m_major = form == WgmmaForm::BothTransposed;
        std::string wrong = operand_elements(
            op->block->shared[f.a_shared], p.shared_names[f.a_shared], f.a_at, eb, 64, 16, "A",
            [eb, m_major](int64_t m, int64_t k) {
                return m_major ? k / 8 * 1024 + k % 8 * 128 + m * eb : m / 8 * 1024 + m % 8 * 128 + k * eb;
            },
            op->a_elems);
        if (!wrong.empty()) return wrong;
    }
    op->b_shared = f.b_shared;
    std::string wrong =
        form == WgmmaForm::BTransposed || form == WgmmaForm::BothTransposed
            ? operand_elements(
                  op->block->shared[f.b_shared], p.shared_names[f.b_shared], f.b_at, eb, 16, op->n, "B",
                  [eb](int64_t k, int64_t j) { return j / 8 * 1024 + j % 8 * 128 + k * eb; }, op->b_elems)
            : operand_elements(
                  op->block->shared[f.b_shared], p.shared_names[f.b_shared], f.b_at, eb, 16, op->n, "B",
                  [eb, lead](int64_t k, int64_t j) { return j / 64 * lead + k / 8 * 1024 + k % 8 * 128 + j % 64 * eb; },
                  op->b_elems);
    if (!wrong.empty()) return wrong;
    for (int64_t e : op->a_elems) ++op->block->shared[op->a_shared].wgmma_reads[e];
    for (int64_t e : op->b_elems) ++op->block->shared[op->b_shared].wgmma_reads[e];
    for (Thread* t : threads) {
        const WarpgroupOp& w = t->wg_op;
        op->acc.push_back(w.acc);
        op->acc_at.push_back(w.acc_at);
        t->holds.push_back({w.acc_array, w.acc_at, w.acc_at + op->n / 2, true, op.get()});
        if (form == WgmmaForm::ARegisters) {
            op->a_regs.emplace_back(w.a->begin() + w.a_at, w.a->begin() + w.a_at + 8);
            t->holds.push_back({w.a_array, w.a_at, w.a_at + 8, false, op.get()});
        }
        t->wgmma_open.push_back(op);
    }
    return "";
}

void run_wgmma(WgmmaOp& op) {
    const int n = op.n;
    std::vector<float> a(64 * 16), b(16 * n);
    if (op.a_elems.empty()) {
        // A from registers: per warp w the mma.sync A fragment of rows 16 w .. 16 w + 15 (lane l
        // holds rows l / 4 and l / 4 + 8, columns 2 (l % 4), + 1, + 8, + 9).
        for (int t = 0; t < 128; ++t) {
            int w = t / 32, g = t % 32 / 4, q = t % 4;
            for (int e = 0; e < 8; ++e)
                a[(16 * w + g + e / 2 % 2 * 8) * 16 + 2 * q + e % 2 + e / 4 * 8] = half_value(op.a_regs[t][e], op.elem);
        }
    } else {
        const SharedBuf& s = op.block->shared[op.a_shared];
        for (int i = 0; i < 64 * 16; ++i) a[i] = half_value(s.data[op.a_elems[i]], op.elem);
    }
    const SharedBuf& sb = op.block->shared[op.b_shared];
    for (int i = 0; i < 16 * n; ++i) b[i] = half_value(sb.data[op.b_elems[i]], op.elem);
    // Accumulator i of thread t: row 16 (t / 32) + (t % 32) / 4 + 8 ((i / 2) % 2), column
    // 8 (i / 4) + 2 (t % 4) + i % 2; the 16 products added in f32 in order of k.
    for (int t = 0; t < 128; ++t) {
        std::vector<Value>& acc = *op.acc[t];
        for (int i = 0; i < n / 2; ++i) {
            int row = 16 * (t / 32) + t % 32 / 4 + 8 * (i / 2 % 2), col = 8 * (i / 4) + 2 * (t % 4) + i % 2;
            float d = acc[op.acc_at[t] + i].f;
            for (int k = 0; k < 16; ++k) d += a[row * 16 + k] * b[k * n + col];
            acc[op.acc_at[t] + i].f = d;
        }
    }
    for (int64_t e : op.a_elems) --op.block->shared[op.a_shared].wgmma_reads[e];
    for (int64_t e : op.b_elems) --op.block->shared[op.b_shared].wgmma_reads[e];
    for (Thread* t : op.threads)
        t->holds.erase(
            std::remove_if(t->holds.begin(), t->holds.end(), [&](const RegisterHold& h) { return h.op == &op; }),
            t->holds.end());
    op.done = true;
}

void check_register_hold(const Thread& t, size_t array, int64_t i, bool write, const std::string& name, SourceLoc loc) {
    for (const RegisterHold& h : t.holds)
        if (h.array == array && i >= h.begin && i < h.end && (write || h.writes))
            trap(t, loc,
                 fmt::format("{} of '{}' (element {}) while the {} issued at line {} still {} it (no wgmma_wait "
                             "covers its group)",
                             write ? "write" : "read", name, i, builtin_info(h.op->builtin).name, h.op->loc.line,
                             h.writes ? "writes" : "reads"));
}

void wgmma_overwrite(const Thread& t, const std::string& name, int64_t i, SourceLoc loc) {
    trap(t, loc,
         fmt::format("write of '{}' (element {}) while a wgmma still reads it (no wgmma_wait has covered that "
                     "wgmma's group)",
                     name, i));
}

std::string describe_mbarrier_wait(const Thread& t) {
    const Mbarrier& m = t.block->mbarriers.at(t.wait_bar);
    if (t.wait_bar.first == kNamedBarrier)
        return fmt::format(
            "deadlock: barrier_sync on named barrier {} can never complete: {} of its {} threads have arrived, and "
            "no thread that could arrive is running",
            t.wait_bar.second, m.count - m.pending, m.count);
    const std::string& name = t.machine->program->shared_names[t.wait_bar.first];
    return fmt::format(
        "deadlock: mbarrier_wait on '{}' (element {}) for the phase of parity {} can never complete: it has had "
        "{} of its {} arrivals{}, and no thread that could arrive is running",
        name, t.wait_bar.second, t.wait_parity, m.count - m.pending, m.count,
        m.tx > 0 ? fmt::format(" and awaits {} bytes of copies", m.tx) : std::string());
}

const WgmmaOp* unfinished_wgmma(const Thread& t) {
    for (const auto& o : t.wgmma_open)
        if (!o->done) return o.get();
    for (const auto& g : t.wgmma_groups)
        for (const auto& o : g)
            if (!o->done) return o.get();
    return nullptr;
}

}  // namespace hds::emu::detail
