#include "ModelTestSupport.h"

#include "model/UserCode.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/Tooling.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>

#ifndef GRADLINT_TEST_API_MODEL
#error "GRADLINT_TEST_API_MODEL must name api_model"
#endif
#ifndef GRADLINT_TEST_RESOURCE_DIR
#define GRADLINT_TEST_RESOURCE_DIR "/usr/lib/llvm-19/lib/clang/19"
#endif

using namespace clang;

namespace gradlint {

void PrintTo(EventKind kind, std::ostream *os) { *os << eventKindName(kind); }
void PrintTo(EventCondition cond, std::ostream *os) { *os << eventConditionName(cond); }
void PrintTo(GuardForm form, std::ostream *os) {
  switch (form) {
  case GuardForm::Modulo: *os << "Modulo"; return;
  case GuardForm::CounterReachesN: *os << "CounterReachesN"; return;
  case GuardForm::NestedLoop: *os << "NestedLoop"; return;
  }
  *os << "?";
}
void PrintTo(ReduceOpKind op, std::ostream *os) {
  switch (op) {
  case ReduceOpKind::Sum: *os << "Sum"; return;
  case ReduceOpKind::Average: *os << "Average"; return;
  case ReduceOpKind::Unknown: *os << "Unknown"; return;
  }
  *os << "?";
}
void PrintTo(LoopKind kind, std::ostream *os) {
  *os << (kind == LoopKind::Loop ? "Loop" : "StepFunction");
}

namespace test {

std::ostream &operator<<(std::ostream &os, const Pos &pos) {
  return os << pos.line << ":" << pos.col;
}

const char *const kTorchPrelude = R"cpp(#include <torch/torch.h>
#include <c10d/ProcessGroupGloo.hpp>
struct Net : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
};
)cpp";

namespace {

const std::vector<std::string> &baseArgs() {
  static const std::vector<std::string> args = {"-std=c++17", "-isystem", GRADLINT_TEST_API_MODEL,
                                                "-resource-dir=" GRADLINT_TEST_RESOURCE_DIR};
  return args;
}

/// The prelude's headers precompiled once per test process (each snippet
/// otherwise reparses the whole API model: most of the tests' time, three
/// times more under ASan). None when clang++ is missing or fails: then each
/// snippet parses its headers, as before.
class PreludePch {
public:
  PreludePch() {
#ifdef GRADLINT_TEST_CLANGXX
    llvm::SmallString<128> header, pch;
    int fd = -1;
    if (llvm::sys::fs::createTemporaryFile("gradlint-unit-prelude", "h", fd, header))
      return;
    {
      llvm::raw_fd_ostream out(fd, /*shouldClose=*/true);
      out << "#include <torch/torch.h>\n#include <c10d/ProcessGroupGloo.hpp>\n";
    }
    header_ = std::string(header);
    if (llvm::sys::fs::createTemporaryFile("gradlint-unit-prelude", "pch", pch))
      return;
    pch_ = std::string(pch);
    std::vector<llvm::StringRef> command = {GRADLINT_TEST_CLANGXX, "-x", "c++-header",
                                            "-fpch-instantiate-templates"};
    for (const std::string &arg : baseArgs())
      command.push_back(arg);
    command.insert(command.end(), {header_, "-o", pch_});
    if (llvm::sys::ExecuteAndWait(GRADLINT_TEST_CLANGXX, command) == 0)
      ready_ = true;
#endif
  }
  ~PreludePch() {
    if (!header_.empty())
      llvm::sys::fs::remove(header_);
    if (!pch_.empty())
      llvm::sys::fs::remove(pch_);
  }
  /// -include-pch arguments, or none.
  std::vector<std::string> args() const {
    if (!ready_)
      return {};
    return {"-include-pch", pch_};
  }

private:
  std::string header_, pch_;
  bool ready_ = false;
};

} // namespace

Analysis::Analysis(const std::string &code, bool withTorch)
    : source_(withTorch ? std::string(kTorchPrelude) + code : code) {
  std::vector<std::string> args = baseArgs();
  if (withTorch && !std::getenv("GRADLINT_UNIT_NO_PCH")) {
    static const PreludePch prelude;
    for (std::string &arg : prelude.args())
      args.push_back(std::move(arg));
  }
  // GRADLINT_UNIT_DUMP_DIR=<dir>: write every snippet there (to compile-check
  // them against the real LibTorch headers).
  if (const char *dir = std::getenv("GRADLINT_UNIT_DUMP_DIR")) {
    static unsigned counter = 0;
    std::ofstream(std::string(dir) + "/snippet_" + std::to_string(counter++) + ".cpp") << source_;
  }
  ast_ = tooling::buildASTFromCodeWithArgs(source_, args, "input.cpp");
  if (!parsed())
    return;
  // As the analyzer does (driver/analysis/Analyzer.cpp): the model walks the
  // user's declarations only, not every declaration of the precompiled API
  // model (deserializing those was most of each test's time).
  ASTContext &context = ast_->getASTContext();
  std::vector<Decl *> userDecls;
  for (Decl *decl : context.getTranslationUnitDecl()->decls())
    if (isUserCode(context.getSourceManager(), decl->getLocation()))
      userDecls.push_back(decl);
  context.setTraversalScope(userDecls);
  builder_ = std::make_unique<ModelBuilder>(context);
  model_ = builder_->build();
}

Analysis::~Analysis() = default;

bool Analysis::parsed() const { return ast_ && !ast_->getDiagnostics().hasErrorOccurred(); }

ASTContext &Analysis::context() const { return ast_->getASTContext(); }

Pos Analysis::pos(SourceLocation loc) const {
  if (!ast_ || loc.isInvalid())
    return {};
  const SourceManager &sm = ast_->getSourceManager();
  SourceLocation spelling = sm.getSpellingLoc(loc);
  if (!sm.isInMainFile(spelling))
    return {};
  return {sm.getSpellingLineNumber(spelling), sm.getSpellingColumnNumber(spelling)};
}

static Pos positionOfOffset(const std::string &text, size_t offset) {
  Pos pos{1, 1};
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++pos.line;
      pos.col = 1;
    } else {
      ++pos.col;
    }
  }
  return pos;
}

Pos Analysis::at(const std::string &needle, unsigned occurrence) const {
  size_t offset = source_.find(needle);
  for (unsigned i = 0; i < occurrence && offset != std::string::npos; ++i)
    offset = source_.find(needle, offset + 1);
  if (offset == std::string::npos)
    return {};
  return positionOfOffset(source_, offset);
}

Pos Analysis::atAfter(const std::string &anchor, const std::string &needle) const {
  size_t start = source_.find(anchor);
  if (start == std::string::npos)
    return {};
  size_t offset = source_.find(needle, start);
  if (offset == std::string::npos)
    return {};
  return positionOfOffset(source_, offset);
}

std::string Analysis::text(const Expr *expr) const {
  return builder_ ? builder_->facts().text(expr) : "";
}

std::string Analysis::dump() const {
  std::ostringstream os;
  os << model_.loops.size() << " loop(s)\n";
  for (const TrainingLoop &loop : model_.loops) {
    os << "loop " << (loop.kind == LoopKind::Loop ? "Loop" : "StepFunction") << " at "
       << pos(loop.loc) << " in '" << nameOf(loop.function) << "'";
    if (loop.window) {
      const AccumulationWindow &w = *loop.window;
      os << " window{N=" << w.steps.describe() << " form=";
      PrintTo(w.guard.form, &os);
      os << " residue=" << w.guard.residue << " counter=" << nameOf(w.guard.counter)
         << (w.guard.viaFlag ? " flag" : "") << (w.guard.viaHelper ? " helper" : "")
         << (w.guard.viaEarlyContinue ? " early-continue" : "")
         << (w.guard.lastBatchExtension ? " last-batch" : "") << "}";
    } else {
      os << " no window";
    }
    if (loop.worldSize.known())
      os << " W=" << loop.worldSize.describe();
    os << "\n";
    for (const TrainingEvent &event : loop.events) {
      os << "  #" << event.order << " " << eventKindName(event.kind) << " "
         << eventConditionName(event.condition) << " at " << pos(event.loc);
      if (event.guardedByUnrelatedCondition)
        os << " unrelated-guard";
      if (event.insideInnerLoop)
        os << " inner";
      for (const CallFrame &frame : event.callChain)
        os << " via " << nameOf(frame.callee);
      for (const ScaleFactor &factor : event.scaling)
        os << " factor{" << text(factor.divisor) << (factor.isAccumulationSteps ? " N" : "")
           << (factor.isWorldSize ? " W" : "") << " at " << pos(factor.loc) << "}";
      if (event.kind == EventKind::AllReduce) {
        os << " op=";
        PrintTo(event.reduceOp, &os);
      }
      os << "\n";
    }
  }
  return os.str();
}

namespace {
struct IfCollector : RecursiveASTVisitor<IfCollector> {
  const SourceManager *sm = nullptr;
  std::vector<const IfStmt *> found;
  bool TraverseDecl(Decl *decl) {
    if (decl && !isa<TranslationUnitDecl>(decl) &&
        !sm->isInMainFile(sm->getExpansionLoc(decl->getLocation())))
      return true;
    return RecursiveASTVisitor<IfCollector>::TraverseDecl(decl);
  }
  bool VisitIfStmt(IfStmt *stmt) {
    found.push_back(stmt);
    return true;
  }
};
struct FunctionFinder : RecursiveASTVisitor<FunctionFinder> {
  const SourceManager *sm = nullptr;
  std::string name;
  const FunctionDecl *found = nullptr;
  bool TraverseDecl(Decl *decl) {
    if (decl && !isa<TranslationUnitDecl>(decl) &&
        !sm->isInMainFile(sm->getExpansionLoc(decl->getLocation())))
      return true;
    return RecursiveASTVisitor<FunctionFinder>::TraverseDecl(decl);
  }
  bool VisitFunctionDecl(FunctionDecl *fn) {
    if (!found && fn->getNameAsString() == name && fn->doesThisDeclarationHaveABody())
      found = fn;
    return true;
  }
};
} // namespace

std::vector<const IfStmt *> Analysis::ifStatements() const {
  IfCollector collector;
  collector.sm = &ast_->getSourceManager();
  collector.TraverseDecl(context().getTranslationUnitDecl());
  std::sort(collector.found.begin(), collector.found.end(),
            [this](const IfStmt *a, const IfStmt *b) {
              return ast_->getSourceManager().isBeforeInTranslationUnit(a->getBeginLoc(),
                                                                        b->getBeginLoc());
            });
  return collector.found;
}

const FunctionDecl *Analysis::function(const std::string &name) const {
  FunctionFinder finder;
  finder.sm = &ast_->getSourceManager();
  finder.name = name;
  finder.TraverseDecl(context().getTranslationUnitDecl());
  return finder.found;
}

std::vector<EventKind> kindsOf(const TrainingLoop &loop) {
  std::vector<EventKind> kinds;
  for (const TrainingEvent &event : loop.events)
    kinds.push_back(event.kind);
  return kinds;
}

std::vector<EventCondition> conditionsOf(const TrainingLoop &loop) {
  std::vector<EventCondition> conditions;
  for (const TrainingEvent &event : loop.events)
    conditions.push_back(event.condition);
  return conditions;
}

const TrainingEvent *onlyEvent(const TrainingLoop &loop, EventKind kind) {
  std::vector<const TrainingEvent *> events = loop.eventsOf(kind);
  return events.size() == 1 ? events.front() : nullptr;
}

std::string nameOf(const NamedDecl *decl) { return decl ? decl->getNameAsString() : ""; }

bool ordersIncrease(const TrainingLoop &loop) {
  for (size_t i = 1; i < loop.events.size(); ++i)
    if (loop.events[i - 1].order >= loop.events[i].order)
      return false;
  return true;
}

} // namespace test
} // namespace gradlint
