// Decides cheaply, without parsing, that a translation unit cannot contain a
// training loop, so that its full parse can be skipped.
//
// Every loop the model reports has an optimizer step() and a backward() call
// in user code (ModelBuilder drops a scope without a Step event, and one
// without a Backward event at either nesting level). Both are found by name,
// so a TU whose main file, project headers and -D macros lack the identifier
// token `step` or the identifier token `backward` has no loop and no finding.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace gradlint {

/// What one file contributes: the two identifiers, the pieces token pasting
/// (`##`, here or in a macro of a header) could join into them, and its
/// #include lines.
struct ScannedFile {
  bool hasStep = false;
  bool hasBackward = false;
  bool computedInclude = false; ///< `#include MACRO`: cannot be followed
  /// Text whose tokens depend on Clang's mode or on what it makes of a
  /// non-ASCII character (an identifier character or not) right before a
  /// string prefix; or a number whose exponent sign some modes take.
  bool unclear = false;
  /// Identifiers that are proper substrings of "step" or "backward", as
  /// which of those substrings (bit i*16+j: "step" or "backward" [i, j)).
  uint64_t stepPieces = 0, backwardPieces = 0;
  struct Include {
    std::string name;
    bool angled = false;
  };
  std::vector<Include> includes;
};

/// Tokenizes C++ text just enough: comments, string/char literals (raw ones
/// too) and pp-numbers are skipped, identifiers and #include lines are kept.
/// Reads the text as Clang's first two translation phases leave it: CR and
/// CRLF line endings are newlines, and backslash-newline splices (with
/// spaces before the newline, or spelled `??/` as a trigraph) are removed.
/// `%:` is `#`.
ScannedFile scanSource(llvm::StringRef text);

/// Whether `word` can be spelled by pasting two or more of `pieces` (bit
/// i*16+j: word[i, j)).
bool pastable(llvm::StringRef word, uint64_t pieces);

class Prefilter {
public:
  /// Whether `mainFile` (absolute, with `contents`) may contain a training
  /// loop when compiled with `args` in `directory`. Follows the project
  /// headers it includes (quoted ones, and angled ones found through -I),
  /// transitively, up to a cap; anything it cannot follow counts as "may".
  /// Thread-safe; header scans are shared between calls.
  bool mayContainTrainingLoop(const std::string &mainFile, llvm::StringRef contents,
                              const std::vector<std::string> &args, const std::string &directory);

  static constexpr size_t kMaxHeaders = 256;

private:
  /// The scan of a header on disk; null when it cannot be read.
  const ScannedFile *scanHeader(const std::string &path);

  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<ScannedFile>> headers_;
};

} // namespace gradlint
