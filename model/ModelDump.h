// A readable dump of the training-loop model (gradlint --dump-model).
#pragma once

#include "model/TrainingLoopModel.h"
#include "model/ValueFacts.h"

#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <string>

namespace gradlint {

/// Lines the caller adds under each loop's window and world size (the driver
/// adds the lowered program); written as given, may be empty.
using LoopAnnotation = std::function<std::string(const TrainingLoop &)>;

void dumpModel(const TrainingLoopModel &model, const ValueFacts &facts, llvm::raw_ostream &out,
               const LoopAnnotation &annotate = {});

} // namespace gradlint
