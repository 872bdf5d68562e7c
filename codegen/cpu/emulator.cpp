// emulator.cpp — the launch: argument binding, the grid loop, and the block
// scheduler that runs threads as fibers between barriers and warp shuffles.
#include "codegen/cpu/emulator.h"

#include <fmt/format.h>

#include "codegen/cpu/compiler.h"
#include "codegen/cpu/machine.h"
#include "codegen/cpu/values.h"

namespace hds::emu {

int64_t Tensor::size() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

std::optional<int64_t> eval_size(const ir::Expr& e, const std::map<std::string, int64_t>& sizes) {
    if (auto c = ir::const_int(e)) return *c;
    if (auto c = ir::const_bool(e)) return *c ? 1 : 0;
    if (auto* u = ir::as<ir::Unary>(e); u && u->op == ir::UnOp::Not) {
        auto x = eval_size(u->a, sizes);
        return x ? std::optional<int64_t>(*x == 0) : std::nullopt;
    }
    if (auto* v = ir::as<ir::VarNode>(e)) {
        auto it = sizes.find(v->name);
        return it == sizes.end() ? std::nullopt : std::optional<int64_t>(it->second);
    }
    if (auto* c = ir::as<ir::Cast>(e)) return eval_size(c->value, sizes);
    auto* b = ir::as<ir::Binary>(e);
    if (!b) return std::nullopt;
    auto x = eval_size(b->a, sizes), y = eval_size(b->b, sizes);
    if (!x || !y) return std::nullopt;
    switch (b->op) {
        case ir::BinOp::Add:
            return *x + *y;
        case ir::BinOp::Sub:
            return *x - *y;
        case ir::BinOp::Mul:
            return *x * *y;
        case ir::BinOp::Div:
            return *y == 0 ? std::nullopt : std::optional<int64_t>(*x / *y);
        case ir::BinOp::Mod:
            return *y == 0 ? std::nullopt : std::optional<int64_t>(*x % *y);
        case ir::BinOp::Lt:
            return *x < *y;
        case ir::BinOp::Le:
            return *x <= *y;
        case ir::BinOp::Gt:
            return *x > *y;
        case ir::BinOp::Ge:
            return *x >= *y;
        case ir::BinOp::Eq:
            return *x == *y;
        case ir::BinOp::Ne:
            return *x != *y;
        case ir::BinOp::And:
            return *x != 0 && *y != 0;
        case ir::BinOp::Or:
            return *x != 0 || *y != 0;
        default:
            return std::nullopt;
    }
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

// Sets a fresh frame's size and scalar-parameter slots from the launch arguments.
void bind_frame(Thread& t, const Program& p, const ir::Kernel& k, const LaunchArgs& args) {
    t.stack.assign(p.slots, Value{0});
    for (size_t i = 0; i < k.sizes.size(); ++i) t.stack[p.size_slots[i]] = Value{args.sizes.at(k.sizes[i]->name)};
    size_t scalar = 0;
    for (const ir::KernelParam& kp : k.params)
        if (kp.kind == ir::KernelParam::Kind::Scalar)
            t.stack[p.scalar_param_slots[scalar++]] = from_double(args.scalars.at(kp.var->name), kp.var->type);
}

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
    bind_frame(t, prog, k, args);
    prog.body(t);                      // may throw a Trap (say, a division by a zero scalar)
    return t.stack[prog.slots - 1].i;  // `result` was the last slot allocated
}

SharedBuf make_shared(int64_t n) {
    SharedBuf b;
    b.data.assign(n, Value{0});
    b.written.assign(n, 0);
    b.writer.assign(n, -1);
    b.write_epoch.assign(n, -1);
    b.reader.assign(n, -1);
    b.read_epoch.assign(n, -1);
    b.pending.assign(n, 0);
    b.write_sync.assign(n, -1);
    b.read_sync.assign(n, -1);
    b.read_warp.assign(n, -1);
    return b;
}

class BlockRunner {
  public:
    BlockRunner(const Program& p, Machine& m, const LaunchArgs& args, const ir::Kernel& k)
        : p_(p), m_(m), args_(args), k_(k) {
        int n = m.block[0] * m.block[1] * m.block[2];
        threads_.resize(n);
        if (p.needs_sync)
            for (int i = 0; i < n; ++i) fibers_.push_back(std::make_unique<Fiber>());
    }

    std::optional<EmuError> run(int bx, int by, int bz) {
        Block block;
        block.id[0] = bx, block.id[1] = by, block.id[2] = bz;
        for (const auto& shape : p_.shared_shapes) {
            int64_t n = 1;
            for (int64_t d : shape) n *= d;
            block.shared.push_back(make_shared(n));
        }
        block.warp_syncs.assign((threads_.size() + 31) / 32, 0);
        error_.reset();
        for (int i = 0; i < static_cast<int>(threads_.size()); ++i) init_thread(threads_[i], i, block);
        if (!p_.needs_sync) {
            for (Thread& t : threads_) {
                run_body(t);
                if (error_) return error_;
            }
            return std::nullopt;
        }
        for (size_t i = 0; i < threads_.size(); ++i) {
            threads_[i].fiber = fibers_[i].get();
            Thread* t = &threads_[i];
            fibers_[i]->start([this, t] { run_body(*t); });
        }
        return schedule(block);
    }

  private:
    void init_thread(Thread& t, int linear, Block& block) {
        t = Thread{};
        t.linear = linear;
        t.id[0] = linear % m_.block[0];
        t.id[1] = linear / m_.block[0] % m_.block[1];
        t.id[2] = linear / (m_.block[0] * m_.block[1]);
        t.block = &block;
        t.machine = &m_;
        bind_frame(t, p_, k_, args_);
    }

    void run_body(Thread& t) {
        try {
            p_.body(t);
        } catch (const Trap& trap) {
            if (!error_) error_ = EmuError{trap.loc, trap.message};
        }
        t.state = ThreadState::Done;
    }

    std::optional<EmuError> divergence(const Thread& t, const std::string& what) {
        return EmuError{t.wait_loc, fmt::format("{} in block ({}, {}, {}) thread ({}, {}, {})", what, t.block->id[0],
                                                t.block->id[1], t.block->id[2], t.id[0], t.id[1], t.id[2])};
    }

    std::optional<EmuError> schedule(Block& block) {
        const int n = static_cast<int>(threads_.size());
        for (;;) {
            for (int i = 0; i < n; ++i) {
                if (threads_[i].state != ThreadState::Runnable) continue;
                fibers_[i]->resume();
                if (error_) return error_;
            }
            // Warp shuffles: every live lane of the warp must be at one.
            bool released = false;
            for (int w = 0; w * 32 < n; ++w) {
                int first = w * 32, last = std::min(n, first + 32);
                int at_shuffle = 0, done = 0;
                const Thread* waiting = nullptr;
                for (int i = first; i < last; ++i) {
                    if (threads_[i].state == ThreadState::AtShuffle) ++at_shuffle, waiting = &threads_[i];
                    if (threads_[i].state == ThreadState::Done) ++done;
                }
                if (at_shuffle == 0) continue;
                if (at_shuffle + done != last - first || done > 0)
                    return divergence(*waiting, "warp shuffle not reached by every lane of the warp");
                for (int i = first; i < last; ++i) {
                    int src = first + threads_[i].shfl_src;
                    threads_[i].shfl_result = src < last ? threads_[src].shfl_value : threads_[i].shfl_value;
                }
                for (int i = first; i < last; ++i) threads_[i].state = ThreadState::Runnable;
                released = true;
            }
            if (released) continue;
            // syncwarp and tensor-core instructions (ldmatrix, mma): every lane of the warp at one.
            for (int w = 0; w * 32 < n; ++w) {
                int first = w * 32, last = std::min(n, first + 32);
                std::vector<Thread*> lanes;
                int done = 0;
                for (int i = first; i < last; ++i) {
                    if (threads_[i].state == ThreadState::AtWarpOp) lanes.push_back(&threads_[i]);
                    if (threads_[i].state == ThreadState::Done) ++done;
                }
                if (lanes.empty()) continue;
                bool sync = lanes[0]->warp_op.builtin == Builtin::SyncWarp;  // lanes that exited need not come
                if (static_cast<int>(lanes.size()) + done != last - first || (done > 0 && !sync))
                    return divergence(*lanes[0], std::string(builtin_info(lanes[0]->warp_op.builtin).name) +
                                                     " not reached by every lane of the warp");
                std::string wrong = detail::run_warp_op(lanes);
                if (!wrong.empty()) return divergence(*lanes[0], wrong);
                if (sync) ++block.warp_syncs[w];
                for (Thread* t : lanes) t->state = ThreadState::Runnable;
                released = true;
            }
            if (released) continue;
            int at_barrier = 0, done = 0;
            const Thread* waiting = nullptr;
            for (const Thread& t : threads_) {
                if (t.state == ThreadState::AtBarrier) {
                    if (waiting &&
                        !(t.wait_loc.line == waiting->wait_loc.line && t.wait_loc.col == waiting->wait_loc.col))
                        return divergence(t, fmt::format("threads wait at different barriers (this one and line {})",
                                                         waiting->wait_loc.line));
                    ++at_barrier, waiting = &t;
                }
                if (t.state == ThreadState::Done) ++done;
            }
            if (done == n) return std::nullopt;
            if (at_barrier > 0 && done > 0)
                return divergence(*waiting,
                                  "syncthreads() not reached by every thread of the block (barrier divergence)");
            ++block.epoch;
            for (Thread& t : threads_) t.state = ThreadState::Runnable;
        }
    }

    const Program& p_;
    Machine& m_;
    const LaunchArgs& args_;
    const ir::Kernel& k_;
    std::vector<Thread> threads_;
    std::vector<std::unique_ptr<Fiber>> fibers_;
    std::optional<EmuError> error_;
};

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
    Program program = compile_kernel(m, *k);
    BlockRunner runner(program, machine, args, *k);
    for (int z = 0; z < machine.grid[2]; ++z)
        for (int y = 0; y < machine.grid[1]; ++y)
            for (int x = 0; x < machine.grid[0]; ++x)
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
