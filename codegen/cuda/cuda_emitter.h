// cuda_emitter.h — emits a module as a readable .cu file and a header with
// host launchers (extern "C", returning cudaError_t).
#pragma once

#include <string>

#include "ir/ir.h"

namespace hds::codegen {

// The target of a graph's .cu in a file that declares none, where its ops have other
// schedules on sm_90a (docs/cli.md, "The target"): sm_80 code for every GPU and the sm_90a
// variants' kernels, which the dispatch runs where the device runs the compute_90a build.
inline constexpr const char* kSm80AndSm90a = "sm_80+sm_90a";

struct CudaOptions {
    bool line_directives = false;  // `#line N "file.hds"` instead of trailing comments
    std::string header_include;    // how the .cu includes the header ("vector_add.h")
    std::string version;           // hdsc version for the banner
    std::string arch = "sm_80";    // sm_80 | sm_90a (the .cu then refuses other targets) | kSm80AndSm90a
    std::string target_reason;     // why that target ("the default", "inferred: ..."), for the banner
    std::string cu_name;           // the .cu file's name, for the printed nvcc line
    // Programmatic dependent launch where a graph's kernels ask for it
    // (ir::Kernel::wait_previous, trigger_next; sm_90a graphs unless
    // --no-dependent-launch): hds::allow_next_kernel() and
    // hds::wait_for_previous_kernels() in the kernels, hds::launch_after_previous
    // in the run function (runtime/hds/runtime.h).
    bool dependent_launch = false;
};

struct CudaOutput {
    std::string cu;
    std::string header;
};

CudaOutput emit_cuda(const ir::Module& m, const CudaOptions& opts);

// The first lines of every emitted .cu (banner, includes) and header (banner,
// include guard, CUDA headers); `source` is the .hds file's display name.
std::string cu_preamble(const std::string& source, const CudaOptions& opts);
std::string header_preamble(const std::string& source, const CudaOptions& opts);
// The nvcc -gencode flags code for `arch` needs ("sm_80": sm_80 and sm_90 SASS; both
// targets: sm_80 and sm_90a SASS).
std::string nvcc_gencode(const std::string& arch);

// Bytes of dynamic shared memory a kernel launches with: its shared arrays when
// they exceed the 48 KiB of static shared memory (each 16-byte aligned), else 0.
int64_t dynamic_shared_bytes(const ir::Kernel& k);

// The device functions and kernels of `m`, without launchers.
std::string emit_device_code(const ir::Module& m, const CudaOptions& opts);

// Parts used by emit_cuda, exposed for unit tests.
std::string emit_launcher_declaration(const ir::Kernel& k);
std::string emit_launcher_definition(const ir::Kernel& k);

}  // namespace hds::codegen
