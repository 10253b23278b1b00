// Reads a branch condition as a statement about the accumulation window:
// "(i + 1) % N == 0" holds at the boundary, "i % N == 0" at the window start,
// "++micro == N" when the counter reaches N, through bool flags, helper
// predicates and negations.
#pragma once

#include "model/TrainingLoopModel.h"
#include "model/ValueFacts.h"

#include <optional>

namespace gradlint {

/// A window condition recognised in a guard.
struct WindowPattern {
  GuardForm form = GuardForm::Modulo;
  ResolvedExpr steps; ///< N (absent for `counter == 0`)
  const clang::ValueDecl *counter = nullptr;
  int64_t residue = -1; ///< counter ≡ residue (mod N)
  bool viaFlag = false;
  bool viaHelper = false;
  bool lastBatchExtension = false;
  /// `counter >= N` / `counter > N`: a boundary only if the counter is reset.
  bool threshold = false;
  const clang::Expr *condition = nullptr;
};

/// A guard read as a window pattern: `holds` says whether the pattern is true
/// whenever the guarded code runs (false: the code runs only when it is not).
struct ParsedGuard {
  WindowPattern pattern;
  bool holds = true;
};

/// `negated` is true when the guarded code runs when `condition` is false
/// (else branches, code after `if (cond) continue;`).
std::optional<ParsedGuard> parseGuard(const clang::Expr *condition, const SubstFrame *frame,
                                      bool negated, ValueFacts &facts);

/// N of `(counter + 1) % N` assigned back to the counter (a counter that
/// wraps at N); null for anything else.
const clang::Expr *wrappedIncrementModulus(const clang::Expr *value,
                                           const clang::ValueDecl *counter, ValueFacts &facts);

/// Residue in canonical form: in [0, N) when N is a known constant.
int64_t canonicalResidue(int64_t residue, std::optional<int64_t> steps);

} // namespace gradlint
