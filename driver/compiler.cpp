// compiler.cpp — the whole pipeline for one input file.
#include "driver/compiler.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <sstream>

#include "codegen/cuda/cuda_emitter.h"
#include "codegen/cuda/graph_emitter.h"
#include "codegen/cuda/manifest.h"
#include "driver/file_io.h"
#include "driver/graph_compile.h"
#include "driver/session.h"
#include "frontend/ast_printer.h"
#include "frontend/lower_to_ir.h"
#include "frontend/parser.h"
#include "graph/graph_printer.h"
#include "ir/ir_printer.h"
#include "ir/lower.h"

namespace hds::driver {

namespace fs = std::filesystem;

const char* version() {
    return "0.1.0";
}

namespace {

std::string depfile_escape(const std::string& path) {
    std::string out;
    for (char c : path) {
        if (c == ' ' || c == '#') out += '\\';
        if (c == '$') out += '$';
        out += c;
    }
    return out;
}

using Emitter = std::function<codegen::CudaOutput(const codegen::CudaOptions&)>;

// Writes `<stem>.cu` and its header (and the depfile), or prints the .cu for "-o -";
// `target`: the .cu's (graph_target), if not the file's.
int emit_outputs(const Options& opts, const Session& s, const std::string& stem, std::string cu_path,
                 const Emitter& emit, std::ostream& out, std::ostream& err, std::string target = "") {
    const std::vector<std::string>& inputs = s.loaded.file_paths;
    if (cu_path.empty()) cu_path = stem + ".cu";
    bool to_stdout = cu_path == "-";
    std::string h_path = opts.header;
    if (h_path.empty()) h_path = to_stdout ? stem + ".h" : fs::path(cu_path).replace_extension(".h").string();
    codegen::CudaOptions copts;
    copts.line_directives = opts.line_directives;
    copts.version = version();
    copts.arch = target.empty() ? target_name(s.target.arch) : target;
    copts.dependent_launch = copts.arch != "sm_80" && !opts.no_dependent_launch;
    copts.target_reason = describe_target(s.target, s.sources, copts.arch);
    copts.cu_name = to_stdout ? stem + ".cu" : fs::path(cu_path).filename().string();
    std::error_code ec;
    fs::path cu_dir = fs::absolute(cu_path, ec).parent_path();
    fs::path rel = fs::absolute(h_path, ec).lexically_relative(cu_dir);
    copts.header_include = rel.empty() ? fs::path(h_path).filename().string() : rel.string();
    codegen::CudaOutput code = emit(copts);
    if (to_stdout) {
        out << code.cu;
        return kSuccess;
    }
    std::vector<OutputFile> files = {{cu_path, code.cu}, {h_path, code.header}};
    if (!opts.depfile.empty()) {
        std::string dep = depfile_escape(cu_path) + " " + depfile_escape(h_path) + ":";
        for (const std::string& in : inputs) dep += " " + depfile_escape(in);
        files.push_back({opts.depfile, dep + "\n"});
    }
    std::string why;
    if (!write_files_atomically(files, &why)) {
        err << "hdsc: error: " << why << "\n";
        return kUserError;
    }
    return kSuccess;
}

// `--manifest`: the graphs' host API (codegen/cuda/manifest.h) and what hdsc read to
// write them (a cache of builds keys on those files).
// "target": the file's, or sm_80+sm_90a where a graph's .cu has both.
int write_manifest(const Options& opts, const Session& s, const nlohmann::json& graphs, std::ostream& err) {
    if (opts.manifest.empty()) return kSuccess;
    nlohmann::json files = nlohmann::json::array();
    for (const std::string& f : s.loaded.file_paths) files.push_back(f);
    std::string target = target_name(s.target.arch);
    for (const nlohmann::json& g : graphs)
        if (g.value("target", "") == codegen::kSm80AndSm90a) target = codegen::kSm80AndSm90a;
    nlohmann::json j = {
        {"hdsc", version()}, {"source", opts.input}, {"target", target}, {"files", files}, {"graphs", graphs}};
    std::string why;
    if (!write_files_atomically({{opts.manifest, j.dump(2) + "\n"}}, &why)) {
        err << "hdsc: error: " << why << "\n";
        return kUserError;
    }
    return kSuccess;
}

// A file with graphs: one .cu and header per graph.
int emit_graphs(const Options& opts, Session& s, const ir::Module& m, const ir::PipelineOptions& popts,
                std::ostream& out, std::ostream& err) {
    nlohmann::json manifests = nlohmann::json::array();
    bool several = s.graphs.size() > 1;
    if (opts.emit == "cu" && several && !opts.output.empty() && opts.output != "-") {
        err << "hdsc: error: '" << opts.input << "' declares " << s.graphs.size()
            << " graphs; write them with --out-dir DIR (one .cu per graph)\n";
        return kUserError;
    }
    for (size_t i = 0; i < s.graphs.size(); ++i) {
        graph::Graph& g = *s.graphs[i];
        std::string name = g.name;
        // Symbolic sizes some schedule holds for only: a variant per case
        // (`NAME_skinny`, `NAME_rows16`, ...), and this one (`NAME_any`) otherwise.
        std::vector<graph::Variant>& cases = s.variants[i];
        bool dispatch = !cases.empty() && opts.emit == "cu";
        if (dispatch) g.name = name + "_any";
        graph::Program p = compile_graph(g, m, popts, opts.emit == "graph" ? &out : nullptr);
        if (opts.emit == "dot") graph::print_dot(g, out);
        if (opts.emit != "cu") continue;
        std::vector<graph::Program> programs;
        if (dispatch) programs = compile_variants(name, cases, m, popts);
        std::string cu_path = opts.output;
        if (cu_path.empty() || (several && cu_path != "-"))  // "-o -": every graph's .cu printed in turn
            cu_path = (fs::path(opts.out_dir) / (name + ".cu")).string();
        std::vector<graph::Program> emitted;  // the dispatcher's programs, kernels named as in the .cu
        auto emit = [&](const codegen::CudaOptions& c) {
            return emit_graph_variants(name, programs, cases, p, c, &emitted);
        };
        std::string target = graph_target(s.target.arch, cases);
        int rc = emit_outputs(opts, s, name, cu_path, emit, out, err, target);
        if (rc != kSuccess) return rc;
        std::vector<codegen::GraphVariant> order = dispatch_order(programs, cases, p);
        for (size_t v = 0; v < emitted.size(); ++v) order[v].program = &emitted[v];
        nlohmann::json manifest = codegen::graph_manifest(name, order);
        manifest["cu"] = cu_path == "-" ? name + ".cu" : fs::path(cu_path).filename().string();
        manifest["target"] = target;
        manifests.push_back(manifest);
    }
    return opts.emit == "cu" ? write_manifest(opts, s, manifests, err) : kSuccess;
}

int run(const Options& opts, std::ostream& out, std::ostream& err) {
    Session s;
    WarningOptions warnings;
    for (const std::string& w : opts.warnings) {
        if (warnings.apply(w)) continue;
        if (w == "default-target" || w == "no-default-target") {  // gone: build scripts that name it still work
            err << "hdsc: note: '-W" << w << "' has no effect: the warning is gone, since a graph of a file "
                << "that declares no target holds its sm_90a variants too (docs/cli.md, \"The target\")\n";
            continue;
        }
        err << "hdsc: error: unknown warning option '-W" << w << "'; the warnings are";
        for (const std::string& f : warning_flags()) err << " " << f;
        err << "\n";
        return kUserError;
    }
    s.diags.set_warning_options(warnings);
    if (!s.open(opts.input, err)) return kUserError;
    if (opts.emit == "tokens") {
        dump_tokens(s.main_file, s.sources, out);
        return kSuccess;
    }
    graph::Tuning tuning;
    if (!opts.tune_cache.empty()) {
        std::string error;
        auto choices = graph::load_cache(opts.tune_cache, error);
        if (!choices) {
            err << "hdsc: error: " << error << "\n";
            return kUserError;
        }
        tuning.choices = std::move(*choices);
    }
    bool ok = s.check(opts.include_dirs, graph::Target{arch_number(opts.arch), &tuning});
    if (opts.verify) return s.diags.verify(err) ? kSuccess : kUserError;
    s.diags.print(err);  // the warnings, or the errors
    if (!ok) return kUserError;
    if (opts.emit == "ast") {
        print_ast(*s.loaded.module, out);
        return kSuccess;
    }
    if (opts.check_only) return kSuccess;
    ir::Module m = lower_to_ir(*s.loaded.module, s.sources);
    ir::PipelineOptions popts;
    popts.verify = opts.verify_ir;
#ifndef NDEBUG
    popts.verify = true;  // debug builds check the IR between all passes
#endif
    if (opts.emit == "ir") popts.dump_after = ir::pass_names().back();
    if (opts.emit.rfind("ir-after=", 0) == 0) popts.dump_after = opts.emit.substr(9);
    popts.dump = &out;
    if (!s.graphs.empty()) return emit_graphs(opts, s, m, popts, out, err);
    ir::run_pipeline(m, popts);
    if (!popts.dump_after.empty()) return kSuccess;
    if (write_manifest(opts, s, nlohmann::json::array(), err) != kSuccess) return kUserError;
    return emit_outputs(
        opts, s, fs::path(opts.input).stem().string(), opts.output,
        [&](const codegen::CudaOptions& c) { return codegen::emit_cuda(m, c); }, out, err);
}

}  // namespace

int arch_number(const std::string& arch) {
    return arch.empty() ? -1 : arch == "sm_90a" ? 90 : 80;
}

int compile(const Options& opts, std::ostream& out, std::ostream& err) {
    return guard_internal_errors(err, [&] { return run(opts, out, err); });
}

}  // namespace hds::driver
