// graph_compile.h — a built graph through the graph passes, scheduling and the
// IR pipeline: the Program both the CUDA emitter and the emulator run.
#pragma once

#include <ostream>

#include <string>
#include <vector>

#include "codegen/cuda/graph_emitter.h"
#include "graph/program.h"
#include "graph/variants.h"
#include "ir/lower.h"

namespace hds::driver {

// `lowered`: the file's lowered module (its device functions are available to
// the graph's kernels). `graph_dump` prints the graph after each graph pass.
graph::Program compile_graph(graph::Graph& g, const ir::Module& lowered, const ir::PipelineOptions& popts,
                             std::ostream* graph_dump = nullptr);

// The variants of graph `name` (graph/variants.h) compiled, named NAME_TAG
// (`mlp_skinny`, `mlp_rows16`; a number added where two tags agree).
std::vector<graph::Program> compile_variants(const std::string& name, std::vector<graph::Variant>& cases,
                                             const ir::Module& lowered, const ir::PipelineOptions& popts);

// The target of a graph's .cu: the file's (`arch`: 80 or 90), or kSm80AndSm90a where
// `cases` lead with sm_90a variants (a file that declares no target, docs/cli.md).
std::string graph_target(int arch, const std::vector<graph::Variant>& cases);

// The variants in the order the host API tries them: `programs` (compiled from
// `cases`), then `any` (the build for any sizes, with no condition).
std::vector<codegen::GraphVariant> dispatch_order(const std::vector<graph::Program>& programs,
                                                  const std::vector<graph::Variant>& cases, const graph::Program& any);

// Graph `name`'s .cu and header as the compiler writes them: `programs`
// (compiled from `cases`), then `any` (the build for any sizes), behind the
// host API's if chain; `any` alone when there are no variants. `emitted`: the
// dispatcher's programs as the .cu has them (codegen::emit_graph_cuda_dispatch; none
// without variants).
codegen::CudaOutput emit_graph_variants(const std::string& name, const std::vector<graph::Program>& programs,
                                        const std::vector<graph::Variant>& cases, const graph::Program& any,
                                        const codegen::CudaOptions& opts,
                                        std::vector<graph::Program>* emitted = nullptr);

}  // namespace hds::driver
