// code_writer.h — builds indented source text line by line.
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace hds::codegen {

// head + items joined by `sep` + tail; when longer than `width`, items are
// packed onto continuation lines aligned one column after the end of `head`.
inline std::string wrap_list(const std::string& head, const std::vector<std::string>& items, const std::string& tail,
                             const std::string& sep = ", ", size_t width = 100) {
    std::string one = head;
    for (size_t i = 0; i < items.size(); ++i) one += (i ? sep : "") + items[i];
    one += tail;
    if (one.size() <= width || items.empty()) return one;
    std::string trimmed_sep = sep.substr(0, sep.find_last_not_of(' ') + 1);
    std::string out = head, line = head;
    // Align under the opening parenthesis unless that is far right already.
    size_t lead = head.find_first_not_of(' ');
    std::string indent(head.size() > 60 ? (lead == std::string::npos ? 0 : lead) + 8 : head.size(), ' ');
    for (size_t i = 0; i < items.size(); ++i) {
        std::string piece = items[i] + (i + 1 < items.size() ? trimmed_sep : tail);
        if (line.size() > indent.size() && line.size() + 1 + piece.size() > width &&
            (line.size() > head.size() || head.size() > 60)) {
            out += "\n" + indent;
            line = indent;
        } else if (i > 0) {
            out += " ";
            line += " ";
        }
        out += piece;
        line += piece;
    }
    return out;
}

class CodeWriter {
  public:
    explicit CodeWriter(int indent_width = 4) : width_(indent_width) {}
    // Writes one logical line; embedded newlines continue at the same indent.
    void line(const std::string& text) {
        std::string pad(level_ * width_, ' ');
        size_t start = 0;
        for (;;) {
            size_t nl = text.find('\n', start);
            std::string part = text.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
            if (!part.empty()) out_ << pad << part;
            out_ << "\n";
            if (nl == std::string::npos) break;
            start = nl + 1;
        }
    }
    void blank() { out_ << "\n"; }
    // A line at column 0 (preprocessor directives).
    void raw(const std::string& text) { out_ << text << "\n"; }
    void indent() { ++level_; }
    void dedent() { --level_; }
    std::string str() const { return out_.str(); }

  private:
    std::ostringstream out_;
    int level_ = 0;
    int width_;
};

}  // namespace hds::codegen
