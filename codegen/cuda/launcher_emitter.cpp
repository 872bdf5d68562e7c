// launcher_emitter.cpp — host launchers: argument validation, grid/block
// computation from symbolic sizes (in 64-bit), the launch, and cudaError_t.
#include <fmt/format.h>

#include <algorithm>

#include "codegen/cuda/code_writer.h"
#include "codegen/cuda/cuda_emitter.h"
#include "codegen/cuda/cuda_expr.h"
#include "codegen/cuda/cuda_names.h"
#include "codegen/cuda/hopper_emit.h"
#include "ir/ir_visitor.h"

namespace hds::codegen {

namespace {

std::vector<std::string> launcher_params(const ir::Kernel& k) {
    std::vector<std::string> params;
    for (const ir::KernelParam& p : k.params) {
        if (p.kind == ir::KernelParam::Kind::Scalar)
            params.push_back(cuda_type(p.var->type) + " " + cuda_ident(p.var->name));
        else
            params.push_back(fmt::format("{}{}* {}", p.written ? "" : "const ", cuda_type(p.buffer->elem),
                                         cuda_ident(p.buffer->name)));
    }
    for (const ir::Var& s : k.sizes) params.push_back("int " + cuda_ident(s->name));
    return params;
}

std::string three(const std::vector<ir::Expr>& dims, LauncherExprPrinter& p) {
    std::vector<std::string> out;
    for (const ir::Expr& d : dims) out.push_back(p.print(d));
    while (out.size() < 3) out.push_back("1");
    return fmt::format("{}", fmt::join(out, ", "));
}

}  // namespace

std::string emit_launcher_declaration(const ir::Kernel& k) {
    std::vector<std::string> grid, block;
    CudaExprPrinter plain;
    for (const ir::Expr& g : k.grid) grid.push_back(plain.print(g));
    for (const ir::Expr& b : k.block) block.push_back(plain.print(b));
    std::vector<std::string> params = launcher_params(k);
    params.push_back("cudaStream_t stream = 0");
    return fmt::format("// Launches kernel `{}`: grid({}), block({}).\n{}\n", k.name, fmt::join(grid, ", "),
                       fmt::join(block, ", "), wrap_list("cudaError_t launch_" + k.name + "(", params, ");"));
}

std::string emit_launcher_definition(const ir::Kernel& k) {
    LauncherExprPrinter p;
    std::vector<std::string> params = launcher_params(k);
    params.push_back("cudaStream_t stream");
    std::vector<std::string> checks_size, checks_ptr, checks_count, args;
    for (const ir::Var& s : k.sizes) checks_size.push_back(cuda_ident(s->name) + " <= 0");
    for (const ir::KernelParam& kp : k.params) {
        if (kp.kind == ir::KernelParam::Kind::Scalar) {
            args.push_back(cuda_ident(kp.var->name));
            continue;
        }
        args.push_back(cuda_ident(kp.buffer->name));
        checks_ptr.push_back(cuda_ident(kp.buffer->name) + " == nullptr");
        bool symbolic = false;
        std::vector<std::string> dims;
        for (const ir::Expr& d : kp.buffer->shape) {
            symbolic |= !ir::const_int(d).has_value();
            dims.push_back(p.print(d));
        }
        std::string count = fmt::format("{} > 2147483647LL", fmt::join(dims, " * "));
        bool seen = std::find(checks_count.begin(), checks_count.end(), count) != checks_count.end();
        if (symbolic && dims.size() > 1 && !seen) checks_count.push_back(count);
    }
    for (const ir::Var& s : k.sizes) args.push_back(cuda_ident(s->name));
    for (const TensorMap& t : tensor_maps(k)) args.push_back(cuda_ident(t.name));

    std::string out = wrap_list("cudaError_t launch_" + k.name + "(", params, ") {") + "\n";
    auto check = [&](const std::vector<std::string>& conds, const char* err, const char* why) {
        if (conds.empty()) return;
        std::string cond = wrap_list("    if (", conds, ")", " || ");
        out += fmt::format("    // {}\n{}\n        return {};\n", why, cond, err);
    };
    check(checks_size, "cudaErrorInvalidValue", "sizes must be positive");
    check(checks_ptr, "cudaErrorInvalidValue", "tensors must not be null");
    check(checks_count, "cudaErrorInvalidValue", "tensors are indexed with 32-bit arithmetic");
    std::vector<std::string> misaligned;
    for (const ir::Buffer& b : ir::vector_copied_globals(k.body))
        misaligned.push_back(fmt::format("(uintptr_t){} % 16 != 0", cuda_ident(b->name)));
    check(misaligned, "cudaErrorInvalidValue",
          "tensors read or written 16 bytes at a time must be 16-byte aligned (as cudaMalloc'd)");
    out += fmt::format("    const long long grid[3] = {{{}}};\n", three(k.grid, p));
    out += fmt::format("    const long long block[3] = {{{}}};\n", three(k.block, p));
    check({"grid[0] < 1", "grid[0] > 2147483647LL", "grid[1] < 1", "grid[1] > 65535", "grid[2] < 1", "grid[2] > 65535"},
          "cudaErrorInvalidConfiguration", "grid limits");
    if (k.cluster > 1)
        check({fmt::format("grid[0] % {} != 0", k.cluster)}, "cudaErrorInvalidConfiguration",
              fmt::format("whole clusters of {} blocks", k.cluster).c_str());
    bool constant_block = true;
    for (const ir::Expr& b : k.block) constant_block &= ir::const_int(b).has_value();
    if (!constant_block)
        check({"block[0] < 1", "block[1] < 1", "block[2] < 1", "block[0] * block[1] * block[2] > 1024"},
              "cudaErrorInvalidConfiguration", "block limits");
    std::vector<std::string> maps = tensor_map_setup(k, p);
    if (!maps.empty())
        out += "    // tensor maps of the TMA copies (16-byte aligned rows, else cudaErrorInvalidValue)\n";
    for (const std::string& line : maps) out += "    " + line + "\n";
    int64_t smem = dynamic_shared_bytes(k);
    if (smem > 0)
        out += fmt::format(
            "    // {} bytes of shared memory: over the 48 KiB default, so opt in (sm_80 and newer)\n"
            "    cudaError_t attr = cudaFuncSetAttribute({}, cudaFuncAttributeMaxDynamicSharedMemorySize, {});\n"
            "    if (attr != cudaSuccess) return attr;\n",
            smem, cuda_ident(k.name), smem);
    if (k.cluster_per_call) {
        out += "    cudaError_t launched = cudaSuccess;\n";
        for (const std::string& line : cluster_launch(k, p, "dim3(grid[0], grid[1], grid[2])",
                                                      "dim3(block[0], block[1], block[2])", smem, args, "launched"))
            out += "    " + line + "\n";
        out += "    if (launched != cudaSuccess) return launched;\n";
    } else {
        out += wrap_list("    " + cuda_ident(k.name) +
                             fmt::format("<<<dim3(grid[0], grid[1], grid[2]), dim3(block[0], block[1], block[2]), {}, "
                                         "stream>>>(",
                                         smem),
                         args, ");") +
               "\n";
    }
    out += "    return cudaGetLastError();\n}\n";
    return out;
}

}  // namespace hds::codegen
