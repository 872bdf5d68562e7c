// compile.cpp — IR -> closures for the emulator. Variables become frame
// slots, buffers become indices into the machine's global, block-shared or
// thread-register storage; every access carries its checks and .hds location.
#include <fmt/format.h>

#include <map>
#include <memory>
#include <type_traits>

#include "codegen/cpu/machine.h"
#include "codegen/cpu/values.h"
#include "ir/internal_error.h"

namespace hds::emu {

namespace {

struct BufRef {
    ir::Scope scope;
    size_t index;
    std::vector<int64_t> shape;  // constant shape (shared/register); globals read the machine's
};

std::string format_ids(const Thread& t) {
    return fmt::format("block ({}, {}, {}) thread ({}, {}, {})", t.block->id[0], t.block->id[1], t.block->id[2],
                       t.id[0], t.id[1], t.id[2]);
}

[[noreturn]] void trap(const Thread& t, SourceLoc loc, const std::string& what) {
    throw Trap{loc, what + " in " + format_ids(t)};
}

// Operand readers: a variable's slot, a constant, or any expression. The
// i32 fast paths below are instantiated for each pair, so the common
// `var op constant` index arithmetic needs no nested closure calls.
struct SlotRead {
    size_t s;
    Value operator()(Thread& t) const { return t.stack[t.base + s]; }
};
struct ConstRead {
    Value v;
    Value operator()(Thread&) const { return v; }
};
struct EvalRead {
    Eval e;
    Value operator()(Thread& t) const { return e(t); }
};

template <typename A, typename B>
Eval i32_op(ir::BinOp op, A a, B b) {
    auto u = [](Value v) { return static_cast<uint32_t>(v.i); };
    switch (op) {
        case ir::BinOp::Add:
            return [a, b, u](Thread& t) { return Value{static_cast<int32_t>(u(a(t)) + u(b(t)))}; };
        case ir::BinOp::Sub:
            return [a, b, u](Thread& t) { return Value{static_cast<int32_t>(u(a(t)) - u(b(t)))}; };
        case ir::BinOp::Mul:
            return [a, b, u](Thread& t) { return Value{static_cast<int32_t>(u(a(t)) * u(b(t)))}; };
        case ir::BinOp::Lt:
            return [a, b](Thread& t) { return Value{a(t).i < b(t).i}; };
        case ir::BinOp::Le:
            return [a, b](Thread& t) { return Value{a(t).i <= b(t).i}; };
        case ir::BinOp::Gt:
            return [a, b](Thread& t) { return Value{a(t).i > b(t).i}; };
        case ir::BinOp::Ge:
            return [a, b](Thread& t) { return Value{a(t).i >= b(t).i}; };
        case ir::BinOp::Eq:
            return [a, b](Thread& t) { return Value{a(t).i == b(t).i}; };
        case ir::BinOp::Ne:
            return [a, b](Thread& t) { return Value{a(t).i != b(t).i}; };
        default:
            break;
    }
    if constexpr (std::is_same_v<B, ConstRead>) {  // division by a constant other than 0 and -1
        if (b.v.i != 0 && b.v.i != -1) {
            int64_t d = b.v.i;
            if (op == ir::BinOp::Div) return [a, d](Thread& t) { return Value{a(t).i / d}; };
            if (op == ir::BinOp::Mod) return [a, d](Thread& t) { return Value{a(t).i % d}; };
        }
    }
    return nullptr;
}

class Compiler {
  public:
    Compiler(const ir::Module& m, Program& p) : m_(m), p_(p), next_register_(&p.register_arrays) {}

    void kernel(const ir::Kernel& k) {
        size_t global = 0;
        for (const ir::KernelParam& kp : k.params) {
            if (kp.kind == ir::KernelParam::Kind::Tensor) {
                buffers_[kp.buffer.get()] = {ir::Scope::Global, global++, {}};
            } else {
                p_.scalar_param_slots.push_back(slot(kp.var.get()));
            }
        }
        for (const ir::Var& s : k.sizes) p_.size_slots.push_back(slot(s.get()));
        p_.body = stmt(k.body);
        p_.slots = slots_.size();
    }

  private:
    size_t slot(const ir::VarNode* v) {
        auto it = slots_.find(v);
        if (it != slots_.end()) return it->second;
        size_t s = slots_.size();
        slots_[v] = s;
        return s;
    }

    // ------------------------------------------------------------ expressions
    Eval expr(const ir::Expr& e) {
        switch (e->kind) {
            case ir::ExprKind::IntImm: {
                Value v{ir::as<ir::IntImm>(e)->value};
                return [v](Thread&) { return v; };
            }
            case ir::ExprKind::FloatImm: {
                Value v = from_double(ir::as<ir::FloatImm>(e)->value, e->type);
                return [v](Thread&) { return v; };
            }
            case ir::ExprKind::BoolImm: {
                Value v{ir::as<ir::BoolImm>(e)->value};
                return [v](Thread&) { return v; };
            }
            case ir::ExprKind::Var: {
                size_t s = slot(ir::as<ir::VarNode>(e));
                return [s](Thread& t) { return t.stack[t.base + s]; };
            }
            case ir::ExprKind::SpecialReg:
                return special(ir::as<ir::SpecialReg>(e));
            case ir::ExprKind::Cast: {
                auto* c = ir::as<ir::Cast>(e);
                Eval v = expr(c->value);
                ScalarType from = c->value->type, to = c->type;
                return [v, from, to](Thread& t) { return convert(v(t), from, to); };
            }
            case ir::ExprKind::Unary: {
                auto* u = ir::as<ir::Unary>(e);
                Eval a = expr(u->a);
                ir::UnOp op = u->op;
                ScalarType ty = u->a->type;
                return [a, op, ty](Thread& t) { return apply_unary(op, ty, a(t)); };
            }
            case ir::ExprKind::Binary:
                return binary(ir::as<ir::Binary>(e));
            case ir::ExprKind::Select: {
                auto* s = ir::as<ir::Select>(e);
                Eval c = expr(s->cond), x = expr(s->t), y = expr(s->f);
                return [c, x, y](Thread& t) { return c(t).i ? x(t) : y(t); };
            }
            case ir::ExprKind::Load:
                return load(ir::as<ir::Load>(e));
            case ir::ExprKind::Call:
                return call(ir::as<ir::Call>(e));
        }
        HDS_CHECK(false, "emulator: unknown expression");
        return nullptr;
    }

    Eval special(const ir::SpecialReg* s) {
        int d = s->dim;
        switch (s->which) {
            case ir::SpecialKind::ThreadIdx:
                return [d](Thread& t) { return Value{t.id[d]}; };
            case ir::SpecialKind::BlockIdx:
                return [d](Thread& t) { return Value{t.block->id[d]}; };
            case ir::SpecialKind::BlockDim:
                return [d](Thread& t) { return Value{t.machine->block[d]}; };
            case ir::SpecialKind::GridDim:
                return [d](Thread& t) { return Value{t.machine->grid[d]}; };
        }
        return nullptr;
    }

    // Calls k with the cheapest reader of `e`: its variable's slot, its constant,
    // or its compiled closure `ev`.
    template <typename K>
    auto with_operand(const ir::Expr& e, const Eval& ev, K k) {
        if (auto* v = ir::as<ir::VarNode>(e)) return k(SlotRead{slot(v)});
        if (auto* c = ir::as<ir::IntImm>(e)) return k(ConstRead{Value{c->value}});
        return k(EvalRead{ev});
    }

    Eval binary(const ir::Binary* b) {
        Eval x = expr(b->a), y = expr(b->b);
        ir::BinOp op = b->op;
        ScalarType ty = b->a->type;
        // The common cases of index arithmetic and f32 math, without the generic switch.
        if (ty == ScalarType::I32) {
            Eval fast = with_operand(b->a, x, [&](auto lhs) -> Eval {
                return with_operand(b->b, y, [&](auto rhs) -> Eval { return i32_op(op, lhs, rhs); });
            });
            if (fast) return fast;
            // Left: division by a run-time value, which must check for zero.
            if (op == ir::BinOp::Div || op == ir::BinOp::Mod) {
                SourceLoc loc = loc_;
                bool div = op == ir::BinOp::Div;
                return [x, y, loc, div](Thread& t) {
                    int64_t a = x(t).i, b = y(t).i;
                    if (b == 0) trap(t, loc, "integer division by zero");
                    if (b == -1) return Value{static_cast<int32_t>(div ? 0u - static_cast<uint32_t>(a) : 0u)};
                    return Value{div ? a / b : a % b};
                };
            }
        }
        if (ty == ScalarType::F32) {
            auto make = [](float f) {
                Value r{};
                r.f = f;
                return r;
            };
            switch (op) {
                case ir::BinOp::Add:
                    return [x, y, make](Thread& t) { return make(x(t).f + y(t).f); };
                case ir::BinOp::Sub:
                    return [x, y, make](Thread& t) { return make(x(t).f - y(t).f); };
                case ir::BinOp::Mul:
                    return [x, y, make](Thread& t) { return make(x(t).f * y(t).f); };
                case ir::BinOp::Div:
                    return [x, y, make](Thread& t) { return make(x(t).f / y(t).f); };
                default:
                    break;
            }
        }
        if (op == ir::BinOp::And) return [x, y](Thread& t) { return Value{x(t).i && y(t).i}; };
        if (op == ir::BinOp::Or) return [x, y](Thread& t) { return Value{x(t).i || y(t).i}; };
        SourceLoc loc = loc_;
        return [x, y, op, ty, loc](Thread& t) {
            std::optional<Value> r = apply_binary(op, ty, x(t), y(t));
            if (!r) trap(t, loc, "integer division by zero");
            return *r;
        };
    }

    // Index of an element after bounds checks; `what` is "read" or "write".
    using Indexer = std::function<int64_t(Thread&)>;
    Indexer indexer(const ir::Buffer& b, const std::vector<ir::Expr>& indices, SourceLoc loc, const char* what) {
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
                 fmt::format("out-of-bounds {} of '{}': index {} of dimension {} (size {})", verb, name, shown, d,
                             size));
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

    Eval load(const ir::Load* l) {
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
                return [at, r](Thread& t) { return t.locals[r][at(t)]; };
            }
            case ir::Scope::Shared: {
                size_t s = ref.index;
                return [at, s, name, loc](Thread& t) {
                    int64_t i = at(t);
                    SharedBuf& buf = t.block->shared[s];
                    if (!buf.written[i])
                        trap(t, loc, fmt::format("read of uninitialized shared memory '{}' (element {})", name, i));
                    if (t.machine->racecheck) {
                        if (buf.write_epoch[i] == t.block->epoch && buf.writer[i] != t.linear)
                            trap(t, loc,
                                 fmt::format("shared-memory race on '{}' (element {}): read after a write by "
                                             "thread {} with no syncthreads() between",
                                             name, i, buf.writer[i]));
                        if (buf.read_epoch[i] != t.block->epoch)
                            buf.reader[i] = t.linear;
                        else if (buf.reader[i] != t.linear)
                            buf.reader[i] = -2;
                        buf.read_epoch[i] = t.block->epoch;
                    }
                    return buf.data[i];
                };
            }
        }
        return nullptr;
    }

    // Stores `v` (already converted) through the indexer; applies `op` first.
    Exec store(const ir::Store* st) {
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
                    if (reads && !buf.written[i])
                        trap(t, loc, fmt::format("read of uninitialized shared memory '{}' (element {})", name, i));
                    if (t.machine->racecheck) check_write_race(t, buf, i, name, loc);
                    buf.data[i] = combine(t, buf.data[i], v);
                    buf.written[i] = 1;
                    return Flow::Next;
                };
            }
        }
        return nullptr;
    }

    static void check_write_race(Thread& t, SharedBuf& buf, int64_t i, const std::string& name, SourceLoc loc) {
        int64_t epoch = t.block->epoch;
        if (buf.write_epoch[i] == epoch && buf.writer[i] != t.linear)
            trap(t, loc,
                 fmt::format("shared-memory race on '{}' (element {}): written by thread {} too, with no "
                             "syncthreads() between",
                             name, i, buf.writer[i]));
        if (buf.read_epoch[i] == epoch && buf.reader[i] != t.linear)
            trap(t, loc,
                 fmt::format(
                     "shared-memory race on '{}' (element {}): write after a read by {} with no "
                     "syncthreads() between",
                     name, i,
                     buf.reader[i] == -2 ? std::string("other threads") : "thread " + std::to_string(buf.reader[i])));
        buf.writer[i] = t.linear;
        buf.write_epoch[i] = epoch;
    }

    Eval call(const ir::Call* c) {
        std::vector<Eval> args;
        for (const ir::Expr& a : c->args) args.push_back(expr(a));
        SourceLoc loc = loc_;
        switch (c->builtin) {
            case Builtin::DeviceFn:
                return device_call(c, args);
            case Builtin::SyncThreads:
                p_.needs_sync = true;
                return [loc](Thread& t) {
                    t.state = ThreadState::AtBarrier;
                    t.wait_loc = loc;
                    t.fiber->yield();
                    return Value{0};
                };
            case Builtin::SyncWarp:
                return [](Thread&) { return Value{0}; };  // lanes run in lock-step order
            case Builtin::ShflXor:
            case Builtin::ShflDown:
            case Builtin::ShflUp:
            case Builtin::ShflIdx: {
                p_.needs_sync = true;
                Builtin b = c->builtin;
                Eval v = args[0], n = args[1];
                return [b, v, n, loc](Thread& t) {
                    int lane = t.linear % 32;
                    int arg = static_cast<int>(n(t).i);
                    int src = b == Builtin::ShflXor    ? lane ^ arg
                              : b == Builtin::ShflDown ? lane + arg
                              : b == Builtin::ShflUp   ? lane - arg
                                                       : arg % 32;
                    t.shfl_value = v(t);
                    t.shfl_src = src < 0 || src > 31 ? lane : src;
                    t.state = ThreadState::AtShuffle;
                    t.wait_loc = loc;
                    t.fiber->yield();
                    return t.shfl_result;
                };
            }
            case Builtin::AtomicAdd:
            case Builtin::AtomicMax:
            case Builtin::AtomicMin:
                return atomic(c, args[1]);
            case Builtin::Mma16816:
            case Builtin::LdMatrixX4:
            case Builtin::LdMatrixX4Trans:
            case Builtin::CpAsync16:
            case Builtin::CpAsyncCommit:
            case Builtin::CpAsyncWait: {
                std::string what = std::string("the tensor-core built-in '") + builtin_info(c->builtin).name +
                                   "' is not emulated (run it on a GPU)";
                return [loc, what](Thread& t) -> Value { trap(t, loc, what); };
            }
            default: {
                Builtin b = c->builtin;
                ScalarType ty = c->type;
                if (args.size() == 1) {
                    Eval a0 = args[0];
                    return [a0, b, ty](Thread& t) {
                        Value v = a0(t);
                        return apply_math(b, ty, &v);
                    };
                }
                return [args, b, ty](Thread& t) {
                    Value v[3];
                    for (size_t i = 0; i < args.size(); ++i) v[i] = args[i](t);
                    return apply_math(b, ty, v);
                };
            }
        }
    }

    // Threads of a block run one at a time, so an atomic is a read-modify-write.
    Eval atomic(const ir::Call* c, Eval value) {
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

    Eval device_call(const ir::Call* c, const std::vector<Eval>& args) {
        std::shared_ptr<Program> fn = function(c->function);
        return [fn, args](Thread& t) {
            size_t base = t.stack.size();
            std::vector<Value> values;
            values.reserve(args.size());
            for (const Eval& a : args) values.push_back(a(t));
            t.stack.resize(base + fn->slots);
            for (size_t i = 0; i < values.size(); ++i) t.stack[base + fn->param_slots[i]] = values[i];
            size_t saved = t.base;
            t.base = base;
            fn->body(t);
            t.base = saved;
            t.stack.resize(base);
            return t.ret;
        };
    }

    std::shared_ptr<Program> function(const std::string& name) {
        auto it = functions_.find(name);
        if (it != functions_.end()) return it->second;
        auto fn = std::make_shared<Program>();
        functions_[name] = fn;  // before compiling the body: recursion finds it
        for (const ir::DeviceFunction& f : m_.functions) {
            if (f.name != name) continue;
            Compiler sub(m_, *fn);
            sub.functions_ = functions_;
            sub.next_register_ = next_register_;  // register arrays are numbered per thread
            for (const ir::Var& p : f.params) fn->param_slots.push_back(sub.slot(p.get()));
            fn->body = sub.stmt(f.body);
            fn->slots = sub.slots_.size();
            p_.needs_sync |= fn->needs_sync;
            return fn;
        }
        HDS_CHECK(false, "emulator: unknown device function " + name);
        return nullptr;
    }

    // ------------------------------------------------------------ statements
    Exec stmt(const ir::Stmt& s) {
        if (s->loc.valid()) loc_ = s->loc;
        switch (s->kind) {
            case ir::StmtKind::Decl: {
                auto* d = ir::as<ir::Decl>(s);
                Eval init = expr(d->init);
                size_t sl = slot(d->var.get());
                return [init, sl](Thread& t) {
                    t.stack[t.base + sl] = init(t);
                    return Flow::Next;
                };
            }
            case ir::StmtKind::Assign: {
                auto* a = ir::as<ir::Assign>(s);
                Eval v = expr(a->value);
                size_t sl = slot(a->var.get());
                if (!a->op)
                    return [v, sl](Thread& t) {
                        t.stack[t.base + sl] = v(t);
                        return Flow::Next;
                    };
                ir::BinOp op = *a->op;
                ScalarType ty = a->var->type;
                SourceLoc loc = loc_;
                if (ty == ScalarType::F32 && op == ir::BinOp::Add)
                    return [v, sl](Thread& t) {
                        float add = v(t).f;
                        t.stack[t.base + sl].f += add;
                        return Flow::Next;
                    };
                return [v, sl, op, ty, loc](Thread& t) {
                    Value& x = t.stack[t.base + sl];
                    std::optional<Value> r = apply_binary(op, ty, x, v(t));
                    if (!r) trap(t, loc, "integer division by zero");
                    x = *r;
                    return Flow::Next;
                };
            }
            case ir::StmtKind::Store:
                return store(ir::as<ir::Store>(s));
            case ir::StmtKind::Alloc:
                return alloc(ir::as<ir::Alloc>(s));
            case ir::StmtKind::For:
                return for_loop(ir::as<ir::For>(s));
            case ir::StmtKind::If: {
                auto* i = ir::as<ir::If>(s);
                Eval c = expr(i->cond);
                Exec then_s = stmt(i->then_s);
                Exec else_s = i->else_s ? stmt(i->else_s) : Exec();
                if (!else_s) return [c, then_s](Thread& t) { return c(t).i ? then_s(t) : Flow::Next; };
                return [c, then_s, else_s](Thread& t) { return c(t).i ? then_s(t) : else_s(t); };
            }
            case ir::StmtKind::Block: {
                std::vector<Exec> body;
                for (const ir::Stmt& x : ir::as<ir::Block>(s)->stmts) body.push_back(stmt(x));
                return [body](Thread& t) {
                    for (const Exec& e : body) {
                        Flow f = e(t);
                        if (f != Flow::Next) return f;
                    }
                    return Flow::Next;
                };
            }
            case ir::StmtKind::Evaluate: {
                Eval v = expr(ir::as<ir::Evaluate>(s)->value);
                return [v](Thread& t) {
                    v(t);
                    return Flow::Next;
                };
            }
            case ir::StmtKind::Return: {
                auto* r = ir::as<ir::Return>(s);
                if (!r->value) return [](Thread&) { return Flow::Return; };
                Eval v = expr(r->value);
                return [v](Thread& t) {
                    t.ret = v(t);
                    return Flow::Return;
                };
            }
            case ir::StmtKind::Break:
                return [](Thread&) { return Flow::Break; };
            case ir::StmtKind::Continue:
                return [](Thread&) { return Flow::Continue; };
            case ir::StmtKind::MapFor:
                HDS_CHECK(false, "emulator: task mapping not lowered");
        }
        return nullptr;
    }

    Exec alloc(const ir::Alloc* a) {
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
        return [r, n](Thread& t) {
            if (t.locals.size() <= r) t.locals.resize(r + 1);
            t.locals[r].assign(static_cast<size_t>(n), Value{0});
            return Flow::Next;
        };
    }

    Exec for_loop(const ir::For* f) {
        Eval lo = expr(f->lo), hi = expr(f->hi), step = expr(f->step);
        size_t sl = slot(f->var.get());
        Exec body = stmt(f->body);
        ScalarType ty = f->var->type;
        if (ty == ScalarType::I32)
            return [lo, hi, step, sl, body](Thread& t) {
                for (int64_t i = lo(t).i; i < hi(t).i;
                     i = static_cast<int32_t>(static_cast<uint32_t>(i) + static_cast<uint32_t>(step(t).i))) {
                    t.stack[t.base + sl] = Value{i};
                    Flow fl = body(t);
                    if (fl == Flow::Break) break;
                    if (fl == Flow::Return) return fl;
                }
                return Flow::Next;
            };
        bool u = is_unsigned_int(ty);
        return [lo, hi, step, sl, body, ty, u](Thread& t) {
            // Like the emitted C loop: the bound and step are evaluated every iteration.
            for (int64_t i = lo(t).i;;
                 i = wrap_int(static_cast<int64_t>(static_cast<uint64_t>(i) + static_cast<uint64_t>(step(t).i)), ty)) {
                int64_t end = hi(t).i;
                if (u ? static_cast<uint64_t>(i) >= static_cast<uint64_t>(end) : i >= end) break;
                t.stack[t.base + sl] = Value{i};
                Flow fl = body(t);
                if (fl == Flow::Break) break;
                if (fl == Flow::Return) return fl;
            }
            return Flow::Next;
        };
    }

    const ir::Module& m_;
    Program& p_;
    std::map<const ir::VarNode*, size_t> slots_;
    std::map<const ir::BufferNode*, BufRef> buffers_;
    std::map<std::string, std::shared_ptr<Program>> functions_;
    SourceLoc loc_;
    size_t* next_register_;
};

}  // namespace

Program compile_kernel(const ir::Module& m, const ir::Kernel& k) {
    Program p;
    Compiler c(m, p);
    c.kernel(k);
    return p;
}

}  // namespace hds::emu
