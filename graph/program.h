// program.h — a scheduled graph: its kernels (an ir::Module, one kernel per
// node that survived fusion, in launch order) and how the host runs them:
// which buffers are inputs, the output, or temporaries placed in slots of one
// workspace. The CUDA host emitter and the CPU emulator both run a Program.
#pragma once

#include <string>
#include <vector>

#include "graph/graph.h"

namespace hds::graph {

struct Program {
    std::string name;
    SourceLoc loc;
    std::vector<ir::Var> sizes;
    std::vector<Requirement> requirements;  // on the sizes: a run that breaks one launches nothing
    std::vector<ir::Buffer> inputs;
    ir::Buffer output;
    std::vector<ir::Buffer> temps;  // in definition order
    std::vector<int> slot_of;       // per temp: its workspace slot
    int slots = 0;
    // Reshapes of a materialized tensor (row-major order unchanged): no kernel, the
    // view's buffer is its source's memory (an input, the output or a temporary).
    std::vector<std::pair<ir::Buffer, ir::Buffer>> views;  // (view, source)
    ir::Module module;                                     // kernels in launch order, plus device functions
    std::vector<std::string> origins;                      // per kernel: "matmul+add+gelu (mlp.hds:4)"

    bool is_temp(const ir::Buffer& b) const;
    // The buffer whose memory `b` is: the source of a view, else `b` itself.
    const ir::Buffer& storage_of(const ir::Buffer& b) const;
};

// Turns the fused graph into kernels (schedule.cpp) and plans the workspace.
// `functions`: the device functions kernels may call.
Program schedule_graph(const Graph& g, const std::vector<ir::DeviceFunction>& functions,
                       const std::vector<std::string>& file_names);

}  // namespace hds::graph
