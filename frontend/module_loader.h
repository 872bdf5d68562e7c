// module_loader.h — parses the main file and, recursively, the files it
// imports (`import "x.hds";`, searched next to the importing file, then in
// the -I directories; each file once). Imported declarations come first.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frontend/ast.h"
#include "frontend/diagnostics.h"

namespace hds {

// Reads a file; nullopt when it does not exist or is not a readable regular
// file. Supplied by the driver, which owns all file access.
using FileReader = std::function<std::optional<std::string>(const std::string& path)>;

struct LoadedModule {
    std::unique_ptr<Module> module;       // null when there were syntax or import errors
    std::vector<std::string> file_paths;  // every file read, main file first (for depfiles)
};

LoadedModule load_module(uint32_t main_file, SourceManager& sources, DiagnosticsEngine& diags,
                         const std::vector<std::string>& include_dirs, const FileReader& read);

}  // namespace hds
