// narrow_half_arith.cpp — `cast<f16>(cast<f32>(a) op cast<f32>(b))` for f16 values
// a and b and op + or -, as the graph layer writes f16 arithmetic (computed in f32,
// rounded once), becomes `a op b` in f16: one correctly rounded f16 instruction
// (__hadd, __hsub) instead of two conversions, the f32 operation and a rounding.
// The result is the same bit for bit: f32 carries 24 bits, more than the 2 x 11 + 1
// that makes rounding the exact result first to f32 and then to f16 the same as
// rounding it to f16 once (Figueroa, "When is double rounding innocuous?", 1995).
// Products stay in f32: nvcc may contract an f16 multiply and a following f16 add
// into one fma (one rounding instead of two), which would change the bits; an add
// of a product rounded through f32 cannot be contracted. bf16 is left alone: its
// arithmetic is not an instruction everywhere.
#include "ir/ir_mutator.h"
#include "ir/passes/passes.h"

namespace hds::ir {

namespace {

// `x` when e is cast<f32>(x) of an f16 value, else null.
Expr widened_half(const Expr& e) {
    auto* c = as<Cast>(e);
    return c && c->type == ScalarType::F32 && c->value->type == ScalarType::F16 ? c->value : nullptr;
}

class NarrowHalfArith : public IRMutator {
  protected:
    Expr visit(const Cast* op, const Expr& self) override {
        Expr inner = mutate(op->value);
        auto* b = as<Binary>(inner);
        if (op->type == ScalarType::F16 && b && b->type == ScalarType::F32 &&
            (b->op == BinOp::Add || b->op == BinOp::Sub)) {
            Expr x = widened_half(b->a), y = widened_half(b->b);
            if (x && y) return Binary::make(b->op, x, y);
        }
        return inner == op->value ? self : Cast::make(op->type, inner);
    }
};

}  // namespace

Stmt narrow_half_arith(const Stmt& body) {
    return NarrowHalfArith().mutate(body);
}

}  // namespace hds::ir
