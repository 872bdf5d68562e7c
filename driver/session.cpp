// session.cpp — reading and checking one input.
#include "driver/session.h"

#include "driver/file_io.h"
#include "graph/graph_builder.h"

namespace hds::driver {

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

bool Session::check(const std::vector<std::string>& include_dirs, graph::Target target) {
    FileReader reader = [](const std::string& p) { return read_file(p); };
    loaded = load_module(main_file, sources, diags, include_dirs, reader);
    sema_ = std::make_unique<Sema>(diags, target.arch);
    if (loaded.module) sema_->check(*loaded.module);
    if (!loaded.module || diags.has_errors()) return false;
    for (const DeclPtr& d : loaded.module->decls) {
        if (d->kind != DeclKind::Graph || d->from_import) continue;
        if (auto g = graph::build_graph(as<GraphDecl>(*d), *loaded.module, *sema_, diags, target))
            graphs.push_back(std::move(g));
    }
    return !diags.has_errors();
}

}  // namespace hds::driver
