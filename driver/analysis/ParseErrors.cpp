#include "driver/analysis/ParseErrors.h"

#include "driver/cache/PreambleCache.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclBase.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/NestedNameSpecifier.h"
#include "clang/AST/Type.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace gradlint {

namespace {

bool isSyntaxError(unsigned id) {
  llvm::StringRef category = clang::DiagnosticIDs::getCategoryNameFromID(
      clang::DiagnosticIDs::getCategoryNumberForDiag(id));
  return category == "Parse Issue" || category == "Lexical or Preprocessor Issue";
}

bool isUndeclaredName(unsigned id) {
  namespace diag = clang::diag;
  return id == diag::err_undeclared_var_use || id == diag::err_undeclared_var_use_suggest ||
         id == diag::err_unknown_typename || id == diag::err_unknown_typename_suggest ||
         id == diag::err_undeclared_use || id == diag::err_no_template ||
         id == diag::err_no_template_suggest || id == diag::err_undeclared_use_suggest;
}

/// The declaration a type names, if any.
const clang::Decl *declOfType(clang::QualType type) {
  if (type.isNull())
    return nullptr;
  if (const auto *tag = type->getAsTagDecl())
    return tag;
  if (const auto *typedefType = type->getAs<clang::TypedefType>())
    return typedefType->getDecl();
  if (const auto *specialization = type->getAs<clang::TemplateSpecializationType>())
    return specialization->getTemplateName().getAsTemplateDecl();
  return nullptr;
}

} // namespace

ParseErrorCollector::ParseErrorCollector(std::string apiModelDir) {
  if (apiModelDir.empty())
    return;
  llvm::SmallString<256> spelled(apiModelDir);
  llvm::sys::path::remove_dots(spelled, true);
  modelDirs_.push_back(std::string(spelled) + "/");
  llvm::SmallString<256> real;
  if (!llvm::sys::fs::real_path(apiModelDir, real) && real != spelled)
    modelDirs_.push_back(std::string(real) + "/");
}

bool ParseErrorCollector::inApiModel(const clang::SourceManager &sm, clang::SourceLocation loc) {
  if (modelDirs_.empty() || loc.isInvalid())
    return false;
  clang::FileID file = sm.getFileID(sm.getSpellingLoc(loc));
  auto [entry, added] = fileInModel_.try_emplace({&sm, file.getHashValue()}, false);
  if (added) {
    llvm::StringRef name = sm.getFilename(sm.getSpellingLoc(loc));
    for (const std::string &dir : modelDirs_)
      entry->second = entry->second || name.starts_with(dir);
  }
  return entry->second;
}

bool ParseErrorCollector::argumentInApiModel(const clang::Diagnostic &info, unsigned index) {
  const clang::SourceManager &sm = info.getSourceManager();
  const clang::Decl *decl = nullptr;
  switch (info.getArgKind(index)) {
  case clang::DiagnosticsEngine::ak_nameddecl:
    decl = reinterpret_cast<const clang::NamedDecl *>(info.getRawArg(index));
    break;
  case clang::DiagnosticsEngine::ak_declcontext:
    decl = clang::Decl::castFromDeclContext(
        reinterpret_cast<const clang::DeclContext *>(info.getRawArg(index)));
    break;
  case clang::DiagnosticsEngine::ak_qualtype:
    decl = declOfType(
        clang::QualType::getFromOpaquePtr(reinterpret_cast<void *>(info.getRawArg(index))));
    break;
  case clang::DiagnosticsEngine::ak_nestednamespec: {
    const auto *specifier =
        reinterpret_cast<const clang::NestedNameSpecifier *>(info.getRawArg(index));
    if (specifier && specifier->getAsNamespace())
      decl = specifier->getAsNamespace();
    else if (specifier && specifier->getAsType())
      decl = declOfType(clang::QualType(specifier->getAsType(), 0));
    break;
  }
  default: break;
  }
  // A namespace is reopened in many files: any of its declarations counts.
  if (const auto *ns = llvm::dyn_cast_or_null<clang::NamespaceDecl>(decl)) {
    for (const clang::NamespaceDecl *part : ns->redecls())
      if (inApiModel(sm, part->getLocation()))
        return true;
    return false;
  }
  return decl && inApiModel(sm, decl->getLocation());
}

void ParseErrorCollector::HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                                           const clang::Diagnostic &info) {
  clang::DiagnosticConsumer::HandleDiagnostic(level, info);
  if (level >= clang::DiagnosticsEngine::Error && isPreambleLoadFailure(info.getID()))
    preambleFailed = true;
  // A note right after an error may point into the model (a candidate
  // declaration that did not match): the error is then the model's.
  if (level == clang::DiagnosticsEngine::Note && !errors.empty() && info.hasSourceManager() &&
      inApiModel(info.getSourceManager(), info.getLocation()))
    errors.back().mentionsApiModel = true;
  if (level < clang::DiagnosticsEngine::Error)
    return;
  ParseError error;
  llvm::SmallString<256> text;
  info.FormatDiagnostic(text);
  error.message = std::string(text.str());
  for (char &c : error.message)
    if (c == '\n')
      c = ' ';
  error.syntax = isSyntaxError(info.getID());
  error.undeclaredName = isUndeclaredName(info.getID());
  error.includeNotFound = info.getID() == clang::diag::err_pp_file_not_found;
  if (info.hasSourceManager() && info.getLocation().isValid()) {
    const clang::SourceManager &sm = info.getSourceManager();
    clang::PresumedLoc presumed = sm.getPresumedLoc(sm.getExpansionLoc(info.getLocation()));
    if (presumed.isValid()) {
      error.file = presumed.getFilename();
      error.line = presumed.getLine();
      error.column = presumed.getColumn();
    }
    error.mentionsApiModel = inApiModel(sm, info.getLocation());
    for (unsigned index = 0; index < info.getNumArgs() && !error.mentionsApiModel; ++index)
      error.mentionsApiModel = argumentInApiModel(info, index);
  }
  errors.push_back(std::move(error));
}

ParseErrorVerdict classifyParseErrors(const std::vector<ParseError> &errors, bool modelMode,
                                      bool usesModelNamespace, bool placeholderServed) {
  ParseErrorVerdict verdict;
  if (!modelMode) {
    verdict.userErrors = errors;
    return verdict;
  }
  std::set<std::pair<std::string, unsigned>> gapLines;
  bool gapSeen = placeholderServed;
  for (const ParseError &error : errors)
    if (error.mentionsApiModel) {
      gapLines.insert({error.file, error.line});
      gapSeen = true;
    }
  for (const ParseError &error : errors) {
    bool cascade = error.line != 0 && gapLines.count({error.file, error.line});
    bool modelsName = error.undeclaredName && (gapSeen || usesModelNamespace);
    if (error.mentionsApiModel || cascade || modelsName)
      verdict.modelGaps.push_back(error);
    else
      verdict.userErrors.push_back(error);
  }
  return verdict;
}

} // namespace gradlint
