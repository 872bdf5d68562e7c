// symbol.h — what a name refers to after resolution, and lexical scopes.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontend/sema_type.h"
#include "frontend/source_manager.h"

namespace hds {

struct DeviceFnDecl;

struct Symbol {
    enum class Kind { Const, Size, ScalarParam, Tensor, Local, Mapping, LoopVar, DeviceFn, Kernel };
    Kind kind = Kind::Local;
    std::string name;
    SourceRange decl_range;
    SemaType type;  // scalar type of values; Tensor / Mapping kinds for those
    bool is_mutable = false;
    std::optional<ConstValue> value;  // Const
    TensorInfo tensor;                // Tensor (parameters and local arrays)
    bool is_param = false;            // Tensor: a kernel parameter
    bool written = false;             // Tensor: stored to somewhere
    bool used = false;                // named anywhere after its declaration (-Wunused-*)
    // DeviceFn
    std::vector<ScalarType> param_types;
    std::optional<ScalarType> ret;
};

class Scope {
  public:
    explicit Scope(Scope* parent) : parent_(parent) {}
    Symbol* lookup(const std::string& name) const;
    Symbol* lookup_local(const std::string& name) const;
    void add(Symbol* s) { names_[s->name] = s; }
    Scope* parent() const { return parent_; }

  private:
    Scope* parent_;
    std::unordered_map<std::string, Symbol*> names_;
};

}  // namespace hds
