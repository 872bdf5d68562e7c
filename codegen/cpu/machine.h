// machine.h — the emulator's run-time state (values, threads, blocks,
// buffers) and the compiled form of IR: closures over that state.
// Internal to codegen/cpu/.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "codegen/cpu/fiber.h"
#include "ir/builtins.h"
#include "ir/ir.h"
#include "ir/source_loc.h"

namespace hds::emu {

// One scalar: integers and bool in i (f16/bf16 as their bits), f32 in f, f64 in d.
union Value {
    int64_t i;
    double d;
    float f;
};

enum class ThreadState { Runnable, AtBarrier, AtShuffle, AtWarpOp, AtWarpgroupOp, AtMbarrier, AtClusterSync, Done };

// A run-time error inside a thread; carries the .hds location.
struct Trap {
    SourceLoc loc;
    std::string message;
};

struct SharedBuf {
    std::vector<Value> data;
    std::vector<uint8_t> written;      // uninitialized-read check
    std::vector<int32_t> writer;       // racecheck: last writing thread
    std::vector<int64_t> write_epoch;  // ... and the barrier interval it wrote in
    std::vector<int32_t> write_clock;  // ... and its own vector-clock entry then (mbarrier ordering)
    std::vector<int32_t> reader;       // last reading thread (-2: several)
    std::vector<int64_t> read_epoch;
    std::vector<int32_t> read_clock;    // the single reader's own vector-clock entry at its last read
    std::vector<uint8_t> pending;       // a copy into it has not landed: kPendingCpAsync or kPendingTma
    std::vector<uint16_t> wgmma_reads;  // issued wgmma that read it and have not completed
    // racecheck within a warp: syncwarp() orders the accesses of its lanes. The writer's
    // warp's syncwarp count at the write; the warp of the readers in this interval (-1:
    // several) and the largest such count at their reads.
    std::vector<int64_t> write_sync, read_sync;
    std::vector<int32_t> read_warp;
};

constexpr uint8_t kPendingCpAsync = 1;  // no cp_async_wait has covered its group
constexpr uint8_t kPendingTma = 2;      // the phase of the mbarrier it completes on is not over

struct Machine;

// An mbarrier (sm_90): a shared u64 element that mbarrier_init made one. A phase
// completes when `count` arrivals and the expected transaction bytes have come.
struct Mbarrier {
    int count = 0;
    int pending = 0;    // arrivals the current phase still needs
    int64_t tx = 0;     // bytes expected (arrive_expect_tx) minus bytes landed (TMA)
    int64_t phase = 0;  // phases completed
    // TMA boxes landed in this phase: their elements stay pending until it completes.
    struct Box {
        size_t shared;
        int64_t begin, end;
    };
    std::vector<Box> boxes;
    // racecheck: the joined vector clocks of this phase's arrivals, and of the last
    // completed phase (what a wait acquires).
    std::vector<int32_t> vc, done_vc;
};

struct Cluster;
struct Thread;

struct Block {
    int id[3] = {0, 0, 0};
    int rank = 0;  // in its cluster
    Cluster* cluster = nullptr;
    std::vector<SharedBuf> shared;
    int64_t epoch = 0;                                         // barrier intervals so far
    std::vector<int64_t> warp_syncs;                           // per warp: the syncwarp() calls it completed
    std::map<std::pair<size_t, int64_t>, Mbarrier> mbarriers;  // by (shared array, element)
    std::vector<int> max_regs;                                 // per warpgroup: setmaxnreg's limit
};

// The blocks of one thread block cluster, run together (1 without clusters).
struct Cluster {
    std::vector<Block*> blocks;
};

// A cp.async in flight: 16 bytes read at issue, written into shared memory when a
// cp_async_wait covers its group.
struct PendingCopy {
    size_t shared = 0;  // the shared array
    int64_t at = 0;     // its first element
    std::vector<Value> values;
    std::shared_ptr<const std::string> name;  // the array's, for racecheck's reports
};

// A warp-collective tensor-core instruction a lane has reached (mma_16816,
// ldmatrix_x4[_trans]): where its operands live; run when every lane is there.
struct WarpOp {
    Builtin builtin = Builtin::Mma16816;
    ScalarType elem = ScalarType::F16;  // mma_16816's inputs
    std::vector<Value>* ref[3] = {nullptr, nullptr, nullptr};
    int64_t at[3] = {0, 0, 0};
};

// One wgmma of a warpgroup: issued when its 128 threads have reached it, run (in issue
// order) when a wgmma_wait of one of them covers its group.
struct WgmmaOp {
    Builtin builtin = Builtin::Wgmma64;
    ScalarType elem = ScalarType::F16;
    SourceLoc loc;
    int n = 64;
    // Per thread of the warpgroup: its accumulators (and A registers, _ra form).
    std::vector<std::vector<Value>*> acc;
    std::vector<int64_t> acc_at;
    std::vector<std::vector<Value>> a_regs;  // read at issue
    // Shared operands: their arrays and the elements each A / B value is read from.
    size_t a_shared = 0, b_shared = 0;
    std::vector<int64_t> a_elems;  // [m * 16 + k], 64 x 16 (empty for _ra)
    std::vector<int64_t> b_elems;  // [k * n + j], 16 x n
    Block* block = nullptr;
    std::vector<Thread*> threads;
    bool done = false;
};

// A register range a pending wgmma still writes (accumulators) or reads (A registers).
struct RegisterHold {
    size_t array;
    int64_t begin, end;
    bool writes;
    const WgmmaOp* op;
};

// A warpgroup-collective instruction a thread has reached: a wgmma (its operand
// references) or setmaxnreg.
struct WarpgroupOp {
    Builtin builtin = Builtin::Wgmma64;
    ScalarType elem = ScalarType::F16;
    std::vector<Value>* acc = nullptr;
    int64_t acc_at = 0;
    size_t acc_array = 0;
    std::vector<Value>* a = nullptr;  // A: registers (_ra) ...
    int64_t a_at = 0;
    size_t a_array = 0;
    size_t a_shared = 0, b_shared = 0;  // ... or shared; B shared
    int64_t b_at = 0;
    int64_t b_tile_bytes = 0;  // N-major B: bytes between its 64-column tiles
    int value = 0;             // setmaxnreg's count
};

struct Thread {
    int id[3] = {0, 0, 0};
    int linear = 0;  // x + y*bx + z*bx*by
    std::vector<Value> stack;
    size_t base = 0;                         // current frame's first slot
    std::vector<std::vector<Value>> locals;  // register arrays of the kernel body
    ThreadState state = ThreadState::Runnable;
    SourceLoc wait_loc;  // the barrier or shuffle it waits at
    Value shfl_value{}, shfl_result{};
    int shfl_src = 0;
    Value ret{};
    std::vector<PendingCopy> open_copies;               // cp.async issued since the last commit
    std::vector<std::vector<PendingCopy>> copy_groups;  // committed groups, oldest first
    WarpOp warp_op;
    WarpgroupOp wg_op;
    // mbarrier_wait: the barrier and the parity of the phase it waits for.
    std::pair<size_t, int64_t> wait_bar{0, 0};
    int wait_parity = 0;
    // wgmma issued since the last commit, committed groups (oldest first), the register
    // ranges they hold, and per register array the range written since the last wgmma_fence.
    std::vector<std::shared_ptr<WgmmaOp>> wgmma_open;
    std::vector<std::vector<std::shared_ptr<WgmmaOp>>> wgmma_groups;
    std::vector<RegisterHold> holds;
    std::vector<std::pair<int64_t, int64_t>> unfenced;
    std::vector<int32_t> vc;  // racecheck with mbarriers: this thread's vector clock
    Fiber* fiber = nullptr;   // null when the kernel needs no synchronisation
    Block* block = nullptr;
    Machine* machine = nullptr;
};

struct GlobalBuf {
    std::string name;
    ScalarType elem;
    std::vector<int64_t> shape;
    std::vector<Value> data;
};

struct Program;

struct Machine {
    std::vector<GlobalBuf> globals;
    const Program* program = nullptr;  // the kernel running (its shared arrays' names)
    int grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
    bool racecheck = false;
    std::vector<std::string> file_names;
};

using Eval = std::function<Value(Thread&)>;
enum class Flow { Next, Break, Continue, Return };
using Exec = std::function<Flow(Thread&)>;

// A compiled kernel or device function.
struct Program {
    Exec body;
    size_t slots = 0;                                 // scalar slots of one frame
    std::vector<size_t> param_slots;                  // device functions: argument slots
    std::vector<size_t> size_slots;                   // kernels: slot of each size, in ir::Kernel::sizes order
    std::vector<size_t> scalar_param_slots;           // kernels: slot of each scalar parameter, in order
    std::vector<std::vector<int64_t>> shared_shapes;  // shared arrays, by shared index
    std::vector<ScalarType> shared_types;
    std::vector<std::string> shared_names;
    size_t register_arrays = 0;
    bool needs_sync = false;  // uses barriers or shuffles: run threads as fibers
    bool uses_mbarriers = false;
};

// Compiles a kernel (with every device function it calls) to closures.
// Global buffers are numbered in kernel parameter order.
Program compile_kernel(const ir::Module& m, const ir::Kernel& k);

// Value conversions used by the compiler and the launcher.
Value convert(Value v, ScalarType from, ScalarType to);
double to_double(Value v, ScalarType t);
Value from_double(double d, ScalarType t);

}  // namespace hds::emu
