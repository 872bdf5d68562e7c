// variants.h — one graph built once per case of the conditions its schedules
// rely on (decisions.h): `when M <= 16` in an op, TMA's 16-byte rows. The
// builds walk the decisions depth first, true before false, so the variants
// come in the order an if chain must test them: a variant's case is the
// conditions it took as true, and the build for any sizes (every condition
// false) comes last.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "frontend/ast.h"
#include "frontend/diagnostics.h"
#include "frontend/sema.h"
#include "graph/decisions.h"
#include "graph/graph.h"
#include "graph/tuning.h"

namespace hds::graph {

struct Variant {
    std::unique_ptr<Graph> graph;
    std::vector<Condition> when;  // all must hold
};

// At most this many variants before the one for any sizes; further cases run that one.
constexpr int kMaxVariants = 256;

// The builds of `decl` for `target` (its `decisions` is ignored), one per case,
// the last for any sizes (every condition false, `when` empty): a single build
// when no schedule depends on a symbolic size; empty after errors.
std::vector<Variant> build_variants(const GraphDecl& decl, const Module& m, Sema& sema, DiagnosticsEngine& diags,
                                    Target target);

// A graph of a file that declares no target (docs/cli.md, "The target"): its sm_90a
// builds `hopper` (the last for any sizes), each case led by sm90a_condition(), before
// `cases`, the sm_80 builds but the last, which stays the one for any sizes.
void add_sm90a_variants(std::vector<Variant>& cases, std::vector<Variant> hopper);

// Whether a variant's case holds only where the device runs the .cu's sm_90a code.
bool runs_sm90a_code(const std::vector<Condition>& when);

// "rows16", "skinny_rows16": a word for the variant's name from its conditions.
std::string variant_tag(const std::vector<Condition>& when);

}  // namespace hds::graph
