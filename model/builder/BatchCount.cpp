// How many batches one run of an epoch loop takes from its data, when the
// file shows it: a std::vector filled by a counted loop (also in a helper that
// returns it, or behind a pointer or a const reference), a LibTorch data
// loader over a dataset of known size (MNIST's fixed 60000 / 10000 images, a
// dataset class whose size() the file computes), in batches of a known size.
// A trailing partial window is then known to be left (or not), not merely possible.
#include "model/ApiCalls.h"
#include "model/AstHelpers.h"
#include "model/builder/WalkState.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace gradlint::builder {

namespace {

constexpr unsigned kMaxCountDepth = 10;

bool isStdContainer(QualType type) {
  if (type.isNull() || type.getNonReferenceType().isNull())
    return false;
  const CXXRecordDecl *record = type.getNonReferenceType()->getAsCXXRecordDecl();
  return record && (isNamed(record, "vector") || isNamed(record, "deque")) &&
         record->isInStdNamespace();
}

class BatchCounter {
public:
  BatchCounter(ValueFacts &facts, std::string &why) : facts_(facts), why_(why) {}

  /// A number the file computes from constants and element counts.
  std::optional<int64_t> number(ResolvedExpr value, unsigned depth) {
    if (!value.expr || depth > kMaxCountDepth)
      return std::nullopt;
    if (std::optional<int64_t> constant = facts_.constantInt(value))
      return constant;
    value = facts_.resolve(value);
    const Expr *expr = stripCasts(value.expr);
    if (auto *call = dyn_cast<CXXMemberCallExpr>(expr)) {
      const FunctionDecl *callee = call->getDirectCallee();
      const Expr *object = call->getImplicitObjectArgument();
      if (isNamed(callee, "size") && call->getNumArgs() == 0)
        return elementsOfObject(call, {object, value.frame}, depth + 1);
      // dataset.size().value(): an optional's value.
      if (isNamed(callee, "value") && call->getNumArgs() == 0)
        return number({object, value.frame}, depth + 1);
    }
    if (auto *binary = dyn_cast<BinaryOperator>(expr)) {
      std::optional<int64_t> lhs = number({binary->getLHS(), value.frame}, depth + 1);
      std::optional<int64_t> rhs = number({binary->getRHS(), value.frame}, depth + 1);
      if (!lhs || !rhs)
        return std::nullopt;
      switch (binary->getOpcode()) {
      case BO_Add: return *lhs + *rhs;
      case BO_Sub: return *lhs - *rhs;
      case BO_Mul: return *lhs * *rhs;
      case BO_Div: return *rhs ? std::optional<int64_t>(*lhs / *rhs) : std::nullopt;
      default: return std::nullopt;
      }
    }
    if (auto *var = dyn_cast_or_null<VarDecl>(facts_.referencedDecl(value));
        var && !isa<ParmVarDecl>(var) && var->getType()->isIntegralOrEnumerationType()) {
      const std::vector<ValueOrigin> &origins = facts_.originsOf(var);
      if (origins.size() == 1 && origins.front().kind == ValueOrigin::Init)
        return number({origins.front().value, value.frame}, depth + 1);
    }
    return std::nullopt;
  }

  /// The elements (or batches) of a container, data loader or dataset.
  std::optional<int64_t> elements(ResolvedExpr value, unsigned depth) {
    if (!value.expr || depth > kMaxCountDepth)
      return std::nullopt;
    value = facts_.resolve(value);
    const Expr *expr = stripCasts(value.expr);
    if (auto *construct = dyn_cast<CXXConstructExpr>(expr))
      return constructed(construct, value.frame, depth);
    if (auto *list = dyn_cast<CXXStdInitializerListExpr>(expr))
      return elements({list->getSubExpr(), value.frame}, depth + 1);
    if (auto *list = dyn_cast<InitListExpr>(expr))
      return list->getNumInits();
    if (auto *unary = dyn_cast<UnaryOperator>(expr)) {
      if (unary->getOpcode() == UO_Deref || unary->getOpcode() == UO_AddrOf)
        return elements({unary->getSubExpr(), value.frame}, depth + 1);
      return std::nullopt;
    }
    if (auto *op = dyn_cast<CXXOperatorCallExpr>(expr)) {
      if ((op->getOperator() == OO_Star || op->getOperator() == OO_Arrow) && op->getNumArgs() == 1)
        return elements({op->getArg(0), value.frame}, depth + 1);
      return std::nullopt;
    }
    if (auto *call = dyn_cast<CallExpr>(expr))
      return callResult(call, value.frame, depth);
    if (const ValueDecl *decl = facts_.referencedDecl(value))
      return stored(decl, value, depth);
    return std::nullopt;
  }

private:
  /// `x.size()` or `p->size()`: the elements of the object.
  std::optional<int64_t> elementsOfObject(const CXXMemberCallExpr *call, ResolvedExpr object,
                                          unsigned depth) {
    // Only containers and datasets count their elements with size(); a
    // tensor's size() is a shape.
    const CXXRecordDecl *record = call->getMethodDecl()->getParent();
    if (!isStdContainer(QualType(record->getTypeForDecl(), 0)) && !isDataset(record))
      return std::nullopt;
    return elements(object, depth);
  }

  static bool isDataset(const CXXRecordDecl *record) {
    return isOrDerivesFrom(record, "torch::data::datasets::BatchDataset") ||
           isOrDerivesFrom(record, "torch::data::datasets::Dataset");
  }

  std::optional<int64_t> constructed(const CXXConstructExpr *construct, const SubstFrame *frame,
                                     unsigned depth) {
    const CXXRecordDecl *record = construct->getConstructor()->getParent();
    unsigned args = construct->getNumArgs();
    if (construct->getConstructor()->isCopyOrMoveConstructor() && args >= 1)
      return elements({construct->getArg(0), frame}, depth + 1);
    if (isStdContainer(QualType(record->getTypeForDecl(), 0))) {
      if (args == 0)
        return 0;
      const Expr *first = stripCasts(construct->getArg(0));
      if (isa<CXXStdInitializerListExpr>(first))
        return elements({first, frame}, depth + 1);
      if (first->getType()->isIntegralOrEnumerationType())
        return number({first, frame}, depth + 1);
      return std::nullopt;
    }
    // optional<size_t>(n), the value a dataset's size() returns.
    if (isNamed(record, "optional") && args == 1)
      return number({construct->getArg(0), frame}, depth + 1);
    if (isOrDerivesFrom(record, "torch::data::datasets::MNIST"))
      return mnistImages(construct);
    if (isDataset(record))
      return datasetSize(record, depth);
    return std::nullopt;
  }

  /// LibTorch's MNIST reader checks the files hold 60000 training or 10000 test images.
  std::optional<int64_t> mnistImages(const CXXConstructExpr *construct) {
    bool test = false;
    if (construct->getNumArgs() >= 2 && !isa<CXXDefaultArgExpr>(construct->getArg(1))) {
      auto *ref = dyn_cast<DeclRefExpr>(stripCasts(construct->getArg(1)));
      auto *mode = ref ? dyn_cast<EnumConstantDecl>(ref->getDecl()) : nullptr;
      if (!mode)
        return std::nullopt;
      test = mode->getName() == "kTest";
    }
    why_ = test ? "MNIST's 10000 test images" : "MNIST's 60000 training images";
    return test ? 10000 : 60000;
  }

  /// A dataset class of the file: what its size() returns.
  std::optional<int64_t> datasetSize(const CXXRecordDecl *record, unsigned depth) {
    for (const CXXMethodDecl *method : record->methods()) {
      if (!isNamed(method, "size") || method->getNumParams() != 0 || !method->hasBody())
        continue;
      std::vector<const Expr *> returned = returnedValues(method->getBody());
      if (returned.size() != 1)
        return std::nullopt;
      std::optional<int64_t> size = number({returned.front(), nullptr}, depth + 1);
      if (!size)
        size = elements({returned.front(), nullptr}, depth + 1);
      if (size)
        why_ = std::to_string(*size) + " examples of " + record->getNameAsString();
      return size;
    }
    return std::nullopt;
  }

  std::optional<int64_t> callResult(const CallExpr *call, const SubstFrame *frame, unsigned depth) {
    const FunctionDecl *callee = call->getDirectCallee();
    if (isNamed(callee, "move") && call->getNumArgs() == 1)
      return elements({call->getArg(0), frame}, depth + 1);
    if (isNamed(callee, "make_data_loader"))
      return loaderBatches(call, frame, depth);
    // dataset.map(transform) keeps the dataset's examples.
    if (auto *member = dyn_cast<CXXMemberCallExpr>(call))
      if (isNamed(callee, "map") && isDataset(member->getMethodDecl()->getParent()))
        return elements({member->getImplicitObjectArgument(), frame}, depth + 1);
    const FunctionDecl *body = inlinableCallee(call, facts_.context().getSourceManager());
    if (!body || !isStdContainer(call->getType()))
      return std::nullopt;
    const SubstFrame *inner = facts_.pushFrame(body, call, frame);
    std::optional<int64_t> result;
    for (const Expr *returned : returnedValues(body->getBody())) {
      std::optional<int64_t> count = elements({returned, inner}, depth + 1);
      if (!count || (result && *result != *count))
        return std::nullopt;
      result = count;
    }
    return result;
  }

  /// make_data_loader(dataset, batch_size) or (dataset, DataLoaderOptions()...):
  /// ceil(examples / batch), or floor with drop_last.
  std::optional<int64_t> loaderBatches(const CallExpr *call, const SubstFrame *frame,
                                       unsigned depth) {
    if (call->getNumArgs() != 2)
      return std::nullopt; // an explicit sampler: a distributed one splits the data
    if (const TemplateArgumentList *args = call->getDirectCallee()->getTemplateSpecializationArgs())
      for (const TemplateArgument &arg : args->asArray())
        if (arg.getKind() == TemplateArgument::Type)
          if (const CXXRecordDecl *sampler = arg.getAsType()->getAsCXXRecordDecl())
            if (sampler->getName().contains("Distributed"))
              return std::nullopt;
    std::string datasetWhy;
    std::swap(why_, datasetWhy);
    std::optional<int64_t> examples = elements({call->getArg(0), frame}, depth + 1);
    std::swap(why_, datasetWhy);
    std::optional<int64_t> batch;
    bool dropLast = false;
    const Expr *options = stripCasts(call->getArg(1));
    if (options->getType()->isIntegralOrEnumerationType())
      batch = number({options, frame}, depth + 1);
    else if (!loaderOptions(options, frame, depth, batch, dropLast))
      return std::nullopt;
    if (!examples || !batch || *batch <= 0 || *examples < 0)
      return std::nullopt;
    int64_t batches = dropLast ? *examples / *batch : (*examples + *batch - 1) / *batch;
    why_ = "the data loader's: " + (datasetWhy.empty() ? std::to_string(*examples) + " examples"
                                                       : datasetWhy) +
           " in batches of " + std::to_string(*batch) + (dropLast ? ", the last partial one dropped" : "");
    return batches;
  }

  /// `DataLoaderOptions().batch_size(b).workers(2).drop_last(true)`, `DataLoaderOptions(b)`.
  bool loaderOptions(const Expr *expr, const SubstFrame *frame, unsigned depth,
                     std::optional<int64_t> &batch, bool &dropLast) {
    for (unsigned i = 0; expr && i < 16; ++i) {
      expr = stripCasts(expr);
      if (auto *call = dyn_cast<CXXMemberCallExpr>(expr)) {
        const FunctionDecl *callee = call->getDirectCallee();
        if (isNamed(callee, "batch_size") && call->getNumArgs() == 1 && !batch)
          batch = number({call->getArg(0), frame}, depth + 1);
        else if (isNamed(callee, "drop_last") && call->getNumArgs() == 1) {
          std::optional<int64_t> flag = facts_.constantInt({call->getArg(0), frame});
          if (!flag)
            return false;
          dropLast = *flag != 0;
        }
        expr = call->getImplicitObjectArgument();
        continue;
      }
      if (auto *construct = dyn_cast<CXXConstructExpr>(expr)) {
        if (construct->getNumArgs() == 1 && !batch &&
            !construct->getConstructor()->isCopyOrMoveConstructor())
          batch = number({construct->getArg(0), frame}, depth + 1);
        else if (construct->getNumArgs() == 1)
          return false; // a copy of an options variable
        return isNamed(construct->getConstructor()->getParent(), "DataLoaderOptions");
      }
      return false;
    }
    return false;
  }

  /// A container variable, field or parameter: its one value plus the
  /// elements pushed by counted loops.
  std::optional<int64_t> stored(const ValueDecl *decl, ResolvedExpr value, unsigned depth) {
    if (auto *param = dyn_cast<ParmVarDecl>(decl))
      return fromCallers(param, depth);
    const auto *field = dyn_cast<FieldDecl>(decl);
    const std::vector<ValueOrigin> &origins = facts_.originsOf(decl);
    const ValueOrigin *assigned = nullptr;
    std::vector<const ValueOrigin *> pushes;
    for (const ValueOrigin &origin : origins) {
      if (origin.kind == ValueOrigin::InPlaceCall) {
        auto *call = dyn_cast<CXXMemberCallExpr>(origin.site);
        const FunctionDecl *method = call ? call->getDirectCallee() : nullptr;
        if (!isNamed(method, "push_back") && !isNamed(method, "emplace_back"))
          return std::nullopt;
        pushes.push_back(&origin);
        continue;
      }
      if (origin.kind != ValueOrigin::Init && origin.kind != ValueOrigin::Assign)
        return std::nullopt;
      // A pointer field's `= nullptr` default, replaced by the one assignment.
      bool defaultInit = field && field->hasInClassInitializer() && origin.kind == ValueOrigin::Init &&
                         origin.value == field->getInClassInitializer();
      if (defaultInit && origins.size() > 1)
        continue;
      if (assigned)
        return std::nullopt;
      assigned = &origin;
    }
    std::optional<int64_t> count = 0;
    if (assigned)
      count = elements({assigned->value, value.frame}, depth + 1);
    else if (!isStdContainer(decl->getType()))
      return std::nullopt;
    for (const ValueOrigin *push : pushes) {
      std::optional<int64_t> added = pushedElements(push->site, field, value.frame, depth);
      if (!count || !added)
        return std::nullopt;
      *count += *added;
    }
    return count;
  }

  /// A const reference (or copy) parameter: every caller passes the same count.
  std::optional<int64_t> fromCallers(const ParmVarDecl *param, unsigned depth) {
    QualType type = param->getType();
    if (type.isNull() || (type->isReferenceType() && !type.getNonReferenceType().isConstQualified()))
      return std::nullopt;
    const auto *function = dyn_cast<FunctionDecl>(param->getDeclContext());
    if (!function)
      return std::nullopt;
    const std::vector<const CallExpr *> &calls = callSitesOf(facts_, function);
    if (calls.empty() || calls.size() > 4)
      return std::nullopt;
    std::optional<int64_t> result;
    for (const CallExpr *call : calls) {
      const SubstFrame *frame = facts_.pushFrame(function, call, nullptr);
      const Expr *arg = frame->argumentFor(param);
      std::optional<int64_t> count = arg ? elements({arg, nullptr}, depth + 1) : std::nullopt;
      if (!count || (result && *result != *count))
        return std::nullopt;
      result = count;
    }
    return result;
  }

  /// `out.push_back(x)` once per iteration of a counted loop, in no branch;
  /// a field's only in its class's constructors (once per object).
  std::optional<int64_t> pushedElements(const Expr *site, const FieldDecl *field,
                                        const SubstFrame *frame, unsigned depth) {
    ASTContext &context = facts_.context();
    const FunctionDecl *function = enclosingFunction(site, context);
    if (!function || (field && !isa<CXXConstructorDecl>(function)))
      return std::nullopt;
    const Stmt *loop = nullptr;
    for (const Stmt *parent = parentStmt(site, context); parent;
         parent = parentStmt(parent, context)) {
      if (isLoop(parent)) {
        if (loop)
          return std::nullopt; // nested loops
        loop = parent;
        continue;
      }
      if (!isa<CompoundStmt, ExprWithCleanups>(parent))
        return std::nullopt; // a branch, a switch, a lambda
    }
    if (!loop)
      return 1;
    return iterations(loop, frame, depth);
  }

  /// `for (T i = a; i < b; ++i)` (or `<=`) and range-for loops over counted containers.
  std::optional<int64_t> iterations(const Stmt *loop, const SubstFrame *frame, unsigned depth) {
    if (auto *range = dyn_cast<CXXForRangeStmt>(loop))
      return elements({range->getRangeInit(), frame}, depth + 1);
    std::optional<CountedLoop> counted = readCountedLoop(facts_, loop);
    if (!counted)
      return std::nullopt;
    std::optional<int64_t> start = number({counted->start, frame}, depth + 1);
    std::optional<int64_t> bound = number({counted->bound, frame}, depth + 1);
    if (!start || !bound)
      return std::nullopt;
    return std::max<int64_t>(*bound - *start + (counted->inclusive ? 1 : 0), 0);
  }

  ValueFacts &facts_;
  std::string &why_;
};

/// A `continue`, `break`, `return` or `goto` in `stmt` (not in a lambda).
bool jumps(const Stmt *stmt) {
  if (!stmt || isa<LambdaExpr>(stmt))
    return false;
  if (isa<ContinueStmt, BreakStmt, ReturnStmt, GotoStmt>(stmt))
    return true;
  for (const Stmt *child : stmt->children())
    if (jumps(child))
      return true;
  return false;
}

/// Whether the loop's body increments `counter` by one exactly once, as a
/// statement of its own at the top that nothing skips (no jump in the body),
/// and writes it nowhere else.
bool countsIterations(ValueFacts &facts, const Stmt *body, const ValueDecl *counter) {
  const auto *block = dyn_cast_or_null<CompoundStmt>(body);
  if (!block || jumps(block))
    return false;
  unsigned increments = 0;
  for (const Stmt *statement : block->body()) {
    const auto *expr = dyn_cast<Expr>(statement);
    const auto *unary = expr ? dyn_cast<UnaryOperator>(expr->IgnoreParenImpCasts()) : nullptr;
    if (unary && unary->isIncrementOp() &&
        facts.referencedDecl({unary->getSubExpr(), nullptr}) == counter)
      ++increments;
  }
  if (increments != 1)
    return false;
  const SourceManager &sm = facts.context().getSourceManager();
  unsigned writesInBody = 0;
  for (const ValueOrigin &origin : facts.originsOf(counter))
    if (origin.site && !sm.isBeforeInTranslationUnit(origin.site->getBeginLoc(), body->getBeginLoc()) &&
        !sm.isBeforeInTranslationUnit(body->getEndLoc(), origin.site->getBeginLoc()))
      ++writesInBody;
  return writesInBody == 1;
}

} // namespace

std::optional<int64_t> batchesPerRun(ValueFacts &facts, const Stmt *loop, const Expr *bound,
                                     const ValueDecl *counter, std::string &why) {
  BatchCounter counter_(facts, why);
  if (bound)
    return counter_.number({bound, nullptr}, 0);
  const auto *range = dyn_cast_or_null<CXXForRangeStmt>(loop);
  if (!range || !counter || !countsIterations(facts, range->getBody(), counter))
    return std::nullopt;
  return counter_.elements({range->getRangeInit(), nullptr}, 0);
}

} // namespace gradlint::builder
