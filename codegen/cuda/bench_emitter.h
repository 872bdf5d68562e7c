// bench_emitter.h — the timing program `hdsc tune` builds beside each
// candidate: it fills the graph's inputs with pseudo-random values, runs the
// graph a few times, and prints the median time of one run, replayed from a
// CUDA graph (the GPU's time, without the host's launches).
#pragma once

#include <map>
#include <string>

#include "graph/program.h"

namespace hds::codegen {

// A main() for the graph `p` (its header is `header`) at the given sizes;
// prints "hds-tune-ms <median>" and exits 0, or prints the CUDA error and exits 1.
std::string emit_graph_benchmark(const graph::Program& p, const std::string& header,
                                 const std::map<std::string, int64_t>& sizes);

}  // namespace hds::codegen
