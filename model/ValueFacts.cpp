#include "model/ValueFacts.h"

#include "model/ApiCalls.h"
#include "model/AstHelpers.h"
#include "model/UserCode.h"
#include <algorithm>

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace gradlint {

namespace {
constexpr unsigned kMaxDepth = 12;

/// The variable, parameter or field an expression names, looking through
/// smart pointers and dereferences (`opt->`, `*opt`); null for anything else
/// (methods, functions, enumerators, temporaries).
const ValueDecl *declOfLValue(const Expr *expr) {
  for (unsigned i = 0; expr && i < 8; ++i) {
    expr = stripCasts(expr);
    const ValueDecl *decl = nullptr;
    if (auto *ref = dyn_cast<DeclRefExpr>(expr))
      decl = ref->getDecl();
    else if (auto *member = dyn_cast<MemberExpr>(expr))
      decl = member->getMemberDecl();
    if (decl)
      return isa<VarDecl>(decl) || isa<FieldDecl>(decl) ? decl : nullptr;
    if (auto *op = dyn_cast<CXXOperatorCallExpr>(expr)) {
      if ((op->getOperator() == OO_Arrow || op->getOperator() == OO_Star) &&
          op->getNumArgs() == 1) {
        expr = op->getArg(0);
        continue;
      }
      return nullptr;
    }
    if (auto *unary = dyn_cast<UnaryOperator>(expr)) {
      if (unary->getOpcode() == UO_Deref) {
        expr = unary->getSubExpr();
        continue;
      }
      return nullptr;
    }
    // unique_ptr::get(), shared_ptr::get()
    if (auto *call = dyn_cast<CXXMemberCallExpr>(expr)) {
      const FunctionDecl *callee = call->getDirectCallee();
      if (callee && callee->getIdentifier() && callee->getName() == "get" &&
          call->getNumArgs() == 0) {
        expr = call->getImplicitObjectArgument();
        continue;
      }
    }
    return nullptr;
  }
  return nullptr;
}

bool isStdVector(QualType type) {
  if (type.isNull() || type.getNonReferenceType().isNull())
    return false;
  const CXXRecordDecl *record = type.getNonReferenceType()->getAsCXXRecordDecl();
  return record && record->getIdentifier() && record->getName() == "vector" &&
         record->isInStdNamespace();
}

/// A variable or field of a scalar type (a number, a pointer, an enum).
bool holdsNumber(const ValueDecl *decl) {
  QualType type = decl->getType();
  return !type.isNull() && !type.getNonReferenceType().isNull() &&
         type.getNonReferenceType()->isScalarType();
}

class OriginCollector : public RecursiveASTVisitor<OriginCollector> {
public:
  OriginCollector(std::map<const ValueDecl *, std::vector<ValueOrigin>> &origins,
                  std::map<const CXXRecordDecl *, std::vector<const Expr *>> &constructions,
                  std::map<const CXXMethodDecl *, std::vector<const CXXMethodDecl *>> &overriders,
                  llvm::SmallPtrSetImpl<const CXXRecordDecl *> &rawRecords,
                  std::map<const ValueDecl *, std::vector<ArgumentUse>> &argumentUses)
      : origins_(origins), constructions_(constructions), overriders_(overriders),
        rawRecords_(rawRecords), argumentUses_(argumentUses) {}

  /// Which parameter of which function each variable, parameter or field is
  /// handed to (`Dist dist(o.rank, o.world_size)`).
  void recordArguments(const FunctionDecl *callee, llvm::ArrayRef<const Expr *> args,
                       unsigned firstParam) {
    if (!callee)
      return;
    for (unsigned i = 0; i < args.size(); ++i) {
      unsigned index = firstParam + i;
      if (index >= callee->getNumParams() || !args[i])
        continue;
      if (const ValueDecl *decl = declOfLValue(stripCasts(args[i])))
        argumentUses_[decl].push_back({callee, index});
    }
  }

  // Helpers that are templates (or generic lambdas) are followed into their
  // instantiations, whose variables are distinct declarations.
  bool shouldVisitTemplateInstantiations() const { return true; }

  void add(const ValueDecl *decl, ValueOrigin::Kind kind, const Expr *value, const Expr *site) {
    if (decl)
      origins_[decl].push_back({kind, value, site});
  }

  bool VisitVarDecl(VarDecl *var) {
    if (var->hasInit() && !isa<ParmVarDecl>(var))
      add(var, ValueOrigin::Init, var->getInit(), var->getInit());
    return bindsNonConstReference(var);
  }
  bool VisitFieldDecl(FieldDecl *field) {
    if (field->hasInClassInitializer() && field->getInClassInitializer())
      add(field, ValueOrigin::Init, field->getInClassInitializer(), field->getInClassInitializer());
    return true;
  }
  bool VisitCXXConstructorDecl(CXXConstructorDecl *ctor) {
    for (const CXXCtorInitializer *init : ctor->inits())
      if (init->isWritten() && init->getMember())
        add(init->getMember(), ValueOrigin::Init, init->getInit(), init->getInit());
    return true;
  }
  void assignment(const Expr *lhs, BinaryOperatorKind op, const Expr *rhs, const Expr *site) {
    const ValueDecl *decl = declOfLValue(lhs);
    if (!decl)
      return;
    if (op == BO_Assign)
      add(decl, ValueOrigin::Assign, rhs, site);
    else if (op == BO_DivAssign)
      add(decl, ValueOrigin::CompoundDivide, rhs, site);
    else if (op == BO_MulAssign)
      add(decl, ValueOrigin::CompoundMultiply, rhs, site);
    else
      add(decl, ValueOrigin::OtherWrite, rhs, site);
  }
  bool VisitUnaryOperator(UnaryOperator *op) {
    if (op->isIncrementDecrementOp())
      add(declOfLValue(op->getSubExpr()), ValueOrigin::OtherWrite, op, op);
    // The address of a number in anything but a call's argument (recorded as
    // an out-parameter there): `int *p = &cfg.steps;`.
    // (Types may be null or dependent in templates and in code with errors.)
    QualType pointee = op->getType().isNull() ? QualType() : op->getType()->getPointeeType();
    if (op->getOpcode() == UO_AddrOf && !pointee.isNull() && !pointee.isConstQualified())
      if (const ValueDecl *decl = declOfLValue(op->getSubExpr());
          decl && holdsNumber(decl) && !addressArguments_.count(op))
        add(decl, ValueOrigin::OtherWrite, op, op);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *op) {
    if (op->isAssignmentOp())
      assignment(op->getLHS(), op->getOpcode(), op->getRHS(), op);
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *op) {
    if (op->getNumArgs() != 2)
      return true;
    switch (op->getOperator()) {
    case OO_Equal: assignment(op->getArg(0), BO_Assign, op->getArg(1), op); break;
    case OO_SlashEqual: assignment(op->getArg(0), BO_DivAssign, op->getArg(1), op); break;
    case OO_StarEqual: assignment(op->getArg(0), BO_MulAssign, op->getArg(1), op); break;
    case OO_PlusEqual: assignment(op->getArg(0), BO_AddAssign, op->getArg(1), op); break;
    case OO_MinusEqual: assignment(op->getArg(0), BO_SubAssign, op->getArg(1), op); break;
    default: break;
    }
    return true;
  }
  /// Each defined override, under every method it overrides.
  bool VisitCXXMethodDecl(CXXMethodDecl *method) {
    if (method->doesThisDeclarationHaveABody())
      addOverrider(method, method, 0);
    return true;
  }
  void addOverrider(const CXXMethodDecl *method, const CXXMethodDecl *overrider, unsigned depth) {
    if (depth > 8)
      return;
    for (const CXXMethodDecl *base : method->overridden_methods()) {
      std::vector<const CXXMethodDecl *> &list = overriders_[base->getCanonicalDecl()];
      if (std::find(list.begin(), list.end(), overrider) == list.end())
        list.push_back(overrider);
      addOverrider(base, overrider, depth + 1);
    }
  }
  /// Objects built from arguments (not copied or moved), also by
  /// std::make_unique / make_shared: where a scoped guard is created.
  bool VisitCXXConstructExpr(CXXConstructExpr *construct) {
    const CXXConstructorDecl *ctor = construct->getConstructor();
    if (ctor && !ctor->isCopyOrMoveConstructor()) {
      constructions_[ctor->getParent()].push_back(construct);
      recordArguments(
          ctor, llvm::ArrayRef<const Expr *>(construct->getArgs(), construct->getNumArgs()), 0);
    }
    return true;
  }
  void makeCall(const CallExpr *call) {
    QualType made = smartPointerMadeType(call);
    const CXXRecordDecl *record = made.isNull() ? nullptr : made->getAsCXXRecordDecl();
    if (!record)
      return;
    constructions_[record].push_back(call);
    // make_intrusive<ProcessGroupGloo>(store, rank, size): the arguments are
    // the constructor's (each constructor that takes that many).
    if (record->hasDefinition())
      for (const CXXConstructorDecl *ctor : record->ctors())
        if (!ctor->isCopyOrMoveConstructor() && ctor->getNumParams() >= call->getNumArgs() &&
            ctor->getMinRequiredArguments() <= call->getNumArgs())
          recordArguments(ctor, llvm::ArrayRef<const Expr *>(call->getArgs(), call->getNumArgs()),
                          0);
  }
  bool VisitCallExpr(CallExpr *call) {
    makeCall(call);
    {
      // A member operator's first argument is its object.
      unsigned skip =
          isa<CXXOperatorCallExpr>(call) && isa_and_nonnull<CXXMethodDecl>(call->getDirectCallee())
              ? 1
              : 0;
      llvm::ArrayRef<const Expr *> args(call->getArgs(), call->getNumArgs());
      recordArguments(call->getDirectCallee(), args.drop_front(std::min<size_t>(skip, args.size())),
                      0);
    }
    if (auto *member = dyn_cast<CXXMemberCallExpr>(call)) {
      const FunctionDecl *callee = member->getDirectCallee();
      if (callee && callee->getIdentifier()) {
        llvm::StringRef name = callee->getName();
        if (name == "div_" || name == "mul_" || name == "push_back" || name == "emplace_back" ||
            name == "true_divide_")
          add(declOfLValue(member->getImplicitObjectArgument()), ValueOrigin::InPlaceCall, member,
              member);
        // A container's other size changes: its element count is no longer its pushes.
        else if (name == "clear" || name == "resize" || name == "erase" || name == "insert" ||
                 name == "pop_back" || name == "assign" || name == "swap" || name == "emplace")
          add(declOfLValue(member->getImplicitObjectArgument()), ValueOrigin::OtherWrite, member,
              member);
      }
    }
    // Out-parameters: MPI_Comm_size(MPI_COMM_WORLD, &world_size).
    for (const Expr *arg : call->arguments()) {
      if (auto *addr = dyn_cast<UnaryOperator>(stripImplicit(arg)))
        if (addr->getOpcode() == UO_AddrOf) {
          addressArguments_.insert(addr);
          add(declOfLValue(addr->getSubExpr()), ValueOrigin::OutParameter, call, call);
          rawBytes(addr);
        }
    }
    referenceArguments(call);
    return true;
  }
  /// A number bound to a non-const reference parameter may be written by the
  /// callee (`app.add_option("--accum", cfg.accum)`, `std::cin >> n`).
  void referenceArguments(const CallExpr *call) {
    const FunctionDecl *callee = call->getDirectCallee();
    if (!callee)
      return;
    unsigned offset = isa<CXXOperatorCallExpr>(call) && isa<CXXMethodDecl>(callee) ? 1 : 0;
    // make_unique<VecEnv>(num_envs) forwards by reference to a constructor:
    // that constructor's parameters say whether the number may be written.
    QualType made = smartPointerMadeType(call);
    const CXXRecordDecl *record = made.isNull() ? nullptr : made->getAsCXXRecordDecl();
    if (record && record->hasDefinition()) {
      for (const CXXConstructorDecl *ctor : record->ctors())
        if (!ctor->isCopyOrMoveConstructor() && ctor->getNumParams() >= call->getNumArgs() &&
            ctor->getMinRequiredArguments() <= call->getNumArgs())
          referenceArguments(ctor, call, 0);
      return;
    }
    referenceArguments(callee, call, offset);
  }
  void referenceArguments(const FunctionDecl *callee, const CallExpr *call, unsigned offset) {
    for (unsigned i = offset; i < call->getNumArgs(); ++i) {
      unsigned index = i - offset;
      if (index >= callee->getNumParams())
        break;
      QualType type = callee->getParamDecl(index)->getType();
      if (type.isNull() || !type->isReferenceType() ||
          type.getNonReferenceType().isConstQualified())
        continue;
      const Expr *arg = stripImplicit(call->getArg(i));
      const ValueDecl *decl = declOfLValue(arg);
      if (decl &&
          (holdsNumber(decl) || (!decl->getType().isNull() && isStdVector(decl->getType()))))
        add(decl, ValueOrigin::OtherWrite, arg, call);
    }
  }
  /// `int &n = cfg.steps;` and `&cfg.steps` (not as a call's argument): the
  /// number may be written through the reference or the pointer.
  bool bindsNonConstReference(VarDecl *var) {
    QualType type = var->getType();
    if (type.isNull() || !type->isReferenceType() ||
        type.getNonReferenceType().isConstQualified() || !var->getInit())
      return true;
    const ValueDecl *decl = declOfLValue(var->getInit());
    if (decl && holdsNumber(decl))
      add(decl, ValueOrigin::OtherWrite, var->getInit(), var->getInit());
    return true;
  }
  /// Aggregate initialisation sets the fields it lists (`Config{8, 6}`).
  bool VisitInitListExpr(InitListExpr *list) {
    if (list->isSyntacticForm() && list->getSemanticForm())
      return true;
    const auto *record = list->getType()->getAsRecordDecl();
    if (!record || record->isUnion())
      return true;
    unsigned index = 0;
    for (const FieldDecl *field : record->fields()) {
      if (index >= list->getNumInits())
        break;
      const Expr *init = list->getInit(index++);
      if (init && !isa<ImplicitValueInitExpr>(init) && !isa<CXXDefaultInitExpr>(init))
        add(field, ValueOrigin::Assign, init, list);
    }
    return true;
  }
  /// An object of a record read or written as raw bytes (`memcpy(&cfg, ...)`,
  /// `in.read(reinterpret_cast<char *>(&cfg), ...)`): none of its fields keeps
  /// its default for sure.
  bool VisitCXXReinterpretCastExpr(CXXReinterpretCastExpr *cast) {
    if (auto *addr = dyn_cast<UnaryOperator>(stripImplicit(cast->getSubExpr())))
      rawBytes(addr);
    return true;
  }
  void rawBytes(const UnaryOperator *addr) {
    if (addr->getOpcode() != UO_AddrOf)
      return;
    if (const CXXRecordDecl *record = addr->getSubExpr()->getType()->getAsCXXRecordDecl())
      rawRecords_.insert(record->getCanonicalDecl());
  }

private:
  std::map<const ValueDecl *, std::vector<ValueOrigin>> &origins_;
  std::map<const CXXRecordDecl *, std::vector<const Expr *>> &constructions_;
  std::map<const CXXMethodDecl *, std::vector<const CXXMethodDecl *>> &overriders_;
  llvm::SmallPtrSetImpl<const CXXRecordDecl *> &rawRecords_;
  std::map<const ValueDecl *, std::vector<ArgumentUse>> &argumentUses_;
  llvm::SmallPtrSet<const UnaryOperator *, 16> addressArguments_;
};
} // namespace

const Expr *SubstFrame::argumentFor(const ParmVarDecl *param) const {
  if (!function || !call || param->getDeclContext() != function)
    return nullptr;
  unsigned index = param->getFunctionScopeIndex();
  unsigned offset = 0;
  // operator() of a lambda or functor: argument 0 is the object.
  if (isa<CXXOperatorCallExpr>(call) && isa<CXXMethodDecl>(function))
    offset = 1;
  if (index + offset >= call->getNumArgs())
    return param->getDefaultArg() ? param->getDefaultArg() : nullptr;
  const Expr *arg = call->getArg(index + offset);
  if (isa<CXXDefaultArgExpr>(arg))
    return param->getDefaultArg();
  return arg;
}

void ValueFacts::collectOrigins(Decl *decl) {
  OriginCollector collector(origins_, constructions_, overriders_, rawRecords_, argumentUses_);
  collector.TraverseDecl(decl);
}

const std::vector<ValueOrigin> &ValueFacts::originsOf(const ValueDecl *decl) const {
  auto it = origins_.find(decl);
  if (it != origins_.end())
    return it->second;
  // Variables the collector did not reach (inside the instantiation of a
  // generic lambda, say) still carry their initialiser.
  std::vector<ValueOrigin> &origins = origins_[decl];
  if (auto *var = dyn_cast_or_null<VarDecl>(decl))
    if (!isa<ParmVarDecl>(var) && var->getInit())
      origins.push_back({ValueOrigin::Init, var->getInit(), var->getInit()});
  return origins;
}

bool ValueFacts::builtInFile(const CXXRecordDecl *record) const {
  for (const auto &[built, builds] : constructions_)
    if (built && !builds.empty() &&
        (built->getCanonicalDecl() == record->getCanonicalDecl() ||
         (built->hasDefinition() && built->isDerivedFrom(record))))
      return true;
  return false;
}

const std::vector<const Expr *> &ValueFacts::constructionsOf(const CXXRecordDecl *record) const {
  return constructions_[record];
}

const CXXMethodDecl *ValueFacts::soleOverrider(const CXXMethodDecl *method) const {
  auto found = overriders_.find(method->getCanonicalDecl());
  if (found == overriders_.end() || found->second.size() != 1)
    return nullptr;
  return found->second.front();
}

const SubstFrame *ValueFacts::pushFrame(const FunctionDecl *fn, const CallExpr *call,
                                        const SubstFrame *parent) {
  frames_.push_back({fn, call, parent});
  return &frames_.back();
}

ResolvedExpr ValueFacts::resolve(ResolvedExpr value) const {
  for (unsigned i = 0; value.expr && i < kMaxDepth; ++i) {
    auto *ref = dyn_cast<DeclRefExpr>(stripCasts(value.expr));
    auto *param = ref ? dyn_cast<ParmVarDecl>(ref->getDecl()) : nullptr;
    if (!param)
      break;
    const SubstFrame *frame = value.frame;
    while (frame && !frame->argumentFor(param) && frame->function != param->getDeclContext())
      frame = frame->parent;
    if (!frame)
      break;
    const Expr *arg = frame->argumentFor(param);
    if (!arg)
      break;
    value = {arg, frame->parent};
  }
  return value;
}

const ValueDecl *lvalueDecl(const Expr *expr) { return declOfLValue(expr); }

const ValueDecl *ValueFacts::referencedDecl(ResolvedExpr value) const {
  value = resolve(value);
  return value.expr ? declOfLValue(value.expr) : nullptr;
}

void ValueFacts::aliasDecls(ResolvedExpr value,
                            llvm::SmallPtrSetImpl<const ValueDecl *> &out) const {
  aliasDecls(referencedDecl(value), out);
}

void ValueFacts::aliasDecls(const ValueDecl *decl,
                            llvm::SmallPtrSetImpl<const ValueDecl *> &out) const {
  for (unsigned i = 0; i < kMaxDepth && decl; ++i) {
    if (!out.insert(decl).second)
      return;
    // `const int n = cfg.accum_steps;` makes n an alias of the field; a field
    // written once, from a constructor's parameter (`this->steps = steps;` or
    // `steps_(steps)`), is an alias of that parameter.
    const Expr *init = nullptr;
    if (auto *var = dyn_cast<VarDecl>(decl)) {
      if (!isa<ParmVarDecl>(var))
        init = var->getInit();
    } else if (auto *field = dyn_cast<FieldDecl>(decl)) {
      // A default member initializer is overwritten by the one write that follows.
      std::vector<ValueOrigin> origins;
      for (const ValueOrigin &origin : originsOf(field))
        if (!(origin.kind == ValueOrigin::Init && field->hasInClassInitializer() &&
              origin.value->getBeginLoc() == field->getInClassInitializer()->getBeginLoc() &&
              originsOf(field).size() == 2))
          origins.push_back(origin);
      if (origins.size() == 1 && (origins.front().kind == ValueOrigin::Init ||
                                  origins.front().kind == ValueOrigin::Assign)) {
        const Expr *value = stripCasts(origins.front().value);
        auto *ref = dyn_cast<DeclRefExpr>(value);
        auto *param = ref ? dyn_cast<ParmVarDecl>(ref->getDecl()) : nullptr;
        if (param && isa<CXXConstructorDecl>(param->getDeclContext()) &&
            cast<CXXConstructorDecl>(param->getDeclContext())->getParent() == field->getParent())
          init = ref;
        // `plan.rank_steps = plan.steps;`: a copy of another field of a record.
        if (auto *member = dyn_cast<MemberExpr>(value);
            member && isa<FieldDecl>(member->getMemberDecl()))
          init = member;
      }
    }
    if (!init)
      return;
    init = stripCasts(init);
    // A reference bound to what a pointer points at names the same object.
    if (decl->getType()->isReferenceType()) {
      if (auto *deref = dyn_cast<UnaryOperator>(init); deref && deref->getOpcode() == UO_Deref)
        init = stripCasts(deref->getSubExpr());
      else if (auto *star = dyn_cast<CXXOperatorCallExpr>(init);
               star && star->getOperator() == OO_Star && star->getNumArgs() == 1)
        init = stripCasts(star->getArg(0));
    }
    if (!isa<DeclRefExpr>(init) && !isa<MemberExpr>(init))
      return;
    decl = referencedDecl({init, nullptr});
  }
}

bool ValueFacts::sameObject(const ValueDecl *a, const ValueDecl *b) const {
  if (a == b)
    return true;
  llvm::SmallPtrSet<const ValueDecl *, 8> fromA, fromB;
  aliasDecls(a, fromA);
  aliasDecls(b, fromB);
  for (const ValueDecl *decl : fromA)
    if (fromB.count(decl))
      return true;
  return false;
}

std::optional<int64_t> ValueFacts::constantInt(ResolvedExpr value) const {
  std::optional<double> number = constantNumber(value);
  // Casting a double outside int64_t's range (1e300, inf, NaN) is undefined.
  if (!number || !(*number >= -0x1p63 && *number < 0x1p63) ||
      *number != static_cast<double>(static_cast<int64_t>(*number)))
    return std::nullopt;
  return static_cast<int64_t>(*number);
}

std::optional<double> ValueFacts::constantNumber(ResolvedExpr value) const {
  for (unsigned i = 0; i < kMaxDepth; ++i) {
    value = resolve(value);
    if (!value.expr)
      return std::nullopt;
    const Expr *expr = stripCasts(value.expr);
    if (expr->isValueDependent() || expr->isTypeDependent())
      return std::nullopt;
    Expr::EvalResult result;
    if (expr->getType()->isIntegralOrEnumerationType() && expr->EvaluateAsInt(result, context_))
      return static_cast<double>(result.Val.getInt().getExtValue());
    llvm::APFloat floating(0.0);
    if (expr->getType()->isRealFloatingType() && expr->EvaluateAsFloat(floating, context_))
      return floating.convertToDouble();
    // A variable with a single, constant initialisation and no other writes.
    // A field's default member initializer counts when its record is defined
    // in the main file (no other translation unit can write it) and the file
    // never writes the field otherwise (no assignment, constructor
    // initializer, aggregate initialisation, non-const reference or address,
    // raw-bytes copy of its record): a settings struct's `int minibatches = 6;`
    // that nothing sets. A record of a header may be filled by a config parser
    // elsewhere.
    const ValueDecl *decl = declOfLValue(expr);
    if (!decl || isa<ParmVarDecl>(decl))
      return std::nullopt;
    if (auto *field = dyn_cast<FieldDecl>(decl);
        field && !field->getType().isConstQualified() &&
        context_.getSourceManager().isInMainFile(
            context_.getSourceManager().getExpansionLoc(field->getParent()->getLocation())) &&
        !rawRecords_.count(cast<CXXRecordDecl>(field->getParent())->getCanonicalDecl()))
      if (std::optional<double> constructed = constructedFieldValue(field))
        return constructed;
    // The file must also build an object of the record: a settings struct
    // that only arrives as a parameter was filled by whoever built it.
    if (auto *field = dyn_cast<FieldDecl>(decl);
        field && !field->getType().isConstQualified() &&
        (!field->hasInClassInitializer() ||
         !context_.getSourceManager().isInMainFile(
             context_.getSourceManager().getExpansionLoc(field->getParent()->getLocation())) ||
         rawRecords_.count(cast<CXXRecordDecl>(field->getParent())->getCanonicalDecl()) ||
         !builtInFile(cast<CXXRecordDecl>(field->getParent()))))
      return std::nullopt;
    const std::vector<ValueOrigin> &origins = originsOf(decl);
    if (origins.empty() || origins.front().kind != ValueOrigin::Init)
      return std::nullopt;
    if (origins.size() > 1)
      return scaledBeforeRead(decl, origins, expr);
    value = {origins.front().value, nullptr};
  }
  return std::nullopt;
}

std::optional<double> ValueFacts::constructedFieldValue(const FieldDecl *field) const {
  if (!field || fieldsInEvaluation_.count(field))
    return std::nullopt;
  const auto *owner = dyn_cast<CXXRecordDecl>(field->getParent());
  if (!owner)
    return std::nullopt;
  // Every write is an assignment at the top level of a constructor's body (or
  // an initializer); anything else may change the value later.
  bool assignedInConstructor = false;
  for (const ValueOrigin &origin : originsOf(field)) {
    if (origin.kind == ValueOrigin::Init)
      continue;
    if (origin.kind != ValueOrigin::Assign || !origin.site)
      return std::nullopt;
    const auto *ctor =
        dyn_cast_or_null<CXXConstructorDecl>(enclosingFunction(origin.site, context_));
    const Stmt *parent = parentStmt(origin.site, context_);
    while (parent && isa<ExprWithCleanups>(parent))
      parent = parentStmt(parent, context_);
    if (!ctor || !ctor->getBody() || parent != ctor->getBody())
      return std::nullopt;
    assignedInConstructor = true;
  }
  if (!assignedInConstructor)
    return std::nullopt; // the default initializer alone: constantNumber reads it
  fieldsInEvaluation_.insert(field);
  std::optional<double> result;
  bool any = false, agree = true;
  for (const auto &[record, builds] : constructions_) {
    if (!agree)
      break;
    if (!record || (record != owner && !record->isDerivedFrom(owner)))
      continue;
    for (const Expr *build : builds) {
      std::vector<const CXXConstructorDecl *> ctors;
      if (auto *construct = dyn_cast<CXXConstructExpr>(build))
        ctors.push_back(construct->getConstructor());
      else
        for (const CXXConstructorDecl *ctor : record->ctors())
          if (!ctor->isCopyOrMoveConstructor() && ctor->isThisDeclarationADefinition())
            ctors.push_back(ctor);
      for (const CXXConstructorDecl *ctor : ctors) {
        std::optional<double> value = valueAfterConstructor(ctor, field);
        if (!value || (result && *result != *value)) {
          agree = false;
          break;
        }
        result = value;
        any = true;
      }
      if (!agree)
        break;
    }
  }
  fieldsInEvaluation_.erase(field);
  return any && agree ? result : std::nullopt;
}

bool ValueFacts::inBranchNeverTaken(const Stmt *site) const {
  const Stmt *child = site;
  for (const Stmt *parent = site ? parentStmt(site, context_) : nullptr; parent;
       child = parent, parent = parentStmt(parent, context_)) {
    auto *branch = dyn_cast<IfStmt>(parent);
    if (!branch || (child != branch->getThen() && child != branch->getElse()))
      continue;
    bool negated = false;
    const Expr *read = stripCasts(branch->getCond());
    if (auto *unary = dyn_cast<UnaryOperator>(read); unary && unary->getOpcode() == UO_LNot) {
      negated = true;
      read = stripCasts(unary->getSubExpr());
    }
    auto *member = dyn_cast<MemberExpr>(read);
    if (!member || !isa<FieldDecl>(member->getMemberDecl()) ||
        !isa<CXXThisExpr>(member->getBase()->IgnoreImpCasts()))
      continue;
    std::optional<double> flag = constantNumber({read, nullptr});
    if (!flag)
      continue;
    bool thenRuns = (*flag != 0) != negated;
    if ((child == branch->getThen()) != thenRuns)
      return true;
  }
  return false;
}

/// The field's value when `ctor` returns: its bases' constructors run first,
/// then the member initializers, then the body.
std::optional<double> ValueFacts::valueAfterConstructor(const CXXConstructorDecl *ctor,
                                                        const FieldDecl *field) const {
  if (!ctor)
    return std::nullopt;
  if (const FunctionDecl *definition = ctor->getDefinition())
    ctor = cast<CXXConstructorDecl>(definition);
  const auto *owner = cast<CXXRecordDecl>(field->getParent());
  const CXXRecordDecl *record = ctor->getParent();
  std::optional<double> value;
  if (record == owner) {
    if (field->hasInClassInitializer() && field->getInClassInitializer())
      value = constantOrReturnedConstant(field->getInClassInitializer());
  } else {
    bool viaBase = false;
    for (const CXXCtorInitializer *init : ctor->inits()) {
      const Type *base = init->isBaseInitializer() ? init->getBaseClass() : nullptr;
      const CXXRecordDecl *baseRecord = base ? base->getAsCXXRecordDecl() : nullptr;
      if (!baseRecord || (baseRecord != owner && !baseRecord->isDerivedFrom(owner)))
        continue;
      const Expr *built = init->getInit() ? init->getInit()->IgnoreImplicit() : nullptr;
      const CXXConstructorDecl *baseCtor = nullptr;
      if (auto *construct = dyn_cast_or_null<CXXConstructExpr>(built))
        baseCtor = construct->getConstructor();
      else if (auto *inherited = dyn_cast_or_null<CXXInheritedCtorInitExpr>(built))
        baseCtor = inherited->getConstructor();
      value = valueAfterConstructor(baseCtor, field);
      viaBase = true;
    }
    if (!viaBase)
      return std::nullopt;
  }
  for (const CXXCtorInitializer *init : ctor->inits())
    if (init->isWritten() && init->getMember() == field)
      value = constantOrReturnedConstant(init->getInit());
  if (const auto *body = dyn_cast_or_null<CompoundStmt>(ctor->getBody()))
    for (const Stmt *statement : body->body()) {
      const Expr *lhs = nullptr, *rhs = nullptr;
      if (assignmentSides(statement, lhs, rhs) && declOfLValue(stripCasts(lhs)) == field)
        value = constantOrReturnedConstant(rhs);
    }
  return value;
}

/// A constant, or a call to a function of the file (not overridden) whose
/// every return is the same constant: `bool accepts_kwargs() const { return true; }`.
std::optional<double> ValueFacts::constantOrReturnedConstant(const Expr *value) const {
  if (!value)
    return std::nullopt;
  if (std::optional<double> constant = constantNumber({value, nullptr}))
    return constant;
  auto *call = dyn_cast<CallExpr>(stripCasts(value));
  const FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
  const FunctionDecl *definition = callee ? callee->getDefinition() : nullptr;
  if (!definition || !definition->getBody() ||
      !isUserCode(context_.getSourceManager(), definition->getLocation()))
    return std::nullopt;
  if (auto *method = dyn_cast<CXXMethodDecl>(definition);
      method && method->isVirtual() && overriders_.count(method->getCanonicalDecl()))
    return std::nullopt;
  std::optional<double> result;
  for (const Expr *returned : returnedValues(definition->getBody())) {
    std::optional<double> constant = constantNumber({returned, nullptr});
    if (!constant || (result && *result != *constant))
      return std::nullopt;
    result = constant;
  }
  return result;
}

/// `double wd = 0.2; wd /= accum_steps;` read after the `/=`: a local whose
/// initialisation is followed, in the same block and in no branch or loop of
/// it, by constant `/=` and `*=` that all run before the read.
std::optional<double> ValueFacts::scaledBeforeRead(const ValueDecl *decl,
                                                   const std::vector<ValueOrigin> &origins,
                                                   const Expr *read) const {
  const auto *var = dyn_cast<VarDecl>(decl);
  if (!var || !var->hasLocalStorage())
    return std::nullopt;
  DynTypedNodeList parents = context_.getParents(*var);
  const auto *declaration = parents.empty() ? nullptr : parents[0].get<DeclStmt>();
  const Stmt *block = declaration ? parentStmt(declaration, context_) : nullptr;
  if (!block)
    return std::nullopt;
  std::optional<double> result = constantNumber({origins.front().value, nullptr});
  const SourceManager &sm = context_.getSourceManager();
  for (size_t i = 1; i < origins.size() && result; ++i) {
    const ValueOrigin &origin = origins[i];
    if ((origin.kind != ValueOrigin::CompoundDivide &&
         origin.kind != ValueOrigin::CompoundMultiply) ||
        !sm.isBeforeInTranslationUnit(origin.site->getEndLoc(), read->getBeginLoc()))
      return std::nullopt;
    const Stmt *parent = parentStmt(origin.site, context_);
    while (parent && parent != block && isa<CompoundStmt, ExprWithCleanups>(parent))
      parent = parentStmt(parent, context_);
    std::optional<double> operand = constantNumber({origin.value, nullptr});
    if (parent != block || !operand ||
        (origin.kind == ValueOrigin::CompoundDivide && *operand == 0))
      return std::nullopt;
    result = origin.kind == ValueOrigin::CompoundDivide ? *result / *operand : *result * *operand;
  }
  return result;
}

std::string ValueFacts::text(const Expr *expr) const {
  if (!expr)
    return "";
  const SourceManager &sm = context_.getSourceManager();
  CharSourceRange range = CharSourceRange::getTokenRange(expr->getSourceRange());
  range = Lexer::makeFileCharRange(range, sm, context_.getLangOpts());
  if (range.isInvalid())
    return "";
  std::string spelled = Lexer::getSourceText(range, sm, context_.getLangOpts()).str();
  // Collapse whitespace so multi-line expressions print on one line.
  std::string collapsed;
  bool space = false;
  for (char c : spelled) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !collapsed.empty();
      continue;
    }
    if (space)
      collapsed.push_back(' ');
    space = false;
    collapsed.push_back(c);
  }
  return collapsed;
}

SymbolicValue ValueFacts::symbolic(ResolvedExpr value) const {
  SymbolicValue symbol;
  ResolvedExpr resolved = resolve(value);
  symbol.expr = resolved.expr;
  symbol.text = text(resolved.expr);
  if (symbol.text.empty())
    symbol.text = text(value.expr);
  symbol.constant = constantInt(value);
  symbol.loc = value.expr ? value.expr->getExprLoc() : SourceLocation();
  return symbol;
}

bool ValueFacts::sameValue(ResolvedExpr a, ResolvedExpr b) const {
  if (!a.expr || !b.expr)
    return false;
  std::optional<double> ca = constantNumber(a), cb = constantNumber(b);
  if (ca && cb)
    return *ca == *cb;
  llvm::SmallPtrSet<const ValueDecl *, 8> da, db;
  aliasDecls(a, da);
  aliasDecls(b, db);
  for (const ValueDecl *decl : da)
    if (db.count(decl))
      return true;
  if (!da.empty() || !db.empty())
    return false;
  // Compound expressions (cfg.accum - 1): the same structure over the same
  // declarations.
  ResolvedExpr ra = resolve(a), rb = resolve(b);
  llvm::FoldingSetNodeID ia, ib;
  stripCasts(ra.expr)->Profile(ia, context_, /*Canonical=*/true);
  stripCasts(rb.expr)->Profile(ib, context_, /*Canonical=*/true);
  return ia == ib;
}

bool ValueFacts::mentions(ResolvedExpr haystack, ResolvedExpr target) const {
  llvm::SmallPtrSet<const ValueDecl *, 8> decls;
  aliasDecls(target, decls);
  return mentionsImpl(haystack, decls, constantNumber(target), 0);
}

bool ValueFacts::growsWith(ResolvedExpr haystack, ResolvedExpr target) const {
  llvm::SmallPtrSet<const ValueDecl *, 8> decls;
  aliasDecls(target, decls);
  return mentionsImpl(haystack, decls, constantNumber(target), 0, /*skipDivisors=*/true);
}

bool ValueFacts::mentionsImpl(ResolvedExpr haystack,
                              const llvm::SmallPtrSetImpl<const ValueDecl *> &decls,
                              std::optional<double> constant, unsigned depth,
                              bool skipDivisors) const {
  if (!haystack.expr || depth > kMaxDepth)
    return false;
  haystack = resolve(haystack);
  const Expr *expr = stripCasts(haystack.expr);
  if (auto *literal = dyn_cast<IntegerLiteral>(expr))
    return constant && static_cast<double>(literal->getValue().getSExtValue()) == *constant;
  if (auto *literal = dyn_cast<FloatingLiteral>(expr))
    return constant && literal->getValueAsApproximateDouble() == *constant;
  if (const ValueDecl *decl = declOfLValue(expr)) {
    if (decls.count(decl))
      return true;
    // A local computed from the target: `const int denom = N * W;`.
    if (const Expr *init = localInitializer(decl))
      return mentionsImpl({init, nullptr}, decls, constant, depth + 1, skipDivisors);
    return false;
  }
  if (auto *quotient = dyn_cast<BinaryOperator>(expr);
      skipDivisors && quotient && quotient->getOpcode() == BO_Div)
    return mentionsImpl({quotient->getLHS(), haystack.frame}, decls, constant, depth, true);
  for (const Stmt *child : expr->children())
    if (auto *childExpr = dyn_cast_or_null<Expr>(child))
      if (mentionsImpl({childExpr, haystack.frame}, decls, constant, depth, skipDivisors))
        return true;
  return false;
}

bool ValueFacts::mentionsAccumulationStepsName(ResolvedExpr value, unsigned depth) const {
  if (!value.expr || depth > kMaxDepth || options_.accumulationStepNames.empty())
    return false;
  value = resolve(value);
  const Expr *expr = stripCasts(value.expr);
  if (const ValueDecl *decl = declOfLValue(expr)) {
    if (options_.isAccumulationStepsDecl(decl))
      return true;
    // `const int denom = grad_accum * W;`
    if (const Expr *init = localInitializer(decl))
      return mentionsAccumulationStepsName({init, nullptr}, depth + 1);
    return false;
  }
  for (const Stmt *child : expr->children())
    if (auto *childExpr = dyn_cast_or_null<Expr>(child))
      if (mentionsAccumulationStepsName({childExpr, value.frame}, depth))
        return true;
  return false;
}

bool ValueFacts::isWorldSize(ResolvedExpr value) const { return isWorldSizeImpl(value, 0); }

bool ValueFacts::isWorldSizeDecl(const ValueDecl *decl, unsigned depth) const {
  auto found = worldSizeDecls_.find(decl);
  if (found != worldSizeDecls_.end())
    return found->second;
  worldSizeDecls_[decl] = false; // breaks cycles
  bool result = options_.isWorldSizeDecl(decl) || handedToProcessGroupSize(decl, depth);
  for (const ValueOrigin &origin : originsOf(decl)) {
    if (result)
      break;
    if (origin.kind == ValueOrigin::OutParameter) {
      // MPI_Comm_size(comm, &world_size)
      if (auto *call = dyn_cast<CallExpr>(origin.value))
        result = classifyCall(call, options_).kind == ApiKind::WorldSizeQuery;
    } else if (origin.kind == ValueOrigin::Init || origin.kind == ValueOrigin::Assign) {
      result = isWorldSizeImpl({origin.value, nullptr}, depth + 1);
    }
    if (result)
      break;
  }
  worldSizeDecls_[decl] = result;
  return result;
}

namespace {
/// A constructor of a c10d process group, or a function that returns one
/// (`intrusive_ptr<ProcessGroup> make_group(int rank, int world_size, ...)`).
bool buildsProcessGroup(const FunctionDecl *function) {
  const CXXRecordDecl *built = nullptr;
  if (const auto *ctor = dyn_cast<CXXConstructorDecl>(function)) {
    built = ctor->getParent();
  } else {
    QualType type = function->getReturnType().getNonReferenceType();
    built = type->getAsCXXRecordDecl();
    // intrusive_ptr<T>, shared_ptr<T>, unique_ptr<T>
    if (const auto *holder = dyn_cast_or_null<ClassTemplateSpecializationDecl>(built))
      if (holder->getTemplateArgs().size() >= 1 &&
          holder->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
        built = holder->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
  }
  return built &&
         (isOrDerivesFrom(built, "c10d::ProcessGroup") || isOrDerivesFrom(built, "c10d::Backend"));
}

bool namesGroupSize(llvm::StringRef name) {
  static const char *const names[] = {"size",   "world_size", "worldSize", "world",
                                      "nranks", "num_ranks",  "numRanks",  "nprocs"};
  return std::any_of(std::begin(names), std::end(names),
                     [&](const char *known) { return name == known; });
}
} // namespace

/// `Dist dist(o.rank, o.world_size, ...)` whose constructor passes its
/// `world_size` on to the process group's size: o.world_size is W.
bool ValueFacts::handedToProcessGroupSize(const ValueDecl *decl, unsigned depth) const {
  if (depth > 4)
    return false;
  auto found = argumentUses_.find(decl);
  if (found == argumentUses_.end())
    return false;
  for (const ArgumentUse &use : found->second) {
    const ParmVarDecl *param = use.callee->getParamDecl(use.index);
    if (buildsProcessGroup(use.callee) && param->getIdentifier() &&
        namesGroupSize(param->getName()))
      return true;
    // A parameter of the file's own code: where it is handed on (the
    // definition's parameter, which the body uses).
    const FunctionDecl *definition = use.callee->getDefinition();
    if (definition && isUserCode(context_.getSourceManager(), definition->getLocation()) &&
        handedToProcessGroupSize(definition->getParamDecl(use.index), depth + 1))
      return true;
  }
  return false;
}

bool ValueFacts::isWorldSizeImpl(ResolvedExpr value, unsigned depth) const {
  if (!value.expr || depth > kMaxDepth)
    return false;
  value = resolve(value);
  const Expr *expr = stripCasts(value.expr);
  if (auto *call = dyn_cast<CallExpr>(expr)) {
    ApiCallInfo info = classifyCall(call, options_);
    if (info.kind == ApiKind::WorldSizeQuery)
      return true;
    if (const FunctionDecl *callee = call->getDirectCallee()) {
      // getenv("WORLD_SIZE")
      if (callee->getIdentifier() &&
          (callee->getName() == "getenv" || callee->getName() == "secure_getenv") &&
          call->getNumArgs() == 1)
        if (auto *literal = dyn_cast<clang::StringLiteral>(stripCasts(call->getArg(0))))
          return literal->getString() == "WORLD_SIZE";
      // A helper of the translation unit: int world_size() { return pg->getSize(); }
      if (const FunctionDecl *definition = callee->getDefinition()) {
        if (definition->getBody() &&
            !context_.getSourceManager().isInSystemHeader(definition->getLocation())) {
          // Every return is read, not only up to the first match: each fills the cache.
          bool found = false;
          for (const Expr *returned : returnedValues(definition->getBody(), /*intoLambdas=*/true))
            if (isWorldSizeImpl({returned, nullptr}, depth + 1))
              found = true;
          if (found)
            return true;
        }
      }
    }
  }
  if (const ValueDecl *decl = declOfLValue(expr))
    return isWorldSizeDecl(decl, depth);
  // A value that grows with W (N * W); not one divided by it: the steps
  // left per rank (`nbs / (batch * world)`) shrink as W grows.
  if (auto *binary = dyn_cast<BinaryOperator>(expr)) {
    if (binary->getOpcode() == BO_Div)
      return isWorldSizeImpl({binary->getLHS(), value.frame}, depth);
    if (binary->getOpcode() == BO_Rem)
      return false;
  }
  for (const Stmt *child : expr->children())
    if (auto *childExpr = dyn_cast_or_null<Expr>(child))
      if (isWorldSizeImpl({childExpr, value.frame}, depth))
        return true;
  return false;
}

bool ValueFacts::readsGradient(ResolvedExpr value) const {
  return readsGradientImpl(value, 0, /*throughReductions=*/true);
}

bool ValueFacts::carriesGradient(ResolvedExpr value) const {
  return readsGradientImpl(value, 0, /*throughReductions=*/false);
}

namespace {
/// Tensor methods and functions whose result no longer holds the elements.
bool isReduction(const CallExpr *call) {
  const FunctionDecl *callee = call->getDirectCallee();
  if (!callee || !callee->getIdentifier())
    return false;
  static const char *const names[] = {"norm", "sum", "mean",  "item",    "max", "min",
                                      "std",  "var", "numel", "abs_max", "all", "any"};
  for (const char *name : names)
    if (callee->getName() == name)
      return true;
  return false;
}
} // namespace

bool ValueFacts::readsGradientImpl(ResolvedExpr value, unsigned depth,
                                   bool throughReductions) const {
  if (!value.expr || depth > kMaxDepth)
    return false;
  value = resolve(value);
  const Expr *expr = stripImplicit(value.expr);
  if (auto *call = dyn_cast<CallExpr>(expr)) {
    if (classifyCall(call, options_).kind == ApiKind::GradAccess)
      return true;
    if (!throughReductions && isReduction(call))
      return false;
    // A helper of the file that returns a value computed from the gradients
    // (`calc_norm_of_grads(params)`, `gradient_of(k)` returning params_[k].grad()),
    // read with the helper's parameters unbound.
    if (const FunctionDecl *callee = call->getDirectCallee())
      if (const FunctionDecl *definition = callee->getDefinition();
          definition && definition->hasBody() &&
          isUserCode(context_.getSourceManager(), definition->getLocation()))
        for (const Expr *returned : returnedValues(definition->getBody()))
          if (readsGradientImpl({returned, nullptr}, depth + 1, throughReductions))
            return true;
  }
  if (const ValueDecl *decl = declOfLValue(expr)) {
    auto &cache = throughReductions ? gradientDecls_ : gradientElementDecls_;
    auto found = cache.find(decl);
    if (found != cache.end())
      return found->second;
    cache[decl] = false; // breaks cycles such as g = g + p.grad()
    bool result = false;
    for (const ValueOrigin &origin : originsOf(decl))
      if ((result = readsGradientImpl({origin.value, nullptr}, depth + 1, throughReductions)))
        break;
    cache[decl] = result;
    return result;
  }
  for (const Stmt *child : expr->children())
    if (auto *childExpr = dyn_cast_or_null<Expr>(child))
      if (readsGradientImpl({childExpr, value.frame}, depth, throughReductions))
        return true;
  return false;
}

void ValueFacts::modulesOptimizedBy(const ValueDecl *optimizer,
                                    llvm::SmallPtrSetImpl<const ValueDecl *> &out) const {
  if (!optimizer)
    return;
  std::function<void(const Stmt *)> scan = [&](const Stmt *stmt) {
    if (!stmt)
      return;
    if (auto *call = dyn_cast<CXXMemberCallExpr>(stmt)) {
      const FunctionDecl *callee = call->getDirectCallee();
      if (callee && callee->getIdentifier() &&
          (callee->getName() == "parameters" || callee->getName() == "named_parameters"))
        if (const ValueDecl *module = declOfLValue(call->getImplicitObjectArgument()))
          out.insert(module);
    }
    for (const Stmt *child : stmt->children())
      scan(child);
  };
  for (const ValueOrigin &origin : originsOf(optimizer))
    if (origin.kind == ValueOrigin::Init || origin.kind == ValueOrigin::Assign)
      scan(origin.value);
}

} // namespace gradlint
