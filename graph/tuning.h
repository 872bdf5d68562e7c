// tuning.h — what `hdsc tune` searches and what it found. An op call with hand
// schedules is a tuning site, named by a key of the op, its element type, the
// target and its tensors' shapes as the graph writes them ("matmul<f16>
// sm_90a [M, 520] [520, 264]"). Its space: each schedule that applies, with
// the candidate values of its integer parameters (`BN: i32 = 256 in {128,
// 256}`). A choice (schedule + values) per key lives in a JSON cache that hdsc
// reads with --tune-cache.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "graph/decisions.h"

namespace hds::graph {

struct TuneParam {
    std::string name;
    int64_t fallback = 0;             // the declared default
    std::vector<int64_t> candidates;  // `in {..}` (empty: not tuned)
};

struct TuneSchedule {
    std::string name;  // `schedule NAME = kernel`
    std::vector<TuneParam> params;
};

struct TuneSite {
    std::string key;
    std::string graph;                    // the graph it was met in
    std::vector<TuneSchedule> schedules;  // those that apply here, in declaration order
};

struct TuneChoice {
    std::string schedule;
    std::map<std::string, int64_t> params;
    std::string describe() const;  // "wgmma BN=128 STAGES=4"
};

// How graph building treats tuning sites: follow `choices` where they name
// the site, and list the sites met in `sites` when recording.
struct Tuning {
    std::map<std::string, TuneChoice> choices;
    bool record = false;
    std::vector<TuneSite> sites;
};

class CheckedClones;

// What graphs are built for: the arch (0 the CPU emulator, 80 sm_80, 90
// sm_90a; schedules whose built-ins it lacks are skipped), the tuning, and the
// values of conditions on symbolic sizes (decisions.h; null: all false, the
// build for any sizes).
struct Target {
    int arch = 80;
    Tuning* tuning = nullptr;
    Decisions* decisions = nullptr;
    CheckedClones* clones = nullptr;  // kept across the variants' builds (build_variants)
};

// "sm_80", "sm_90a", or "emulator".
std::string arch_name(int arch);

// The candidates of a site at a search level: 0 the defaults of the first
// schedule; 1 each schedule's defaults and every single-parameter change from
// them; 2 every combination of every schedule. The first is the default.
std::vector<TuneChoice> candidates(const TuneSite& site, int level);

// The cache file: {"version": 1, "entries": {KEY: {"schedule", "params", "ms", "sizes", "tried", "bucket"}}}.
// load_cache returns the choices, or nullopt with `error` set.
std::optional<std::map<std::string, TuneChoice>> load_cache(const std::string& path, std::string& error);
struct TuneResult {
    std::string key;
    TuneChoice best;
    double ms = 0;
    std::map<std::string, int64_t> sizes;  // the sizes it was measured at
    int tried = 0;
    std::string bucket;  // "M <= 16": one range of a size (tune --sizes M=1,16,...); "" for any
};

// Size buckets: a choice for the calls whose size NAME is at most MAX is cached under
// "KEY @ NAME <= MAX" (the largest bucket, any size, under KEY itself).
std::string bucket_key(const std::string& key, const std::string& bucket);
std::string bucket_name(const std::string& size, int64_t max);  // "M <= 16"
struct TuneBucket {
    std::string size;
    int64_t max = 0;
    const TuneChoice* choice = nullptr;
};
// The buckets `choices` holds for `key`, smallest first.
std::vector<TuneBucket> buckets_of(const std::map<std::string, TuneChoice>& choices, const std::string& key);
// Adds (or replaces) the entries of `results` in the cache at `path`, keeping the others.
bool store_cache(const std::string& path, const std::vector<TuneResult>& results, std::string& error);

}  // namespace hds::graph
