// sema_tensor_core.cpp — checks of the tensor-core built-ins (mma.sync,
// ldmatrix, cp.async): which arguments are element references into which
// memory, and their element types.
#include "frontend/sema.h"
#include "ir/builtins.h"

namespace hds {

namespace {

struct Operand {
    MemSpace space;        // MemSpace::None: a value, not a reference
    const char* elem;      // "f32", "half" (f16 or bf16), "same" (as argument 2), "int"
    bool written = false;  // the built-in stores through it
    const char* what;      // for the error message
};

std::vector<Operand> operands(Builtin b) {
    switch (b) {
        case Builtin::Mma16816:
            return {{MemSpace::Register, "f32", true, "an f32 register element (4 accumulators)"},
                    {MemSpace::Register, "half", false, "an f16 or bf16 register element (8 values of A)"},
                    {MemSpace::Register, "same", false, "a register element of A's type (4 values of B)"}};
        case Builtin::LdMatrixX4:
        case Builtin::LdMatrixX4Trans:
            return {{MemSpace::Register, "half", true, "an f16 or bf16 register element (8 values)"},
                    {MemSpace::Shared, "same", false, "a shared element of the same type (this lane's row)"}};
        case Builtin::CpAsync16:
            return {{MemSpace::Shared, "any", true, "a shared element (16-byte aligned)"},
                    {MemSpace::Global, "same", false, "a global element of the same type (16-byte aligned)"},
                    {MemSpace::None, "int", false, "an integer byte count (0 to 16)"}};
        case Builtin::CpAsyncWait:
            return {{MemSpace::None, "const", false, "a constant number of groups"}};
        default:
            return {};
    }
}

}  // namespace

SemaType Sema::check_tensor_core_call(CallExpr& e, const BuiltinInfo& b) {
    std::vector<Operand> ops = operands(b.id);
    std::optional<ScalarType> first;                       // the type "same" refers to, once an operand gave it
    size_t reference = b.id == Builtin::Mma16816 ? 1 : 0;  // the operand that gives it
    bool ok = true;
    for (size_t i = 0; i < ops.size(); ++i) {
        Expr& a = *e.args[i].value;
        const Operand& op = ops[i];
        auto fail = [&] {
            diags_.error(DiagId::tensor_core_operand, a.range, i + 1, b.name, op.what);
            ok = false;
        };
        if (op.space == MemSpace::None) {
            if (std::string(op.elem) == "const") {
                auto v = check_const_int(a, "the number of groups");
                if (v && (*v < 0 || *v > 7)) fail();
                if (!v) ok = false;
            } else if (!check_int(a, "a byte count")) {
                ok = false;
            } else {
                coerce(a, ScalarType::I32);
            }
            continue;
        }
        SemaType t = check_expr(a);
        if (t.is_error()) {
            ok = false;
            continue;
        }
        const IndexExpr* idx = a.kind == ExprKind::Index ? &as<IndexExpr>(a) : nullptr;
        const NameExpr* base = idx && idx->base->kind == ExprKind::Name ? &as<NameExpr>(*idx->base) : nullptr;
        Symbol* s = base ? base->symbol : nullptr;
        if (!s || s->kind != Symbol::Kind::Tensor || s->tensor.space != op.space) {
            fail();
            continue;
        }
        ScalarType elem = s->tensor.elem;
        std::string want = op.elem;
        bool type_ok = want == "any" || (want == "f32" && elem == ScalarType::F32) ||
                       (want == "half" && (elem == ScalarType::F16 || elem == ScalarType::BF16)) ||
                       (want == "same" && (!first || elem == *first));  // no cascade after an error
        if (!type_ok) {
            fail();
            continue;
        }
        if (i == reference) first = elem;
        if (op.written) s->written = true;
    }
    return ok ? SemaType::void_type() : SemaType::error();
}

}  // namespace hds
