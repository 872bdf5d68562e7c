// compile_memory.cpp — the emulator's compiler (compiler.h): buffers, bounds-
// checked indexing, loads, stores (with race and initialization tracking),
// atomics, local arrays.
#include <algorithm>

#include "codegen/cpu/compiler.h"
#include "codegen/cpu/hopper_runtime.h"

namespace hds::emu::detail {

Compiler::Indexer Compiler::indexer(const ir::Buffer& b, const std::vector<ir::Expr>& indices, SourceLoc loc,
                                    const char* what) {
    auto it = buffers_.find(b.get());
    HDS_CHECK(it != buffers_.end(), "emulator: unknown buffer " + b->name);
    BufRef ref = it->second;
    std::vector<Eval> idx;
    for (const ir::Expr& i : indices) idx.push_back(expr(i));
    std::string name = b->name, verb = what;
    bool any_unsigned = false;
    for (const ir::Expr& i : indices) any_unsigned |= is_unsigned_int(i->type);
    // Indices compare as unsigned: a negative signed index is out of range too.
    auto fail = [name, verb, loc, any_unsigned](Thread& t, int64_t i, size_t d, int64_t size) {
        std::string shown = any_unsigned ? std::to_string(static_cast<uint64_t>(i)) : std::to_string(i);
        trap(t, loc,
             fmt::format("out-of-bounds {} of '{}': index {} of dimension {} (size {})", verb, name, shown, d, size));
    };
    bool global = ref.scope == ir::Scope::Global;
    if (!global && indices.size() <= 2) {
        // Shared and register arrays have constant shapes: the dimensions and
        // variable or constant indices are read without further calls.
        int64_t d0 = ref.shape[0];
        if (indices.size() == 1)
            return with_operand(indices[0], idx[0], [&](auto a) -> Indexer {
                return [a, d0, fail](Thread& t) {
                    int64_t i = a(t).i;
                    if (static_cast<uint64_t>(i) >= static_cast<uint64_t>(d0)) fail(t, i, 0, d0);
                    return i;
                };
            });
        int64_t d1 = ref.shape[1];
        return with_operand(indices[0], idx[0], [&](auto a) -> Indexer {
            return with_operand(indices[1], idx[1], [&](auto b) -> Indexer {
                return [a, b, d0, d1, fail](Thread& t) {
                    int64_t i = a(t).i, j = b(t).i;
                    if (static_cast<uint64_t>(i) >= static_cast<uint64_t>(d0)) fail(t, i, 0, d0);
                    if (static_cast<uint64_t>(j) >= static_cast<uint64_t>(d1)) fail(t, j, 1, d1);
                    return i * d1 + j;
                };
            });
        });
    }
    if (idx.size() == 1) {
        Eval i0 = idx[0];
        return [ref, i0, fail, global](Thread& t) {
            const std::vector<int64_t>& shape = global ? t.machine->globals[ref.index].shape : ref.shape;
            int64_t i = i0(t).i;
            if (static_cast<uint64_t>(i) >= static_cast<uint64_t>(shape[0])) fail(t, i, 0, shape[0]);
            return i;
        };
    }
    if (idx.size() == 2) {
        Eval i0 = idx[0], i1 = idx[1];
        return [ref, i0, i1, fail, global](Thread& t) {
            const std::vector<int64_t>& shape = global ? t.machine->globals[ref.index].shape : ref.shape;
            int64_t i = i0(t).i, j = i1(t).i;
            if (static_cast<uint64_t>(i) >= static_cast<uint64_t>(shape[0])) fail(t, i, 0, shape[0]);
            if (static_cast<uint64_t>(j) >= static_cast<uint64_t>(shape[1])) fail(t, j, 1, shape[1]);
            return i * shape[1] + j;
        };
    }
    return [ref, idx, fail, global](Thread& t) {
        const std::vector<int64_t>& shape = global ? t.machine->globals[ref.index].shape : ref.shape;
        int64_t linear = 0;
        for (size_t d = 0; d < idx.size(); ++d) {
            int64_t i = idx[d](t).i;
            if (static_cast<uint64_t>(i) >= static_cast<uint64_t>(shape[d])) fail(t, i, d, shape[d]);
            linear = linear * shape[d] + i;
        }
        return linear;
    };
}

Eval Compiler::load(const ir::Load* l) {
    Indexer at = indexer(l->buffer, l->indices, l->loc, "read");
    BufRef ref = buffers_.at(l->buffer.get());
    std::string name = l->buffer->name;
    SourceLoc loc = l->loc;
    switch (ref.scope) {
        case ir::Scope::Global: {
            size_t g = ref.index;
            return [at, g](Thread& t) { return t.machine->globals[g].data[at(t)]; };
        }
        case ir::Scope::Register: {
            size_t r = ref.index;
            if (wgmma_registers_.count(l->buffer.get()))  // not while a wgmma writes it
                return [at, r, name, loc](Thread& t) {
                    int64_t i = at(t);
                    if (!t.holds.empty()) check_register_hold(t, r, i, false, name, loc);
                    return t.locals[r][i];
                };
            return [at, r](Thread& t) { return t.locals[r][at(t)]; };
        }
        case ir::Scope::Shared: {
            size_t s = ref.index;
            return [at, s, name, loc](Thread& t) {
                int64_t i = at(t);
                SharedBuf& buf = t.block->shared[s];
                check_shared_read(t, buf, i, name, loc);
                if (t.machine->racecheck) {
                    if (buf.write_epoch[i] == t.block->epoch && buf.writer[i] != t.linear &&
                        !warp_ordered(t, buf.writer[i] / 32, buf.write_sync[i]) &&
                        !clock_ordered(t, buf.writer[i], buf.write_clock[i]))
                        trap(t, loc,
                             fmt::format("shared-memory race on '{}' (element {}): read after a write by "
                                         "thread {} with no syncthreads() between",
                                         name, i, buf.writer[i]));
                    int32_t warp = t.linear / 32;
                    int64_t syncs = t.block->warp_syncs[warp];
                    if (buf.read_epoch[i] != t.block->epoch || clock_ordered(t, buf.reader[i], buf.read_clock[i])) {
                        buf.reader[i] = t.linear;
                        buf.read_clock[i] = t.vc.empty() ? 0 : t.vc[t.linear];
                        buf.read_warp[i] = warp;
                        buf.read_sync[i] = syncs;
                    } else {
                        if (buf.reader[i] != t.linear) buf.reader[i] = -2;
                        if (buf.read_warp[i] != warp) buf.read_warp[i] = -1;
                        buf.read_sync[i] = std::max(buf.read_sync[i], syncs);
                    }
                    buf.read_epoch[i] = t.block->epoch;
                }
                return buf.data[i];
            };
        }
    }
    return nullptr;
}

Exec Compiler::store(const ir::Store* st) {
    Indexer at = indexer(st->buffer, st->indices, st->loc, "write");
    BufRef ref = buffers_.at(st->buffer.get());
    Eval value = expr(st->value);
    std::optional<ir::BinOp> op = st->op;
    ScalarType ty = st->buffer->elem;
    std::string name = st->buffer->name;
    SourceLoc loc = st->loc;
    bool f32_add = op == ir::BinOp::Add && ty == ScalarType::F32;
    auto combine = [op, ty, loc, f32_add](Thread& t, Value old, Value v) {
        if (!op) return v;
        if (f32_add) {
            old.f += v.f;
            return old;
        }
        std::optional<Value> r = apply_binary(*op, ty, old, v);
        if (!r) trap(t, loc, "integer division by zero");
        return *r;
    };
    switch (ref.scope) {
        case ir::Scope::Global: {
            size_t g = ref.index;
            return [at, g, value, combine](Thread& t) {
                int64_t i = at(t);
                Value v = value(t);
                Value& slot = t.machine->globals[g].data[i];
                slot = combine(t, slot, v);
                return Flow::Next;
            };
        }
        case ir::Scope::Register: {
            size_t r = ref.index;
            if (wgmma_registers_.count(st->buffer.get()))  // checked against pending wgmma; wgmma_fence's range
                return [at, r, value, combine, name, loc](Thread& t) {
                    int64_t i = at(t);
                    Value v = value(t);
                    if (!t.holds.empty()) check_register_hold(t, r, i, true, name, loc);
                    if (t.unfenced.size() <= r) t.unfenced.resize(r + 1, {0, 0});
                    auto& [lo, hi] = t.unfenced[r];
                    if (lo == hi) lo = i, hi = i + 1;
                    lo = std::min(lo, i), hi = std::max(hi, i + 1);
                    Value& slot = t.locals[r][i];
                    slot = combine(t, slot, v);
                    return Flow::Next;
                };
            return [at, r, value, combine](Thread& t) {
                int64_t i = at(t);
                Value v = value(t);
                Value& slot = t.locals[r][i];
                slot = combine(t, slot, v);
                return Flow::Next;
            };
        }
        case ir::Scope::Shared: {
            size_t s = ref.index;
            bool reads = op.has_value();
            return [at, s, value, combine, name, loc, reads](Thread& t) {
                int64_t i = at(t);
                Value v = value(t);
                SharedBuf& buf = t.block->shared[s];
                if (reads) check_shared_read(t, buf, i, name, loc);
                if (buf.wgmma_reads[i]) wgmma_overwrite(t, name, i, loc);
                if (t.machine->racecheck) check_write_race(t, buf, i, name, loc);
                buf.data[i] = combine(t, buf.data[i], v);
                buf.written[i] = 1;
                return Flow::Next;
            };
        }
    }
    return nullptr;
}

std::vector<Value>& storage(Thread& t, const BufRef& r) {
    return r.scope == ir::Scope::Global   ? t.machine->globals[r.index].data
           : r.scope == ir::Scope::Shared ? t.block->shared[r.index].data
                                          : t.locals[r.index];
}

void Compiler::check_shared_read(const Thread& t, const SharedBuf& buf, int64_t i, const std::string& name,
                                 SourceLoc loc) {
    if (buf.pending[i])
        trap(t, loc,
             fmt::format("read of '{}' (element {}) before the {} that writes it has landed ({})", name, i,
                         buf.pending[i] == kPendingTma ? "TMA copy" : "cp.async",
                         buf.pending[i] == kPendingTma ? "the phase of its mbarrier has not completed"
                                                       : "no cp_async_wait covers its group"));
    if (!buf.written[i]) trap(t, loc, fmt::format("read of uninitialized shared memory '{}' (element {})", name, i));
}

bool Compiler::warp_ordered(const Thread& t, int32_t warp, int64_t sync) {
    return warp == t.linear / 32 && t.block->warp_syncs[warp] > sync;
}

bool Compiler::clock_ordered(const Thread& t, int32_t thread, int32_t clock) {
    return !t.vc.empty() && thread >= 0 && clock > 0 && clock <= t.vc[thread];
}

void Compiler::check_write_race(Thread& t, SharedBuf& buf, int64_t i, const std::string& name, SourceLoc loc) {
    int64_t epoch = t.block->epoch;
    if (buf.write_epoch[i] == epoch && buf.writer[i] != t.linear &&
        !warp_ordered(t, buf.writer[i] / 32, buf.write_sync[i]) && !clock_ordered(t, buf.writer[i], buf.write_clock[i]))
        trap(t, loc,
             fmt::format("shared-memory race on '{}' (element {}): written by thread {} too, with no "
                         "syncthreads() between",
                         name, i, buf.writer[i]));
    if (buf.read_epoch[i] == epoch && buf.reader[i] != t.linear &&
        !warp_ordered(t, buf.read_warp[i], buf.read_sync[i]) && !clock_ordered(t, buf.reader[i], buf.read_clock[i]))
        trap(t, loc,
             fmt::format(
                 "shared-memory race on '{}' (element {}): write after a read by {} with no "
                 "syncthreads() between",
                 name, i,
                 buf.reader[i] == -2 ? std::string("other threads") : "thread " + std::to_string(buf.reader[i])));
    buf.writer[i] = t.linear;
    buf.write_epoch[i] = epoch;
    buf.write_clock[i] = t.vc.empty() ? 0 : t.vc[t.linear];
    buf.write_sync[i] = t.block->warp_syncs[t.linear / 32];
}

Eval Compiler::atomic(const ir::Call* c, Eval value) {
    auto* target = ir::as<ir::Load>(c->args[0]);
    Indexer at = indexer(target->buffer, target->indices, target->loc, "atomic update");
    BufRef ref = buffers_.at(target->buffer.get());
    ScalarType ty = target->buffer->elem;
    Builtin b = c->builtin;
    return [at, ref, value, ty, b](Thread& t) {
        int64_t i = at(t);
        Value v = value(t);
        Value* slot = ref.scope == ir::Scope::Global ? &t.machine->globals[ref.index].data[i]
                                                     : &t.block->shared[ref.index].data[i];
        if (ref.scope == ir::Scope::Shared) t.block->shared[ref.index].written[i] = 1;
        Value old = *slot;
        if (b == Builtin::AtomicAdd)
            *slot = *apply_binary(ir::BinOp::Add, ty, old, v);
        else {
            Value args[2] = {old, v};
            *slot = apply_math(b == Builtin::AtomicMax ? Builtin::Max : Builtin::Min, ty, args);
        }
        return old;
    };
}

Eval Compiler::copy(const ir::Call* c) {
    auto* dst = ir::as<ir::Load>(c->args[0]);
    auto* src = ir::as<ir::Load>(c->args[1]);
    const char* name = builtin_info(c->builtin).name;
    Indexer at_dst = indexer(dst->buffer, dst->indices, dst->loc, "copy destination");
    Indexer at_src = indexer(src->buffer, src->indices, src->loc, "copy source");
    // copy_vec4's four elements lie in one row of each: its last element's indices are in bounds.
    Indexer last_dst, last_src;
    if (c->builtin == Builtin::CopyVec4) {
        auto last = [](std::vector<ir::Expr> at) {
            at.back() = ir::add(at.back(), ir::i32(3));
            return at;
        };
        last_dst = indexer(dst->buffer, last(dst->indices), dst->loc, "copy_vec4 destination (its fourth element)");
        last_src = indexer(src->buffer, last(src->indices), src->loc, "copy_vec4 source (its fourth element)");
    }
    BufRef to = buffers_.at(dst->buffer.get()), from = buffers_.at(src->buffer.get());
    int bytes = ir::copy_bytes(*c);
    int64_t n = std::max(1, bytes / byte_size(dst->buffer->elem));
    SourceLoc loc = loc_;
    return [=](Thread& t) -> Value {
        int64_t i = at_dst(t), j = at_src(t);
        if (last_dst) last_dst(t), last_src(t);
        // Buffers start 16-byte aligned, so an access is aligned when its element offset is.
        if (i % n != 0 || j % n != 0)
            trap(t, loc,
                 fmt::format("misaligned {}: element offsets {} and {} must be multiples of {}", name, i, j, n));
        std::vector<Value>& d = storage(t, to);
        std::vector<Value>& s = storage(t, from);
        if (i + n > static_cast<int64_t>(d.size()) || j + n > static_cast<int64_t>(s.size()))
            trap(t, loc, fmt::format("out-of-bounds {}: {} elements from offsets {} and {}", name, n, i, j));
        for (int64_t k = 0; k < n; ++k) {
            d[i + k] = s[j + k];
            if (to.scope == ir::Scope::Shared) t.block->shared[to.index].written[i + k] = 1;
        }
        return Value{0};
    };
}

Exec Compiler::alloc(const ir::Alloc* a) {
    std::vector<int64_t> shape;
    for (const ir::Expr& d : a->buffer->shape) shape.push_back(*ir::const_int(d));
    int64_t n = a->buffer->constant_elements();
    if (a->buffer->scope == ir::Scope::Shared) {
        // Shared arrays live per block; the declaration itself does nothing.
        buffers_[a->buffer.get()] = {ir::Scope::Shared, p_.shared_shapes.size(), shape};
        p_.shared_shapes.push_back(shape);
        p_.shared_types.push_back(a->buffer->elem);
        p_.shared_names.push_back(a->buffer->name);
        return [](Thread&) { return Flow::Next; };
    }
    size_t r = (*next_register_)++;
    buffers_[a->buffer.get()] = {ir::Scope::Register, r, shape};
    // The thread's arrays are made all at once (the count is final when the kernel runs): a
    // wgmma in flight holds a pointer to its accumulators' array, which growing `locals` would
    // move (an array declared between a wgmma and its wait crashed the emulator).
    const size_t* arrays = next_register_;
    return [r, n, arrays](Thread& t) {
        if (t.locals.size() <= r) t.locals.resize(std::max(r + 1, *arrays));
        t.locals[r].assign(static_cast<size_t>(n), Value{0});
        return Flow::Next;
    };
}

}  // namespace hds::emu::detail
