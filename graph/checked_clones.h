// checked_clones.h — schedule kernels cloned and checked once across a graph's variant builds.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "frontend/ast.h"

namespace hds::graph {

// build_variants builds a graph once per case of its size conditions, and each build instantiates
// the same schedules at the same calls again: the clone of a generic kernel with the same values
// and types at the same call is checked once and kept here. Each build still lowers it (IR
// variables of its own). A symbolic Llama MLP's variants spent half their time cloning, checking
// and freeing the same kernels.
class CheckedClones {
  public:
    // The key of the clone of `k` named `name` with these types and values at `call`; "" (not
    // kept) where a value is not a literal.
    static std::string key(const KernelDecl& k, const std::string& name,
                           const std::map<std::string, std::string>& types,
                           const std::map<std::string, const Expr*>& values, SourceRange call);
    const KernelDecl* find(const std::string& key) const;
    void keep(const std::string& key, std::unique_ptr<KernelDecl> k);

  private:
    std::map<std::string, std::unique_ptr<KernelDecl>> clones_;
};

}  // namespace hds::graph
