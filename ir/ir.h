// ir.h — the typed IR: immutable expression and statement nodes shared by
// pointer, buffers, task-mapping loops, kernels and modules. Every node has a
// static make() that checks its invariants (Halide style); passes rebuild
// only what they change (see ir_mutator.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/builtins.h"
#include "ir/scalar_type.h"
#include "ir/source_loc.h"
#include "ir/task_mapping.h"

namespace hds::ir {

// ------------------------------------------------------------------ expressions
enum class ExprKind { IntImm, FloatImm, BoolImm, Var, SpecialReg, Cast, Unary, Binary, Select, Load, Call };
enum class UnOp { Neg, Not, BitNot };
enum class BinOp { Add, Sub, Mul, Div, Mod, Shl, Shr, Lt, Le, Gt, Ge, Eq, Ne, BitAnd, BitOr, BitXor, And, Or };

bool is_comparison(BinOp op);
const char* op_symbol(BinOp op);
const char* op_symbol(UnOp op);

struct ExprNode {
    ExprKind kind;
    ScalarType type;
    ExprNode(ExprKind k, ScalarType t) : kind(k), type(t) {}
    virtual ~ExprNode() = default;
};
using Expr = std::shared_ptr<const ExprNode>;

template <typename T>
const T* as(const Expr& e) {
    return e && e->kind == T::kKind ? static_cast<const T*>(e.get()) : nullptr;
}

struct IntImm : ExprNode {
    static constexpr ExprKind kKind = ExprKind::IntImm;
    int64_t value;
    IntImm(ScalarType t, int64_t v) : ExprNode(kKind, t), value(v) {}
    static Expr make(ScalarType t, int64_t v);
};
struct FloatImm : ExprNode {
    static constexpr ExprKind kKind = ExprKind::FloatImm;
    double value;
    FloatImm(ScalarType t, double v) : ExprNode(kKind, t), value(v) {}
    static Expr make(ScalarType t, double v);
};
struct BoolImm : ExprNode {
    static constexpr ExprKind kKind = ExprKind::BoolImm;
    bool value;
    explicit BoolImm(bool v) : ExprNode(kKind, ScalarType::Bool), value(v) {}
    static Expr make(bool v);
};
// A scalar variable; identity is the node's address, `name` is for printing.
struct VarNode : ExprNode {
    static constexpr ExprKind kKind = ExprKind::Var;
    std::string name;
    VarNode(ScalarType t, std::string n) : ExprNode(kKind, t), name(std::move(n)) {}
};
using Var = std::shared_ptr<const VarNode>;
Var make_var(ScalarType t, std::string name);

enum class SpecialKind { ThreadIdx, BlockIdx, BlockDim, GridDim };
struct SpecialReg : ExprNode {
    static constexpr ExprKind kKind = ExprKind::SpecialReg;
    SpecialKind which;
    int dim;  // 0 = x, 1 = y, 2 = z
    SpecialReg(SpecialKind w, int d) : ExprNode(kKind, ScalarType::I32), which(w), dim(d) {}
    static Expr make(SpecialKind w, int dim);
    std::string cuda_name() const;  // "threadIdx.x"
};
struct Cast : ExprNode {
    static constexpr ExprKind kKind = ExprKind::Cast;
    Expr value;
    Cast(ScalarType t, Expr v) : ExprNode(kKind, t), value(std::move(v)) {}
    // Returns `v` itself when it already has type `t`.
    static Expr make(ScalarType t, Expr v);
};
struct Unary : ExprNode {
    static constexpr ExprKind kKind = ExprKind::Unary;
    UnOp op;
    Expr a;
    Unary(UnOp o, Expr x) : ExprNode(kKind, x->type), op(o), a(std::move(x)) {}
    static Expr make(UnOp op, Expr a);
};
struct Binary : ExprNode {
    static constexpr ExprKind kKind = ExprKind::Binary;
    BinOp op;
    Expr a, b;
    Binary(BinOp o, ScalarType t, Expr x, Expr y) : ExprNode(kKind, t), op(o), a(std::move(x)), b(std::move(y)) {}
    // Operands must have the same type; comparisons and && || yield bool.
    static Expr make(BinOp op, Expr a, Expr b);
};
struct Select : ExprNode {
    static constexpr ExprKind kKind = ExprKind::Select;
    Expr cond, t, f;
    Select(Expr c, Expr x, Expr y) : ExprNode(kKind, x->type), cond(std::move(c)), t(std::move(x)), f(std::move(y)) {}
    static Expr make(Expr cond, Expr t, Expr f);
};

// ------------------------------------------------------------------ buffers
enum class Scope { Global, Shared, Register };
const char* scope_name(Scope s);

// A tensor: a kernel parameter in global memory or a local shared/register array.
struct BufferNode {
    std::string name;
    ScalarType elem;
    std::vector<Expr> shape;  // i32 expressions (constants or size variables)
    Scope scope;
    int64_t constant_elements() const;  // -1 when some dimension is symbolic
};
using Buffer = std::shared_ptr<const BufferNode>;
Buffer make_buffer(std::string name, ScalarType elem, std::vector<Expr> shape, Scope scope);

struct Load : ExprNode {
    static constexpr ExprKind kKind = ExprKind::Load;
    Buffer buffer;
    std::vector<Expr> indices;  // one per dimension, or one after flattening
    SourceLoc loc;              // the .hds access, for the emulator's error messages
    Load(Buffer b, std::vector<Expr> idx, SourceLoc l)
        : ExprNode(kKind, b->elem), buffer(std::move(b)), indices(std::move(idx)), loc(l) {}
    static Expr make(Buffer b, std::vector<Expr> indices, SourceLoc loc = {});
};
struct Call : ExprNode {
    static constexpr ExprKind kKind = ExprKind::Call;
    Builtin builtin;       // Builtin::DeviceFn for calls of device functions
    std::string function;  // the device function's name
    std::vector<Expr> args;
    bool has_value;  // false for calls that return nothing (barriers, void functions)
    Call(ScalarType t, Builtin b, std::string f, std::vector<Expr> a, bool v)
        : ExprNode(kKind, t), builtin(b), function(std::move(f)), args(std::move(a)), has_value(v) {}
    // A call without a value gets type bool and has_value == false.
    static Expr make(ScalarType t, Builtin b, std::vector<Expr> args, std::string function = "");
    static Expr make_void(Builtin b, std::vector<Expr> args, std::string function = "");
};

// The bytes a vector copy moves: copy_4 / copy_8 / copy_16, or copy_vec4 (four
// elements of its operands' type); 0 for other calls.
int copy_bytes(const Call& c);

// ------------------------------------------------------------------ statements
enum class StmtKind { Decl, Assign, Store, Alloc, For, MapFor, If, Block, Evaluate, Return, Break, Continue };

struct StmtNode {
    StmtKind kind;
    SourceLoc loc;  // the .hds statement this came from (line 0: generated)
    StmtNode(StmtKind k, SourceLoc l) : kind(k), loc(l) {}
    virtual ~StmtNode() = default;
};
using Stmt = std::shared_ptr<const StmtNode>;

template <typename T>
const T* as(const Stmt& s) {
    return s && s->kind == T::kKind ? static_cast<const T*>(s.get()) : nullptr;
}

// Declares `var` (initialised with `init`); visible until the end of the block.
struct Decl : StmtNode {
    static constexpr StmtKind kKind = StmtKind::Decl;
    Var var;
    Expr init;
    bool is_const;
    Decl(SourceLoc l, Var v, Expr i, bool c) : StmtNode(kKind, l), var(std::move(v)), init(std::move(i)), is_const(c) {}
    static Stmt make(SourceLoc l, Var v, Expr init, bool is_const);
};
// var = value, or var op= value when `op` is set.
struct Assign : StmtNode {
    static constexpr StmtKind kKind = StmtKind::Assign;
    Var var;
    Expr value;
    std::optional<BinOp> op;
    Assign(SourceLoc l, Var v, Expr x, std::optional<BinOp> o)
        : StmtNode(kKind, l), var(std::move(v)), value(std::move(x)), op(o) {}
    static Stmt make(SourceLoc l, Var v, Expr value, std::optional<BinOp> op = std::nullopt);
};
struct Store : StmtNode {
    static constexpr StmtKind kKind = StmtKind::Store;
    Buffer buffer;
    std::vector<Expr> indices;
    Expr value;
    std::optional<BinOp> op;
    Store(SourceLoc l, Buffer b, std::vector<Expr> i, Expr v, std::optional<BinOp> o)
        : StmtNode(kKind, l), buffer(std::move(b)), indices(std::move(i)), value(std::move(v)), op(o) {}
    static Stmt make(SourceLoc l, Buffer b, std::vector<Expr> indices, Expr value,
                     std::optional<BinOp> op = std::nullopt);
};
// Declares a local shared or register array.
struct Alloc : StmtNode {
    static constexpr StmtKind kKind = StmtKind::Alloc;
    Buffer buffer;
    Alloc(SourceLoc l, Buffer b) : StmtNode(kKind, l), buffer(std::move(b)) {}
    static Stmt make(SourceLoc l, Buffer b);
};
struct For : StmtNode {
    static constexpr StmtKind kKind = StmtKind::For;
    Var var;
    Expr lo, hi, step;
    bool unroll;
    Stmt body;
    For(SourceLoc l, Var v, Expr lo_, Expr hi_, Expr st, bool u, Stmt b)
        : StmtNode(kKind, l),
          var(std::move(v)),
          lo(std::move(lo_)),
          hi(std::move(hi_)),
          step(std::move(st)),
          unroll(u),
          body(std::move(b)) {}
    static Stmt make(SourceLoc l, Var v, Expr lo, Expr hi, Expr step, bool unroll, Stmt body);
};
// `for (vars) in mapping on worker { body }` — removed by lower_task_mappings.
struct MapFor : StmtNode {
    static constexpr StmtKind kKind = StmtKind::MapFor;
    std::vector<Var> vars;
    TaskMapping mapping;
    Expr worker;
    bool unroll;
    Stmt body;
    MapFor(SourceLoc l, std::vector<Var> v, TaskMapping m, Expr w, bool u, Stmt b)
        : StmtNode(kKind, l),
          vars(std::move(v)),
          mapping(std::move(m)),
          worker(std::move(w)),
          unroll(u),
          body(std::move(b)) {}
    static Stmt make(SourceLoc l, std::vector<Var> vars, TaskMapping m, Expr worker, bool unroll, Stmt body);
};
struct If : StmtNode {
    static constexpr StmtKind kKind = StmtKind::If;
    Expr cond;
    Stmt then_s, else_s;  // else_s may be null
    std::string note;     // why this branch is taken: a comment on the emitted `if` (a schedule's dispatch)
    If(SourceLoc l, Expr c, Stmt t, Stmt e, std::string n = "")
        : StmtNode(kKind, l), cond(std::move(c)), then_s(std::move(t)), else_s(std::move(e)), note(std::move(n)) {}
    static Stmt make(SourceLoc l, Expr cond, Stmt then_s, Stmt else_s, std::string note = "");
};
struct Block : StmtNode {
    static constexpr StmtKind kKind = StmtKind::Block;
    std::vector<Stmt> stmts;
    Block(SourceLoc l, std::vector<Stmt> s) : StmtNode(kKind, l), stmts(std::move(s)) {}
    static Stmt make(SourceLoc l, std::vector<Stmt> stmts);
};
struct Evaluate : StmtNode {
    static constexpr StmtKind kKind = StmtKind::Evaluate;
    Expr value;
    Evaluate(SourceLoc l, Expr v) : StmtNode(kKind, l), value(std::move(v)) {}
    static Stmt make(SourceLoc l, Expr value);
};
struct Return : StmtNode {
    static constexpr StmtKind kKind = StmtKind::Return;
    Expr value;  // may be null
    Return(SourceLoc l, Expr v) : StmtNode(kKind, l), value(std::move(v)) {}
    static Stmt make(SourceLoc l, Expr value);
};
struct Jump : StmtNode {
    Jump(StmtKind k, SourceLoc l) : StmtNode(k, l) {}
    static Stmt make_break(SourceLoc l);
    static Stmt make_continue(SourceLoc l);
};

// ------------------------------------------------------------------ functions
struct KernelParam {
    enum class Kind { Tensor, Scalar } kind;
    Buffer buffer;         // Tensor
    Var var;               // Scalar
    bool written = false;  // the kernel stores to (or atomically updates) the tensor
};

// `min_blocks_per_sm(n)` asks for 1 to kMaxMinBlocks blocks of at most kMaxThreadsPerSM
// threads together: sema checks a constant n, codegen one that sizes made constant.
inline constexpr int64_t kMaxMinBlocks = 32;
inline constexpr int64_t kMaxThreadsPerSM = 2048;

struct Kernel {
    std::string name;
    SourceLoc loc;
    std::vector<KernelParam> params;  // in source order
    std::vector<Var> sizes;           // symbolic sizes, in order of first appearance
    std::vector<Expr> grid, block;    // over sizes and constants, 1 to 3 each
    int cluster = 1;                  // blocks per cluster along x (sm_90 thread block clusters)
    Expr cluster_per_call;            // or so many, over sizes, chosen at launch (null: `cluster`)
    Expr min_blocks;                  // `min_blocks_per_sm(n)`: asked for where a constant (null: none)
    // n > 0: a persistent kernel, its grid along x at most n blocks a multiprocessor (of the
    // device it runs on, asked at launch); the body walks the work with a gridDim.x stride.
    int64_t persistent = 0;
    // Programmatic dependent launch, where the target has it (codegen's CudaOptions::dependent_launch):
    // `wait_previous`: launched programmatically after the kernel before it, whose writes
    // it waits for first; `trigger_next`: the kernel after it may be placed once all of
    // this one's blocks have started.
    bool wait_previous = false, trigger_next = false;
    Stmt body;
};

struct DeviceFunction {
    std::string name;
    SourceLoc loc;
    std::vector<Var> params;
    std::optional<ScalarType> ret;
    Stmt body;
};

struct Module {
    std::string source_path;              // the main .hds file
    std::vector<std::string> file_names;  // display names, indexed by SourceLoc::file - 1
    std::vector<DeviceFunction> functions;
    std::vector<Kernel> kernels;
};

// Convenience constructors used by lowering and passes.
Expr i32(int64_t v);
Expr add(Expr a, Expr b);
Expr sub(Expr a, Expr b);
Expr mul(Expr a, Expr b);
Expr div(Expr a, Expr b);
Expr mod(Expr a, Expr b);
Expr lt(Expr a, Expr b);
Expr le(Expr a, Expr b);
Expr eq(Expr a, Expr b);
std::optional<int64_t> const_int(const Expr& e);
std::optional<bool> const_bool(const Expr& e);
// Threads per block where the block's dimensions are constants, else 0.
int64_t constant_threads(const Kernel& k);
// The rows of the box a TMA load copies: its destination's (the last two dimensions of a
// buffer with `buffer_rows` rows), or tma_load_2d_rows' constant `rows`.
int64_t tma_box_rows(const Call* c, int64_t buffer_rows);
// Where a shared array of `elem` starts: 16-byte aligned (vector accesses, ldmatrix,
// cp.async), 1024 in kernels of TMA / wgmma / clusters (`sm90`: the 128-byte swizzle's
// period), except u64 arrays (mbarriers), which need 8. The arrays are laid out in order,
// each at the next multiple of its alignment, taking a multiple of 16 bytes (sema's size
// check and the emitter both lay them out with shared_array_end).
int64_t shared_array_align(ScalarType elem, bool sm90);
// The shared memory a block may have (bytes, the opt-in limit): on sm_86, sm_89 and sm_120 GPUs
// (99 KiB), on sm_80 and sm_87 (163 KiB), on sm_90 and sm_100 (227 KiB).
constexpr int64_t kSharedMemorySm86 = 101376;
constexpr int64_t kSharedMemorySm80 = 166912;
constexpr int64_t kSharedMemorySm90 = 232448;
// The end of a shared array of `bytes` bytes of `elem` placed after `offset` bytes; it
// starts at the next multiple of shared_array_align, which `start` receives.
int64_t shared_array_end(int64_t offset, int64_t bytes, ScalarType elem, bool sm90, int64_t* start = nullptr);
// ... of shared buffer `b` (its constant shape and element type).
int64_t shared_array_end(int64_t offset, const Buffer& b, bool sm90, int64_t* start = nullptr);

}  // namespace hds::ir
