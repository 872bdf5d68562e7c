// compile.cpp — the emulator's compiler (compiler.h): kernels and expressions.
#include <type_traits>

#include "codegen/cpu/compiler.h"
#include "codegen/cpu/hopper_runtime.h"

namespace hds::emu {

namespace detail {

std::string format_ids(const Thread& t) {
    return fmt::format("block ({}, {}, {}) thread ({}, {}, {})", t.block->id[0], t.block->id[1], t.block->id[2],
                       t.id[0], t.id[1], t.id[2]);
}

[[noreturn]] void trap(const Thread& t, SourceLoc loc, const std::string& what) {
    throw Trap{loc, what + " in " + format_ids(t)};
}

namespace {

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

}  // namespace

void Compiler::kernel(const ir::Kernel& k) {
    size_t global = 0;
    for (const ir::KernelParam& kp : k.params) {
        if (kp.kind == ir::KernelParam::Kind::Tensor) {
            buffers_[kp.buffer.get()] = {ir::Scope::Global, global++, {}};
        } else {
            p_.scalar_param_slots.push_back(slot(kp.var.get()));
        }
    }
    for (const ir::Var& s : k.sizes) p_.size_slots.push_back(slot(s.get()));
    find_wgmma_registers(k.body);
    p_.body = stmt(k.body);
    p_.slots = slots_.size();
}

size_t Compiler::slot(const ir::VarNode* v) {
    auto it = slots_.find(v);
    if (it != slots_.end()) return it->second;
    size_t s = slots_.size();
    slots_[v] = s;
    return s;
}

Eval Compiler::expr(const ir::Expr& e) {
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

Eval Compiler::special(const ir::SpecialReg* s) {
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

Eval Compiler::binary(const ir::Binary* b) {
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

Eval Compiler::call(const ir::Call* c) {
    std::vector<Eval> args;
    for (const ir::Expr& a : c->args) args.push_back(expr(a));
    SourceLoc loc = loc_;
    if (ir::copy_bytes(*c) > 0) return copy(c);
    if (Eval e = tensor_core(c)) return e;
    if (Eval e = hopper(c)) return e;
    if (c->builtin != Builtin::DeviceFn && builtin_min_arch(c->builtin) > 0) {
        std::string what = std::string("the ") + (builtin_min_arch(c->builtin) >= 90 ? "sm_90" : "tensor-core") +
                           " built-in '" + builtin_info(c->builtin).name + "' is not emulated (run it on a GPU)";
        return [loc, what](Thread& t) -> Value { trap(t, loc, what); };
    }
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
        case Builtin::BarrierSync:
        case Builtin::BarrierArrive: {
            p_.needs_sync = true;
            p_.uses_mbarriers = true;  // (racecheck orders accesses through them as through mbarriers)
            bool wait = c->builtin == Builtin::BarrierSync;
            Eval id_of = args[0];
            int64_t threads = *ir::const_int(c->args[1]);
            return [=](Thread& t) {
                int64_t id = id_of(t).i;
                if (id < 1 || id > 15)
                    trap(t, loc, fmt::format("named barrier id {}: it must be 1 to 15 (0 is syncthreads')", id));
                int64_t phase = named_barrier_arrive(t, id, threads, loc);
                if (wait) mbarrier_wait_phase(t, {kNamedBarrier, id}, static_cast<int>(phase % 2), loc);
                return Value{0};
            };
        }
        case Builtin::SyncWarp:  // a barrier of the warp's lanes (their shared-memory writes seen after it)
            p_.needs_sync = true;
            return [loc](Thread& t) {
                t.warp_op = WarpOp{};
                t.warp_op.builtin = Builtin::SyncWarp;
                t.state = ThreadState::AtWarpOp;
                t.wait_loc = loc;
                t.fiber->yield();
                return Value{0};
            };
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

}  // namespace detail

Program compile_kernel(const ir::Module& m, const ir::Kernel& k) {
    Program p;
    detail::Compiler c(m, p);
    c.kernel(k);
    return p;
}

}  // namespace hds::emu
