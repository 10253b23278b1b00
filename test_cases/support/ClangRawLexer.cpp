#include "test_cases/support/ClangRawLexer.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace gradlint::testing {

LexedByClang lexWithClang(const std::string &text) {
  // A UTF-16 or UTF-32 byte order mark: Clang refuses the file; nothing to see.
  if (clang::SrcMgr::ContentCache::getInvalidBOM(text))
    return {};
  clang::SourceManagerForFile file("input.cpp", text);
  clang::SourceManager &sources = file.get();
  clang::LangOptions options;
  options.CPlusPlus = options.CPlusPlus11 = options.CPlusPlus14 = options.CPlusPlus17 = true;
  options.Digraphs = true;
  clang::Lexer lexer(sources.getMainFileID(), sources.getBufferOrFake(sources.getMainFileID()),
                     sources, options);
  LexedByClang out;
  clang::Token token;
  // Where the line is: after '#', right after an include directive's name,
  // inside an angled header name (`<step>` is no identifier to the preprocessor).
  bool directiveStart = false, headerNameNext = false, inAngledName = false;
  // LexFromRawLexer returns true with the last token: that one counts too.
  for (bool last = false; !last;) {
    last = lexer.LexFromRawLexer(token);
    if (token.is(clang::tok::eof))
      break;
    std::string spelling = clang::Lexer::getSpelling(token, sources, options);
    if (token.isAtStartOfLine())
      directiveStart = headerNameNext = inAngledName = false;
    bool isIdentifier = token.is(clang::tok::raw_identifier);
    // The preprocessor's angled header name runs from '<' to the first '>'
    // character, whatever tokens the raw lexer makes of it (`<%step>` is no
    // digraph there, and `%>` ends it).
    if (inAngledName) {
      size_t end = spelling.find('>');
      if (end != std::string::npos) {
        inAngledName = false;
        if (end + 1 != spelling.size() && !clang::tok::getPunctuatorSpelling(token.getKind())) {
          // It ends inside a literal or an unknown token (`R">"step`): the
          // preprocessor lexes what follows the '>' afresh, this lexer did not.
          out.reliable = false;
          return out;
        }
      }
      continue;
    }
    if (headerNameNext) {
      headerNameNext = false;
      if (!spelling.empty() && spelling[0] == '<') {
        inAngledName = spelling.find('>') == std::string::npos;
        continue;
      }
      // A header name has no escapes ("a\"b" is the name a\ then b"), and
      // "x"h lexes as one literal with a suffix: up to the closing quote.
      if (token.is(clang::tok::string_literal)) {
        if (spelling.find('\\') != std::string::npos) {
          // The preprocessor's header name ends at the first quote, and the
          // tokens after it differ from this raw lexer's from here on.
          out.reliable = false;
          return out;
        }
        out.quotedIncludes.insert(spelling.substr(1, spelling.rfind('"') - 1));
        continue;
      }
    }
    if (isIdentifier)
      out.identifiers.insert(spelling);
    headerNameNext = directiveStart && isIdentifier &&
                     (spelling == "include" || spelling == "import" || spelling == "include_next");
    directiveStart = token.is(clang::tok::hash) && token.isAtStartOfLine();
  }
  return out;
}

} // namespace gradlint::testing
