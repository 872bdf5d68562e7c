// lower.cpp — the order in which IR passes run. Each pass is a Stmt -> Stmt
// function applied to every kernel and device function body.
#include "ir/lower.h"

#include <functional>

#include "ir/ir_mutator.h"
#include "ir/ir_printer.h"
#include "ir/passes/passes.h"
#include "ir/verifier.h"

namespace hds::ir {

namespace {
// What a pass may know besides the body: the constant block dimensions of the
// kernel (0 where symbolic; empty for a device function).
using BlockDims = std::vector<int64_t>;

struct Pass {
    std::string name;
    std::function<Stmt(const Stmt&, const BlockDims&)> run;
    VerifyStage stage_after;
};

template <Stmt (*F)(const Stmt&)>
Stmt body_only(const Stmt& s, const BlockDims&) {
    return F(s);
}
Stmt simplify_stmt(const Stmt& s) {
    return simplify(s);
}
Stmt unshadow(const Stmt& s) {
    return rename_locals(s, {});
}

const std::vector<Pass>& pipeline() {
    static const std::vector<Pass> passes = {
        {"lower_task_mappings", body_only<lower_task_mappings>, {true, false}},
        {"simplify", body_only<simplify_stmt>, {true, false}},
        {"narrow_half_arith", body_only<narrow_half_arith>, {true, false}},
        {"simplify_ranges", simplify_ranges, {true, false}},
        {"flatten_indices", body_only<flatten_indices>, {true, true}},
        {"simplify_flat", body_only<simplify_stmt>, {true, true}},
        {"remove_dead_decls", body_only<remove_dead_decls>, {true, true}},
        {"flatten_blocks", body_only<flatten_blocks>, {true, true}},
        {"rename_locals", body_only<unshadow>, {true, true}},
    };
    return passes;
}

BlockDims block_dims(const Kernel& k) {
    BlockDims dims;
    for (const Expr& b : k.block) dims.push_back(const_int(b).value_or(0));
    return dims;
}
}  // namespace

const std::vector<std::string>& pass_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> n = {"lower"};  // the IR as lowered from the AST
        for (const Pass& p : pipeline()) n.push_back(p.name);
        return n;
    }();
    return names;
}

void run_pipeline(Module& m, const PipelineOptions& opts) {
    if (opts.verify) verify_module(m, {}, "lowering from the AST");
    if (opts.dump && opts.dump_after == "lower") print_module(m, *opts.dump);
    for (const Pass& p : pipeline()) {
        if (!opts.flatten && (p.name == "flatten_indices" || p.name == "simplify_flat")) continue;
        for (DeviceFunction& f : m.functions) f.body = p.run(f.body, {});
        for (Kernel& k : m.kernels) k.body = p.run(k.body, block_dims(k));
        for (Kernel& k : m.kernels) {
            for (Expr& g : k.grid) g = simplify(g);
            for (Expr& b : k.block) b = simplify(b);
            if (k.cluster_per_call) k.cluster_per_call = simplify(k.cluster_per_call);
            if (k.min_blocks) k.min_blocks = simplify(k.min_blocks);
        }
        VerifyStage stage = p.stage_after;
        stage.indices_flattened &= opts.flatten;
        if (opts.verify) verify_module(m, stage, p.name);
        if (opts.dump && opts.dump_after == p.name) print_module(m, *opts.dump);
    }
    prune_functions(m);
}

}  // namespace hds::ir
