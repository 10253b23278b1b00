// gradlint --confirm: runs a diagnosed loop on the reference runtime as
// written and with the check's fix, against the large-batch reference, and
// derives the verdict from the measured numbers.
#pragma once

#include "Diagnostics.h"

#include "Check.h"
#include "kernels/Backend.h"

namespace gradlint {

/// `firing` are all the checks with findings in this loop: the loop "as
/// written" is measured with the other checks' fixes applied, so the numbers
/// show the diagnosed bug alone; "with the fix" has every fix applied.
/// With traceSteps > 0 the parameter error over that many optimizer steps is
/// recorded as well (for --plot).
Confirmation confirmDiagnosis(const TrainingLoop &loop, const std::vector<const Check *> &firing,
                              const Check &diagnosed, const runtime::Backend &backend,
                              const std::string &backendName, int traceSteps = 0);

} // namespace gradlint
