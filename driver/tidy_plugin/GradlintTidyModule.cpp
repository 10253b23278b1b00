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

class GradlintTidyCheck : public clang::tidy::ClangTidyCheck {
public:
  GradlintTidyCheck(llvm::StringRef name, clang::tidy::ClangTidyContext *context,
                    const CheckFactory &factory)
      : ClangTidyCheck(name, context), factory_(factory) {
    // The same option names as .gradlint.yaml, local to the check or global.
    for (const std::string &option : ModelOptions::optionNames())
      *modelOptions_.list(option) =
          splitNameList(Options.getLocalOrGlobal(option, llvm::StringRef()));
  }

  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &options) override {
    for (const std::string &option : ModelOptions::optionNames()) {
      std::string joined;
      for (const std::string &name : *modelOptions_.list(option))
        joined += (joined.empty() ? "" : ";") + name;
      Options.store(options, option, joined);
    }
  }

  bool isLanguageVersionSupported(const clang::LangOptions &options) const override {
    return options.CPlusPlus;
  }

  void registerMatchers(clang::ast_matchers::MatchFinder *finder) override {
    finder->addMatcher(clang::ast_matchers::translationUnitDecl().bind("unit"), this);
  }

  void check(const clang::ast_matchers::MatchFinder::MatchResult &result) override {
    clang::ASTContext &context = *result.Context;
    ModelBuilder builder(context, modelOptions_);
    TrainingLoopModel model = builder.build();
    std::unique_ptr<Check> check = factory_.create();
    std::vector<Finding> findings;
    CheckContext checkContext(builder.facts(), findings);
    for (const TrainingLoop &loop : model.loops)
      check->check(loop, checkContext);
    for (const Finding &finding : findings)
      report(finding, context.getSourceManager());
  }

private:
  void report(const Finding &finding, const clang::SourceManager &sm) {
    {
      auto builder = diag(finding.loc, escapeFormat(finding.message));
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
  ModelOptions modelOptions_;
};

class GradlintTidyModule : public clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(clang::tidy::ClangTidyCheckFactories &factories) override {
    for (const CheckFactory &factory : allChecks())
      factories.registerCheckFactory(
          factory.id, [&factory](llvm::StringRef name, clang::tidy::ClangTidyContext *context) {
            return std::make_unique<GradlintTidyCheck>(name, context, factory);
          });
  }
};

} // namespace
} // namespace gradlint

static clang::tidy::ClangTidyModuleRegistry::Add<gradlint::GradlintTidyModule>
    registration("gradlint-module", "gradient-accumulation checks (accum-*) from gradlint");
