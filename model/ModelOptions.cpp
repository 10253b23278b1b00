#include "model/ModelOptions.h"

#include "model/ApiCalls.h"

#include "clang/AST/DeclCXX.h"

namespace gradlint {

bool ModelOptions::operator==(const ModelOptions &other) const {
  return gradientSyncFunctions == other.gradientSyncFunctions &&
         optimizerWrappers == other.optimizerWrappers &&
         accumulationStepNames == other.accumulationStepNames &&
         worldSizeNames == other.worldSizeNames;
}

bool ModelOptions::empty() const {
  return gradientSyncFunctions.empty() && optimizerWrappers.empty() &&
         accumulationStepNames.empty() && worldSizeNames.empty();
}

const std::vector<std::string> &ModelOptions::optionNames() {
  static const std::vector<std::string> names = {"GradientSyncFunctions", "OptimizerWrappers",
                                                 "AccumulationStepNames", "WorldSizeNames"};
  return names;
}

std::vector<std::string> *ModelOptions::list(const std::string &optionName) {
  if (optionName == "GradientSyncFunctions")
    return &gradientSyncFunctions;
  if (optionName == "OptimizerWrappers")
    return &optimizerWrappers;
  if (optionName == "AccumulationStepNames")
    return &accumulationStepNames;
  if (optionName == "WorldSizeNames")
    return &worldSizeNames;
  return nullptr;
}

std::vector<std::string> splitNameList(llvm::StringRef text) {
  std::vector<std::string> names;
  std::string current;
  auto flush = [&] {
    llvm::StringRef trimmed = llvm::StringRef(current).trim();
    if (!trimmed.empty())
      names.push_back(trimmed.str());
    current.clear();
  };
  for (char c : text) {
    if (c == ';' || c == ',')
      flush();
    else
      current += c;
  }
  flush();
  return names;
}

bool declMatchesName(const clang::NamedDecl *decl, llvm::StringRef pattern) {
  if (!decl)
    return false;
  pattern.consume_front("::");
  std::string qualified = qualifiedName(decl);
  llvm::StringRef name = qualified;
  if (name == pattern)
    return true;
  // A suffix that starts at a scope boundary: "ns::f" in "outer::ns::f".
  return name.size() > pattern.size() + 2 && name.ends_with(pattern) &&
         name.drop_back(pattern.size()).ends_with("::");
}

namespace {

bool anyMatches(const clang::NamedDecl *decl, const std::vector<std::string> &patterns) {
  for (const std::string &pattern : patterns)
    if (declMatchesName(decl, pattern))
      return true;
  return false;
}

} // namespace

bool ModelOptions::isGradientSyncFunction(const clang::FunctionDecl *function) const {
  return anyMatches(function, gradientSyncFunctions);
}

bool ModelOptions::isGradientSyncFunctionName(llvm::StringRef name) const {
  for (llvm::StringRef pattern : gradientSyncFunctions) {
    size_t scope = pattern.rfind("::");
    if ((scope == llvm::StringRef::npos ? pattern : pattern.drop_front(scope + 2)) == name)
      return true;
  }
  return false;
}

bool ModelOptions::isOptimizerWrapper(const clang::CXXRecordDecl *record) const {
  if (!record || optimizerWrappers.empty())
    return false;
  record = record->getDefinition() ? record->getDefinition() : record;
  if (anyMatches(record, optimizerWrappers))
    return true;
  if (!record->hasDefinition())
    return false;
  for (const clang::CXXBaseSpecifier &base : record->bases())
    if (isOptimizerWrapper(base.getType()->getAsCXXRecordDecl()))
      return true;
  return false;
}

bool ModelOptions::isAccumulationStepsDecl(const clang::ValueDecl *decl) const {
  return anyMatches(decl, accumulationStepNames);
}

bool ModelOptions::isWorldSizeDecl(const clang::ValueDecl *decl) const {
  return anyMatches(decl, worldSizeNames);
}

} // namespace gradlint
