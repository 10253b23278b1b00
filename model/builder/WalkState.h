// What the parts of the model builder share while they read one scope (a loop
// body or a step function): the events found, each with the guards, loops and
// inlined helper calls on the path to it. Internal to model/:
//   EventWalker.cpp       walks the statements and records the events
//   CallbackTargets.cpp   the lambda a std::function call runs
//   LossScaling.cpp       reads the divisions applied to a loss or a gradient
//   WindowFinder.cpp      finds the accumulation window and reads each event against it
//   OptimizerWindows.cpp  splits a scope with several accumulating optimizers
//   CounterWrites.cpp     whether a counter is only ever incremented
//   TripCount.cpp         the trip count of a nested window's inner loop (its N)
//   LearningRate.cpp      the optimizer behind a step() and its learning rate
//   LoopEnd.cpp           what happens to a window left open when the data runs out
//   BatchCount.cpp        how many batches one run of an epoch loop takes
//   InputDefaults.cpp     the value a setting has when the command line leaves it alone
#pragma once

#include "model/ApiCalls.h"
#include "model/GuardPatterns.h"
#include "model/TrainingLoopModel.h"
#include "model/ValueFacts.h"

#include "clang/Basic/SourceManager.h"

#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace gradlint::builder {

/// A condition on the path from the scope to an event.
struct Guard {
  const clang::Expr *condition = nullptr;
  const SubstFrame *frame = nullptr;
  bool negated = false;
  bool earlyExit = false; ///< from `if (condition) continue;` (or return/break)
  /// The variables and fields incremented by one (`++c`, `c += 1`) earlier in
  /// the micro-batch than this condition, once per increment: a guard on a
  /// counter holds at another micro-batch before the counter's increment than
  /// after it, whatever its text (`c % N == 0` before and after `++c`).
  std::vector<const clang::ValueDecl *> incrementedBefore;
};

/// A factor found on the way to backward() or on a gradient division, kept
/// with its frame until N and W are known.
struct RawFactor {
  const clang::Expr *site = nullptr;
  ResolvedExpr divisor;
  clang::SourceLocation loc;
};

struct RawEvent {
  TrainingEvent event;
  std::vector<Guard> guards;
  std::vector<const clang::Stmt *> loopPath; ///< loops entered inside the scope, outermost first
  std::vector<RawFactor> factors;
  std::vector<RawFactor> learningRateFactors; ///< Step: divisions of the optimizer's learning rate
  std::vector<RawFactor> weightDecayFactors;  ///< Step: divisions of the optimizer's weight decay
};

struct WalkState {
  std::vector<Guard> guards;
  std::vector<const clang::Stmt *> loops;
  std::vector<CallFrame> calls;
  std::vector<const clang::FunctionDecl *> active;
  const SubstFrame *frame = nullptr;
  std::vector<RawEvent> events;
  unsigned nextOrder = 0;
  /// Increments by one met so far in the walk (not those inside a condition,
  /// which the guard's own reading accounts for): Guard::incrementedBefore.
  std::vector<const clang::ValueDecl *> incremented;
  unsigned conditionDepth = 0;
  /// `incremented` where each local was declared: a flag (`bool edge = c % N
  /// == 0;`) reads the counter there, not where an `if` tests the flag.
  std::map<const clang::VarDecl *, std::vector<const clang::ValueDecl *>> incrementedAtDeclaration;
  /// Divisions applied by gradient hooks registered in the walk
  /// (`out.register_hook([](Tensor g) { return g / N; })`): the gradient that
  /// every backward() sends through the hooked tensor is divided.
  std::vector<RawFactor> hookFactors;
  /// Calls into code the walk cannot follow (TrainingLoop::opaqueCalls).
  std::vector<const clang::CallExpr *> opaqueCalls;
};

// ---- EventWalker.cpp

/// Appends the training events `stmt` runs to state.events, following calls
/// into functions of the translation unit.
void walkEvents(const clang::Stmt *stmt, WalkState &state, ValueFacts &facts);

/// The definition in user code a call runs (through templates and lambdas),
/// or null: the helpers both the walk and the loss scaling follow.
const clang::FunctionDecl *inlinableCallee(const clang::CallExpr *call,
                                           const clang::SourceManager &sm);
/// The body of `callee` (or of its template pattern) when it is user code.
const clang::FunctionDecl *inlinableDefinition(const clang::FunctionDecl *callee,
                                               const clang::SourceManager &sm);

// ---- LoopEnd.cpp

/// Fills `loop.end`: the counter's scope, a flush after the loop, a reset
/// between epochs, the counted loop's batch count.
void readLoopEnd(ValueFacts &facts, TrainingLoop &loop);

// ---- BatchCount.cpp

/// How many batches one run of a loop takes from its data: the bound B of a
/// counted loop (`i < data.size()`), or the elements of a range-for's range
/// when `counter` counts its iterations from 0; `why` then says where the
/// count comes from when it is not a plain constant.
std::optional<int64_t> batchesPerRun(ValueFacts &facts, const clang::Stmt *loop,
                                     const clang::Expr *bound, const clang::ValueDecl *counter,
                                     std::string &why);

// ---- InputDefaults.cpp

/// The value `value` takes when the command line and the environment leave
/// it alone (`get_int("--accum", 4)`, `argc > 1 ? stoll(argv[1]) : 4`), or
/// its constant value; nothing when the code does not show one.
std::optional<int64_t> inputDefault(ValueFacts &facts, ResolvedExpr value);

// ---- ParameterPrecision.cpp

/// Fills `loop.halfPrecision` from the module conversions to half precision
/// in the loop's function, its class, and the functions that call it.
void readParameterPrecision(ValueFacts &facts, TrainingLoop &loop);

// ---- CallbackTargets.cpp

/// The call operator of the one lambda a call through a callable object
/// (`std::function<void()> on_step; ... on_step();`) runs, when the translation
/// unit shows every value given to that object and they are all that lambda;
/// null otherwise (unknown or several different targets).
const clang::FunctionDecl *callbackLambda(const clang::CallExpr *call, const SubstFrame *frame,
                                          ValueFacts &facts);

// ---- LossScaling.cpp

/// The calls of `function` in the user's code (collected once per translation unit).
const std::vector<const clang::CallExpr *> &callSitesOf(ValueFacts &facts,
                                                       const clang::FunctionDecl *function);

/// Collects every division applied to `value` on its way to backward().
void collectScaling(ValueFacts &facts, ResolvedExpr value, std::vector<RawFactor> &out);

/// `1.0 / N` (or a variable initialised to it) -> N.
const clang::Expr *reciprocalOf(ValueFacts &facts, const clang::Expr *expr,
                                const SubstFrame *frame, unsigned depth = 0);

void addFactor(std::vector<RawFactor> &out, const clang::Expr *site, const clang::Expr *divisor,
               const SubstFrame *frame);

/// The reduce operation of an all-reduce call (c10d's default is SUM).
ReduceOpKind reduceOpOf(ValueFacts &facts, const clang::CallExpr *call, const ApiCallInfo &info,
                        const SubstFrame *frame);

/// Turns the raw factors of `raws` into their events' scaling (and a step()'s
/// learning-rate scaling), once N is known.
void finishFactors(ValueFacts &facts, TrainingLoop &loop, std::vector<RawEvent> &raws,
                   const ResolvedExpr &steps);

// ---- TripCount.cpp

/// N of a nested window: how many times its inner micro-batch loop runs.
SymbolicValue tripCount(ValueFacts &facts, const clang::Stmt *loop);

enum class TripCountMatch {
  Same,      ///< provably the trip count: `loss / k` over `x.chunk(k)`, `loss / chunks.size()`
  Different, ///< not shown to be it (a batch size, another constant)
  Unknown,   ///< the count is computed from it but may differ: `n` over `x.split(x.size(0) / n)`
};

/// Whether `divisor` is the trip count of the inner loop `loop`.
TripCountMatch matchTripCount(ValueFacts &facts, const clang::Stmt *loop, ResolvedExpr divisor);

/// A loop that counts: `for (int i = a; i < b; ++i)`, `i <= b`, `i != b`,
/// `b > i`, or `int m = a; while (m < b) { ...; ++m; }`, whose counter only
/// the loop adds 1 to, once per iteration, and nothing else writes.
struct CountedLoop {
  const clang::ValueDecl *counter = nullptr;
  const clang::Expr *start = nullptr; ///< the counter's initial value
  const clang::Expr *bound = nullptr;
  bool inclusive = false; ///< `i <= b`: b - a + 1 iterations
};
std::optional<CountedLoop> readCountedLoop(ValueFacts &facts, const clang::Stmt *loop);

// ---- LearningRate.cpp

/// Reads a step()'s optimizer: its algorithm and the divisions applied to the
/// learning rate it is built or set with (in `function` or the optimizer's class).
void readOptimizer(ValueFacts &facts, RawEvent &step, const clang::FunctionDecl *function);

// ---- WindowFinder.cpp

/// The training loops the events of one scope make up: one, or one per
/// accumulating optimizer when several optimizers keep their own windows;
/// none when they have no step() or no accumulation window where one is required.
std::vector<TrainingLoop> findTrainingLoops(ValueFacts &facts, std::vector<RawEvent> &raws,
                                            const clang::Stmt *loopStmt,
                                            const clang::FunctionDecl *function);

/// The guard on a step() that makes it the boundary of a window, with the
/// window it describes; nothing when no guard on its path is one.
std::optional<std::pair<WindowPattern, Guard>> windowGuardOf(ValueFacts &facts,
                                                            const RawEvent &step);

// ---- OptimizerWindows.cpp

/// The events of a scope split per optimizer, when at least two optimizers step
/// at their own window's boundary (actor and critic, generator and
/// discriminator): each step and reset goes with its optimizer, every other
/// event (backward(), loss, clip...) with the next step() in the micro-batch.
/// Empty when the scope has one such optimizer or fewer.
std::vector<std::vector<RawEvent>> splitByOptimizer(ValueFacts &facts,
                                                    const std::vector<RawEvent> &raws);

// ---- CounterWrites.cpp

/// Whether every write to `counter` in the translation unit's user code
/// increments it (`++c`, `c += 1`, `c = c + 1`): it is never reset, so a
/// threshold on it (`c > CAPACITY`) holds on every iteration once passed.
bool onlyIncremented(const clang::ValueDecl *counter, ValueFacts &facts);
/// Whether some write adds anything but 1 to the counter (`samples += x.size(0)`):
/// it then counts samples or tokens, not micro-batches, and N is not its limit.
bool advancedByOtherThanOne(const clang::ValueDecl *counter, ValueFacts &facts);

} // namespace gradlint::builder
