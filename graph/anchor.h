// anchor.h — ops with a hand-written schedule (`schedule simt = matmul_simt;`):
// the generic kernel is instantiated for the call's element types, its sizes
// are bound to the call's dimensions and its tensor parameters to graph
// buffers, so fusion can later rewrite its loads (prologues) and its stores
// (epilogues), as in Hidet's post-scheduling fusion.
#pragma once

#include <map>
#include <string>

#include "graph/op_instance.h"

namespace hds::graph {

// Turns `result` (the op's last compute) into an anchor node running the op's
// first schedule that applies (`for f16, bf16` lists the element types it is
// for; schedules with tensor-core built-ins are skipped when the target has
// none). Returns `result` (unchanged when no schedule applies), or null after
// reporting errors. Where the schedule runs on padded copies (padding.h),
// `result` becomes a slice of the anchor's result.
Node* instantiate_anchor(OpInstantiator& o, const OpCall& call, const std::map<std::string, ScalarType>& types,
                         const Bindings& b, Node* result);

// One schedule, its integer parameters set from `values` (tuning) or the
// call's attributes or their defaults; sets *skipped when it cannot run on the
// target or these shapes. `dry_run`: only whether it applies (the graph is not
// changed). With `pad(...)` (padding.h) `result` becomes the slice of the
// anchor's padded result.
Node* instantiate_schedule(OpInstantiator& o, const OpCall& call, const ScheduleRef& sched,
                           const std::map<std::string, ScalarType>& types, const Bindings& b, Node* result,
                           const std::map<std::string, int64_t>& values, bool* skipped, bool dry_run = false);

}  // namespace hds::graph
