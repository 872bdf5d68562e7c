// variants.cpp — building a graph once per case of its symbolic-size conditions.
#include "graph/variants.h"

#include "graph/checked_clones.h"
#include "graph/graph_builder.h"

namespace hds::graph {

std::vector<Variant> build_variants(const GraphDecl& decl, const Module& m, Sema& sema, DiagnosticsEngine& diags,
                                    Target target) {
    std::vector<Variant> out;
    std::vector<bool> forced;
    CheckedClones clones;  // the schedules' kernels, checked in the first build that makes them
    target.clones = &clones;
    for (;;) {
        // Past the cap, the remaining cases run the build for any sizes (no decisions: all false).
        std::optional<Decisions> decisions;
        if (static_cast<int>(out.size()) < kMaxVariants) decisions.emplace(forced);
        target.decisions = decisions ? &*decisions : nullptr;
        auto g = build_graph(decl, m, sema, diags, target);
        if (!g) return {};
        std::optional<std::vector<bool>> next = decisions ? decisions->next() : std::nullopt;
        out.push_back({std::move(g), next ? decisions->taken() : std::vector<Condition>{}});
        if (!next) return out;  // every condition false: the build for any sizes
        forced = std::move(*next);
    }
}

void add_sm90a_variants(std::vector<Variant>& cases, std::vector<Variant> hopper) {
    for (Variant& v : hopper) v.when.insert(v.when.begin(), sm90a_condition());
    for (Variant& v : cases) hopper.push_back(std::move(v));
    cases = std::move(hopper);
}

bool runs_sm90a_code(const std::vector<Condition>& when) {
    return !when.empty() && is_sm90a_condition(when.front());
}

std::string variant_tag(const std::vector<Condition>& when) {
    std::string tag;
    for (const Condition& c : when) tag += (tag.empty() ? "" : "_") + c.tag;
    return tag.empty() ? "any" : tag;
}

}  // namespace hds::graph
