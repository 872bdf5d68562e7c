// graph_runner.h — runs a scheduled graph (graph::Program) on the emulator:
// its kernels in order, temporaries as separate zeroed tensors.
#pragma once

#include "codegen/cpu/emulator.h"
#include "graph/program.h"

namespace hds::emu {

// `tensors`: the graph's inputs by name; the output is added under its name.
// `sizes`: given sizes (the rest come from input shapes).
std::optional<EmuError> run_program(const graph::Program& p, std::map<std::string, Tensor>& tensors,
                                    std::map<std::string, int64_t>& sizes, const EmuOptions& opts);

}  // namespace hds::emu
