// run_command.cpp — `hdsc run`: front end, IR pipeline without index
// flattening, argument binding from .npy files, the emulator, outputs.
#include "driver/run_command.h"

#include <sstream>

#include "codegen/cpu/emulator.h"
#include "codegen/cpu/graph_runner.h"
#include "codegen/cpu/npy.h"
#include "driver/compiler.h"
#include "driver/file_io.h"
#include "driver/graph_compile.h"
#include "driver/session.h"
#include "frontend/lower_to_ir.h"
#include "ir/lower.h"

namespace hds::driver {

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    for (std::string item; std::getline(ss, item, sep);)
        if (!item.empty()) out.push_back(item);
    return out;
}

// Pairs "name=value" items with names, or positional items with `names` in order.
bool bind_list(const std::string& list, const std::vector<std::string>& names, const char* what,
               std::vector<std::pair<std::string, std::string>>* out, std::ostream& err) {
    std::vector<std::string> items = split(list, ',');
    size_t next = 0;
    for (const std::string& item : items) {
        size_t eq = item.find('=');
        if (eq != std::string::npos) {
            out->emplace_back(item.substr(0, eq), item.substr(eq + 1));
            continue;
        }
        if (next >= names.size()) {
            err << "hdsc: error: too many " << what << " files: the kernel has " << names.size() << "\n";
            return false;
        }
        out->emplace_back(names[next++], item);
    }
    for (const auto& [name, value] : *out) {
        if (std::find(names.begin(), names.end(), name) == names.end()) {
            err << "hdsc: error: '" << name << "' is not a " << what << " of the kernel\n";
            return false;
        }
    }
    return true;
}

bool parse_numbers(const std::string& list, const char* what, std::map<std::string, double>* out, std::ostream& err) {
    for (const std::string& item : split(list, ',')) {
        size_t eq = item.find('=');
        char* end = nullptr;
        double v = eq == std::string::npos ? 0 : std::strtod(item.c_str() + eq + 1, &end);
        if (eq == std::string::npos || eq == 0 || end == item.c_str() + eq + 1 || *end != '\0') {
            err << "hdsc: error: bad " << what << " '" << item << "': expected NAME=NUMBER\n";
            return false;
        }
        (*out)[item.substr(0, eq)] = v;
    }
    return true;
}

bool read_inputs(const std::vector<std::pair<std::string, std::string>>& inputs, const std::vector<ir::Buffer>& params,
                 std::map<std::string, emu::Tensor>* tensors, std::ostream& err) {
    for (const auto& [name, path] : inputs) {
        ScalarType elem = ScalarType::F32;
        for (const ir::Buffer& b : params)
            if (b->name == name) elem = b->elem;
        emu::Tensor t;
        if (std::string why = emu::read_npy(path, elem, &t); !why.empty()) {
            err << "hdsc: error: " << why << "\n";
            return false;
        }
        (*tensors)[name] = std::move(t);
    }
    return true;
}

int report(const emu::EmuError& e, Session& s, std::ostream& err) {
    if (!e.loc.valid()) {
        err << "hdsc: error: " << e.message << "\n";
    } else {
        s.diags.runtime_error(SourceRange{e.loc, e.loc}, e.message);
        s.diags.print(err);
    }
    return kUserError;
}

int write_outputs(const RunOptions& opts, const std::vector<std::pair<std::string, std::string>>& outputs,
                  const std::map<std::string, emu::Tensor>& tensors, std::ostream& out, std::ostream& err,
                  const std::string& variant = "") {
    std::vector<OutputFile> files;
    for (const auto& [name, path] : outputs) files.push_back({path, emu::npy_bytes(tensors.at(name))});
    std::string why;
    if (!write_files_atomically(files, &why)) {
        err << "hdsc: error: " << why << "\n";
        return kUserError;
    }
    out << "hdsc run: " << opts.kernel << (variant.empty() ? "" : " (variant " + variant + ")") << " finished";
    for (const auto& [name, path] : outputs) out << "; " << name << " -> " << path;
    out << "\n";
    return kSuccess;
}

// A graph: inputs are its parameters in order, the output is its result. `variants`:
// its builds for cases of sizes (conditions in `cases`), run as the emitted dispatch
// would for the sizes of the call; `p` the build for any sizes.
int run_graph(const RunOptions& opts, Session& s, const std::vector<graph::Program>& variants,
              const std::vector<std::vector<graph::Condition>>& cases, const graph::Program& p, std::ostream& out,
              std::ostream& err) {
    std::vector<std::string> in_names;
    for (const ir::Buffer& b : p.inputs) in_names.push_back(b->name);
    std::vector<std::pair<std::string, std::string>> inputs, outputs;
    if (!bind_list(opts.inputs, in_names, "graph input", &inputs, err)) return kUserError;
    if (!bind_list(opts.outputs, {p.output->name}, "graph output", &outputs, err)) return kUserError;
    std::map<std::string, emu::Tensor> tensors;
    std::map<std::string, double> given;
    if (!parse_numbers(opts.sizes, "size", &given, err) || !read_inputs(inputs, p.inputs, &tensors, err))
        return kUserError;
    std::map<std::string, int64_t> sizes;
    for (const auto& [name, v] : given) sizes[name] = static_cast<int64_t>(v);
    emu::EmuOptions eopts;
    eopts.racecheck = opts.racecheck;
    eopts.shared_memory = opts.shared_memory;
    if (auto e = emu::bind_sizes(p, tensors, sizes)) return report(*e, s, err);
    size_t v = emu::choose_variant(cases, sizes, eopts);
    const graph::Program& chosen = v < variants.size() ? variants[v] : p;
    if (auto e = emu::run_program(chosen, tensors, sizes, eopts)) return report(*e, s, err);
    std::string ran = variants.empty() ? "" : v < variants.size() ? chosen.name : opts.kernel + "_any";
    return write_outputs(opts, outputs, tensors, out, err, ran);
}

int run(const RunOptions& opts, std::ostream& out, std::ostream& err) {
    Session s;
    if (!s.open(opts.input, err)) return kUserError;
    // Graphs take the schedules of the target a compile would have (the sm_90a ones run too).
    if (!s.check(opts.include_dirs, graph::Target{arch_number(opts.arch), nullptr})) {
        s.diags.print(err);
        return kUserError;
    }
    ir::Module m = lower_to_ir(*s.loaded.module, s.sources);
    ir::PipelineOptions popts;
    popts.flatten = false;
    for (size_t i = 0; i < s.graphs.size(); ++i) {
        if (s.graphs[i]->name != opts.kernel) continue;
        std::vector<std::vector<graph::Condition>> cases;
        for (const graph::Variant& c : s.variants[i]) cases.push_back(c.when);
        std::vector<graph::Program> variants = compile_variants(opts.kernel, s.variants[i], m, popts);
        return run_graph(opts, s, variants, cases, compile_graph(*s.graphs[i], m, popts), out, err);
    }
    ir::run_pipeline(m, popts);
    const ir::Kernel* k = nullptr;
    for (const ir::Kernel& x : m.kernels)
        if (x.name == opts.kernel) k = &x;
    if (!k) {
        err << "hdsc: error: no kernel named '" << opts.kernel << "' in '" << opts.input << "'\n";
        return kUserError;
    }

    std::vector<std::string> tensor_names, written_names;
    for (const ir::KernelParam& p : k->params) {
        if (p.kind != ir::KernelParam::Kind::Tensor) continue;
        tensor_names.push_back(p.buffer->name);
        if (p.written) written_names.push_back(p.buffer->name);
    }
    std::vector<std::pair<std::string, std::string>> inputs, outputs;
    if (!bind_list(opts.inputs, tensor_names, "tensor parameter", &inputs, err)) return kUserError;
    if (!bind_list(opts.outputs, tensor_names, "tensor parameter", &outputs, err)) return kUserError;
    if (opts.outputs.find('=') == std::string::npos && !outputs.empty()) {
        // Positional outputs name the written tensors, in order.
        outputs.clear();
        if (!bind_list(opts.outputs, written_names, "written tensor", &outputs, err)) return kUserError;
    }

    emu::LaunchArgs args;
    std::map<std::string, double> sizes;
    if (!parse_numbers(opts.sizes, "size", &sizes, err) || !parse_numbers(opts.scalars, "scalar", &args.scalars, err))
        return kUserError;
    for (const auto& [name, v] : sizes) args.sizes[name] = static_cast<int64_t>(v);
    std::vector<ir::Buffer> params;
    for (const ir::KernelParam& p : k->params)
        if (p.kind == ir::KernelParam::Kind::Tensor) params.push_back(p.buffer);
    if (!read_inputs(inputs, params, &args.tensors, err)) return kUserError;
    emu::EmuOptions eopts;
    eopts.racecheck = opts.racecheck;
    if (auto e = emu::run_kernel(m, opts.kernel, args, eopts)) return report(*e, s, err);
    return write_outputs(opts, outputs, args.tensors, out, err);
}

}  // namespace

int run_on_emulator(const RunOptions& opts, std::ostream& out, std::ostream& err) {
    return guard_internal_errors(err, [&] { return run(opts, out, err); });
}

}  // namespace hds::driver
