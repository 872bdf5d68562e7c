// cuda_expr.cpp — CUDA spellings of casts, built-ins, loads and literals.
#include "codegen/cuda/cuda_expr.h"

#include <fmt/format.h>

#include "codegen/cuda/cuda_names.h"
#include "codegen/cuda/hopper_emit.h"
#include "graph/decisions.h"

namespace hds::codegen {

namespace {
bool is_half(ScalarType t) {
    return t == ScalarType::F16 || t == ScalarType::BF16;
}

// The CUDA function for a math built-in on type t ("expf", "exp", "hds::exp").
std::string math_name(Builtin b, ScalarType t) {
    std::string base = builtin_info(b).name;
    if (is_int(t)) {
        if (b == Builtin::Abs) return t == ScalarType::I64 ? "llabs" : "abs";
        return base;  // min / max have integer overloads in CUDA
    }
    bool hds_only = b == Builtin::Gelu || b == Builtin::Sigmoid || b == Builtin::Exp2Fast;  // hds/math.h
    if (is_half(t) || hds_only) return "hds::" + base;  // hds/runtime.h for f16/bf16
    if (b == Builtin::Abs) base = "fabs";
    if (b == Builtin::Min) base = "fmin";
    if (b == Builtin::Max) base = "fmax";
    return t == ScalarType::F32 ? base + "f" : base;
}
}  // namespace

std::string cuda_access(const ir::Buffer& b, const std::vector<std::string>& indices) {
    std::string s = cuda_ident(b->name);
    for (const std::string& i : indices) s += "[" + i + "]";
    return s;
}

std::string CudaExprPrinter::var(const ir::VarNode* v) {
    if (v->name == graph::kSharedMemoryName) return "hds::shared_memory_per_block()";  // a fact of the device
    if (v->name == graph::kSm90aCodeName) return "sm90a_code()";  // of the device and the build (the .cu's probe)
    return cuda_ident(v->name);
}

std::string CudaExprPrinter::int_imm(const ir::IntImm* i) {
    return cuda_int_literal(i->type, i->value);
}

std::string CudaExprPrinter::float_imm(const ir::FloatImm* f) {
    return cuda_float_literal(f->type, f->value);
}

std::string CudaExprPrinter::special(const ir::SpecialReg* s) {
    return "(int)" + s->cuda_name();
}

std::string CudaExprPrinter::cast(const ir::Cast* c, const std::string& value) {
    ScalarType from = c->value->type;
    if (is_half(c->type) || is_half(from)) return fmt::format("hds::cast<{}>({})", cuda_type(c->type), value);
    return fmt::format("static_cast<{}>({})", cuda_type(c->type), value);
}

std::string CudaExprPrinter::load(const ir::Load* l, const std::vector<std::string>& indices) {
    return cuda_access(l->buffer, indices);
}

std::string CudaExprPrinter::call(const ir::Call* c, const std::vector<std::string>& args) {
    if (c->builtin == Builtin::DeviceFn) return fmt::format("{}({})", cuda_ident(c->function), fmt::join(args, ", "));
    if (std::string h = hopper_call(c, args, *this); !h.empty()) return h;
    switch (c->builtin) {
        case Builtin::SyncThreads:
            return "__syncthreads()";
        case Builtin::SyncWarp:
            return "__syncwarp()";
        case Builtin::ShflXor:
            return fmt::format("__shfl_xor_sync(0xffffffffu, {}, {})", args[0], args[1]);
        case Builtin::ShflDown:
            return fmt::format("__shfl_down_sync(0xffffffffu, {}, {})", args[0], args[1]);
        case Builtin::ShflUp:
            return fmt::format("__shfl_up_sync(0xffffffffu, {}, {})", args[0], args[1]);
        case Builtin::ShflIdx:
            return fmt::format("__shfl_sync(0xffffffffu, {}, {})", args[0], args[1]);
        case Builtin::AtomicAdd:
            return fmt::format("atomicAdd(&{}, {})", args[0], args[1]);
        case Builtin::AtomicMax:
            return fmt::format("atomicMax(&{}, {})", args[0], args[1]);
        case Builtin::AtomicMin:
            return fmt::format("atomicMin(&{}, {})", args[0], args[1]);
        case Builtin::Copy4:
        case Builtin::Copy8:
        case Builtin::Copy16:
        case Builtin::CopyVec4:
            return fmt::format("hds::copy<{}>(&{}, &{})", ir::copy_bytes(*c), args[0], args[1]);
        case Builtin::BarrierSync:
            return fmt::format("hds::barrier_sync({}, {})", args[0], args[1]);
        case Builtin::BarrierArrive:
            return fmt::format("hds::barrier_arrive({}, {})", args[0], args[1]);
        case Builtin::Mma16816:
            return fmt::format("hds::mma_16816(&{}, &{}, &{})", args[0], args[1], args[2]);
        case Builtin::LdMatrixX4:
            return fmt::format("hds::ldmatrix_x4(&{}, &{})", args[0], args[1]);
        case Builtin::LdMatrixX4Trans:
            return fmt::format("hds::ldmatrix_x4_trans(&{}, &{})", args[0], args[1]);
        case Builtin::CpAsync16:
            return fmt::format("hds::cp_async_16(&{}, &{}, {})", args[0], args[1], args[2]);
        case Builtin::CpAsyncCommit:
            return "hds::cp_async_commit()";
        case Builtin::CpAsyncWait:
            return fmt::format("hds::cp_async_wait<{}>()", args[0]);
        default:
            return fmt::format("{}({})", math_name(c->builtin, c->type), fmt::join(args, ", "));
    }
}

std::string LauncherExprPrinter::var(const ir::VarNode* v) {
    return "(long long)" + CudaExprPrinter::var(v);
}

std::string LauncherExprPrinter::call(const ir::Call* c, const std::vector<std::string>& args) {
    if ((c->builtin != Builtin::Min && c->builtin != Builtin::Max) || !is_int(c->type))
        return CudaExprPrinter::call(c, args);
    return fmt::format("{}((long long)({}), (long long)({}))", c->builtin == Builtin::Min ? "min" : "max", args[0],
                       args[1]);
}

}  // namespace hds::codegen
