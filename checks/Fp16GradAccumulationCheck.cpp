#include "checks/Check.h"
#include "checks/FixIts.h"
#include "model/ApiCalls.h"
#include "model/AstHelpers.h"
#include "model/UserCode.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"

#include <map>

namespace gradlint {

namespace {

/// accum-fp16-grad-accumulation: an accumulation window over parameters
/// converted to half precision: each backward() adds into a half-precision
/// .grad, and small micro-batch gradients round away against the growing sum.
class Fp16GradAccumulationCheck : public Check {
public:
  using Check::Check;
  void check(const TrainingLoop &loop, CheckContext &context) override;
  ConfirmationPlan confirmation() const override {
    ConfirmationPlan plan;
    plan.run = ConfirmationPlan::Run::HalfPrecision;
    return plan;
  }
};

/// The float32 name that replaces a half-precision dtype's (`kHalf` ->
/// `kFloat`, `kFloat16` -> `kFloat32`, `ScalarType::Half` -> `Float`), or empty.
std::string float32Name(llvm::StringRef name) {
  if (name == "kHalf" || name == "kBFloat16")
    return "kFloat";
  if (name == "kFloat16")
    return "kFloat32";
  if (name == "kF16")
    return "kF32";
  if (name == "Half" || name == "BFloat16")
    return "Float";
  return "";
}

/// The ScalarType a library constant or enumerator names (`torch::kHalf`,
/// `c10::ScalarType::Half`), following library constants' initializers.
std::string libraryScalarType(const clang::ValueDecl *decl, unsigned depth = 0) {
  if (!decl || depth > 4)
    return "";
  if (const auto *constant = llvm::dyn_cast<clang::EnumConstantDecl>(decl)) {
    const auto *type = llvm::dyn_cast<clang::EnumDecl>(constant->getDeclContext());
    return type && type->getName() == "ScalarType" ? constant->getName().str() : "";
  }
  const auto *var = llvm::dyn_cast<clang::VarDecl>(decl);
  const auto *ref =
      var && var->getInit()
          ? llvm::dyn_cast<clang::DeclRefExpr>(stripCasts(var->getInit())->IgnoreParens())
          : nullptr;
  return ref ? libraryScalarType(ref->getDecl(), depth + 1) : "";
}

/// Every place the code that trains spells the half-precision dtype `type`
/// ("Half", "BFloat16") within `ranges` (each from begin to end, inclusive).
struct DtypeSpellings {
  const clang::SourceManager &sm;
  std::string type;
  std::vector<clang::SourceRange> ranges;
  std::map<unsigned, const clang::DeclRefExpr *> found; ///< by file offset, once per spelling

  bool inRanges(clang::SourceLocation loc) const {
    for (const clang::SourceRange &range : ranges)
      if (!sm.isBeforeInTranslationUnit(loc, range.getBegin()) &&
          !sm.isBeforeInTranslationUnit(range.getEnd(), loc))
        return true;
    return false;
  }

  void collect(const clang::Stmt *node) {
    if (!node)
      return;
    if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(node)) {
      // A user's constant (`train_dtype`) is spelled at its initializer.
      if (!isUserCode(sm, ref->getDecl()->getLocation()) &&
          libraryScalarType(ref->getDecl()) == type && inRanges(ref->getBeginLoc()))
        found.emplace(sm.getFileOffset(ref->getBeginLoc()), ref);
    }
    for (const clang::Stmt *child : node->children())
      collect(child);
  }
};

const clang::CallExpr *lastCallOf(const clang::Stmt *node, const clang::FunctionDecl *function) {
  if (!node)
    return nullptr;
  const clang::CallExpr *last = nullptr;
  if (const auto *call = llvm::dyn_cast<clang::CallExpr>(node)) {
    const clang::FunctionDecl *callee = call->getDirectCallee();
    if (callee && callee->getTemplateInstantiationPattern())
      callee = callee->getTemplateInstantiationPattern();
    if (callee && callee->getCanonicalDecl() == function->getCanonicalDecl())
      last = call;
  }
  for (const clang::Stmt *child : node->children())
    if (const clang::CallExpr *inner = lastCallOf(child, function))
      last = inner;
  return last;
}

/// Train in float32: every spelling of the half dtype in the code that
/// prepares and runs the loop (the module's conversion, the inputs converted
/// for it) becomes float32's.
std::optional<FindingFix> float32Fix(const TrainingLoop &loop, CheckContext &context) {
  const clang::CallExpr *conversion = loop.halfPrecision.conversion;
  const clang::FunctionDecl *converting = nullptr;
  for (const ValueFacts::DtypeConversion &candidate : context.facts().conversions)
    if (candidate.call == conversion)
      converting = candidate.function;
  const clang::FunctionDecl *training = writtenFunction(loop.function);
  if (!converting || !converting->getBody() || !training || !training->getBody())
    return std::nullopt;
  const clang::SourceManager &sm = context.sourceManager();
  DtypeSpellings spellings{sm, loop.halfPrecision.type == "bfloat16" ? "BFloat16" : "Half", {}, {}};
  // The loop's function up to the loop's end, and the converting function up
  // to the training (a caller: up to its call; a constructor: all of it).
  clang::SourceLocation trainingEnd =
      loop.loop ? loop.loop->getEndLoc() : training->getBody()->getEndLoc();
  spellings.ranges.push_back({training->getBody()->getBeginLoc(), trainingEnd});
  if (converting->getCanonicalDecl() != training->getCanonicalDecl()) {
    clang::SourceLocation until = converting->getBody()->getEndLoc();
    if (!llvm::isa<clang::CXXConstructorDecl>(converting)) {
      const clang::CallExpr *call = lastCallOf(converting->getBody(), training);
      if (!call)
        return std::nullopt;
      until = call->getEndLoc();
    }
    spellings.ranges.push_back({converting->getBody()->getBeginLoc(), until});
    spellings.collect(converting->getBody());
  }
  spellings.collect(training->getBody());

  FindingFix fix{"train in float32: convert the module, and the tensors converted for it, to "
                 "float32 instead of " +
                     loop.halfPrecision.type,
                 false,
                 {}};
  bool convertsModule = false;
  for (const auto &[offset, ref] : spellings.found) {
    std::string name = ref->getDecl()->getName().str();
    std::string replacement = float32Name(name);
    std::string written = context.text(ref);
    if (replacement.empty() || ref->getBeginLoc().isMacroID() ||
        !llvm::StringRef(written).ends_with(name))
      return std::nullopt;
    std::optional<SourceEdit> edit =
        fixits::replaceExpr(ref, written.substr(0, written.size() - name.size()) + replacement);
    if (!edit)
      return std::nullopt;
    fix.edits.push_back(*edit);
    // The module's own conversion must change, directly or through the
    // constant it reads.
    clang::SourceLocation at = ref->getBeginLoc();
    for (const clang::Expr *arg : conversion->arguments()) {
      const clang::Expr *spelled = stripCasts(arg)->IgnoreParens();
      if (const auto *constant = llvm::dyn_cast<clang::DeclRefExpr>(spelled))
        if (const auto *var = llvm::dyn_cast<clang::VarDecl>(constant->getDecl()))
          if (isUserCode(sm, var->getLocation()) && var->getInit())
            spelled = var->getInit();
      clang::SourceRange range = spelled->getSourceRange();
      convertsModule = convertsModule || (!sm.isBeforeInTranslationUnit(at, range.getBegin()) &&
                                          !sm.isBeforeInTranslationUnit(range.getEnd(), at));
    }
  }
  if (!convertsModule)
    return std::nullopt;
  // Unsafe: float32 doubles the parameters' memory and changes the numerics
  // of the forward pass, which the user must want.
  return fix;
}

} // namespace

void Fp16GradAccumulationCheck::check(const TrainingLoop &loop, CheckContext &context) {
  if (!loop.hasWindow() || !loop.boundaryStep() || !loop.halfPrecision.conversion)
    return;
  // The accumulation happens where backward() runs on every micro-batch.
  const TrainingEvent *accumulating = nullptr;
  for (const TrainingEvent *backward : loop.eventsOf(EventKind::Backward))
    if (backward->condition == EventCondition::EveryMicroBatch &&
        !backward->steppedEveryMicroBatch && !backward->sharedBackward) {
      accumulating = backward;
      break;
    }
  if (!accumulating)
    return;
  const std::string &type = loop.halfPrecision.type;
  bool bf16 = type == "bfloat16";
  Finding result = finding(
      loop.reportLocation(*accumulating),
      "backward() accumulates " + describeSteps(loop) + " micro-batches into " + type +
          " gradients: the parameters were converted to " + type + ", so .grad is " + type +
          " too and keeps " + (bf16 ? "8" : "11") +
          " significant bits; each micro-batch's gradient is rounded against the growing sum, "
          "and small ones round away (no fp32 copy of the gradients or parameters is kept)");
  result.notes.push_back(windowNote(loop, context));
  result.notes.push_back(
      {loop.halfPrecision.conversion->getBeginLoc(),
       "the parameters become " + type +
           " here; fix: keep the parameters (or an fp32 master "
           "copy with fp32 gradient buffers) in float32 and add each micro-batch's gradient into "
           "the fp32 buffer, or train in float32 under autocast"});
  result.fix = float32Fix(loop, context);
  context.report(std::move(result));
}

GRADLINT_REGISTER_CHECK(Fp16GradAccumulationCheck, "accum-fp16-grad-accumulation", 12)

} // namespace gradlint
