// hdsc_fuzzer.cpp — libFuzzer target over the whole compiler: parse, check,
// lower, every pass with the IR verifier, and CUDA emission, on in-memory
// input. Diagnostics are fine; a crash, a sanitizer report or an internal
// compiler error (a broken invariant) is a finding.
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "codegen/cuda/cuda_emitter.h"
#include "frontend/lower_to_ir.h"
#include "frontend/module_loader.h"
#include "frontend/sema.h"
#include "ir/internal_error.h"
#include "ir/lower.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace hds;
    SourceManager sources;
    DiagnosticsEngine diags(sources);
    uint32_t id = sources.add_file("fuzz.hds", std::string(reinterpret_cast<const char*>(data), size));
    try {
        LoadedModule loaded = load_module(id, sources, diags, {}, [](const std::string&) { return std::nullopt; });
        Sema sema(diags);
        if (loaded.module) sema.check(*loaded.module);
        std::ostringstream sink;
        diags.print(sink);  // exercises the caret printer on every input
        if (diags.has_errors() || !loaded.module) return 0;
        ir::Module m = lower_to_ir(*loaded.module, sources);
        ir::PipelineOptions opts;
        opts.verify = true;
        ir::run_pipeline(m, opts);
        codegen::CudaOptions copts;
        copts.header_include = "fuzz.h";
        codegen::emit_cuda(m, copts);
    } catch (const InternalError& e) {
        std::fprintf(stderr, "internal compiler error: %s\n", e.what());
        std::abort();
    }
    return 0;
}
