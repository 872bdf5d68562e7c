// graph_runner.cpp — a graph's kernels in order on the emulator.
#include "codegen/cpu/graph_runner.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ir/ir_visitor.h"

namespace hds::emu {

std::optional<EmuError> bind_sizes(const graph::Program& p, const std::map<std::string, Tensor>& tensors,
                                   std::map<std::string, int64_t>& sizes) {
    for (const ir::Buffer& in : p.inputs) {
        auto it = tensors.find(in->name);
        if (it == tensors.end()) return EmuError{{}, fmt::format("no value for graph input '{}'", in->name)};
        const Tensor& t = it->second;
        if (t.shape.size() != in->shape.size())
            return EmuError{{},
                            fmt::format("'{}' has rank {} but the graph expects rank {}", in->name, t.shape.size(),
                                        in->shape.size())};
        for (size_t d = 0; d < t.shape.size(); ++d) {
            auto* v = ir::as<ir::VarNode>(in->shape[d]);
            if (!v) continue;
            auto [pos, fresh] = sizes.emplace(v->name, t.shape[d]);
            if (!fresh && pos->second != t.shape[d])
                return EmuError{{},
                                fmt::format("size {} is {} but dimension {} of '{}' is {}", v->name, pos->second, d,
                                            in->name, t.shape[d])};
        }
    }
    return std::nullopt;
}

namespace {
// The sizes and the device's shared memory: what the dispatch's conditions test.
std::map<std::string, int64_t> with_device(std::map<std::string, int64_t> sizes, const EmuOptions& opts) {
    sizes.emplace(graph::kSharedMemoryName, opts.shared_memory);
    return sizes;
}
}  // namespace

size_t choose_variant(const std::vector<std::vector<graph::Condition>>& cases,
                      const std::map<std::string, int64_t>& sizes, const EmuOptions& opts) {
    const std::map<std::string, int64_t> at = with_device(sizes, opts);
    for (size_t v = 0; v < cases.size(); ++v) {
        bool holds = true;
        for (const graph::Condition& c : cases[v]) {
            auto value = eval_size(c.expr, at);
            holds &= value && *value != 0;
        }
        if (holds) return v;
    }
    return cases.size();
}

namespace {

// The values of size expressions (dimensions, strides) for this run's sizes.
std::vector<int64_t> evaluated(const std::vector<ir::Expr>& exprs, const std::map<std::string, int64_t>& sizes) {
    std::vector<int64_t> out;
    for (const ir::Expr& e : exprs) out.push_back(eval_size(e, sizes).value_or(0));
    return out;
}

// The elements of a strided view (only TMA copies read it, and only whole
// tensors are passed to kernels here): copied out of its source.
Tensor gather(const Tensor& source, const graph::Program::View& v, const std::map<std::string, int64_t>& sizes) {
    Tensor t;
    t.elem = source.elem;
    t.shape = evaluated(v.view->shape, sizes);
    const std::vector<int64_t> step = evaluated(v.strides, sizes);
    const int64_t first = eval_size(v.offset, sizes).value_or(0);
    const bool floats = is_float(source.elem);
    std::vector<int64_t> index(t.shape.size(), 0);
    for (int64_t e = 0, n = t.size(); e < n; ++e) {
        int64_t at = first;
        for (size_t d = 0; d < index.size(); ++d) at += index[d] * step[d];
        if (floats)
            t.f.push_back(source.f.at(at));
        else
            t.i.push_back(source.i.at(at));
        for (size_t d = index.size(); d-- > 0 && ++index[d] == t.shape[d];) index[d] = 0;
    }
    return t;
}

}  // namespace

std::optional<EmuError> run_program(const graph::Program& p, std::map<std::string, Tensor>& tensors,
                                    const std::map<std::string, int64_t>& sizes, const EmuOptions& opts) {
    for (const graph::Requirement& r : p.requirements) {
        auto holds = eval_size(r.cond, sizes);
        if (holds && *holds) continue;
        std::vector<std::string> given;
        for (const ir::Var& v : p.sizes)
            if (sizes.count(v->name)) given.push_back(fmt::format("{} = {}", v->name, sizes.at(v->name)));
        return EmuError{p.loc, fmt::format("the sizes of this run ({}) break {}", fmt::join(given, ", "), r.why)};
    }
    const std::map<std::string, int64_t> device_sizes = with_device(sizes, opts);  // what regimes' conditions test
    bool ran = false;  // the kernel before, of a chain of cases (graph::Program::Launch)
    for (size_t i = 0; i < p.module.kernels.size(); ++i) {
        const ir::Kernel& k = p.module.kernels[i];
        const graph::Program::Launch& l = p.launches[i];
        if (l.chained && ran) continue;  // an earlier case of the chain ran
        if (l.when) {
            std::optional<int64_t> holds = eval_size(l.when, device_sizes);
            if (!holds) return EmuError{k.loc, "internal error: a kernel's condition on the sizes did not evaluate"};
            ran = *holds != 0;
            if (!ran) continue;
        } else {
            ran = true;
        }
        if (int64_t bytes = ir::shared_bytes(k); bytes > opts.shared_memory)
            return EmuError{k.loc, fmt::format("kernel '{}' needs {} bytes of shared memory a block; the device of "
                                               "this run (--shared-memory) has {}",
                                               k.name, bytes, opts.shared_memory)};
        LaunchArgs args;
        args.sizes = sizes;
        for (const ir::KernelParam& prm : k.params) {
            const ir::Buffer& storage = p.storage_of(prm.buffer);
            auto it = tensors.find(storage->name);
            if (it == tensors.end()) continue;
            const graph::Program::View* view = p.view_of(prm.buffer);
            Tensor t = view && view->strided() ? gather(it->second, *view, sizes) : it->second;
            if (view && !view->strided()) t.shape = evaluated(prm.buffer->shape, sizes);  // a reshape: its shape
            args.tensors[prm.buffer->name] = std::move(t);
        }
        if (auto e = run_kernel(p.module, k.name, args, opts)) return e;
        for (const ir::KernelParam& prm : k.params) {
            if (!prm.written) continue;
            const ir::Buffer& storage = p.storage_of(prm.buffer);
            Tensor& t = tensors[storage->name];
            t = std::move(args.tensors.at(prm.buffer->name));
            if (storage == prm.buffer) continue;
            t.shape = evaluated(storage->shape, sizes);  // a view writes its storage's elements, in their shape
        }
    }
    return std::nullopt;
}

}  // namespace hds::emu
