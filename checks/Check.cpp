#include "checks/Check.h"

namespace gradlint {

unsigned CheckContext::line(clang::SourceLocation loc) const {
  return sourceManager().getExpansionLineNumber(loc);
}

std::string describeSteps(const TrainingLoop &loop) {
  if (!loop.window)
    return "N = 1";
  std::string described = loop.window->steps.describe();
  // A variable named N needs no "N = N".
  if (described.rfind("N = ", 0) == 0 || described == "N")
    return described;
  return "N = " + described;
}

FindingNote windowNote(const TrainingLoop &loop, const CheckContext &context) {
  const AccumulationWindow &window = *loop.window;
  const TrainingEvent *step = loop.boundaryStep();
  std::string stepAt =
      step ? "step() at line " + std::to_string(context.line(step->loc)) : "step()";
  std::string message;
  if (window.guard.form == GuardForm::NestedLoop) {
    message = "accumulation window: this inner loop runs backward() on " + describeSteps(loop) +
              " micro-batches; " + stepAt + " runs after it";
  } else {
    std::string condition = context.text(window.guard.condition);
    message = "accumulation window: " + stepAt + " runs once every " + describeSteps(loop) +
              " micro-batches";
    if (!condition.empty())
      message += window.guard.viaEarlyContinue
                     ? ", past the early exit taken when '" + condition + "'"
                     : ", when '" + condition + "'";
    if (window.guard.lastBatchExtension)
      message += " (or at the last batch)";
  }
  return {window.guard.loc.isValid() ? window.guard.loc : loop.loc, message};
}

} // namespace gradlint
