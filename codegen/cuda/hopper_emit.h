// hopper_emit.h — the CUDA spelling of the sm_90 built-ins that need more than
// their printed arguments: tma_load_2d reads a tensor map (a kernel parameter
// the host builds before the launch), wgmma operands become shared-memory
// descriptors whose strides come from the operand buffers' shapes.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ir/expr_printer.h"
#include "ir/ir.h"

namespace hds::codegen {

// One tensor map: `tensor` (global, 2 to 5 dimensions) read in boxes of the last
// two dimensions of a shared buffer (of one slice of the tensor's leading ones).
struct TensorMap {
    std::string name;  // tmap_<tensor>_<rows>x<cols>
    ir::Buffer tensor;
    int64_t box_rows = 0, box_cols = 0;
};

// The tensor maps a kernel's tma_load_2d calls read, in order of first use.
std::vector<TensorMap> tensor_maps(const ir::Kernel& k);

// Whether the kernel uses a built-in of sm_90 (mbarrier, TMA, wgmma): its
// shared arrays are then 1024-byte aligned (the 128-byte swizzle's period).
bool uses_sm90(const ir::Kernel& k);

// The call of a TMA or wgmma built-in (`args` printed by `p`), or "" for others.
std::string hopper_call(const ir::Call* c, const std::vector<std::string>& args, ir::ExprPrinter& p);

// Host statements that build the kernel's tensor maps from the tensors in
// scope (named as the kernel's parameters) and return on failure. `strides`:
// those of tensors that are strided views (elements per index, per dimension),
// the others are row-major.
std::vector<std::string> tensor_map_setup(const ir::Kernel& k, ir::ExprPrinter& launch,
                                          const std::map<const ir::BufferNode*, std::vector<ir::Expr>>& strides = {});

// Host statements that launch a kernel whose cluster size is chosen per call
// (ir::Kernel::cluster_per_call) with cudaLaunchKernelEx: `grid` and `block`
// are dim3 expressions, `args` the kernel's arguments; they assign the launch's
// error to `err` (declared by the caller).
std::vector<std::string> cluster_launch(const ir::Kernel& k, ir::ExprPrinter& launch, const std::string& grid,
                                        const std::string& block, int64_t smem, const std::vector<std::string>& args,
                                        const std::string& err);

}  // namespace hds::codegen
