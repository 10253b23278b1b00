// The program-level fixes a check's confirmation plan names
// (ConfirmationPlan::SummaryFix): what the lowered loop looks like once the
// finding is fixed, for a finding without a fix-it.
#pragma once

#include "checks/ConfirmationPlan.h"
#include "runtime/LoopProgram.h"

#include <functional>
#include <string>

namespace gradlint {

using ProgramFix = std::function<void(runtime::LoopProgram &)>;

/// The edit that implements `fix`, or null for SummaryFix::None.
const ProgramFix *programFixFor(ConfirmationPlan::SummaryFix fix);

/// Program edits shared by the fixes.
/// Index of the first step() that runs at the boundary (or of any step()).
size_t stepIndex(const runtime::LoopProgram &program);
/// Inserts `op` right before (or after) that step().
void insertAtStep(runtime::LoopProgram &program, runtime::LoopOp op, bool after);
/// Removes the ops for which `remove` is true.
void removeOps(runtime::LoopProgram &program,
               const std::function<bool(const runtime::LoopOp &)> &remove);

} // namespace gradlint
