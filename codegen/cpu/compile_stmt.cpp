// compile_stmt.cpp — the emulator's compiler (compiler.h): statements, loops,
// device functions.
#include "codegen/cpu/compiler.h"

namespace hds::emu::detail {

Eval Compiler::device_call(const ir::Call* c, const std::vector<Eval>& args) {
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

std::shared_ptr<Program> Compiler::function(const std::string& name) {
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

Exec Compiler::stmt(const ir::Stmt& s) {
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

Exec Compiler::for_loop(const ir::For* f) {
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

}  // namespace hds::emu::detail
