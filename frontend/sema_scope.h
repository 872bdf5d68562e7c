// sema_scope.h — RAII scope handling and small helpers private to sema*.cpp.
#pragma once

#include "frontend/sema.h"

namespace hds {

// Opens a nested lexical scope for its lifetime.
class ScopeGuard {
  public:
    explicit ScopeGuard(Sema& s) : sema_(s) {
        sema_.scopes_.emplace_back(sema_.scope_);
        sema_.scope_ = &sema_.scopes_.back();
    }
    ~ScopeGuard() { sema_.scope_ = sema_.scope_->parent(); }
    ScopeGuard(const ScopeGuard&) = delete;
    ScopeGuard& operator=(const ScopeGuard&) = delete;

  private:
    Sema& sema_;
};

// Whether every path through `s` ends in a return (conservative).
bool ends_with_return(const Stmt& s);

}  // namespace hds
