// What `--confirm` runs and measures for a check's findings. Each check
// declares its plan (Check::confirmation()); confirm/ reads only the plan, so
// a new check is confirmed without an edit there. Plain data: no Clang, no
// runtime.
#pragma once

#include <string>

namespace gradlint {

struct ConfirmationPlan {
  /// The run that shows the effect.
  enum class Run {
    /// Windows of N micro-batches: the applied gradient, the update and the
    /// parameters after each window against the large-batch reference.
    Windows,
    /// Whole epochs whose last window is short: where each micro-batch's
    /// gradient went (stepped, discarded, left over) against the reference
    /// that steps the short window too.
    Epochs,
    /// The loop as written with gradients in their own half-precision type
    /// against the same loop in float32.
    HalfPrecision,
  };
  /// The fix the interpreter applies to the loop's own code as it runs, when
  /// a finding has no fix-it (confirm/interpreter/Execute.cpp implements each).
  enum class ProgramFix {
    None,
    ResetRightAfterStep,  ///< gradient resets move to right after step()
    DivideLossBySteps,    ///< every micro-batch's loss is divided by N
    ClipAtBoundary,       ///< the clip moves to the boundary, before step()
    SyncAtBoundary,       ///< the all-reduce (and its / W) moves to the boundary
    AverageOverRanksOnce, ///< one averaging over W ranks remains
  };

  std::string check; ///< the check's id (filled in by the registry)
  Run run = Run::Windows;
  ProgramFix programFix = ProgramFix::None;
  /// The finding is about the gradient's scale (a missing or extra 1/N or
  /// 1/W, a double count): the reference keeps the large-batch scale exactly
  /// and takes no constant factor of the loss from the fixed loop.
  bool aboutGradientScale = false;
  /// The finding is an optimizer option divided by N (the learning rate, the
  /// weight decay): the reference runs it undivided, also where the run
  /// divided a stand-in value because the code's own value is not read.
  bool aboutOptimizerOptions = false;
  /// Also state the applied gradient as weights per micro-batch of the
  /// window (how many times each one was counted).
  bool weighsMicroBatches = false;
  /// The effect is communication (all-reduces per step), not values: the
  /// figure and the plot show the traffic when the values match.
  bool countsAllReduces = false;
};

} // namespace gradlint
