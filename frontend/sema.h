// sema.h — semantic analysis: name resolution, constant evaluation, type and
// shape checking, task-mapping checks. Annotates the AST in place (types,
// constant values, symbols) and reports every error it finds.
#pragma once

#include <deque>
#include <memory>

#include "frontend/ast.h"
#include "frontend/diagnostics.h"
#include "frontend/symbol.h"

namespace hds {

// The GPU a file is compiled for, and why (docs/cli.md, "The target").
struct TargetChoice {
    enum class Origin { Default, CommandLine, Declared, Inferred };
    int arch = 80;  // 80: sm_80, 90: sm_90a
    Origin origin = Origin::Default;
    SourceRange where;  // Declared: the declaration; Inferred: the first use that needs it
    std::string what;   // Inferred: what needs it ("'wgmma_fence'", "a thread block cluster")
};

// "sm_80" / "sm_90a" for 80 / 90, and back (0 for an unknown name).
const char* target_name(int arch);
int target_from_name(const std::string& name);

class Sema {
  public:
    // `arch`: the target of the module's own kernels (80: sm_80, 90: sm_90a; 0:
    // the CPU emulator, which traps on tensor-core built-ins at run time instead).
    explicit Sema(DiagnosticsEngine& diags, int arch = 80) : diags_(diags), arch_(arch) {
        target_.arch = arch;
        target_fixed_ = arch != 0;
    }
    // Compile for the target of docs/cli.md: `cli_arch` (--arch: 80 or 90; 0
    // when not given), else the file's `target` declaration, else the least
    // target its kernels' built-ins need. Call before check(); target() is
    // the choice after it.
    void choose_target(int cli_arch);
    const TargetChoice& target() const { return target_; }
    // Checks the whole module; errors go to the diagnostics engine.
    void check(Module& m);
    // Checks a kernel made after check(m) (an instantiated generic kernel or an
    // op's compute definition) against m's global names. Built-ins newer than
    // the target are not errors here: the graph layer skips such schedules.
    void check_instance(KernelDecl& k);

  private:
    // declarations (sema.cpp)
    void instantiate_kernel(DeclPtr& d, const Module& m);
    Symbol* new_symbol(Symbol::Kind kind, const std::string& name, SourceRange range);
    bool declare(Symbol* s);
    void check_const(ConstDecl& d);
    void check_tune_candidates(const KernelDecl& k);
    void declare_fn(DeviceFnDecl& d);
    void check_kernel(KernelDecl& k);
    void check_no_defaults(std::vector<Param>& params);
    // target (sema_target.cpp)
    void check_target_decls(const Module& m);
    // `what` (a built-in, a cluster) needs `arch`: one error when the target is
    // fixed lower (the first such use), else the inferred target rises.
    void require_arch(int arch, SourceRange at, DiagId id, const std::string& what);
    // A kernel's shared memory over what an sm_80 block may have: a warning once the target is known.
    void check_sm80_shared(const KernelDecl& k, int64_t bytes);
    void finish_target();
    // -Wunused-variable / -Wunused-parameter over `unused_candidates_` (sema.cpp).
    void warn_unused(const char* what, const std::string& name);
    void check_fn(DeviceFnDecl& f);
    bool resolve_scalar(const std::string& name, SourceRange range, ScalarType* out);
    void check_param_tensor(Param& p, KernelDecl& k, Symbol* s);
    std::vector<int64_t> check_launch(std::vector<ExprPtr>& dims, const char* what, SourceRange range);

    // statements (sema_stmt.cpp)
    void check_block(BlockStmt& b, bool new_scope = true);
    void check_stmt(Stmt& s);
    void check_let(LetStmt& s);
    void check_local_tensor(LetStmt& s);
    void check_assign(AssignStmt& s);
    void check_for(ForStmt& s);
    void check_for_mapping(ForStmt& s);
    // Declares the loop variables (of `var_type`, or quietly erroneous) and checks the body.
    void check_loop_body(ForStmt& s, std::optional<ScalarType> var_type);
    void check_return(ReturnStmt& s);

    // expressions (sema_expr.cpp)
    SemaType check_expr(Expr& e);
    SemaType check_name(NameExpr& e);
    SemaType check_index(IndexExpr& e);
    SemaType check_unary(UnaryExpr& e);
    SemaType check_binary(BinaryExpr& e);
    SemaType check_cond(CondExpr& e);
    SemaType check_cast(CastExpr& e);
    // Checks `e` and that it converts implicitly to `target`.
    bool check_value_as(Expr& e, ScalarType target);
    bool coerce(Expr& e, ScalarType target);
    // Checks `e` and that it is a value (scalar or literal); reports otherwise.
    SemaType check_value(Expr& e);
    bool check_int(Expr& e, const char* what);
    std::optional<int64_t> check_const_int(Expr& e, const char* what);
    void check_cluster(Expr& e);
    void check_min_blocks(KernelDecl& k, int64_t threads);

    // calls (sema_call.cpp)
    SemaType check_call(CallExpr& e);
    SemaType check_mapping_call(CallExpr& e);
    SemaType check_builtin_call(CallExpr& e, const struct BuiltinInfo& b);
    SemaType check_fn_call(CallExpr& e, Symbol& fn);
    // sema_tensor_core.cpp
    SemaType check_tensor_core_call(CallExpr& e, const struct BuiltinInfo& b);
    bool check_async_layout(CallExpr& e, const struct BuiltinInfo& b, const std::vector<const Symbol*>& refs);
    bool check_arg_count(CallExpr& e, size_t expected);

    DiagnosticsEngine& diags_;
    int arch_;
    bool choosing_target_ = false;          // choose_target() was called
    bool target_fixed_ = false;             // --arch or a declaration: uses above it are errors
    std::optional<SourceLoc> mismatch_at_;  // the use a target mismatch was reported at
    TargetChoice target_;
    struct Instantiation {
        SourceRange where;
        std::string message;
    };
    std::optional<Instantiation> instantiation_;  // the `kernel k = g<..>` being checked
    struct SharedOver {
        SourceRange range;
        std::string kernel;
        int64_t bytes;
        std::optional<Instantiation> instantiation;
    };
    std::vector<SharedOver> sm80_shared_;  // reported by finish_target() if the target stays sm_80
    bool in_instance_ = false;             // checking a graph's instance: any target
    std::deque<Symbol> symbols_;
    std::deque<Scope> scopes_;
    Scope* scope_ = nullptr;
    Scope* globals_ = nullptr;

    // Per function being checked.
    KernelDecl* kernel_ = nullptr;
    DeviceFnDecl* fn_ = nullptr;
    std::vector<int64_t> block_dims_;                            // constant block sizes (0 when symbolic)
    std::vector<std::pair<int64_t, ScalarType>> shared_arrays_;  // bytes and element of each shared array
    SourceRange setmaxnreg_call_;                                // the kernel's first setmaxnreg call, if any
    bool sm90_calls_ = false;                 // it calls sm_90 built-ins (1024-byte aligned shared arrays)
    std::vector<Symbol*> unused_candidates_;  // its parameters and locals, for -Wunused-*
    bool pruned_branch_ = false;              // an instance's constant condition left a branch unchecked
    int loop_depth_ = 0;

    friend class ScopeGuard;
};

}  // namespace hds
