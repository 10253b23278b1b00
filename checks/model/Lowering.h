// Lowers a TrainingLoop into a runtime LoopProgram: the same micro-batch
// events, in order, with the conditions they run under, and N and W taken from
// the code when they are constants (else stated defaults).
#pragma once

#include "TrainingLoopModel.h"
#include "ValueFacts.h"

#include "LoopProgram.h"

#include <string>

namespace gradlint {

struct LoweredLoop {
  runtime::LoopProgram program;
  bool stepsFromCode = false;      ///< N is the code's constant (else the default 4)
  bool worldSizeFromCode = false;  ///< W is the code's constant (else 2 when it all-reduces)
  std::string problem;             ///< why it cannot be executed; empty when it can
};

constexpr int kDefaultAccumulationSteps = 4;
constexpr int kDefaultWorldSize = 2;

/// With `facts`, values the code spells as constants are lowered too (a
/// clip's max_norm / clip value); without, the runtime chooses them.
LoweredLoop lowerLoop(const TrainingLoop &loop, const ValueFacts *facts = nullptr);

} // namespace gradlint
