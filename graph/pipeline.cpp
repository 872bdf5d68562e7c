// pipeline.cpp — the order of the graph passes.
#include "graph/pipeline.h"

#include "graph/graph_printer.h"
#include "graph/passes/passes.h"

namespace hds::graph {

namespace {

struct Pass {
    std::string name;
    void (*run)(Graph&);
};

const std::vector<Pass>& passes() {
    static const std::vector<Pass> all = {
        {"cse", eliminate_common_subexpressions},
        {"fold_constants", fold_constants},
        {"fuse_epilogues", fuse_epilogues},
        {"inline_injective", inline_injective},
        {"fuse_rows", fuse_rows},
        {"prefetch_epilogue_loads", prefetch_epilogue_loads},
    };
    return all;
}

}  // namespace

const std::vector<std::string>& graph_pass_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> n;
        for (const Pass& p : passes()) n.push_back(p.name);
        return n;
    }();
    return names;
}

void run_graph_passes(Graph& g, std::ostream* dump) {
    if (g.passed) return;
    g.passed = true;
    if (dump) {
        *dump << "// as built\n";
        print_graph(g, *dump);
    }
    for (const Pass& p : passes()) {
        p.run(g);
        if (dump) {
            *dump << "\n// after " << p.name << "\n";
            print_graph(g, *dump);
        }
    }
}

}  // namespace hds::graph
