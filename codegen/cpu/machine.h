// machine.h — the emulator's run-time state (values, threads, blocks,
// buffers) and the compiled form of IR: closures over that state.
// Internal to codegen/cpu/.
#pragma once

#include <cstdint>
#include <functional>
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

enum class ThreadState { Runnable, AtBarrier, AtShuffle, AtWarpOp, Done };

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
    std::vector<int32_t> reader;       // last reading thread (-2: several)
    std::vector<int64_t> read_epoch;
    std::vector<uint8_t> pending;  // a cp.async issued into it has not landed (no wait covered it)
    // racecheck within a warp: syncwarp() orders the accesses of its lanes. The writer's
    // warp's syncwarp count at the write; the warp of the readers in this interval (-1:
    // several) and the largest such count at their reads.
    std::vector<int64_t> write_sync, read_sync;
    std::vector<int32_t> read_warp;
};

struct Machine;

struct Block {
    int id[3] = {0, 0, 0};
    std::vector<SharedBuf> shared;
    int64_t epoch = 0;                // barrier intervals so far
    std::vector<int64_t> warp_syncs;  // per warp: the syncwarp() calls it completed
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
    Fiber* fiber = nullptr;  // null when the kernel needs no synchronisation
    Block* block = nullptr;
    Machine* machine = nullptr;
};

struct GlobalBuf {
    std::string name;
    ScalarType elem;
    std::vector<int64_t> shape;
    std::vector<Value> data;
};

struct Machine {
    std::vector<GlobalBuf> globals;
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
};

// Compiles a kernel (with every device function it calls) to closures.
// Global buffers are numbered in kernel parameter order.
Program compile_kernel(const ir::Module& m, const ir::Kernel& k);

// Value conversions used by the compiler and the launcher.
Value convert(Value v, ScalarType from, ScalarType to);
double to_double(Value v, ScalarType t);
Value from_double(double d, ScalarType t);

}  // namespace hds::emu
