// Recognises LibTorch API calls by their resolved declaration.
//
// Calls are matched by the qualified name of the declaration they resolve to
// (and of the classes it belongs to or derives from), never by spelling, so
// aliases, pointers, references, `using` declarations and members all work.
// Inside templates, where a call's declaration is dependent, the member or
// function name and the number of arguments are used instead.
#pragma once

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

#include "model/ModelOptions.h"

#include <optional>
#include <string>

namespace gradlint {

enum class ApiKind {
  None,
  Backward,          ///< at::Tensor::backward, torch::autograd::backward
  OptimizerStep,     ///< torch::optim::Optimizer::step and overrides
  OptimizerZeroGrad, ///< torch::optim::Optimizer::zero_grad
  ModuleZeroGrad,    ///< torch::nn::Module::zero_grad
  TensorReset, ///< zero_(), reset(), fill_(), detach_() on a tensor (a reset when it is a gradient)
  TensorScaleInPlace,    ///< div_(), mul_() on a tensor (a gradient division when it is a gradient)
  GradAccess,            ///< at::Tensor::grad / mutable_grad
  ClipGradNorm,          ///< torch::nn::utils::clip_grad_norm_
  ClipGradValue,         ///< torch::nn::utils::clip_grad_value_
  ProcessGroupAllReduce, ///< c10d::ProcessGroup::allreduce / allreduce_coalesced
  NamedAllReduce, ///< a communicator's allreduce / all_reduce / MPI_Allreduce / ncclAllReduce
  WorldSizeQuery, ///< c10d::ProcessGroup::getSize, MPI_Comm_size
  SchedulerStep,  ///< torch::optim::LRScheduler::step and relatives
  LossFunction,   ///< mse_loss, cross_entropy, ... and loss modules
  TensorDivide,   ///< Tensor / x, Tensor.div(x), torch::div(t, x)
  TensorMultiply, ///< Tensor * x, Tensor.mul(x), torch::mul(t, x)
};

struct ApiCallInfo {
  ApiKind kind = ApiKind::None;
  /// The object the call is made on (`opt` in `opt.step()`), if any.
  const clang::Expr *object = nullptr;
  /// The operand for Divide/Multiply/ScaleInPlace (the divisor or factor).
  const clang::Expr *operand = nullptr;
  /// True when recognised by name only (dependent call inside a template).
  bool byName = false;
  /// True when the user's configuration names the callee (GradientSyncFunctions).
  bool configured = false;
  std::string name; ///< the callee's unqualified name
};

/// Classifies a call (or an overloaded operator call) made in user code;
/// `options` adds the user's own sync helpers and optimizer wrappers.
ApiCallInfo classifyCall(const clang::CallExpr *call, const ModelOptions &options);

/// Whether an in-place scaling (TensorScaleInPlace) divides: div_(),
/// true_divide_() or `/=`; mul_() and `*=` multiply.
bool dividesInPlace(const clang::CallExpr *call, const ApiCallInfo &info);

/// Qualified name of a declaration, "" when it has none.
std::string qualifiedName(const clang::NamedDecl *decl);

/// True when `record` is, or derives from, the class with this qualified name.
bool isOrDerivesFrom(const clang::CXXRecordDecl *record, llvm::StringRef qualified);

/// The callee's name for calls whose declaration is dependent (templates).
std::optional<std::string> dependentCalleeName(const clang::CallExpr *call,
                                               const clang::Expr **object);

/// The type `std::make_unique<T>(...)`, `std::make_shared<T>(...)` or
/// `c10::make_intrusive<T>(...)` builds
/// (T); a null type for any other call.
clang::QualType smartPointerMadeType(const clang::CallExpr *call);

/// Strips parentheses, implicit casts, temporaries and implicit copies.
const clang::Expr *stripImplicit(const clang::Expr *expr);

/// Strips stripImplicit's nodes plus explicit casts (static_cast<float>(n)).
const clang::Expr *stripCasts(const clang::Expr *expr);

} // namespace gradlint
