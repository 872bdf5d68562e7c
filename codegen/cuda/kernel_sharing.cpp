// kernel_sharing.cpp — each distinct kernel of a graph's variants once (see kernel_sharing.h).
#include "codegen/cuda/kernel_sharing.h"

#include <algorithm>
#include <map>

#include "graph/variants.h"

namespace hds::codegen {

namespace {

// The CUDA of `k` under a placeholder name: equal texts, the same kernel.
std::string body_of(const ir::Module& m, ir::Kernel k, const CudaOptions& opts) {
    ir::Module one;
    one.file_names = m.file_names;
    one.source_path = m.source_path;
    k.name = "hds_kernel";
    one.kernels.push_back(std::move(k));
    return emit_device_code(one, opts);
}

}  // namespace

SharedKernels share_kernels(const std::string& api, const std::vector<GraphVariant>& variants,
                            const CudaOptions& opts) {
    SharedKernels out;
    out.device = variants.front().program->module;
    out.device.kernels.clear();
    struct Version {
        std::string text, first_name;
        int users = 0;  // variants that launch it
    };
    // By what a kernel's name says after its variant's ("_k1_rms_norm"; the whole name where it
    // does not start with the variant's): the distinct kernels of that name.
    std::map<std::string, std::vector<Version>> versions;
    struct Seen {
        std::string key;
        bool prefixed;
        size_t version;
    };
    std::vector<std::vector<Seen>> seen(variants.size());  // per kernel of each variant
    // A kernel that sm_90a variants share with sm_80 ones takes an sm_80 variant's name (it
    // runs on every GPU): those first.
    std::vector<size_t> order;
    for (int sm90a = 0; sm90a < 2; ++sm90a)
        for (size_t v = 0; v < variants.size(); ++v)
            if (graph::runs_sm90a_code(variants[v].when) == (sm90a == 1)) order.push_back(v);
    for (const GraphVariant& v : variants) out.programs.push_back(*v.program);
    for (size_t v : order) {
        const graph::Program& p = *variants[v].program;
        for (const ir::DeviceFunction& f : p.module.functions)
            if (std::none_of(out.device.functions.begin(), out.device.functions.end(),
                             [&](const ir::DeviceFunction& g) { return g.name == f.name; }))
                out.device.functions.push_back(f);
        for (const ir::Kernel& k : p.module.kernels) {
            bool prefixed = k.name.rfind(p.name + "_", 0) == 0;
            std::string key = prefixed ? k.name.substr(p.name.size()) : k.name;
            std::string text = body_of(p.module, k, opts);
            auto& list = versions[key];
            auto it = std::find_if(list.begin(), list.end(), [&](const Version& e) { return e.text == text; });
            if (it == list.end()) it = list.insert(list.end(), {std::move(text), k.name});
            ++it->users;
            seen[v].push_back({key, prefixed, static_cast<size_t>(it - list.begin())});
        }
    }
    for (size_t v : order) {
        std::vector<ir::Kernel>& kernels = out.programs[v].module.kernels;
        for (size_t i = 0; i < kernels.size(); ++i) {
            const Seen& s = seen[v][i];
            const std::vector<Version>& list = versions.at(s.key);
            const Version& version = list[s.version];
            std::string name = list.size() == 1 && version.users > 1 && s.prefixed ? api + s.key : version.first_name;
            kernels[i].name = name;
            if (std::none_of(out.device.kernels.begin(), out.device.kernels.end(),
                             [&](const ir::Kernel& k) { return k.name == name; }))
                out.device.kernels.push_back(kernels[i]);
        }
    }
    return out;
}

}  // namespace hds::codegen
