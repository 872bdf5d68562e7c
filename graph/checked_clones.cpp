// checked_clones.cpp — schedule kernels cloned and checked once (checked_clones.h).
#include "graph/checked_clones.h"

#include <fmt/format.h>

namespace hds::graph {

namespace {

std::string at(SourceRange r) {
    return fmt::format("{}:{}:{}", r.begin.file, r.begin.line, r.begin.col);
}

}  // namespace

std::string CheckedClones::key(const KernelDecl& k, const std::string& name,
                               const std::map<std::string, std::string>& types,
                               const std::map<std::string, const Expr*>& values, SourceRange call) {
    // The kernel by its address (the module outlives the builds), the literals by value and place
    // (the clone keeps their source ranges).
    std::string key = fmt::format("{} {} @{}", static_cast<const void*>(&k), name, at(call));
    for (const auto& [t, scalar] : types) key += " " + t + "=" + scalar;
    for (const auto& [v, e] : values) {
        if (e && e->kind == ExprKind::IntLit) {
            auto& i = static_cast<const IntLit&>(*e);
            key += fmt::format(" {}={}{}@{}", v, i.value, i.suffix ? scalar_name(*i.suffix) : "", at(e->range));
        } else if (e && e->kind == ExprKind::FloatLit) {
            auto& f = static_cast<const FloatLit&>(*e);
            key += fmt::format(" {}={:a}{}@{}", v, f.value, f.suffix ? scalar_name(*f.suffix) : "", at(e->range));
        } else {
            return "";
        }
    }
    return key;
}

const KernelDecl* CheckedClones::find(const std::string& key) const {
    auto it = clones_.find(key);
    return it == clones_.end() ? nullptr : it->second.get();
}

void CheckedClones::keep(const std::string& key, std::unique_ptr<KernelDecl> k) {
    clones_[key] = std::move(k);
}

}  // namespace hds::graph
