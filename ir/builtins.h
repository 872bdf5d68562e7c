// builtins.h — the built-in functions (barriers, shuffles, atomics, math), read
// from builtins.def so that the checker, the IR and codegen share one list.
#pragma once

#include <string_view>
#include <vector>

namespace hds {

enum class BuiltinClass { Barrier, Shuffle, Atomic, Math, FloatMath, TensorCore };

enum class Builtin {
    DeviceFn,  // not a built-in: a call of a user `device fn`
#define BUILTIN(id, name, arity, cls, summary) id,
#include "ir/builtins.def"
#undef BUILTIN
};

struct BuiltinInfo {
    Builtin id;
    const char* name;
    int arity;
    BuiltinClass cls;
    const char* summary;
};

const BuiltinInfo* find_builtin(std::string_view name);
const BuiltinInfo& builtin_info(Builtin id);
const std::vector<BuiltinInfo>& all_builtins();

}  // namespace hds
