// code_writer.h — builds indented source text line by line.
#pragma once

#include <sstream>
#include <string>

namespace hds::codegen {

class CodeWriter {
  public:
    explicit CodeWriter(int indent_width = 4) : width_(indent_width) {}
    void line(const std::string& text) {
        if (!text.empty()) out_ << std::string(level_ * width_, ' ') << text;
        out_ << "\n";
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
