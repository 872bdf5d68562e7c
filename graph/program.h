// program.h — a scheduled graph: its kernels (an ir::Module, one kernel per
// node that survived fusion, or one per case where the sizes pick it at run
// time, in launch order) and how the host runs them:
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
    // Tensors that are another's memory, with no kernel: reshapes of a materialized
    // tensor (row-major order unchanged), and strided views that only TMA copies read
    // (strided_view.h). The source is an input, the output or a temporary.
    struct View {
        ir::Buffer view, source;
        ir::Expr offset;                // strided views: the first element's, in the source
        std::vector<ir::Expr> strides;  // strided views: per dimension, in elements
        bool strided() const { return offset != nullptr; }
    };
    std::vector<View> views;
    ir::Module module;                 // kernels in launch order, plus device functions
    std::vector<std::string> origins;  // per kernel: "matmul+add+gelu (mlp.hds:4)"
    // Per kernel: whether it runs for these sizes. A node's kernels that are one per
    // case (a row group's regimes) run as an if / else-if chain: the first is
    // `when`, each next one `chained` (tested only where those before it did not run),
    // the last one with no `when` (the rest). `note`: what the case is for.
    struct Launch {
        ir::Expr when;  // null: always (or, chained, where no kernel before it in the chain ran)
        bool chained = false;
        std::string note;
        std::string suffix;  // of the kernel's name, after the node's (e.g. "warp_vec")
    };
    std::vector<Launch> launches;

    bool is_temp(const ir::Buffer& b) const;
    // The buffer whose memory `b` is: the source of a view, else `b` itself.
    const ir::Buffer& storage_of(const ir::Buffer& b) const;
    const View* view_of(const ir::Buffer& b) const;  // null where `b` is no view
};

// Turns the fused graph into kernels (schedule.cpp) and plans the workspace.
// `functions`: the device functions kernels may call.
Program schedule_graph(const Graph& g, const std::vector<ir::DeviceFunction>& functions,
                       const std::vector<std::string>& file_names);

}  // namespace hds::graph
