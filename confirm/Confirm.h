// gradlint --confirm: runs a diagnosed loop on the reference runtime as
// written and with the check's fix, against the large-batch reference, and
// derives the verdict from the measured numbers.
#pragma once

#include "confirm/Confirmation.h"
#include "confirm/Lowering.h"

#include "runtime/kernels/Backend.h"

#include <string>
#include <vector>

namespace gradlint {

/// `firing` are the ids of all the checks with findings in this loop: the loop
/// "as written" is measured with the other checks' program fixes applied, so
/// the numbers show the diagnosed bug alone; "with the fix" has every fix
/// applied. With traceSteps > 0 the parameter error over that many optimizer
/// steps is recorded as well (for --plot).
Confirmation confirmDiagnosis(const LoweredLoop &lowered, const std::vector<std::string> &firing,
                              const std::string &diagnosed, const runtime::Backend &backend,
                              const std::string &backendName, int traceSteps = 0);

} // namespace gradlint
