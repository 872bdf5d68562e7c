// diagnostics.cpp — clang-style printing and `--verify` checking.
#include "frontend/diagnostics.h"

#include <algorithm>
#include <map>
#include <regex>
#include <sstream>

namespace hds {

namespace {
struct DiagInfo {
    const char* name;
    const char* format;
};
const DiagInfo kDiagInfo[] = {
#define DIAG(id, format) {#id, format},
#include "frontend/diagnostics.def"
#undef DIAG
};
}  // namespace

const char* diag_name(DiagId id) {
    return kDiagInfo[static_cast<size_t>(id)].name;
}
const char* diag_format(DiagId id) {
    return kDiagInfo[static_cast<size_t>(id)].format;
}

void DiagnosticsEngine::report(Severity sev, DiagId id, SourceRange range, std::string message) {
    diags_.push_back({sev, id, range, std::move(message), diags_.size()});
    if (sev == Severity::Error) ++error_count_;
}

void DiagnosticsEngine::note(SourceRange range, std::string message) {
    report(Severity::Note, DiagId::syntax_error, range, std::move(message));
}

std::string DiagnosticsEngine::format(const Diagnostic& d) const {
    std::ostringstream os;
    const char* sev = d.severity == Severity::Error ? "error" : "note";
    if (!d.range.valid()) {
        os << (d.range.begin.file ? sources_.path(d.range.begin.file) + ": " : std::string("hdsc: ")) << sev << ": "
           << d.message << "\n";
        return os.str();
    }
    const SourceLoc& b = d.range.begin;
    os << sources_.path(b.file) << ":" << b.line << ":" << b.col << ": " << sev << ": " << d.message << "\n";
    std::string_view line = sources_.line_text(b.file, b.line);
    std::string shown;
    std::string marker;
    for (size_t i = 0; i < line.size(); ++i) {
        // Tabs become single spaces so that the caret lines up.
        shown += line[i] == '\t' ? ' ' : line[i];
    }
    os << shown << "\n";
    size_t caret = b.col > 0 ? b.col - 1 : 0;
    size_t end = caret + 1;
    if (d.range.end.file == b.file && d.range.end.line == b.line && d.range.end.col > b.col) end = d.range.end.col - 1;
    end = std::max(end, caret + 1);
    marker.assign(caret, ' ');
    marker += '^';
    for (size_t i = caret + 1; i < end && i < shown.size(); ++i) marker += '~';
    os << marker << "\n";
    return os.str();
}

namespace {
// Sort key that keeps each note right after the error it belongs to.
std::vector<const Diagnostic*> sorted(const std::vector<Diagnostic>& diags) {
    std::vector<std::vector<const Diagnostic*>> groups;
    for (const Diagnostic& d : diags) {
        if (d.severity == Severity::Note && !groups.empty())
            groups.back().push_back(&d);
        else
            groups.push_back({&d});
    }
    std::stable_sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) {
        const SourceLoc& x = a.front()->range.begin;
        const SourceLoc& y = b.front()->range.begin;
        return std::tie(x.file, x.line, x.col) < std::tie(y.file, y.line, y.col);
    });
    std::vector<const Diagnostic*> out;
    for (const auto& g : groups) out.insert(out.end(), g.begin(), g.end());
    return out;
}
}  // namespace

void DiagnosticsEngine::print(std::ostream& os) const {
    for (const Diagnostic* d : sorted(diags_)) os << format(*d);
    if (error_count_ > 0) os << error_count_ << (error_count_ == 1 ? " error" : " errors") << " generated.\n";
}

bool DiagnosticsEngine::verify(std::ostream& os) const {
    struct Expected {
        uint32_t file, line;
        std::string text;
        bool matched = false;
    };
    std::vector<Expected> expected;
    static const std::regex re(R"(expected-error(@([+-]?)(\d+))?\s*\{\{(.*?)\}\})");
    for (uint32_t f = 1; f <= sources_.file_count(); ++f) {
        std::istringstream in(sources_.text(f));
        std::string line;
        for (uint32_t ln = 1; std::getline(in, line); ++ln) {
            for (auto it = std::sregex_iterator(line.begin(), line.end(), re); it != std::sregex_iterator(); ++it) {
                const std::smatch& m = *it;
                long target = ln;
                if (m[1].matched) {
                    long n = std::stol(m[3].str());
                    target = m[2].str() == "+" ? ln + n : m[2].str() == "-" ? ln - n : n;
                }
                expected.push_back({f, static_cast<uint32_t>(target), m[4].str()});
            }
        }
    }
    bool ok = true;
    for (const Diagnostic& d : diags_) {
        if (d.severity != Severity::Error) continue;
        bool found = false;
        for (Expected& e : expected) {
            if (e.matched || e.file != d.range.begin.file || e.line != d.range.begin.line) continue;
            if (d.message.find(e.text) == std::string::npos) continue;
            e.matched = found = true;
            break;
        }
        if (!found) {
            ok = false;
            os << "verify: unexpected " << format(d);
        }
    }
    for (const Expected& e : expected) {
        if (e.matched) continue;
        ok = false;
        os << "verify: " << sources_.path(e.file) << ":" << e.line << ": expected error not reported: {{" << e.text
           << "}}\n";
    }
    if (expected.empty()) {
        os << "verify: no expected-error comments found\n";
        ok = false;
    }
    return ok;
}

}  // namespace hds
