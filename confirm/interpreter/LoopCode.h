// The training loop's own code, translated from the Clang AST into a small
// Clang-free tree that confirm/interpreter/Execute.h runs on the reference
// runtime: statements, integer and floating-point arithmetic, locals and
// fields, the helpers and lambdas the loop calls, and each LibTorch call
// mapped onto a runtime operation (or skipped, and listed).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gradlint::interp {

/// LibTorch calls the runtime executes.
enum class ApiOp {
  Forward,       ///< a module's forward() / operator(): the runtime's model on a micro-batch
  Backward,      ///< loss.backward(), torch::autograd::backward({loss})
  ZeroGrad,      ///< optimizer.zero_grad() / module->zero_grad(): every gradient
  ResetGrad,     ///< p.grad().zero_() / reset() / fill_(0) / detach_(): one parameter's
  ScaleGrad,     ///< p.grad().div_(x) / mul_(x) / `/=` / `*=`: one parameter's (or all)
  ClipNorm,      ///< clip_grad_norm_(params, max_norm)
  ClipValue,     ///< clip_grad_value_(params, clip)
  AllReduce,     ///< an all-reduce of gradients (ProcessGroup, communicator, MPI, NCCL)
  Step,          ///< optimizer.step()
  WorldSize,     ///< pg->getSize(), MPI_Comm_size, get_world_size()
  Parameters,    ///< module->parameters() / named_parameters() / group.params()
  ParamGroups,   ///< optimizer.param_groups()
  Grad,          ///< p.grad() / p.mutable_grad()
  Chunk,         ///< t.chunk(k) / split / tensor_split: k micro-batch pieces
  Size,          ///< .size() / .numel()... of a chunk list: its count
  Index,         ///< xs[i], chunks[i]
  Detach,        ///< detach(), item(): no gradient flows
  PushBack,      ///< v.push_back(x) / emplace_back(x)
  Identity,      ///< value(), data(), get(), *p, ->: the same value
  TensorScale,   ///< t.div(x), t.mul(x), torch::div(t, x): scales a tensor
  TensorOp,      ///< any other tensor-valued call: keeps its tensor arguments' loss terms
  SchedulerStep, ///< scheduler.step()
  /// `acc[k] += g`, `bufs.at(i) = x`: an assignment to a tensor that is not a
  /// variable (an element of a hand-written gradient buffer); children: target, value.
  TensorAssign,
};

enum class NodeKind {
  Number,      ///< a constant
  Read,        ///< a variable or field
  Unary,       ///< - ! ~ +
  Binary,      ///< + - * / % < <= > >= == != && || & | ^ << >>
  Assign,      ///< = and compound assignment to a place
  IncDec,      ///< ++/--
  Conditional, ///< c ? a : b
  Comma,       ///< a, b (value of the last)
  CallUser,    ///< a function, method or lambda of the translation unit
  Api,         ///< a mapped LibTorch call
  Optimizer,   ///< a constructed optimizer (its spec is LoopCode::optimizers[index])
  Skipped,     ///< a call that is not mapped: its arguments run, the value is unknown
  Unknown,     ///< an expression the translation does not handle
  // statements
  Block,
  If,
  Loop, ///< for / while / do; range-for (rangeOver set)
  Break,
  Continue,
  Return,
  Declare, ///< a local's declaration with its initialiser (children[0], may be absent)
};

/// Where a value lives: a local of the current call (or a caller's, for
/// lambdas capturing by reference), or a field or global shared by all calls.
struct Place {
  bool shared = false; ///< a field or global
  int id = -1;
  std::string name;
};

/// What an unknown value stands for, so that a stated default replaces it.
enum class Role { None, AccumulationSteps, WorldSize, Rank };

struct Node {
  NodeKind kind = NodeKind::Unknown;
  std::string op; ///< operator spelling; for Api/Skipped the callee's name
  double number = 0.0;
  bool integer = false;    ///< Number: an integer constant; Read/Declare: an integer variable
  bool isUnsigned = false; ///< Read/Declare: an unsigned variable (wrap-around)
  Place place;             ///< Read, Assign, IncDec, Declare
  bool prefix = false;     ///< IncDec
  int function = -1;       ///< CallUser: index in LoopCode::functions
  int optimizer = -1;      ///< Optimizer / Read of an optimizer variable
  int scheduler = -1;      ///< Api SchedulerStep: index in LoopCode::schedulers (-1: not a StepLR)
  ApiOp api = ApiOp::TensorOp;
  bool divides = false;         ///< ScaleGrad / TensorScale: divides (else multiplies)
  bool averages = false;        ///< AllReduce: ReduceOp::AVG
  bool perParameter = false;    ///< AllReduce/ScaleGrad on one parameter's gradient
  Role role = Role::None;       ///< Read / Api WorldSize: what stands in when unknown
  bool isModule = false;        ///< Read of a module variable
  bool untrainedModule = false; ///< ZeroGrad on a module the loop's optimizer does not train
  /// Forward/Parameters/ZeroGrad on a module: the one optimizer of the loop
  /// that trains it (-1: none known, or several). Two models with two
  /// optimizers (a GAN, actor-critic): only the compared optimizer's runs.
  int model = -1;
  bool changesTrainingState = false; ///< Unknown: may switch what training calls do (a guard)
  bool isTensor = false;         ///< the expression's type is a tensor (an unknown tensor is data)
  bool isDataLoop = false;       ///< Loop: the training loop itself
  bool isWindowLoop = false;     ///< Loop: the inner loop over a window's N micro-batches
  bool hasTrainingWork = false;  ///< statement: runs a mapped op (directly or in a helper)
  bool hasForward = false;       ///< statement: runs a forward pass (directly or in a helper)
  bool enclosesDataLoop = false; ///< holds the training loop (an epoch loop, the function)
  bool rangeOver = false;        ///< Loop: a range-for over children[0] binding `place`
  bool postCondition = false;    ///< Loop: do { } while
  /// The condition of the window's boundary guard as the model read it; with
  /// `boundaryWhenFalse` for `if (not boundary) continue;`.
  bool isWindowGuard = false;
  bool boundaryWhenFalse = false;
  unsigned line = 0;
  std::string text; ///< the source, for messages
  /// Unary/Binary/Conditional/Comma/Assign: operands. CallUser/Api/Skipped:
  /// object (may be a null node) then arguments. If: cond, then, else.
  /// Loop: init, cond, increment, body (range-for: range, -, -, body).
  /// Block: statements. Return: value.
  std::vector<std::unique_ptr<Node>> children;
};

struct Assumption {
  std::string name;
  std::string value;
  std::string why;
};

/// torch::optim options as read from the code; a value the code does not set
/// as a constant keeps LibTorch's default and is listed.
struct OptimizerSpec {
  std::string type = "SGD"; ///< SGD, Adam, AdamW, RMSprop, Adagrad
  double lr = 0.01;
  double momentum = 0.0, dampening = 0.0, weightDecay = 0.0;
  bool nesterov = false;
  double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
  double alpha = 0.99;  ///< RMSprop
  double lrDecay = 0.0; ///< Adagrad
  bool amsgrad = false;
  std::string name;    ///< the variable
  std::string written; ///< "SGD(lr=0.01, momentum=0.9)" as read
  /// The N the run divided a stand-in lr / weight decay by (1: none): the
  /// code divides an option it does not show by N (`lr / accum_steps`).
  double lrDividedBy = 1.0, weightDecayDividedBy = 1.0;
  /// Options not read from the code, with the default used.
  std::vector<Assumption> defaulted;
};

/// torch::optim::StepLR(optimizer, step_size, gamma): every step_size calls
/// of step() multiply the optimizer's learning rate by gamma.
struct SchedulerSpec {
  std::string name;
  int optimizer = -1;
  int stepSize = 1;
  double gamma = 0.1;
  /// Another schedule (a lambda, cosine or hand-written class): the runtime
  /// runs this StepLR in its place, so that each call still advances it.
  bool standIn = false;
};

struct Function {
  std::string name;
  std::vector<Place> parameters;
  std::vector<bool> integerParameters;
  /// The constant every call in the file passes (entry functions read it).
  std::vector<std::optional<double>> parameterConstants;
  std::unique_ptr<Node> body;
};

struct LoopCode {
  std::vector<Function> functions;
  int entry = -1;            ///< the function run first
  bool stepFunction = false; ///< entry is called once per micro-batch
  bool hasDataLoop = false;  ///< a Loop node is the training loop itself
  std::vector<OptimizerSpec> optimizers;
  std::vector<SchedulerSpec> schedulers;
  int loopOptimizer = -1; ///< the optimizer this training loop steps (-1: any)
  /// Initial values of fields and globals that have constant initialisers.
  std::vector<std::pair<Place, double>> sharedInitial;
  /// Fields the record's only constructor assigns once in its body
  /// (`left_ = opt.per_update;`): evaluated before the run, in this order; a
  /// number replaces the initialiser.
  std::vector<std::pair<Place, std::unique_ptr<Node>>> constructorValues;
  /// N and W as the model decided them for a run (TrainingLoop::runValues).
  int accumulationSteps = 1;
  bool accumulationStepsFromCode = false;
  int worldSize = 1;
  bool worldSizeFromCode = false;
  int assumedWorldSize = 1; ///< W when the loop all-reduces and W is not a constant
  bool distributed = false; ///< the loop all-reduces gradients
  /// The model's events divide the loss by W (lossDividedByWorldSize), or
  /// average the gradients over the ranks (an AVG all-reduce, a division of
  /// the gradients by W): the reference then takes the mean over ranks.
  bool lossDividedByWorldSize = false;
  bool gradientsAveragedOverRanks = false;
  bool averagesOverRanks() const { return lossDividedByWorldSize || gradientsAveragedOverRanks; }
  /// B, the data loop's batches per epoch, when the model computed it (the
  /// same value its trailing-window finding reads).
  std::optional<long> batchCount;
  /// "float16" / "bfloat16" when the model's parameters (and so .grad) are
  /// half precision; empty for float32.
  std::string gradientType;
  std::string stepsName = "N", worldSizeName = "W";
  std::vector<Assumption> assumptions; ///< what the translation assumed
  std::vector<std::string> skipped;    ///< calls not mapped (deduplicated)
  std::string problem;                 ///< why it cannot run; empty when it can
};

} // namespace gradlint::interp
