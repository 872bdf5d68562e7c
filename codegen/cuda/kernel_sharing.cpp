// kernel_sharing.cpp — each distinct kernel of a graph's variants once (see kernel_sharing.h).
#include "codegen/cuda/kernel_sharing.h"

#include <algorithm>
#include <map>

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
    // Per kernel of each variant: what its name says after the variant's ("_k1_rms_norm"), and its text.
    struct Seen {
        std::string suffix, text;
    };
    std::vector<std::vector<Seen>> seen;
    struct Version {
        std::string text, first_name;
        int users = 0;  // variants that launch it
    };
    std::map<std::string, std::vector<Version>> versions;  // by suffix
    for (const GraphVariant& v : variants) {
        out.programs.push_back(*v.program);
        const graph::Program& p = *v.program;
        for (const ir::DeviceFunction& f : p.module.functions)
            if (std::none_of(out.device.functions.begin(), out.device.functions.end(),
                             [&](const ir::DeviceFunction& g) { return g.name == f.name; }))
                out.device.functions.push_back(f);
        seen.emplace_back();
        for (const ir::Kernel& k : p.module.kernels) {
            bool prefixed = k.name.rfind(p.name + "_", 0) == 0;
            std::string suffix = prefixed ? k.name.substr(p.name.size()) : "";
            std::string text = body_of(p.module, k, opts);
            auto& list = versions[suffix.empty() ? k.name : suffix];
            auto it = std::find_if(list.begin(), list.end(), [&](const Version& e) { return e.text == text; });
            if (it == list.end()) it = list.insert(list.end(), {text, k.name});
            ++it->users;
            seen.back().push_back({suffix.empty() ? k.name : suffix, std::move(text)});
        }
    }
    for (size_t v = 0; v < out.programs.size(); ++v) {
        std::vector<ir::Kernel>& kernels = out.programs[v].module.kernels;
        for (size_t i = 0; i < kernels.size(); ++i) {
            const Seen& s = seen[v][i];
            const auto& list = versions.at(s.suffix);
            bool prefixed = s.suffix != kernels[i].name;
            const Version& version =
                *std::find_if(list.begin(), list.end(), [&](const Version& e) { return e.text == s.text; });
            std::string name = list.size() == 1 && version.users > 1 && prefixed ? api + s.suffix : version.first_name;
            kernels[i].name = name;
            if (std::none_of(out.device.kernels.begin(), out.device.kernels.end(),
                             [&](const ir::Kernel& k) { return k.name == name; }))
                out.device.kernels.push_back(kernels[i]);
        }
    }
    return out;
}

}  // namespace hds::codegen
