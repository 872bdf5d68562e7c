// diagnostics.cpp — clang-style printing, warning flags, instantiation notes
// and `--verify` checking.
#include "frontend/diagnostics.h"

#include <algorithm>
#include <regex>
#include <sstream>

namespace hds {

namespace {
struct DiagInfo {
    const char* name;
    const char* flag;
    const char* format;
};
const DiagInfo kDiagInfo[] = {
#define DIAG(id, format) {#id, "", format},
#define WARNING(id, flag, format) {#id, flag, format},
#include "frontend/diagnostics.def"
#undef WARNING
#undef DIAG
};
}  // namespace

const char* diag_name(DiagId id) {
    return kDiagInfo[static_cast<size_t>(id)].name;
}
const char* diag_format(DiagId id) {
    return kDiagInfo[static_cast<size_t>(id)].format;
}
const char* diag_flag(DiagId id) {
    return kDiagInfo[static_cast<size_t>(id)].flag;
}

std::vector<std::string> warning_flags() {
    std::vector<std::string> out;
    for (const DiagInfo& d : kDiagInfo)
        if (*d.flag) out.push_back(d.flag);
    return out;
}

bool WarningOptions::apply(const std::string& arg) {
    if (arg == "error") {
        as_errors = true;
        return true;
    }
    if (arg == "no-error") {
        as_errors = false;
        return true;
    }
    bool no = arg.rfind("no-", 0) == 0;
    std::string name = no ? arg.substr(3) : arg;
    std::vector<std::string> flags = warning_flags();
    if (name == "all") {
        for (const std::string& f : flags) enabled[f] = !no;
        return true;
    }
    if (std::find(flags.begin(), flags.end(), name) == flags.end()) return false;
    enabled[name] = !no;
    return true;
}

bool WarningOptions::on(DiagId id) const {
    auto it = enabled.find(diag_flag(id));
    return it == enabled.end() || it->second;
}

void DiagnosticsEngine::report(Severity sev, DiagId id, SourceRange range, std::string message) {
    std::string flag;
    if (sev == Severity::Warning) {
        flag = std::string("-W") + diag_flag(id);
        if (warnings_.as_errors) {
            sev = Severity::Error;
            flag = "-Werror," + flag;
        }
    }
    if (sev == Severity::Error) ++error_reports_;
    if (!instantiations_.empty()) {
        // The same diagnostic from the same generic body: one more instantiation note.
        for (Diagnostic& d : diags_) {
            if (d.severity != sev || d.id != id || d.message != message || d.instantiations.empty()) continue;
            if (d.range.begin != range.begin) continue;
            // A graph built once per size case instantiates the same call again: one note per site.
            const Note& where = instantiations_.back();
            bool known = std::any_of(d.instantiations.begin(), d.instantiations.end(), [&](const Note& n) {
                return n.range.begin == where.range.begin && n.message == where.message;
            });
            if (!known) d.instantiations.push_back(where);
            drop_notes_ = true;
            return;
        }
    }
    Diagnostic d{sev, id, range, std::move(message), std::move(flag), {}, {}};
    d.instantiations.assign(instantiations_.rbegin(), instantiations_.rend());
    diags_.push_back(std::move(d));
    drop_notes_ = false;
    if (sev == Severity::Error) ++error_count_;
    if (sev == Severity::Warning) ++warning_count_;
}

void DiagnosticsEngine::note(SourceRange range, std::string message) {
    if (drop_notes_ || diags_.empty()) return;
    diags_.back().notes.push_back({range, std::move(message)});
}

void DiagnosticsEngine::push_instantiation(SourceRange where, std::string message) {
    instantiations_.push_back({where, std::move(message)});
}

void DiagnosticsEngine::pop_instantiation() {
    if (!instantiations_.empty()) instantiations_.pop_back();
}

std::string DiagnosticsEngine::format_one(const char* sev, SourceRange range, const std::string& message) const {
    std::ostringstream os;
    if (!range.valid()) {
        os << (range.begin.file ? sources_.path(range.begin.file) + ": " : std::string("hdsc: ")) << sev << ": "
           << message << "\n";
        return os.str();
    }
    const SourceLoc& b = range.begin;
    os << sources_.path(b.file) << ":" << b.line << ":" << b.col << ": " << sev << ": " << message << "\n";
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
    if (range.end.file == b.file && range.end.line == b.line && range.end.col > b.col) end = range.end.col - 1;
    end = std::max(end, caret + 1);
    marker.assign(caret, ' ');
    marker += '^';
    for (size_t i = caret + 1; i < end && i < shown.size(); ++i) marker += '~';
    os << marker << "\n";
    return os.str();
}

std::string DiagnosticsEngine::format(const Diagnostic& d) const {
    const char* sev = d.severity == Severity::Error ? "error" : d.severity == Severity::Warning ? "warning" : "note";
    std::string out = format_one(sev, d.range, d.flag.empty() ? d.message : d.message + " [" + d.flag + "]");
    for (const Note& n : d.notes) out += format_one("note", n.range, n.message);
    for (const Note& n : d.instantiations) out += format_one("note", n.range, n.message);
    return out;
}

void DiagnosticsEngine::print(std::ostream& os) const {
    std::vector<const Diagnostic*> order;
    for (const Diagnostic& d : diags_) order.push_back(&d);
    std::stable_sort(order.begin(), order.end(), [](const Diagnostic* a, const Diagnostic* b) {
        const SourceLoc& x = a->range.begin;
        const SourceLoc& y = b->range.begin;
        return std::tie(x.file, x.line, x.col) < std::tie(y.file, y.line, y.col);
    });
    for (const Diagnostic* d : order) os << format(*d);
    auto count = [](size_t n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); };
    if (warning_count_ > 0 && error_count_ > 0)
        os << count(warning_count_, "warning") << " and " << count(error_count_, "error") << " generated.\n";
    else if (error_count_ > 0)
        os << count(error_count_, "error") << " generated.\n";
    else if (warning_count_ > 0)
        os << count(warning_count_, "warning") << " generated.\n";
}

namespace {
struct Expected {
    std::string kind;  // error | warning | note
    uint32_t file, line;
    std::string text;
    bool matched = false;
};

std::vector<Expected> expected_comments(const SourceManager& sources) {
    std::vector<Expected> expected;
    static const std::regex re(R"(expected-(error|warning|note)(@([+-]?)(\d+))?\s*\{\{(.*?)\}\})");
    for (uint32_t f = 1; f <= sources.file_count(); ++f) {
        std::istringstream in(sources.text(f));
        std::string line;
        for (uint32_t ln = 1; std::getline(in, line); ++ln) {
            for (auto it = std::sregex_iterator(line.begin(), line.end(), re); it != std::sregex_iterator(); ++it) {
                const std::smatch& m = *it;
                long target = ln;
                if (m[2].matched) {
                    long n = std::stol(m[4].str());
                    target = m[3].str() == "+" ? ln + n : m[3].str() == "-" ? ln - n : n;
                }
                expected.push_back({m[1].str(), f, static_cast<uint32_t>(target), m[5].str()});
            }
        }
    }
    return expected;
}

bool match(std::vector<Expected>& expected, const char* kind, SourceRange range, const std::string& message) {
    for (Expected& e : expected) {
        if (e.matched || e.kind != kind || e.file != range.begin.file || e.line != range.begin.line) continue;
        if (message.find(e.text) == std::string::npos) continue;
        e.matched = true;
        return true;
    }
    return false;
}
}  // namespace

bool DiagnosticsEngine::verify(std::ostream& os) const {
    std::vector<Expected> expected = expected_comments(sources_);
    auto any = [&](const char* kind) {
        return std::any_of(expected.begin(), expected.end(), [&](const Expected& e) { return e.kind == kind; });
    };
    bool check_notes = any("note"), check_warnings = any("warning");
    bool ok = true;
    for (const Diagnostic& d : diags_) {
        if (d.severity == Severity::Warning && !check_warnings) continue;
        const char* kind = d.severity == Severity::Error ? "error" : "warning";
        if (!match(expected, kind, d.range, d.message)) {
            ok = false;
            os << "verify: unexpected " << format(d);
        }
        if (!check_notes) continue;
        std::vector<Note> notes = d.notes;
        notes.insert(notes.end(), d.instantiations.begin(), d.instantiations.end());
        for (const Note& n : notes) {
            // A note with no place in a file (`hdsc: note: ...`) has no line to expect it on.
            if (!n.range.begin.valid() || match(expected, "note", n.range, n.message)) continue;
            ok = false;
            os << "verify: unexpected " << format_one("note", n.range, n.message);
        }
    }
    for (const Expected& e : expected) {
        if (e.matched) continue;
        ok = false;
        os << "verify: " << sources_.path(e.file) << ":" << e.line << ": expected " << e.kind << " not reported: {{"
           << e.text << "}}\n";
    }
    if (expected.empty()) {
        os << "verify: no expected-error or expected-warning comments found\n";
        ok = false;
    }
    return ok;
}

}  // namespace hds
