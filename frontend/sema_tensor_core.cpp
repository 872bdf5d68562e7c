// sema_tensor_core.cpp — checks of the tensor-core and Hopper built-ins
// (mma.sync, ldmatrix, cp.async, mbarrier, TMA, wgmma, setmaxnreg, clusters): which
// arguments are element references into which memory, their element types,
// constant arguments' ranges, and the shared layouts TMA and wgmma assume.
#include "frontend/sema.h"

#include <fmt/format.h>
#include "ir/builtins.h"
#include "ir/ir.h"

namespace hds {

namespace {

struct Operand {
    MemSpace space;          // MemSpace::None: a value, not a reference
    const char* elem;        // "f32", "half" (f16 or bf16), "same" (as the reference operand), "any", "u64";
                             // values: "int", "const" (0..7), "nreg" (a constant register count)
    bool written = false;    // the built-in stores through it
    const char* what;        // for the error message
    bool any_space = false;  // a reference into any memory (`space` is ignored)
};

// "an integer byte count" -> "the byte count", for "... must be an integer".
std::string value_name(const std::string& what) {
    const std::string prefix = "an integer ";
    return "the " + (what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what);
}

const Operand kBarrier{MemSpace::Shared, "u64", true, "a shared u64 element (an mbarrier)"};

// The wgmma products: accumulators, A (shared, or registers), B.
std::vector<Operand> wgmma_operands(WgmmaForm form) {
    Operand acc{MemSpace::Register, "f32", true, "an f32 register element (the warpgroup's accumulators)"};
    Operand a = form == WgmmaForm::ARegisters ? Operand{MemSpace::Register, "half", false,
                                                        "an f16 or bf16 register element (this thread's 8 values of A)"}
                                              : Operand{MemSpace::Shared, "half", false,
                                                        "an f16 or bf16 shared element (A: 64 rows of 64 values)"};
    if (form == WgmmaForm::BothTransposed)
        a.what = "an f16 or bf16 shared element (A's 64 rows: the columns of a [.., K, 64] tile)";
    Operand b{MemSpace::Shared, "same", false,
              form == WgmmaForm::Shared ? "a shared element of A's type (B: [.., N / 64, K, 64] tiles)"
                                        : "a shared element of A's type (B's columns: [.., N, 64] rows)"};
    return {acc, a, b};
}

std::vector<Operand> operands(Builtin b) {
    if (wgmma_form(b) != WgmmaForm::None) return wgmma_operands(wgmma_form(b));
    switch (b) {
        case Builtin::Copy4:
        case Builtin::Copy8:
        case Builtin::Copy16:
        case Builtin::CopyVec4:
            return {{MemSpace::Global, "any", true, "an element reference (global, shared or register)", true},
                    {MemSpace::Global, "same", false, "an element reference of the same type", true}};
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
        case Builtin::WgmmaWait:
            return {{MemSpace::None, "const", false, "a constant number of groups (0 to 7)"}};
        case Builtin::MbarrierInit:
            return {kBarrier, {MemSpace::None, "int", false, "an integer arrival count"}};
        case Builtin::MbarrierArrive:
            return {kBarrier};
        case Builtin::MbarrierExpectTx:
            return {kBarrier, {MemSpace::None, "int", false, "an integer byte count"}};
        case Builtin::MbarrierWait:
            return {kBarrier, {MemSpace::None, "int", false, "an integer phase parity (0 or 1)"}};
        case Builtin::TmaLoad2d:
        case Builtin::TmaLoad2dRows:
        case Builtin::TmaLoad2dMulticast: {
            std::vector<Operand> ops = {
                {MemSpace::Shared, "any", true, "a shared element (the start of the box)"},
                {MemSpace::Global, "same", false, "an element of a global tensor (2 to 5 dimensions) of the same type"},
                kBarrier};
            if (b == Builtin::TmaLoad2dMulticast)
                ops.push_back({MemSpace::None, "int", false, "an integer mask (the cluster's blocks)"});
            if (b == Builtin::TmaLoad2dRows)
                ops.push_back({MemSpace::None, "rows", false,
                               "a constant number of rows (1 to the rows of the destination's last two dimensions)"});
            return ops;
        }
        case Builtin::MbarrierArriveCluster:
            return {kBarrier, {MemSpace::None, "int", false, "an integer block rank in the cluster"}};
        case Builtin::ClusterLoad:
            return {{MemSpace::Shared, "any", false, "a shared element"},
                    {MemSpace::None, "int", false, "an integer block rank in the cluster"}};
        case Builtin::SetMaxNRegInc:
        case Builtin::SetMaxNRegDec:
            return {{MemSpace::None, "nreg", false, "a constant register count (a multiple of 8, 24 to 256)"}};
        case Builtin::BarrierSync:
        case Builtin::BarrierArrive:
            return {{MemSpace::None, "bar_id", false, "an integer barrier id (1 to 15; 0 is syncthreads')"},
                    {MemSpace::None, "threads", false, "a constant thread count (a multiple of 32, 32 to 1024)"}};
        default:
            return {};
    }
}

}  // namespace

SemaType Sema::check_tensor_core_call(CallExpr& e, const BuiltinInfo& b) {
    if (builtin_min_arch(b.id) >= 90) sm90_calls_ = true;
    if ((b.id == Builtin::SetMaxNRegInc || b.id == Builtin::SetMaxNRegDec) && !setmaxnreg_call_.valid())
        setmaxnreg_call_ = e.callee_range;
    require_arch(builtin_min_arch(b.id), e.callee_range, DiagId::builtin_needs_arch, std::string("'") + b.name + "'");
    std::vector<Operand> ops = operands(b.id);
    std::optional<ScalarType> first;  // the type "same" refers to, once an operand gave it
    size_t reference = b.id == Builtin::Mma16816 || builtin_min_arch(b.id) == 90 ? 1 : 0;  // the operand that gives it
    if (is_tma_load(b.id)) reference = 0;
    std::vector<const Symbol*> refs(ops.size(), nullptr);  // the buffers the references point into
    bool ok = true;
    for (size_t i = 0; i < ops.size(); ++i) {
        Expr& a = *e.args[i].value;
        const Operand& op = ops[i];
        auto fail = [&] {
            diags_.error(DiagId::tensor_core_operand, a.range, i + 1, b.name, op.what);
            ok = false;
        };
        if (op.space == MemSpace::None) {
            std::string kind = op.elem;
            if (kind == "const" || kind == "nreg" || kind == "rows" || kind == "threads") {
                auto v = check_const_int(a, kind == "const"     ? "the number of groups"
                                            : kind == "nreg"    ? "a register count"
                                            : kind == "threads" ? "the thread count"
                                                                : "the number of rows");
                bool in_range = kind == "const"     ? v && *v >= 0 && *v <= 7
                                : kind == "nreg"    ? v && *v >= 24 && *v <= 256 && *v % 8 == 0
                                : kind == "threads" ? v && *v >= 32 && *v <= 1024 && *v % 32 == 0
                                                    : v && *v >= 1;  // (at most the box's rows: check_async_layout)
                if (v && !in_range) fail();
                if (!v) ok = false;
            } else if (!check_int(a, value_name(op.what).c_str())) {
                ok = false;
            } else {
                coerce(a, ScalarType::I32);
                if (kind == "bar_id" && a.value && (a.value->i < 1 || a.value->i > 15)) fail();
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
        if (!s || s->kind != Symbol::Kind::Tensor || (!op.any_space && s->tensor.space != op.space)) {
            fail();
            continue;
        }
        ScalarType elem = s->tensor.elem;
        std::string want = op.elem;
        bool type_ok = want == "any" || (want == "f32" && elem == ScalarType::F32) ||
                       (want == "u64" && elem == ScalarType::U64) ||
                       (want == "half" && (elem == ScalarType::F16 || elem == ScalarType::BF16)) ||
                       (want == "same" && (!first || elem == *first));  // no cascade after an error
        if (!type_ok) {
            fail();
            continue;
        }
        if (i == reference) first = elem;
        if (op.written) s->written = true;
        refs[i] = s;
    }
    if (ok) ok = check_async_layout(e, b, refs);
    if (ok && b.id == Builtin::CopyVec4 && byte_size(*first) > 4) {  // four of them: more than 16 bytes
        diags_.error(DiagId::unsupported_type, e.args[0].value->range, b.name, scalar_name(*first));
        ok = false;
    }
    if (ok && b.id == Builtin::ClusterLoad) return SemaType::of(refs[0]->tensor.elem);  // a value, not a statement
    return ok ? SemaType::void_type() : SemaType::error();
}

namespace {

// The constant extent of dimension `d` counted from the end (1: the last), or 0.
int64_t trailing_dim(const Symbol& s, size_t d) {
    const std::vector<Dim>& dims = s.tensor.dims;
    if (dims.size() < d || dims[dims.size() - d].size) return 0;
    return dims[dims.size() - d].constant;
}

}  // namespace

// `cluster(n)`: n blocks (consecutive along x) share a thread block cluster,
// which sm_90 provides. A constant n is checked here; one over sizes is chosen
// per call (the launcher checks it). A constant 1 is no cluster (an instance of a
// generic kernel whose parameters turn it off: `cluster(SPLIT > 1 ? ... : 1)`).
void Sema::check_cluster(Expr& e) {
    if (!check_int(e, "a cluster size")) return;
    if (e.value && e.value->i == 1) return;
    require_arch(90, e.range, DiagId::cluster_needs_arch, "a thread block cluster");
    if (!e.value) return;
    int64_t n = e.value->i;
    if (n != 1 && n != 2 && n != 4 && n != 8) diags_.error(DiagId::cluster_size, e.range, n);
}

// `min_blocks_per_sm(n)`: __launch_bounds__(threads, n), so that ptxas keeps each thread's
// registers within what n blocks leave it. Checked after the body (its setmaxnreg calls).
// n may depend on sizes: it counts where they are constants (a graph's), else nothing is
// asked (codegen), so only a constant n is checked here.
void Sema::check_min_blocks(KernelDecl& k, int64_t threads) {
    Expr& e = *k.min_blocks;
    if (!check_int(e, "a block count") || !e.value) return;
    int64_t n = e.value->i;
    if (n < 1 || n > ir::kMaxMinBlocks) {
        diags_.error(DiagId::min_blocks_count, e.range, n);
    } else if (threads <= 0) {
        diags_.error(DiagId::min_blocks_block, e.range);
    } else if (n * threads > ir::kMaxThreadsPerSM) {
        diags_.error(DiagId::min_blocks_threads, e.range, n, threads);
    } else if (n > 1 && setmaxnreg_call_.valid()) {
        diags_.error(DiagId::min_blocks_setmaxnreg, e.range, n);
        diags_.note(setmaxnreg_call_, "setmaxnreg is called here");
    }
}

// TMA boxes are the destination's last two dimensions with rows of 32, 64 or
// 128 bytes (the swizzle width); wgmma operands are 128-byte swizzled tiles:
// A as [.., rows, 64] (K-major), B as [.., N / 64, K, 64] (N-major).
bool Sema::check_async_layout(CallExpr& e, const BuiltinInfo& b, const std::vector<const Symbol*>& refs) {
    auto need = [&](size_t arg, const std::string& what) {
        diags_.error(DiagId::async_layout, e.args[arg].value->range, b.name, what);
        return false;
    };
    if (is_tma_load(b.id)) {
        const Symbol& dst = *refs[0];
        int64_t cols = trailing_dim(dst, 1), rows = trailing_dim(dst, 2);
        int64_t row_bytes = cols * byte_size(dst.tensor.elem);
        if (rows < 1 || rows > 256 || (row_bytes != 32 && row_bytes != 64 && row_bytes != 128))
            return need(0,
                        "a shared buffer whose last two dimensions (the box) are constants: at most 256 rows of "
                        "32, 64 or 128 bytes");
        // Indices before the last two pick a slice (a box of extent 1 there); multicast is 2-D only.
        size_t rank = refs[1]->tensor.dims.size();
        if (b.id == Builtin::TmaLoad2dMulticast && rank != 2) return need(1, "a 2-D global tensor");
        if (rank < 2 || rank > 5) return need(1, "a global tensor of 2 to 5 dimensions");
        if (b.id == Builtin::TmaLoad2dRows && e.args[3].value->value && e.args[3].value->value->i > rows)
            return need(3, fmt::format("a constant number of rows, at most the box's {}", rows));
        return true;
    }
    WgmmaForm form = wgmma_form(b.id);
    if (form == WgmmaForm::None) return true;
    int64_t n = wgmma_n(b.id);
    int64_t acc = 1;
    for (const Dim& d : refs[0]->tensor.dims) acc *= d.size ? 0 : d.constant;
    if (acc < n / 2) return need(0, "a register f32 array of at least N / 2 accumulators");
    if (form == WgmmaForm::ARegisters) {
        int64_t row = trailing_dim(*refs[1], 1);
        if (row < 8 || row % 8 != 0) return need(1, "a register array whose rows hold a multiple of 8 values");
    } else if (form == WgmmaForm::BothTransposed) {
        if (trailing_dim(*refs[1], 1) != 64 || trailing_dim(*refs[1], 2) < 16)
            return need(1, "a shared tile [.., K, 64] (M-major rows of 128 bytes, 16 rows or more)");
    } else if (trailing_dim(*refs[1], 1) != 64 || trailing_dim(*refs[1], 2) < 64) {
        return need(1, "a shared tile [.., rows, 64] (rows of 128 bytes, 64 rows or more)");
    }
    if (form == WgmmaForm::BTransposed || form == WgmmaForm::BothTransposed) {
        if (trailing_dim(*refs[2], 1) != 64 || trailing_dim(*refs[2], 2) < n)
            return need(2, "a shared tile [.., N, 64] (K-major rows of 128 bytes, N rows or more)");
    } else if (trailing_dim(*refs[2], 1) != 64 || trailing_dim(*refs[2], 2) < 16 ||
               trailing_dim(*refs[2], 3) * 64 < n) {
        return need(2, "a shared tile [.., N / 64, K, 64] (N-major rows of 128 bytes)");
    }
    return true;
}

}  // namespace hds
