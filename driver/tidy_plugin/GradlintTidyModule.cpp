// clang-tidy plugin: the gradlint checks as clang-tidy checks.
//
//   clang-tidy-19 -load=build/lib/libGradlintTidy.so -checks='-*,accum-*' file.cpp -- ...
//
// Each check builds the same training-loop model as the gradlint CLI and runs
// the same check code; findings, notes and fix-its go through clang-tidy's
// diagnostics, so NOLINT, --fix and .clang-tidy work as for any other check.
// CheckOptions take .gradlint.yaml's option names, per check or global.
#include "checks/Check.h"
#include "model/ModelBuilder.h"
#include "model/UserCode.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyModuleRegistry.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

namespace gradlint {
namespace {

/// Diagnostic text is a format string for clang: a '%' in a message (a guard
/// such as `i % N == N - 1`) must be doubled.
std::string escapeFormat(const std::string &text) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '%')
      out += '%';
  }
  return out;
}

/// clang's fix-it merging (EditedSource::adjustRemoval) widens a pure removal by
/// one character when the text after it starts with a space: removing a whole
/// line "  stmt;\n" before an indented line of code would eat one space of that
/// line's indentation. The same removal written one character earlier,
/// "\n  stmt;", leaves the same text and is not widened.
clang::CharSourceRange removalClangKeepsExact(const SourceEdit &edit,
                                              const clang::SourceManager &sm) {
  if (!edit.replacement.empty() || !edit.range.isCharRange())
    return edit.range;
  auto [file, begin] = sm.getDecomposedLoc(edit.range.getBegin());
  auto [endFile, end] = sm.getDecomposedLoc(edit.range.getEnd());
  bool invalid = false;
  llvm::StringRef text = sm.getBufferData(file, &invalid);
  if (invalid || file != endFile || begin == 0 || end <= begin || end >= text.size())
    return edit.range;
  bool wholeLines = text[begin - 1] == '\n' && text[end - 1] == '\n';
  if (!wholeLines || (text[end] != ' ' && text[end] != '\t'))
    return edit.range;
  return clang::CharSourceRange::getCharRange(edit.range.getBegin().getLocWithOffset(-1),
                                              edit.range.getEnd().getLocWithOffset(-1));
}

/// The unit clang-tidy is matching, as the accum-* checks share it: one model
/// per set of model options (built by the first check that needs it, not once
/// per check), and the unit's traversal scope.
///
/// The model asks for parents, and a parent map of the whole unit walks (and
/// loads from a precompiled <torch/torch.h>) every LibTorch declaration: about
/// 0.7 s per file that the model never reads, since it skips library code. As
/// in the CLI, the scope is narrowed to the user's top-level declarations
/// while a check runs. It stays narrowed when every enabled check is ours, so
/// that clang-tidy's own matcher walk skips the library too; otherwise it is
/// restored after each check, for the other checks' matchers. It is restored at
/// the end of the unit for whatever runs after the matchers (clang-analyzer-*).
class UnitState {
public:
  struct Model {
    ModelOptions options;
    std::unique_ptr<ModelBuilder> builder;
    TrainingLoopModel model;
  };

  /// Called by every check before clang-tidy walks a unit: forgets the last one.
  void startUnit() {
    models_.clear();
    context_ = nullptr;
    userDecls_.clear();
  }

  /// Narrows the traversal scope of the unit to the user's declarations.
  void narrow(clang::ASTContext &context) {
    if (context_ != &context) {
      startUnit();
      context_ = &context;
      for (clang::Decl *decl : context.getTranslationUnitDecl()->decls())
        if (isUserCode(context.getSourceManager(), decl->getLocation()))
          userDecls_.push_back(decl);
    }
    context.setTraversalScope(userDecls_);
  }

  /// The model of the unit, which narrow() was called on, for these options.
  Model &model(const ModelOptions &options) {
    for (const std::unique_ptr<Model> &built : models_)
      if (built->options == options)
        return *built;
    auto built = std::make_unique<Model>();
    built->options = options;
    built->builder = std::make_unique<ModelBuilder>(*context_, built->options);
    built->model = built->builder->build();
    models_.push_back(std::move(built));
    return *models_.back();
  }

  void restore() {
    if (context_)
      context_->setTraversalScope({context_->getTranslationUnitDecl()});
  }

  void endUnit() {
    restore();
    startUnit();
  }

private:
  clang::ASTContext *context_ = nullptr;
  std::vector<clang::Decl *> userDecls_;
  std::vector<std::unique_ptr<Model>> models_;
};

UnitState &unitState() {
  thread_local UnitState state;
  return state;
}

class GradlintTidyCheck : public clang::tidy::ClangTidyCheck {
public:
  GradlintTidyCheck(llvm::StringRef name, clang::tidy::ClangTidyContext *context,
                    const CheckFactory &factory, bool onlyGradlintChecks)
      : ClangTidyCheck(name, context), factory_(factory), onlyGradlintChecks_(onlyGradlintChecks) {
    // The same option names as .gradlint.yaml, local to the check or global.
    for (const std::string &option : ModelOptions::optionNames())
      *modelOptions_.list(option) =
          splitNameList(Options.getLocalOrGlobal(option, llvm::StringRef()));
    // Read as a string: clang-tidy's binary exports only the StringRef getter.
    std::string inconclusive =
        Options.getLocalOrGlobal("Inconclusive", llvm::StringRef("false")).lower();
    inconclusive_ = inconclusive == "true" || inconclusive == "1" || inconclusive == "yes";
  }

  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &options) override {
    for (const std::string &option : ModelOptions::optionNames()) {
      std::string joined;
      for (const std::string &name : *modelOptions_.list(option))
        joined += (joined.empty() ? "" : ";") + name;
      Options.store(options, option, joined);
    }
    Options.store(options, "Inconclusive", inconclusive_ ? "true" : "false");
  }

  bool isLanguageVersionSupported(const clang::LangOptions &options) const override {
    return options.CPlusPlus;
  }

  void registerMatchers(clang::ast_matchers::MatchFinder *finder) override {
    finder->addMatcher(clang::ast_matchers::translationUnitDecl().bind("unit"), this);
  }

  void onStartOfTranslationUnit() override { unitState().startUnit(); }
  void onEndOfTranslationUnit() override { unitState().endUnit(); }

  void check(const clang::ast_matchers::MatchFinder::MatchResult &result) override {
    clang::ASTContext &context = *result.Context;
    UnitState &state = unitState();
    state.narrow(context);
    UnitState::Model &unit = state.model(modelOptions_);
    std::unique_ptr<Check> check = factory_.create();
    std::vector<Finding> findings;
    CheckContext checkContext(unit.builder->facts(), findings);
    for (const TrainingLoop &loop : unit.model.loops)
      check->check(loop, checkContext);
    for (const Finding &finding : findings)
      if (!finding.conditional || inconclusive_)
        report(finding, context.getSourceManager());
    if (!onlyGradlintChecks_)
      state.restore();
  }

private:
  void report(const Finding &finding, const clang::SourceManager &sm) {
    {
      auto builder = diag(finding.loc, escapeFormat((finding.conditional ? "(conditional) " : "") +
                                                    finding.message));
      // clang-tidy's --fix applies every fix-it it gets: unsafe fixes are
      // described in a note instead, as the CLI applies them only on request.
      if (finding.fix && finding.fix->safe)
        for (const SourceEdit &edit : finding.fix->edits)
          builder << clang::FixItHint::CreateReplacement(removalClangKeepsExact(edit, sm),
                                                         edit.replacement);
    }
    for (const FindingNote &note : finding.notes)
      diag(note.loc, escapeFormat(note.message), clang::DiagnosticIDs::Note);
    if (finding.fix && !finding.fix->safe)
      diag(finding.loc,
           escapeFormat("unsafe fix (gradlint --fix --unsafe-fixes): " + finding.fix->description),
           clang::DiagnosticIDs::Note);
  }

  const CheckFactory &factory_;
  const bool onlyGradlintChecks_;
  bool inconclusive_ = false; ///< CheckOptions `Inconclusive`: show conditional findings
  ModelOptions modelOptions_;
};

/// Whether every check clang-tidy will run is an accum-* check (the factories
/// hold every module's checks, ours included, once the checks are created).
bool onlyGradlintChecksEnabled(const clang::tidy::ClangTidyCheckFactories &factories,
                               clang::tidy::ClangTidyContext &context) {
  for (const auto &entry : factories)
    if (!entry.getKey().starts_with("accum-") && context.isCheckEnabled(entry.getKey()))
      return false;
  return true;
}

class GradlintTidyModule : public clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(clang::tidy::ClangTidyCheckFactories &factories) override {
    for (const CheckFactory &factory : allChecks())
      factories.registerCheckFactory(
          factory.id,
          [&factory, &factories](llvm::StringRef name, clang::tidy::ClangTidyContext *context) {
            return std::make_unique<GradlintTidyCheck>(
                name, context, factory, onlyGradlintChecksEnabled(factories, *context));
          });
  }
};

} // namespace
} // namespace gradlint

static clang::tidy::ClangTidyModuleRegistry::Add<gradlint::GradlintTidyModule>
    registration("gradlint-module", "gradient-accumulation checks (accum-*) from gradlint");
