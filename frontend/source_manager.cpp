// source_manager.cpp — file registry and line lookup.
#include "frontend/source_manager.h"

#include <algorithm>

namespace hds {

uint32_t SourceManager::add_file(std::string path, std::string text) {
    File f{std::move(path), std::move(text), {0}};
    for (size_t i = 0; i < f.text.size(); ++i)
        if (f.text[i] == '\n') f.line_starts.push_back(i + 1);
    files_.push_back(std::move(f));
    return static_cast<uint32_t>(files_.size());
}

const std::string& SourceManager::path(uint32_t file) const {
    return files_.at(file - 1).path;
}

const std::string& SourceManager::text(uint32_t file) const {
    return files_.at(file - 1).text;
}

std::string_view SourceManager::line_text(uint32_t file, uint32_t line) const {
    if (file == 0 || file > files_.size()) return {};
    const File& f = files_[file - 1];
    if (line == 0 || line > f.line_starts.size()) return {};
    size_t begin = f.line_starts[line - 1];
    size_t end = line < f.line_starts.size() ? f.line_starts[line] - 1 : f.text.size();
    if (end > begin && f.text[end - 1] == '\r') --end;
    return std::string_view(f.text).substr(begin, end - begin);
}

std::string SourceManager::range_text(SourceRange r) const {
    std::string out;
    for (uint32_t l = r.begin.line; l <= std::max(r.begin.line, r.end.line); ++l) {
        std::string_view line = line_text(r.begin.file, l);
        size_t from = l == r.begin.line ? std::min<size_t>(r.begin.col - 1, line.size()) : 0;
        size_t to = l == r.end.line ? std::min<size_t>(r.end.col - 1, line.size()) : line.size();
        std::string_view part = line.substr(from, to > from ? to - from : 0);
        if (l != r.begin.line) {  // a range over lines reads as one: the indentation becomes one space
            size_t text = part.find_first_not_of(" \t");
            part = text == std::string_view::npos ? std::string_view() : part.substr(text);
            if (!part.empty()) out += ' ';
        }
        out += part;
    }
    return out;
}

std::string SourceManager::base_name(uint32_t file) const {
    const std::string& p = path(file);
    size_t slash = p.find_last_of('/');
    return slash == std::string::npos ? p : p.substr(slash + 1);
}

}  // namespace hds
