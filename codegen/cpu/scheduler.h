// scheduler.h — runs the blocks of one thread block cluster (one block without
// clusters) on the emulator: each thread a fiber, released when its warp, its
// warpgroup, its block or its cluster meets at a barrier, shuffle, warp- or
// warpgroup-collective instruction, or when the mbarrier phase it waits for
// completes; what can never go on is reported (divergence, deadlock).
// Internal to codegen/cpu/.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "codegen/cpu/emulator.h"
#include "codegen/cpu/machine.h"

namespace hds::emu::detail {

// Sets a fresh frame's size and scalar-parameter slots from the launch arguments.
void bind_frame(Thread& t, const Program& p, const ir::Kernel& k, const LaunchArgs& args);

class ClusterRunner {
  public:
    ClusterRunner(const Program& p, Machine& m, const LaunchArgs& args, const ir::Kernel& k, int blocks);

    // Runs blocks (bx .. bx + blocks - 1, by, bz): the first error, if any.
    std::optional<EmuError> run(int bx, int by, int bz);

  private:
    void init_thread(Thread& t, int linear, Block& block);
    void run_body(Thread& t);
    std::optional<EmuError> divergence(const Thread& t, const std::string& what) const;
    std::optional<EmuError> schedule();
    // The releases of one scheduling round; each returns whether some thread can run again.
    bool release_shuffles(std::optional<EmuError>& err);
    bool release_warp_ops(std::optional<EmuError>& err);
    bool release_warpgroup_ops(std::optional<EmuError>& err);
    bool release_mbarrier_waits(std::optional<EmuError>& err);
    bool release_barriers(std::optional<EmuError>& err);
    bool release_cluster_sync(std::optional<EmuError>& err);
    std::optional<EmuError> stuck() const;  // no thread can go on: why

    const Program& p_;
    Machine& m_;
    const LaunchArgs& args_;
    const ir::Kernel& k_;
    int per_block_ = 1;          // threads of a block
    std::vector<Block> blocks_;  // of the cluster
    Cluster cluster_;
    std::vector<Thread> threads_;  // block r's threads from r * per_block_
    std::vector<std::unique_ptr<Fiber>> fibers_;
    std::optional<EmuError> error_;
};

}  // namespace hds::emu::detail
