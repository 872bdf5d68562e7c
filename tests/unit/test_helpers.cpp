// test_helpers.cpp — the in-memory compilation driver used by unit tests.
#include "tests/unit/test_helpers.h"

#include <sstream>

#include "codegen/cuda/cuda_emitter.h"
#include "frontend/lower_to_ir.h"
#include "frontend/module_loader.h"
#include "frontend/sema.h"
#include "ir/lower.h"

namespace hds::test {

Compiled compile(const std::string& source, const std::string& name) {
    Compiled out;
    SourceManager sources;
    DiagnosticsEngine diags(sources);
    WarningOptions quiet;  // unit tests look at errors; tests/warnings/ covers the warnings
    quiet.apply("no-all");
    diags.set_warning_options(quiet);
    uint32_t id = sources.add_file(name, source);
    LoadedModule loaded = load_module(id, sources, diags, {}, [](const std::string&) { return std::nullopt; });
    auto sema = std::make_shared<Sema>(diags);
    out.sema = sema;
    if (loaded.module) sema->check(*loaded.module);
    std::ostringstream err;
    diags.print(err);
    out.errors = err.str();
    out.ast = std::move(loaded.module);
    if (diags.has_errors() || !out.ast) return out;
    out.ir = lower_to_ir(*out.ast, sources);
    ir::PipelineOptions opts;
    opts.verify = true;
    ir::run_pipeline(out.ir, opts);
    codegen::CudaOptions copts;
    copts.header_include = "test.h";
    copts.version = "test";
    codegen::CudaOutput code = codegen::emit_cuda(out.ir, copts);
    out.cu = code.cu;
    out.header = code.header;
    return out;
}

std::string check_errors(const std::string& source) {
    return compile(source).errors;
}

bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}

}  // namespace hds::test
