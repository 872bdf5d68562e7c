// decisions.h — what a graph build assumes about symbolic sizes. A schedule
// may hold only for some sizes: `when M <= 16` in the op, or TMA's rows of
// 16-byte multiples. Where a size is symbolic, only the call can tell; the
// graph is then built once per case (graph/variants.h) and the host code
// picks the variant per call (docs/graphs.md, "Runtime dispatch").
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ir/ir.h"

namespace hds::graph {

// A condition over the graph's sizes (a bool IR expression).
struct Condition {
    ir::Expr expr;
    std::string why;  // "rows of 16-byte multiples (TMA)", "`when M <= 16` of matmul's schedule 'skinny'"
    std::string tag;  // a word for the variant's name: "rows16", "skinny"
};

// The shared memory a block may have on the GPU that a call runs on (the device's opt-in
// limit, bytes): a fact of the device, not of the sizes. Code for sm_80 runs on GPUs of 99 KiB
// (sm_86, sm_89, sm_120), 163 (sm_80, sm_87) and 227 (sm_90, sm_100); the dispatch of a kernel
// over 99 KiB tests it (`hds::shared_memory_per_block()` in the host code, hdsc run's
// --shared-memory on the emulator), and the next schedule runs where it does not fit.
inline constexpr const char* kSharedMemoryName = "shared_memory_per_block()";

// `shared_memory_per_block() >= bytes` where code for `arch` (0: the emulator, as sm_80) may
// run on a GPU whose blocks have less than `bytes`; none where every one has them.
std::optional<Condition> shared_memory_condition(int arch, int64_t bytes);

// Whether the device runs the sm_90a build of the .cu (an H100/H200-class GPU, and nvcc
// built it for compute_90a): a fact of the device and the build. A graph of a file that
// declares no target, whose ops have other schedules on sm_90a, runs those there and the
// sm_80 ones elsewhere (docs/cli.md, "The target"): the sm_90a variants' cases start with it
// (`sm90a_code()` in the host code, a function of the .cu).
inline constexpr const char* kSm90aCodeName = "sm90a_code()";
Condition sm90a_condition();
// Whether `c` is sm90a_condition().
bool is_sm90a_condition(const Condition& c);

// The operands of a chain of &&, in order: `a && b && c` -> a, b, c (`e` alone otherwise).
std::vector<ir::Expr> conjuncts(const ir::Expr& e);

// The decisions of one build. Each condition met gets a value: the one it got
// before in this build (the same text), or the one earlier decisions imply
// (bounds on one size: `M <= 16` true: `M <= 256` true; `M <= 256` false:
// `M <= 16` false; the conjuncts of a && taken as true hold, and a && that
// implies a condition taken as false fails; `!c` is the opposite of what they
// say of c), else the next of `forced`, else true.
// Without a Decisions object (Target::decisions null) every symbolic
// condition counts as false: the build that runs for any sizes.
class Decisions {
  public:
    explicit Decisions(std::vector<bool> forced = {}) : forced_(std::move(forced)) {}
    // Decides each condition by its value at `sizes` (by name; false where one is
    // missing): `hdsc tune` lists the schedules that apply at the sizes it times.
    static Decisions at(std::map<std::string, int64_t> sizes) {
        Decisions d;
        d.at_ = std::move(sizes);
        d.at_.emplace(kSharedMemoryName, ir::kSharedMemorySm90);  // (the schedules a Hopper GPU runs)
        d.evaluate_ = true;
        return d;
    }

    bool decide(const Condition& c);
    // The conditions this build took as true: its case.
    std::vector<Condition> taken() const;
    // The forced values of the next build in a depth-first walk over the
    // decisions (true before false), or nullopt after the last (all false).
    std::optional<std::vector<bool>> next() const;

  private:
    // Whether `c` could hold together with the decisions made so far, at some size of a
    // fixed sample (1 ... 131072, boundaries of powers of two and
    // of common model widths; each size's samples narrowed by the conditions over it alone,
    // then every combination or a fixed 20000 of them): a condition no sampled size lets hold is taken as false
    // without a decision, so that conditions of several ops over one size (each matmul's
    // tiles by its N) do not multiply into cases that never occur. Taking a condition as
    // false is always safe (the op's next schedule runs for any sizes).
    bool possible(const Condition& c) const;
    bool sample(const Condition& c) const;  // possible()'s search, without its process-wide answers
    // `depth`: the negations looked through so far (a condition may hold the
    // negation of another that holds it: the look stops after kMaxDepth).
    static constexpr int kMaxDepth = 4;
    std::optional<bool> known(const ir::Expr& e, int depth = 0) const;
    std::optional<bool> determined(const ir::Expr& e, int depth = 0) const;
    std::vector<bool> forced_;
    std::map<std::string, int64_t> at_;
    bool evaluate_ = false;
    struct Made {
        Condition condition;
        std::string text;  // the condition's IR text: the same text, the same condition
        bool value;
        std::vector<ir::Expr> parts;          // its conjuncts
        std::vector<std::string> part_texts;  // and their texts
    };
    std::vector<Made> made_;
};

}  // namespace hds::graph
