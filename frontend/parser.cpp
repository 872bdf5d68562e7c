// parser.cpp — the ANTLR driver: UTF-8 check, error listener, nesting guard.
#include "frontend/parser.h"

#include "HdsLexer.h"
#include "HdsParser.h"
#include "frontend/ast_builder.h"

namespace hds {

namespace {

// Returns the byte offset of the first invalid UTF-8 sequence, or npos.
// Strict (RFC 3629): no overlong forms, no surrogates, nothing past U+10FFFF,
// which is what ANTLR's decoder accepts without throwing.
size_t find_invalid_utf8(const std::string& s) {
    size_t i = 0;
    auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    while (i < s.size()) {
        unsigned char c = byte(i);
        size_t len = 0;
        unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
        if (c < 0x80)
            len = 1;
        else if (c >= 0xC2 && c <= 0xDF)
            len = 2;
        else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            if (c == 0xE0) lo = 0xA0;
            if (c == 0xED) hi = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            if (c == 0xF0) lo = 0x90;
            if (c == 0xF4) hi = 0x8F;
        }
        if (len == 0 || i + len > s.size()) return i;
        if (len > 1 && (byte(i + 1) < lo || byte(i + 1) > hi)) return i;
        for (size_t k = 2; k < len; ++k)
            if ((byte(i + k) >> 6) != 2) return i;
        i += len;
    }
    return std::string::npos;
}

SourceLoc loc_of_offset(uint32_t file, const std::string& text, size_t offset) {
    SourceLoc loc{file, 1, 1};
    for (size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n') {
            ++loc.line;
            loc.col = 1;
        } else {
            ++loc.col;
        }
    }
    return loc;
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
    for (size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size()) s.replace(p, from.size(), to);
}

// Rewrites ANTLR's wording into ours: "<EOF>" in words, token names in words,
// and a long set of expected tokens that starts an expression as "an expression".
std::string clean_message(std::string msg) {
    replace_all(msg, "'<EOF>'", "end of file");
    replace_all(msg, "<EOF>", "end of file");
    size_t set = msg.find("expecting {");
    if (set != std::string::npos) {
        std::string tokens = msg.substr(set);
        if (tokens.find("INT") != std::string::npos && tokens.find("ID") != std::string::npos)
            msg = msg.substr(0, set) + "expecting an expression";
        else if (tokens.find("'kernel'") != std::string::npos)
            msg = msg.substr(0, set) + "expecting a declaration (import, const, kernel or device fn)";
    }
    replace_all(msg, "expecting ID", "expecting an identifier");
    replace_all(msg, "expecting INT", "expecting an integer");
    replace_all(msg, "expecting STRING", "expecting a string");
    return msg;
}

class ErrorListener : public antlr4::BaseErrorListener {
  public:
    ErrorListener(uint32_t file, DiagnosticsEngine& diags) : file_(file), diags_(diags) {}
    void syntaxError(antlr4::Recognizer*, antlr4::Token* offending, size_t line, size_t col, const std::string& msg,
                     std::exception_ptr) override {
        SourceLoc b{file_, static_cast<uint32_t>(line), static_cast<uint32_t>(col + 1)};
        SourceLoc e = b;
        if (offending && offending->getType() != antlr4::Token::EOF)
            e.col += static_cast<uint32_t>(offending->getText().size());
        std::string text = clean_message(msg);
        if (offending && offending->getType() == HdsLexer::INVALID) {
            std::string c = offending->getText();
            unsigned char byte = c.empty() ? 0 : static_cast<unsigned char>(c[0]);
            if (byte < 0x20 || byte == 0x7f) c = fmt::format("\\x{:02x}", byte);
            text = "unexpected character '" + c + "'";
        }
        if (offending && offending->getType() == antlr4::Token::EOF)
            text = unclosed_braces_ > 0 ? "unexpected end of file: a '{' is never closed" : "unexpected end of file";
        diags_.error(DiagId::syntax_error, SourceRange{b, e}, text);
        ++count_;
    }
    size_t count() const { return count_; }
    void set_unclosed_braces(int n) { unclosed_braces_ = n; }

  private:
    int unclosed_braces_ = 0;
    uint32_t file_;
    DiagnosticsEngine& diags_;
    size_t count_ = 0;
};

constexpr int kMaxNesting = 200;

// Deeply nested brackets would overflow the recursive parser and every tree
// walk after it; reject them up front with a located error.
bool check_nesting(uint32_t file, antlr4::CommonTokenStream& tokens, DiagnosticsEngine& diags,
                   ErrorListener& listener) {
    int depth = 0, braces = 0;
    for (antlr4::Token* t : tokens.getTokens()) {
        std::string s = t->getText();
        braces += s == "{" ? 1 : s == "}" ? -1 : 0;
        if (s == "(" || s == "[" || s == "{") {
            if (++depth > kMaxNesting) {
                SourceLoc b{file, static_cast<uint32_t>(t->getLine()),
                            static_cast<uint32_t>(t->getCharPositionInLine() + 1)};
                diags.error(DiagId::syntax_error, SourceRange{b, b},
                            fmt::format("brackets nested more than {} deep", kMaxNesting));
                return false;
            }
        } else if (s == ")" || s == "]" || s == "}") {
            depth = std::max(0, depth - 1);
        }
    }
    listener.set_unclosed_braces(braces);
    return true;
}

}  // namespace

std::unique_ptr<Module> parse_file(uint32_t file, const SourceManager& sources, DiagnosticsEngine& diags) {
    const std::string& text = sources.text(file);
    size_t bad = find_invalid_utf8(text);
    if (bad != std::string::npos) {
        SourceLoc b = loc_of_offset(file, text, bad);
        diags.error(DiagId::syntax_error, SourceRange{b, b}, "file is not valid UTF-8 text");
        return nullptr;
    }
    antlr4::ANTLRInputStream input(text);
    HdsLexer lexer(&input);
    ErrorListener listener(file, diags);
    lexer.removeErrorListeners();
    lexer.addErrorListener(&listener);
    antlr4::CommonTokenStream tokens(&lexer);
    tokens.fill();
    if (!check_nesting(file, tokens, diags, listener)) return nullptr;
    // Two stages (ANTLR's advice for speed): SLL prediction, which bails out at the first error
    // without reporting it; only then full LL with the error listener, which parses valid input
    // the same way and reports every error. Importing the stdlib's 4600 lines (every graph does)
    // takes 0.2 s instead of 0.7.
    HdsParser parser(&tokens);
    parser.removeErrorListeners();
    parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(antlr4::atn::PredictionMode::SLL);
    parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
    HdsParser::FileContext* tree = nullptr;
    try {
        tree = parser.file();
    } catch (const antlr4::ParseCancellationException&) {
        tokens.seek(0);
        parser.reset();
        parser.addErrorListener(&listener);
        parser.setErrorHandler(std::make_shared<antlr4::DefaultErrorStrategy>());
        parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(antlr4::atn::PredictionMode::LL);
        tree = parser.file();
    }
    if (listener.count() > 0) return nullptr;
    return build_ast(tree, file, diags);
}

void dump_tokens(uint32_t file, const SourceManager& sources, std::ostream& os) {
    antlr4::ANTLRInputStream input(sources.text(file));
    HdsLexer lexer(&input);
    lexer.removeErrorListeners();
    antlr4::CommonTokenStream tokens(&lexer);
    tokens.fill();
    const antlr4::dfa::Vocabulary& vocab = lexer.getVocabulary();
    for (antlr4::Token* t : tokens.getTokens()) {
        std::string kind(vocab.getSymbolicName(t->getType()));
        if (kind.empty()) kind = std::string(vocab.getLiteralName(t->getType()));
        if (t->getType() == antlr4::Token::EOF) kind = "EOF";
        os << t->getLine() << ":" << t->getCharPositionInLine() + 1 << " " << kind;
        if (t->getType() != antlr4::Token::EOF) os << " '" << t->getText() << "'";
        os << "\n";
    }
}

}  // namespace hds
