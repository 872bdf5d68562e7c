// compiler.cpp — the whole pipeline for one input file.
#include "driver/compiler.h"

#include <filesystem>
#include <sstream>

#include "codegen/cuda/cuda_emitter.h"
#include "driver/file_io.h"
#include "driver/session.h"
#include "frontend/ast_printer.h"
#include "frontend/lower_to_ir.h"
#include "frontend/parser.h"
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

int emit_outputs(const Options& opts, const ir::Module& m, const std::vector<std::string>& inputs, std::ostream& out,
                 std::ostream& err) {
    std::string cu_path = opts.output;
    if (cu_path.empty()) cu_path = fs::path(opts.input).stem().string() + ".cu";
    bool to_stdout = cu_path == "-";
    std::string h_path = opts.header;
    if (h_path.empty())
        h_path = to_stdout ? fs::path(opts.input).stem().string() + ".h"
                           : fs::path(cu_path).replace_extension(".h").string();
    codegen::CudaOptions copts;
    copts.line_directives = opts.line_directives;
    copts.version = version();
    std::error_code ec;
    fs::path cu_dir = fs::absolute(cu_path, ec).parent_path();
    fs::path rel = fs::absolute(h_path, ec).lexically_relative(cu_dir);
    copts.header_include = rel.empty() ? fs::path(h_path).filename().string() : rel.string();
    codegen::CudaOutput code = codegen::emit_cuda(m, copts);
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

int run(const Options& opts, std::ostream& out, std::ostream& err) {
    Session s;
    if (!s.open(opts.input, err)) return kUserError;
    if (opts.emit == "tokens") {
        dump_tokens(s.main_file, s.sources, out);
        return kSuccess;
    }
    bool ok = s.check(opts.include_dirs);
    if (opts.verify) return s.diags.verify(err) ? kSuccess : kUserError;
    if (!ok) {
        s.diags.print(err);
        return kUserError;
    }
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
    ir::run_pipeline(m, popts);
    if (!popts.dump_after.empty()) return kSuccess;
    return emit_outputs(opts, m, s.loaded.file_paths, out, err);
}

}  // namespace

int compile(const Options& opts, std::ostream& out, std::ostream& err) {
    return guard_internal_errors(err, [&] { return run(opts, out, err); });
}

}  // namespace hds::driver
