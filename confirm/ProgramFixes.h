// The program-level fix of each check: what the lowered loop looks like once
// the finding is fixed, so that --confirm can run the loop as written and as
// fixed. Keyed by check id; a check without one cannot be confirmed.
#pragma once

#include "runtime/LoopProgram.h"

#include <functional>
#include <string>

namespace gradlint {

using ProgramFix = std::function<void(runtime::LoopProgram &)>;

/// The fix registered for `checkId`, or null.
const ProgramFix *programFixFor(const std::string &checkId);

/// Program edits shared by the fixes.
/// Index of the first step() that runs at the boundary (or of any step()).
size_t stepIndex(const runtime::LoopProgram &program);
/// Inserts `op` right before (or after) that step().
void insertAtStep(runtime::LoopProgram &program, runtime::LoopOp op, bool after);
/// Removes the ops for which `remove` is true.
void removeOps(runtime::LoopProgram &program,
               const std::function<bool(const runtime::LoopOp &)> &remove);

} // namespace gradlint
