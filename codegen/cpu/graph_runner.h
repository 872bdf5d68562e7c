// graph_runner.h — runs a scheduled graph (graph::Program) on the emulator:
// its kernels in order, temporaries as separate zeroed tensors.
#pragma once

#include "codegen/cpu/emulator.h"
#include "graph/decisions.h"
#include "graph/program.h"

namespace hds::emu {

// The sizes of a run: `sizes` (given) completed from the shapes of `tensors` (the
// graph's inputs by name), checked against each other.
std::optional<EmuError> bind_sizes(const graph::Program& p, const std::map<std::string, Tensor>& tensors,
                                   std::map<std::string, int64_t>& sizes);

// The first of a graph's variants whose conditions hold for `sizes` on the device of
// `opts` (its shared memory), as the emitted dispatch chooses (cases.size(): none, the
// build for any sizes).
size_t choose_variant(const std::vector<std::vector<graph::Condition>>& cases,
                      const std::map<std::string, int64_t>& sizes, const EmuOptions& opts);

// `tensors`: the graph's inputs by name; the output is added under its name.
// `sizes`: every size of the graph, as bind_sizes completed them.
std::optional<EmuError> run_program(const graph::Program& p, std::map<std::string, Tensor>& tensors,
                                    const std::map<std::string, int64_t>& sizes, const EmuOptions& opts);

}  // namespace hds::emu
