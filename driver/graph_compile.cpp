// graph_compile.cpp — graph passes, scheduling, IR pipeline.
#include "driver/graph_compile.h"

#include <set>

#include "graph/pipeline.h"

namespace hds::driver {

graph::Program compile_graph(graph::Graph& g, const ir::Module& lowered, const ir::PipelineOptions& popts,
                             std::ostream* graph_dump) {
    graph::run_graph_passes(g, graph_dump);
    graph::Program p = graph::schedule_graph(g, lowered.functions, lowered.file_names);
    p.module.source_path = lowered.source_path;
    ir::run_pipeline(p.module, popts);
    return p;
}

std::vector<graph::Program> compile_variants(const std::string& name, std::vector<graph::Variant>& cases,
                                             const ir::Module& lowered, const ir::PipelineOptions& popts) {
    std::vector<graph::Program> out;
    std::set<std::string> names = {name + "_any"};
    for (graph::Variant& v : cases) {
        std::string base = name + "_" + graph::variant_tag(v.when), unique = base;
        for (int n = 2; names.count(unique); ++n) unique = base + std::to_string(n);
        names.insert(unique);
        v.graph->name = unique;
        out.push_back(compile_graph(*v.graph, lowered, popts));
    }
    return out;
}

std::string graph_target(int arch, const std::vector<graph::Variant>& cases) {
    if (!cases.empty() && graph::runs_sm90a_code(cases.front().when)) return codegen::kSm80AndSm90a;
    return target_name(arch);
}

std::vector<codegen::GraphVariant> dispatch_order(const std::vector<graph::Program>& programs,
                                                  const std::vector<graph::Variant>& cases, const graph::Program& any) {
    std::vector<codegen::GraphVariant> all;
    for (size_t v = 0; v < programs.size(); ++v) all.push_back({&programs[v], cases[v].when});
    all.push_back({&any, {}});
    return all;
}

codegen::CudaOutput emit_graph_variants(const std::string& name, const std::vector<graph::Program>& programs,
                                        const std::vector<graph::Variant>& cases, const graph::Program& any,
                                        const codegen::CudaOptions& opts, std::vector<graph::Program>* emitted) {
    if (programs.empty()) return codegen::emit_graph_cuda(any, opts);
    return codegen::emit_graph_cuda_dispatch(name, dispatch_order(programs, cases, any), opts, emitted);
}

}  // namespace hds::driver
