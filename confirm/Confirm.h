// gradlint --confirm: runs a diagnosed loop on the reference runtime as
// written and with the check's fix, against the large-batch reference, and
// derives the verdict from the measured numbers.
#pragma once

#include "checks/ConfirmationPlan.h"
#include "confirm/Confirmation.h"
#include "confirm/interpreter/LoopCode.h"

#include "runtime/kernels/Backend.h"

#include <memory>
#include <string>
#include <vector>

namespace gradlint {

/// The code a finding is confirmed on.
struct FindingCode {
  /// The loop as written (with the loop's other findings' fix-its applied,
  /// when it has several), translated from its AST.
  std::shared_ptr<const interp::LoopCode> asWritten;
  /// The same with this finding's fix-it applied in memory and re-parsed;
  /// null when there is none (then `noFix` says why).
  std::shared_ptr<const interp::LoopCode> fixed;
  std::string noFix;
  /// The program-level fixes of the loop's other findings that have no
  /// fix-it: both runs apply them, so that the numbers show this finding alone.
  std::vector<ConfirmationPlan::ProgramFix> otherFixes;
  /// The finding's line: where the code takes a path the interpreter cannot
  /// decide, the run takes the one through it.
  unsigned line = 0;
};

/// Runs the loop's own code as written and with the finding's fix-it against
/// the large-batch reference with the code's optimizer: `confirmed` when the
/// loop as written departs from it and the fixed loop matches it,
/// `not-confirmed` when the loop as written matches it (with the reason),
/// `not-executable` when the code cannot be run (with the reason). Without a
/// fix-it, the fixed side is the same code run with the check's program-level
/// fix (ConfirmationPlan::ProgramFix, applied by the interpreter as it
/// executes), labelled so.
Confirmation confirmFinding(const FindingCode &code, const std::vector<ConfirmationPlan> &firing,
                            const ConfirmationPlan &diagnosed, const runtime::Backend &backend,
                            const std::string &backendName, int traceSteps = 0);

/// One line on what the confirmation ran on and assumed, for the outputs.
std::string confirmationContext(const Confirmation &confirmation);

} // namespace gradlint
