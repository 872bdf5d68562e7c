// hopper_emit.cpp — tensor maps and wgmma descriptors (see hopper_emit.h).
#include "codegen/cuda/hopper_emit.h"

#include <fmt/format.h>

#include "codegen/cuda/code_writer.h"
#include "codegen/cuda/cuda_names.h"
#include "ir/builtins.h"
#include "ir/internal_error.h"
#include "ir/ir_visitor.h"

namespace hds::codegen {

namespace {

const ir::Load& ref(const ir::Call* c, size_t i) {
    const ir::Load* l = ir::as<ir::Load>(c->args.at(i));
    HDS_CHECK(l != nullptr, "operand is not an element reference");
    return *l;
}

// The constant extent of dimension `d` counted from the end (1: the last).
int64_t trailing(const ir::Buffer& b, size_t d) {
    HDS_CHECK(b->shape.size() >= d, "buffer has too few dimensions");
    auto c = ir::const_int(b->shape[b->shape.size() - d]);
    HDS_CHECK(c.has_value(), "shared tile extent is not constant");
    return *c;
}

TensorMap map_of(const ir::Call* c) {
    const ir::Buffer& box = ref(c, 0).buffer;
    const ir::Buffer& tensor = ref(c, 1).buffer;
    TensorMap m{"", tensor, ir::tma_box_rows(c, trailing(box, 2)), trailing(box, 1)};
    m.name = fmt::format("tmap_{}_{}x{}", tensor->name, m.box_rows, m.box_cols);
    return m;
}

}  // namespace

std::vector<TensorMap> tensor_maps(const ir::Kernel& k) {
    struct Finder : ir::IRVisitor {
        std::vector<TensorMap> maps;
        void visit(const ir::Call* c) override {
            ir::IRVisitor::visit(c);
            if (!is_tma_load(c->builtin)) return;
            TensorMap m = map_of(c);
            for (const TensorMap& seen : maps)
                if (seen.name == m.name) return;
            maps.push_back(m);
        }
    } f;
    f.visit_stmt(k.body);
    return f.maps;
}

bool uses_sm90(const ir::Kernel& k) {
    return ir::required_arch(k) >= 90;
}

std::string hopper_call(const ir::Call* c, const std::vector<std::string>& args, ir::ExprPrinter& p) {
    if (WgmmaForm form = wgmma_form(c->builtin); form != WgmmaForm::None) {
        // A: K-major rows of 128 bytes, 8-row groups 1024 bytes apart (or registers). B:
        // N-major [.., N / 64, K, 64] tiles, 64-column tiles K * 128 bytes apart; or, given
        // transposed, K-major [.., N, 64] rows as A.
        const ir::Buffer& a = ref(c, 1).buffer;
        const ir::Buffer& b = ref(c, 2).buffer;
        int64_t b_tile = wgmma_b_leading_bytes(form, trailing(b, 2), trailing(b, 1), byte_size(b->elem));
        // A given transposed (M-major) is laid out as N-major B: one 64-column tile, so its
        // leading bytes are those of B's.
        std::string a_operand = form == WgmmaForm::ARegisters ? "&" + args[1]
                                : form == WgmmaForm::BothTransposed
                                    ? fmt::format("hds::wgmma_desc(&{}, {}, 1024)", args[1],
                                                  wgmma_b_leading_bytes(WgmmaForm::Shared, trailing(a, 2),
                                                                        trailing(a, 1), byte_size(a->elem)))
                                    : fmt::format("hds::wgmma_desc(&{}, 16, 1024)", args[1]);
        const char* suffix = form == WgmmaForm::BTransposed      ? "_bt"
                             : form == WgmmaForm::ARegisters     ? "_ra"
                             : form == WgmmaForm::BothTransposed ? "_at"
                                                                 : "";
        return fmt::format("hds::wgmma_m64n{}k16{}<{}>(&{}, {}, hds::wgmma_desc(&{}, {}, 1024))", wgmma_n(c->builtin),
                           suffix, cuda_type(a->elem), args[0], a_operand, args[2], b_tile);
    }
    switch (c->builtin) {
        case Builtin::MbarrierInit:
            return fmt::format("hds::mbarrier_init(&{}, {})", args[0], args[1]);
        case Builtin::MbarrierArrive:
            return fmt::format("hds::mbarrier_arrive(&{})", args[0]);
        case Builtin::MbarrierExpectTx:
            return fmt::format("hds::mbarrier_arrive_expect_tx(&{}, {})", args[0], args[1]);
        case Builtin::MbarrierWait:
            return fmt::format("hds::mbarrier_wait(&{}, {})", args[0], args[1]);
        case Builtin::FenceBarrierInit:
            return "hds::fence_barrier_init()";
        case Builtin::FenceProxyAsync:
            return "hds::fence_proxy_async()";
        case Builtin::TmaLoad2d:
        case Builtin::TmaLoad2dRows:
        case Builtin::TmaLoad2dMulticast: {
            // The indices of the tensor's slice (any before the last two), its row, its column.
            const ir::Load& src = ref(c, 1);
            bool multicast = c->builtin == Builtin::TmaLoad2dMulticast;
            std::string at;
            for (const ir::Expr& i : src.indices) at += ", " + p.print(i);
            return fmt::format("hds::tma_load_{}d{}(&{}, &{}{}, &{}{})", src.indices.size(),
                               multicast ? "_multicast" : "", args[0], cuda_ident(map_of(c).name), at, args[2],
                               multicast ? ", " + args[3] : "");
        }
        case Builtin::MbarrierArriveCluster:
            return fmt::format("hds::mbarrier_arrive_cluster(&{}, {})", args[0], args[1]);
        case Builtin::ClusterSync:
            return "hds::cluster_sync()";
        case Builtin::ClusterSyncRelaxed:
            return "hds::cluster_sync_relaxed()";
        case Builtin::ClusterLoad:
            return fmt::format("hds::cluster_load(&{}, {})", args[0], args[1]);
        case Builtin::WgmmaFence:
            return "hds::wgmma_fence()";
        case Builtin::WgmmaCommit:
            return "hds::wgmma_commit()";
        case Builtin::WgmmaWait:
            return fmt::format("hds::wgmma_wait<{}>()", args[0]);
        case Builtin::SetMaxNRegInc:
            return fmt::format("hds::setmaxnreg_inc<{}>()", args[0]);
        case Builtin::SetMaxNRegDec:
            return fmt::format("hds::setmaxnreg_dec<{}>()", args[0]);
        default:
            return "";
    }
}

std::vector<std::string> tensor_map_setup(const ir::Kernel& k, ir::ExprPrinter& launch,
                                          const std::map<const ir::BufferNode*, std::vector<ir::Expr>>& strides) {
    std::vector<std::string> out;
    for (const TensorMap& m : tensor_maps(k)) {
        std::string name = cuda_ident(m.name);
        out.push_back(
            fmt::format("CUtensorMap {};  // {} in boxes of {} x {}", name, m.tensor->name, m.box_rows, m.box_cols));
        auto list = [&](const std::vector<ir::Expr>& exprs) {
            std::string text;
            for (const ir::Expr& e : exprs) text += (text.empty() ? "" : ", ") + launch.print(e);
            return text;
        };
        std::string extents = list(m.tensor->shape);
        if (auto s = strides.find(m.tensor.get()); s != strides.end()) {
            std::string steps = list(s->second);
            out.push_back(
                fmt::format("if (cudaError_t e = hds::make_tensor_map_strided(&{}, {}, {{{}}}, {{{}}}, {}, "
                            "{}); e != cudaSuccess) return e;",
                            name, cuda_ident(m.tensor->name), extents, steps, m.box_rows, m.box_cols));
        } else if (m.tensor->shape.size() == 2)
            out.push_back(fmt::format(
                "if (cudaError_t e = hds::make_tensor_map_2d(&{}, {}, {}, {}, {}); e != cudaSuccess) return e;", name,
                cuda_ident(m.tensor->name), extents, m.box_rows, m.box_cols));
        else  // boxes of one slice: the extents, outermost first
            out.push_back(fmt::format(
                "if (cudaError_t e = hds::make_tensor_map(&{}, {}, {{{}}}, {}, {}); e != cudaSuccess) return e;", name,
                cuda_ident(m.tensor->name), extents, m.box_rows, m.box_cols));
    }
    return out;
}

std::vector<std::string> cluster_launch(const ir::Kernel& k, ir::ExprPrinter& launch, const std::string& grid,
                                        const std::string& block, int64_t smem, const std::vector<std::string>& args,
                                        const std::string& err) {
    std::vector<std::string> out = {
        "{  // in thread block clusters of the size chosen per call below (sm_90; 1: none)",
        fmt::format("    {} = cudaFuncSetAttribute({}, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);", err,
                    cuda_ident(k.name)),
        fmt::format("    if ({} != cudaSuccess) return {};  // clusters of more than 8 blocks are opted into", err,
                    err),
        "    cudaLaunchAttribute cluster;",
        "    cluster.id = cudaLaunchAttributeClusterDimension;",
        fmt::format("    cluster.val.clusterDim.x = (unsigned)({});", launch.print(k.cluster_per_call)),
        "    cluster.val.clusterDim.y = 1;",
        "    cluster.val.clusterDim.z = 1;",
        "    cudaLaunchConfig_t config = {};",
        fmt::format("    config.gridDim = {};", grid),
        fmt::format("    config.blockDim = {};", block),
        fmt::format("    config.dynamicSmemBytes = {};", smem),
        "    config.stream = stream;",
        "    config.attrs = &cluster;",
        "    config.numAttrs = cluster.val.clusterDim.x > 1 ? 1 : 0;",
        "    unsigned blocks = cluster.val.clusterDim.x;  // 1 to 16 blocks, dividing the grid",
        "    if (blocks == 0 || blocks > 16 || config.gridDim.x % blocks != 0)",
        fmt::format("        {} = cudaErrorInvalidConfiguration;", err),
        "    else",
    };
    std::vector<std::string> call = {"&config", cuda_ident(k.name)};
    call.insert(call.end(), args.begin(), args.end());
    std::string launched = wrap_list(fmt::format("        {} = cudaLaunchKernelEx(", err), call, ");");
    for (size_t at = 0, end; at <= launched.size(); at = end + 1) {
        end = std::min(launched.find('\n', at), launched.size());
        out.push_back(launched.substr(at, end - at));
    }
    out.push_back("}");
    return out;
}

}  // namespace hds::codegen
