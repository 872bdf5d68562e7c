// hdsc_fuzzer.cpp — libFuzzer target over the whole compiler: parse, check,
// lower, every pass with the IR verifier, and CUDA emission, on in-memory
// input. Diagnostics are fine; a crash, a sanitizer report or an internal
// compiler error (a broken invariant) is a finding.
#include <cstdint>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>

#include "codegen/cuda/cuda_emitter.h"
#include "codegen/cuda/graph_emitter.h"
#include "driver/file_io.h"
#include "driver/graph_compile.h"
#include "frontend/lower_to_ir.h"
#include "frontend/module_loader.h"
#include "frontend/sema.h"
#include "graph/graph_builder.h"
#include "ir/internal_error.h"
#include "ir/lower.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace hds;
    SourceManager sources;
    DiagnosticsEngine diags(sources);
    uint32_t id = sources.add_file("fuzz.hds", std::string(reinterpret_cast<const char*>(data), size));
    try {
        // Imports resolve against the stdlib, so graphs over its operators go all the way.
        LoadedModule loaded = load_module(id, sources, diags, {HDS_STDLIB_DIR},
                                          [](const std::string& p) { return driver::read_file(p); });
        Sema sema(diags);
        sema.choose_target(0);  // as hdsc without --arch: declared or inferred (target declarations too)
        std::vector<std::unique_ptr<graph::Graph>> graphs;
        std::vector<std::vector<graph::Variant>> cases;
        if (loaded.module) sema.check(*loaded.module);
        graph::Target target{sema.target().arch, nullptr, nullptr};
        if (loaded.module && !diags.has_errors())
            for (const DeclPtr& d : loaded.module->decls) {
                if (d->kind != DeclKind::Graph || d->from_import) continue;
                // The variants of runtime dispatch, the last for any sizes (driver/session.cpp).
                auto v = graph::build_variants(as<GraphDecl>(*d), *loaded.module, sema, diags, target);
                if (v.empty()) continue;
                graphs.push_back(std::move(v.back().graph));
                v.pop_back();
                cases.push_back(std::move(v));
            }
        std::ostringstream sink;
        diags.print(sink);  // exercises the caret printer on every input
        if (diags.has_errors() || !loaded.module) return 0;
        ir::Module m = lower_to_ir(*loaded.module, sources);
        ir::PipelineOptions opts;
        opts.verify = true;
        codegen::CudaOptions copts;
        copts.header_include = "fuzz.h";
        copts.arch = target_name(target.arch);
        for (size_t i = 0; i < graphs.size(); ++i) {
            graph::Program p = driver::compile_graph(*graphs[i], m, opts);
            codegen::emit_graph_cuda(p, copts);
            if (cases[i].empty()) continue;
            std::vector<graph::Program> programs = driver::compile_variants(p.name, cases[i], m, opts);
            driver::emit_graph_variants(p.name, programs, cases[i], p, copts);
        }
        ir::run_pipeline(m, opts);
        codegen::emit_cuda(m, copts);
    } catch (const InternalError& e) {
        std::fprintf(stderr, "internal compiler error: %s\n", e.what());
        std::abort();
    }
    return 0;
}
