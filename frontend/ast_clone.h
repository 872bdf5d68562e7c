// ast_clone.h — deep copies of AST subtrees with substitutions, used to
// instantiate generic kernels and op definitions: element-type variables
// become concrete types, `*S` / `*i` spreads expand to lists, names can be
// replaced by expressions. Copies keep the source ranges of the originals, so
// errors in an instantiation point at the generic definition.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "frontend/ast.h"

namespace hds {

struct CloneMap {
    std::map<std::string, std::string> types;                 // type variable -> scalar type name
    std::map<std::string, std::vector<std::string>> spreads;  // spread name -> the names it expands to
    // Names replaced by an expression (op attributes, bound sizes): returns null to keep the name.
    std::function<ExprPtr(const NameExpr&)> name;
    // Any expression replaced (tried before `name`): returns null to clone it as usual.
    std::function<ExprPtr(const Expr&, const struct CloneMap&)> replace;
};

ExprPtr clone_expr(const Expr& e, const CloneMap& map);
// Clones a list, expanding spreads.
std::vector<ExprPtr> clone_list(const std::vector<ExprPtr>& list, const CloneMap& map);
TypeRef clone_type(const TypeRef& t, const CloneMap& map);
std::unique_ptr<BlockStmt> clone_block(const BlockStmt& b, const CloneMap& map);
// Replaces the integer parameters of a generic kernel (`STAGES: i32 = 3`) by
// `values[name]` or their default (as `cast<type>(value)`): sets `map.name`.
void bind_value_params(const KernelDecl& generic, std::map<std::string, const Expr*> values, CloneMap& map);

// A non-generic copy of a generic kernel under the name `name`.
std::unique_ptr<KernelDecl> clone_kernel(const KernelDecl& k, const std::string& name, const CloneMap& map);

}  // namespace hds
