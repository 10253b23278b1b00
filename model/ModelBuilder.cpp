#include "model/ModelBuilder.h"
#include "model/AstHelpers.h"
#include "model/UserCode.h"
#include "model/builder/WalkState.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace gradlint {

// The parts of the build live in model/builder/: EventWalker.cpp walks a scope,
// LossScaling.cpp reads divisions, WindowFinder.cpp finds the window.
struct ModelBuilder::Impl {
  ASTContext &context;
  ValueFacts facts;
  bool originsCollected = false;

  Impl(ASTContext &ctx, const ModelOptions &options) : context(ctx), facts(ctx, options) {}

  const SourceManager &sm() const { return context.getSourceManager(); }

  void ensureOrigins() {
    if (originsCollected)
      return;
    originsCollected = true;
    // Namespace blocks of LibTorch and the standard library are skipped whole:
    // walking them would deserialize every header declaration from a PCH.
    for (Decl *decl : context.getTranslationUnitDecl()->decls())
      if (isUserCode(sm(), decl->getLocation()))
        facts.collectOrigins(decl);
  }

  std::vector<TrainingLoop> analyseScope(const Stmt *body, const Stmt *loopStmt,
                                         const FunctionDecl *function) {
    ensureOrigins();
    builder::WalkState state;
    if (function)
      state.active.push_back(function);
    builder::walkEvents(body, state, facts);
    std::vector<TrainingLoop> loops =
        builder::findTrainingLoops(facts, state.events, loopStmt, function);
    for (TrainingLoop &loop : loops) {
      loop.opaqueCalls = state.opaqueCalls;
      builder::readLoopEnd(facts, loop);
      builder::readParameterPrecision(facts, loop);
    }
    return loops;
  }

  static std::optional<TrainingLoop> first(std::vector<TrainingLoop> loops) {
    if (loops.empty())
      return std::nullopt;
    return std::move(loops.front());
  }

  // ---- visiting the translation unit -------------------------------------

  struct Finder : RecursiveASTVisitor<Finder> {
    Impl *impl;
    TrainingLoopModel *model;
    std::vector<const FunctionDecl *> functions;

    bool shouldVisitTemplateInstantiations() const { return false; }
    bool shouldVisitLambdaBody() const { return true; }

    bool TraverseDecl(Decl *decl) {
      if (!decl)
        return true;
      if (!isa<TranslationUnitDecl>(decl) && !isUserCode(impl->sm(), decl->getLocation()))
        return true; // never walk LibTorch or system headers, not even their namespaces
      bool pushed = false;
      if (auto *fn = dyn_cast<FunctionDecl>(decl)) {
        functions.push_back(fn);
        pushed = true;
      }
      bool result = RecursiveASTVisitor<Finder>::TraverseDecl(decl);
      if (pushed)
        functions.pop_back();
      return result;
    }

    const FunctionDecl *current() const { return functions.empty() ? nullptr : functions.back(); }
    void add(std::vector<TrainingLoop> loops) {
      for (TrainingLoop &loop : loops)
        model->loops.push_back(std::move(loop));
    }

    bool VisitFunctionDecl(FunctionDecl *fn) {
      if (!fn->doesThisDeclarationHaveABody() || !fn->getBody())
        return true;
      const FunctionDecl *walked = instantiationOrSelf(fn);
      add(impl->analyseScope(walked->getBody(), nullptr, walked));
      return true;
    }
    bool VisitLambdaExpr(LambdaExpr *lambda) {
      const CXXMethodDecl *op = lambda->getCallOperator();
      if (op && op->getBody())
        add(impl->analyseScope(op->getBody(), nullptr, op));
      return true;
    }
    bool visitLoop(Stmt *stmt) {
      if (!isUserCode(impl->sm(), stmt->getBeginLoc()))
        return true;
      // In the template's one instantiation, the same loop with its calls resolved.
      const FunctionDecl *function = current();
      const FunctionDecl *walked = function ? instantiationOrSelf(function) : nullptr;
      if (walked && walked != function)
        if (const Stmt *same = sameStatement(walked->getBody(), stmt)) {
          add(impl->analyseScope(loopBody(same), same, walked));
          return true;
        }
      add(impl->analyseScope(loopBody(stmt), stmt, function));
      return true;
    }

    /// A function of a template (a class template's member, a function
    /// template) is read in the one instantiation the file makes of it: there
    /// `model->parameters()` and `p.grad()` are resolved calls, where the
    /// template's own text has dependent names the model cannot follow. With
    /// none or several instantiations, the template's text is read.
    static const FunctionDecl *instantiationOrSelf(const FunctionDecl *fn) {
      if (!fn->isDependentContext() ||
          (isa<CXXMethodDecl>(fn) && cast<CXXMethodDecl>(fn)->getParent()->isLambda()))
        return fn;
      const FunctionDecl *found = nullptr;
      auto consider = [&](const FunctionDecl *candidate) {
        if (!candidate || !candidate->hasBody() || !candidate->getBody() || candidate == found)
          return true;
        if (found)
          return false;
        found = candidate;
        return true;
      };
      if (const FunctionTemplateDecl *described = fn->getDescribedFunctionTemplate()) {
        for (const FunctionDecl *spec : described->specializations())
          if (!consider(spec->getDefinition()))
            return fn;
        // A member function template of a class template: its instantiations
        // hang on the member template of each class specialization.
        const auto *method = dyn_cast<CXXMethodDecl>(fn);
        const ClassTemplateDecl *owner =
            method ? method->getParent()->getDescribedClassTemplate() : nullptr;
        if (owner)
          for (const ClassTemplateSpecializationDecl *classSpec : owner->specializations())
            for (const Decl *member : classSpec->decls())
              if (const auto *memberTemplate = dyn_cast<FunctionTemplateDecl>(member);
                  memberTemplate &&
                  memberTemplate->getInstantiatedFromMemberTemplate() == described)
                for (const FunctionDecl *spec : memberTemplate->specializations())
                  if (!consider(spec->getDefinition()))
                    return fn;
      } else if (const auto *method = dyn_cast<CXXMethodDecl>(fn)) {
        const ClassTemplateDecl *owner = method->getParent()->getDescribedClassTemplate();
        if (!owner)
          return fn;
        for (const ClassTemplateSpecializationDecl *spec : owner->specializations())
          for (const CXXMethodDecl *candidate : spec->methods())
            if (candidate->getTemplateInstantiationPattern() == fn &&
                !consider(candidate->getDefinition()))
              return fn;
      }
      return found ? found : fn;
    }

    /// The statement of `body` at the same place and of the same class as `stmt`.
    static const Stmt *sameStatement(const Stmt *body, const Stmt *stmt) {
      if (!body)
        return nullptr;
      if (body->getStmtClass() == stmt->getStmtClass() &&
          body->getBeginLoc() == stmt->getBeginLoc() && body->getEndLoc() == stmt->getEndLoc())
        return body;
      for (const Stmt *child : body->children())
        if (const Stmt *found = sameStatement(child, stmt))
          return found;
      return nullptr;
    }
    bool VisitForStmt(ForStmt *s) { return visitLoop(s); }
    bool VisitWhileStmt(WhileStmt *s) { return visitLoop(s); }
    bool VisitDoStmt(DoStmt *s) { return visitLoop(s); }
    bool VisitCXXForRangeStmt(CXXForRangeStmt *s) { return visitLoop(s); }
  };
};

ModelBuilder::ModelBuilder(ASTContext &context, const ModelOptions &options)
    : impl_(std::make_unique<Impl>(context, options)) {}
ModelBuilder::~ModelBuilder() = default;

const ValueFacts &ModelBuilder::facts() const { return impl_->facts; }
ValueFacts &ModelBuilder::facts() { return impl_->facts; }

TrainingLoopModel ModelBuilder::build() {
  impl_->ensureOrigins();
  TrainingLoopModel model;
  Impl::Finder finder;
  finder.impl = impl_.get();
  finder.model = &model;
  finder.TraverseDecl(impl_->context.getTranslationUnitDecl());
  return model;
}

std::optional<TrainingLoop> ModelBuilder::analyseLoop(const Stmt *loop,
                                                      const FunctionDecl *function) {
  return Impl::first(impl_->analyseScope(loopBody(loop), loop, function));
}

std::optional<TrainingLoop> ModelBuilder::analyseStepFunction(const FunctionDecl *function) {
  return Impl::first(impl_->analyseScope(function->getBody(), nullptr, function));
}

} // namespace gradlint
