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
struct Pass {
    std::string name;
    std::function<Stmt(const Stmt&)> run;
    VerifyStage stage_after;
};

const std::vector<Pass>& pipeline() {
    static const std::vector<Pass> passes = {
        {"lower_task_mappings", lower_task_mappings, {true, false}},
        {"simplify", [](const Stmt& s) { return simplify(s); }, {true, false}},
        {"flatten_indices", flatten_indices, {true, true}},
        {"simplify_flat", [](const Stmt& s) { return simplify(s); }, {true, true}},
        {"remove_dead_decls", remove_dead_decls, {true, true}},
        {"flatten_blocks", flatten_blocks, {true, true}},
    };
    return passes;
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
        for_each_body(m, p.run);
        for (Kernel& k : m.kernels) {
            for (Expr& g : k.grid) g = simplify(g);
            for (Expr& b : k.block) b = simplify(b);
        }
        VerifyStage stage = p.stage_after;
        stage.indices_flattened &= opts.flatten;
        if (opts.verify) verify_module(m, stage, p.name);
        if (opts.dump && opts.dump_after == p.name) print_module(m, *opts.dump);
    }
    prune_functions(m);
}

}  // namespace hds::ir
