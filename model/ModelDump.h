// A readable dump of the training-loop model (gradlint --dump-model).
#pragma once

#include "model/TrainingLoopModel.h"
#include "model/ValueFacts.h"

#include "llvm/Support/raw_ostream.h"

namespace gradlint {

void dumpModel(const TrainingLoopModel &model, const ValueFacts &facts, llvm::raw_ostream &out);

} // namespace gradlint
