// diagnostics.h — the diagnostics engine: collects located errors and notes,
// prints them clang-style (file:line:col, source line, caret) and implements
// `--verify` (expected-error comments in the source).
#pragma once

#include <fmt/format.h>

#include <ostream>
#include <string>
#include <vector>

#include "frontend/source_manager.h"

namespace hds {

enum class DiagId {
#define DIAG(id, format) id,
#include "frontend/diagnostics.def"
#undef DIAG
};

const char* diag_name(DiagId id);
const char* diag_format(DiagId id);

enum class Severity { Error, Note };

struct Diagnostic {
    Severity severity;
    DiagId id;
    SourceRange range;
    std::string message;
    size_t order;  // report order, keeps notes after their error when sorting
};

class DiagnosticsEngine {
  public:
    explicit DiagnosticsEngine(const SourceManager& sources) : sources_(sources) {}

    template <typename... Args>
    void error(DiagId id, SourceRange range, const Args&... args) {
        report(Severity::Error, id, range, fmt::format(fmt::runtime(diag_format(id)), args...));
    }
    // An error found while running a program (the CPU emulator), not a
    // compile-time diagnostic; printed the same way.
    void runtime_error(SourceRange range, std::string message) {
        report(Severity::Error, DiagId::syntax_error, range, std::move(message));
    }
    // A note explains the error reported just before it ("declared here").
    void note(SourceRange range, std::string message);

    bool has_errors() const { return error_count_ > 0; }
    size_t error_count() const { return error_count_; }
    const std::vector<Diagnostic>& diagnostics() const { return diags_; }

    // Prints all diagnostics sorted by location, then "N errors generated.".
    void print(std::ostream& os) const;
    std::string format(const Diagnostic& d) const;

    // `--verify`: compares reported errors with `// expected-error {{text}}`
    // comments (optionally `expected-error@+N {{...}}` or `@-N`) in every file.
    // Prints mismatches to `os`; returns true when they match exactly.
    bool verify(std::ostream& os) const;

  private:
    void report(Severity sev, DiagId id, SourceRange range, std::string message);

    const SourceManager& sources_;
    std::vector<Diagnostic> diags_;
    size_t error_count_ = 0;
};

}  // namespace hds
