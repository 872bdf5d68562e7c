// source_manager.h — owns the text of every file the compiler reads and maps
// (file, line, column) locations back to source lines for diagnostics.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/source_loc.h"

namespace hds {

class SourceManager {
  public:
    // Registers a file and returns its id. Ids start at 1 (0 is "no file").
    uint32_t add_file(std::string path, std::string text);
    const std::string& path(uint32_t file) const;
    const std::string& text(uint32_t file) const;
    // The text of one line without its newline; empty when out of range.
    std::string_view line_text(uint32_t file, uint32_t line) const;
    // The source text of a range; one spanning lines reads as one line (indentation: one space).
    std::string range_text(SourceRange r) const;
    // The file's name without directories, for comments in emitted code.
    std::string base_name(uint32_t file) const;
    uint32_t file_count() const { return static_cast<uint32_t>(files_.size()); }

  private:
    struct File {
        std::string path;
        std::string text;
        std::vector<size_t> line_starts;
    };
    std::vector<File> files_;
};

}  // namespace hds
