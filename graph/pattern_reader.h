// pattern_reader.h — reading a graph body's expressions for op patterns written as
// separate ops (attention_pattern.h, swiglu_pattern.h): which lets are used once (a pattern
// may read through those: their values are then part of it), calls by name and arity,
// literals, and whether two expressions compute the same thing.
#pragma once

#include <functional>
#include <initializer_list>
#include <map>
#include <string>

#include "frontend/ast.h"

namespace hds::graph {

class PatternReader {
  public:
    explicit PatternReader(const BlockStmt& body);

    // Every let value and the returned expression, in order.
    void for_each_root(const BlockStmt& body, const std::function<void(const Expr&)>& f) const;
    static void for_each_child(const Expr& e, const std::function<void(const Expr&)>& f);

    // e itself, or the value of the let it names when nothing else uses that let (recorded
    // in `lets`, name to value, and looked through again).
    const Expr& look_through(const Expr& e, std::map<std::string, const Expr*>* lets) const;

    // A call of `name` (one of `names`) with `count` positional arguments and no named ones
    // but those in `named`.
    static const CallExpr* call(const Expr& e, std::initializer_list<const char*> names, size_t count,
                                std::initializer_list<const char*> named = {});
    static bool literal(const Expr& e, double* v);

    // a and b compute the same value: the same names (or lets used once whose values do),
    // literals, operators and calls with the same arguments. The lets read through are
    // recorded in `lets`.
    bool same(const Expr& a, const Expr& b, std::map<std::string, const Expr*>* lets) const;

  private:
    void count_uses(const Expr& e);

    std::map<std::string, const Expr*> lets_;
    std::map<std::string, int> uses_;
};

}  // namespace hds::graph
