// Flow-insensitive facts about values in one translation unit: where each
// variable or field gets its value, what an expression refers to through
// helper-function parameters, whether it is a constant, and whether it is the
// world size. Used by the guard parser and the loss-scaling analysis.
#pragma once

#include "model/ModelOptions.h"
#include "model/TrainingLoopModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <deque>
#include <map>
#include <optional>
#include <vector>

namespace gradlint {

/// Parameters of an inlined helper call bound to the caller's arguments.
struct SubstFrame {
  const clang::FunctionDecl *function = nullptr;
  const clang::CallExpr *call = nullptr;
  const SubstFrame *parent = nullptr;
  /// The argument bound to `param`, or null when `param` is not of this frame.
  const clang::Expr *argumentFor(const clang::ParmVarDecl *param) const;
};

/// An expression together with the helper-call frame it must be read in.
struct ResolvedExpr {
  const clang::Expr *expr = nullptr;
  const SubstFrame *frame = nullptr;
};

/// One place a variable or field gets (or changes) its value.
/// A value handed to a function: the callee and the parameter's index.
struct ArgumentUse {
  const clang::FunctionDecl *callee = nullptr;
  unsigned index = 0;
};

struct ValueOrigin {
  /// OtherWrite: `+=`, `-=`, `++` and the like; the value is then not the
  /// one of its initialisation (`int64_t tokens = 0; tokens += n;`).
  enum Kind {
    Init,
    Assign,
    CompoundDivide,
    CompoundMultiply,
    InPlaceCall,
    OutParameter,
    OtherWrite
  } kind;
  const clang::Expr *value = nullptr; ///< the assigned value / the call
  const clang::Expr *site = nullptr;  ///< the assignment or call expression
};

/// The variable or field an expression names, looking through smart pointers
/// and dereferences; null for anything else.
const clang::ValueDecl *lvalueDecl(const clang::Expr *expr);

class ValueFacts {
public:
  explicit ValueFacts(clang::ASTContext &context, const ModelOptions &options = {})
      : context_(context), options_(options) {}

  /// What the user's configuration says about their code.
  const ModelOptions &options() const { return options_; }

  /// Per-translation-unit memo of whole-file scans about one counter
  /// (builder/CounterWrites.cpp): each is asked once per window guard.
  std::map<std::pair<const clang::ValueDecl *, int>, bool> counterScans;
  /// Per-translation-unit memo (builder/LoopEnd.cpp): whether a function is
  /// called inside a loop somewhere in the file (once per epoch, say).
  std::map<const clang::FunctionDecl *, bool> calledInLoop;
  bool calledInLoopCollected = false;
  /// Per-translation-unit memo (builder/LossScaling.cpp): the calls of each
  /// function of the user's code (by canonical declaration), for a parameter
  /// whose value only its callers show.
  std::map<const clang::FunctionDecl *, std::vector<const clang::CallExpr *>> callSites;
  bool callSitesCollected = false;
  /// Per-translation-unit memo (builder/ParameterPrecision.cpp): every
  /// `to(<dtype>)` call of the user's code.
  struct DtypeConversion {
    const clang::CallExpr *call = nullptr;
    const clang::FunctionDecl *function = nullptr; ///< the function it is in
    std::string type;                              ///< "Half", "BFloat16", "Float", ...
    bool ofModule = false;                         ///< torch::nn::Module::to
    bool ofGradient = false;                       ///< `p.grad().to(...)`: a gradient copy
  };
  std::vector<DtypeConversion> conversions;
  bool conversionsCollected = false;

  /// Records the origins of every variable and field in `decl` (user code).
  void collectOrigins(clang::Decl *decl);
  const std::vector<ValueOrigin> &originsOf(const clang::ValueDecl *decl) const;
  /// Where user code builds an object of `record` from arguments (a
  /// constructor call, std::make_unique, std::make_shared).
  const std::vector<const clang::Expr *> &constructionsOf(const clang::CXXRecordDecl *record) const;
  /// The one definition in user code that overrides a virtual method (a pure
  /// `virtual Tensor loss(...) = 0;` and the trainer subclass that defines it).
  const clang::CXXMethodDecl *soleOverrider(const clang::CXXMethodDecl *method) const;

  /// A field's value once its object is built, when every object of the file
  /// that holds it ends its constructors with the same constant: the default
  /// initializer, then the base constructors, the member initializer and the
  /// constructor bodies' top-level assignments, in the order they run
  /// (`accepts_kwargs_ = model_->accepts_kwargs();` with a method that returns
  /// true). Null when a write outside a constructor or in a branch exists.
  std::optional<double> constructedFieldValue(const clang::FieldDecl *field) const;

  /// Whether `site` sits in a branch of an `if` whose condition is a flag of
  /// known value that selects the other branch (`if (!accepts_kwargs_) loss =
  /// loss / N;` with the flag built true everywhere): that write never runs.
  bool inBranchNeverTaken(const clang::Stmt *site) const;

  /// Follows helper parameters to the caller's argument.
  ResolvedExpr resolve(ResolvedExpr value) const;
  /// The variable, parameter or field an expression names (after resolve).
  const clang::ValueDecl *referencedDecl(ResolvedExpr value) const;
  /// The declarations an expression stands for, following `const int n = m;` aliases.
  void aliasDecls(ResolvedExpr value, llvm::SmallPtrSetImpl<const clang::ValueDecl *> &out) const;
  /// The same, from a declaration; `auto &o = *ptr;` makes o an alias of ptr.
  void aliasDecls(const clang::ValueDecl *decl,
                  llvm::SmallPtrSetImpl<const clang::ValueDecl *> &out) const;
  /// Whether two declarations name the same object through such aliases.
  bool sameObject(const clang::ValueDecl *a, const clang::ValueDecl *b) const;

  std::optional<int64_t> constantInt(ResolvedExpr value) const;
  std::optional<double> constantNumber(ResolvedExpr value) const;

  /// Builds the symbolic description of N or W read at `value`.
  SymbolicValue symbolic(ResolvedExpr value) const;
  /// Whether two expressions provably denote the same value.
  bool sameValue(ResolvedExpr a, ResolvedExpr b) const;
  /// Whether `haystack` uses `target` (the same declaration, an alias of it,
  /// or its constant value), e.g. `N * W` uses N.
  bool mentions(ResolvedExpr haystack, ResolvedExpr target) const;
  /// Like mentions, but not inside a divisor: the value grows with `target`
  /// (`N * W` does; `epochs * (batches / N)` shrinks with N).
  bool growsWith(ResolvedExpr haystack, ResolvedExpr target) const;

  /// Whether `value` uses a variable or field the configuration names as N
  /// (AccumulationStepNames).
  bool mentionsAccumulationStepsName(ResolvedExpr value, unsigned depth = 0) const;

  /// Whether `value` is (or is computed from) the world size: ProcessGroup::getSize(),
  /// getenv("WORLD_SIZE"), MPI_Comm_size, a variable initialised from them, or
  /// one the configuration names (WorldSizeNames).
  bool isWorldSize(ResolvedExpr value) const;
  /// Whether the expression reads a parameter gradient (p.grad(), p.mutable_grad(),
  /// or a variable built from them).
  bool readsGradient(ResolvedExpr value) const;
  /// Like readsGradient, but not through a reduction (`p.grad().norm()`,
  /// `.sum()`, `.item()`): whether the value carries the gradient's elements,
  /// as the tensors an all-reduce synchronises must.
  bool carriesGradient(ResolvedExpr value) const;

  /// The modules whose parameters an optimizer was built from
  /// (`SGD opt(model->parameters(), ...)`); empty when not visible.
  void modulesOptimizedBy(const clang::ValueDecl *optimizer,
                          llvm::SmallPtrSetImpl<const clang::ValueDecl *> &out) const;

  /// Source text of an expression.
  std::string text(const clang::Expr *expr) const;
  clang::ASTContext &context() const { return context_; }

  /// Frames live as long as the ValueFacts.
  const SubstFrame *pushFrame(const clang::FunctionDecl *fn, const clang::CallExpr *call,
                              const SubstFrame *parent);

private:
  bool mentionsImpl(ResolvedExpr haystack,
                    const llvm::SmallPtrSetImpl<const clang::ValueDecl *> &decls,
                    std::optional<double> constant, unsigned depth,
                    bool skipDivisors = false) const;
  std::optional<double> scaledBeforeRead(const clang::ValueDecl *decl,
                                         const std::vector<ValueOrigin> &origins,
                                         const clang::Expr *read) const;
  bool isWorldSizeImpl(ResolvedExpr value, unsigned depth) const;
  bool isWorldSizeDecl(const clang::ValueDecl *decl, unsigned depth) const;
  bool readsGradientImpl(ResolvedExpr value, unsigned depth, bool throughReductions) const;

  clang::ASTContext &context_;
  ModelOptions options_;
  mutable std::map<const clang::ValueDecl *, std::vector<ValueOrigin>> origins_;
  mutable std::map<const clang::CXXRecordDecl *, std::vector<const clang::Expr *>> constructions_;
  mutable std::map<const clang::CXXMethodDecl *, std::vector<const clang::CXXMethodDecl *>>
      overriders_;
  /// Records the file copies as raw bytes (memcpy, reinterpret_cast of their address).
  llvm::SmallPtrSet<const clang::CXXRecordDecl *, 4> rawRecords_;
  mutable llvm::DenseMap<const clang::ValueDecl *, bool> worldSizeDecls_;
  mutable llvm::DenseMap<const clang::ValueDecl *, bool> gradientDecls_;
  mutable llvm::DenseMap<const clang::ValueDecl *, bool> gradientElementDecls_;
  std::deque<SubstFrame> frames_;
  mutable llvm::SmallPtrSet<const clang::FieldDecl *, 4> fieldsInEvaluation_;
  mutable std::map<const clang::ValueDecl *, std::vector<ArgumentUse>> argumentUses_;

  bool handedToProcessGroupSize(const clang::ValueDecl *decl, unsigned depth) const;
  /// Whether the file builds an object of `record` (or of a class derived from it).
  bool builtInFile(const clang::CXXRecordDecl *record) const;

  std::optional<double> valueAfterConstructor(const clang::CXXConstructorDecl *ctor,
                                              const clang::FieldDecl *field) const;
  std::optional<double> constantOrReturnedConstant(const clang::Expr *value) const;
};

} // namespace gradlint
