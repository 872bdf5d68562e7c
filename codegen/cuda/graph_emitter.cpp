// graph_emitter.cpp — kernels plus host code that runs them in order over one
// workspace (see graph_emitter.h).
#include "codegen/cuda/graph_emitter.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "codegen/cuda/code_writer.h"
#include "codegen/cuda/cuda_expr.h"
#include "codegen/cuda/cuda_names.h"
#include "codegen/cuda/dispatch_cases.h"
#include "codegen/cuda/hopper_emit.h"
#include "codegen/cuda/kernel_sharing.h"
#include "graph/variants.h"
#include "ir/builtins.h"
#include "ir/internal_error.h"
#include "ir/ir_visitor.h"
#include "ir/scalar_type.h"

namespace hds::codegen {

std::vector<ir::Buffer> vector_accessed(const ir::Module& m) {
    std::vector<ir::Buffer> found;
    for (const ir::Kernel& k : m.kernels)
        for (const ir::Buffer& b : ir::vector_copied_globals(k.body))
            if (std::find(found.begin(), found.end(), b) == found.end()) found.push_back(b);
    return found;
}

namespace {

// The launch functions of kernel chains already emitted, shared by the variants of a
// dispatcher: their texts by name, and the name each chain (program, first kernel) got.
struct ChainLaunchers {
    std::map<std::string, std::string> text;
    std::map<std::pair<const graph::Program*, size_t>, std::string> name;
};

class HostEmitter {
  public:
    // `api`: the functions' prefix (the program's name when empty); `internal`:
    // a variant behind a dispatcher: static run and workspace functions, no capture.
    explicit HostEmitter(const graph::Program& p, std::string api = "", bool internal = false,
                         ChainLaunchers* helpers = nullptr)
        : p_(p),
          api_(api.empty() ? p.name : std::move(api)),
          internal_(internal),
          helpers_(helpers ? helpers : &own_helpers_) {}
    // Launch the kernels that ask for it programmatically after the one before
    // (CudaOptions::dependent_launch, ir::Kernel::wait_previous).
    HostEmitter& dependent_launch(bool on) {
        dependent_ = on;
        return *this;
    }

    // `const __half* x, ..., __half* out, int B`
    std::vector<std::string> data_params() const {
        std::vector<std::string> out;
        for (const ir::Buffer& b : p_.inputs) out.push_back("const " + cuda_type(b->elem) + "* " + cuda_ident(b->name));
        out.push_back(cuda_type(p_.output->elem) + "* " + cuda_ident(p_.output->name));
        for (const ir::Var& s : p_.sizes) out.push_back("int " + cuda_ident(s->name));
        return out;
    }
    std::vector<std::string> data_args() const {
        std::vector<std::string> out;
        for (const ir::Buffer& b : p_.inputs) out.push_back(cuda_ident(b->name));
        out.push_back(cuda_ident(p_.output->name));
        for (const ir::Var& s : p_.sizes) out.push_back(cuda_ident(s->name));
        return out;
    }
    std::vector<std::string> size_params() const {
        std::vector<std::string> out;
        for (const ir::Var& s : p_.sizes) out.push_back("int " + cuda_ident(s->name));
        return out;
    }

    std::string bytes(const ir::Buffer& b) {
        std::string s = fmt::format("sizeof({})", cuda_type(b->elem));
        for (const ir::Expr& d : b->shape) s += " * " + launch_.print(d);
        return s;
    }

    std::string header() {
        CodeWriter h;
        const std::string& api = api_;
        h.line(fmt::format("// Graph `{}`: {} kernel(s). Tensors are dense, row-major, on the device.", api,
                           p_.module.kernels.size()));
        h.line("// Bytes of scratch memory a run needs (pass it as `workspace`; 0 means none).");
        h.line(wrap_list(fmt::format("size_t {}_workspace_size(", api), size_params(), ");"));
        h.line("// Runs the graph on `stream`. Returns cudaErrorInvalidValue for a size <= 0, a null");
        h.line("// tensor, a missing or not 16-byte aligned workspace or a tensor of 2^31 elements or");
        h.line("// more, else the first launch error.");
        for (const graph::Requirement& r : p_.requirements) h.line("// Also for sizes that break " + r.why + ".");
        auto run = data_params();
        run.push_back("void* workspace");
        run.push_back("cudaStream_t stream = 0");
        h.line(wrap_list(fmt::format("cudaError_t {}_run(", api), run, ");"));
        h.line("// Captures one run into an executable CUDA graph (`stream` must not be the legacy");
        h.line("// default stream); replay it with NAME_replay and free it with cudaGraphExecDestroy.");
        auto cap = data_params();
        cap.push_back("void* workspace");
        cap.push_back("cudaStream_t stream");
        cap.push_back("cudaGraphExec_t* exec");
        h.line(wrap_list(fmt::format("cudaError_t {}_capture(", api), cap, ");"));
        h.line(fmt::format("cudaError_t {}_replay(cudaGraphExec_t exec, cudaStream_t stream);", api));
        return h.str();
    }

    std::string source() {
        CodeWriter w;
        const std::string& api = api_;
        std::string linkage = internal_ ? "static " : "";
        // Slot sizes.
        w.line(fmt::format("// Workspace slots of `{}`: temporaries whose lifetimes do not overlap share one.", api));
        w.line(wrap_list(fmt::format("static void {}_slots(", api), with(size_params(), "size_t* slot"), ") {"));
        w.indent();
        for (int s = 0; s < p_.slots; ++s) {
            std::vector<std::string> sizes;
            for (size_t t = 0; t < p_.temps.size(); ++t)
                if (p_.slot_of[t] == s) sizes.push_back(fmt::format("(size_t)({})", bytes(p_.temps[t])));
            std::string v = sizes[0];
            for (size_t i = 1; i < sizes.size(); ++i) v = fmt::format("std::max({}, {})", v, sizes[i]);
            w.line(fmt::format("slot[{}] = ({} + 255) / 256 * 256;", s, v));
        }
        if (p_.slots == 0) w.line("(void)slot;");
        w.dedent();
        w.line("}");
        w.blank();
        std::vector<std::string> size_args;
        for (const ir::Var& s : p_.sizes) size_args.push_back(cuda_ident(s->name));
        w.line(wrap_list(fmt::format("{}size_t {}_workspace_size(", linkage, api), size_params(), ") {"));
        w.indent();
        w.line(fmt::format("size_t slot[{}] = {{0}};", std::max(p_.slots, 1)));
        w.line(wrap_list(fmt::format("{}_slots(", api), with(size_args, "slot"), ");"));
        if (p_.slots <= 1) {  // one slot (or none: slot[0] stays 0)
            w.line("return slot[0];");
        } else {
            w.line("size_t total = 0;");
            w.line(fmt::format("for (int i = 0; i < {}; ++i) total += slot[i];", p_.slots));
            w.line("return total;");
        }
        w.dedent();
        w.line("}");
        w.blank();
        std::string launchers = chain_launchers();
        run_function(w);
        if (!internal_) capture_functions(w);
        return launchers + w.str();
    }

    // The public functions of a dispatcher over `variants` (this emitter's program
    // is the first; they share sizes and tensors).
    std::string dispatch_source(const std::vector<GraphVariant>& variants) {
        CodeWriter w;
        DispatchCases cases = dispatch_cases(api_, variants, [&](const graph::Program& p, size_t k) {
            auto chosen = helpers_->name.find({&p, k});  // (none: launched in place)
            return chosen != helpers_->name.end() ? chosen->second : chain_name(p, k);
        });
        w.raw(cases.listing);
        std::vector<std::string> size_args;
        for (const ir::Var& s : p_.sizes) size_args.push_back(cuda_ident(s->name));
        auto chain = [&](const std::string& fn, const std::vector<std::string>& args) {
            if (cases.sm90a > 0) {
                w.line("if (" + cases.sm90a_test + ") {");
                w.indent();
            }
            for (size_t i = 0; i < cases.names.size(); ++i) {
                std::string call = wrap_list(fmt::format("return {}_{}(", cases.names[i], fn), args, ");");
                if (cases.tests[i].empty()) {
                    w.line(call);
                    if (i + 1 != cases.sm90a) break;
                    w.dedent();
                    w.line("}");
                    continue;
                }
                w.line("if (" + cases.tests[i] + ")");
                w.line("    " + call);
            }
        };
        w.line(wrap_list(fmt::format("size_t {}_workspace_size(", api_), size_params(), ") {"));
        w.indent();
        chain("workspace_size", size_args);
        w.dedent();
        w.line("}");
        w.blank();
        auto params = data_params();
        params.push_back("void* workspace");
        params.push_back("cudaStream_t stream");
        w.line(wrap_list(fmt::format("cudaError_t {}_run(", api_), params, ") {"));
        w.indent();
        chain("run", with(with(data_args(), "workspace"), "stream"));
        w.dedent();
        w.line("}");
        w.blank();
        capture_functions(w);
        return w.str();
    }

  private:
    static std::vector<std::string> with(std::vector<std::string> v, const std::string& x) {
        v.push_back(x);
        return v;
    }

    void run_function(CodeWriter& w) {
        const std::string& api = api_;
        auto params = data_params();
        params.push_back("void* workspace");
        params.push_back("cudaStream_t stream");
        w.line(wrap_list(fmt::format("{}cudaError_t {}_run(", internal_ ? "static " : "", api), params, ") {"));
        w.indent();
        std::vector<std::string> bad;
        for (const ir::Var& s : p_.sizes) bad.push_back(cuda_ident(s->name) + " <= 0");
        for (const ir::Buffer& b : p_.inputs) bad.push_back(cuda_ident(b->name) + " == nullptr");
        bad.push_back(cuda_ident(p_.output->name) + " == nullptr");
        w.line("// sizes must be positive, tensors not null");
        w.line(wrap_list("if (", bad, ")", " || "));
        w.line("    return cudaErrorInvalidValue;");
        for (const graph::Requirement& r : p_.requirements) {
            w.line("// " + r.why);
            w.line("if (!(" + host_.print(r.cond) + "))");
            w.line("    return cudaErrorInvalidValue;");
        }
        std::vector<std::string> misaligned;
        for (const ir::Buffer& v : vector_accessed(p_.module)) {
            const ir::Buffer& b = p_.storage_of(v);
            std::string test = fmt::format("(uintptr_t){} % 16 != 0", cuda_ident(b->name));
            if (!p_.is_temp(b) && std::find(misaligned.begin(), misaligned.end(), test) == misaligned.end())
                misaligned.push_back(test);
        }
        if (!misaligned.empty()) {
            w.line("// tensors read or written 16 bytes at a time must be 16-byte aligned (as cudaMalloc'd)");
            w.line(wrap_list("if (", misaligned, ")", " || "));
            w.line("    return cudaErrorInvalidValue;");
        }
        std::vector<std::string> counts;
        auto count = [&](const ir::Buffer& b) {
            std::string c;
            for (const ir::Expr& d : b->shape) c += (c.empty() ? "" : " * ") + launch_.print(d);
            if (!c.empty() && std::find(counts.begin(), counts.end(), c) == counts.end()) counts.push_back(c);
        };
        for (const ir::Buffer& b : p_.inputs) count(b);
        count(p_.output);
        for (const ir::Buffer& b : p_.temps) count(b);
        std::vector<std::string> too_big;
        for (const std::string& c : counts)
            if (c.find("(long long)") != std::string::npos) too_big.push_back(c + " > 2147483647LL");
        if (!too_big.empty()) {
            w.line("// tensors are indexed with 32-bit arithmetic");
            w.line(wrap_list("if (", too_big, ")", " || "));
            w.line("    return cudaErrorInvalidValue;");
        }
        std::vector<std::string> size_args;
        for (const ir::Var& s : p_.sizes) size_args.push_back(cuda_ident(s->name));
        if (p_.slots > 0) {
            w.line(fmt::format("size_t slot[{}];", p_.slots));
            w.line(wrap_list(fmt::format("{}_slots(", api), with(size_args, "slot"), ");"));
            // Temporaries are read 16 bytes at a time (vector copies, TMA) from 256-byte slots.
            w.line("if (workspace == nullptr || (uintptr_t)workspace % 16 != 0) return cudaErrorInvalidValue;");
            w.line("char* base = static_cast<char*>(workspace);");
            w.line(fmt::format("size_t offset[{}] = {{0}};", p_.slots));
            if (p_.slots > 1)
                w.line(fmt::format("for (int i = 1; i < {}; ++i) offset[i] = offset[i - 1] + slot[i - 1];", p_.slots));
            for (size_t t = 0; t < p_.temps.size(); ++t) {
                const ir::Buffer& b = p_.temps[t];
                w.line(fmt::format("{0}* {1} = reinterpret_cast<{0}*>(base + offset[{2}]);", cuda_type(b->elem),
                                   cuda_ident(b->name), p_.slot_of[t]));
            }
        } else {
            w.line("(void)workspace;");
        }
        for (const graph::Program::View& v : p_.views) {
            bool read = std::any_of(p_.module.kernels.begin(), p_.module.kernels.end(), [&](const ir::Kernel& k) {
                return std::any_of(k.params.begin(), k.params.end(),
                                   [&](const ir::KernelParam& prm) { return prm.buffer == v.view; });
            });
            if (!read) continue;  // a view only other views reshape
            bool input = std::find(p_.inputs.begin(), p_.inputs.end(), v.source) != p_.inputs.end();
            std::string type = fmt::format("{}{}*", input ? "const " : "", cuda_type(v.view->elem));
            if (v.strided()) {
                std::vector<std::string> strides;
                for (const ir::Expr& s : v.strides) strides.push_back(launch_.print(s));
                w.line(fmt::format("// {}: no copy; its TMA copies read {} at strides ({}) from here", v.view->name,
                                   v.source->name, fmt::join(strides, ", ")));
                std::string offset = launch_.print(v.offset);
                if (offset.find(' ') != std::string::npos) offset = "(" + offset + ")";
                w.line(fmt::format("{} {} = {}{};", type, cuda_ident(v.view->name), cuda_ident(v.source->name),
                                   ir::const_int(v.offset) == std::optional<int64_t>(0) ? "" : " + " + offset));
                continue;
            }
            std::string what = v.source == p_.output ? "written in the shape of the output it is reshaped to"
                                                     : "a reshape of " + v.source->name;
            w.line(fmt::format("{} {} = {};  // {}: the same memory", type, cuda_ident(v.view->name),
                               cuda_ident(v.source->name), what));
        }
        w.line("cudaError_t err = cudaSuccess;");
        for (size_t i = 0; i < p_.module.kernels.size(); ++i) {
            auto helper = chain_helper_.find(i);
            if (helper == chain_helper_.end()) {
                launch_case(w, i);
                continue;
            }
            std::vector<std::string> args = chain_args(i).second;
            args.push_back("stream");
            w.line("// " + p_.origins[i] + ": a kernel per case, picked by the sizes");
            w.line(wrap_list(fmt::format("if ((err = {}(", helper->second), args, ")) != cudaSuccess) return err;"));
            i = chain_end(i) - 1;
        }
        w.line("return cudaSuccess;");
        w.dedent();
        w.line("}");
        w.blank();
    }

    std::string dims(const std::vector<ir::Expr>& d, int64_t persistent = 0) {
        std::vector<std::string> out;
        for (const ir::Expr& e : d) out.push_back(fmt::format("(unsigned)({})", launch_.print(e)));
        if (persistent)  // at most so many blocks a multiprocessor (ir::Kernel::persistent)
            out[0] = fmt::format("hds::persistent_grid({}, {})", launch_.print(d[0]), persistent);
        while (out.size() < 3) out.push_back("1");
        return fmt::format("dim3({})", fmt::join(out, ", "));
    }

    // The chain of a node's kernels picked by the sizes that starts at kernel i
    // (graph::Program::Launch) ends before chain_end(i).
    size_t chain_end(size_t i) const {
        size_t j = i + 1;
        while (j < p_.launches.size() && p_.launches[j].chained) ++j;
        return j;
    }
    // Its launch function's name: the first kernel's, less its case.
    static std::string chain_name(const graph::Program& p, size_t i) {
        const std::string& name = p.module.kernels[i].name;
        const std::string& suffix = p.launches[i].suffix;
        bool cut = !suffix.empty() && name.size() > suffix.size() + 1 &&
                   name.compare(name.size() - suffix.size() - 1, std::string::npos, "_" + suffix) == 0;
        return (cut ? name.substr(0, name.size() - suffix.size() - 1) : name) + "_launch";
    }
    // The chain's parameters (its kernels' tensors, const where none writes them, and
    // sizes) and the arguments that pass them.
    std::pair<std::vector<std::string>, std::vector<std::string>> chain_args(size_t i) const {
        std::vector<const ir::BufferNode*> order;
        std::map<const ir::BufferNode*, bool> written;
        std::vector<std::string> sizes;
        for (size_t k = i; k < chain_end(i); ++k) {
            for (const ir::KernelParam& prm : p_.module.kernels[k].params) {
                if (!written.count(prm.buffer.get())) order.push_back(prm.buffer.get());
                written[prm.buffer.get()] = written[prm.buffer.get()] || prm.written;
            }
            for (const ir::Var& s : p_.module.kernels[k].sizes)
                if (std::find(sizes.begin(), sizes.end(), cuda_ident(s->name)) == sizes.end())
                    sizes.push_back(cuda_ident(s->name));
        }
        std::vector<std::string> params, args;
        for (const ir::BufferNode* b : order) {
            params.push_back(
                fmt::format("{}{}* {}", written[b] ? "" : "const ", cuda_type(b->elem), cuda_ident(b->name)));
            args.push_back(cuda_ident(b->name));
        }
        for (const std::string& s : sizes) {
            params.push_back("int " + s);
            args.push_back(s);
        }
        return {params, args};
    }

    // A static function per chain of kernels picked by the sizes (a row group's
    // regimes), that each run function calls (variants share it where it is the
    // same): those of this program not yet emitted.
    std::string chain_launchers() {
        CodeWriter out;
        for (size_t i = 0; i < p_.launches.size(); ++i) {
            if (!p_.launches[i].when || p_.launches[i].chained) continue;
            bool maps = false;  // TMA copies read views the run function sets up: launched in place
            for (size_t k = i; k < chain_end(i); ++k) maps |= !tensor_maps(p_.module.kernels[k]).empty();
            if (maps) continue;
            std::vector<std::string> params = chain_args(i).first;
            params.push_back("cudaStream_t stream");
            auto source = [&](const std::string& name) {
                CodeWriter w;
                w.line(fmt::format("// {}: a kernel per case, picked by the sizes.", p_.origins[i]));
                w.line(wrap_list(fmt::format("static cudaError_t {}(", name), params, ") {"));
                w.indent();
                w.line("cudaError_t err = cudaSuccess;");
                for (size_t k = i; k < chain_end(i); ++k) launch_case(w, k);
                w.line("return cudaSuccess;");
                w.dedent();
                w.line("}");
                return w.str();  // raw() below adds the blank line after it
            };
            // Variants share a chain where it is the same; another chain from the same first
            // kernel (an sm_90a variant's regimes beside an sm_80 one's) gets a number.
            std::string base = chain_name(p_, i), name = base;
            chain_helper_[i] = name;  // (launch_case: inside the function)
            std::string text = source(name);
            for (int n = 2; helpers_->text.count(name) && helpers_->text.at(name) != text; ++n) {
                name = base + std::to_string(n);
                text = source(name);
            }
            chain_helper_[i] = name;
            helpers_->name[{&p_, i}] = name;
            if (helpers_->text.emplace(name, text).second) out.raw(text);
        }
        return out.str();
    }

    // Kernel i, inside its case of an if / else-if chain where it is one of a node's
    // kernels picked by the sizes (graph::Program::Launch).
    void launch_case(CodeWriter& w, size_t i) {
        const ir::Kernel& k = p_.module.kernels[i];
        const graph::Program::Launch& l = p_.launches[i];
        if (!l.when && !l.chained) {
            launch(w, k, p_.origins[i], after_previous(i));
            return;
        }
        if (!l.chained) {
            if (!chain_helper_.count(i)) w.line("// " + p_.origins[i] + ": a kernel per case, picked by the sizes");
            w.line(fmt::format("if ({}) {{  // {}", host_.print(l.when), l.note));
        } else if (l.when) {
            w.line(fmt::format("}} else if ({}) {{  // {}", host_.print(l.when), l.note));
        } else {
            w.line(fmt::format("}} else {{  // {}", l.note));
        }
        w.indent();
        launch(w, k, "", after_previous(i));
        w.dedent();
        if (i + 1 == p_.launches.size() || !p_.launches[i + 1].chained) w.line("}");
    }

    // Whether kernel i launches programmatically after the one before it.
    bool after_previous(size_t i) const { return dependent_ && p_.module.kernels[i].wait_previous; }

    void launch(CodeWriter& w, const ir::Kernel& k, const std::string& origin, bool after) {
        if (!origin.empty()) w.line("// " + origin);
        std::vector<std::string> args;
        for (const ir::KernelParam& p : k.params) args.push_back(cuda_ident(p.buffer->name));
        for (const ir::Var& s : k.sizes) args.push_back(cuda_ident(s->name));
        std::map<const ir::BufferNode*, std::vector<ir::Expr>> strides;  // of the strided views it reads
        for (const graph::Program::View& v : p_.views)
            if (v.strided()) strides[v.view.get()] = v.strides;
        std::vector<std::string> maps = tensor_map_setup(k, launch_, strides);
        if (!maps.empty()) w.line("{  // tensor maps of the TMA copies");
        for (const std::string& line : maps) w.line("    " + line);
        for (const TensorMap& t : tensor_maps(k)) args.push_back(cuda_ident(t.name));
        if (!maps.empty()) w.indent();
        for (size_t d = 0; d < k.grid.size(); ++d) {
            if (ir::const_int(k.grid[d])) continue;  // constants were checked by the compiler
            w.line(fmt::format("if (({}) > {}) return cudaErrorInvalidConfiguration;", launch_.print(k.grid[d]),
                               d == 0 ? "2147483647LL" : "65535LL"));
        }
        int64_t smem = dynamic_shared_bytes(k);
        if (smem > 0) {
            w.line(fmt::format("// {} bytes of shared memory: over the 48 KiB default, so opt in", smem));
            w.line(fmt::format("err = cudaFuncSetAttribute({}, cudaFuncAttributeMaxDynamicSharedMemorySize, {});",
                               cuda_ident(k.name), smem));
            w.line("if (err != cudaSuccess) return err;");
        }
        if (k.persistent)
            w.line(fmt::format("// persistent: at most {} block{} a multiprocessor, each walking the work",
                               k.persistent, k.persistent > 1 ? "s" : ""));
        std::string grid = dims(k.grid, k.persistent);
        if (k.cluster_per_call) {
            for (const std::string& line : cluster_launch(k, launch_, grid, dims(k.block), smem, args, "err"))
                w.line(line);
            w.line("if (err != cudaSuccess) return err;");
        } else if (after) {
            std::vector<std::string> call = {cuda_ident(k.name), grid, dims(k.block), std::to_string(smem), "stream"};
            call.insert(call.end(), args.begin(), args.end());
            w.line(wrap_list("err = hds::launch_after_previous(", call, ");"));
            w.line("if (err != cudaSuccess) return err;");
        } else {
            w.line(wrap_list(fmt::format("{}<<<{}, {}, {}, stream>>>(", cuda_ident(k.name), grid, dims(k.block), smem),
                             args, ");"));
        }
        if (!after) w.line("if ((err = cudaGetLastError()) != cudaSuccess) return err;");
        if (maps.empty()) return;
        w.dedent();
        w.line("}");
    }

    void capture_functions(CodeWriter& w) {
        const std::string& api = api_;
        auto params = data_params();
        params.push_back("void* workspace");
        params.push_back("cudaStream_t stream");
        params.push_back("cudaGraphExec_t* exec");
        w.line(wrap_list(fmt::format("cudaError_t {}_capture(", api), params, ") {"));
        w.indent();
        w.line("if (exec == nullptr || stream == nullptr) return cudaErrorInvalidValue;");
        w.line("cudaError_t err = cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal);");
        w.line("if (err != cudaSuccess) return err;");
        w.line(wrap_list(fmt::format("cudaError_t run = {}_run(", api), with(with(data_args(), "workspace"), "stream"),
                         ");"));
        w.line("cudaGraph_t graph = nullptr;");
        w.line("err = cudaStreamEndCapture(stream, &graph);");
        w.line("if (run != cudaSuccess || err != cudaSuccess) {");
        w.line("    if (graph != nullptr) cudaGraphDestroy(graph);");
        w.line("    return run != cudaSuccess ? run : err;");
        w.line("}");
        w.line("err = cudaGraphInstantiateWithFlags(exec, graph, 0);");
        w.line("cudaGraphDestroy(graph);");
        w.line("return err;");
        w.dedent();
        w.line("}");
        w.blank();
        w.line(fmt::format("cudaError_t {}_replay(cudaGraphExec_t exec, cudaStream_t stream) {{", api));
        w.line("    return exec == nullptr ? cudaErrorInvalidValue : cudaGraphLaunch(exec, stream);");
        w.line("}");
    }

    const graph::Program& p_;
    std::string api_;
    bool internal_;
    ChainLaunchers own_helpers_;
    ChainLaunchers* helpers_;
    std::map<size_t, std::string> chain_helper_;  // first kernel of a chain -> its launch function
    bool dependent_ = false;
    LauncherExprPrinter launch_;
    CudaExprPrinter host_;  // dispatch conditions, in the int of the sizes
};

}  // namespace

namespace {
// The .cu (the kernels and device functions of `device`, then `host_static` and the
// host functions in extern "C") and the header (the host API).
CudaOutput assemble(const ir::Module& device, const std::string& host_source, const std::string& host_header,
                    const CudaOptions& opts, const std::string& host_static = "") {
    std::string source = device.file_names.empty() ? "?" : device.file_names[0];
    CodeWriter cu;
    cu.line("#include <algorithm>");
    cu.blank();
    cu.raw(emit_device_code(device, opts));
    if (!host_static.empty()) cu.raw(host_static);
    cu.line("extern \"C\" {");
    cu.blank();
    cu.raw(host_source);
    cu.line("}  // extern \"C\"");

    CodeWriter h;
    h.line("extern \"C\" {");
    h.blank();
    h.raw(host_header);
    h.line("}  // extern \"C\"");
    return {cu_preamble(source, opts) + cu.str(), header_preamble(source, opts) + h.str()};
}
}  // namespace

CudaOutput emit_graph_cuda(const graph::Program& p, const CudaOptions& opts) {
    HostEmitter host(p);
    host.dependent_launch(opts.dependent_launch);
    return assemble(p.module, host.source(), host.header(), opts);
}

CudaOutput emit_graph_cuda_dispatch(const std::string& api, const std::vector<GraphVariant>& variants,
                                    const CudaOptions& opts, std::vector<graph::Program>* emitted) {
    // Each distinct kernel of the variants once, and each device function they call.
    SharedKernels shared = share_kernels(api, variants, opts);
    std::vector<GraphVariant> renamed;
    for (size_t i = 0; i < variants.size(); ++i) renamed.push_back({&shared.programs[i], variants[i].when});
    std::string host_source;
    ChainLaunchers helpers;  // the kernel chains' launch functions, each once
    bool sm90a = false;      // variants that run where the device runs the .cu's sm_90a code
    for (const GraphVariant& v : renamed) {
        bool on_sm90a = graph::runs_sm90a_code(v.when);
        sm90a |= on_sm90a;
        // Beside sm_80 code, only the sm_90a variants launch programmatically (an sm_90 feature).
        bool dependent = opts.dependent_launch && (opts.arch != kSm80AndSm90a || on_sm90a);
        host_source += HostEmitter(*v.program, "", true, &helpers).dependent_launch(dependent).source();
    }
    HostEmitter host(*renamed.front().program, api, false, &helpers);
    host_source += host.dispatch_source(renamed);
    CudaOutput out = assemble(shared.device, host_source, host.header(), opts, sm90a ? sm90a_code_function() : "");
    if (emitted) *emitted = std::move(shared.programs);
    return out;
}

}  // namespace hds::codegen
