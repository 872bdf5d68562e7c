// lower_to_ir.h — turns a checked AST into the typed IR: implicit conversions
// become explicit casts, constants become immediates, tensors become buffers,
// task-mapping loops become ir::MapFor (lowered later by a pass).
#pragma once

#include "frontend/ast.h"
#include "ir/ir.h"

namespace hds {

// Lowers kernels declared in the main file and every device function.
// Precondition: sema reported no errors for `ast`.
ir::Module lower_to_ir(const Module& ast, const SourceManager& sources);

}  // namespace hds

namespace hds {
// Lowers one checked kernel (an instantiation made by the graph layer).
ir::Kernel lower_kernel(const KernelDecl& k);
}  // namespace hds
