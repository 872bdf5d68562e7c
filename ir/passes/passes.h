// passes.h — the IR -> IR passes, one per file in this directory. The order in
// which the compiler runs them is in ir/lower.cpp.
#pragma once

#include <set>
#include <string>

#include "ir/ir.h"

namespace hds::ir {

// lower_task_mappings.cpp: MapFor -> For loops + index arithmetic.
Stmt lower_task_mappings(const Stmt& body);

// simplify.cpp: folds integer/bool constants, applies x+0, x*1, x*0, x/1,
// reassociates constant chains, prunes if/select/for on constant conditions,
// replaces a loop of one iteration (without a break of its own) by its body.
Expr simplify(const Expr& e);
Stmt simplify(const Stmt& body);

// narrow_half_arith.cpp: cast<f16>(cast<f32>(a) op cast<f32>(b)) for f16 a, b and
// op + or - becomes a op b in f16 (the same bits: one correctly rounded f16 op).
Stmt narrow_half_arith(const Stmt& body);

// simplify_ranges.cpp: x / c and x % c for a positive constant c, using the
// ranges of thread indices (`block`: the kernel's constant block dimensions,
// 0 where symbolic; empty for device functions), loop variables and lets.
Stmt simplify_ranges(const Stmt& body, const std::vector<int64_t>& block);

// flatten_indices.cpp: multi-dimensional accesses of global buffers become one
// row-major linear index (shared/register arrays stay multi-dimensional and
// are emitted as C arrays).
Stmt flatten_indices(const Stmt& body);

// remove_dead_decls.cpp: drops `let` declarations whose variable is never read
// and whose initializer has no side effects.
Stmt remove_dead_decls(const Stmt& body);

// flatten_blocks.cpp: splices nested blocks into their parent where no
// declaration clashes.
Stmt flatten_blocks(const Stmt& body);

// rename_locals.cpp: local variables and arrays named like one of `taken` (the
// kernel's parameters) or like a variable of an enclosing scope get fresh
// names, so that none hides another.
Stmt rename_locals(const Stmt& body, const std::set<std::string>& taken);

// prune_functions.cpp: removes device functions that no kernel reaches.
void prune_functions(Module& m);

}  // namespace hds::ir
