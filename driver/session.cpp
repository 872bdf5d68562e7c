// session.cpp — reading and checking one input.
#include "driver/session.h"

#include "codegen/cuda/cuda_emitter.h"
#include "driver/file_io.h"

#include "graph/graph_builder.h"
#include "graph/pipeline.h"
#include "ir/ir_visitor.h"

namespace hds::driver {

std::string describe_target(const TargetChoice& t, const SourceManager& sources, const std::string& emitted) {
    auto at = [&](SourceRange r) { return sources.base_name(r.begin.file) + ":" + std::to_string(r.begin.line); };
    switch (t.origin) {
        case TargetChoice::Origin::CommandLine:
            return std::string("--arch=") + target_name(t.arch);
        case TargetChoice::Origin::Declared:
            return "declared at " + at(t.where);
        case TargetChoice::Origin::Inferred:
            return "inferred: " + t.what + " at " + at(t.where) + " needs it";
        case TargetChoice::Origin::Default:
            break;
    }
    if (emitted == codegen::kSm80AndSm90a) return "the default, with the sm_90a schedules where they differ";
    return "the default: nothing in the file needs a newer one";
}

bool Session::open(const std::string& input, std::ostream& err) {
    std::string why;
    std::optional<std::string> text = read_file(input, &why);
    if (!text) {
        err << "hdsc: error: cannot read '" << input << "': " << why << "\n";
        return false;
    }
    main_file = sources.add_file(input, std::move(*text));
    return true;
}

namespace {

// Whether a graph of a file with no target, built for sm_90a as `hopper`, runs an op on
// another schedule there: matmul on TMA + wgmma, rows of a symbolic length (which sm_90a
// splits over thread block clusters when they are long). Such a graph also gets these
// builds, which run where the device runs the .cu's compute_90a code (docs/cli.md, "The
// target"). The graph passes run on them here (row groups form in the passes), once.
bool sm90a_differs(const std::vector<graph::Variant>& hopper) {
    for (const graph::Variant& v : hopper) {
        graph::run_graph_passes(*v.graph, nullptr);
        for (const graph::Node* n : v.graph->live()) {
            if (n->kind == graph::Node::Kind::Anchor && ir::required_arch(n->anchor) >= 90) return true;
            if (n->kind == graph::Node::Kind::RowGroup && !ir::const_int(n->buffer->shape.back())) return true;
        }
    }
    return false;
}

}  // namespace

bool Session::check(const std::vector<std::string>& include_dirs, graph::Target target) {
    FileReader reader = [](const std::string& p) { return read_file(p); };
    loaded = load_module(main_file, sources, diags, include_dirs, reader);
    sema_ = std::make_unique<Sema>(diags, target.arch == 0 ? 0 : 80);
    if (target.arch != 0) sema_->choose_target(target.arch < 0 ? 0 : target.arch);
    if (loaded.module) sema_->check(*loaded.module);
    if (!loaded.module || diags.has_errors()) return false;
    this->target = sema_->target();
    if (target.arch != 0) target.arch = this->target.arch;
    // `hdsc tune` (recording sites) builds each graph once.
    bool variants = !(target.tuning && target.tuning->record);
    for (const DeclPtr& d : loaded.module->decls) {
        if (d->kind != DeclKind::Graph || d->from_import) continue;
        // With variants, the last build (for any sizes) is the graph itself.
        std::vector<graph::Variant> cases;
        if (variants) cases = graph::build_variants(as<GraphDecl>(*d), *loaded.module, *sema_, diags, target);
        std::unique_ptr<graph::Graph> g;
        if (!variants) {
            g = graph::build_graph(as<GraphDecl>(*d), *loaded.module, *sema_, diags, target);
        } else if (!cases.empty()) {
            g = std::move(cases.back().graph);
            cases.pop_back();
        }
        if (!g) continue;
        if (variants && target.arch != 0 && this->target.origin == TargetChoice::Origin::Default) {
            graph::Target hopper = target;
            hopper.arch = 90;
            std::vector<graph::Variant> sm90a =
                graph::build_variants(as<GraphDecl>(*d), *loaded.module, *sema_, diags, hopper);
            if (sm90a_differs(sm90a)) graph::add_sm90a_variants(cases, std::move(sm90a));
        }
        graphs.push_back(std::move(g));
        this->variants.push_back(std::move(cases));
    }
    return !diags.has_errors();
}

}  // namespace hds::driver
