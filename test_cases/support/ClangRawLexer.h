// Clang's raw lexer as an oracle for the prefilter's scanner: the
// identifiers and quoted #include names Clang sees in a text (C++17, no
// trigraphs). Used by unit/driver and the prefilter fuzzer.
#pragma once

#include <set>
#include <string>

namespace gradlint::testing {

struct LexedByClang {
  std::set<std::string> identifiers;
  std::set<std::string> quotedIncludes;
  /// False when the raw lexer's tokens stop being the preprocessor's (a
  /// quoted header name with a backslash): nothing after it was seen.
  bool reliable = true;
};

/// Identifiers (spelled after splicing) and `#include "x"` names, as Clang's
/// raw lexer reads `text`.
LexedByClang lexWithClang(const std::string &text);

} // namespace gradlint::testing
