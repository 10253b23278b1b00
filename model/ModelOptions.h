// What the user tells gradlint about their own code (.gradlint.yaml
// CheckOptions, or clang-tidy's CheckOptions for the plugin): helpers whose
// bodies gradlint cannot see, and names that mean N or W.
#pragma once

#include "clang/AST/Decl.h"

#include <string>
#include <vector>

namespace gradlint {

struct ModelOptions {
  /// Functions that all-reduce the gradients ("sync_gradients", "dist::average_grads").
  std::vector<std::string> gradientSyncFunctions;
  /// Classes whose step() and zero_grad() are an optimizer's ("Trainer", "amp::Scaler").
  std::vector<std::string> optimizerWrappers;
  /// Variables, parameters and fields that hold the accumulation steps N.
  std::vector<std::string> accumulationStepNames;
  /// Variables, parameters and fields that hold the world size W.
  std::vector<std::string> worldSizeNames;

  bool operator==(const ModelOptions &other) const;
  bool operator!=(const ModelOptions &other) const { return !(*this == other); }
  bool empty() const;

  /// The option names, as written in configuration files.
  static const std::vector<std::string> &optionNames();
  /// The list an option name stands for; null for an unknown name.
  std::vector<std::string> *list(const std::string &optionName);

  bool isGradientSyncFunction(const clang::FunctionDecl *function) const;
  /// A call by name only (inside a template, where the callee is dependent).
  bool isGradientSyncFunctionName(llvm::StringRef name) const;
  bool isOptimizerWrapper(const clang::CXXRecordDecl *record) const;
  bool isAccumulationStepsDecl(const clang::ValueDecl *decl) const;
  bool isWorldSizeDecl(const clang::ValueDecl *decl) const;
};

/// "a;b, c" -> {"a", "b", "c"}: the list syntax of clang-tidy's CheckOptions.
std::vector<std::string> splitNameList(llvm::StringRef text);

/// Whether a declaration's qualified name matches `pattern`: an unqualified
/// pattern matches the name in any scope; "ns::f" matches ns::f and outer::ns::f.
bool declMatchesName(const clang::NamedDecl *decl, llvm::StringRef pattern);

} // namespace gradlint
