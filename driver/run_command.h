// run_command.h — `hdsc run`: executes one kernel on the CPU emulator with
// .npy inputs and outputs.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "ir/ir.h"

namespace hds::driver {

struct RunOptions {
    std::string input;
    std::string kernel;
    std::vector<std::string> include_dirs;
    std::string sizes;    // "M=4,N=5" (optional: inferred from input shapes)
    std::string scalars;  // "alpha=2.0,n=3"
    std::string inputs;   // "a.npy,b.npy" (tensor parameters in order) or "a=a.npy,..."
    std::string outputs;  // "c.npy" (written tensor parameters in order) or "c=c.npy"
    bool racecheck = false;
    std::string arch;  // "sm_80" or "sm_90a": the schedules graphs take (default: the file's target, as hdsc's)
    // The shared memory a block may have on the device emulated (bytes; an H100's 227 KiB): sm_80
    // code's dispatch tests it, as on a GPU, and a graph's kernel over it is an error.
    int64_t shared_memory = ir::kSharedMemorySm90;
};

int run_on_emulator(const RunOptions& opts, std::ostream& out, std::ostream& err);

}  // namespace hds::driver
