// module_loader.cpp — import resolution.
#include "frontend/module_loader.h"

#include <filesystem>
#include <set>

#include "frontend/parser.h"

namespace hds {

namespace {
namespace fs = std::filesystem;

struct Loader {
    SourceManager& sources;
    DiagnosticsEngine& diags;
    const std::vector<std::string>& include_dirs;
    const FileReader& read;
    std::set<std::string> seen;
    std::vector<DeclPtr> imported;
    LoadedModule result;
    bool ok = true;

    std::string key(const std::string& path) {
        std::error_code ec;
        fs::path canon = fs::weakly_canonical(path, ec);
        return ec ? path : canon.string();
    }

    // Resolves and parses the imports of `m` (declared in file `file`).
    void resolve(Module& m, uint32_t file) {
        fs::path dir = fs::path(sources.path(file)).parent_path();
        for (DeclPtr& d : m.decls) {
            if (d->kind != DeclKind::Import) continue;
            auto& imp = as<ImportDecl>(*d);
            std::vector<fs::path> candidates = {dir / imp.path};
            for (const std::string& inc : include_dirs) candidates.push_back(fs::path(inc) / imp.path);
            bool found = false;
            for (const fs::path& c : candidates) {
                std::optional<std::string> text = read(c.string());
                if (!text) continue;
                found = true;
                if (!seen.insert(key(c.string())).second) break;  // imported already
                uint32_t id = sources.add_file(c.string(), std::move(*text));
                result.file_paths.push_back(c.string());
                std::unique_ptr<Module> sub = parse_file(id, sources, diags);
                if (!sub) {
                    ok = false;
                    break;
                }
                resolve(*sub, id);
                for (DeclPtr& sd : sub->decls) {
                    sd->from_import = true;
                    if (sd->kind != DeclKind::Import) imported.push_back(std::move(sd));
                }
                break;
            }
            if (!found) {
                diags.error(DiagId::import_not_found, imp.name_range, imp.path);
                ok = false;
            }
        }
    }
};
}  // namespace

LoadedModule load_module(uint32_t main_file, SourceManager& sources, DiagnosticsEngine& diags,
                         const std::vector<std::string>& include_dirs, const FileReader& read) {
    Loader l{sources, diags, include_dirs, read, {}, {}, {}};
    l.seen.insert(l.key(sources.path(main_file)));
    l.result.file_paths.push_back(sources.path(main_file));
    std::unique_ptr<Module> m = parse_file(main_file, sources, diags);
    if (!m) return std::move(l.result);
    l.resolve(*m, main_file);
    if (!l.ok) return std::move(l.result);
    for (DeclPtr& d : m->decls) l.imported.push_back(std::move(d));
    m->decls = std::move(l.imported);
    l.result.module = std::move(m);
    return std::move(l.result);
}

}  // namespace hds
