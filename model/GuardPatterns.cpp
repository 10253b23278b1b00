#include "model/GuardPatterns.h"
#include "model/ApiCalls.h"
#include "model/AstHelpers.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"

using namespace clang;

namespace gradlint {

namespace {

constexpr unsigned kMaxDepth = 8;

struct CounterTerm {
  const ValueDecl *counter = nullptr;
  int64_t offset = 0;     ///< the value compared is counter + offset
  bool isCounter = false; ///< the term is a plain (possibly incremented) variable
};

/// A flag a scoped guard object turns off: its constructor writes a constant
/// (`ddp.require_sync = false`), its destructor restores it, and the code
/// builds it in one place, under a condition (`if ((i + 1) % N != 0) guard =
/// std::make_unique<NoSync>(ddp);`). The flag then holds that constant
/// exactly when the condition does. `condition` and `inElse` say where;
/// the result is the constant.
std::optional<bool> scopedGuardFlag(const FieldDecl *flag, ValueFacts &facts,
                                    const Expr *&condition, bool &inElse) {
  ASTContext &context = facts.context();
  const CXXRecordDecl *guardClass = nullptr;
  std::optional<bool> written;
  std::optional<bool> initial;
  for (const ValueOrigin &origin : facts.originsOf(flag)) {
    if (origin.kind != ValueOrigin::Init && origin.kind != ValueOrigin::Assign)
      return std::nullopt;
    std::optional<double> value = facts.constantNumber({origin.value, nullptr});
    const FunctionDecl *function =
        origin.kind == ValueOrigin::Assign ? enclosingFunction(origin.site, context) : nullptr;
    if (isa_and_nonnull<CXXDestructorDecl>(function))
      continue; // the restore
    if (auto *ctor = dyn_cast_or_null<CXXConstructorDecl>(function);
        ctor && value && ctor->getParent() != flag->getParent()) {
      if (guardClass && guardClass != ctor->getParent())
        return std::nullopt;
      guardClass = ctor->getParent();
      written = *value != 0;
      continue;
    }
    if (origin.kind != ValueOrigin::Init || !value)
      return std::nullopt;
    initial = *value != 0;
  }
  if (!guardClass || !written || !initial || *initial == *written)
    return std::nullopt;
  const std::vector<const Expr *> &sites = facts.constructionsOf(guardClass);
  if (sites.size() != 1)
    return std::nullopt;
  const IfStmt *ifStmt = enclosingIf(sites.front(), context, inElse);
  if (!ifStmt)
    return std::nullopt;
  condition = ifStmt->getCond();
  return written;
}

/// Reads `i`, `i + 1`, `++i`, `i++`, `epoch * n + i + 1` as counter + offset.
CounterTerm readCounter(const Expr *expr, const SubstFrame *frame, ValueFacts &facts) {
  CounterTerm term;
  expr = stripCasts(facts.resolve({expr, frame}).expr);
  if (auto *unary = dyn_cast<UnaryOperator>(expr)) {
    if (unary->getOpcode() == UO_PreInc)
      term.offset = 1;
    if (unary->isIncrementDecrementOp()) {
      term.counter = facts.referencedDecl({unary->getSubExpr(), frame});
      term.isCounter = term.counter != nullptr;
      return term;
    }
  }
  if (auto *binary = dyn_cast<BinaryOperator>(expr)) {
    if (binary->getOpcode() == BO_Add || binary->getOpcode() == BO_Sub) {
      int64_t sign = binary->getOpcode() == BO_Add ? 1 : -1;
      if (auto rhs = facts.constantInt({binary->getRHS(), frame})) {
        term = readCounter(binary->getLHS(), frame, facts);
        term.offset += sign * *rhs;
        return term;
      }
      if (sign == 1)
        if (auto lhs = facts.constantInt({binary->getLHS(), frame})) {
          term = readCounter(binary->getRHS(), frame, facts);
          term.offset += *lhs;
          return term;
        }
    }
    return term;
  }
  term.counter = facts.referencedDecl({expr, frame});
  term.isCounter = term.counter != nullptr;
  return term;
}

const BinaryOperator *asModulo(const Expr *expr, const SubstFrame *frame, ValueFacts &facts) {
  expr = stripCasts(facts.resolve({expr, frame}).expr);
  auto *binary = dyn_cast<BinaryOperator>(expr);
  return binary && binary->getOpcode() == BO_Rem ? binary : nullptr;
}

/// The residue a comparison's other side stands for: `0` -> 0, `N - 1` -> -1.
std::optional<int64_t> readResidue(const Expr *expr, const Expr *modulus, const SubstFrame *frame,
                                   ValueFacts &facts) {
  if (auto value = facts.constantInt({expr, frame}))
    return *value;
  expr = stripCasts(facts.resolve({expr, frame}).expr);
  if (auto *binary = dyn_cast<BinaryOperator>(expr))
    if (binary->getOpcode() == BO_Sub &&
        facts.sameValue({binary->getLHS(), frame}, {modulus, frame}))
      if (auto k = facts.constantInt({binary->getRHS(), frame}))
        return -*k;
  return std::nullopt;
}

std::optional<ParsedGuard> parse(const Expr *condition, const SubstFrame *frame, bool negated,
                                 ValueFacts &facts, unsigned depth);

std::optional<ParsedGuard> parseModuloComparison(const BinaryOperator *modulo, const Expr *other,
                                                 bool equal, const SubstFrame *frame,
                                                 ValueFacts &facts) {
  std::optional<int64_t> compared = readResidue(other, modulo->getRHS(), frame, facts);
  if (!compared)
    return std::nullopt;
  CounterTerm term = readCounter(modulo->getLHS(), frame, facts);
  ParsedGuard guard;
  guard.pattern.form = GuardForm::Modulo;
  guard.pattern.steps = facts.resolve({modulo->getRHS(), frame});
  guard.pattern.counter = term.counter;
  guard.pattern.residue = *compared - term.offset;
  guard.holds = equal;
  return guard;
}

} // namespace

const Expr *wrappedIncrementModulus(const Expr *value, const ValueDecl *counter,
                                    ValueFacts &facts) {
  const auto *modulo = dyn_cast<BinaryOperator>(stripCasts(value));
  if (!modulo || modulo->getOpcode() != BO_Rem)
    return nullptr;
  const auto *sum = dyn_cast<BinaryOperator>(stripCasts(modulo->getLHS()));
  if (!sum || sum->getOpcode() != BO_Add)
    return nullptr;
  for (auto [term, step] :
       {std::pair{sum->getLHS(), sum->getRHS()}, {sum->getRHS(), sum->getLHS()}})
    if (facts.referencedDecl({term, nullptr}) == counter && facts.constantInt({step, nullptr}) == 1)
      return modulo->getRHS();
  return nullptr;
}

namespace {

/// `counter == 0` on a counter whose writes say what N is: one that wraps
/// (`c = (c + 1) % N`) is at 0 on every N-th micro-batch, a modulo guard; a
/// countdown (`--left`, reset with `left = N` where it reaches 0) reaches 0
/// when N micro-batches have passed, the boundary. Others: the window start
/// of a counter reset to 0, with N unknown.
void readZeroTest(const ValueDecl *counter, WindowPattern &pattern, ValueFacts &facts) {
  const Expr *wrap = nullptr, *reset = nullptr;
  bool decremented = false, other = false;
  for (const ValueOrigin &origin : facts.originsOf(counter)) {
    if (origin.kind == ValueOrigin::Init)
      continue;
    if (origin.kind == ValueOrigin::Assign) {
      if (const Expr *modulus = wrappedIncrementModulus(origin.value, counter, facts)) {
        if (wrap && !facts.sameValue({wrap, nullptr}, {modulus, nullptr}))
          return;
        wrap = modulus;
      } else if (std::optional<int64_t> value = facts.constantInt({origin.value, nullptr});
                 (value && *value <= 0) ||
                 (reset && !facts.sameValue({reset, nullptr}, {origin.value, nullptr}))) {
        other = true;
      } else {
        reset = origin.value;
      }
      continue;
    }
    const auto *unary = dyn_cast_or_null<UnaryOperator>(origin.site);
    if (unary && unary->isDecrementOp())
      decremented = true;
    else
      other = true;
  }
  if (other)
    return;
  if (wrap && !reset && !decremented) {
    pattern.form = GuardForm::Modulo;
    pattern.steps = facts.resolve({wrap, nullptr});
  } else if (decremented && reset && !wrap) {
    pattern.steps = facts.resolve({reset, nullptr});
    pattern.residue = -1;
  }
}

/// A counter holds a number: `precision == PrecisionMode::FP16` compares an
/// enum, `done == true` a flag, neither counts micro-batches.
bool countsNumbers(const ValueDecl *counter) {
  QualType type = counter->getType().getNonReferenceType();
  return !type->isEnumeralType() && !type->isBooleanType();
}

std::optional<ParsedGuard> parseComparison(const BinaryOperator *binary, const SubstFrame *frame,
                                           bool negated, ValueFacts &facts) {
  BinaryOperatorKind op = binary->getOpcode();
  const Expr *lhs = binary->getLHS(), *rhs = binary->getRHS();
  if (op == BO_EQ || op == BO_NE) {
    bool equal = (op == BO_EQ) != negated;
    if (const BinaryOperator *modulo = asModulo(lhs, frame, facts))
      return parseModuloComparison(modulo, rhs, equal, frame, facts);
    if (const BinaryOperator *modulo = asModulo(rhs, frame, facts))
      return parseModuloComparison(modulo, lhs, equal, frame, facts);
    // Counter forms: ++micro == N, micro == N, micro + 1 == N, micro == 0.
    for (int side = 0; side < 2; ++side) {
      const Expr *counterSide = side == 0 ? lhs : rhs;
      const Expr *limitSide = side == 0 ? rhs : lhs;
      CounterTerm term = readCounter(counterSide, frame, facts);
      if (!term.counter || !countsNumbers(term.counter) || facts.constantInt({counterSide, frame}))
        continue;
      std::optional<int64_t> limit = facts.constantInt({limitSide, frame});
      ParsedGuard guard;
      guard.pattern.form = GuardForm::CounterReachesN;
      guard.pattern.counter = term.counter;
      guard.holds = equal;
      if (limit && *limit - term.offset == 0) {
        guard.pattern.residue = 0; // the counter is at the start of a window
        if (term.offset == 0)
          readZeroTest(term.counter, guard.pattern, facts);
        return guard;
      }
      // counter + offset == N  <=>  boundary reached (offset 1 for "++c == N",
      // or "c + 1 == N"; offset 0 for "c == N" after an increment). A counter
      // compared with "N - 1" counts 0..N-1 and is incremented after the check.
      ResolvedExpr limitValue = facts.resolve({limitSide, frame});
      if (auto *minus = dyn_cast<BinaryOperator>(stripCasts(limitValue.expr)))
        if (minus->getOpcode() == BO_Sub &&
            facts.constantInt({minus->getRHS(), limitValue.frame}).value_or(0) == 1)
          limitValue = facts.resolve({minus->getLHS(), limitValue.frame});
      guard.pattern.steps = limitValue;
      guard.pattern.residue = -1;
      return guard;
    }
    return std::nullopt;
  }
  if (op == BO_GE || op == BO_GT || op == BO_LT || op == BO_LE) {
    // micro >= N holds at the boundary; micro < N is its negation.
    bool atLeast = op == BO_GE || op == BO_GT;
    CounterTerm term = readCounter(lhs, frame, facts);
    if (!term.counter || !countsNumbers(term.counter) || facts.constantInt({lhs, frame}))
      return std::nullopt;
    ParsedGuard guard;
    guard.pattern.form = GuardForm::CounterReachesN;
    guard.pattern.counter = term.counter;
    guard.pattern.steps = facts.resolve({rhs, frame});
    guard.pattern.residue = -1;
    guard.pattern.threshold = true;
    guard.holds = atLeast != negated;
    if (facts.constantInt({rhs, frame}).value_or(1) == 0)
      return std::nullopt; // i > 0 says nothing about windows
    return guard;
  }
  return std::nullopt;
}

/// The single returned expression of a bool helper defined in user code.
const Expr *returnedCondition(const FunctionDecl *function) {
  const FunctionDecl *definition = function ? function->getDefinition() : nullptr;
  if (!definition || !definition->getBody())
    return nullptr;
  std::vector<const Expr *> returned = returnedValues(definition->getBody());
  return returned.size() == 1 ? returned.front() : nullptr;
}

std::optional<ParsedGuard> parse(const Expr *condition, const SubstFrame *frame, bool negated,
                                 ValueFacts &facts, unsigned depth) {
  if (!condition || depth > kMaxDepth)
    return std::nullopt;
  ResolvedExpr resolved = facts.resolve({condition, frame});
  frame = resolved.frame;
  const Expr *expr = stripCasts(resolved.expr);
  if (!expr || expr->isTypeDependent())
    return std::nullopt;

  if (auto *unary = dyn_cast<UnaryOperator>(expr))
    if (unary->getOpcode() == UO_LNot)
      return parse(unary->getSubExpr(), frame, !negated, facts, depth + 1);

  if (auto *binary = dyn_cast<BinaryOperator>(expr)) {
    BinaryOperatorKind op = binary->getOpcode();
    if (op == BO_LAnd || op == BO_LOr) {
      std::optional<ParsedGuard> left = parse(binary->getLHS(), frame, negated, facts, depth + 1);
      std::optional<ParsedGuard> right = parse(binary->getRHS(), frame, negated, facts, depth + 1);
      // Prefer the modulo pattern; the other disjunct of `||` is the
      // last-batch extension (i + 1 == num_batches).
      std::optional<ParsedGuard> chosen = left;
      if (!chosen || (right && right->pattern.form == GuardForm::Modulo &&
                      chosen->pattern.form != GuardForm::Modulo))
        chosen = right;
      if (!chosen)
        return std::nullopt;
      bool conjunction = (op == BO_LAnd) != negated;
      if (!conjunction) {
        // A disjunction that runs the code: still a boundary, extended.
        chosen->pattern.lastBatchExtension = true;
      }
      chosen->pattern.condition = expr;
      return chosen;
    }
    if (op == BO_Rem) {
      // `if ((i + 1) % N)` means `(i + 1) % N != 0`.
      CounterTerm term = readCounter(binary->getLHS(), frame, facts);
      ParsedGuard result;
      result.pattern.form = GuardForm::Modulo;
      result.pattern.steps = facts.resolve({binary->getRHS(), frame});
      result.pattern.counter = term.counter;
      result.pattern.residue = -term.offset;
      result.pattern.condition = expr;
      result.holds = negated;
      return result;
    }
    if (binary->isComparisonOp()) {
      std::optional<ParsedGuard> guard = parseComparison(binary, frame, negated, facts);
      if (guard)
        guard->pattern.condition = expr;
      return guard;
    }
    return std::nullopt;
  }

  if (auto *call = dyn_cast<CallExpr>(expr)) {
    // A helper predicate: bool should_step(int i, int n) { return (i + 1) % n == 0; }
    const FunctionDecl *callee = call->getDirectCallee();
    if (const Expr *returned = returnedCondition(callee)) {
      const SubstFrame *inner = facts.pushFrame(callee->getDefinition(), call, frame);
      std::optional<ParsedGuard> guard = parse(returned, inner, negated, facts, depth + 1);
      if (guard) {
        guard->pattern.viaHelper = true;
        guard->pattern.condition = expr;
      }
      return guard;
    }
    return std::nullopt;
  }

  // A bool flag: bool do_step = (i + 1) % N == 0 || last;
  if (const ValueDecl *decl = facts.referencedDecl({expr, frame})) {
    if (!decl->getType()->isBooleanType())
      return std::nullopt;
    // The flag is `written` exactly while the guard exists, under `condition`.
    const Expr *condition = nullptr;
    bool inElse = false;
    if (auto *field = dyn_cast<FieldDecl>(decl))
      if (std::optional<bool> written = scopedGuardFlag(field, facts, condition, inElse)) {
        bool flagIsWritten = !negated == *written;
        std::optional<ParsedGuard> guard =
            parse(condition, nullptr, flagIsWritten == inElse, facts, depth + 1);
        if (guard) {
          guard->pattern.viaFlag = true;
          guard->pattern.condition = expr;
        }
        return guard;
      }
    for (const ValueOrigin &origin : facts.originsOf(decl)) {
      if (origin.kind != ValueOrigin::Init && origin.kind != ValueOrigin::Assign)
        continue;
      std::optional<ParsedGuard> guard =
          parse(origin.value, isa<FieldDecl>(decl) ? nullptr : frame, negated, facts, depth + 1);
      if (guard) {
        guard->pattern.viaFlag = true;
        guard->pattern.condition = expr;
        return guard;
      }
    }
  }
  return std::nullopt;
}

} // namespace

std::optional<ParsedGuard> parseGuard(const Expr *condition, const SubstFrame *frame, bool negated,
                                      ValueFacts &facts) {
  std::optional<ParsedGuard> guard = parse(condition, frame, negated, facts, 0);
  // `% 0` is undefined and `% -3` would turn the fix "divide by N" into a sign
  // flip: a window of a constant N <= 0 is not an accumulation window.
  if (guard && guard->pattern.steps.expr)
    if (auto steps = facts.constantInt(guard->pattern.steps); steps && *steps <= 0)
      return std::nullopt;
  return guard;
}

int64_t canonicalResidue(int64_t residue, std::optional<int64_t> steps) {
  if (!steps || *steps <= 0)
    return residue;
  return ((residue % *steps) + *steps) % *steps;
}

} // namespace gradlint
