// file_io.h — all file access of hdsc: reading sources, atomic writes.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace hds::driver {

// The contents of a readable regular file; nullopt otherwise (with `why`).
std::optional<std::string> read_file(const std::string& path, std::string* why = nullptr);

struct OutputFile {
    std::string path;
    std::string contents;
};

// Writes every file to a temporary beside it, then renames them all into
// place. On failure nothing is left behind (no partial output) and `why`
// says what went wrong.
bool write_files_atomically(const std::vector<OutputFile>& files, std::string* why);

}  // namespace hds::driver
