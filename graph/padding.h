// padding.h — a schedule declared with `pad(K, N)` (nn.hds: matmul's TMA and
// cp.async schedules) runs, where those sizes do not make rows of 16-byte
// multiples, on copies of its tensors zero-padded along them: the call becomes
// pad kernels for the inputs, the schedule at the rounded-up sizes, and a
// slice of its result (inlined into the result's users, or a copy). As
// Inductor's pad_mm, it trades two copies for the fast path: for f16 at
// K = 4095, N = 4097 and M = 77 the unaligned kernel runs 4-5x slower than the
// copies and the aligned one together (bench/results/2026-11-25-h100-padded-gemm).
//
// Where the sizes are symbolic, "rows of 16-byte multiples" is decided per
// build (decisions.h) with the same condition as the TMA check, so a build
// either takes the schedule as is or pads.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "frontend/ast.h"
#include "graph/decisions.h"
#include "graph/graph.h"
#include "graph/op_instance.h"
#include "graph/shapes.h"

namespace hds::graph {

// `width % multiple == 0` for each entry (keyed by the width's text, so that
// the same widths give the same condition), joined by &&.
Condition rows_condition(const std::map<std::string, std::pair<ir::Expr, int64_t>>& widths);

// The padded form of one call of a schedule: its sizes and tensor shapes.
struct Padding {
    Bindings sizes;                             // the call's bindings, padded sizes rounded up
    std::map<std::string, ir::Buffer> targets;  // tensor parameter -> a buffer of its padded shape (not in the graph)
};

// nullopt when the schedule declares no padding or the call's padded sizes are
// multiples already (constants, or the build decided so); else the padded form.
std::optional<Padding> plan_padding(const OpDecl& op, const ScheduleRef& sched, const Bindings& b,
                                    const std::map<std::string, ir::Buffer>& targets, Decisions* decisions);

// Adds the padded copies of the inputs that change and the node of the padded
// result (returned, still to become the anchor), and turns `result` into the
// slice of it; `targets` then name the graph buffers.
Node* commit_padding(Graph& g, const OpCall& call, Padding& padding, Node* result);

}  // namespace hds::graph
