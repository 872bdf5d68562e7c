// tune.h — `hdsc tune`: for every op call with hand schedules in a file's
// graphs, builds each candidate (schedule and parameter values, per search
// level), times the graph with nvcc-built programs on the GPU, and stores the
// fastest in a JSON cache that `hdsc --tune-cache` reads.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace hds::driver {

struct TuneOptions {
    std::string input;
    std::vector<std::string> include_dirs;
    std::string arch;                     // "" : the file's target (docs/cli.md)
    std::string target;                   // set by tune once the file is checked: the target chosen ("sm_80", "sm_90a")
    int level = 1;                        // 0 defaults, 1 one parameter at a time, 2 every combination
    std::string sizes;                    // "M=4096,B=8": the sizes the graphs are timed at
    std::string cache = "hds-tune.json";  // read, updated and written back
    std::string work;                     // candidates' sources and programs ("" = a temporary folder)
    std::string nvcc = "nvcc";
    std::string runtime;  // the hds/runtime.h folder ("" = the one hdsc was built with)
    int jobs = 0;         // parallel nvcc compiles (0 = one per core)
    bool no_run = false;  // compile the candidates, time nothing (no GPU needed)
};

int tune(const TuneOptions& opts, std::ostream& out, std::ostream& err);

}  // namespace hds::driver
