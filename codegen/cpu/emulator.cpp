// emulator.cpp — the launch: argument binding, the grid loop, and the block
// scheduler that runs threads as fibers between barriers and warp shuffles.
#include "codegen/cpu/emulator.h"

#include <fmt/format.h>

#include <algorithm>

#include "codegen/cpu/compiler.h"
#include "codegen/cpu/machine.h"
#include "codegen/cpu/scheduler.h"
#include "codegen/cpu/values.h"
#include "ir/evaluate.h"

namespace hds::emu {

int64_t Tensor::size() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

std::optional<int64_t> eval_size(const ir::Expr& e, const std::map<std::string, int64_t>& sizes) {
    return ir::evaluate(e, sizes);
}

std::string bind_arguments(const ir::Kernel& k, LaunchArgs& args) {
    // Sizes from tensor shapes, checked for consistency; dimensions that are
    // expressions of sizes (graph temporaries) are checked once sizes are known.
    for (const ir::KernelParam& p : k.params) {
        if (p.kind != ir::KernelParam::Kind::Tensor) {
            if (!args.scalars.count(p.var->name)) return fmt::format("no value for scalar parameter '{}'", p.var->name);
            continue;
        }
        auto it = args.tensors.find(p.buffer->name);
        if (it == args.tensors.end()) continue;  // filled in below once sizes are known
        const Tensor& t = it->second;
        if (t.shape.size() != p.buffer->shape.size())
            return fmt::format("'{}' has rank {} but the kernel expects rank {}", p.buffer->name, t.shape.size(),
                               p.buffer->shape.size());
        if (t.elem != p.buffer->elem)
            return fmt::format("'{}' holds {} but the kernel expects {}", p.buffer->name, scalar_name(t.elem),
                               scalar_name(p.buffer->elem));
        for (size_t d = 0; d < t.shape.size(); ++d) {
            auto* v = ir::as<ir::VarNode>(p.buffer->shape[d]);
            if (!v) continue;
            auto [pos, fresh] = args.sizes.emplace(v->name, t.shape[d]);
            if (!fresh && pos->second != t.shape[d])
                return fmt::format("size {} is {} but dimension {} of '{}' is {}", v->name, pos->second, d,
                                   p.buffer->name, t.shape[d]);
        }
    }
    for (const ir::Var& s : k.sizes) {
        auto it = args.sizes.find(s->name);
        if (it == args.sizes.end()) return fmt::format("size {} is not given and no input tensor has it", s->name);
        if (it->second <= 0 || it->second > INT32_MAX) return fmt::format("size {} must be in 1..2^31-1", s->name);
    }
    for (const ir::KernelParam& p : k.params) {
        if (p.kind != ir::KernelParam::Kind::Tensor) continue;
        std::vector<int64_t> shape;
        for (const ir::Expr& dim : p.buffer->shape) {
            auto v = eval_size(dim, args.sizes);
            if (!v || *v <= 0) return fmt::format("a dimension of '{}' is not a positive size", p.buffer->name);
            shape.push_back(*v);
        }
        auto it = args.tensors.find(p.buffer->name);
        if (it != args.tensors.end()) {
            for (size_t d = 0; d < shape.size(); ++d)
                if (it->second.shape[d] != shape[d])
                    return fmt::format("dimension {} of '{}' is {} but the kernel expects {}", d, p.buffer->name,
                                       it->second.shape[d], shape[d]);
            continue;
        }
        // Tensors without an input start zeroed, with the shape the sizes give.
        Tensor t;
        t.elem = p.buffer->elem;
        t.shape = shape;
        if (is_float(t.elem))
            t.f.assign(t.size(), 0.0);
        else
            t.i.assign(t.size(), 0);
        args.tensors[p.buffer->name] = std::move(t);
    }
    return "";
}

namespace {

// The emulated device's multiprocessors: the grid of a persistent kernel (ir::Kernel::persistent).
// Few, so that its blocks walk several rows of the tests' tensors.
constexpr int64_t kMultiprocessors = 2;

// Evaluates a launch dimension (grid or block) from the sizes and scalars.
int64_t launch_dim(const ir::Expr& e, const ir::Kernel& k, const LaunchArgs& args) {
    // A one-statement kernel `let launch_dim = e;` over the same sizes and scalars.
    Machine m;
    Thread t;
    Block b;
    t.machine = &m;
    t.block = &b;
    ir::Kernel shell;
    shell.sizes = k.sizes;
    shell.params = k.params;
    ir::Var result = ir::make_var(ScalarType::I32, "launch_dim");
    shell.body = ir::Block::make({}, {ir::Decl::make({}, result, e, true)});
    ir::Module mod;
    Program prog = compile_kernel(mod, shell);
    detail::bind_frame(t, prog, k, args);
    prog.body(t);                      // may throw a Trap (say, a division by a zero scalar)
    return t.stack[prog.slots - 1].i;  // `result` was the last slot allocated
}

}  // namespace

std::optional<EmuError> run_kernel(const ir::Module& m, const std::string& kernel, LaunchArgs& args,
                                   const EmuOptions& opts) {
    const ir::Kernel* k = nullptr;
    for (const ir::Kernel& x : m.kernels)
        if (x.name == kernel) k = &x;
    if (!k) return EmuError{{}, fmt::format("no kernel named '{}'", kernel)};
    if (std::string why = bind_arguments(*k, args); !why.empty()) return EmuError{{}, why};

    Machine machine;
    machine.racecheck = opts.racecheck;
    for (int d = 0; d < 3; ++d) {
        int64_t g = 1, b = 1;
        try {
            if (d < static_cast<int>(k->grid.size())) g = launch_dim(k->grid[d], *k, args);
            // A persistent kernel: at most so many blocks on each of kMultiprocessors (its loops run).
            if (d == 0 && k->persistent) g = std::min<int64_t>(g, k->persistent * kMultiprocessors);
            if (d < static_cast<int>(k->block.size())) b = launch_dim(k->block[d], *k, args);
        } catch (const Trap&) {
            return EmuError{k->loc, "computing the launch configuration: integer division by zero"};
        }
        if (g > INT32_MAX || b > 1024)
            return EmuError{k->loc, fmt::format("launch of '{}' with a grid or block over the limits", kernel)};
        machine.grid[d] = static_cast<int>(g);
        machine.block[d] = static_cast<int>(b);
        if (machine.grid[d] < 1 || machine.block[d] < 1)
            return EmuError{k->loc, fmt::format("launch of '{}' with an empty grid or block", kernel)};
    }
    if (machine.block[0] * machine.block[1] * machine.block[2] > 1024)
        return EmuError{k->loc, fmt::format("launch of '{}' with more than 1024 threads per block", kernel)};
    for (const ir::KernelParam& p : k->params) {
        if (p.kind != ir::KernelParam::Kind::Tensor) continue;
        const Tensor& t = args.tensors.at(p.buffer->name);
        GlobalBuf g{p.buffer->name, t.elem, t.shape, {}};
        g.data.resize(t.size());
        for (int64_t i = 0; i < t.size(); ++i)
            g.data[i] = is_float(t.elem) ? from_double(t.f[i], t.elem) : Value{t.i[i]};
        machine.globals.push_back(std::move(g));
    }
    // Thread block clusters (sm_90): consecutive blocks along x run together.
    int64_t cluster = k->cluster;
    if (k->cluster_per_call) {
        try {
            cluster = launch_dim(k->cluster_per_call, *k, args);
        } catch (const Trap&) {
            return EmuError{k->loc, "computing the cluster size: integer division by zero"};
        }
    }
    if (cluster < 1 || cluster > 16 || machine.grid[0] % cluster != 0)
        return EmuError{k->loc, fmt::format("launch of '{}' with a grid of {} blocks along x in clusters of {} "
                                            "(the launcher returns cudaErrorInvalidConfiguration)",
                                            kernel, machine.grid[0], cluster)};
    Program program = compile_kernel(m, *k);
    machine.program = &program;
    detail::ClusterRunner runner(program, machine, args, *k, static_cast<int>(cluster));
    for (int z = 0; z < machine.grid[2]; ++z)
        for (int y = 0; y < machine.grid[1]; ++y)
            for (int x = 0; x < machine.grid[0]; x += static_cast<int>(cluster))
                if (auto err = runner.run(x, y, z)) return err;
    size_t g = 0;
    for (const ir::KernelParam& p : k->params) {
        if (p.kind != ir::KernelParam::Kind::Tensor) continue;
        Tensor& t = args.tensors.at(p.buffer->name);
        const GlobalBuf& buf = machine.globals[g++];
        for (int64_t i = 0; i < t.size(); ++i) {
            if (is_float(t.elem))
                t.f[i] = to_double(buf.data[i], t.elem);
            else
                t.i[i] = buf.data[i].i;
        }
    }
    return std::nullopt;
}

}  // namespace hds::emu
