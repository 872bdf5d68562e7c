// builtins.cpp — the built-in table.
#include "ir/builtins.h"

namespace hds {

const std::vector<BuiltinInfo>& all_builtins() {
    static const std::vector<BuiltinInfo> table = {
#define BUILTIN(id, name, arity, cls, summary) {Builtin::id, name, arity, BuiltinClass::cls, summary},
#include "ir/builtins.def"
#undef BUILTIN
    };
    return table;
}

const BuiltinInfo* find_builtin(std::string_view name) {
    for (const BuiltinInfo& b : all_builtins())
        if (name == b.name) return &b;
    return nullptr;
}

const BuiltinInfo& builtin_info(Builtin id) {
    // Builtin::DeviceFn is 0; the table starts at 1.
    return all_builtins().at(static_cast<size_t>(id) - 1);
}

}  // namespace hds
