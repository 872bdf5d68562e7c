// scheduler.cpp — the emulator's scheduler (scheduler.h).
#include "codegen/cpu/scheduler.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "codegen/cpu/compiler.h"
#include "codegen/cpu/hopper_runtime.h"
#include "codegen/cpu/values.h"

namespace hds::emu::detail {

void bind_frame(Thread& t, const Program& p, const ir::Kernel& k, const LaunchArgs& args) {
    t.stack.assign(p.slots, Value{0});
    for (size_t i = 0; i < k.sizes.size(); ++i) t.stack[p.size_slots[i]] = Value{args.sizes.at(k.sizes[i]->name)};
    size_t scalar = 0;
    for (const ir::KernelParam& kp : k.params)
        if (kp.kind == ir::KernelParam::Kind::Scalar)
            t.stack[p.scalar_param_slots[scalar++]] = from_double(args.scalars.at(kp.var->name), kp.var->type);
}

namespace {

SharedBuf make_shared(int64_t n) {
    SharedBuf b;
    b.data.assign(n, Value{0});
    b.written.assign(n, 0);
    b.writer.assign(n, -1);
    b.write_epoch.assign(n, -1);
    b.write_clock.assign(n, 0);
    b.reader.assign(n, -1);
    b.read_epoch.assign(n, -1);
    b.read_clock.assign(n, 0);
    b.pending.assign(n, 0);
    b.wgmma_reads.assign(n, 0);
    b.write_sync.assign(n, -1);
    b.read_sync.assign(n, -1);
    b.read_warp.assign(n, -1);
    return b;
}

bool same_place(const Thread& a, const Thread& b) {
    return a.wait_loc.line == b.wait_loc.line && a.wait_loc.col == b.wait_loc.col;
}

}  // namespace

ClusterRunner::ClusterRunner(const Program& p, Machine& m, const LaunchArgs& args, const ir::Kernel& k, int blocks)
    : p_(p), m_(m), args_(args), k_(k) {
    per_block_ = m.block[0] * m.block[1] * m.block[2];
    blocks_.resize(blocks);
    threads_.resize(static_cast<size_t>(blocks) * per_block_);
    if (p.needs_sync)
        for (size_t i = 0; i < threads_.size(); ++i) fibers_.push_back(std::make_unique<Fiber>());
}

std::optional<EmuError> ClusterRunner::run(int bx, int by, int bz) {
    cluster_.blocks.clear();
    for (size_t r = 0; r < blocks_.size(); ++r) {
        Block& block = blocks_[r];
        block = Block{};
        block.id[0] = bx + static_cast<int>(r), block.id[1] = by, block.id[2] = bz;
        block.rank = static_cast<int>(r);
        block.cluster = &cluster_;
        for (const auto& shape : p_.shared_shapes) {
            int64_t n = 1;
            for (int64_t d : shape) n *= d;
            block.shared.push_back(make_shared(n));
        }
        block.warp_syncs.assign((per_block_ + 31) / 32, 0);
        cluster_.blocks.push_back(&block);
    }
    error_.reset();
    for (size_t i = 0; i < threads_.size(); ++i)
        init_thread(threads_[i], static_cast<int>(i % per_block_), blocks_[i / per_block_]);
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
    return schedule();
}

void ClusterRunner::init_thread(Thread& t, int linear, Block& block) {
    t = Thread{};
    t.linear = linear;
    t.id[0] = linear % m_.block[0];
    t.id[1] = linear / m_.block[0] % m_.block[1];
    t.id[2] = linear / (m_.block[0] * m_.block[1]);
    t.block = &block;
    t.machine = &m_;
    if (m_.racecheck && p_.uses_mbarriers) {  // vector clocks order the accesses an mbarrier orders
        t.vc.assign(per_block_, 0);
        t.vc[linear] = 1;
    }
    bind_frame(t, p_, k_, args_);
}

void ClusterRunner::run_body(Thread& t) {
    try {
        p_.body(t);
        if (const WgmmaOp* op = unfinished_wgmma(t))
            trap(t, op->loc,
                 fmt::format("the thread finished before a wgmma_wait covered this {} (its accumulators are "
                             "never complete)",
                             builtin_info(op->builtin).name));
    } catch (const Trap& trap) {
        if (!error_) error_ = EmuError{trap.loc, trap.message};
    }
    t.state = ThreadState::Done;
}

std::optional<EmuError> ClusterRunner::divergence(const Thread& t, const std::string& what) const {
    return EmuError{t.wait_loc, what + " in " + format_ids(t)};
}

bool ClusterRunner::release_shuffles(std::optional<EmuError>& err) {
    bool released = false;
    for (size_t b = 0; b < blocks_.size(); ++b)
        for (int first = 0; first < per_block_; first += 32) {
            Thread* lane = &threads_[b * per_block_];
            int last = std::min(per_block_, first + 32);
            int at_shuffle = 0, done = 0, waiting = 0;
            const Thread* shuffling = nullptr;
            for (int i = first; i < last; ++i) {
                if (lane[i].state == ThreadState::AtShuffle) ++at_shuffle, shuffling = &lane[i];
                if (lane[i].state == ThreadState::Done) ++done;
                if (lane[i].state == ThreadState::AtMbarrier) ++waiting;
            }
            if (at_shuffle == 0 || waiting > 0) continue;  // (lanes at an mbarrier may come later)
            if (at_shuffle + done != last - first || done > 0) {
                err = divergence(*shuffling, "warp shuffle not reached by every lane of the warp");
                return false;
            }
            for (int i = first; i < last; ++i) {
                int src = first + lane[i].shfl_src;
                lane[i].shfl_result = src < last ? lane[src].shfl_value : lane[i].shfl_value;
            }
            for (int i = first; i < last; ++i) lane[i].state = ThreadState::Runnable;
            released = true;
        }
    return released;
}

// syncwarp and tensor-core instructions (ldmatrix, mma): every lane of the warp at one.
bool ClusterRunner::release_warp_ops(std::optional<EmuError>& err) {
    bool released = false;
    for (size_t b = 0; b < blocks_.size(); ++b)
        for (int first = 0; first < per_block_; first += 32) {
            Thread* lane = &threads_[b * per_block_];
            int last = std::min(per_block_, first + 32);
            std::vector<Thread*> lanes;
            int done = 0, waiting = 0;
            for (int i = first; i < last; ++i) {
                if (lane[i].state == ThreadState::AtWarpOp) lanes.push_back(&lane[i]);
                if (lane[i].state == ThreadState::Done) ++done;
                if (lane[i].state == ThreadState::AtMbarrier) ++waiting;
            }
            if (lanes.empty() || waiting > 0) continue;
            bool sync = lanes[0]->warp_op.builtin == Builtin::SyncWarp;  // lanes that exited need not come
            if (static_cast<int>(lanes.size()) + done != last - first || (done > 0 && !sync)) {
                err = divergence(*lanes[0], std::string(builtin_info(lanes[0]->warp_op.builtin).name) +
                                                " not reached by every lane of the warp");
                return false;
            }
            if (std::string wrong = run_warp_op(lanes); !wrong.empty()) {
                err = divergence(*lanes[0], wrong);
                return false;
            }
            if (sync) ++blocks_[b].warp_syncs[first / 32];
            for (Thread* t : lanes) t->state = ThreadState::Runnable;
            released = true;
        }
    return released;
}

// wgmma and setmaxnreg: the 128 threads of a warpgroup at one.
bool ClusterRunner::release_warpgroup_ops(std::optional<EmuError>& err) {
    bool released = false;
    for (size_t b = 0; b < blocks_.size(); ++b)
        for (int first = 0; first < per_block_; first += 128) {
            Thread* lane = &threads_[b * per_block_];
            int last = std::min(per_block_, first + 128);
            std::vector<Thread*> group;
            for (int i = first; i < last; ++i)
                if (lane[i].state == ThreadState::AtWarpgroupOp) group.push_back(&lane[i]);
            if (group.empty()) continue;
            if (last - first != 128) {
                err = divergence(*group[0], std::string(builtin_info(group[0]->wg_op.builtin).name) +
                                                " needs whole warpgroups of 128 threads (the block has " +
                                                std::to_string(per_block_) + ")");
                return false;
            }
            if (group.size() != 128) continue;  // the others may still come (else: stuck())
            if (std::string wrong = run_warpgroup_op(group); !wrong.empty()) {
                err = divergence(*group[0], wrong);
                return false;
            }
            for (Thread* t : group) t->state = ThreadState::Runnable;
            released = true;
        }
    return released;
}

bool ClusterRunner::release_mbarrier_waits(std::optional<EmuError>&) {
    bool released = false;
    for (Thread& t : threads_)
        if (t.state == ThreadState::AtMbarrier && t.block->mbarriers.at(t.wait_bar).phase % 2 != t.wait_parity) {
            t.state = ThreadState::Runnable;
            released = true;
        }
    return released;
}

bool ClusterRunner::release_barriers(std::optional<EmuError>& err) {
    bool released = false;
    for (size_t b = 0; b < blocks_.size(); ++b) {
        Thread* th = &threads_[b * per_block_];
        int at_barrier = 0, done = 0;
        const Thread* waiting = nullptr;
        for (int i = 0; i < per_block_; ++i) {
            if (th[i].state == ThreadState::AtBarrier) {
                if (waiting && !same_place(th[i], *waiting)) {
                    err = divergence(th[i], fmt::format("threads wait at different barriers (this one and line {})",
                                                        waiting->wait_loc.line));
                    return false;
                }
                ++at_barrier, waiting = &th[i];
            }
            if (th[i].state == ThreadState::Done) ++done;
        }
        if (at_barrier > 0 && done > 0) {
            err = divergence(*waiting, "syncthreads() not reached by every thread of the block (barrier divergence)");
            return false;
        }
        if (at_barrier == 0 || at_barrier != per_block_) continue;
        ++blocks_[b].epoch;
        for (int i = 0; i < per_block_; ++i) th[i].state = ThreadState::Runnable;
        released = true;
    }
    return released;
}

bool ClusterRunner::release_cluster_sync(std::optional<EmuError>& err) {
    int at_sync = 0, done = 0;
    const Thread* waiting = nullptr;
    for (const Thread& t : threads_) {
        if (t.state == ThreadState::AtClusterSync) ++at_sync, waiting = &t;
        if (t.state == ThreadState::Done) ++done;
    }
    if (at_sync > 0 && done > 0) {
        err = divergence(*waiting, "cluster_sync() not reached by every thread of the cluster (some have finished)");
        return false;
    }
    if (at_sync == 0 || at_sync != static_cast<int>(threads_.size())) return false;
    for (Block& b : blocks_) ++b.epoch;  // a barrier of every block, too
    for (Thread& t : threads_) t.state = ThreadState::Runnable;
    return true;
}

std::optional<EmuError> ClusterRunner::stuck() const {
    for (const Thread& t : threads_) {
        if (t.state != ThreadState::AtMbarrier) continue;
        std::vector<int> waiting;  // the threads of t's block waiting on the same barrier
        for (const Thread& u : threads_)
            if (u.state == ThreadState::AtMbarrier && u.block == t.block && u.wait_bar == t.wait_bar)
                waiting.push_back(u.linear);
        std::string who =
            fmt::format("{}", fmt::join(waiting.begin(), waiting.begin() + std::min<size_t>(8, waiting.size()), ", "));
        return divergence(t, fmt::format("{}; {} thread{} wait{} on it ({}{})", describe_mbarrier_wait(t),
                                         waiting.size(), waiting.size() == 1 ? "" : "s", waiting.size() == 1 ? "s" : "",
                                         who, waiting.size() > 8 ? ", ..." : ""));
    }
    for (const Thread& t : threads_)
        if (t.state == ThreadState::AtWarpgroupOp)
            return divergence(
                t, std::string(builtin_info(t.wg_op.builtin).name) + " not reached by every thread of the warpgroup");
    for (const Thread& t : threads_)
        if (t.state == ThreadState::AtBarrier)
            return divergence(t,
                              "deadlock: syncthreads() not reached by every thread of the block (the others wait "
                              "elsewhere)");
    for (const Thread& t : threads_)
        if (t.state == ThreadState::AtClusterSync)
            return divergence(t, "deadlock: cluster_sync() not reached by every thread of the cluster");
    for (const Thread& t : threads_)
        if (t.state != ThreadState::Done) return divergence(t, "deadlock: no thread of the block can go on");
    return std::nullopt;
}

std::optional<EmuError> ClusterRunner::schedule() {
    for (;;) {
        for (size_t i = 0; i < threads_.size(); ++i) {
            if (threads_[i].state != ThreadState::Runnable) continue;
            fibers_[i]->resume();
            if (error_) return error_;
        }
        // The first kind of meeting that lets some thread go on; the rest wait for the next round.
        using Release = bool (ClusterRunner::*)(std::optional<EmuError>&);
        bool released = false;
        for (Release r : {&ClusterRunner::release_shuffles, &ClusterRunner::release_warp_ops,
                          &ClusterRunner::release_warpgroup_ops, &ClusterRunner::release_mbarrier_waits,
                          &ClusterRunner::release_barriers, &ClusterRunner::release_cluster_sync}) {
            std::optional<EmuError> err;
            released = (this->*r)(err);
            if (err) return err;
            if (released) break;
        }
        if (!released) return stuck();  // every thread finished, or none can go on
    }
}

}  // namespace hds::emu::detail
