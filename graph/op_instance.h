// op_instance.h — instantiating an op for one call in a graph: binding its
// element types and shapes to the arguments (numpy broadcasting for
// elementwise ops), then turning each `compute` definition into a graph node.
//
// A compute definition is checked by the ordinary checker: it becomes a
// synthetic kernel whose scalar parameters are the compute's indices and whose
// stores hold the value (and reduction body) to extract, so errors point into
// the op's source with a note at the call.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "frontend/ast.h"
#include "frontend/diagnostics.h"
#include "frontend/sema.h"
#include "graph/checked_clones.h"
#include "graph/graph.h"
#include "graph/shapes.h"
#include "graph/tuning.h"

namespace hds::graph {

struct OpCall {
    const OpDecl* op = nullptr;
    std::vector<Node*> args;  // tensor arguments, in parameter order
    std::vector<SourceRange> arg_ranges;
    std::map<std::string, const Expr*> attrs;  // named arguments
    std::map<std::string, SourceRange> attr_ranges;
    SourceRange range;        // the call
    std::string result_name;  // for the result's buffer ("" = the op's name)
};

class OpInstantiator {
  public:
    OpInstantiator(const Module& module, Sema& sema, DiagnosticsEngine& diags, Graph& g, Target target)
        : module_(module), sema_(sema), diags_(diags), g_(g), target_(target) {}

    // Adds the op's nodes; returns the result node, or null after reporting errors.
    Node* instantiate(const OpCall& call);

    const Module& module() const { return module_; }
    Sema& sema() { return sema_; }
    DiagnosticsEngine& diags() { return diags_; }
    Graph& graph() { return g_; }
    int arch() const { return target_.arch; }  // 0 the CPU emulator, 80 sm_80, 90 sm_90a
    Tuning* tuning() const { return target_.tuning; }
    Decisions* decisions() const { return target_.decisions; }
    CheckedClones* clones() const { return target_.clones; }
    // Checks and lowers a kernel made for an instantiation; on errors adds
    // `note` at `call` and returns nullopt. Keeps the declaration alive: in
    // clones() under `key` where both are given and it checked.
    std::optional<ir::Kernel> check_and_lower(std::unique_ptr<KernelDecl> k, SourceRange call, const std::string& note,
                                              const std::string& key = "");

  private:
    const Module& module_;
    Sema& sema_;
    DiagnosticsEngine& diags_;
    Graph& g_;
    Target target_;
    std::vector<std::unique_ptr<KernelDecl>> synthetic_;  // kept alive: symbols point into them
};

// Element type in which an op computes values of type t (f16/bf16 widen to f32).
ScalarType opmath(ScalarType t);

}  // namespace hds::graph
