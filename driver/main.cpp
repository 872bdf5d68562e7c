// main.cpp — the hdsc command line (CLI11). All flags end up in Options; the
// work happens in compiler.cpp.
#include <CLI/CLI.hpp>
#include <iostream>

#include "driver/compiler.h"
#include "driver/run_command.h"
#include "ir/lower.h"

int main(int argc, char** argv) {
    using hds::driver::Options;
    Options opts;
    CLI::App app{"hdsc: compiles .hds kernels to readable CUDA C++ (a .cu file and a header with launchers)", "hdsc"};
    app.require_subcommand(0, 1);
    hds::driver::RunOptions run;
    CLI::App* run_cmd = app.add_subcommand("run", "run one kernel on the CPU emulator (CUDA semantics, with checks)");
    run_cmd->add_option("input", run.input, "the .hds file")->required();
    run_cmd->add_option("--kernel", run.kernel, "the kernel or graph to run")->required();
    run_cmd->add_option("--inputs", run.inputs, "comma-separated .npy files: tensor parameters in order, or NAME=FILE");
    run_cmd->add_option("--outputs", run.outputs, "comma-separated .npy files: written tensors in order, or NAME=FILE");
    run_cmd->add_option("--sizes", run.sizes, "NAME=VALUE,... (default: from the input shapes)");
    run_cmd->add_option("--scalars", run.scalars, "NAME=VALUE,... for scalar parameters");
    run_cmd->add_option("-I", run.include_dirs, "directory searched by import \"...\"")->allow_extra_args(false);
    run_cmd->add_flag("--racecheck", run.racecheck, "report shared-memory races between threads of a block");
    app.add_option("input", opts.input, "the .hds file to compile");
    app.add_option("-o,--output", opts.output, "output .cu path ('-' for stdout; default <stem>.cu)");
    app.add_option("--header", opts.header, "output header path (default: beside the .cu)");
    app.add_option("--out-dir", opts.out_dir, "directory for <graph>.cu and <graph>.h of files with graphs");
    app.add_option("-I", opts.include_dirs, "directory searched by import \"...\" (repeatable)")
        ->allow_extra_args(false);
    app.add_option("--depfile", opts.depfile, "write a Makefile depfile listing every file read");
    std::string emit_help =
        "what to print: tokens, ast, graph (after each graph pass), dot, ir, ir-after=PASS, or cu (default). "
        "PASS is one of:";
    for (const std::string& p : hds::ir::pass_names()) emit_help += " " + p;
    app.add_option("--emit", opts.emit, emit_help)->check([](const std::string& v) -> std::string {
        if (v == "tokens" || v == "ast" || v == "graph" || v == "dot" || v == "ir" || v == "cu") return "";
        if (v.rfind("ir-after=", 0) == 0) {
            for (const std::string& p : hds::ir::pass_names())
                if (v.substr(9) == p) return "";
            return "unknown pass '" + v.substr(9) + "'";
        }
        return "must be tokens, ast, graph, dot, ir, ir-after=PASS or cu";
    });
    app.add_option("--arch", opts.arch,
                   "target: sm_80 (default; the code runs on sm_80 and newer) or sm_90a (TMA, wgmma: build with "
                   "-gencode=arch=compute_90a,code=sm_90a)")
        ->check(CLI::IsMember({"sm_80", "sm_90a"}));
    app.add_option("--tune-cache", opts.tune_cache, "JSON written by `hdsc tune`: the schedules and parameters to use");
    app.add_flag("--check", opts.check_only, "only check the input; write nothing");
    app.add_flag("--verify", opts.verify, "check that errors match the file's expected-error comments");
    app.add_flag("--line-directives", opts.line_directives, "emit #line directives instead of line comments");
    app.add_flag("--verify-ir", opts.verify_ir, "run the IR verifier after every pass");
    app.set_version_flag("--version", std::string("hdsc ") + hds::driver::version());
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "hdsc: error: " << e.what() << "\n"
                  << "Run 'hdsc --help' for usage.\n";
        return hds::driver::kUserError;
    }
    if (run_cmd->parsed()) return hds::driver::run_on_emulator(run, std::cout, std::cerr);
    if (opts.input.empty()) {
        std::cerr << "hdsc: error: input is required\nRun 'hdsc --help' for usage.\n";
        return hds::driver::kUserError;
    }
    return hds::driver::compile(opts, std::cout, std::cerr);
}
