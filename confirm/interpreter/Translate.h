// Translates a training loop's own code (the function that holds it and every
// helper, member function and lambda it calls in the translation unit) into a
// LoopCode the interpreter runs.
#pragma once

#include "confirm/interpreter/LoopCode.h"

#include "model/TrainingLoopModel.h"
#include "model/ValueFacts.h"

#include "clang/AST/ASTContext.h"

#include <memory>

namespace gradlint::interp {

std::shared_ptr<const LoopCode> translateLoop(const TrainingLoop &loop, ValueFacts &facts);

} // namespace gradlint::interp
