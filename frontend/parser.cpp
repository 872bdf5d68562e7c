// parser.cpp — the ANTLR driver: UTF-8 check, error listener, nesting guard.
#include "frontend/parser.h"

#include <antlr4-runtime.h>

#include "HdsLexer.h"
#include "HdsParser.h"
#include "frontend/ast_builder.h"

namespace hds {

namespace {

// Returns the byte offset of the first invalid UTF-8 sequence, or npos.
size_t find_invalid_utf8(const std::string& s) {
    size_t i = 0;
    while (i < s.size()) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (len == 0 || i + len > s.size()) return i;
        for (size_t k = 1; k < len; ++k)
            if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return i;
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

std::string clean_message(std::string msg) {
    // ANTLR spells the end of input "<EOF>"; say it in words.
    for (size_t p; (p = msg.find("'<EOF>'")) != std::string::npos;) msg.replace(p, 7, "end of file");
    for (size_t p; (p = msg.find("<EOF>")) != std::string::npos;) msg.replace(p, 5, "end of file");
    return msg;
}

class ErrorListener : public antlr4::BaseErrorListener {
  public:
    ErrorListener(uint32_t file, DiagnosticsEngine& diags) : file_(file), diags_(diags) {}
    void syntaxError(antlr4::Recognizer*, antlr4::Token* offending, size_t line, size_t col,
                     const std::string& msg, std::exception_ptr) override {
        SourceLoc b{file_, static_cast<uint32_t>(line), static_cast<uint32_t>(col + 1)};
        SourceLoc e = b;
        if (offending && offending->getType() != antlr4::Token::EOF)
            e.col += static_cast<uint32_t>(offending->getText().size());
        diags_.error(DiagId::syntax_error, SourceRange{b, e}, clean_message(msg));
        ++count_;
    }
    size_t count() const { return count_; }

  private:
    uint32_t file_;
    DiagnosticsEngine& diags_;
    size_t count_ = 0;
};

constexpr int kMaxNesting = 200;

// Deeply nested brackets would overflow the recursive parser and every tree
// walk after it; reject them up front with a located error.
bool check_nesting(uint32_t file, antlr4::CommonTokenStream& tokens, DiagnosticsEngine& diags) {
    int depth = 0;
    for (antlr4::Token* t : tokens.getTokens()) {
        std::string s = t->getText();
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
    return true;
}

}  // namespace

std::unique_ptr<Module> parse_file(uint32_t file, const SourceManager& sources,
                                   DiagnosticsEngine& diags) {
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
    if (!check_nesting(file, tokens, diags)) return nullptr;
    HdsParser parser(&tokens);
    parser.removeErrorListeners();
    parser.addErrorListener(&listener);
    HdsParser::FileContext* tree = parser.file();
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
