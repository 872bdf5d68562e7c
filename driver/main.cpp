// main.cpp — the hdsc command line (CLI11). All flags end up in Options; the
// work happens in compiler.cpp.
#include <CLI/CLI.hpp>
#include <iostream>

#include "driver/compiler.h"
#include "driver/run_command.h"
#include "driver/tune.h"
#include "frontend/diagnostics.h"
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
    run_cmd
        ->add_option("--arch", run.arch,
                     "the target whose schedules graphs take: sm_80 or sm_90a (TMA, wgmma, clusters: emulated "
                     "too). Default: the file's, as for compiling")
        ->check(CLI::IsMember({"sm_80", "sm_90a"}));
    run_cmd
        ->add_option("--shared-memory", run.shared_memory,
                     "the shared memory a block may have on the device emulated, in bytes (default 232448, an "
                     "H100's; 101376 for sm_86/89/120 GPUs, 166912 for an A100): sm_80 code's dispatch tests it")
        ->check(CLI::Range(int64_t{1}, int64_t{1} << 30));
    hds::driver::TuneOptions tune;
    CLI::App* tune_cmd = app.add_subcommand(
        "tune", "time each candidate schedule of the graphs' op calls on the GPU and cache the fastest");
    tune_cmd->add_option("input", tune.input, "the .hds file with graphs")->required();
    tune_cmd->add_option("-I", tune.include_dirs, "directory searched by import \"...\"")->allow_extra_args(false);
    tune_cmd
        ->add_option(
            "--arch", tune.arch,
            "target: sm_80 or sm_90a (default: the file's, as for hdsc; a file of no target: sm_90a on an sm_90 GPU)")
        ->check(CLI::IsMember({"sm_80", "sm_90a"}));
    tune_cmd
        ->add_option("--level", tune.level,
                     "search level: 0 defaults only, 1 (default) each parameter alone, 2 every combination")
        ->check(CLI::Range(0, 2));
    tune_cmd->add_option("--sizes", tune.sizes,
                         "NAME=VALUE,... the graphs' sizes to time at; several values for one size (M=1,16,128) tune a "
                         "choice per size bucket");
    tune_cmd->add_option("--cache", tune.cache, "the JSON cache to update (default hds-tune.json)");
    tune_cmd->add_option("--work", tune.work, "keep the candidates' sources and programs in this folder");
    tune_cmd->add_option("--nvcc", tune.nvcc, "the nvcc to build candidates with");
    tune_cmd->add_option("--runtime", tune.runtime, "the folder holding hds/runtime.h");
    tune_cmd->add_option("-j,--jobs", tune.jobs, "parallel nvcc compiles (default: one per core)");
    tune_cmd->add_flag("--no-run", tune.no_run, "only build the candidates (no GPU needed)");
    app.add_option("input", opts.input, "the .hds file to compile");
    app.add_option("-o,--output", opts.output, "output .cu path ('-' for stdout; default <stem>.cu)");
    app.add_option("--header", opts.header, "output header path (default: beside the .cu)");
    app.add_option("--out-dir", opts.out_dir, "directory for <graph>.cu and <graph>.h of files with graphs");
    app.add_option("-I", opts.include_dirs, "directory searched by import \"...\" (repeatable)")
        ->allow_extra_args(false);
    app.add_option("--depfile", opts.depfile, "write a Makefile depfile listing every file read");
    app.add_option("--manifest", opts.manifest,
                   "write a JSON description of the graphs' host API (functions, tensors, dtypes, shape expressions, "
                   "sizes, requirements, variants) and of every file read");
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
                   "target: sm_80 (the code runs on sm_80 and newer) or sm_90a (TMA, wgmma: H100/H200 only). "
                   "Without it, the file's `target` declaration, else the least target the file needs: sm_90a "
                   "where its kernels use Hopper built-ins, else sm_80. The .cu's first lines say which, and why, "
                   "and print the nvcc line")
        ->check(CLI::IsMember({"sm_80", "sm_90a"}));
    std::string warning_help =
        "warnings: -W<name> on, -Wno-<name> off, -Wall, -Werror (warnings become errors). Names:";
    for (const std::string& w : hds::warning_flags()) warning_help += " " + w;
    app.add_option("-W", opts.warnings, warning_help)->allow_extra_args(false);
    app.add_option("--tune-cache", opts.tune_cache, "JSON written by `hdsc tune`: the schedules and parameters to use");
    app.add_flag("--check", opts.check_only, "only check the input; write nothing");
    app.add_flag("--verify", opts.verify, "check that errors match the file's expected-error comments");
    app.add_flag("--line-directives", opts.line_directives, "emit #line directives instead of line comments");
    app.add_flag("--no-dependent-launch", opts.no_dependent_launch,
                 "sm_90a graphs: launch the second kernel of a `then` schedule only once the first has finished (by "
                 "default its blocks are placed while the first runs: programmatic dependent launch; docs/graphs.md)");
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
    if (tune_cmd->parsed()) return hds::driver::tune(tune, std::cout, std::cerr);
    if (opts.input.empty()) {
        std::cerr << "hdsc: error: input is required\nRun 'hdsc --help' for usage.\n";
        return hds::driver::kUserError;
    }
    return hds::driver::compile(opts, std::cout, std::cerr);
}
