// Lowers a TrainingLoop into a runtime LoopProgram: the same micro-batch
// events, in order, with the conditions they run under, and N and W taken from
// the code when they are constants (else stated defaults).
#pragma once

#include "model/TrainingLoopModel.h"

#include "runtime/LoopProgram.h"

#include <string>

namespace gradlint {

struct LoweredLoop {
  runtime::LoopProgram program;
  bool stepsFromCode = false;     ///< N is the code's constant (else the default 4)
  bool worldSizeFromCode = false; ///< W is the code's constant (else 2 when it all-reduces)
  std::string problem;            ///< why it cannot be executed; empty when it can
};

/// Reads the model alone: a clip's limit is the one the model found in the
/// code (else the runtime chooses one).
LoweredLoop lowerLoop(const TrainingLoop &loop);

} // namespace gradlint
