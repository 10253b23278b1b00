// The training-loop model: what gradlint knows about one training loop.
//
// A TrainingLoop is built from the Clang AST by ModelBuilder (ModelBuilder.h).
// It describes one micro-batch (one iteration of the loop, or one call of a
// training step function) as an ordered list of events, each with the
// condition under which it runs relative to the accumulation window. The
// checks in checks/ are small readers of this structure, and the reference
// runtime lowers the same structure into a loop program.
#pragma once

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceLocation.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gradlint {

/// A value the analysis reasons about symbolically: the accumulation steps N
/// or the world size W.
struct SymbolicValue {
  const clang::Expr *expr = nullptr; ///< where it was read (may be null)
  std::string text;                  ///< source spelling, e.g. "accum_steps"
  std::optional<int64_t> constant;   ///< its value when provably constant
  /// Its value when the command line and environment keep their defaults
  /// (`get_int("--accum", 4)`); set when it is not a constant.
  std::optional<int64_t> inputDefault;
  clang::SourceLocation loc; ///< where it was read

  bool known() const { return expr != nullptr || constant.has_value(); }
  bool provablyOne() const { return constant && *constant == 1; }
  /// "accum_steps = 4", "accum_steps" or "4".
  std::string describe() const;
};

/// How the code decides that a micro-batch ends an accumulation window.
enum class GuardForm {
  Modulo,          ///< (i + 1) % N == 0, i % N == N - 1, step % N != 0 -> continue
  CounterReachesN, ///< ++micro == N { ...; micro = 0; }, micro >= N
  NestedLoop,      ///< an inner loop over the N micro-batches; step() after it
};

/// The boundary guard of a window, as recognised in the code.
struct BoundaryGuard {
  GuardForm form = GuardForm::Modulo;
  const clang::Expr *condition = nullptr;    ///< the guard expression (null for NestedLoop)
  const clang::Stmt *innerLoop = nullptr;    ///< NestedLoop only
  const clang::ValueDecl *counter = nullptr; ///< i, micro, step_count_, ...
  /// The step runs when counter ≡ residue (mod N); -1 means "N - 1".
  int64_t residue = -1;
  bool viaEarlyContinue = false;   ///< if (!boundary) continue/return;
  bool viaFlag = false;            ///< bool do_step = ...; if (do_step)
  bool viaHelper = false;          ///< if (should_step(i, N))
  bool lastBatchExtension = false; ///< ... || i + 1 == num_batches
  clang::SourceLocation loc;
};

/// The accumulation window of a loop: N micro-batches between two step()s.
struct AccumulationWindow {
  SymbolicValue steps; ///< N
  BoundaryGuard guard;
};

/// When an event runs, relative to the window.
enum class EventCondition {
  EveryMicroBatch,        ///< unconditional, or guarded by something unrelated to the window
  Boundary,               ///< only in the boundary branch (the micro-batch that steps)
  WindowStart,            ///< only in the first micro-batch of a window
  NotBoundary,            ///< in every micro-batch except the boundary
  OncePerWindowElsewhere, ///< once per window, at a micro-batch other than start/boundary
};

enum class EventKind {
  LossComputation, ///< a loss function call
  Backward,        ///< Tensor::backward / torch::autograd::backward
  GradReset,  ///< Optimizer::zero_grad, Module::zero_grad, grad().zero_(), mutable_grad().reset()
              ///< ...
  Clip,       ///< clip_grad_norm_ / clip_grad_value_
  AllReduce,  ///< ProcessGroup::allreduce or a gradient-sync helper
  GradDivide, ///< grad().div_(x), grad /= x, mul_(1.0 / x); grad = buffer (an overwrite)
  Step,       ///< Optimizer::step (and overrides)
  SchedulerStep, ///< LRScheduler::step
  /// A hand-written gradient buffer receives .grad: `acc += p.grad()`,
  /// `acc.add_(p.grad())`, `acc = acc + p.grad()` (acc is not .grad itself).
  GradBufferAdd,
};

const char *eventKindName(EventKind kind);
const char *eventConditionName(EventCondition cond);

/// The update rule of the optimizer behind a step(), read from its type.
enum class OptimizerAlgorithm {
  Unknown,
  Sgd,      ///< torch::optim::SGD (with or without momentum): the update is linear in the gradient
  Adaptive, ///< Adam, AdamW, RMSprop, Adagrad: the update is normalised by the gradient's scale
};

/// How a gradient all-reduce combines ranks.
enum class ReduceOpKind { Sum, Average, Unknown };

/// One division applied to the loss on its way to backward(), or to a
/// gradient. `loss / (N * W)` is one factor that divides by both N and W;
/// `loss / N / W` is two.
struct ScaleFactor {
  const clang::Expr *site = nullptr; ///< the division (or multiply by 1/x) that applies it
  const clang::Expr *divisor = nullptr;
  bool isAccumulationSteps = false; ///< divides by N
  bool isWorldSize = false;         ///< divides by W
  /// The divisor may be N but the code does not show it: the inner loop's
  /// trip count is computed from it (`x.split(x.size(0) / n)`, loss / n).
  bool mayBeAccumulationSteps = false;
  /// A divisor computed at run time outside the micro-batch (a member, a
  /// getter, a count of the window's tokens), neither N by name, nor W, nor
  /// a constant: N under another name, or a normalisation over the window.
  /// Not the micro-batch's own size (`x.size(0)`, a count declared per micro-batch).
  bool isRuntimeWindowValue = false;
  clang::SourceLocation loc; ///< the operator, or the div()/mul() call
};

/// A frame of the call chain from the loop body to an event in a helper.
struct CallFrame {
  const clang::CallExpr *call = nullptr;
  const clang::FunctionDecl *callee = nullptr;
};

struct TrainingEvent {
  EventKind kind;
  const clang::Stmt *stmt = nullptr; ///< the API call (or operator) itself
  clang::SourceLocation loc;         ///< begin of the API call
  /// Position in the micro-batch: events run in increasing order.
  unsigned order = 0;
  EventCondition condition = EventCondition::EveryMicroBatch;
  bool guardedByUnrelatedCondition = false;
  /// Helper calls from the loop body down to the event (outermost first).
  std::vector<CallFrame> callChain;
  /// For nested windows: whether the event is inside the inner micro-batch loop.
  bool insideInnerLoop = false;
  /// The event belongs to a second optimizer that steps on every micro-batch
  /// (a GAN's discriminator): it runs before such a step() and after the
  /// previous one, so it is not part of the accumulation window.
  bool steppedEveryMicroBatch = false;
  /// A backward() of another optimizer's window, counted in this one too:
  /// this optimizer's own events hold no backward() (its loss is computed
  /// and backpropagated with the other model's, a GAN's generator). Findings
  /// about the backward() itself are reported with its own window.
  bool sharedBackward = false;
  /// A `return`, `continue` or `break` ends the branch the event runs in: the
  /// rest of this statement (a function body, a loop body) does not run after
  /// it (`if (overflow) { zero_grad(); return false; } step();`).
  const clang::Stmt *skipsRestOf = nullptr;

  // Details, by kind.
  /// Step/GradReset on an optimizer; SchedulerStep: the optimizer the scheduler
  /// was constructed on, when the code shows it.
  const clang::ValueDecl *optimizer = nullptr;
  const clang::ValueDecl *module = nullptr; ///< GradReset by Module::zero_grad
  std::vector<ScaleFactor> scaling;         ///< Backward: loss scaling; GradDivide: the divisor
  ReduceOpKind reduceOp = ReduceOpKind::Unknown; ///< AllReduce
  std::string helperName;                        ///< AllReduce via a named helper
  /// GradDivide by assignment from a value not read from .grad (`grad = buffer
  /// / N`, a hand-written accumulator): .grad's earlier content is replaced.
  bool overwritesGradient = false;
  /// GradBufferAdd: the buffer's variable or field (`grad_accum` of
  /// `grad_accum[k] += ...`); GradDivide overwrite: the buffer it reads, when one.
  const clang::ValueDecl *buffer = nullptr;
  /// GradBufferAdd: the `.grad()` call in the added value; null when the
  /// gradient arrives through a variable.
  const clang::Expr *gradientRead = nullptr;
  bool clipByValue = false; ///< Clip: clip_grad_value_ (else clip_grad_norm_)
  /// Clip: max_norm / clip value, when the code gives it as a positive constant.
  std::optional<double> clipLimit;
  /// Step: the optimizer's update rule, when its type shows it.
  OptimizerAlgorithm algorithm = OptimizerAlgorithm::Unknown;
  /// Step: divisions applied to the optimizer's learning rate where it is set
  /// (`SGDOptions(lr / N)`, `options.lr(lr / N)`, `param_groups()[0].options().set_lr(lr / N)`).
  std::vector<ScaleFactor> learningRateScaling;
  /// Step: divisions applied to the optimizer's weight decay where it is set
  /// (`AdamWOptions(lr).weight_decay(wd / N)`, `options.weight_decay(wd / N)`).
  std::vector<ScaleFactor> weightDecayScaling;
};

/// Whether the window counter starts over when the loop starts again.
enum class CounterScope {
  Unknown,
  RestartsWithLoop, ///< the loop's own index, or declared or set to 0 before each run of the loop
  RunsAcross,       ///< declared outside the epoch loop (or a field) and not set to 0 per epoch
};

/// What the code does when the loop's data runs out with a window still open
/// (the loop's batches are not a multiple of N). Filled for flat windows.
struct LoopEnd {
  /// The loop around this one in the same function (an epoch loop).
  const clang::Stmt *epochLoop = nullptr;
  /// The loop runs again and again: inside an epoch loop, or in a function
  /// the file calls inside a loop (a `train_one_epoch()`).
  bool runsPerEpoch = false;
  CounterScope counter = CounterScope::Unknown;
  /// A step() after the loop that runs before the next epoch's data: a flush.
  const clang::Stmt *flush = nullptr;
  /// A gradient reset in the epoch loop outside this loop (`zero_grad()` at an epoch's start).
  const clang::Stmt *epochReset = nullptr;
  /// B of `for (i = 0; i < B; ++i)` when the window counter is that i.
  const clang::Expr *batchCount = nullptr;
  /// B is provably a multiple of N (constants, or `N * k`): no partial window.
  bool batchCountMultipleOfSteps = false;
  /// B's value when it is a constant: with a constant N, whether a partial
  /// window is left is then known (a definite finding), not conditional.
  std::optional<int64_t> batchCountValue;
  /// Where that value comes from when the code computes it ("the data
  /// loader's: MNIST's 60000 training images in batches of 64"); empty for a constant.
  std::string batchCountOrigin;
};

/// Half-precision parameters: their .grad is half too, so backward() adds
/// each micro-batch into a half-precision sum.
struct ParameterPrecision {
  const clang::CallExpr *conversion = nullptr; ///< `model->to(torch::kHalf)`; null: fp32
  std::string type;                            ///< "float16" or "bfloat16"
};

enum class LoopKind {
  Loop,         ///< for / while / do / range-for loop
  StepFunction, ///< a function called once per micro-batch, window kept by a counter
};

/// One training loop: a loop (or step function) that runs backward() and step().
struct TrainingLoop {
  LoopKind kind = LoopKind::Loop;
  const clang::Stmt *loop = nullptr;             ///< the loop statement (Loop)
  const clang::FunctionDecl *function = nullptr; ///< the enclosing function / step function
  clang::SourceLocation loc;
  /// Absent when step() runs on every micro-batch (N = 1): no accumulation.
  std::optional<AccumulationWindow> window;
  std::vector<TrainingEvent> events; ///< sorted by `order`
  /// The world size when the loop uses one (divides by it, or reads it).
  SymbolicValue worldSize;
  /// Calls in the loop's scope that run code the model cannot see: a user
  /// function declared without a body here, a function pointer, a callable
  /// object whose target is not known. They may reset or step anything.
  std::vector<const clang::CallExpr *> opaqueCalls;
  LoopEnd end;
  ParameterPrecision halfPrecision;

  bool hasWindow() const { return window.has_value() && !window->steps.provablyOne(); }
  /// N and W for a run of this loop (--confirm, --emit-runs, --plot): the
  /// code's constants, else the one stand-in every consumer uses.
  struct RunValues {
    int steps = 1;
    bool stepsFromCode = true;
    int worldSize = 1;
    bool worldSizeFromCode = false;
    int assumedWorldSize = 2; ///< W when the loop all-reduces and W is not a constant
  };
  RunValues runValues() const;
  std::vector<const TrainingEvent *> eventsOf(EventKind kind) const;
  /// The first step() that runs in the boundary branch.
  const TrainingEvent *boundaryStep() const;
  /// Whether `later` can run after `earlier` in one micro-batch: it comes
  /// later, and no jump after `earlier` skips it.
  bool runsAfter(const TrainingEvent &earlier, const TrainingEvent &later) const;
  /// Where a diagnostic about `event` points: the outermost helper call that
  /// does only gradient work (no backward() or step() inside), else the API call.
  clang::SourceLocation reportLocation(const TrainingEvent &event) const;
};

/// Everything found in one translation unit.
struct TrainingLoopModel {
  std::vector<TrainingLoop> loops;
};

} // namespace gradlint
