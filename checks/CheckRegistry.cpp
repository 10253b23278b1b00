// One line per check. The ids are documented in rules/<id>.md.
#include "DoubleWorldSizeScalingCheck.h"
#include "MisplacedZeroGradCheck.h"
#include "MissingLossDivisionCheck.h"
#include "PerMicroBatchClipCheck.h"
#include "UnguardedGradSyncCheck.h"

namespace gradlint {

namespace {
template <typename CheckType> CheckFactory entry(const char *id) {
  return {id, [id] { return std::make_unique<CheckType>(id); }};
}
} // namespace

const std::vector<CheckFactory> &allChecks() {
  static const std::vector<CheckFactory> checks = {
      entry<MisplacedZeroGradCheck>("accum-misplaced-zero-grad"),
      entry<MissingLossDivisionCheck>("accum-missing-loss-division"),
      entry<PerMicroBatchClipCheck>("accum-per-micro-batch-clip"),
      entry<UnguardedGradSyncCheck>("accum-unguarded-grad-sync"),
      entry<DoubleWorldSizeScalingCheck>("accum-double-world-size-scaling"),
  };
  return checks;
}

} // namespace gradlint
