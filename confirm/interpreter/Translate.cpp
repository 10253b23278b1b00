#include "confirm/interpreter/Translate.h"

#include "model/ApiCalls.h"
#include "model/AstHelpers.h"
#include "model/UserCode.h"
#include "model/builder/WalkState.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <set>

using namespace clang;

namespace gradlint::interp {

namespace {

using NodePtr = std::unique_ptr<Node>;

const char *const kOptimizerTypes[] = {"torch::optim::SGD", "torch::optim::AdamW",
                                       "torch::optim::Adam", "torch::optim::RMSprop",
                                       "torch::optim::Adagrad"};

/// The record behind a type: through references, pointers, smart pointers
/// and ModuleHolder-like wrappers (their first template argument).
const CXXRecordDecl *recordBehind(QualType type, unsigned depth = 0) {
  if (type.isNull() || depth > 4)
    return nullptr;
  type = type.getNonReferenceType();
  if (type->isPointerType())
    return recordBehind(type->getPointeeType(), depth + 1);
  const CXXRecordDecl *record = type->getAsCXXRecordDecl();
  if (auto *spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(record)) {
    llvm::StringRef name = spec->getName();
    if ((name == "shared_ptr" || name == "unique_ptr" || name == "ModuleHolder") &&
        spec->getTemplateArgs().size() >= 1 &&
        spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
      return recordBehind(spec->getTemplateArgs()[0].getAsType(), depth + 1);
  }
  return record;
}

std::string optimizerTypeOf(const CXXRecordDecl *record) {
  for (const char *type : kOptimizerTypes)
    if (isOrDerivesFrom(record, type))
      return llvm::StringRef(type).rsplit("::").second.str();
  return "";
}

bool isOptimizerType(QualType type) {
  const CXXRecordDecl *record = recordBehind(type);
  return record &&
         (isOrDerivesFrom(record, "torch::optim::Optimizer") || !optimizerTypeOf(record).empty());
}

bool isModuleRecord(const CXXRecordDecl *record) {
  if (!record)
    return false;
  if (isOrDerivesFrom(record, "torch::nn::Module"))
    return true;
  if (auto *spec = dyn_cast<ClassTemplateSpecializationDecl>(record))
    if (spec->getName() == "ModuleHolder")
      return true;
  // A holder (torch::nn::Linear, TORCH_MODULE(Net)) derives from ModuleHolder<Impl>.
  if (!record->hasDefinition())
    return false;
  for (const CXXBaseSpecifier &base : record->getDefinition()->bases())
    if (auto *spec =
            dyn_cast_or_null<ClassTemplateSpecializationDecl>(base.getType()->getAsCXXRecordDecl()))
      if (spec->getName() == "ModuleHolder")
        return true;
  return false;
}

bool isModuleType(QualType type) { return isModuleRecord(recordBehind(type)); }

bool isTensorType(QualType type) {
  const CXXRecordDecl *record = recordBehind(type);
  return record &&
         (isOrDerivesFrom(record, "at::Tensor") || isOrDerivesFrom(record, "at::TensorBase"));
}

bool isIntegral(QualType type) {
  // A ParenListExpr (`real_t x(-1.0)` with a dependent real_t) has no type.
  if (type.isNull())
    return false;
  type = type.getNonReferenceType().getCanonicalType();
  return type->isIntegralOrEnumerationType();
}

std::string calleeName(const CallExpr *call) {
  if (const FunctionDecl *callee = call->getDirectCallee())
    if (callee->getIdentifier())
      return callee->getName().str();
  const Expr *object = nullptr;
  if (std::optional<std::string> name = dependentCalleeName(call, &object))
    return *name;
  return "";
}

/// Whether `call` names ReduceOp::AVG (c10d's default is SUM).
bool namesAverage(const Stmt *stmt) {
  if (!stmt)
    return false;
  if (auto *ref = dyn_cast<DeclRefExpr>(stmt))
    if (ref->getDecl()->getIdentifier()) {
      llvm::StringRef name = ref->getDecl()->getName();
      if (name == "AVG" || name == "AVERAGE" || name == "MEAN")
        return true;
    }
  if (auto *member = dyn_cast<MemberExpr>(stmt))
    if (member->getMemberDecl()->getIdentifier() && member->getMemberDecl()->getName() == "AVG")
      return true;
  for (const Stmt *child : stmt->children())
    if (namesAverage(child))
      return true;
  return false;
}

std::string formatValue(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", value);
  return buffer;
}

/// Every call and construction of the translation unit's functions, by callee.
class CallSites : public RecursiveASTVisitor<CallSites> {
public:
  explicit CallSites(ASTContext &context) {
    for (Decl *decl : context.getTranslationUnitDecl()->decls())
      if (!context.getSourceManager().isInSystemHeader(decl->getLocation()))
        TraverseDecl(decl);
  }
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitCallExpr(CallExpr *call) {
    if (const FunctionDecl *callee = call->getDirectCallee())
      sites_[callee->getCanonicalDecl()].push_back(
          {call->getArgs(), call->getNumArgs(), isa<CXXOperatorCallExpr>(call)});
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *construct) {
    sites_[construct->getConstructor()->getCanonicalDecl()].push_back(
        {construct->getArgs(), construct->getNumArgs(), false});
    return true;
  }
  struct Site {
    const Expr *const *args;
    unsigned count;
    bool operatorCall; ///< a member operator's object is argument 0
  };
  const std::vector<Site> *of(const FunctionDecl *fn) const {
    auto found = sites_.find(fn->getCanonicalDecl());
    return found == sites_.end() ? nullptr : &found->second;
  }

private:
  std::map<const FunctionDecl *, std::vector<Site>> sites_;
};

class Translator {
public:
  Translator(const TrainingLoop &loop, ValueFacts &facts)
      : loop_(loop), facts_(facts), context_(facts.context()), sm_(context_.getSourceManager()),
        code_(std::make_shared<LoopCode>()) {}

  std::shared_ptr<const LoopCode> run() {
    readRoles();
    const FunctionDecl *entry = instantiated(loop_.function);
    if (!entry || !entry->hasBody()) {
      code_->problem = "the training loop's function has no body in this file";
      return code_;
    }
    code_->stepFunction = loop_.kind == LoopKind::StepFunction;
    code_->entry = function(entry);
    // A lambda called once per micro-batch runs inside its function: the
    // counters it captures live there, and the loops that call it read the data.
    if (auto *method = dyn_cast<CXXMethodDecl>(entry);
        code_->stepFunction && method && method->getParent()->isLambda())
      if (auto *outer =
              dyn_cast_or_null<FunctionDecl>(method->getParent()->getParentFunctionOrMethod()))
        if (outer->hasBody()) {
          int lambda = code_->entry;
          code_->entry = function(instantiated(outer));
          code_->stepFunction = false;
          markCallingLoops(*code_->functions[static_cast<size_t>(code_->entry)].body, lambda);
        }
    if (const TrainingEvent *step = loop_.boundaryStep())
      if (step->optimizer) {
        code_->loopOptimizer = optimizerId(step->optimizer);
        applyModelDivisions(*step, code_->loopOptimizer);
      }
    for (size_t index = 0; index < code_->functions.size(); ++index)
      markFunction(static_cast<int>(index));
    code_->distributed = distributed_;
    if (loop_.end.batchCountValue && *loop_.end.batchCountValue > 0)
      code_->batchCount = static_cast<long>(*loop_.end.batchCountValue);
    code_->gradientType = loop_.halfPrecision.type;
    for (SchedulerSpec &scheduler : code_->schedulers)
      if (scheduler.optimizer < 0)
        scheduler.optimizer = code_->loopOptimizer >= 0   ? code_->loopOptimizer
                              : code_->optimizers.empty() ? -1
                                                          : 0;
    for (const Function &function : code_->functions)
      code_->hasDataLoop = code_->hasDataLoop || (function.body && hasDataLoop(*function.body));
    return code_;
  }

private:
  const TrainingLoop &loop_;
  ValueFacts &facts_;
  ASTContext &context_;
  const SourceManager &sm_;
  std::shared_ptr<LoopCode> code_;
  std::map<const FunctionDecl *, int> functions_;
  std::map<const Decl *, int> places_;
  std::map<unsigned, int> optimizers_;         // by the declaration's location
  std::set<unsigned> stepsDecls_, worldDecls_; // raw locations of the declarations
  const Expr *stepsExpr_ = nullptr;
  const Expr *worldExpr_ = nullptr;
  std::set<const Expr *> stepsExprs_, worldExprs_;
  bool distributed_ = false;
  std::vector<int> markMemo_; // per function: -1 unknown, 0 in progress/none, 1 work

  unsigned lineOf(SourceLocation loc) const {
    return loc.isValid() ? sm_.getPresumedLineNumber(sm_.getExpansionLoc(loc)) : 0;
  }

  std::string textOf(const Stmt *stmt) const {
    if (!stmt)
      return "";
    CharSourceRange range = CharSourceRange::getTokenRange(stmt->getSourceRange());
    std::string text =
        Lexer::getSourceText(sm_.getExpansionRange(range), sm_, context_.getLangOpts()).str();
    if (text.size() > 80)
      text = text.substr(0, 77) + "...";
    return text;
  }

  /// N and W as the model read them: the declarations (or the expression)
  /// that stand for them.
  void readRoles() {
    auto record = [&](const SymbolicValue &value, std::set<unsigned> &decls, const Expr *&expr,
                      std::string &name) {
      if (!value.expr)
        return;
      expr = stripCasts(value.expr);
      llvm::SmallPtrSet<const ValueDecl *, 4> aliases;
      facts_.aliasDecls({value.expr, nullptr}, aliases);
      if (const ValueDecl *decl = facts_.referencedDecl({value.expr, nullptr}))
        aliases.insert(decl);
      for (const ValueDecl *decl : aliases) {
        decls.insert(decl->getLocation().getRawEncoding());
        if (decl->getIdentifier())
          name = decl->getName().str();
      }
      if (name.empty())
        name = textOf(value.expr);
    };
    const TrainingLoop::RunValues run = loop_.runValues();
    code_->accumulationSteps = run.steps;
    code_->accumulationStepsFromCode = run.stepsFromCode;
    code_->assumedWorldSize = run.assumedWorldSize;
    if (loop_.window)
      record(loop_.window->steps, stepsDecls_, stepsExpr_, code_->stepsName);
    record(loop_.worldSize, worldDecls_, worldExpr_, code_->worldSizeName);
    // Divisors the model read as N or as W (a helper's parameter, a communicator's size()).
    for (const TrainingEvent &event : loop_.events)
      for (const std::vector<ScaleFactor> *factors :
           {&event.scaling, &event.learningRateScaling, &event.weightDecayScaling})
        for (const ScaleFactor &factor : *factors) {
          if (!factor.divisor || factor.isAccumulationSteps == factor.isWorldSize)
            continue;
          (factor.isWorldSize ? worldExprs_ : stepsExprs_).insert(stripCasts(factor.divisor));
          if (const ValueDecl *decl = facts_.referencedDecl({factor.divisor, nullptr}))
            (factor.isWorldSize ? worldDecls_ : stepsDecls_)
                .insert(decl->getLocation().getRawEncoding());
        }
    if (run.worldSizeFromCode) {
      code_->worldSize = run.worldSize;
      code_->worldSizeFromCode = true;
    }
    for (const TrainingEvent &event : loop_.events) {
      if (event.steppedEveryMicroBatch)
        continue; // a second, non-accumulating optimizer's work
      bool byWorldSize = std::any_of(event.scaling.begin(), event.scaling.end(),
                                     [](const ScaleFactor &factor) { return factor.isWorldSize; });
      if (event.kind == EventKind::Backward && byWorldSize)
        code_->lossDividedByWorldSize = true;
      if ((event.kind == EventKind::GradDivide && byWorldSize) ||
          (event.kind == EventKind::AllReduce && event.reduceOp == ReduceOpKind::Average))
        code_->gradientsAveragedOverRanks = true;
    }
  }

  /// A template's first instantiation (its calls are resolved), else itself.
  const FunctionDecl *instantiated(const FunctionDecl *fn) const {
    if (!fn)
      return nullptr;
    if (const FunctionTemplateDecl *tmpl = fn->getDescribedFunctionTemplate())
      for (const FunctionDecl *spec : tmpl->specializations())
        if (spec->hasBody())
          return spec;
    if (auto *method = dyn_cast<CXXMethodDecl>(fn))
      if (auto *record = dyn_cast<CXXRecordDecl>(method->getParent()))
        if (const ClassTemplateDecl *tmpl = record->getDescribedClassTemplate())
          for (const ClassTemplateSpecializationDecl *spec : tmpl->specializations())
            for (const CXXMethodDecl *candidate : spec->methods())
              if (candidate->getLocation() == method->getLocation() && candidate->hasBody())
                return candidate;
    return fn->getDefinition() ? fn->getDefinition() : fn;
  }

  int function(const FunctionDecl *fn) {
    fn = fn->getDefinition() ? fn->getDefinition() : fn;
    auto found = functions_.find(fn);
    if (found != functions_.end())
      return found->second;
    int index = static_cast<int>(code_->functions.size());
    functions_[fn] = index;
    code_->functions.emplace_back();
    std::string name = fn->getNameAsString();
    if (auto *method = dyn_cast<CXXMethodDecl>(fn); method && method->getParent()->isLambda())
      name = "lambda";
    std::vector<Place> parameters;
    std::vector<bool> integers;
    std::vector<std::optional<double>> constants;
    for (const ParmVarDecl *param : fn->parameters()) {
      parameters.push_back(place(param));
      integers.push_back(isIntegral(param->getType()));
      constants.push_back(isIntegral(param->getType()) || param->getType()->isRealFloatingType()
                              ? parameterConstant(param, 0)
                              : std::nullopt);
    }
    NodePtr body = fn->getBody() ? statement(fn->getBody()) : nullptr;
    Function &slot = code_->functions[static_cast<size_t>(index)];
    slot.name = name;
    slot.parameters = std::move(parameters);
    slot.integerParameters = std::move(integers);
    slot.parameterConstants = std::move(constants);
    slot.body = std::move(body);
    return index;
  }

  Place place(const ValueDecl *decl) {
    Place result;
    const auto *var = dyn_cast<VarDecl>(decl);
    result.shared = isa<FieldDecl>(decl) || (var && !var->isLocalVarDeclOrParm()) ||
                    (var && var->isStaticLocal());
    auto found = places_.find(decl);
    if (found == places_.end()) {
      found = places_.emplace(decl, static_cast<int>(places_.size())).first;
      if (result.shared)
        sharedInitial(decl, found->second);
    }
    result.id = found->second;
    result.name = decl->getNameAsString();
    return result;
  }

  /// A field's or global's value before the loop: its initialiser, a
  /// constructor's member initialiser, else 0 for an integer counter (listed).
  void sharedInitial(const ValueDecl *decl, int id) {
    Place shared{true, id, decl->getNameAsString()};
    // N or W that the model did not read as a constant: its stand-in is the
    // run's value (read through the role), not an initialiser the code overwrites.
    unsigned raw = decl->getLocation().getRawEncoding();
    if ((stepsDecls_.count(raw) && !code_->accumulationStepsFromCode) ||
        (worldDecls_.count(raw) && !code_->worldSizeFromCode))
      return;
    const Expr *init = nullptr;
    if (auto *var = dyn_cast<VarDecl>(decl))
      init = var->getInit();
    if (auto *field = dyn_cast<FieldDecl>(decl)) {
      // The model's reading first: the value every construction of the file
      // leaves (constructor bodies and the methods they call included).
      if (std::optional<double> built = facts_.constructedFieldValue(field)) {
        code_->sharedInitial.push_back({shared, *built});
        return;
      }
      if (const Expr *assigned = constructorBodyAssignment(field);
          assigned && computing_.insert(field).second) {
        NodePtr value = expression(assigned);
        code_->constructorValues.emplace_back(shared, std::move(value));
        computing_.erase(field);
      }
      init = field->getInClassInitializer();
      if (auto *record = dyn_cast<CXXRecordDecl>(field->getParent()))
        for (const CXXConstructorDecl *ctor : record->ctors())
          for (const CXXCtorInitializer *member : ctor->inits())
            if (member->getMember() == field && member->isWritten())
              init = member->getInit();
      if (!init)
        init = constructorAssignment(field);
    }
    if (init)
      if (std::optional<double> value = constant(init)) {
        code_->sharedInitial.push_back({shared, *value});
        return;
      }
    if (init || !isIntegral(decl->getType()) || isRole(decl))
      return;
    // A counter set only to constants (`count_ = 0;` in a constructor or a
    // reset) starts at the first of them; one set from anything else is unknown.
    std::optional<double> first;
    for (const ValueOrigin &origin : facts_.originsOf(decl)) {
      if (origin.kind != ValueOrigin::Init && origin.kind != ValueOrigin::Assign)
        continue;
      std::optional<double> value = constant(origin.value);
      if (!value)
        return;
      if (!first)
        first = value;
    }
    code_->sharedInitial.push_back({shared, first.value_or(0.0)});
    code_->assumptions.push_back({shared.name, formatValue(first.value_or(0.0)),
                                  first ? "the first constant the code assigns it"
                                        : "its initial value is not in the code"});
  }

  bool isRole(const ValueDecl *decl) const {
    unsigned raw = decl->getLocation().getRawEncoding();
    return stepsDecls_.count(raw) || worldDecls_.count(raw);
  }

  Role roleOf(const ValueDecl *decl, const Expr *expr) const {
    unsigned raw = decl ? decl->getLocation().getRawEncoding() : 0;
    if ((decl && stepsDecls_.count(raw)) ||
        (expr && (expr == stepsExpr_ || stepsExprs_.count(expr))))
      return Role::AccumulationSteps;
    if ((decl && worldDecls_.count(raw)) ||
        (expr && (expr == worldExpr_ || worldExprs_.count(expr))))
      return Role::WorldSize;
    if (decl && decl->getIdentifier()) {
      std::string name = llvm::StringRef(decl->getName()).lower();
      if (name == "rank" || name == "rank_" || name == "local_rank" || name == "global_rank")
        return Role::Rank;
      if (name == "world" || name == "world_size" || name == "world_size_" || name == "worldsize" ||
          name == "nranks" || name == "num_ranks" || name == "num_replicas")
        return Role::WorldSize;
    }
    return Role::None;
  }

  /// A constructor of the user's code whose body does something (an RAII
  /// scope that sets a shared flag, a helper that stores N): the body runs
  /// like a method, so that the fields it writes hold their values. Not a
  /// module's (its layers are the stand-in model's) nor the record whose
  /// method holds the loop (LoopCode::constructorValues reads that one).
  NodePtr constructorRun(const CXXConstructExpr *construct) {
    const CXXConstructorDecl *ctor = construct->getConstructor();
    const FunctionDecl *definition = nullptr;
    if (!ctor || !ctor->hasBody(definition) || !definition)
      return nullptr;
    auto *body = dyn_cast_or_null<CompoundStmt>(definition->getBody());
    const CXXRecordDecl *record = ctor->getParent();
    auto *loopMethod = dyn_cast_or_null<CXXMethodDecl>(loop_.function);
    if (!body || body->body_empty() || !isUserCode(sm_, definition->getLocation()) ||
        isModuleRecord(record) || (loopMethod && loopMethod->getParent() == record))
      return nullptr;
    NodePtr node = make(NodeKind::CallUser, construct);
    node->function = function(definition);
    node->op = record->getNameAsString();
    node->children.push_back(make(NodeKind::Unknown, nullptr));
    for (const Expr *arg : construct->arguments())
      node->children.push_back(expression(arg));
    return node;
  }

  NodePtr make(NodeKind kind, const Stmt *source) {
    auto node = std::make_unique<Node>();
    node->kind = kind;
    if (source) {
      node->line = lineOf(source->getBeginLoc());
      node->text = textOf(source);
      if (auto *expr = dyn_cast<Expr>(source)) {
        node->integer = isIntegral(expr->getType());
        node->isTensor = isTensorType(expr->getType());
        if (isa<CallExpr>(stripCasts(expr)))
          node->role = roleOf(nullptr, stripCasts(expr)); // comm.size(), world_size()
      }
    }
    return node;
  }

  NodePtr number(double value, const Stmt *source, bool integer) {
    NodePtr node = make(NodeKind::Number, source);
    node->number = value;
    node->integer = integer;
    return node;
  }

  NodePtr block(std::vector<NodePtr> statements, const Stmt *source) {
    NodePtr node = make(NodeKind::Block, source);
    node->children = std::move(statements);
    return node;
  }

  // ---- statements

  NodePtr statement(const Stmt *stmt) {
    if (!stmt)
      return block({}, nullptr);
    if (auto *expr = dyn_cast<Expr>(stmt))
      return expression(expr);
    if (auto *compound = dyn_cast<CompoundStmt>(stmt)) {
      std::vector<NodePtr> statements;
      for (const Stmt *child : compound->body())
        statements.push_back(statement(child));
      return block(std::move(statements), stmt);
    }
    if (auto *decls = dyn_cast<DeclStmt>(stmt)) {
      std::vector<NodePtr> statements;
      for (const Decl *decl : decls->decls())
        if (auto *var = dyn_cast<VarDecl>(decl))
          statements.push_back(declaration(var));
      return block(std::move(statements), stmt);
    }
    if (auto *ifStmt = dyn_cast<IfStmt>(stmt)) {
      std::vector<NodePtr> statements;
      if (ifStmt->getInit())
        statements.push_back(statement(ifStmt->getInit()));
      if (const VarDecl *var = ifStmt->getConditionVariable())
        statements.push_back(declaration(var));
      NodePtr node = make(NodeKind::If, stmt);
      node->text = textOf(ifStmt->getCond());
      node->children.push_back(expression(ifStmt->getCond()));
      node->children.push_back(statement(ifStmt->getThen()));
      node->children.push_back(statement(ifStmt->getElse()));
      statements.push_back(std::move(node));
      return block(std::move(statements), nullptr);
    }
    if (auto *forStmt = dyn_cast<ForStmt>(stmt)) {
      NodePtr node = loopNode(stmt, forStmt->getCond());
      node->children.push_back(statement(forStmt->getInit()));
      if (const VarDecl *var = forStmt->getConditionVariable())
        node->children.push_back(declaration(var));
      else
        node->children.push_back(forStmt->getCond() ? expression(forStmt->getCond())
                                                    : number(1, nullptr, true));
      node->children.push_back(forStmt->getInc() ? expression(forStmt->getInc())
                                                 : block({}, nullptr));
      node->children.push_back(statement(forStmt->getBody()));
      return node;
    }
    if (auto *whileStmt = dyn_cast<WhileStmt>(stmt)) {
      NodePtr node = loopNode(stmt, whileStmt->getCond());
      node->children.push_back(block({}, nullptr));
      if (const VarDecl *var = whileStmt->getConditionVariable())
        node->children.push_back(declaration(var));
      else
        node->children.push_back(expression(whileStmt->getCond()));
      node->children.push_back(block({}, nullptr));
      node->children.push_back(statement(whileStmt->getBody()));
      return node;
    }
    if (auto *doStmt = dyn_cast<DoStmt>(stmt)) {
      NodePtr node = loopNode(stmt, doStmt->getCond());
      node->postCondition = true;
      node->children.push_back(block({}, nullptr));
      node->children.push_back(expression(doStmt->getCond()));
      node->children.push_back(block({}, nullptr));
      node->children.push_back(statement(doStmt->getBody()));
      return node;
    }
    if (auto *range = dyn_cast<CXXForRangeStmt>(stmt)) {
      NodePtr node = loopNode(stmt, range->getRangeInit());
      node->rangeOver = true;
      node->place = place(range->getLoopVariable());
      node->children.push_back(expression(range->getRangeInit()));
      node->children.push_back(block({}, nullptr));
      node->children.push_back(block({}, nullptr));
      node->children.push_back(statement(range->getBody()));
      return node;
    }
    if (isa<BreakStmt>(stmt))
      return make(NodeKind::Break, stmt);
    if (isa<ContinueStmt>(stmt))
      return make(NodeKind::Continue, stmt);
    if (auto *ret = dyn_cast<ReturnStmt>(stmt)) {
      NodePtr node = make(NodeKind::Return, stmt);
      if (ret->getRetValue())
        node->children.push_back(expression(ret->getRetValue()));
      return node;
    }
    if (isa<NullStmt>(stmt))
      return block({}, nullptr);
    if (auto *tryStmt = dyn_cast<CXXTryStmt>(stmt))
      return statement(tryStmt->getTryBlock());
    if (auto *attributed = dyn_cast<AttributedStmt>(stmt))
      return statement(attributed->getSubStmt());
    if (auto *label = dyn_cast<LabelStmt>(stmt))
      return statement(label->getSubStmt());
    // switch, goto, asm: not run; the executor refuses it when it trains.
    NodePtr node = make(NodeKind::Unknown, stmt);
    node->op = stmt->getStmtClassName();
    for (const Stmt *child : stmt->children())
      if (child)
        node->children.push_back(statement(child));
    return node;
  }

  NodePtr loopNode(const Stmt *stmt, const Stmt *condition) {
    NodePtr node = make(NodeKind::Loop, stmt);
    node->text = textOf(condition);
    node->isDataLoop = loop_.kind == LoopKind::Loop && loop_.loop &&
                       stmt->getBeginLoc() == loop_.loop->getBeginLoc();
    node->isWindowLoop = loop_.window && loop_.window->guard.innerLoop &&
                         stmt->getBeginLoc() == loop_.window->guard.innerLoop->getBeginLoc();
    return node;
  }

  NodePtr declaration(const VarDecl *var) {
    NodePtr node = make(NodeKind::Declare, var->getInit());
    node->line = lineOf(var->getLocation());
    node->text = var->getNameAsString();
    node->place = place(var);
    node->integer = isIntegral(var->getType());
    node->isUnsigned = var->getType()->isUnsignedIntegerType();
    if (isOptimizerType(var->getType()) && !var->getType()->isReferenceType() &&
        !var->getType()->isPointerType())
      node->optimizer = optimizerId(var);
    if (const Expr *init = var->getInit()) {
      if (var->getType()->isReferenceType() || !isOptimizerType(var->getType()))
        node->children.push_back(expression(init));
      else
        node->children.push_back(optimizerValue(var, init));
    }
    return node;
  }

  // ---- expressions

  NodePtr expression(const Expr *expr) {
    NodePtr node = translateExpression(expr);
    if (expr && loop_.window && expr == loop_.window->guard.condition) {
      node->isWindowGuard = true;
      node->boundaryWhenFalse = loop_.window->guard.viaEarlyContinue;
    }
    return node;
  }

  NodePtr translateExpression(const Expr *expr) {
    if (!expr)
      return make(NodeKind::Unknown, nullptr);
    if (auto *literal = dyn_cast<IntegerLiteral>(expr))
      return number(static_cast<double>(literal->getValue().getSExtValue()), expr, true);
    if (auto *literal = dyn_cast<FloatingLiteral>(expr))
      return number(literal->getValueAsApproximateDouble(), expr, false);
    if (auto *literal = dyn_cast<CXXBoolLiteralExpr>(expr))
      return number(literal->getValue() ? 1 : 0, expr, true);
    if (auto *literal = dyn_cast<CharacterLiteral>(expr))
      return number(literal->getValue(), expr, true);
    if (isa<CXXNullPtrLiteralExpr>(expr))
      return number(0, expr, true);
    if (auto *paren = dyn_cast<ParenExpr>(expr))
      return expression(paren->getSubExpr());
    if (auto *constant = dyn_cast<ConstantExpr>(expr))
      return expression(constant->getSubExpr());
    if (auto *cleanups = dyn_cast<ExprWithCleanups>(expr))
      return expression(cleanups->getSubExpr());
    if (auto *temp = dyn_cast<MaterializeTemporaryExpr>(expr))
      return expression(temp->getSubExpr());
    if (auto *bind = dyn_cast<CXXBindTemporaryExpr>(expr))
      return expression(bind->getSubExpr());
    if (auto *defaultArg = dyn_cast<CXXDefaultArgExpr>(expr))
      return expression(defaultArg->getExpr());
    if (auto *defaultInit = dyn_cast<CXXDefaultInitExpr>(expr))
      return expression(defaultInit->getExpr());
    if (auto *cast = dyn_cast<CastExpr>(expr)) {
      NodePtr inner = expression(cast->getSubExpr());
      bool toInteger = isIntegral(cast->getType());
      if (toInteger && !inner->integer) {
        NodePtr node = make(NodeKind::Unary, expr);
        node->op = cast->getType()->isBooleanType() ? "bool" : "int";
        node->children.push_back(std::move(inner));
        return node;
      }
      if (!toInteger && inner->integer && cast->getType()->isRealFloatingType())
        inner->integer = false; // int -> double: the same number, no truncation
      return inner;
    }
    if (auto *ref = dyn_cast<DeclRefExpr>(expr)) {
      if (auto *enumerator = dyn_cast<EnumConstantDecl>(ref->getDecl()))
        return number(static_cast<double>(enumerator->getInitVal().getSExtValue()), expr, true);
      if (auto *var = dyn_cast<VarDecl>(ref->getDecl()))
        return read(var, expr);
      return make(NodeKind::Unknown, expr);
    }
    if (auto *member = dyn_cast<MemberExpr>(expr)) {
      if (auto *field = dyn_cast<FieldDecl>(member->getMemberDecl()))
        return read(field, expr);
      if (auto *var = dyn_cast<VarDecl>(member->getMemberDecl()))
        return read(var, expr);
      return make(NodeKind::Unknown, expr);
    }
    if (auto *unary = dyn_cast<UnaryOperator>(expr))
      return unaryOperator(unary);
    if (auto *binary = dyn_cast<BinaryOperator>(expr))
      return binaryOperator(binary);
    if (auto *conditional = dyn_cast<ConditionalOperator>(expr)) {
      NodePtr node = make(NodeKind::Conditional, expr);
      node->children.push_back(expression(conditional->getCond()));
      node->children.push_back(expression(conditional->getTrueExpr()));
      node->children.push_back(expression(conditional->getFalseExpr()));
      return node;
    }
    if (auto *call = dyn_cast<CallExpr>(expr))
      return callExpression(call);
    if (auto *construct = dyn_cast<CXXConstructExpr>(expr)) {
      if (isScopedGuard(construct->getConstructor()->getParent()))
        return scopedGuard(expr);
      if (NodePtr run = constructorRun(construct))
        return run;
      if (construct->getNumArgs() == 1 && !isa<CXXTemporaryObjectExpr>(construct))
        return expression(construct->getArg(0)); // copies, moves, conversions
      return listOf(construct->arguments(), expr);
    }
    if (auto *list = dyn_cast<InitListExpr>(expr)) {
      if (list->getNumInits() == 1 && !isTensorType(list->getType()) &&
          !list->getType()->isRecordType())
        return expression(list->getInit(0));
      return listOf(list->inits(), expr);
    }
    if (auto *list = dyn_cast<CXXStdInitializerListExpr>(expr))
      return expression(list->getSubExpr());
    if (auto *functional = dyn_cast<CXXFunctionalCastExpr>(expr))
      return expression(functional->getSubExpr());
    if (auto *trait = dyn_cast<UnaryExprOrTypeTraitExpr>(expr)) {
      Expr::EvalResult result;
      if (trait->EvaluateAsInt(result, context_))
        return number(static_cast<double>(result.Val.getInt().getSExtValue()), expr, true);
    }
    if (isa<CXXThisExpr>(expr) || isa<LambdaExpr>(expr) || isa<StringLiteral>(expr))
      return make(NodeKind::Unknown, expr);
    Expr::EvalResult result;
    if (!expr->isValueDependent() && expr->EvaluateAsRValue(result, context_)) {
      if (result.Val.isInt())
        return number(static_cast<double>(result.Val.getInt().getSExtValue()), expr, true);
      if (result.Val.isFloat())
        return number(result.Val.getFloat().convertToDouble(), expr, false);
    }
    NodePtr node = make(NodeKind::Unknown, expr);
    node->op = expr->getStmtClassName();
    return node;
  }

  /// An aggregate: `{p.grad()}`, `std::vector<Tensor>{a, b}`: its elements' values combined.
  template <typename Range> NodePtr listOf(Range elements, const Expr *expr) {
    NodePtr node = make(NodeKind::Api, expr);
    node->api = ApiOp::TensorOp;
    node->op = "{...}";
    node->children.push_back(make(NodeKind::Unknown, nullptr)); // no object
    for (const Expr *element : elements)
      node->children.push_back(expression(element));
    return node;
  }

  NodePtr read(const ValueDecl *decl, const Expr *expr) {
    // `layer->weight`: a module's parameter, on the runtime's model the
    // tensors of that name in every layer.
    if (auto *field = dyn_cast<FieldDecl>(decl))
      if (auto *record = dyn_cast<CXXRecordDecl>(field->getParent()))
        if (isModuleRecord(record) && isTensorType(field->getType()) &&
            (field->getName() == "weight" || field->getName() == "bias")) {
          NodePtr node = make(NodeKind::Api, expr);
          node->api = ApiOp::Parameters;
          node->op = field->getName().str();
          node->children.push_back(make(NodeKind::Unknown, nullptr));
          return node;
        }
    NodePtr node = make(NodeKind::Read, expr);
    node->place = place(decl);
    node->integer = isIntegral(decl->getType());
    node->isUnsigned = decl->getType()->isUnsignedIntegerType();
    node->role = roleOf(decl, stripCasts(expr));
    node->isModule = isModuleType(decl->getType());
    if (isOptimizerType(decl->getType()))
      node->optimizer = optimizerId(decl);
    if (auto *var = dyn_cast<VarDecl>(decl))
      if (!var->isLocalVarDeclOrParm() && var->getType().isConstQualified() && var->getInit())
        if (std::optional<double> value = facts_.constantNumber({var->getInit(), nullptr}))
          return number(*value, expr, node->integer);
    return node;
  }

  NodePtr unaryOperator(const UnaryOperator *unary) {
    switch (unary->getOpcode()) {
    case UO_PreInc:
    case UO_PreDec:
    case UO_PostInc:
    case UO_PostDec: {
      NodePtr target = expression(unary->getSubExpr());
      if (target->kind != NodeKind::Read)
        return target;
      NodePtr node = make(NodeKind::IncDec, unary);
      node->op = unary->isIncrementOp() ? "++" : "--";
      node->prefix = unary->isPrefix();
      node->place = target->place;
      node->integer = target->integer;
      return node;
    }
    case UO_Deref:
    case UO_AddrOf:
    case UO_Extension: return expression(unary->getSubExpr());
    default: {
      NodePtr node = make(NodeKind::Unary, unary);
      node->op = UnaryOperator::getOpcodeStr(unary->getOpcode()).str();
      node->children.push_back(expression(unary->getSubExpr()));
      return node;
    }
    }
  }

  NodePtr assignment(const Expr *expr, const Expr *lhs, const Expr *rhs, std::string op) {
    NodePtr target = expression(lhs);
    if (target->kind == NodeKind::Api && target->api == ApiOp::Grad) {
      // p.grad() /= N, p.mutable_grad() = p.grad() / N, grad = torch::Tensor()
      NodePtr node = make(NodeKind::Api, expr);
      node->api = ApiOp::ScaleGrad;
      node->op = op;
      node->divides = op == "/=";
      node->perParameter = true;
      node->children.push_back(std::move(target));
      node->children.push_back(expression(rhs));
      return node;
    }
    if (target->kind == NodeKind::Api &&
        (target->api == ApiOp::Index || target->api == ApiOp::Identity)) {
      // acc[k] += p.grad(): an element of a hand-written buffer.
      NodePtr node = make(NodeKind::Api, expr);
      node->api = ApiOp::TensorAssign;
      node->op = op;
      node->children.push_back(std::move(target));
      node->children.push_back(expression(rhs));
      return node;
    }
    if (target->kind != NodeKind::Read) {
      NodePtr node = make(NodeKind::Skipped, expr);
      node->op = "assignment to " + textOf(lhs);
      node->children.push_back(make(NodeKind::Unknown, nullptr));
      node->children.push_back(expression(rhs));
      return node;
    }
    NodePtr node = make(NodeKind::Assign, expr);
    node->op = std::move(op);
    node->place = target->place;
    node->integer = target->integer;
    node->isTensor = target->isTensor;
    node->children.push_back(std::move(target));
    node->children.push_back(expression(rhs));
    return node;
  }

  NodePtr binaryOperator(const BinaryOperator *binary) {
    if (binary->isAssignmentOp())
      return assignment(binary, binary->getLHS(), binary->getRHS(),
                        BinaryOperator::getOpcodeStr(binary->getOpcode()).str());
    NodePtr node =
        make(binary->getOpcode() == BO_Comma ? NodeKind::Comma : NodeKind::Binary, binary);
    node->op = BinaryOperator::getOpcodeStr(binary->getOpcode()).str();
    node->children.push_back(expression(binary->getLHS()));
    node->children.push_back(expression(binary->getRHS()));
    return node;
  }

  /// module->zero_grad() on a module the model found the loop's optimizer
  /// does not train (an EMA copy, a second network).
  bool resetsUntrainedModule(const CallExpr *call) const {
    const TrainingEvent *step = loop_.boundaryStep();
    if (!step || !step->optimizer)
      return false;
    for (const TrainingEvent *reset : loop_.eventsOf(EventKind::GradReset)) {
      if (reset->stmt != call || !reset->module)
        continue;
      llvm::SmallPtrSet<const ValueDecl *, 4> trained;
      facts_.modulesOptimizedBy(step->optimizer, trained);
      return !trained.empty() && !trained.count(reset->module);
    }
    return false;
  }

  /// The one optimizer of the loop whose parameters come from `module`
  /// (-1: none the code shows, or several).
  int trainingOptimizer(const Expr *module) {
    const ValueDecl *decl = module ? facts_.referencedDecl({module, nullptr}) : nullptr;
    if (!decl)
      return -1;
    llvm::SmallPtrSet<const ValueDecl *, 4> optimizers;
    const ValueDecl *found = nullptr;
    for (EventKind kind : {EventKind::Step, EventKind::GradReset})
      for (const TrainingEvent *event : loop_.eventsOf(kind)) {
        if (!event->optimizer || !optimizers.insert(event->optimizer).second)
          continue;
        llvm::SmallPtrSet<const ValueDecl *, 4> trained;
        facts_.modulesOptimizedBy(event->optimizer, trained);
        if (!trained.count(decl))
          continue;
        if (found)
          return -1;
        found = event->optimizer;
      }
    return found ? optimizerId(found) : -1;
  }

  NodePtr api(ApiOp op, const CallExpr *call, const Expr *object, std::string name) {
    NodePtr node = make(NodeKind::Api, call);
    node->api = op;
    node->op = std::move(name);
    node->children.push_back(object ? expression(object) : make(NodeKind::Unknown, nullptr));
    for (const Expr *arg : call->arguments())
      if (!isa<CXXDefaultArgExpr>(arg))
        node->children.push_back(expression(arg));
    return node;
  }

  /// A class of the user's code whose destructor runs code (a no_sync
  /// guard restoring a flag): the interpreter runs neither its constructor
  /// nor its destructor, so it cannot follow what the object switches.
  bool isScopedGuard(const CXXRecordDecl *record) const {
    if (!record || context_.getSourceManager().isInSystemHeader(record->getLocation()))
      return false;
    const CXXDestructorDecl *destructor = record->getDestructor();
    if (!destructor || !destructor->isUserProvided() || !destructor->hasBody())
      return false;
    return assigns(destructor->getBody());
  }
  /// Whether a statement writes a variable or field by `=` (a destructor
  /// that restores what its constructor switched; not one that only logs).
  static bool assigns(const Stmt *stmt) {
    if (!stmt)
      return false;
    if (auto *binary = dyn_cast<BinaryOperator>(stmt); binary && binary->isAssignmentOp())
      return true;
    if (auto *op = dyn_cast<CXXOperatorCallExpr>(stmt); op && op->isAssignmentOp())
      return true;
    for (const Stmt *child : stmt->children())
      if (assigns(child))
        return true;
    return false;
  }
  NodePtr scopedGuard(const Expr *expr) {
    NodePtr node = make(NodeKind::Unknown, expr);
    node->op = "a scoped object whose constructor and destructor the interpreter does not run";
    node->changesTrainingState = true;
    return node;
  }

  NodePtr callExpression(const CallExpr *call) {
    if (QualType made = smartPointerMadeType(call);
        !made.isNull() && isScopedGuard(made->getAsCXXRecordDecl()))
      return scopedGuard(call);
    ApiCallInfo info = classifyCall(call, facts_.options());
    std::string name = calleeName(call);
    const Expr *object = info.object;
    if (!object)
      if (auto *member = dyn_cast<CXXMemberCallExpr>(call))
        object = member->getImplicitObjectArgument();
    auto *op = dyn_cast<CXXOperatorCallExpr>(call);
    if (op && !object && op->getNumArgs() >= 1)
      object = nullptr;
    switch (info.kind) {
    case ApiKind::Backward: {
      if (info.object)
        return api(ApiOp::Backward, call, info.object, "backward");
      NodePtr node = api(ApiOp::Backward, call, nullptr, "backward");
      return node;
    }
    case ApiKind::OptimizerStep: return api(ApiOp::Step, call, info.object, "step");
    case ApiKind::OptimizerZeroGrad: return api(ApiOp::ZeroGrad, call, info.object, "zero_grad");
    case ApiKind::ModuleZeroGrad: {
      NodePtr node = api(ApiOp::ZeroGrad, call, info.object, "zero_grad");
      node->untrainedModule = resetsUntrainedModule(call);
      node->model = trainingOptimizer(info.object);
      return node;
    }
    case ApiKind::TensorReset: return api(ApiOp::ResetGrad, call, info.object, name);
    case ApiKind::TensorScaleInPlace: {
      if (op && op->getNumArgs() == 2 &&
          (op->getOperator() == OO_SlashEqual || op->getOperator() == OO_StarEqual))
        return assignment(call, op->getArg(0), op->getArg(1),
                          op->getOperator() == OO_SlashEqual ? "/=" : "*=");
      NodePtr node = api(ApiOp::ScaleGrad, call, info.object, name);
      node->divides = dividesInPlace(call, info);
      node->perParameter = true;
      return node;
    }
    case ApiKind::GradAccess: return api(ApiOp::Grad, call, info.object, name);
    case ApiKind::ClipGradNorm: return api(ApiOp::ClipNorm, call, nullptr, name);
    case ApiKind::ClipGradValue: return api(ApiOp::ClipValue, call, nullptr, name);
    case ApiKind::ProcessGroupAllReduce:
    case ApiKind::NamedAllReduce: {
      if (info.kind == ApiKind::NamedAllReduce && !info.configured)
        if (const FunctionDecl *callee = builder::inlinableCallee(call, sm_))
          if (callee->hasBody()) {
            // A communicator of the translation unit: its body runs. When the
            // body shows no collective (its exchange is hand-written), the call
            // is the all-reduce (a sum) and the body adds what it does after.
            callee = instantiated(callee);
            int index = function(callee);
            if (containsAllReduce(index))
              break;
            distributed_ = true;
            NodePtr node = make(NodeKind::Comma, call);
            NodePtr reduce = api(ApiOp::AllReduce, call, info.object, name);
            reduce->averages = averages(call, info);
            node->children.push_back(std::move(reduce));
            NodePtr body = make(NodeKind::CallUser, call);
            body->function = index;
            body->op = callee->getNameAsString();
            body->children.push_back(make(NodeKind::Unknown, nullptr));
            for (const Expr *arg : call->arguments())
              body->children.push_back(expression(arg));
            node->children.push_back(std::move(body));
            return node;
          }
      distributed_ = true;
      NodePtr node = api(ApiOp::AllReduce, call, info.object, name);
      node->averages = averages(call, info);
      return node;
    }
    case ApiKind::WorldSizeQuery: {
      NodePtr node = api(ApiOp::WorldSize, call, info.object, name);
      node->role = Role::WorldSize;
      return node;
    }
    case ApiKind::SchedulerStep: {
      NodePtr node = api(ApiOp::SchedulerStep, call, info.object, name);
      node->scheduler = schedulerId(info.object);
      return node;
    }
    case ApiKind::LossFunction: return api(ApiOp::TensorOp, call, nullptr, name);
    case ApiKind::TensorDivide:
    case ApiKind::TensorMultiply: {
      if (op && op->getNumArgs() == 2) {
        NodePtr node = make(NodeKind::Binary, call);
        node->op = info.kind == ApiKind::TensorDivide ? "/" : "*";
        node->children.push_back(expression(op->getArg(0)));
        node->children.push_back(expression(op->getArg(1)));
        return node;
      }
      NodePtr node = make(NodeKind::Api, call);
      node->api = ApiOp::TensorScale;
      node->op = name;
      node->divides = info.kind == ApiKind::TensorDivide;
      const Expr *scaled =
          info.object ? info.object : (call->getNumArgs() ? call->getArg(0) : nullptr);
      node->children.push_back(scaled ? expression(scaled) : make(NodeKind::Unknown, nullptr));
      node->children.push_back(info.operand ? expression(info.operand)
                                            : make(NodeKind::Unknown, nullptr));
      return node;
    }
    default: break;
    }

    if (op) {
      switch (op->getOperator()) {
      case OO_Equal: return assignment(call, op->getArg(0), op->getArg(1), "=");
      case OO_PlusEqual:
      case OO_MinusEqual:
      case OO_StarEqual:
      case OO_SlashEqual:
        return assignment(call, op->getArg(0), op->getArg(1),
                          getOperatorSpelling(op->getOperator()));
      case OO_Plus:
      case OO_Minus:
      case OO_Star:
      case OO_Slash:
        if (op->getNumArgs() == 1 && op->getOperator() == OO_Star)
          return expression(op->getArg(0)); // *pointer
        if (op->getNumArgs() == 2) {
          NodePtr node = make(NodeKind::Binary, call);
          node->op = getOperatorSpelling(op->getOperator());
          node->children.push_back(expression(op->getArg(0)));
          node->children.push_back(expression(op->getArg(1)));
          return node;
        }
        break;
      case OO_Subscript: {
        NodePtr node = make(NodeKind::Api, call);
        node->api = ApiOp::Index;
        node->op = "[]";
        node->children.push_back(expression(op->getArg(0)));
        node->children.push_back(expression(op->getArg(1)));
        return node;
      }
      case OO_Arrow:
        if (op->getNumArgs() == 1)
          return expression(op->getArg(0));
        break;
      case OO_LessLess:
      case OO_GreaterGreater:
        if (!isIntegral(op->getType())) {
          NodePtr node = make(NodeKind::Skipped, call);
          node->op = "stream output";
          node->children.push_back(make(NodeKind::Unknown, nullptr));
          return node;
        }
        break;
      default: break;
      }
    }

    // A module's forward pass: the runtime's model.
    if (const FunctionDecl *callee = call->getDirectCallee()) {
      auto *method = dyn_cast<CXXMethodDecl>(callee);
      bool forwardMethod =
          method && (method->getName() == "forward" || (op && op->getOperator() == OO_Call)) &&
          isModuleRecord(method->getParent());
      if (forwardMethod) {
        NodePtr node = make(NodeKind::Api, call);
        node->api = ApiOp::Forward;
        node->op = "forward";
        node->children.push_back(make(NodeKind::Unknown, nullptr));
        const Expr *module = object ? object : op && op->getNumArgs() ? op->getArg(0) : nullptr;
        node->model = trainingOptimizer(module);
        // Another model's forward pass carries the compared model's gradient
        // only through its input (a discriminator on the generator's output).
        if (node->model >= 0)
          for (unsigned i = op ? 1 : 0; i < call->getNumArgs(); ++i)
            node->children.push_back(expression(call->getArg(i)));
        return node;
      }
    }

    // A function, method or lambda of the translation unit runs as written.
    const FunctionDecl *callee = builder::inlinableCallee(call, sm_);
    if (!callee && op && op->getOperator() == OO_Call)
      callee = builder::callbackLambda(call, nullptr, facts_);
    // A pure virtual hook (`virtual Tensor criterion(...) = 0;`) runs its one
    // overrider in the file, as the model reads it.
    if (auto *method = dyn_cast_or_null<CXXMethodDecl>(callee); method && method->isPureVirtual())
      if (const CXXMethodDecl *overrider = facts_.soleOverrider(method))
        callee = overrider;
    if (callee && callee->hasBody()) {
      callee = instantiated(callee);
      NodePtr node = make(NodeKind::CallUser, call);
      node->function = function(callee);
      node->op = callee->getNameAsString();
      node->children.push_back(object && !op ? expression(object)
                                             : make(NodeKind::Unknown, nullptr));
      unsigned first = op && op->getOperator() == OO_Call ? 1 : 0;
      for (unsigned i = first; i < call->getNumArgs(); ++i)
        node->children.push_back(expression(call->getArg(i)));
      return node;
    }

    // Calls that shape the values the runtime follows.
    if (name == "parameters" || name == "named_parameters" || name == "params") {
      NodePtr node = api(ApiOp::Parameters, call, object, name);
      node->model = trainingOptimizer(object);
      return node;
    }
    // `std::min(start + N, num_batches)`: a window's end on numbers.
    if ((name == "min" || name == "max") && !object && call->getNumArgs() == 2 &&
        !isTensorType(call->getType())) {
      NodePtr node = make(NodeKind::Binary, call);
      node->op = name;
      node->children.push_back(expression(call->getArg(0)));
      node->children.push_back(expression(call->getArg(1)));
      return node;
    }
    if (name == "param_groups")
      return api(ApiOp::ParamGroups, call, object, name);
    if (name == "chunk" || name == "split" || name == "tensor_split" || name == "unbind")
      return api(ApiOp::Chunk, call, object, name);
    if (name == "size" || name == "numel" || name == "length" || name == "defined")
      return api(ApiOp::Size, call, object, name);
    if (name == "detach" || name == "item" || name == "to_double" || name == "to_float")
      return api(ApiOp::Detach, call, object, name);
    if (name == "push_back" || name == "emplace_back")
      return api(ApiOp::PushBack, call, object, name);
    if (name == "value" || name == "data" || name == "get" || name == "at" || name == "front" ||
        name == "back" || name == "move" || name == "ref" || name == "cref")
      return api(ApiOp::Identity, call,
                 object ? object : (call->getNumArgs() ? call->getArg(0) : nullptr), name);
    if (isTensorType(call->getType()))
      return api(ApiOp::TensorOp, call, object, name);
    NodePtr node = api(ApiOp::TensorOp, call, object, name);
    node->kind = NodeKind::Skipped;
    node->integer = isIntegral(call->getType());
    return node;
  }

  /// Marks the innermost loops that call `function` as the data loops.
  /// Returns whether `node` calls it.
  static bool hasDataLoop(const Node &node) {
    if (node.kind == NodeKind::Loop && node.isDataLoop)
      return true;
    for (const std::unique_ptr<Node> &child : node.children)
      if (child && hasDataLoop(*child))
        return true;
    return false;
  }

  bool markCallingLoops(Node &node, int function) {
    bool calls = node.kind == NodeKind::CallUser && node.function == function;
    bool innerLoopCalls = false;
    for (std::unique_ptr<Node> &child : node.children)
      if (child && markCallingLoops(*child, function)) {
        calls = true;
        innerLoopCalls = innerLoopCalls || (child->kind == NodeKind::Loop && child->isDataLoop) ||
                         child->enclosesDataLoop;
      }
    if (node.kind == NodeKind::Loop && calls && !innerLoopCalls)
      node.isDataLoop = true;
    if (innerLoopCalls)
      node.enclosesDataLoop = true; // a scratch mark; mark() recomputes it
    return calls;
  }

  /// ReduceOp::AVG in the call, or in the options it is given. The model read
  /// each all-reduce event with its helper's arguments bound (`op == Op::Sum ?
  /// SUM : AVG` with the caller's op): its reading wins when all agree.
  bool averages(const CallExpr *call, const ApiCallInfo &info) {
    std::optional<ReduceOpKind> modelled;
    bool agree = true;
    for (const TrainingEvent &event : loop_.events) {
      if (event.kind != EventKind::AllReduce)
        continue;
      // The event itself, or a communicator's call whose body holds this one.
      bool same = event.stmt == call;
      if (auto *outer = dyn_cast_or_null<CallExpr>(event.stmt); outer && !same)
        if (const FunctionDecl *callee = outer->getDirectCallee())
          if (const Stmt *body = instantiated(callee)->getBody())
            same = sm_.isPointWithin(call->getBeginLoc(), body->getBeginLoc(), body->getEndLoc());
      if (!same)
        continue;
      agree = agree && (!modelled || *modelled == event.reduceOp);
      modelled = event.reduceOp;
    }
    if (modelled && agree)
      return *modelled == ReduceOpKind::Average;
    return namesAverage(call) ||
           builder::reduceOpOf(facts_, call, info, nullptr) == ReduceOpKind::Average;
  }

  /// Whether a function (or one it calls) runs a mapped all-reduce.
  bool containsAllReduce(int index) {
    std::set<int> seen;
    std::function<bool(const Node &)> visit = [&](const Node &node) {
      if (node.kind == NodeKind::Api && node.api == ApiOp::AllReduce)
        return true;
      if (node.kind == NodeKind::CallUser && node.function >= 0 &&
          seen.insert(node.function).second)
        if (const Node *body = code_->functions[static_cast<size_t>(node.function)].body.get())
          if (visit(*body))
            return true;
      for (const std::unique_ptr<Node> &child : node.children)
        if (child && visit(*child))
          return true;
      return false;
    };
    seen.insert(index);
    const Node *body = code_->functions[static_cast<size_t>(index)].body.get();
    return body && visit(*body);
  }

  // ---- schedulers

  std::map<unsigned, int> schedulers_;

  /// A StepLR whose construction the file shows, else -1 (its step() is skipped).
  int schedulerId(const Expr *object) {
    const ValueDecl *decl = object ? facts_.referencedDecl({object, nullptr}) : nullptr;
    if (!decl)
      return -1;
    unsigned key = decl->getLocation().getRawEncoding();
    if (auto found = schedulers_.find(key); found != schedulers_.end())
      return found->second;
    int id = -1;
    for (const ValueOrigin &origin : facts_.originsOf(decl)) {
      if (origin.kind != ValueOrigin::Init)
        continue;
      const Expr *value = stripImplicit(origin.value);
      if (auto *newExpr = dyn_cast_or_null<CXXNewExpr>(value))
        value = newExpr->getConstructExpr();
      // StepLR s(opt, ...), new StepLR(opt, ...), std::make_unique<StepLR>(opt, ...).
      const CXXRecordDecl *record = nullptr;
      std::vector<const Expr *> args;
      if (auto *construct = dyn_cast_or_null<CXXConstructExpr>(value)) {
        record = construct->getConstructor()->getParent();
        args.assign(construct->arg_begin(), construct->arg_end());
      } else if (auto *call = dyn_cast_or_null<CallExpr>(value)) {
        if (QualType made = smartPointerMadeType(call); !made.isNull()) {
          record = recordBehind(made);
          args.assign(call->arg_begin(), call->arg_end());
        }
      }
      if (!record || !isOrDerivesFrom(record, "torch::optim::StepLR") || args.size() < 2)
        continue;
      const ValueDecl *optimizer = facts_.referencedDecl({args[0], nullptr});
      std::optional<double> stepSize = constant(args[1]);
      std::optional<double> gamma = args.size() >= 3 && !isa<CXXDefaultArgExpr>(args[2])
                                        ? constant(args[2])
                                        : std::optional<double>(0.1);
      if (!optimizer || !stepSize || !gamma || *stepSize < 1)
        continue;
      SchedulerSpec spec;
      spec.name = decl->getNameAsString();
      spec.optimizer = optimizerId(optimizer);
      spec.stepSize = static_cast<int>(*stepSize);
      spec.gamma = *gamma;
      id = static_cast<int>(code_->schedulers.size());
      code_->schedulers.push_back(spec);
      break;
    }
    if (id < 0) {
      // A schedule the runtime does not model: a stand-in that halves the
      // rate on every call, on the optimizer it was built on (or the loop's).
      SchedulerSpec spec;
      spec.name = decl->getNameAsString();
      spec.gamma = 0.5;
      spec.standIn = true;
      for (const ValueOrigin &origin : facts_.originsOf(decl))
        if (origin.kind == ValueOrigin::Init)
          if (const CallExpr *call = dyn_cast_or_null<CallExpr>(stripImplicit(origin.value)))
            for (const Expr *arg : call->arguments())
              if (const ValueDecl *optimizer = facts_.referencedDecl({arg, nullptr});
                  optimizer && spec.optimizer < 0 &&
                  !optimizerTypeOf(recordBehind(optimizer->getType())).empty())
                spec.optimizer = optimizerId(optimizer);
      id = static_cast<int>(code_->schedulers.size());
      code_->schedulers.push_back(spec);
    }
    schedulers_[key] = id;
    return id;
  }

  // ---- optimizers

  int optimizerId(const ValueDecl *decl) {
    // A template's pattern and its instantiation share the declaration's location.
    unsigned key = decl->getLocation().getRawEncoding();
    auto found = optimizers_.find(key);
    if (found != optimizers_.end())
      return found->second;
    int id = static_cast<int>(code_->optimizers.size());
    optimizers_[key] = id;
    optionValuesRead_.clear();
    OptimizerSpec spec = readOptimizer(decl);
    code_->optimizers.push_back(spec);
    optionRanges_[id] = std::move(optionValuesRead_);
    return id;
  }

  NodePtr optimizerValue(const VarDecl *var, const Expr *init) {
    NodePtr node = make(NodeKind::Optimizer, init);
    node->optimizer = optimizerId(var);
    // The parameter list and options are evaluated for their side effects only.
    return node;
  }

  /// The construction behind an optimizer variable: `SGD opt(params, options)`,
  /// `std::make_unique<Adam>(params, options)`, `new AdamW(...)`.
  const Expr *construction(const ValueDecl *decl, std::string &type) {
    for (const ValueOrigin &origin : facts_.originsOf(decl)) {
      if (origin.kind != ValueOrigin::Init && origin.kind != ValueOrigin::Assign)
        continue;
      const Expr *value = stripImplicit(origin.value);
      if (auto *newExpr = dyn_cast_or_null<CXXNewExpr>(value))
        value = newExpr->getConstructExpr();
      if (auto *construct = dyn_cast_or_null<CXXConstructExpr>(value)) {
        type = optimizerTypeOf(construct->getConstructor()->getParent());
        if (!type.empty())
          return construct;
      }
      if (auto *call = dyn_cast_or_null<CallExpr>(value))
        if (QualType made = smartPointerMadeType(call); !made.isNull()) {
          type = optimizerTypeOf(recordBehind(made));
          if (!type.empty())
            return call;
        }
    }
    return nullptr;
  }

  OptimizerSpec readOptimizer(const ValueDecl *decl) {
    OptimizerSpec spec;
    spec.name = decl->getNameAsString();
    std::string type = optimizerTypeOf(recordBehind(decl->getType()));
    const Expr *built = construction(decl, type);
    if (type.empty()) {
      spec.defaulted.push_back({"type", "SGD", "the optimizer's class is not visible"});
      type = "SGD";
    }
    spec.type = type;
    if (type == "SGD")
      spec.lr = 0.01; // no default in LibTorch; the runtime's
    else if (type == "Adagrad")
      spec.lr = 0.01;
    else
      spec.lr = 1e-3;
    if (type == "AdamW")
      spec.weightDecay = 1e-2;
    else if (type == "RMSprop")
      spec.lr = 0.01;
    const Expr *options = nullptr;
    if (auto *construct = dyn_cast_or_null<CXXConstructExpr>(built))
      options = construct->getNumArgs() >= 2 ? construct->getArg(1) : nullptr;
    else if (auto *call = dyn_cast_or_null<CallExpr>(built))
      options = call->getNumArgs() >= 2 ? call->getArg(1) : nullptr;
    bool lrRead = readOptions(options, spec, 0);
    if (!lrRead)
      spec.defaulted.push_back(
          {"lr", formatValue(spec.lr),
           options ? "not a constant in the code" : "the optimizer's options are not visible"});
    spec.written = describeOptimizer(spec);
    return spec;
  }

  static std::string describeOptimizer(const OptimizerSpec &spec) {
    char written[160];
    if (spec.type == "SGD")
      std::snprintf(written, sizeof written, "SGD(lr=%g, momentum=%g, weight_decay=%g%s)", spec.lr,
                    spec.momentum, spec.weightDecay, spec.nesterov ? ", nesterov" : "");
    else if (spec.type == "RMSprop")
      std::snprintf(written, sizeof written,
                    "RMSprop(lr=%g, alpha=%g, momentum=%g, weight_decay=%g)", spec.lr, spec.alpha,
                    spec.momentum, spec.weightDecay);
    else if (spec.type == "Adagrad")
      std::snprintf(written, sizeof written, "Adagrad(lr=%g, lr_decay=%g, weight_decay=%g)",
                    spec.lr, spec.lrDecay, spec.weightDecay);
    else
      std::snprintf(written, sizeof written, "%s(lr=%g, betas=(%g, %g), eps=%g, weight_decay=%g)",
                    spec.type.c_str(), spec.lr, spec.beta1, spec.beta2, spec.eps, spec.weightDecay);
    return written;
  }

  /// The model read the loop optimizer's learning rate or weight decay divided
  /// by N where the interpreter reads no value (a factory's parameter, a
  /// param_groups setter, options built elsewhere): the stand-in value is
  /// divided by the run's N, as listed.
  void applyModelDivisions(const TrainingEvent &step, int id) {
    OptimizerSpec &spec = code_->optimizers[static_cast<size_t>(id)];
    const std::vector<SourceRange> &read = optionRanges_[id];
    auto wasRead = [&](SourceLocation loc) {
      return std::any_of(read.begin(), read.end(), [&](SourceRange range) {
        return !(loc < range.getBegin()) && !(range.getEnd() < loc);
      });
    };
    auto apply = [&](const std::vector<ScaleFactor> &factors, double &field, const char *option) {
      // Its value not read at all, or read where the division is not.
      auto defaulted = std::find_if(spec.defaulted.begin(), spec.defaulted.end(),
                                    [&](const Assumption &a) { return a.name == option; });
      bool unread = std::any_of(factors.begin(), factors.end(), [&](const ScaleFactor &factor) {
        return factor.isAccumulationSteps &&
               (defaulted != spec.defaulted.end() || !wasRead(factor.loc));
      });
      bool folded = defaulted == spec.defaulted.end() &&
                    std::any_of(factors.begin(), factors.end(), [&](const ScaleFactor &factor) {
                      return factor.isAccumulationSteps && wasRead(factor.loc);
                    });
      if (folded && code_->accumulationStepsFromCode && dividedBy(spec, option) == 1.0) {
        // The value read is a constant that already holds the division by N
        // (`1e-3 / kAccum`): recorded, so that the reference can undo it.
        dividedBy(spec, option) = code_->accumulationSteps;
        return;
      }
      if (!unread || dividedBy(spec, option) != 1.0 ||
          (defaulted != spec.defaulted.end() && defaulted->value.find(" / ") != std::string::npos))
        return; // no division, or the interpreter read it where the code applies it
      if (field == 0.0)
        field = 1e-2; // a decay of 0 would hide the division
      Assumption divided{option,
                         formatValue(field) + " / " + code_->stepsName + " (" +
                             std::to_string(code_->accumulationSteps) + ")",
                         "the code divides this option by the accumulation steps where the "
                         "interpreter does not read it (a setter, a factory's parameter); the "
                         "model reads the division there"};
      if (defaulted != spec.defaulted.end())
        *defaulted = divided;
      else
        spec.defaulted.push_back(divided);
      field /= code_->accumulationSteps;
      dividedBy(spec, option) = code_->accumulationSteps;
    };
    apply(step.learningRateScaling, spec.lr, "lr");
    apply(step.weightDecayScaling, spec.weightDecay, "weight_decay");
    spec.written = describeOptimizer(spec);
  }

  /// The one assignment to a field at the top level of the body of its
  /// record's only constructor (other writes may follow in methods).
  const Expr *constructorBodyAssignment(const FieldDecl *field) const {
    auto *record = dyn_cast<CXXRecordDecl>(field->getParent());
    if (!record)
      return nullptr;
    const CXXConstructorDecl *only = nullptr;
    for (const CXXConstructorDecl *ctor : record->ctors())
      if (!ctor->isCopyOrMoveConstructor() && ctor->isUserProvided()) {
        if (only)
          return nullptr;
        only = ctor;
      }
    const FunctionDecl *definition = only ? only->getDefinition() : nullptr;
    const auto *body = definition ? dyn_cast_or_null<CompoundStmt>(definition->getBody()) : nullptr;
    if (!body)
      return nullptr;
    const Expr *found = nullptr;
    for (const Stmt *statement : body->body()) {
      const Expr *lhs = nullptr, *rhs = nullptr;
      if (!assignmentSides(statement, lhs, rhs))
        continue;
      auto *member = dyn_cast<MemberExpr>(stripCasts(lhs)->IgnoreParens());
      if (member && member->getMemberDecl() == field) {
        if (found)
          return nullptr;
        found = rhs;
      }
    }
    return found;
  }

  /// The value a field's only write gives it: that one assignment in the
  /// body of its record's only constructor (none after construction).
  const Expr *constructorAssignment(const ValueDecl *decl) const {
    auto *field = dyn_cast_or_null<FieldDecl>(decl);
    if (!field || field->getType().isConstQualified())
      return nullptr;
    const std::vector<ValueOrigin> &origins = facts_.originsOf(field);
    if (origins.size() != 1 || origins.front().kind != ValueOrigin::Assign)
      return nullptr;
    return constructorBodyAssignment(field);
  }

  std::set<const FieldDecl *> computing_; ///< fields whose constructor value is being translated

  std::optional<double> constant(const Expr *expr, unsigned depth = 0) {
    if (!expr)
      return std::nullopt;
    if (std::optional<double> value = facts_.constantNumber({expr, nullptr}))
      return value;
    // A parameter every call of its function passes the same constant to.
    if (auto *ref = dyn_cast<DeclRefExpr>(stripCasts(expr)))
      if (auto *param = dyn_cast<ParmVarDecl>(ref->getDecl()))
        return parameterConstant(param, depth);
    // A member the one constructor computes from other members
    // (`m_batch_size = m_num_envs * m_num_steps;` in the body).
    if (auto *member = dyn_cast<MemberExpr>(stripCasts(expr)->IgnoreParens()))
      if (const Expr *assigned = constructorAssignment(member->getMemberDecl());
          assigned && depth < 8)
        return constant(assigned, depth + 1);
    // Arithmetic on such parameters: `lr / accumulation_steps` in a helper.
    if (auto *op = dyn_cast<BinaryOperator>(stripCasts(expr)->IgnoreParens())) {
      if (!op->isMultiplicativeOp() && !op->isAdditiveOp())
        return std::nullopt;
      std::optional<double> lhs = constant(op->getLHS(), depth);
      std::optional<double> rhs = lhs ? constant(op->getRHS(), depth) : std::nullopt;
      if (!lhs || !rhs)
        return std::nullopt;
      bool integral = op->getType()->isIntegerType();
      switch (op->getOpcode()) {
      case BO_Mul: return *lhs * *rhs;
      case BO_Add: return *lhs + *rhs;
      case BO_Sub: return *lhs - *rhs;
      case BO_Div:
        if (*rhs == 0)
          return std::nullopt;
        return integral ? std::trunc(*lhs / *rhs) : *lhs / *rhs;
      default: return std::nullopt;
      }
    }
    return std::nullopt;
  }

  /// An option value readOptimizer read, with the values of the variables it
  /// reads (`double step = 1e-3 / accum; RMSpropOptions(step)`): a division
  /// by N in them is already in the value read.
  void recordOptionRead(const Expr *value, unsigned depth = 0) {
    if (!value || depth > 2)
      return;
    optionValuesRead_.push_back(value->getSourceRange());
    std::function<void(const Stmt *)> visit = [&](const Stmt *stmt) {
      if (!stmt)
        return;
      if (auto *ref = dyn_cast<DeclRefExpr>(stmt))
        for (const ValueOrigin &origin : facts_.originsOf(ref->getDecl()))
          if (origin.kind == ValueOrigin::Init || origin.kind == ValueOrigin::Assign)
            recordOptionRead(origin.value, depth + 1);
      for (const Stmt *child : stmt->children())
        visit(child);
    };
    visit(value);
  }

  std::unique_ptr<CallSites> callSites_;
  /// The option values readOptimizer read, while it reads one; then per optimizer.
  std::vector<SourceRange> optionValuesRead_;
  std::map<int, std::vector<SourceRange>> optionRanges_;
  std::optional<double> parameterConstant(const ParmVarDecl *param, unsigned depth) {
    auto *fn = dyn_cast_or_null<FunctionDecl>(param->getDeclContext());
    if (!fn || depth > 3)
      return std::nullopt;
    if (!callSites_)
      callSites_ = std::make_unique<CallSites>(context_);
    const std::vector<CallSites::Site> *sites = callSites_->of(fn);
    if (!sites || sites->empty())
      return std::nullopt;
    unsigned index = param->getFunctionScopeIndex();
    std::optional<double> agreed;
    for (const CallSites::Site &site : *sites) {
      unsigned at = index + (site.operatorCall && isa<CXXMethodDecl>(fn) ? 1 : 0);
      if (at >= site.count)
        return std::nullopt;
      std::optional<double> value = constant(site.args[at], depth + 1);
      if (!value || (agreed && *agreed != *value))
        return std::nullopt;
      agreed = value;
    }
    return agreed;
  }

  /// `x / d` with x unknown and d a constant (`lr / accum_steps`): the
  /// option's default divided by d, so that the division the code shows still
  /// acts; the default is listed as assumed. Returns whether it applied.
  bool scaleDefault(const Expr *expr, double &field, const char *option, OptimizerSpec &spec) {
    auto *division = dyn_cast<BinaryOperator>(stripCasts(expr)->IgnoreParens());
    if (!division || division->getOpcode() != BO_Div)
      return false;
    std::optional<double> dividend = constant(division->getLHS());
    std::optional<double> divisor = constant(division->getRHS());
    std::string divisorText = divisor ? formatValue(divisor.value_or(1.0)) : "";
    // `lr / accumulation_steps` with N not a constant: the run's N, as the
    // model read it (the value the finding is about).
    const Expr *rhs = stripCasts(division->getRHS())->IgnoreParens();
    bool byN = roleOf(facts_.referencedDecl({rhs, nullptr}), rhs) == Role::AccumulationSteps;
    if (!divisor && byN) {
      divisor = code_->accumulationSteps;
      divisorText = code_->stepsName + " (" + std::to_string(code_->accumulationSteps) + ")";
    }
    if (!divisor || *divisor == 0 || (dividend && divisorText == formatValue(*divisor)))
      return false;
    // A weight decay of 0 would hide the division: a positive stand-in.
    if (!dividend && field == 0.0)
      field = 1e-2;
    if (dividend)
      field = *dividend;
    spec.defaulted.push_back(
        {option, formatValue(field) + " / " + divisorText,
         dividend ? "the divisor is the accumulation steps, not a constant in the code"
                  : "the dividend is not a constant in the code; the division is"});
    field /= *divisor;
    if (byN)
      dividedBy(spec, option) = *divisor;
    return true;
  }

  /// Where the run records an option's division by N (OptimizerSpec).
  static double &dividedBy(OptimizerSpec &spec, const std::string &option) {
    return option == "lr" ? spec.lrDividedBy : spec.weightDecayDividedBy;
  }
  static bool lrScaled(const OptimizerSpec &spec) {
    return !spec.defaulted.empty() && spec.defaulted.back().name == "lr" &&
           spec.defaulted.back().value.find(" / ") != std::string::npos;
  }

  /// One option setter, `.weight_decay(0.1)`, applied to `spec`. Returns
  /// whether it set the learning rate from a constant.
  bool applySetter(const CXXMemberCallExpr *call, OptimizerSpec &spec) {
    std::string name = calleeName(call);
    if (call->getNumArgs() != 1)
      return false;
    const Expr *arg = call->getArg(0);
    recordOptionRead(arg);
    std::optional<double> value = constant(arg);
    auto set = [&](double &field, const char *option) {
      if (value) {
        field = *value;
      } else if (!scaleDefault(arg, field, option, spec)) {
        // The code sets a decay it does not show: a positive stand-in (0 would
        // make a finding about the decay vanish).
        bool decay = std::string(option) == "weight_decay" && field == 0.0;
        if (decay)
          field = 1e-2;
        spec.defaulted.push_back({option, formatValue(field),
                                  decay ? "not a constant in the code; the code sets a decay, so "
                                          "a positive stand-in"
                                        : "not a constant in the code"});
      }
    };
    if (name == "lr") {
      set(spec.lr, "lr");
      return value.has_value() || lrScaled(spec);
    }
    if (name == "momentum")
      set(spec.momentum, "momentum");
    else if (name == "dampening")
      set(spec.dampening, "dampening");
    else if (name == "weight_decay")
      set(spec.weightDecay, "weight_decay");
    else if (name == "eps")
      set(spec.eps, "eps");
    else if (name == "alpha")
      set(spec.alpha, "alpha");
    else if (name == "lr_decay")
      set(spec.lrDecay, "lr_decay");
    else if (name == "nesterov" || name == "amsgrad") {
      double flag = 0;
      set(flag, name.c_str());
      (name == "nesterov" ? spec.nesterov : spec.amsgrad) = flag != 0;
    } else if (name == "betas") {
      // std::make_tuple(b1, b2) / {b1, b2}
      const Expr *betas = stripCasts(arg);
      std::vector<const Expr *> parts;
      if (auto *tuple = dyn_cast<CallExpr>(betas))
        for (const Expr *part : tuple->arguments())
          parts.push_back(part);
      else if (auto *construct = dyn_cast<CXXConstructExpr>(betas))
        for (const Expr *part : construct->arguments())
          parts.push_back(part);
      else if (auto *list = dyn_cast<InitListExpr>(betas))
        for (const Expr *part : list->inits())
          parts.push_back(part);
      std::optional<double> b1 = parts.size() == 2 ? constant(parts[0]) : std::nullopt;
      std::optional<double> b2 = parts.size() == 2 ? constant(parts[1]) : std::nullopt;
      if (b1 && b2) {
        spec.beta1 = *b1;
        spec.beta2 = *b2;
      } else {
        spec.defaulted.push_back(
            {"betas", "(" + formatValue(spec.beta1) + ", " + formatValue(spec.beta2) + ")",
             "not constants in the code"});
      }
    }
    return false;
  }

  /// `SGDOptions options(0.1); options.weight_decay(1e-4);`: the setters the
  /// options variable's function calls on it as statements of their own.
  bool applyStatementSetters(const VarDecl *options, OptimizerSpec &spec) {
    const auto *function = dyn_cast_or_null<FunctionDecl>(options->getDeclContext());
    if (!function || !function->getBody())
      return false;
    bool lr = false;
    std::function<void(const Stmt *)> visit = [&](const Stmt *stmt) {
      if (!stmt)
        return;
      if (auto *call = dyn_cast<CXXMemberCallExpr>(stmt)) {
        const Expr *object = call->getImplicitObjectArgument();
        // Innermost object first: `options.lr(x).weight_decay(y)`.
        std::vector<const CXXMemberCallExpr *> chain{call};
        while (auto *inner = dyn_cast_or_null<CXXMemberCallExpr>(stripCasts(object))) {
          chain.push_back(inner);
          object = inner->getImplicitObjectArgument();
        }
        auto *ref = dyn_cast_or_null<DeclRefExpr>(object ? stripCasts(object) : nullptr);
        if (ref && ref->getDecl() == options) {
          for (auto it = chain.rbegin(); it != chain.rend(); ++it)
            lr = applySetter(*it, spec) || lr;
          return;
        }
      }
      for (const Stmt *child : stmt->children())
        visit(child);
    };
    for (const Stmt *statement : cast<CompoundStmt>(function->getBody())->body())
      visit(statement);
    return lr;
  }

  /// `SGDOptions(0.1).momentum(0.9).weight_decay(1e-4)`, an options variable,
  /// or a bare learning rate. Returns whether the learning rate was read.
  bool readOptions(const Expr *expr, OptimizerSpec &spec, unsigned depth) {
    if (!expr || depth > 10)
      return false;
    expr = stripCasts(expr);
    if (expr->getType()->isRealFloatingType() || expr->getType()->isIntegerType()) {
      recordOptionRead(expr);
      if (std::optional<double> lr = constant(expr)) {
        spec.lr = *lr;
        return true;
      }
      return scaleDefault(expr, spec.lr, "lr", spec);
    }
    if (auto *call = dyn_cast<CXXMemberCallExpr>(expr)) {
      bool lr = readOptions(call->getImplicitObjectArgument(), spec, depth + 1);
      return applySetter(call, spec) || lr;
    }
    // A helper of the file that builds the options: what it returns, with
    // its parameters read through the constants of its call sites.
    if (auto *call = dyn_cast<CallExpr>(expr))
      if (const FunctionDecl *helper = builder::inlinableCallee(call, sm_)) {
        std::vector<const Expr *> returned = returnedValues(helper->getBody());
        return returned.size() == 1 && readOptions(returned.front(), spec, depth + 1);
      }
    if (auto *construct = dyn_cast<CXXConstructExpr>(expr))
      return construct->getNumArgs() >= 1 && readOptions(construct->getArg(0), spec, depth + 1);
    if (const ValueDecl *decl = facts_.referencedDecl({expr, nullptr}))
      for (const ValueOrigin &origin : facts_.originsOf(decl))
        if (origin.kind == ValueOrigin::Init) {
          bool lr = readOptions(origin.value, spec, depth + 1);
          if (auto *var = dyn_cast<VarDecl>(decl))
            lr = applyStatementSetters(var, spec) || lr;
          return lr;
        }
    return false;
  }

  // ---- what each statement does

  /// Sets hasTrainingWork / hasForward on every node; returns {work, forward, dataLoop}.
  struct Marks {
    bool work = false, forward = false, dataLoop = false;
  };
  /// Whether an expression reads a parameter gradient (p.grad()).
  static bool readsGrad(const Node &node) {
    if (node.kind == NodeKind::Api && node.api == ApiOp::Grad)
      return true;
    for (const std::unique_ptr<Node> &child : node.children)
      if (child && readsGrad(*child))
        return true;
    return false;
  }
  Marks mark(Node &node) {
    Marks marks;
    for (std::unique_ptr<Node> &child : node.children)
      if (child) {
        Marks inner = mark(*child);
        marks.work = marks.work || inner.work;
        marks.forward = marks.forward || inner.forward;
        marks.dataLoop = marks.dataLoop || inner.dataLoop;
      }
    if (node.kind == NodeKind::Api) {
      switch (node.api) {
      // A forward pass alone changes no gradient: a branch that only samples
      // or evaluates can be skipped.
      case ApiOp::Forward: marks.forward = true; break;
      case ApiOp::Backward:
      case ApiOp::ZeroGrad:
      case ApiOp::ResetGrad:
      case ApiOp::ScaleGrad:
      case ApiOp::ClipNorm:
      case ApiOp::ClipValue:
      case ApiOp::AllReduce:
      case ApiOp::Step: marks.work = true; break;
      case ApiOp::TensorAssign: marks.work = marks.work || readsGrad(node); break;
      default: break;
      }
    }
    if (node.kind == NodeKind::CallUser && node.function >= 0) {
      Marks callee = markFunction(node.function);
      marks.work = marks.work || callee.work;
      marks.forward = marks.forward || callee.forward;
      marks.dataLoop = marks.dataLoop || callee.dataLoop;
    }
    marks.work = marks.work || node.changesTrainingState;
    node.hasTrainingWork = marks.work;
    node.hasForward = marks.forward;
    node.enclosesDataLoop = marks.dataLoop;
    marks.dataLoop = marks.dataLoop || node.isDataLoop;
    return marks;
  }

  std::map<int, Marks> functionMarks_;
  std::set<int> marking_;
  Marks markFunction(int index) {
    auto found = functionMarks_.find(index);
    if (found != functionMarks_.end())
      return found->second;
    if (!marking_.insert(index).second)
      return {};
    Function &fn = code_->functions[static_cast<size_t>(index)];
    Marks marks = fn.body ? mark(*fn.body) : Marks{};
    functionMarks_[index] = marks;
    return marks;
  }
};

} // namespace

std::shared_ptr<const LoopCode> translateLoop(const TrainingLoop &loop, ValueFacts &facts) {
  return Translator(loop, facts).run();
}

} // namespace gradlint::interp
