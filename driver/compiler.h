// compiler.h — one hdsc invocation: read, parse, check, lower, emit, write.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace hds::driver {

struct Options {
    std::string input;
    std::string output;         // .cu path; "-" prints to stdout; "" derives <stem>.cu (or <graph>.cu)
    std::string out_dir = ".";  // where each graph's <graph>.cu goes when -o does not name it
    std::string header;         // "" = beside the .cu
    std::string depfile;
    std::string manifest;  // "" = none; else a JSON description of the graphs' host API (codegen/cuda/manifest.h)
    std::vector<std::string> include_dirs;
    std::string emit = "cu";  // tokens | ast | graph | dot | ir | ir-after=PASS | cu
    bool check_only = false;
    bool verify = false;  // compare diagnostics with expected-error comments
    bool line_directives = false;
    bool no_dependent_launch = false;  // sm_90a graphs: no programmatic dependent launch (CudaOptions)
    bool verify_ir = false;
    std::string arch;        // "" (the file's target, docs/cli.md) | sm_80 (sm_80 and newer) | sm_90a (H100/H200 only)
    std::string tune_cache;  // `hdsc tune`'s results: schedule choices per op call
    std::vector<std::string> warnings;  // -W arguments without "-W": "error", "no-unused-variable", ...
};

// 80 for "sm_80", 90 for "sm_90a", -1 for "" (not given: the file's target).
int arch_number(const std::string& arch);

// Exit codes: 0 success, 1 errors in the input or its use, 2 internal error.
enum ExitCode { kSuccess = 0, kUserError = 1, kInternalError = 2 };

int compile(const Options& opts, std::ostream& out, std::ostream& err);

// Runs `f` (returning an exit code); a broken invariant or any other escaping
// exception becomes "internal compiler error" and exit code 2, never a crash.
template <typename F>
int guard_internal_errors(std::ostream& err, F&& f) {
    try {
        return f();
    } catch (const std::exception& e) {
        err << "hdsc: internal compiler error: " << e.what() << "\n"
            << "hdsc: please report this with the input file\n";
        return kInternalError;
    }
}

const char* version();

}  // namespace hds::driver
