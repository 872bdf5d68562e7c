// name_gen.h — fresh variable names for passes: derived from a readable base
// ("i_r") and unique among every name already used in a function.
#pragma once

#include <set>
#include <string>

#include "ir/ir.h"

namespace hds::ir {

class NameGen {
  public:
    // Collects every variable and buffer name used in `body`.
    explicit NameGen(const Stmt& body);
    void reserve(const std::string& name) { used_.insert(name); }
    // `base` if unused, else base_2, base_3, ...
    std::string fresh(const std::string& base);

  private:
    std::set<std::string> used_;
};

}  // namespace hds::ir
