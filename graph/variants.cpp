// variants.cpp — building a graph once per case of its symbolic-size conditions.
#include "graph/variants.h"

#include "graph/graph_builder.h"

namespace hds::graph {

std::vector<Variant> build_variants(const GraphDecl& decl, const Module& m, Sema& sema, DiagnosticsEngine& diags,
                                    Target target) {
    std::vector<Variant> out;
    std::vector<bool> forced;
    while (static_cast<int>(out.size()) < kMaxVariants) {
        Decisions decisions(forced);
        target.decisions = &decisions;
        auto g = build_graph(decl, m, sema, diags, target);
        if (!g) return {};
        std::optional<std::vector<bool>> next = decisions.next();
        if (!next) break;  // every condition false: the build for any sizes
        out.push_back({std::move(g), decisions.taken()});
        forced = std::move(*next);
    }
    return out;
}

std::string variant_tag(const std::vector<Condition>& when) {
    std::string tag;
    for (const Condition& c : when) tag += (tag.empty() ? "" : "_") + c.tag;
    return tag.empty() ? "any" : tag;
}

}  // namespace hds::graph
