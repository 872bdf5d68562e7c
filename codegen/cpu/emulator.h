// emulator.h — runs IR kernels on the CPU with CUDA semantics (the second
// backend): a grid of blocks, threads of a block as fibers that meet at
// syncthreads() and warp shuffles, shared memory per block, f16/bf16 rounded
// like the device, integers bit-exact. Checks out-of-bounds accesses,
// uninitialized shared reads, shared-memory races (opt-in) and barrier
// divergence, each reported at the .hds access with the block and thread.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "ir/source_loc.h"

namespace hds::emu {

// A host tensor: elements are stored as doubles for floats (f16/bf16 values
// exactly), as int64 for integers and bool.
struct Tensor {
    ScalarType elem = ScalarType::F32;
    std::vector<int64_t> shape;
    std::vector<double> f;   // float element types
    std::vector<int64_t> i;  // integer and bool element types
    int64_t size() const;
};

struct LaunchArgs {
    std::map<std::string, Tensor> tensors;  // by parameter name; written tensors are updated in place
    std::map<std::string, int64_t> sizes;   // symbolic sizes (inferred from tensor shapes when absent)
    std::map<std::string, double> scalars;  // scalar parameters
};

struct EmuOptions {
    bool racecheck = false;
    // The device's shared memory a block (hdsc run --shared-memory): a graph's kernel over it
    // is an error, as the launcher's opt-in is on a GPU.
    int64_t shared_memory = ir::kSharedMemorySm90;
};

// A located runtime error: printed like a compiler diagnostic.
struct EmuError {
    SourceLoc loc;
    std::string message;
};

// Runs one kernel. Returns the first error, if any (execution stops there).
// Precondition: `m` went through the pipeline with flatten = false.
std::optional<EmuError> run_kernel(const ir::Module& m, const std::string& kernel, LaunchArgs& args,
                                   const EmuOptions& opts);

// Binds sizes from tensor shapes and checks the arguments against the kernel's
// parameters. Returns an error message, or "" when the arguments fit.
std::string bind_arguments(const ir::Kernel& k, LaunchArgs& args);

// The value of a dimension expression over sizes (nullopt if a size is unknown).
std::optional<int64_t> eval_size(const ir::Expr& e, const std::map<std::string, int64_t>& sizes);

}  // namespace hds::emu
