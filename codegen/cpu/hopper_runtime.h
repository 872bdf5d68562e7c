// hopper_runtime.h — the run-time side of the sm_90a built-ins on the emulator
// (hopper_runtime.cpp): mbarrier phases, TMA copies with the tensor maps' swizzle,
// wgmma issue and completion, setmaxnreg. Internal to codegen/cpu/.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "codegen/cpu/machine.h"

namespace hds::emu::detail {

using BarrierKey = std::pair<size_t, int64_t>;  // (shared array, element)

// One tma_load_2d call site: the box (the destination's last two extents) and names for errors.
struct TmaCopy {
    int64_t rows = 0, cols = 0;
    int elem_bytes = 2;
    size_t shared = 0, global = 0;
    std::string dst_name, src_name, bar_name;
    SourceLoc loc;
};

// Block `rank` of t's cluster (t's own block without clusters); traps outside the cluster.
Block* cluster_block(Thread& t, int64_t rank, SourceLoc loc);
// The barrier at `key` in block b; traps when no mbarrier_init made it one.
Mbarrier& find_mbarrier(Thread& t, Block& b, BarrierKey key, const std::string& name, SourceLoc loc);
// One arrival (expecting `tx` more bytes of copies) on the barrier at `key` of block b.
void mbarrier_arrive(Thread& t, Block& b, BarrierKey key, int64_t tx, const std::string& name, SourceLoc loc);
// Named barriers (barrier_sync, barrier_arrive) are kept as mbarriers of t's block
// under this array index, keyed by id: a phase completes when its thread count
// has arrived.
constexpr size_t kNamedBarrier = static_cast<size_t>(-1);
// One arrival at named barrier `id` of t's block, whose phase needs `threads`
// arrivals; returns the phase it arrived in. Traps on a count other than the
// phase's, or more threads than the block has.
int64_t named_barrier_arrive(Thread& t, int64_t id, int64_t threads, SourceLoc loc);
// A completed wait: racecheck orders the arrivals' accesses before t's next ones.
void mbarrier_acquire(Thread& t, const Mbarrier& m);
// Waits (the scheduler releases t) while the phase of `parity` of t's block's barrier at
// `key` is the current one, then acquires its arrivals.
void mbarrier_wait_phase(Thread& t, BarrierKey key, int parity, SourceLoc loc);
// tma_load_2d of the box at `index` (the slice's indices, the row, the column) into
// element `at` of the box's array (mask < 0: this block's; else each block of the
// cluster whose bit is set), completing on `bar`.
void tma_load(Thread& t, const TmaCopy& c, int64_t at, const std::vector<int64_t>& index, BarrierKey bar, int64_t mask);
// The 128-byte (64-, 32-byte) swizzle of a byte offset from a 1024-byte aligned base.
int64_t swizzle(int64_t offset, int row_bytes);

// The warpgroup-collective instruction its 128 threads have reached (a wgmma is
// issued, setmaxnreg checked): "" or what is wrong.
std::string run_warpgroup_op(const std::vector<Thread*>& threads);
// Runs an issued wgmma: the products into each thread's accumulators.
void run_wgmma(WgmmaOp& op);
// A load or store of register element i of `array` while a pending wgmma holds it.
void check_register_hold(const Thread& t, size_t array, int64_t i, bool write, const std::string& name, SourceLoc loc);
// A write of shared element i of `name` that an issued wgmma still reads.
[[noreturn]] void wgmma_overwrite(const Thread& t, const std::string& name, int64_t i, SourceLoc loc);
// Why the thread waiting at an mbarrier can never go on (for the deadlock report).
std::string describe_mbarrier_wait(const Thread& t);
// A wgmma the finished thread did not wait for (null: none).
const WgmmaOp* unfinished_wgmma(const Thread& t);

}  // namespace hds::emu::detail
