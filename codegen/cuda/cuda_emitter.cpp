// cuda_emitter.cpp — kernels and device functions as CUDA C++: one statement
// per line, 4-space indentation, each line pointing back to its .hds line.
#include "codegen/cuda/cuda_emitter.h"

#include <fmt/format.h>

#include "codegen/cuda/code_writer.h"
#include "codegen/cuda/cuda_expr.h"
#include "codegen/cuda/cuda_names.h"
#include "codegen/cuda/hopper_emit.h"
#include "ir/ir_visitor.h"

namespace hds::codegen {

namespace {

class BodyEmitter {
  public:
    // `dynamic`: shared arrays are carved out of the dynamic shared memory.
    // `sm90`: a kernel of TMA / wgmma, whose shared tiles are 1024-byte aligned.
    BodyEmitter(CodeWriter& w, const ir::Module& m, const CudaOptions& opts, bool dynamic = false, bool sm90 = false)
        : w_(w), m_(m), opts_(opts), dynamic_(dynamic), sm90_(sm90) {}

    void body(const ir::Stmt& s) {
        if (auto* b = ir::as<ir::Block>(s)) {
            for (const ir::Stmt& x : b->stmts) stmt(x);
        } else {
            stmt(s);
        }
    }

  private:
    // Trailing "// file.hds:12" the first time a line of the source shows up.
    std::string origin(const ir::Stmt& s) {
        if (!s->loc.valid() || opts_.line_directives) return "";
        if (s->loc.file == last_.file && s->loc.line == last_.line) return "";
        last_ = s->loc;
        return fmt::format("  // {}:{}", m_.file_names.at(s->loc.file - 1), s->loc.line);
    }

    void line_directive(const ir::Stmt& s) {
        if (!opts_.line_directives || !s->loc.valid()) return;
        if (s->loc.file == last_.file && s->loc.line == last_.line) return;
        last_ = s->loc;
        w_.raw(fmt::format("#line {} \"{}\"", s->loc.line, m_.file_names.at(s->loc.file - 1)));
    }

    std::string update(std::optional<ir::BinOp> op) { return op ? std::string(ir::op_symbol(*op)) + "=" : "="; }

    void open_block(const std::string& head, const ir::Stmt& s) {
        w_.line(head + (head.empty() ? "{" : " {") + origin(s));
        w_.indent();
    }
    void close_block() {
        w_.dedent();
        w_.line("}");
    }

    void if_chain(const ir::If* i, const ir::Stmt& s, const std::string& prefix) {
        if (prefix.empty()) line_directive(s);
        std::string where = origin(s);
        if (!i->note.empty())  // "// a warp per row (softmax.hds:12)"
            where = "  // " + i->note + (where.empty() ? "" : " (" + where.substr(5) + ")");
        w_.line(prefix + "if (" + e_.print(i->cond) + ") {" + where);
        w_.indent();
        body(i->then_s);
        w_.dedent();
        if (!i->else_s) {
            w_.line("}");
            return;
        }
        if (auto* elif = ir::as<ir::If>(i->else_s)) return if_chain(elif, i->else_s, "} else ");
        w_.line("} else {");
        w_.indent();
        body(i->else_s);
        close_block();
    }

    void stmt(const ir::Stmt& s) {
        if (s->kind != ir::StmtKind::If) line_directive(s);
        switch (s->kind) {
            case ir::StmtKind::Decl: {
                auto* d = ir::as<ir::Decl>(s);
                w_.line(fmt::format("{}{} {} = {};{}", d->is_const ? "const " : "", cuda_type(d->var->type),
                                    cuda_ident(d->var->name), e_.print(d->init), origin(s)));
                break;
            }
            case ir::StmtKind::Assign: {
                auto* a = ir::as<ir::Assign>(s);
                w_.line(
                    fmt::format("{} {} {};{}", cuda_ident(a->var->name), update(a->op), e_.print(a->value), origin(s)));
                break;
            }
            case ir::StmtKind::Store: {
                auto* st = ir::as<ir::Store>(s);
                std::vector<std::string> idx;
                for (const ir::Expr& i : st->indices) idx.push_back(e_.print(i));
                w_.line(fmt::format("{} {} {};{}", cuda_access(st->buffer, idx), update(st->op), e_.print(st->value),
                                    origin(s)));
                break;
            }
            case ir::StmtKind::Alloc: {
                auto* a = ir::as<ir::Alloc>(s);
                std::string dims;
                for (const ir::Expr& d : a->buffer->shape) dims += "[" + e_.print(d) + "]";
                if (dynamic_ && a->buffer->scope == ir::Scope::Shared) {
                    int64_t start = 0;
                    shared_offset_ = ir::shared_array_end(shared_offset_, a->buffer, sm90_, &start);
                    // A reference to an array type keeps the t[i][j] syntax.
                    w_.line(fmt::format("auto& {} = *reinterpret_cast<{} (*){}>(hds_dynamic_smem + {});{}",
                                        cuda_ident(a->buffer->name), cuda_type(a->buffer->elem), dims, start,
                                        origin(s)));
                    break;
                }
                // 16-byte alignment: vector copies, ldmatrix and cp.async need it.
                std::string space =
                    a->buffer->scope == ir::Scope::Shared
                        ? fmt::format("__shared__ alignas({}) ", ir::shared_array_align(a->buffer->elem, sm90_))
                        : std::string("alignas(16) ");
                w_.line(fmt::format("{}{} {}{};{}", space, cuda_type(a->buffer->elem), cuda_ident(a->buffer->name),
                                    dims, origin(s)));
                break;
            }
            case ir::StmtKind::For: {
                auto* f = ir::as<ir::For>(s);
                std::string v = cuda_ident(f->var->name);
                auto step = ir::const_int(f->step);
                std::string inc = step && *step == 1 ? "++" + v : v + " += " + e_.print(f->step);
                if (f->unroll) w_.raw("#pragma unroll");
                open_block(fmt::format("for ({} {} = {}; {} < {}; {})", cuda_type(f->var->type), v, e_.print(f->lo), v,
                                       e_.print(f->hi), inc),
                           s);
                body(f->body);
                close_block();
                break;
            }
            case ir::StmtKind::If:
                if_chain(ir::as<ir::If>(s), s, "");
                break;
            case ir::StmtKind::Block:
                open_block("", s);
                body(s);
                close_block();
                break;
            case ir::StmtKind::Evaluate:
                w_.line(e_.print(ir::as<ir::Evaluate>(s)->value) + ";" + origin(s));
                break;
            case ir::StmtKind::Return: {
                auto* r = ir::as<ir::Return>(s);
                w_.line((r->value ? "return " + e_.print(r->value) + ";" : std::string("return;")) + origin(s));
                break;
            }
            case ir::StmtKind::Break:
                w_.line("break;" + origin(s));
                break;
            case ir::StmtKind::Continue:
                w_.line("continue;" + origin(s));
                break;
            case ir::StmtKind::MapFor:
                w_.line("#error \"task mapping was not lowered\"");
                break;
        }
    }

    CodeWriter& w_;
    const ir::Module& m_;
    const CudaOptions& opts_;
    CudaExprPrinter e_;
    SourceLoc last_;
    bool dynamic_;
    bool sm90_;
    int64_t shared_offset_ = 0;
};

std::string where(const ir::Module& m, SourceLoc loc) {
    return loc.valid() ? fmt::format("{}:{}", m.file_names.at(loc.file - 1), loc.line) : "";
}

void emit_function(CodeWriter& w, const ir::Module& m, const ir::DeviceFunction& f, const CudaOptions& opts) {
    std::vector<std::string> params;
    for (const ir::Var& p : f.params) params.push_back(cuda_type(p->type) + " " + cuda_ident(p->name));
    w.line(fmt::format("// device fn {} ({})", f.name, where(m, f.loc)));
    w.line(wrap_list(
        fmt::format("static __device__ __forceinline__ {} {}(", f.ret ? cuda_type(*f.ret) : "void", cuda_ident(f.name)),
        params, ") {"));
    w.indent();
    BodyEmitter(w, m, opts).body(f.body);
    w.dedent();
    w.line("}");
    w.blank();
}

void emit_kernel(CodeWriter& w, const ir::Module& m, const ir::Kernel& k, const CudaOptions& opts) {
    std::vector<std::string> params;
    for (const ir::KernelParam& p : k.params) {
        if (p.kind == ir::KernelParam::Kind::Scalar) {
            params.push_back(cuda_type(p.var->type) + " " + cuda_ident(p.var->name));
        } else {
            params.push_back(fmt::format("{}{}* __restrict__ {}", p.written ? "" : "const ", cuda_type(p.buffer->elem),
                                         cuda_ident(p.buffer->name)));
        }
    }
    for (const ir::Var& s : k.sizes) params.push_back("int " + cuda_ident(s->name));
    for (const TensorMap& t : tensor_maps(k))
        params.push_back("const __grid_constant__ CUtensorMap " + cuda_ident(t.name));
    int64_t threads = ir::constant_threads(k);
    // One block per multiprocessor fixes the register budget at entry, which
    // setmaxnreg needs (the sm_90 kernels are sized for one block per SM), unless the
    // kernel asks for more (`min_blocks_per_sm(n)`: sema refuses it beside setmaxnreg).
    // n over sizes counts only where they are constants (and within ir::kMaxMinBlocks, kMaxThreadsPerSM).
    int64_t min_blocks = uses_sm90(k) ? 1 : 0;
    if (const auto* n = k.min_blocks ? ir::as<ir::IntImm>(k.min_blocks) : nullptr;
        n && n->value >= 1 && n->value <= ir::kMaxMinBlocks && n->value * threads <= ir::kMaxThreadsPerSM)
        min_blocks = n->value;
    std::string bounds = threads <= 0     ? ""
                         : min_blocks > 0 ? fmt::format("__launch_bounds__({}, {}) ", threads, min_blocks)
                                          : fmt::format("__launch_bounds__({}) ", threads);
    // Beside sm_80 code, an sm_90a kernel is compiled for sm_80 too: there it has no
    // cluster and its body is left out (the dispatch never launches it on such a GPU).
    bool beside_sm80 = opts.arch == kSm80AndSm90a && uses_sm90(k);
    if (k.cluster > 1)
        bounds += fmt::format(beside_sm80 ? "HDS_CLUSTER_DIMS({}) " : "__cluster_dims__({}, 1, 1) ", k.cluster);
    w.line(fmt::format("// kernel {} ({})", k.name, where(m, k.loc)));
    w.line(wrap_list(fmt::format("__global__ void {}{}(", bounds, cuda_ident(k.name)), params, ") {"));
    if (beside_sm80) w.raw("#if HDS_SM90A_CODE  // sm_90a code: only the compute_90a build has it");
    w.indent();
    bool dynamic = dynamic_shared_bytes(k) > 0;
    // One declaration for every kernel of the file (nvcc rejects two alignments of
    // the one extern array): 1024, what TMA's swizzled tiles need; the arrays are
    // then carved at ir::shared_array_align.
    if (dynamic) w.line("extern __shared__ __align__(1024) unsigned char hds_dynamic_smem[];  // over 48 KiB: dynamic");
    if (opts.dependent_launch && k.wait_previous)
        w.line("hds::wait_for_previous_kernels();  // launched while the kernel before it runs: its writes first");
    if (opts.dependent_launch && k.trigger_next)
        w.line("hds::allow_next_kernel();  // the next kernel's blocks may be placed now, to wait for this one");
    BodyEmitter(w, m, opts, dynamic, uses_sm90(k)).body(k.body);
    w.dedent();
    if (beside_sm80) {
        w.raw("#else");
        w.line("    __trap();  // never launched: the dispatch runs it where sm90a_code() holds");
        w.raw("#endif");
    }
    w.line("}");
    w.blank();
}

}  // namespace

int64_t dynamic_shared_bytes(const ir::Kernel& k) {
    int64_t total = ir::shared_bytes(k);
    return total > 48 * 1024 ? total : 0;
}

std::string emit_device_code(const ir::Module& m, const CudaOptions& opts) {
    CodeWriter cu;
    for (const ir::DeviceFunction& f : m.functions) emit_function(cu, m, f, opts);
    for (const ir::Kernel& k : m.kernels) emit_kernel(cu, m, k, opts);
    return cu.str();
}

// The sm_80 code also goes in as compute_80 PTX, which the driver compiles for GPUs newer than
// the SASS it has (Blackwell); sm_90a code is Hopper's alone.
std::string nvcc_gencode(const std::string& arch) {
    if (arch == "sm_90a") return "-gencode=arch=compute_90a,code=sm_90a";
    if (arch == kSm80AndSm90a)
        return "-gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_80,code=compute_80 "
               "-gencode=arch=compute_90a,code=sm_90a";
    return "-gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_80,code=compute_80 "
           "-gencode=arch=compute_90,code=sm_90";
}

namespace {
// "// Target sm_90a (inferred: ...)." and what it runs on.
std::string target_banner(const CudaOptions& opts) {
    std::string reason = opts.target_reason.empty() ? "" : " (" + opts.target_reason + ")";
    if (opts.arch == "sm_90a")
        return "// Target sm_90a" + reason + ": TMA, wgmma; runs on H100/H200-class GPUs only.\n";
    if (opts.arch == kSm80AndSm90a)
        return "// Targets sm_80 and sm_90a" + reason +
               ": runs on sm_80 and newer GPUs, the sm_90a variants (TMA, wgmma, clusters) where the device runs the "
               "compute_90a build (H100/H200-class GPUs).\n";
    return "// Target sm_80" + reason + ": runs on sm_80 and newer GPUs.\n";
}
}  // namespace

std::string cu_preamble(const std::string& source, const CudaOptions& opts) {
    std::string guard;
    if (opts.arch == "sm_90a")
        guard =
            "#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)\n"
            "#error \"generated for sm_90a: compile with -gencode=arch=compute_90a,code=sm_90a\"\n"
            "#endif\n";
    std::string cu_name = opts.cu_name.empty() ? "FILE.cu" : opts.cu_name;
    return fmt::format(
        "// Generated by hdsc {} from {}. Do not edit: change the .hds file instead.\n{}"
        "// Build: nvcc -std=c++17 {} -I $HDS_RUNTIME -c {}\n"
        "//   ($HDS_RUNTIME: the folder that holds hds/runtime.h: runtime/ of the hds tree, include/ of an install)\n"
        "#include \"{}\"\n#include \"hds/runtime.h\"\n{}\n",
        opts.version, source, target_banner(opts), nvcc_gencode(opts.arch), cu_name, opts.header_include, guard);
}

std::string header_preamble(const std::string& source, const CudaOptions& opts) {
    return fmt::format(
        "// Generated by hdsc {} from {}. Do not edit: change the .hds file instead.\n{}#pragma once\n\n"
        "#include <cuda_bf16.h>\n#include <cuda_fp16.h>\n#include <cuda_runtime.h>\n#include <stddef.h>\n\n",
        opts.version, source, target_banner(opts));
}

CudaOutput emit_cuda(const ir::Module& m, const CudaOptions& opts) {
    std::string source = m.file_names.empty() ? "?" : m.file_names[0];
    std::string cu = cu_preamble(source, opts) + emit_device_code(m, opts);
    for (const ir::Kernel& k : m.kernels) cu += emit_launcher_definition(k) + "\n";

    CodeWriter h;
    h.line("// Host launchers: each checks its arguments (sizes > 0, pointers non-null,");
    h.line("// 32-bit indexable tensors, grid limits), launches on `stream` and returns");
    h.line("// cudaErrorInvalidValue / cudaErrorInvalidConfiguration or cudaGetLastError().");
    h.line("extern \"C\" {");
    h.blank();
    for (const ir::Kernel& k : m.kernels) h.raw(emit_launcher_declaration(k));
    h.line("}  // extern \"C\"");
    return {cu, header_preamble(source, opts) + h.str()};
}

}  // namespace hds::codegen
