// The errors Clang reports while parsing a file, and which of them come from
// the bundled API model (a name or header it lacks) rather than from the
// user's code or setup. The file is analysed on the AST Clang recovered
// either way; a model gap is then a note, a user error stays an error.
#pragma once

#include "clang/Basic/Diagnostic.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace gradlint {

struct ParseError {
  std::string message; ///< Clang's text, on one line
  std::string file;    ///< presumed file name of the expansion location ("" when none)
  unsigned line = 0, column = 0;
  bool syntax = false;           ///< a lexer, preprocessor or parser error
  bool undeclaredName = false;   ///< an undeclared identifier or unknown type name
  bool includeNotFound = false;  ///< an #include Clang could not find
  bool mentionsApiModel = false; ///< raised in, or names a declaration of, the API model
};

/// Collects every error (with what classification needs) and prints nothing.
class ParseErrorCollector : public clang::DiagnosticConsumer {
public:
  /// `apiModelDir`: the model's directory when the file is parsed against it, else "".
  explicit ParseErrorCollector(std::string apiModelDir);

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic &info) override;

  std::vector<ParseError> errors;
  bool preambleFailed = false; ///< the cached PCH did not load

private:
  bool inApiModel(const clang::SourceManager &sm, clang::SourceLocation loc);
  bool argumentInApiModel(const clang::Diagnostic &info, unsigned index);

  std::vector<std::string> modelDirs_; ///< as spelled and as its real path
  std::map<std::pair<const clang::SourceManager *, unsigned>, bool> fileInModel_;
};

/// What to report of a file's parse errors.
struct ParseErrorVerdict {
  std::vector<ParseError> userErrors; ///< the user's code or setup: an error (exit 2)
  std::vector<ParseError> modelGaps;  ///< the API model lacks something: a note
};

/// Sorts `errors` into user errors and model gaps. In model mode an error is
/// the model's when it is raised in the model or names one of its
/// declarations, when it is on the line of such an error (a cascade), or when
/// it is an undeclared name and the file already shows the model lacking
/// something (a gap, a placeholder header) or uses a model namespace
/// (`using namespace torch;`). Everything else is the user's.
ParseErrorVerdict classifyParseErrors(const std::vector<ParseError> &errors, bool modelMode,
                                      bool usesModelNamespace, bool placeholderServed);

} // namespace gradlint
