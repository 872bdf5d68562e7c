// diagnostics.h — the diagnostics engine: collects located errors, warnings and
// notes, prints them clang-style (file:line:col, source line, caret) and
// implements `--verify` (expected-error / -warning / -note comments).
#pragma once

#include <fmt/format.h>

#include <map>
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
// The -W name of a warning ("unused-variable"); "" for errors.
const char* diag_flag(DiagId id);
// Every warning's -W name, in diagnostics.def order.
std::vector<std::string> warning_flags();

enum class Severity { Error, Warning, Note };

struct Note {
    SourceRange range;
    std::string message;
};

struct Diagnostic {
    Severity severity;
    DiagId id;
    SourceRange range;
    std::string message;
    std::string flag;                  // "-Wunused-variable" for warnings (and -Werror ones)
    std::vector<Note> notes;           // reported right after it ("previous definition is here")
    std::vector<Note> instantiations;  // each instantiation of a generic body that hit it
};

// -W<name>, -Wno-<name>, -Werror: which warnings are reported, and whether as errors.
struct WarningOptions {
    std::map<std::string, bool> enabled;  // by -W name; absent: on
    bool as_errors = false;
    // Applies one -W argument without its "-W" ("no-unused-variable", "error",
    // "all"); returns false for a name that is no warning.
    bool apply(const std::string& arg);
    bool on(DiagId id) const;
};

class DiagnosticsEngine {
  public:
    explicit DiagnosticsEngine(const SourceManager& sources) : sources_(sources) {}

    void set_warning_options(WarningOptions w) { warnings_ = std::move(w); }
    const SourceManager& sources() const { return sources_; }

    template <typename... Args>
    void error(DiagId id, SourceRange range, const Args&... args) {
        report(Severity::Error, id, range, fmt::format(fmt::runtime(diag_format(id)), args...));
    }
    template <typename... Args>
    void warning(DiagId id, SourceRange range, const Args&... args) {
        if (!warnings_.on(id)) {
            drop_notes_ = true;
            return;
        }
        report(Severity::Warning, id, range, fmt::format(fmt::runtime(diag_format(id)), args...));
    }
    // An error found while running a program (the CPU emulator), not a
    // compile-time diagnostic; printed the same way.
    void runtime_error(SourceRange range, std::string message) {
        report(Severity::Error, DiagId::syntax_error, range, std::move(message));
    }
    // A note explains the error or warning reported just before it ("declared here").
    void note(SourceRange range, std::string message);

    // While a generic body is checked for one instantiation, each error or
    // warning in it gets a note at `where` ("in instantiation of ... requested
    // here"); one the same body already reported for another instantiation is
    // not repeated: it gets one more such note. Nests (innermost first).
    void push_instantiation(SourceRange where, std::string message);
    void pop_instantiation();

    bool has_errors() const { return error_count_ > 0; }
    // Errors reported so far, repeats from other instantiations included (to
    // tell whether a step failed); the printed count is of distinct errors.
    size_t error_count() const { return error_reports_; }
    size_t warning_count() const { return warning_count_; }
    const std::vector<Diagnostic>& diagnostics() const { return diags_; }

    // Prints all diagnostics sorted by location, then "N errors generated.".
    void print(std::ostream& os) const;
    std::string format(const Diagnostic& d) const;

    // `--verify`: compares reported errors and warnings with `// expected-error
    // {{text}}` and `// expected-warning {{text}}` comments (optionally
    // `expected-error@+N {{...}}`, `@-N`, or `@N` for line N) in every file;
    // warnings and notes only where the files expect some. Prints
    // mismatches to `os`; returns true when they match exactly.
    bool verify(std::ostream& os) const;

  private:
    void report(Severity sev, DiagId id, SourceRange range, std::string message);
    std::string format_one(const char* severity, SourceRange range, const std::string& message) const;

    const SourceManager& sources_;
    WarningOptions warnings_;
    std::vector<Diagnostic> diags_;
    std::vector<Note> instantiations_;  // innermost last
    bool drop_notes_ = false;           // the last error or warning was not reported
    size_t error_count_ = 0;
    size_t error_reports_ = 0;
    size_t warning_count_ = 0;
};

// Pushes an instantiation note for its lifetime (DiagnosticsEngine::push_instantiation).
class InstantiationScope {
  public:
    InstantiationScope(DiagnosticsEngine& d, SourceRange where, std::string message) : d_(d) {
        d_.push_instantiation(where, std::move(message));
    }
    ~InstantiationScope() { d_.pop_instantiation(); }
    InstantiationScope(const InstantiationScope&) = delete;
    InstantiationScope& operator=(const InstantiationScope&) = delete;

  private:
    DiagnosticsEngine& d_;
};

}  // namespace hds
