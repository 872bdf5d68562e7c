// session.h — one input file through the front end: reading, imports,
// checking. Owns the sources, diagnostics and symbols later stages point into.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "frontend/module_loader.h"
#include "frontend/sema.h"
#include "graph/graph.h"
#include "graph/tuning.h"
#include "graph/variants.h"

namespace hds::driver {

// Why the target is what it is, for the emitted banner: "--arch=sm_90a",
// "inferred: 'wgmma_fence' at matmul_wgmma.hds:88 needs it", ... (`emitted`: the .cu's
// target, both where a graph of a file that declares none has sm_90a variants).
std::string describe_target(const TargetChoice& t, const SourceManager& sources, const std::string& emitted = "");

class Session {
  public:
    Session() : diags(sources) {}
    // Reads the main file; on failure prints "hdsc: error: ..." and returns false.
    bool open(const std::string& input, std::ostream& err);
    // Parses (with imports) and checks; returns false when there were errors
    // (not yet printed: `diags` has them).
    // `target`: the arch graphs are built for (0: the CPU emulator; 80 / 90:
    // --arch; -1: the file's `target` declaration or the least target it
    // needs, docs/cli.md) and their tuning (graph/tuning.h).
    bool check(const std::vector<std::string>& include_dirs, graph::Target target = {});

    SourceManager sources;
    DiagnosticsEngine diags;
    uint32_t main_file = 0;
    LoadedModule loaded;
    // The graphs declared in the main file, built once the module checks.
    std::vector<std::unique_ptr<graph::Graph>> graphs;
    // Per graph, its builds for cases of symbolic sizes that change a schedule
    // (graph/variants.h; empty: the one build runs for all sizes), led by its sm_90a
    // builds in a file that declares no target where those differ (graph::runs_sm90a_code).
    std::vector<std::vector<graph::Variant>> variants;
    // The target chosen (meaningful once check() ran without errors).
    TargetChoice target;

  private:
    std::unique_ptr<Sema> sema_;
};

}  // namespace hds::driver
