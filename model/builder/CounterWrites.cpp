// Whether a counter only ever grows. A threshold on such a counter
// (`if (memory_counter > CAPACITY) learn();`) holds on every iteration once it
// is passed: the code under it runs every time, it is no window boundary.
#include "model/UserCode.h"
#include "model/builder/WalkState.h"

#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace gradlint::builder {

namespace {

class CounterWriteFinder : public RecursiveASTVisitor<CounterWriteFinder> {
public:
  CounterWriteFinder(const ValueDecl *counter, ValueFacts &facts)
      : counter_(counter), facts_(facts) {}

  bool shouldVisitLambdaBody() const { return true; }

  bool TraverseDecl(Decl *decl) {
    if (decl && !isa<TranslationUnitDecl>(decl) &&
        !isUserCode(facts_.context().getSourceManager(), decl->getLocation()))
      return true;
    // A member counter set in its class's constructor (`memory_counter = 0;`)
    // is initialised there, once per object: that is no reset.
    if (auto *ctor = dyn_cast_or_null<CXXConstructorDecl>(decl))
      if (auto *field = dyn_cast<FieldDecl>(counter_))
        if (ctor->getParent() == field->getParent())
          return true;
    return RecursiveASTVisitor::TraverseDecl(decl);
  }

  bool VisitUnaryOperator(UnaryOperator *op) {
    if (!writesCounter(op->getSubExpr()))
      return true;
    if (op->getOpcode() == UO_AddrOf || op->isDecrementOp())
      reset_ = true; // written through a pointer, or counted down
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *op) {
    if (!op->isAssignmentOp() || !writesCounter(op->getLHS()))
      return true;
    if (op->getOpcode() == BO_AddAssign) {
      std::optional<int64_t> amount = facts_.constantInt({op->getRHS(), nullptr});
      reset_ = reset_ || amount.value_or(1) <= 0;
      notByOne_ = notByOne_ || amount != 1;
    } else if (op->getOpcode() != BO_Assign || !incrementsCounter(op->getRHS())) {
      reset_ = true;
    }
    return true;
  }

  bool reset() const { return reset_; }
  bool advancedByOtherThanOne() const { return notByOne_; }

private:
  bool writesCounter(const Expr *expr) const {
    return facts_.referencedDecl({expr, nullptr}) == counter_;
  }
  /// `counter + k` with k not a non-positive constant.
  bool incrementsCounter(const Expr *value) const {
    auto *add = dyn_cast<BinaryOperator>(stripCasts(value));
    if (!add || add->getOpcode() != BO_Add)
      return false;
    const Expr *other = writesCounter(add->getLHS())   ? add->getRHS()
                        : writesCounter(add->getRHS()) ? add->getLHS()
                                                       : nullptr;
    if (!other)
      return false;
    std::optional<int64_t> amount = facts_.constantInt({other, nullptr});
    notByOne_ = notByOne_ || amount != 1;
    return amount.value_or(1) > 0;
  }

  const ValueDecl *counter_;
  ValueFacts &facts_;
  bool reset_ = false;
  mutable bool notByOne_ = false; ///< `+= x.size(0)`, `c = c + 2`: not one per micro-batch
};

/// Where writes to the counter can be: a local's own function (its lambdas are
/// inside it), else the whole translation unit.
Decl *scanRoot(const ValueDecl *counter, ValueFacts &facts) {
  if (auto *var = dyn_cast<VarDecl>(counter))
    if (var->isLocalVarDeclOrParm() && !var->isStaticLocal())
      if (auto *function = dyn_cast_or_null<Decl>(var->getParentFunctionOrMethod()))
        return const_cast<Decl *>(function);
  return facts.context().getTranslationUnitDecl();
}

} // namespace

bool onlyIncremented(const ValueDecl *counter, ValueFacts &facts) {
  if (!counter || !counter->getType()->isIntegerType())
    return false;
  auto [memo, fresh] = facts.counterScans.try_emplace({counter, 0}, false);
  if (fresh) {
    CounterWriteFinder finder(counter, facts);
    finder.TraverseDecl(scanRoot(counter, facts));
    memo->second = !finder.reset();
  }
  return memo->second;
}

bool advancedByOtherThanOne(const ValueDecl *counter, ValueFacts &facts) {
  if (!counter)
    return false;
  auto [memo, fresh] = facts.counterScans.try_emplace({counter, 1}, false);
  if (fresh) {
    CounterWriteFinder finder(counter, facts);
    finder.TraverseDecl(scanRoot(counter, facts));
    memo->second = finder.advancedByOtherThanOne();
  }
  return memo->second;
}

} // namespace gradlint::builder
