// Builds the TrainingLoopModel of a translation unit from its Clang AST.
#pragma once

#include "model/TrainingLoopModel.h"
#include "model/ValueFacts.h"

#include "clang/AST/ASTContext.h"

#include <memory>

namespace gradlint {

class ModelBuilder {
public:
  explicit ModelBuilder(clang::ASTContext &context, const ModelOptions &options = {});
  ~ModelBuilder();

  /// Analyses every function and loop of the user's code in the TU.
  TrainingLoopModel build();

  /// The value facts the model was built with (checks use them to describe values).
  const ValueFacts &facts() const;
  /// For readers that follow callbacks (confirm/interpreter), which memoise.
  ValueFacts &facts();

  /// For tests: analyse one loop statement or one function body (its first
  /// training loop when it holds one per optimizer).
  std::optional<TrainingLoop> analyseLoop(const clang::Stmt *loop,
                                          const clang::FunctionDecl *function);
  std::optional<TrainingLoop> analyseStepFunction(const clang::FunctionDecl *function);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace gradlint
