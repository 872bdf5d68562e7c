// compile_tensor_core.cpp — the sm_80 tensor-core built-ins on the emulator:
// cp.async with commit/wait groups (a copy lands when a wait covers its group,
// so a read before that is caught), and the warp-collective ldmatrix_x4[_trans]
// and mma_16816 (each lane's fragment registers as the PTX ISA lays them out).
#include <fmt/format.h>

#include <optional>
#include <tuple>

#include "codegen/cpu/compiler.h"
#include "codegen/cpu/half.h"
#include "codegen/cpu/hopper_runtime.h"

namespace hds::emu::detail {

namespace {

float to_float(Value v, ScalarType t) {
    return static_cast<float>(t == ScalarType::BF16 ? bf16_to_double(static_cast<uint16_t>(v.i))
                                                    : half_to_double(static_cast<uint16_t>(v.i)));
}

}  // namespace

Compiler::Ref Compiler::reference(const ir::Expr& e, int64_t count, const char* what) {
    auto* l = ir::as<ir::Load>(e);
    Indexer at = indexer(l->buffer, l->indices, l->loc, what);
    BufRef ref = buffers_.at(l->buffer.get());
    SourceLoc loc = l->loc;
    std::string name = l->buffer->name;
    return [at, ref, loc, name, count, what](Thread& t) -> std::pair<std::vector<Value>*, int64_t> {
        int64_t i = at(t);
        std::vector<Value>& v = storage(t, ref);
        if (i + count > static_cast<int64_t>(v.size()))
            trap(t, loc, fmt::format("{} '{}' needs {} elements from element {}", what, name, count, i));
        return {&v, i};
    };
}

Eval Compiler::tensor_core(const ir::Call* c) {
    SourceLoc loc = loc_;
    switch (c->builtin) {
        case Builtin::CpAsync16: {
            auto* dst = ir::as<ir::Load>(c->args[0]);
            int64_t n = 16 / byte_size(dst->buffer->elem);
            Ref to = reference(c->args[0], n, "cp_async_16 destination");
            Ref from = reference(c->args[1], 0, "cp_async_16 source");
            Eval bytes = expr(c->args[2]);
            size_t shared = buffers_.at(dst->buffer.get()).index;
            int64_t elem = byte_size(dst->buffer->elem);
            auto array = std::make_shared<const std::string>(dst->buffer->name);
            return [to, from, bytes, n, shared, elem, loc, array](Thread& t) {
                int64_t i = to(t).second;
                int64_t b = bytes(t).i;
                if (b < 0 || b > 16 || b % elem != 0)
                    trap(t, loc, fmt::format("cp_async_16 copies 0 to 16 bytes in whole elements, not {}", b));
                // With 0 bytes nothing is read: the source need not lie inside its tensor.
                auto [s, j] = b > 0 ? from(t) : std::pair<std::vector<Value>*, int64_t>{nullptr, 0};
                if (i % n != 0 || j % n != 0)
                    trap(t, loc,
                         fmt::format("misaligned cp_async_16: element offsets {} and {} must be multiples "
                                     "of {}",
                                     i, j, n));
                int64_t read = b / elem;
                if (read > 0 && j + read > static_cast<int64_t>(s->size()))
                    trap(t, loc, fmt::format("out-of-bounds cp_async_16 source: {} elements from {}", read, j));
                PendingCopy copy{shared, i, std::vector<Value>(n, Value{0}), array};
                for (int64_t k = 0; k < read; ++k) copy.values[k] = (*s)[j + k];
                SharedBuf& buf = t.block->shared[shared];
                for (int64_t k = 0; k < n; ++k) buf.pending[i + k] = 1;
                t.open_copies.push_back(std::move(copy));
                return Value{0};
            };
        }
        case Builtin::CpAsyncCommit:
            return [](Thread& t) {
                t.copy_groups.push_back(std::move(t.open_copies));
                t.open_copies.clear();
                return Value{0};
            };
        case Builtin::CpAsyncWait: {
            size_t keep = static_cast<size_t>(*ir::const_int(c->args[0]));
            // The copies land here, as this thread's writes (racecheck sees them so).
            return [keep, loc](Thread& t) {
                while (t.copy_groups.size() > keep) {
                    for (PendingCopy& p : t.copy_groups.front()) {
                        SharedBuf& buf = t.block->shared[p.shared];
                        for (size_t k = 0; k < p.values.size(); ++k) {
                            if (buf.wgmma_reads[p.at + k]) wgmma_overwrite(t, *p.name, p.at + k, loc);
                            if (t.machine->racecheck) check_write_race(t, buf, p.at + k, *p.name, loc);
                            buf.data[p.at + k] = p.values[k];
                            buf.written[p.at + k] = 1;
                            buf.pending[p.at + k] = 0;
                        }
                    }
                    t.copy_groups.erase(t.copy_groups.begin());
                }
                return Value{0};
            };
        }
        case Builtin::Mma16816:
        case Builtin::LdMatrixX4:
        case Builtin::LdMatrixX4Trans: {
            p_.needs_sync = true;
            bool mma = c->builtin == Builtin::Mma16816;
            std::vector<Ref> refs;
            if (mma) {
                refs = {reference(c->args[0], 4, "mma_16816 accumulators"), reference(c->args[1], 8, "mma_16816 a"),
                        reference(c->args[2], 4, "mma_16816 b")};
            } else {
                refs = {reference(c->args[0], 8, "ldmatrix destination"), reference(c->args[1], 8, "ldmatrix row")};
            }
            WarpOp op;
            op.builtin = c->builtin;
            op.elem = ir::as<ir::Load>(c->args[1])->buffer->elem;
            // ldmatrix reads shared memory: a row no one wrote, or that a cp.async has yet to write.
            std::optional<size_t> shared;
            if (!mma) shared = buffers_.at(ir::as<ir::Load>(c->args[1])->buffer.get()).index;
            std::string name = ir::as<ir::Load>(c->args[1])->buffer->name;
            return [refs, op, loc, shared, name](Thread& t) {
                t.warp_op = op;
                for (size_t r = 0; r < refs.size(); ++r) std::tie(t.warp_op.ref[r], t.warp_op.at[r]) = refs[r](t);
                if (shared)
                    for (int64_t k = t.warp_op.at[1]; k < t.warp_op.at[1] + 8; ++k)
                        check_shared_read(t, t.block->shared[*shared], k, name, loc);
                t.state = ThreadState::AtWarpOp;
                t.wait_loc = loc;
                t.fiber->yield();
                return Value{0};
            };
        }
        default:
            return nullptr;
    }
}

std::string run_warp_op(const std::vector<Thread*>& lanes) {
    const WarpOp& first = lanes[0]->warp_op;
    for (const Thread* t : lanes)
        if (t->warp_op.builtin != first.builtin || t->wait_loc.line != lanes[0]->wait_loc.line ||
            t->wait_loc.col != lanes[0]->wait_loc.col)
            return "lanes of a warp at different tensor-core instructions";
    if (first.builtin == Builtin::SyncWarp) return "";
    if (lanes.size() != 32) return std::string(builtin_info(first.builtin).name) + " needs all 32 lanes of the warp";
    if (first.builtin == Builtin::Mma16816) {
        // m16n8k16, row-major A and column-major B: lane l holds, with g = l / 4 and
        // q = l % 4, A at rows g, g + 8 and columns 2q, 2q + 1 (+ 8), B at rows 2q, 2q + 1
        // (+ 8) of column g, and C, D at rows g, g + 8, columns 2q, 2q + 1.
        float a[16][16], b[16][8], d[16][8];
        for (int l = 0; l < 32; ++l) {
            const WarpOp& w = lanes[l]->warp_op;
            int g = l / 4, q = l % 4;
            for (int e = 0; e < 8; ++e)
                a[g + e / 2 % 2 * 8][2 * q + e % 2 + e / 4 * 8] = to_float((*w.ref[1])[w.at[1] + e], w.elem);
            for (int e = 0; e < 4; ++e) b[2 * q + e % 2 + e / 2 * 8][g] = to_float((*w.ref[2])[w.at[2] + e], w.elem);
            for (int e = 0; e < 4; ++e) d[g + e / 2 * 8][2 * q + e % 2] = (*w.ref[0])[w.at[0] + e].f;
        }
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j < 8; ++j)
                for (int k = 0; k < 16; ++k) d[i][j] += a[i][k] * b[k][j];
        for (int l = 0; l < 32; ++l) {
            const WarpOp& w = lanes[l]->warp_op;
            int g = l / 4, q = l % 4;
            for (int e = 0; e < 4; ++e) (*w.ref[0])[w.at[0] + e].f = d[g + e / 2 * 8][2 * q + e % 2];
        }
        return "";
    }
    // ldmatrix_x4: lane 8m + r gives row r of matrix m (8 contiguous, 16-byte aligned
    // values of shared memory); lane l receives of each matrix m the values at row l / 4,
    // columns 2(l % 4) and 2(l % 4) + 1 (transposed: rows 2(l % 4), 2(l % 4) + 1 of column l / 4).
    bool trans = first.builtin == Builtin::LdMatrixX4Trans;
    for (int l = 0; l < 32; ++l)
        if (lanes[l]->warp_op.at[1] % 8 != 0)
            return fmt::format("misaligned ldmatrix row of lane {}: element offset {} is not a multiple of 8", l,
                               lanes[l]->warp_op.at[1]);
    Value m[4][8][8];
    for (int l = 0; l < 32; ++l) {
        const WarpOp& w = lanes[l]->warp_op;
        for (int c = 0; c < 8; ++c) m[l / 8][l % 8][c] = (*w.ref[1])[w.at[1] + c];
    }
    for (int l = 0; l < 32; ++l) {
        const WarpOp& w = lanes[l]->warp_op;
        for (int k = 0; k < 4; ++k)
            for (int j = 0; j < 2; ++j)
                (*w.ref[0])[w.at[0] + 2 * k + j] = trans ? m[k][2 * (l % 4) + j][l / 4] : m[k][l / 4][2 * (l % 4) + j];
    }
    return "";
}

}  // namespace hds::emu::detail
