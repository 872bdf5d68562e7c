// dispatch_cases.cpp — a dispatcher's if chain and its listing (see dispatch_cases.h).
#include "codegen/cuda/dispatch_cases.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "codegen/cuda/code_writer.h"
#include "codegen/cuda/cuda_expr.h"
#include "graph/decisions.h"
#include "graph/variants.h"

namespace hds::codegen {

DispatchCases dispatch_cases(const std::string& api, const std::vector<GraphVariant>& variants,
                             const std::function<std::string(const graph::Program&, size_t)>& chain_label) {
    DispatchCases out;
    CudaExprPrinter host;  // in the int of the sizes
    CodeWriter w;
    w.line(fmt::format("// Graph `{}` runs one of {} variants, the first whose case holds for the sizes of the call:",
                       api, variants.size()));
    // The sm_90a variants (beside sm_80 code) first, in a block of their own.
    while (out.sm90a < variants.size() && graph::runs_sm90a_code(variants[out.sm90a].when)) ++out.sm90a;
    if (out.sm90a > 0) {
        out.sm90a_test = host.print(variants[0].when[0].expr);
        w.line(fmt::format("// where {} holds ({}): the first {}; elsewhere the others:", out.sm90a_test,
                           variants[0].when[0].why, out.sm90a == 1 ? "one" : std::to_string(out.sm90a)));
    }
    for (size_t i = 0; i < variants.size(); ++i) {
        GraphVariant v = variants[i];
        if (i < out.sm90a) v.when.erase(v.when.begin());  // tested once, above them
        std::vector<std::string> parts, tests;            // tests: each conjunct once
        bool loose = false;                               // a disjunction or a choice among them
        for (const graph::Condition& c : v.when) {
            parts.push_back(host.print(c.expr));
            for (const ir::Expr& e : graph::conjuncts(c.expr)) {
                std::string t = host.print(e);
                if (std::find(tests.begin(), tests.end(), t) != tests.end()) continue;
                auto* b = ir::as<ir::Binary>(e);
                bool weak = (b && b->op == ir::BinOp::Or) || e->kind == ir::ExprKind::Select;
                tests.push_back(weak ? "(" + t + ")" : t);
                loose |= weak;
            }
        }
        // Joined by &&: a disjunction keeps its parentheses, unless it is alone.
        if (tests.size() == 1 && loose) tests[0] = tests[0].substr(1, tests[0].size() - 2);
        out.tests.push_back(fmt::format("{}", fmt::join(tests, " && ")));
        out.names.push_back(v.program->name);
        if (v.when.empty()) w.line(fmt::format("//   {}: any sizes", v.program->name));
        for (size_t c = 0; c < v.when.size(); ++c)
            w.line(fmt::format("//   {}{} ({})",
                               c == 0 ? v.program->name + ": " : std::string(v.program->name.size(), ' ') + "  and ",
                               parts[c], v.when[c].why));
        const std::vector<graph::Program::Launch>& launches = v.program->launches;
        for (size_t k = 0; k < v.program->module.kernels.size(); ++k) {
            if (launches[k].chained) continue;  // listed with its chain's first
            std::string name = v.program->module.kernels[k].name;
            if (launches[k].when) name = chain_label(*v.program, k) + " (a kernel per case)";
            w.line(fmt::format("//     {} <- {}", name, v.program->origins[k]));
        }
    }
    out.listing = w.str();
    out.listing.pop_back();  // its last newline (CodeWriter::raw adds one)
    return out;
}

std::string sm90a_code_function() {
    return "// sm90a_code(): whether the current device runs this file's compute_90a build (an H100/H200,\n"
           "// and nvcc built the .cu for compute_90a: the Build line above), the one whose sm_90a\n"
           "// kernels have their bodies; the probe's launch bound tells (hds/hopper.h).\n"
           "static __global__ void __launch_bounds__(HDS_SM90A_PROBE_THREADS) sm90a_probe() {}\n"
           "static bool sm90a_code() {\n"
           "    static std::atomic<signed char> known[64];  // per device\n"
           "    return hds::detail::runs_sm90a_build(reinterpret_cast<const void*>(sm90a_probe), known);\n"
           "}\n\n";
}

}  // namespace hds::codegen
