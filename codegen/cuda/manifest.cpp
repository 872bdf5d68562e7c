// manifest.cpp — see manifest.h.
#include "codegen/cuda/manifest.h"

#include <algorithm>

#include "codegen/cuda/cuda_expr.h"
#include "codegen/cuda/hopper_emit.h"
#include "ir/ir.h"
#include "ir/scalar_type.h"

namespace hds::codegen {

namespace {

// A dimension: its value where constant, else the expression over the sizes in C
// syntax (`/` on positive ints, `%`, `min`, `max`), as the header's checks use it.
nlohmann::json dimension(const ir::Expr& e) {
    if (auto v = ir::const_int(e)) return *v;
    CudaExprPrinter printer;
    return printer.print(e);
}

// `aligned`: by name, for each variant's graph has buffers of its own.
nlohmann::json tensor(const ir::Buffer& b, const std::vector<ir::Buffer>& aligned) {
    nlohmann::json shape = nlohmann::json::array();
    for (const ir::Expr& d : b->shape) shape.push_back(dimension(d));
    bool align16 = std::any_of(aligned.begin(), aligned.end(), [&](const ir::Buffer& a) { return a->name == b->name; });
    return {{"name", b->name},
            {"dtype", std::string(scalar_name(b->elem))},
            {"shape", shape},
            {"alignment", align16 ? 16 : byte_size(b->elem)}};
}

}  // namespace

nlohmann::json graph_manifest(const std::string& api, const std::vector<GraphVariant>& variants) {
    const graph::Program& p = *variants.front().program;
    // Tensors some variant reads or writes 16 bytes at a time, or through a TMA tensor map:
    // `NAME_run` refuses them misaligned.
    std::vector<ir::Buffer> aligned;
    for (const GraphVariant& v : variants) {
        for (const ir::Buffer& b : vector_accessed(v.program->module)) aligned.push_back(v.program->storage_of(b));
        for (const ir::Kernel& k : v.program->module.kernels)
            for (const TensorMap& t : tensor_maps(k)) aligned.push_back(v.program->storage_of(t.tensor));
    }
    nlohmann::json sizes = nlohmann::json::array(), inputs = nlohmann::json::array(),
                   run_args = nlohmann::json::array();
    for (const ir::Buffer& b : p.inputs) {
        inputs.push_back(tensor(b, aligned));
        run_args.push_back(b->name);
    }
    run_args.push_back(p.output->name);
    for (const ir::Var& s : p.sizes) {
        sizes.push_back(s->name);
        run_args.push_back(s->name);
    }
    run_args.push_back("workspace");
    run_args.push_back("stream");
    CudaExprPrinter printer;
    nlohmann::json requirements = nlohmann::json::array();
    for (const graph::Requirement& r : p.requirements)
        requirements.push_back({{"condition", printer.print(r.cond)}, {"why", r.why}});
    nlohmann::json cases = nlohmann::json::array();
    for (const GraphVariant& v : variants) {
        nlohmann::json when = nlohmann::json::array();
        for (const graph::Condition& c : v.when) when.push_back({{"condition", printer.print(c.expr)}, {"why", c.why}});
        nlohmann::json kernels = nlohmann::json::array();
        for (size_t k = 0; k < v.program->module.kernels.size(); ++k) {
            nlohmann::json kernel = {{"name", v.program->module.kernels[k].name}, {"ops", v.program->origins[k]}};
            // One of a node's kernels picked by the sizes: its case (`else`: where none before it ran).
            const graph::Program::Launch& l = v.program->launches[k];
            if (l.when || l.chained)
                kernel["launch"] = {
                    {"when", l.when ? printer.print(l.when) : "else"}, {"chained", l.chained}, {"why", l.note}};
            kernels.push_back(kernel);
        }
        cases.push_back({{"name", v.program->name}, {"when", when}, {"kernels", kernels}});
    }
    return {{"name", api},
            {"functions",
             {{"run", api + "_run"},
              {"workspace_size", api + "_workspace_size"},
              {"capture", api + "_capture"},
              {"replay", api + "_replay"}}},
            {"inputs", inputs},
            {"output", tensor(p.output, aligned)},
            {"sizes", sizes},
            {"run_args", run_args},
            {"requirements", requirements},
            {"variants", cases}};
}

}  // namespace hds::codegen
