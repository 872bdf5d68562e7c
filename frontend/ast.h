// ast.h — the hds abstract syntax tree. Owned by us (no ANTLR types), every node
// carries its SourceRange. Sema fills in the `type` of expressions and the
// `symbol` of names; lowering to IR reads both.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frontend/sema_type.h"
#include "frontend/source_manager.h"

namespace hds {

struct Symbol;

// ---------------------------------------------------------------- types
struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct TypeRef {
    SourceRange range;
    MemSpace space = MemSpace::None;
    std::string scalar;  // element type name as written
    SourceRange scalar_range;
    bool is_tensor = false;
    std::vector<ExprPtr> dims;
};

// ---------------------------------------------------------------- expressions
enum class ExprKind {
    IntLit,
    FloatLit,
    BoolLit,
    Name,
    Member,
    Index,
    Unary,
    Binary,
    Cond,
    Call,
    Cast,
    List,
    Spread,
    Reduce
};

enum class UnaryOp { Neg, Not, BitNot };
enum class BinaryOp { Mul, Div, Mod, Add, Sub, Shl, Shr, Lt, Le, Gt, Ge, Eq, Ne, BitAnd, BitXor, BitOr, And, Or };

const char* op_spelling(UnaryOp op);
const char* op_spelling(BinaryOp op);

struct Expr {
    ExprKind kind;
    SourceRange range;
    SemaType type;                    // set by sema
    std::optional<ConstValue> value;  // set by sema for compile-time constants
    bool checked = false;             // sema visited it (each node is checked once)
    explicit Expr(ExprKind k, SourceRange r) : kind(k), range(r) {}
    virtual ~Expr() = default;
};

struct IntLit : Expr {
    uint64_t value = 0;
    std::optional<ScalarType> suffix;
    IntLit(SourceRange r) : Expr(ExprKind::IntLit, r) {}
};
struct FloatLit : Expr {
    double value = 0;
    std::optional<ScalarType> suffix;
    FloatLit(SourceRange r) : Expr(ExprKind::FloatLit, r) {}
};
struct BoolLit : Expr {
    bool value = false;
    BoolLit(SourceRange r) : Expr(ExprKind::BoolLit, r) {}
};
struct NameExpr : Expr {
    std::string name;
    Symbol* symbol = nullptr;  // set by sema
    NameExpr(SourceRange r) : Expr(ExprKind::Name, r) {}
};
struct MemberExpr : Expr {
    ExprPtr base;
    std::string member;
    MemberExpr(SourceRange r) : Expr(ExprKind::Member, r) {}
};
struct IndexExpr : Expr {
    ExprPtr base;
    std::vector<ExprPtr> indices;
    IndexExpr(SourceRange r) : Expr(ExprKind::Index, r) {}
};
struct UnaryExpr : Expr {
    UnaryOp op;
    ExprPtr operand;
    UnaryExpr(SourceRange r) : Expr(ExprKind::Unary, r) {}
};
struct BinaryExpr : Expr {
    BinaryOp op;
    ExprPtr lhs, rhs;
    SourceRange op_range;
    BinaryExpr(SourceRange r) : Expr(ExprKind::Binary, r) {}
};
struct CondExpr : Expr {
    ExprPtr cond, then_expr, else_expr;
    CondExpr(SourceRange r) : Expr(ExprKind::Cond, r) {}
};
struct CallArg {
    std::string name;  // empty for positional arguments
    SourceRange name_range;
    ExprPtr value;
};
struct CallExpr : Expr {
    std::string callee;
    SourceRange callee_range;
    std::vector<CallArg> args;
    Symbol* symbol = nullptr;  // device function, when the callee is one
    CallExpr(SourceRange r) : Expr(ExprKind::Call, r) {}
};
struct CastExpr : Expr {
    std::string target;
    SourceRange target_range;
    ExprPtr operand;
    CastExpr(SourceRange r) : Expr(ExprKind::Cast, r) {}
};
struct ListExpr : Expr {
    std::vector<ExprPtr> elems;
    ListExpr(SourceRange r) : Expr(ExprKind::List, r) {}
};
// `*S` in an op's shapes, `*i` in its index lists: a list of dimensions or
// indices of a rank fixed when the op is instantiated.
struct SpreadExpr : Expr {
    std::string name;
    SpreadExpr(SourceRange r) : Expr(ExprKind::Spread, r) {}
};
// `sum(k in 0..K, l in 0..L) body` in a compute definition (also max, min).
struct ReduceRange {
    std::string name;
    SourceRange range;
    ExprPtr lo, hi;
};
struct ReduceExpr : Expr {
    std::string reducer;
    SourceRange reducer_range;
    std::vector<ReduceRange> ranges;
    ExprPtr body;
    ReduceExpr(SourceRange r) : Expr(ExprKind::Reduce, r) {}
};

// ---------------------------------------------------------------- statements
enum class StmtKind { Let, Assign, ExprStmt, If, For, Return, Break, Continue, Block };

struct Stmt {
    StmtKind kind;
    SourceRange range;
    explicit Stmt(StmtKind k, SourceRange r) : kind(k), range(r) {}
    virtual ~Stmt() = default;
};
using StmtPtr = std::unique_ptr<Stmt>;

struct BlockStmt : Stmt {
    std::vector<StmtPtr> stmts;
    BlockStmt(SourceRange r) : Stmt(StmtKind::Block, r) {}
};
// `let x: T = e;`, `var x: T = e;`, `var t: shared f32[..];`
struct LetStmt : Stmt {
    bool is_mutable = false;
    std::string name;
    SourceRange name_range;
    std::optional<TypeRef> declared;
    ExprPtr init;              // may be null for local tensors
    Symbol* symbol = nullptr;  // set by sema
    LetStmt(SourceRange r) : Stmt(StmtKind::Let, r) {}
};
struct AssignStmt : Stmt {
    std::optional<BinaryOp> op;  // `+=` etc.; nullopt for plain `=`
    ExprPtr target, value;
    AssignStmt(SourceRange r) : Stmt(StmtKind::Assign, r) {}
};
struct ExprStmt : Stmt {
    ExprPtr expr;
    ExprStmt(SourceRange r) : Stmt(StmtKind::ExprStmt, r) {}
};
struct IfStmt : Stmt {
    ExprPtr cond;
    std::unique_ptr<BlockStmt> then_block;
    StmtPtr else_stmt;  // BlockStmt or IfStmt, may be null
    // Sema, in an instance of a generic kernel whose condition is a constant: 1 (only
    // the then block is checked and lowered) or 0 (only the else branch); -1 otherwise.
    int constant_branch = -1;
    IfStmt(SourceRange r) : Stmt(StmtKind::If, r) {}
};
struct LoopVar {
    std::string name;
    SourceRange range;
    Symbol* symbol = nullptr;
};
// `for i in lo..hi step s { }` or `for (i, j) in MAPPING on WORKER { }`
struct ForStmt : Stmt {
    std::vector<std::pair<std::string, SourceRange>> attributes;
    std::vector<LoopVar> vars;
    ExprPtr iterable;  // lo, or the mapping
    ExprPtr hi, step, on;
    std::unique_ptr<BlockStmt> body;
    bool unroll = false;  // set by sema from attributes
    ForStmt(SourceRange r) : Stmt(StmtKind::For, r) {}
};
struct ReturnStmt : Stmt {
    ExprPtr value;
    ReturnStmt(SourceRange r) : Stmt(StmtKind::Return, r) {}
};
struct JumpStmt : Stmt {
    JumpStmt(StmtKind k, SourceRange r) : Stmt(k, r) {}
};

// ---------------------------------------------------------------- declarations
struct Param {
    std::string name;
    SourceRange name_range;
    TypeRef type;
    ExprPtr default_value;  // op attributes only (`eps: f32 = 1e-5`)
    Symbol* symbol = nullptr;
};

// `<T, U>` after a kernel's or an op's name: element-type variables; for
// kernels also integer parameters (`STAGES: i32 = 3`), constants per instance.
struct TypeParam {
    std::string name;
    SourceRange range;
    std::string value_type;               // "" for an element type, else the integer type
    const Expr* default_value = nullptr;  // owned by `default_owner`
    std::shared_ptr<Expr> default_owner;
    std::vector<std::shared_ptr<Expr>> candidates;  // `in {..}`: the values `hdsc tune` tries
};

enum class DeclKind { Import, Target, Const, Kernel, DeviceFn, Op, Graph };

struct Decl {
    DeclKind kind;
    SourceRange range;
    std::string name;
    SourceRange name_range;
    bool from_import = false;  // declared in an imported file
    explicit Decl(DeclKind k, SourceRange r) : kind(k), range(r) {}
    virtual ~Decl() = default;
};
using DeclPtr = std::unique_ptr<Decl>;

struct ImportDecl : Decl {
    std::string path;  // as written, quotes removed
    ImportDecl(SourceRange r) : Decl(DeclKind::Import, r) {}
};
// `target sm_90a;`: `name` is the target as written.
struct TargetDecl : Decl {
    TargetDecl(SourceRange r) : Decl(DeclKind::Target, r) {}
};
struct ConstDecl : Decl {
    TypeRef type;
    ExprPtr value;
    Symbol* symbol = nullptr;
    ConstDecl(SourceRange r) : Decl(DeclKind::Const, r) {}
};
struct KernelDecl : Decl {
    std::vector<TypeParam> type_params;  // a generic kernel is checked when an op instantiates it
    bool instance = false;               // a copy of a generic kernel, its parameters bound
    std::vector<Param> params;
    std::vector<ExprPtr> grid, block;
    SourceRange grid_range, block_range;
    ExprPtr cluster;     // `cluster(n)`: blocks per thread block cluster (sm_90), or null
    ExprPtr min_blocks;  // `min_blocks_per_sm(n)`: __launch_bounds__'s second argument, or null
    std::unique_ptr<BlockStmt> body;
    std::vector<Symbol*> sizes;  // symbolic sizes in order of first appearance (sema)
    // `kernel name = generic<f16>;`: until instantiated (module_loader), only these are set.
    std::string instance_of;
    SourceRange instance_of_range;
    std::vector<ExprPtr> type_args;  // element type names and integer constants
    KernelDecl(SourceRange r) : Decl(DeclKind::Kernel, r) {}
};
struct DeviceFnDecl : Decl {
    std::vector<Param> params;
    std::optional<TypeRef> ret;
    std::unique_ptr<BlockStmt> body;
    Symbol* symbol = nullptr;
    DeviceFnDecl(SourceRange r) : Decl(DeclKind::DeviceFn, r) {}
};

// `compute y[i, j] = value;` in an op.
struct ComputeDef {
    SourceRange range;
    std::string name;
    SourceRange name_range;
    std::vector<ExprPtr> indices;  // names or one spread
    ExprPtr value;
};
// `schedule simt = matmul_simt;` in an op.
struct ScheduleArg {
    std::string name;  // `<BM = 64>`: an integer parameter of the kernel, fixed
    int64_t value = 0;
    SourceRange range;
};
struct ScheduleRef {
    SourceRange range;
    std::string name, kernel;
    SourceRange kernel_range;
    std::vector<ScheduleArg> args;
    std::vector<std::string> types;  // `for f16, bf16`: only for these element types (empty: any)
    ExprPtr when;                    // `when M <= 16`: only for such sizes (null: any)
    // `pad(K, N)`: sizes of the op that may be rounded up, the tensors zero-padded along them,
    // so that rows are 16-byte multiples (graph/padding.h); empty: none.
    std::vector<std::string> pad;
    std::vector<SourceRange> pad_ranges;
    // `then combine`: a second kernel, run after the first, that reads the one tensor of its
    // own the first writes (a workspace temporary) and writes the result; empty: none.
    std::string then_kernel;
    SourceRange then_range;
};
// `require H % G == 0;` in an op: a condition on its sizes that every call meets
// (checked when the graph is built, or per call where the sizes are symbolic).
struct OpRequire {
    SourceRange range;
    ExprPtr cond;
};
struct OpDecl : Decl {
    std::vector<TypeParam> type_params;
    std::vector<Param> params;  // tensors, then scalar attributes
    TypeRef result;
    std::vector<OpRequire> requires_;  // (`requires` is a C++20 keyword)
    std::vector<ComputeDef> computes;
    std::vector<ScheduleRef> schedules;
    OpDecl(SourceRange r) : Decl(DeclKind::Op, r) {}
};
struct GraphDecl : Decl {
    std::vector<Param> params;
    TypeRef result;
    std::unique_ptr<BlockStmt> body;
    GraphDecl(SourceRange r) : Decl(DeclKind::Graph, r) {}
};

struct Module {
    std::vector<DeclPtr> decls;  // imported declarations first, in import order
};

// Checked downcast helpers: `as<IntLit>(e)` asserts the kind in debug builds.
template <typename T, typename B>
T& as(B& node) {
    return static_cast<T&>(node);
}
template <typename T, typename B>
const T& as(const B& node) {
    return static_cast<const T&>(node);
}

}  // namespace hds
