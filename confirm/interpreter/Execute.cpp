#include "confirm/interpreter/Execute.h"

#include "runtime/Batch.h"
#include "runtime/Clip.h"
#include "runtime/Loss.h"
#include "runtime/Model.h"
#include "runtime/Optimizers.h"
#include "runtime/ProcessGroup.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

namespace gradlint::interp {

namespace {

/// A loss (or prediction) as a sum of the runtime's loss on micro-batches.
struct Term {
  int microBatch = 0;
  double scale = 1.0;
  /// Backpropagates into another optimizer's model only (a discriminator's
  /// loss on detached samples): the compared model's gradients do not change.
  bool otherModel = false;
};

/// One tensor of a hand-written gradient buffer (`torch::zeros_like(p)`),
/// shaped like parameter `param`, one copy per rank. Shared: tensor handles
/// copied into a vector or bound by a range-for see the same storage.
struct BufferSlot {
  int param = -1;
  std::vector<std::vector<float>> perRank;
};

struct Value {
  enum class Kind {
    Unknown,
    Number,
    Tensor,
    Module,
    Optimizer,
    Params,
    Grad,
    Chunks,
    Groups,
    Buffer, ///< hand-written gradient buffers (slots), times `factor`
  };
  Kind kind = Kind::Unknown;
  double number = 0.0;
  std::vector<Term> terms; ///< Tensor
  std::vector<int> params; ///< Params, Grad: parameter indices
  /// Params, Grad: of a model another optimizer trains (params is empty: none
  /// of the compared model's).
  bool otherModel = false;
  /// Grad: p.grad() / N. Tensor without terms: the numeric factors the code
  /// applied to it (an untraced loss keeps its `/ N` for the stand-in).
  double factor = 1.0;
  /// Tensor without terms: where the code scaled it by a value the interpreter
  /// does not know (a backward() on it cannot say its scale).
  std::string unknownScale;
  int optimizer = -1;                             ///< Optimizer
  int count = -1;                                 ///< Chunks (-1: unknown)
  std::vector<std::shared_ptr<BufferSlot>> slots; ///< Buffer (factor applies on reading)

  static Value of(double n) {
    Value v;
    v.kind = Kind::Number;
    v.number = n;
    return v;
  }
  bool isNumber() const { return kind == Kind::Number; }
};

/// The code's loop ends: the run has consumed its micro-batches.
struct Stop {};
/// The code cannot be run faithfully.
struct Refuse {
  std::string reason;
};

enum class Flow { Normal, Break, Continue, Return };

class AnyOptimizer {
public:
  AnyOptimizer(const OptimizerSpec &spec, const runtime::Backend &backend) {
    if (spec.type == "SGD")
      sgd_ =
          std::make_unique<runtime::Sgd>(runtime::SgdOptions{spec.lr, spec.momentum, spec.dampening,
                                                             spec.weightDecay, spec.nesterov},
                                         backend);
    else if (spec.type == "Adam" || spec.type == "AdamW")
      adam_ = std::make_unique<runtime::AdamW>(runtime::AdamOptions{spec.lr, spec.beta1, spec.beta2,
                                                                    spec.eps, spec.weightDecay,
                                                                    spec.type == "AdamW"},
                                               backend);
    else if (spec.type == "RMSprop")
      rmsprop_ = std::make_unique<runtime::Rmsprop>(
          runtime::RmspropOptions{spec.lr, spec.alpha, spec.eps, spec.weightDecay, spec.momentum});
    else
      adagrad_ = std::make_unique<runtime::Adagrad>(
          runtime::AdagradOptions{spec.lr, spec.lrDecay, spec.weightDecay, spec.eps});
  }
  void setLr(double lr) {
    if (sgd_)
      sgd_->setLr(lr);
    else if (adam_)
      adam_->setLr(lr);
    else if (rmsprop_)
      rmsprop_->setLr(lr);
    else
      adagrad_->setLr(lr);
  }
  void step(runtime::Model &model, const runtime::GradBuffer &grads) {
    if (sgd_)
      sgd_->step(model, grads);
    else if (adam_)
      adam_->step(model, grads);
    else if (rmsprop_)
      rmsprop_->step(model, grads);
    else
      adagrad_->step(model, grads);
  }

private:
  std::unique_ptr<runtime::Sgd> sgd_;
  std::unique_ptr<runtime::AdamW> adam_;
  std::unique_ptr<runtime::Rmsprop> rmsprop_;
  std::unique_ptr<runtime::Adagrad> adagrad_;
};

runtime::Model makeModel(const runtime::RunSettings &s) {
  return runtime::Model::mlp(s.inFeatures, s.hidden, s.outFeatures, s.seed);
}

std::vector<float> flatten(const runtime::Model &model) {
  std::vector<float> out;
  for (const runtime::Tensor &p : model.params())
    out.insert(out.end(), p.data(), p.data() + p.numel());
  return out;
}

/// How many times LibTorch's StepLR has multiplied the rate by gamma after
/// `calls` step()s: call c sees step_count c - 1 and decays when that is a
/// positive multiple of step_size (PyTorch's Python StepLR decays one call earlier).
int stepLRDecays(int calls, int stepSize) {
  return calls <= 1 || stepSize <= 0 ? 0 : (calls - 1) / stepSize;
}

double vectorNorm(const std::vector<float> &values) {
  double sum = 0.0;
  for (float v : values)
    sum += static_cast<double>(v) * v;
  return std::sqrt(sum);
}

std::string lineText(unsigned line) { return line ? " (line " + std::to_string(line) + ")" : ""; }

bool endsWith(const std::string &text, const std::string &suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

constexpr long kStatementBudget = 5'000'000;
constexpr int kCallDepth = 64;

class Interpreter {
public:
  Interpreter(const LoopCode &code, const ExecutionSetting &setting)
      : code_(code), setting_(setting), backend_(*setting.backend) {
    n_ = setting.accumulationSteps ? setting.accumulationSteps : code.accumulationSteps;
    w_ = setting.worldSize        ? setting.worldSize
         : code.worldSizeFromCode ? code.worldSize
         : code.distributed       ? code.assumedWorldSize
                                  : 1;
    budget_ = setting.windows * n_;
    for (int r = 0; r < w_; ++r) {
      ranks_.push_back({makeModel(setting.data), {}, {}});
      ranks_.back().grads = runtime::GradBuffer(ranks_.back().model, setting.data.gradDType);
    }
    for (const auto &[place, value] : code.sharedInitial)
      shared_[place.id] = Value::of(value);
    result_.assumptions = code.assumptions;
    result_.accumulationSteps = n_;
    result_.worldSize = w_;
    if (!code.accumulationStepsFromCode && !setting.stepsSeenInCode)
      assume(code.stepsName, std::to_string(n_),
             "the accumulation steps are not a constant in the code");
    if (code.distributed && !code.worldSizeFromCode)
      assume(code.worldSizeName, std::to_string(w_),
             "the world size is not a constant in the code");
    if (code.loopOptimizer >= 0)
      result_.optimizer = code.optimizers[static_cast<size_t>(code.loopOptimizer)];
    else if (!code.optimizers.empty())
      result_.optimizer = code.optimizers.front();
    for (const Assumption &option : result_.optimizer.defaulted)
      assume(result_.optimizer.name + "." + option.name, option.value,
             option.why + (result_.optimizer.type == "SGD" && option.name == "lr"
                               ? "; SGDOptions has no default, this is gradlint's"
                               : "; LibTorch's default"));
  }

  /// What the constructor's body gives fields before the loop runs; a value
  /// it cannot compute keeps the field's initialiser.
  void constructorValues() {
    for (const auto &[place, node] : code_.constructorValues) {
      Value value;
      try {
        value = evaluate(*node);
      } catch (const Refuse &) {
        continue;
      }
      if (value.isNumber())
        shared_[place.id] = truncated(value, node->integer);
    }
  }

  Execution run() {
    result_.initialParameters = flatten(ranks_[0].model);
    result_.windowTrace.push_back(result_.initialParameters);
    try {
      if (!code_.problem.empty())
        throw Refuse{code_.problem};
      if (code_.entry < 0)
        throw Refuse{"no function to run"};
      constructorValues();
      if (code_.stepFunction)
        runStepFunction();
      else
        call(code_.entry, entryArguments(), 0);
    } catch (const Stop &) {
    } catch (const Refuse &refusal) {
      result_.problem = refusal.reason;
    } catch (const std::exception &error) {
      result_.problem = std::string("the runtime rejected an operation: ") + error.what();
    }
    result_.microBatches = consumed_;
    result_.fates.leftOver = static_cast<int>(pending_.size());
    if (setting_.epochMicroBatches > 0 && epoch_ > 0 &&
        result_.epochSizes.size() < static_cast<size_t>(epoch_))
      result_.epochSizes.push_back(consumed_ - epochStart_);
    if (result_.problem.empty() && result_.steps == 0)
      result_.problem = consumed_ == 0
                            ? "no forward pass ran: the interpreter found no data loop"
                            : "step() never ran in " + std::to_string(consumed_) + " micro-batches";
    if (setting_.epochMicroBatches > 0)
      result_.microBatchTrace.push_back(flatten(ranks_[0].model));
    // Over epochs, windows do not line up with N: the trace ends at the end.
    if (setting_.epochMicroBatches > 0 ||
        result_.windowTrace.size() <= static_cast<size_t>(consumed_ / std::max(n_, 1)))
      result_.windowTrace.push_back(flatten(ranks_[0].model));
    return std::move(result_);
  }

private:
  struct Rank {
    runtime::Model model;
    runtime::GradBuffer grads;
    std::map<int, std::unique_ptr<AnyOptimizer>> optimizers;
  };
  struct Frame {
    std::map<int, Value> locals;
  };

  const LoopCode &code_;
  const ExecutionSetting &setting_;
  const runtime::Backend &backend_;
  int n_ = 1, w_ = 1, budget_ = 12; // set from the setting or LoopCode (the model's N and W)
  std::vector<Rank> ranks_;
  std::map<int, Value> shared_;
  std::vector<Frame> frames_;
  std::vector<long> loopTokens_;
  long tokenCounter_ = 0, lastForwardToken_ = -1;
  int consumed_ = 0, currentMicroBatch_ = -1;
  std::map<int, bool> reachesMemo_; ///< per function: reaches the finding's line
  int dataLoopDepth_ = 0;           ///< data loops running (a forward outside them is a rollout)
  /// Epoch mode: the epoch running (1-based; 0 before the data loop starts)
  /// and the micro-batches backpropagated since the last step or reset.
  int epoch_ = 0, epochStart_ = 0;
  long dataIteration_ = -1; ///< the data loop's iteration while it runs with an unknown length
  std::string dataBound_;   ///< the source of the data loop's bound, `i < <bound>`
  long dataLength_ = 0;     ///< epoch mode: the data loop's length this epoch (0: unknown)
  std::vector<std::pair<int, int>> pending_;
  std::vector<double> pendingScales_; ///< the loss scale of each backward() since then
  /// ExecutionSetting::fixes at work: what a fix moves to the boundary waits
  /// here for the next step().
  struct DeferredSync {
    std::vector<int> params;
    bool average = false;
    int microBatch = -1;          ///< the micro-batch whose all-reduce was deferred last
    std::map<int, double> scales; ///< the division by W that followed it, per parameter
  } deferredSync_;
  struct DeferredClip {
    bool byValue = false;
    double limit = 0.0;
    unsigned line = 0;
  };
  std::optional<DeferredClip> deferredClip_;
  std::set<int> averagedSinceStep_; ///< parameters averaged over ranks since the last step()
  long statements_ = 0;
  bool anyBackward_ = false;
  std::map<int, int> schedulerCalls_;   ///< per scheduler
  std::map<int, double> learningRates_; ///< per optimizer, as its scheduler set it
  Value returned_;
  std::set<std::string> skippedNames_;
  Execution result_;

  void assume(const std::string &name, const std::string &value, const std::string &why) {
    for (const Assumption &existing : result_.assumptions)
      if (existing.name == name)
        return;
    result_.assumptions.push_back({name, value, why});
  }

  void skip(const std::string &what, unsigned line) {
    if (skippedNames_.insert(what).second)
      result_.skipped.push_back(what + lineText(line));
  }

  void tick() {
    if (++statements_ > kStatementBudget)
      throw Refuse{"the code did not finish " + std::to_string(budget_) +
                   " micro-batches within 5,000,000 interpreted steps"};
  }

  /// Whether `node` or a helper it calls holds code on `line`.
  bool reaches(const Node &node, unsigned line) {
    if (node.line == line)
      return true;
    if (node.kind == NodeKind::CallUser && node.function >= 0) {
      auto [memo, fresh] = reachesMemo_.try_emplace(node.function, false);
      if (fresh) {
        const Function &callee = code_.functions[static_cast<size_t>(node.function)];
        memo->second = callee.body && reaches(*callee.body, line);
        reachesMemo_[node.function] = memo->second;
      }
      if (reachesMemo_[node.function])
        return true;
    }
    for (const std::unique_ptr<Node> &child : node.children)
      if (child && reaches(*child, line))
        return true;
    return false;
  }

  /// Whether a branch ends its function or loop iteration early (`return false;`).
  static bool leaves(const Node &node) {
    if (node.kind == NodeKind::Return || node.kind == NodeKind::Break ||
        node.kind == NodeKind::Continue)
      return true;
    if (node.kind == NodeKind::Block)
      for (const std::unique_ptr<Node> &child : node.children)
        if (child && leaves(*child))
          return true;
    return false;
  }

  // ---- the runtime

  /// The micro-batch a forward pass in the current loop iteration reads.
  int forwardMicroBatch() {
    long token = loopTokens_.empty() ? 0 : loopTokens_.back();
    if (token != lastForwardToken_ || currentMicroBatch_ < 0) {
      lastForwardToken_ = token;
      currentMicroBatch_ = consumed_++;
      if (setting_.epochMicroBatches > 0)
        result_.microBatchTrace.push_back(flatten(ranks_[0].model));
      if (currentMicroBatch_ > 0 && currentMicroBatch_ % n_ == 0)
        result_.windowTrace.push_back(flatten(ranks_[0].model));
    }
    return currentMicroBatch_;
  }

  runtime::Batch batchOf(int microBatch, int rank) const {
    return runtime::microBatch(setting_.data, microBatch / n_, microBatch % n_, rank, n_, w_);
  }

  void backward(Value loss, const Node &node) {
    if (loss.kind == Value::Kind::Unknown ||
        (loss.kind == Value::Kind::Tensor && loss.terms.empty())) {
      // A loss built where the interpreter does not follow it (a struct's
      // field, a loss object's result): the micro-batch's stand-in loss, with
      // the numeric factors the code applied to the untraced value.
      if (loopTokens_.empty())
        throw Refuse{"backward()" + lineText(node.line) + " runs on `" + node.text +
                     "`, which the interpreter cannot trace to a forward pass, outside any loop"};
      if (!loss.unknownScale.empty())
        throw Refuse{"backward()" + lineText(node.line) + " runs on a loss computed in " +
                     loss.unknownScale + " from a value the interpreter does not follow"};
      double scale = loss.kind == Value::Kind::Tensor ? loss.factor : 1.0;
      char factor[32];
      std::snprintf(factor, sizeof factor, "%g", scale);
      assume("backward()" + lineText(node.line) + " on `" + node.text + "`",
             std::string("the micro-batch's stand-in loss") + (scale == 1.0 ? "" : " x ") +
                 (scale == 1.0 ? "" : factor),
             "the interpreter does not trace this loss to a forward pass; the numeric factors "
             "the code applies to it are kept");
      loss.kind = Value::Kind::Tensor;
      loss.terms = {{forwardMicroBatch(), scale}};
    }
    if (loss.kind != Value::Kind::Tensor)
      throw Refuse{"backward()" + lineText(node.line) + " runs on `" + node.text +
                   "`, which the interpreter cannot trace to a forward pass"};
    loss.terms.erase(std::remove_if(loss.terms.begin(), loss.terms.end(),
                                    [](const Term &term) { return term.otherModel; }),
                     loss.terms.end());
    if (loss.terms.empty())
      return; // another model's loss: the compared model's gradients are untouched
    anyBackward_ = true;
    if (pending_.empty() || pending_.back().first != currentMicroBatch_)
      pending_.push_back({currentMicroBatch_, epoch_});
    std::map<int, double> scales;
    double fixFactor = applies(Fix::DivideLossBySteps) ? 1.0 / n_ : 1.0;
    // AverageOverRanksOnce: a loss divided by W whose gradients are averaged
    // over the ranks again (the model read both) is taken undivided.
    if (applies(Fix::AverageOverRanksOnce) && code_.lossDividedByWorldSize &&
        code_.gradientsAveragedOverRanks)
      fixFactor *= w_;
    for (const Term &term : loss.terms)
      scales[term.microBatch] += term.scale * fixFactor;
    for (const auto &[micro, scale] : scales)
      pendingScales_.push_back(scale);
    for (int r = 0; r < w_; ++r)
      for (const auto &[micro, scale] : scales)
        runtime::forwardBackward(ranks_[static_cast<size_t>(r)].model, batchOf(micro, r),
                                 runtime::LossKind::Mse, runtime::Reduction::Mean,
                                 static_cast<float>(scale), ranks_[static_cast<size_t>(r)].grads,
                                 backend_);
  }

  bool isLoopOptimizer(const Value &object) {
    if (object.kind != Value::Kind::Optimizer || code_.loopOptimizer < 0 ||
        object.optimizer == code_.loopOptimizer)
      return true;
    // Two optimizers train two models (GAN, actor-critic): the other one acts
    // on its own model, which is not the one compared.
    otherModelAssumption(code_.optimizers[static_cast<size_t>(object.optimizer)].name);
    return false;
  }

  bool ofOtherModel(int model) const {
    return model >= 0 && code_.loopOptimizer >= 0 && model != code_.loopOptimizer;
  }

  void otherModelAssumption(const std::string &what) {
    assume(what, "another model, not run",
           "the loop trains a second model; only " +
               (code_.loopOptimizer >= 0
                    ? code_.optimizers[static_cast<size_t>(code_.loopOptimizer)].name + "'s"
                    : std::string("the loop optimizer's")) +
               " model is run and compared, and the other's forward passes carry its gradient "
               "only through their inputs");
  }

  void step(const Value &object) {
    if (!isLoopOptimizer(object))
      return;
    applyDeferredFixes();
    int id = object.kind == Value::Kind::Optimizer ? object.optimizer : code_.loopOptimizer;
    const OptimizerSpec &spec =
        id >= 0 ? code_.optimizers[static_cast<size_t>(id)] : result_.optimizer;
    if (result_.steps == 0) {
      result_.firstAppliedGradient = ranks_[0].grads.flatten();
      result_.optimizer = spec;
    }
    std::vector<float> before =
        result_.steps == 0 ? flatten(ranks_[0].model) : std::vector<float>{};
    auto scheduled = learningRates_.find(id);
    result_.stepLearningRates.push_back(scheduled != learningRates_.end() ? scheduled->second
                                                                          : spec.lr);
    result_.appliedGradientNorms.push_back(vectorNorm(ranks_[0].grads.flatten()));
    for (const auto &[micro, epoch] : pending_) {
      ++result_.fates.stepped;
      result_.fates.leaked += epoch < epoch_ ? 1 : 0;
    }
    pending_.clear();
    pendingScales_.clear();
    for (Rank &rank : ranks_) {
      std::unique_ptr<AnyOptimizer> &optimizer = rank.optimizers[id];
      if (!optimizer) {
        optimizer = std::make_unique<AnyOptimizer>(spec, backend_);
        if (auto lr = learningRates_.find(id); lr != learningRates_.end())
          optimizer->setLr(lr->second);
      }
      optimizer->step(rank.model, rank.grads);
    }
    if (result_.steps == 0) {
      std::vector<float> after = flatten(ranks_[0].model);
      for (size_t i = 0; i < after.size(); ++i)
        after[i] -= before[i];
      result_.firstUpdate = std::move(after);
    }
    ++result_.steps;
    averagedSinceStep_.clear();
    if (applies(Fix::ResetRightAfterStep))
      zeroGrads(allParams());
  }

  // ---- program-level fixes (ExecutionSetting::fixes)

  using Fix = ConfirmationPlan::ProgramFix;

  bool applies(Fix fix) const {
    return std::find(setting_.fixes.begin(), setting_.fixes.end(), fix) != setting_.fixes.end();
  }

  /// SyncAtBoundary: the all-reduce deferred in this micro-batch (and the
  /// division by W that followed it) runs, where the boundary starts: its
  /// guard holds, its inner loop ended, or step() runs.
  void flushDeferredSync() {
    if (deferredSync_.params.empty() || deferredSync_.microBatch != currentMicroBatch_)
      return;
    allReduce(deferredSync_.params, deferredSync_.average);
    for (const auto &[param, factor] : deferredSync_.scales)
      scaleGrads({param}, factor);
    deferredSync_ = {};
  }

  /// Before step(): the all-reduce (and its division by W) and the clip that
  /// the fixes moved to the boundary, in that order.
  void applyDeferredFixes() {
    if (!deferredSync_.params.empty()) {
      deferredSync_.microBatch = currentMicroBatch_;
      flushDeferredSync();
    }
    if (deferredClip_)
      clip(deferredClip_->byValue, deferredClip_->limit, deferredClip_->line);
    deferredClip_.reset();
  }

  /// A gradient reset the code runs. ResetRightAfterStep: none but the one
  /// right after each step().
  void codeResetGrads(const std::vector<int> &params) {
    if (!applies(Fix::ResetRightAfterStep))
      zeroGrads(params);
  }

  /// A gradient scaling the code runs. SyncAtBoundary: a scaling that follows
  /// a deferred all-reduce in the same micro-batch (its `/ W`) goes with it.
  /// AverageOverRanksOnce: a division by W of gradients already averaged over
  /// the ranks since the last step() is dropped.
  void codeScaleGrads(const std::vector<int> &params, double factor) {
    if (applies(Fix::SyncAtBoundary) && factor != 0.0 && !deferredSync_.params.empty() &&
        deferredSync_.microBatch == currentMicroBatch_) {
      for (int param : params)
        deferredSync_.scales[param] = factor;
      return;
    }
    bool byWorldSize = w_ > 1 && std::abs(factor * w_ - 1.0) < 1e-9;
    if (applies(Fix::AverageOverRanksOnce) && byWorldSize) {
      bool averaged = std::all_of(params.begin(), params.end(),
                                  [&](int param) { return averagedSinceStep_.count(param) > 0; });
      if (averaged)
        return;
    }
    if (byWorldSize)
      averagedSinceStep_.insert(params.begin(), params.end());
    scaleGrads(params, factor);
  }

  /// A clip the code runs. ClipAtBoundary: it runs once, before step().
  void codeClip(bool byValue, double limit, unsigned line) {
    if (!applies(Fix::ClipAtBoundary))
      return clip(byValue, limit, line);
    if (!(limit >= 0))
      throw Refuse{"the clip limit" + lineText(line) + " is negative or not a number"};
    deferredClip_ = DeferredClip{byValue, limit, line};
  }

  /// An all-reduce of gradients the code runs. SyncAtBoundary: it runs once,
  /// before step().
  void codeAllReduce(const std::vector<int> &params, bool average) {
    if (!applies(Fix::SyncAtBoundary)) {
      allReduce(params, average);
      return;
    }
    for (int param : params)
      if (std::find(deferredSync_.params.begin(), deferredSync_.params.end(), param) ==
          deferredSync_.params.end())
        deferredSync_.params.push_back(param);
    deferredSync_.average = average;
    deferredSync_.microBatch = currentMicroBatch_;
  }

  std::vector<int> allParams() const {
    std::vector<int> all;
    for (size_t i = 0; i < ranks_[0].model.numParams(); ++i)
      all.push_back(static_cast<int>(i));
    return all;
  }

  void scaleGrads(const std::vector<int> &params, double factor) {
    for (Rank &rank : ranks_)
      for (int i : params) {
        float *data = rank.grads.mutableData(static_cast<size_t>(i));
        int64_t count = rank.grads.tensor(static_cast<size_t>(i)).numel();
        for (int64_t k = 0; k < count; ++k)
          data[k] *= static_cast<float>(factor);
      }
    for (Rank &rank : ranks_)
      rank.grads.roundToStorage(backend_);
  }

  // ---- hand-written gradient buffers

  size_t paramNumel(int param) const {
    return static_cast<size_t>(ranks_[0].grads.tensor(static_cast<size_t>(param)).numel());
  }

  static std::vector<int> paramsOfBuffer(const Value &buffer) {
    std::vector<int> params;
    for (const std::shared_ptr<BufferSlot> &slot : buffer.slots)
      params.push_back(slot->param);
    return params;
  }

  /// `torch::zeros_like(p)` for each parameter in `params`.
  Value freshBuffer(const std::vector<int> &params) const {
    Value buffer;
    buffer.kind = Value::Kind::Buffer;
    for (int param : params) {
      auto slot = std::make_shared<BufferSlot>();
      slot->param = param;
      slot->perRank.assign(ranks_.size(), std::vector<float>(paramNumel(param), 0.0f));
      buffer.slots.push_back(std::move(slot));
    }
    return buffer;
  }

  /// The buffer's slots with its factor applied: the same storage when the
  /// factor is 1 (a handle), else new tensors (`acc / N`).
  Value materialisedSlots(const Value &buffer) const {
    if (buffer.factor == 1.0)
      return buffer;
    Value copy = freshBuffer(paramsOfBuffer(buffer));
    for (size_t j = 0; j < copy.slots.size(); ++j)
      for (size_t r = 0; r < ranks_.size(); ++r)
        for (size_t e = 0; e < copy.slots[j]->perRank[r].size(); ++e)
          copy.slots[j]->perRank[r][e] =
              static_cast<float>(buffer.slots[j]->perRank[r][e] * buffer.factor);
    return copy;
  }

  /// Element count of a gradient-like value: its parameters or its slots.
  static size_t tensorsIn(const Value &value) {
    return value.kind == Value::Kind::Buffer ? value.slots.size() : value.params.size();
  }

  /// Tensor j of a gradient-like value on rank r, scaled by its factor.
  std::vector<float> tensorOf(const Value &value, size_t j, size_t r) const {
    std::vector<float> out;
    if (value.kind == Value::Kind::Buffer) {
      out = value.slots[j]->perRank[r];
    } else {
      size_t param = static_cast<size_t>(value.params[j]);
      const float *data = ranks_[r].grads.tensor(param).data();
      out.assign(data, data + ranks_[r].grads.tensor(param).numel());
    }
    for (float &x : out)
      x = static_cast<float>(x * value.factor);
    return out;
  }

  /// target += sign * source (source: gradients or another buffer).
  void addInto(Value &target, const Value &source, double sign, const Node &node) {
    using K = Value::Kind;
    if (source.kind != K::Grad && source.kind != K::Buffer)
      throw Refuse{"`" + node.text + "`" + lineText(node.line) +
                   " adds a value the interpreter does not follow into a gradient buffer"};
    if (target.factor != 1.0 || tensorsIn(source) != target.slots.size())
      throw Refuse{"`" + node.text + "`" + lineText(node.line) +
                   " adds gradients into a buffer of another size"};
    for (size_t j = 0; j < target.slots.size(); ++j)
      for (size_t r = 0; r < ranks_.size(); ++r) {
        std::vector<float> add = tensorOf(source, j, r);
        std::vector<float> &into = target.slots[j]->perRank[r];
        if (add.size() != into.size())
          throw Refuse{"`" + node.text + "`" + lineText(node.line) +
                       " adds a gradient into a buffer of another shape"};
        for (size_t e = 0; e < into.size(); ++e)
          into[e] += static_cast<float>(sign * add[e]);
      }
  }

  /// `acc += g`, `acc -= g`, `acc *= x`, `acc /= x` in place.
  void updateBuffer(Value &target, const std::string &op, const Value &rhs, const Node &node) {
    if (op == "+" || op == "-") {
      addInto(target, rhs, op == "-" ? -1.0 : 1.0, node);
      return;
    }
    if ((op != "*" && op != "/") || !rhs.isNumber() || (op == "/" && rhs.number == 0))
      throw Refuse{"`" + node.text + "`" + lineText(node.line) +
                   " changes a gradient buffer in a way the interpreter does not follow"};
    double factor = op == "/" ? 1.0 / rhs.number : rhs.number;
    for (const std::shared_ptr<BufferSlot> &slot : target.slots)
      for (std::vector<float> &values : slot->perRank)
        for (float &x : values)
          x = static_cast<float>(x * factor);
  }

  /// `p.mutable_grad() = acc / N`, `p.grad().copy_(acc)`: .grad takes the buffer's values.
  void writeGrads(const std::vector<int> &params, const Value &buffer, const Node &node) {
    if (params.size() != buffer.slots.size())
      throw Refuse{"`" + node.text + "`" + lineText(node.line) +
                   " writes a buffer of another size into the gradients"};
    for (size_t r = 0; r < ranks_.size(); ++r) {
      for (size_t j = 0; j < params.size(); ++j) {
        std::vector<float> values = tensorOf(buffer, j, r);
        size_t param = static_cast<size_t>(params[j]);
        if (values.size() != paramNumel(params[j]))
          throw Refuse{"`" + node.text + "`" + lineText(node.line) +
                       " writes a buffer of another shape into a gradient"};
        std::copy(values.begin(), values.end(), ranks_[r].grads.mutableData(param));
      }
      ranks_[r].grads.roundToStorage(backend_);
    }
  }

  /// Tensor calls on buffers: `zeros_like(p)`, `acc.add_(g)`, `g.copy_(acc)`,
  /// `acc.clone()`, `acc.to(kFloat)`; nothing for other calls.
  std::optional<Value> bufferOp(const Node &node, const std::vector<Value> &values) {
    using K = Value::Kind;
    const Value &object = values[0];
    if (node.op == "zeros_like")
      for (size_t i = 1; i < values.size(); ++i) {
        if (values[i].kind == K::Params || values[i].kind == K::Grad)
          return freshBuffer(values[i].params);
        if (values[i].kind == K::Buffer)
          return freshBuffer(paramsOfBuffer(values[i]));
      }
    const Value none;
    const Value &argument = values.size() > 1 ? values[1] : none;
    // torch::add(acc, g): a new buffer.
    if (node.op == "add" && object.kind == K::Unknown && values.size() >= 3 &&
        (values[1].kind == K::Buffer || values[2].kind == K::Buffer) &&
        (values[1].kind == K::Buffer || values[1].kind == K::Grad) &&
        (values[2].kind == K::Buffer || values[2].kind == K::Grad))
      return arithmetic("+", values[1], values[2], false, node);
    if (object.kind == K::Buffer) {
      if (node.op == "add_" || node.op == "sub_") {
        Value source = argument;
        if (values.size() > 2 && values[2].isNumber())
          source = scaled(source, values[2].number); // add_(g, alpha)
        Value target = object;
        updateBuffer(target, node.op == "add_" ? "+" : "-", source, node);
        return object;
      }
      if (node.op == "copy_") {
        Value target = object;
        updateBuffer(target, "*", Value::of(0.0), node);
        addInto(target, argument, 1.0, node);
        return object;
      }
      if (node.op == "clone") {
        Value copy = freshBuffer(paramsOfBuffer(object));
        addInto(copy, object, 1.0, node);
        return copy;
      }
      if (node.op == "to" || node.op == "float" || node.op == "contiguous" || node.op == "detach")
        return object;
    }
    if (object.kind == K::Grad && node.op == "copy_" && argument.kind == K::Buffer) {
      writeGrads(object.params, argument, node);
      return object;
    }
    return std::nullopt;
  }

  /// Writes the interpreter would drop without a trace, so that the run would
  /// measure a loop other than the one written: `grad.copy_(t)` from a tensor it
  /// does not follow, `flat.narrow(0, a, n).add_(grad)` into a view of a tensor
  /// (views are not modelled).
  void refuseUntrackedGradientWrite(const Node &node, const std::vector<Value> &values) {
    using K = Value::Kind;
    if (values.size() < 2 || node.children.empty() || !node.children[0])
      return;
    bool untracked = values[1].kind == K::Unknown || values[1].kind == K::Tensor;
    if (values[0].kind == K::Grad && node.op == "copy_" && untracked)
      throw Refuse{"`" + node.text + "`" + lineText(node.line) +
                   " writes a tensor the interpreter does not follow into the gradients"};
    static const char *const views[] = {"narrow",  "slice",   "select", "view",
                                        "view_as", "reshape", "flatten"};
    const Node &target = *node.children[0];
    bool intoView = target.kind == NodeKind::Api && target.api == ApiOp::TensorOp &&
                    std::any_of(std::begin(views), std::end(views),
                                [&](const char *view) { return target.op == view; });
    if (intoView && endsWith(node.op, "_") &&
        (values[1].kind == K::Grad || values[1].kind == K::Buffer))
      throw Refuse{"`" + node.text + "`" + lineText(node.line) + " writes gradients through a `" +
                   target.op + "` view of a tensor; the interpreter does not model views"};
  }

  void zeroGrads(const std::vector<int> &params) {
    scaleGrads(params, 0.0);
    result_.fates.discarded += static_cast<int>(pending_.size());
    pending_.clear();
    pendingScales_.clear();
  }

  void clip(bool byValue, double limit, unsigned line) {
    if (!(limit >= 0))
      throw Refuse{"the clip limit" + lineText(line) + " is negative or not a number"};
    result_.clip.used = true;
    result_.clip.byValue = byValue;
    result_.clip.limit = limit;
    for (Rank &rank : ranks_) {
      double size = 0.0;
      if (byValue) {
        for (float g : rank.grads.flatten())
          size = std::max(size, static_cast<double>(std::abs(g)));
        runtime::clipGradValue(rank.grads, limit, backend_);
      } else {
        size = runtime::clipGradNorm(rank.grads, limit, backend_);
      }
      result_.clip.largestNorm = std::max(result_.clip.largestNorm, size);
      result_.clip.bound = result_.clip.bound || size > limit;
    }
  }

  void allReduce(const std::vector<int> &params, bool average) {
    runtime::ProcessGroup group(w_, backend_);
    std::vector<runtime::GradBuffer *> buffers;
    for (Rank &rank : ranks_)
      buffers.push_back(&rank.grads);
    for (int i : params)
      group.allReduceTensor(buffers, static_cast<size_t>(i),
                            average ? runtime::ReduceOp::Avg : runtime::ReduceOp::Sum);
    result_.allReduceCalls += 1.0;
    result_.gradientAllReduces +=
        static_cast<double>(params.size()) / std::max<size_t>(1, allParams().size());
    result_.averagedOverRanks = result_.averagedOverRanks || average;
    if (average)
      averagedSinceStep_.insert(params.begin(), params.end());
  }

  // ---- values

  Value unknownRead(const Node &node) {
    switch (node.role) {
    case Role::AccumulationSteps:
      if (!code_.accumulationStepsFromCode)
        assume(node.place.name.empty() ? node.text : node.place.name, std::to_string(n_),
               "not a constant in the code");
      return Value::of(n_);
    case Role::WorldSize:
      if (!code_.worldSizeFromCode)
        assume(node.place.name.empty() ? code_.worldSizeName : node.place.name, std::to_string(w_),
               "not a constant in the code");
      return Value::of(w_);
    case Role::Rank:
      assume(node.place.name, "0", "the interpreter follows rank 0's branches");
      return Value::of(0);
    case Role::None: break;
    }
    Value value;
    if (node.optimizer >= 0) {
      value.kind = Value::Kind::Optimizer;
      value.optimizer = node.optimizer;
    } else if (node.isModule) {
      value.kind = Value::Kind::Module;
    }
    return value;
  }

  Value *lookup(const Place &place) {
    if (place.shared) {
      auto found = shared_.find(place.id);
      return found == shared_.end() ? nullptr : &found->second;
    }
    for (auto frame = frames_.rbegin(); frame != frames_.rend(); ++frame) {
      auto found = frame->locals.find(place.id);
      if (found != frame->locals.end())
        return &found->second;
    }
    return nullptr;
  }

  void store(const Place &place, Value value, bool declare = false) {
    if (place.shared) {
      shared_[place.id] = std::move(value);
      return;
    }
    Value *existing = declare ? nullptr : lookup(place);
    if (existing)
      *existing = std::move(value);
    else
      frames_.back().locals[place.id] = std::move(value);
  }

  static Value truncated(Value value, bool integer) {
    if (integer && value.isNumber())
      value.number = std::trunc(value.number);
    return value;
  }

  static Value scaled(Value value, double factor) {
    if (value.kind == Value::Kind::Tensor && !value.terms.empty())
      for (Term &term : value.terms)
        term.scale *= factor;
    else if (value.kind == Value::Kind::Tensor || value.kind == Value::Kind::Grad ||
             value.kind == Value::Kind::Buffer)
      value.factor *= factor;
    return value;
  }

  /// Adds `terms` (times `sign`) into `into`. Two terms of one micro-batch
  /// (`policy_loss + 0.5 * value_loss`, a loss of two heads) are one stand-in
  /// loss: the runtime has one loss per micro-batch, so the larger scale stands
  /// for their sum (the large-batch reference weighs the micro-batch the same way).
  static void mergeTerms(Value &into, const std::vector<Term> &terms, double sign) {
    for (Term term : terms) {
      term.scale *= sign;
      auto same = std::find_if(into.terms.begin(), into.terms.end(), [&](const Term &t) {
        return t.microBatch == term.microBatch && t.otherModel == term.otherModel;
      });
      if (same == into.terms.end())
        into.terms.push_back(term);
      else if (std::abs(term.scale) > std::abs(same->scale))
        same->scale = term.scale;
    }
  }

  /// A value the interpreter does not follow, of tensor type: an opaque tensor.
  static Value opaqueTensorIf(Value value, const Node *source) {
    if (value.kind == Value::Kind::Unknown && source && source->isTensor) {
      value.kind = Value::Kind::Tensor;
      value.factor = 1.0;
    }
    return value;
  }

  /// `(x / N).mean()` on an untraced x: the result keeps x's scale when x is
  /// the only tensor operand.
  static void carryUntracedScale(Value &result, const std::vector<Value> &operands) {
    const Value *only = nullptr;
    for (const Value &operand : operands)
      if (operand.kind == Value::Kind::Tensor) {
        if (only)
          return;
        only = &operand;
      }
    if (only) {
      result.factor = only->factor;
      result.unknownScale = only->unknownScale;
    }
  }

  /// A tensor-valued call the interpreter does not run (a loss object's
  /// forward, `scaler.scale(loss)`): its result carries its operands' loss.
  Value opaqueResult(const Node &node, const std::vector<Value> &operands) {
    Value result;
    result.kind = Value::Kind::Tensor;
    for (const Value &operand : operands)
      if (carriesLoss(operand))
        mergeTerms(result, operand.terms, 1.0);
    if (result.terms.empty())
      carryUntracedScale(result, operands);
    else
      assume("`" + node.text + "`" + lineText(node.line), "its tensor operand's loss",
             "a call the interpreter does not run; its result is taken as the loss it is "
             "handed, unscaled");
    return result;
  }

  static bool carriesLoss(const Value &value) {
    return value.kind == Value::Kind::Tensor && !value.terms.empty();
  }

  /// A tensor the interpreter does not follow, standing for a positive factor
  /// on a loss (a mask's sum, a token count, per-sample weights).
  static bool opaqueFactor(const Value &value) {
    return value.kind == Value::Kind::Unknown || value.kind == Value::Kind::Tensor;
  }

  Value arithmetic(const std::string &op, const Value &a, const Value &b, bool integer,
                   const Node &node) {
    using K = Value::Kind;
    if (a.isNumber() && b.isNumber()) {
      double x = a.number, y = b.number, r = 0.0;
      if (op == "+")
        r = x + y;
      else if (op == "-")
        r = x - y;
      else if (op == "*")
        r = x * y;
      else if (op == "/" || op == "%") {
        // Floating-point division by zero is IEEE inf/nan (a log line's
        // average before any batch); integer division by zero is undefined.
        if (y == 0 && (integer || op == "%"))
          throw Refuse{"division by zero" + lineText(node.line) + " in `" + node.text + "`"};
        r = op == "/" ? (integer ? std::trunc(x / y) : x / y) : std::fmod(x, y);
      } else if (op == "<")
        r = x < y;
      else if (op == "<=")
        r = x <= y;
      else if (op == ">")
        r = x > y;
      else if (op == ">=")
        r = x >= y;
      else if (op == "min")
        r = std::min(x, y);
      else if (op == "max")
        r = std::max(x, y);
      else if (op == "==")
        r = x == y;
      else if (op == "!=")
        r = x != y;
      else if (op == "&&")
        r = x != 0 && y != 0;
      else if (op == "||")
        r = x != 0 || y != 0;
      else if (op == "&")
        r = static_cast<double>(static_cast<int64_t>(x) & static_cast<int64_t>(y));
      else if (op == "|")
        r = static_cast<double>(static_cast<int64_t>(x) | static_cast<int64_t>(y));
      else if (op == "^")
        r = static_cast<double>(static_cast<int64_t>(x) ^ static_cast<int64_t>(y));
      else if (op == "<<")
        r = static_cast<double>(static_cast<int64_t>(x) << static_cast<int64_t>(y));
      else if (op == ">>")
        r = static_cast<double>(static_cast<int64_t>(x) >> static_cast<int64_t>(y));
      else
        return {};
      return truncated(Value::of(r), integer && op != "/");
    }
    bool tensorA = a.kind == K::Tensor || a.kind == K::Grad || a.kind == K::Buffer;
    bool tensorB = b.kind == K::Tensor || b.kind == K::Grad || b.kind == K::Buffer;
    if ((a.kind == K::Buffer || b.kind == K::Buffer) && (op == "+" || op == "-") &&
        (a.kind == K::Buffer || a.kind == K::Grad) && (b.kind == K::Buffer || b.kind == K::Grad)) {
      // acc + p.grad(): a new buffer.
      Value sum = freshBuffer(a.kind == K::Buffer ? paramsOfBuffer(a) : a.params);
      addInto(sum, a, 1.0, node);
      addInto(sum, b, op == "-" ? -1.0 : 1.0, node);
      return sum;
    }
    // Two untraced tensors (`loss / num_pos`, `x * mask`): the right one is an
    // opaque positive factor on the left one.
    if ((op == "*" || op == "/") && a.kind == K::Tensor && a.terms.empty() && b.kind == K::Tensor &&
        b.terms.empty()) {
      Value result = a;
      if (result.unknownScale.empty())
        result.unknownScale = b.unknownScale;
      return result;
    }
    // Data divided by a number of the code the interpreter holds as 0 (a field
    // it never saw set): no loss flows through it, so only its scale is lost.
    if (op == "/" && a.kind == K::Tensor && a.terms.empty() && b.isNumber() && b.number == 0) {
      Value result = a;
      result.unknownScale = "`" + node.text + "`" + lineText(node.line);
      return result;
    }
    // An untraced tensor scaled by a number the interpreter does not know.
    if ((op == "*" || op == "/") && a.kind == K::Tensor && a.terms.empty() &&
        b.kind == K::Unknown) {
      Value result = a;
      result.unknownScale = "`" + node.text + "`" + lineText(node.line);
      return result;
    }
    if (op == "*" && b.kind == K::Tensor && b.terms.empty() && a.kind == K::Unknown) {
      Value result = b;
      result.unknownScale = "`" + node.text + "`" + lineText(node.line);
      return result;
    }
    if (tensorA && b.isNumber()) {
      if (op == "*")
        return scaled(a, b.number);
      if (op == "/") {
        if (b.number == 0)
          throw Refuse{"division by zero" + lineText(node.line) + " in `" + node.text + "`"};
        return scaled(a, 1.0 / b.number);
      }
      if (op == "+" || op == "-")
        return a; // a constant adds no gradient
    }
    if (a.isNumber() && tensorB) {
      if (op == "*")
        return scaled(b, a.number);
      if (op == "+")
        return b;
      if (op == "-")
        return scaled(b, -1.0);
    }
    if (a.kind == K::Tensor && b.kind == K::Tensor && (op == "+" || op == "-")) {
      Value sum = a.terms.empty() && !b.terms.empty() ? scaled(b, op == "-" ? -1.0 : 1.0) : a;
      if (!a.terms.empty())
        mergeTerms(sum, b.terms, op == "-" ? -1.0 : 1.0);
      return sum;
    }
    // An unknown tensor combined with a gradient: a hand-written buffer the
    // interpreter did not see created (`torch::zeros(p.sizes())`).
    if ((a.kind == K::Grad && b.kind == K::Tensor && b.terms.empty()) ||
        (b.kind == K::Grad && a.kind == K::Tensor && a.terms.empty()))
      throw Refuse{"`" + node.text + "`" + lineText(node.line) +
                   " combines a gradient with a tensor the interpreter does not follow"};
    // A tensor combined with data or parameters (a regulariser): its loss terms stay.
    if (a.kind == K::Tensor && b.kind != K::Number && op != "/" && op != "*")
      return a;
    // A loss weighted by data (`log_prob * advantage.detach()`): the weight is taken as 1.
    if (op == "*" && (a.terms.empty() != b.terms.empty())) {
      const Value &loss = a.terms.empty() ? b : a;
      const Value &weight = a.terms.empty() ? a : b;
      if (!loss.terms.empty() && weight.terms.empty() && weight.kind != K::Grad) {
        assume("`" + node.text + "`" + lineText(node.line), "the loss times 1",
               "the weight is data, which the stand-in does not have");
        return loss;
      }
    }
    if (b.kind == K::Tensor && a.kind != K::Number && op == "+")
      return b;
    // A loss times or over a tensor the interpreter does not follow (`loss /
    // num_pos`, `log_probs.exp() * log_probs`, `(logp * mask).sum() /
    // mask.sum()`): the other side is an opaque positive factor, taken as 1.
    if ((op == "*" || op == "/") && carriesLoss(a) && opaqueFactor(b) && b.kind != K::Grad) {
      assume("`" + node.text + "`" + lineText(node.line),
             "the loss " + std::string(op == "*" ? "times" : "over") + " 1",
             "the factor is a tensor the interpreter does not follow, taken as an opaque "
             "positive factor");
      return a;
    }
    if (op == "*" && carriesLoss(b) && opaqueFactor(a) && a.kind != K::Grad) {
      assume("`" + node.text + "`" + lineText(node.line), "the loss times 1",
             "the factor is a tensor the interpreter does not follow, taken as an opaque "
             "positive factor");
      return b;
    }
    if (a.kind == K::Tensor || b.kind == K::Tensor)
      if (!a.terms.empty() || !b.terms.empty())
        throw Refuse{"`" + node.text + "`" + lineText(node.line) +
                     " combines a loss with a value the interpreter does not follow"};
    return {};
  }

  // ---- expressions

  /// Epoch mode: the data loop's unknown length (`batches.size()`, `total`)
  /// is the epoch's where the code compares or counts with it again (a
  /// last-batch test), not where it scales a loss.
  Value epochBoundOr(Value value, const Node &operand) const {
    if (setting_.epochMicroBatches > 0 && !dataBound_.empty() &&
        value.kind == Value::Kind::Unknown && operand.text == dataBound_)
      return Value::of(setting_.epochMicroBatches);
    return value;
  }

  static bool comparesOrCounts(const std::string &op) {
    return op == "<" || op == "<=" || op == ">" || op == ">=" || op == "==" || op == "!=" ||
           op == "%" || op == "-" || op == "+";
  }

  Value evaluate(const Node &node) {
    Value value = evaluateNode(node);
    if (node.isWindowGuard && setting_.flushAtEpochEnd && atLastDataIteration())
      return closeWindowAtEpochEnd(node);
    if (node.isWindowGuard && value.isNumber() && (value.number != 0) != node.boundaryWhenFalse)
      flushDeferredSync(); // the boundary branch starts: the moved all-reduce runs first
    return value;
  }

  /// Whether the data loop runs its epoch's last iteration (epoch mode).
  bool atLastDataIteration() {
    if (dataIteration_ < 0)
      return false;
    if (dataLength_ > 0)
      return dataIteration_ + 1 == dataLength_;
    return false;
  }

  /// The program-level fix of accum-trailing-micro-batches: the boundary
  /// guard also holds at the epoch's last batch, and that short window's
  /// gradient weighs like a full one (its mean over its own r micro-batches).
  Value closeWindowAtEpochEnd(const Node &guard) {
    bool alike = std::all_of(pendingScales_.begin(), pendingScales_.end(), [&](double scale) {
      return std::abs(scale - pendingScales_.front()) <= 1e-12 * std::abs(scale);
    });
    if (alike && !pending_.empty() && static_cast<int>(pending_.size()) < n_)
      scaleGrads(allParams(), static_cast<double>(n_) / static_cast<double>(pending_.size()));
    return Value::of(guard.boundaryWhenFalse ? 0 : 1);
  }

  Value evaluateNode(const Node &node) {
    tick();
    switch (node.kind) {
    case NodeKind::Number: return Value::of(node.number);
    case NodeKind::Read: {
      Value *value = lookup(node.place);
      if (value && value->kind != Value::Kind::Unknown) {
        if (node.role == Role::AccumulationSteps && value->isNumber() && value->number >= 1 &&
            value->number <= 64)
          result_.stepsSeen = static_cast<int>(value->number);
        return *value;
      }
      return unknownRead(node);
    }
    case NodeKind::Unary: {
      Value operand = evaluate(*node.children[0]);
      if (!operand.isNumber()) {
        if (node.op == "-" && operand.kind == Value::Kind::Tensor)
          return scaled(operand, -1.0);
        return {};
      }
      double x = operand.number;
      if (node.op == "-")
        return Value::of(-x);
      if (node.op == "!")
        return Value::of(x == 0);
      if (node.op == "~")
        return Value::of(static_cast<double>(~static_cast<int64_t>(x)));
      if (node.op == "int")
        return Value::of(std::trunc(x));
      if (node.op == "bool")
        return Value::of(x != 0);
      return operand;
    }
    case NodeKind::Binary: {
      Value a = evaluate(*node.children[0]);
      if (comparesOrCounts(node.op))
        a = epochBoundOr(a, *node.children[0]);
      if (node.op == "&&" && a.isNumber() && a.number == 0)
        return Value::of(0);
      if (node.op == "||" && a.isNumber() && a.number != 0)
        return Value::of(1);
      Value b = evaluate(*node.children[1]);
      if (comparesOrCounts(node.op))
        b = epochBoundOr(b, *node.children[1]);
      if ((node.op == "&&" || node.op == "||") && b.isNumber() && !a.isNumber()) {
        if (node.op == "&&" && b.number == 0)
          return Value::of(0);
        if (node.op == "||" && b.number != 0)
          return Value::of(1);
      }
      // `(i + 1) % N == 0 || i + 1 == num_batches` (or `end >= batch_size`): the last-batch
      // extension of a guard; the run covers the first windows of a longer epoch.
      if (node.op == "||" && a.isNumber() && !b.isNumber() &&
          (node.children[1]->op == "==" || node.children[1]->op == ">=" ||
           node.children[1]->kind == NodeKind::Read)) {
        if (setting_.epochMicroBatches > 0 && dataIteration_ >= 0 && dataLength_ > 0) {
          assume("`" + node.children[1]->text + "`" + lineText(node.line),
                 "true at each epoch's last micro-batch",
                 "its operand is not known; it is read as the data loop's last-batch test");
          return Value::of(a.number != 0 || dataIteration_ + 1 == dataLength_);
        }
        assume("`" + node.children[1]->text + "`" + lineText(node.line), "false",
               "its operand is not known; the run covers the first " + std::to_string(budget_) +
                   " micro-batches of a longer epoch");
        return Value::of(a.number != 0);
      }
      // `std::min(start + N, num_batches)` with the batch count unknown: the
      // run covers the first windows of a longer epoch, so the window is full.
      if (node.op == "min" && node.integer && a.isNumber() != b.isNumber()) {
        const Node &unknown = *node.children[a.isNumber() ? 1 : 0];
        const Node &known = *node.children[a.isNumber() ? 0 : 1];
        assume("`" + unknown.text + "`" + lineText(node.line), "at least `" + known.text + "`",
               "its value is not known; the run covers the first " + std::to_string(budget_) +
                   " micro-batches of a longer epoch");
        return a.isNumber() ? a : b;
      }
      // An untraced tensor scaled by a number or combined with a tensor keeps
      // the scale (`(loss_from_a_struct / N).backward()`).
      // Two untraced tensors (`l1[0] + l2[0]` of a loss object's results) are
      // opaque tensors too when the result is one.
      auto followed = [&](const Value &v) {
        return v.isNumber() || v.kind == Value::Kind::Tensor ||
               (node.isTensor && v.kind == Value::Kind::Unknown && node.op != "%" &&
                !comparesOrCounts(node.op == "+" || node.op == "-" ? "" : node.op));
      };
      if (followed(b))
        a = opaqueTensorIf(std::move(a), node.children[0].get());
      if (followed(a))
        b = opaqueTensorIf(std::move(b), node.children[1].get());
      Value result = arithmetic(node.op, a, b, node.integer, node);
      if (result.kind == Value::Kind::Unknown && node.isTensor) {
        // A tensor computed from values the interpreter does not follow: a
        // backward() on it could not say its scale.
        result.kind = Value::Kind::Tensor;
        result.unknownScale = "`" + node.text + "`" + lineText(node.line);
      }
      return result;
    }
    case NodeKind::Assign: {
      Value rhs = evaluate(*node.children[1]);
      if (node.op != "=") {
        Value current = evaluate(*node.children[0]);
        std::string op = node.op.substr(0, node.op.size() - 1);
        if (current.kind == Value::Kind::Buffer) {
          updateBuffer(current, op, rhs, node);
          return current;
        }
        if (current.kind == Value::Kind::Tensor && current.terms.empty() &&
            rhs.kind == Value::Kind::Tensor && op == "+")
          ; // zeros() += loss: the loss itself
        else
          rhs = arithmetic(op, current, rhs, node.integer, node);
      }
      rhs = truncated(std::move(rhs), node.integer);
      store(node.place, rhs);
      return rhs;
    }
    case NodeKind::IncDec: {
      Value *value = lookup(node.place);
      Value old = value && value->kind != Value::Kind::Unknown ? *value : Value{};
      if (!old.isNumber()) {
        store(node.place, Value{});
        return {};
      }
      Value updated = Value::of(old.number + (node.op == "++" ? 1 : -1));
      store(node.place, updated);
      return node.prefix ? updated : old;
    }
    case NodeKind::Conditional: {
      Value condition = evaluate(*node.children[0]);
      // `i >= B - B % N ? B % N : N` (a short last window's size) with B the
      // data loop's unknown length: the run covers the first windows of a longer epoch.
      if (!condition.isNumber() && !dataBound_.empty() &&
          node.children[0]->text.find(dataBound_) != std::string::npos) {
        assume("`" + node.children[0]->text + "`" + lineText(node.line), "false",
               "its operand is not known; the run covers the first " + std::to_string(budget_) +
                   " micro-batches of a longer epoch");
        return evaluate(*node.children[2]);
      }
      if (!condition.isNumber()) {
        if (node.children[1]->hasTrainingWork || node.children[2]->hasTrainingWork)
          throw Refuse{"the condition of `" + node.text + "`" + lineText(node.line) +
                       " is not known to the interpreter"};
        return {};
      }
      return evaluate(*node.children[condition.number != 0 ? 1 : 2]);
    }
    case NodeKind::Comma: evaluate(*node.children[0]); return evaluate(*node.children[1]);
    case NodeKind::CallUser: {
      Value object = evaluate(*node.children[0]);
      (void)object;
      std::vector<Value> args;
      for (size_t i = 1; i < node.children.size(); ++i)
        args.push_back(evaluate(*node.children[i]));
      Value result = call(node.function, std::move(args), node.line);
      return result.kind == Value::Kind::Unknown ? unknownRead(node) : result;
    }
    case NodeKind::Api: {
      Value result = api(node);
      return result.kind == Value::Kind::Unknown && node.role != Role::None ? unknownRead(node)
                                                                            : result;
    }
    case NodeKind::Optimizer: {
      Value value;
      value.kind = Value::Kind::Optimizer;
      value.optimizer = node.optimizer;
      return value;
    }
    case NodeKind::Skipped: {
      std::vector<Value> values;
      for (const std::unique_ptr<Node> &child : node.children)
        if (child && child->kind != NodeKind::Unknown)
          values.push_back(evaluate(*child));
      if (node.role != Role::None)
        return unknownRead(node);
      if (!node.op.empty() && node.op != "stream output")
        skip(node.op + "()", node.line);
      return node.isTensor ? opaqueResult(node, values) : Value{};
    }
    case NodeKind::Unknown:
      if (node.hasTrainingWork)
        throw Refuse{"`" + node.text + "`" + lineText(node.line) + " (" + node.op +
                     ") is not handled by the interpreter"};
      return {};
    default: break;
    }
    Flow flow = execute(node);
    (void)flow;
    return {};
  }

  std::vector<int> paramsIn(const Value &value) const {
    if (value.kind == Value::Kind::Params || value.kind == Value::Kind::Grad)
      return value.params;
    return {};
  }

  Value api(const Node &node) {
    using K = Value::Kind;
    std::vector<Value> values;
    for (const std::unique_ptr<Node> &child : node.children)
      values.push_back(child && (node.api != ApiOp::Forward || node.model >= 0) ? evaluate(*child)
                                                                                : Value{});
    const Value &object = values[0];
    auto firstOf = [&](K kind) -> const Value * {
      for (const Value &value : values)
        if (value.kind == kind)
          return &value;
      return nullptr;
    };
    auto argNumber = [&](size_t index, const char *what) -> std::optional<double> {
      if (index < values.size() && values[index].isNumber())
        return values[index].number;
      (void)what;
      return std::nullopt;
    };
    switch (node.api) {
    case ApiOp::Forward: {
      Value value;
      value.kind = K::Tensor;
      // A forward pass before the data loop starts (a rollout, a target
      // network's values) reads no micro-batch: its output is data.
      if (outsideDataLoop()) {
        skip("forward pass outside the data loop (its output is taken as data)", node.line);
        return value;
      }
      int micro = forwardMicroBatch();
      bool reachesCompared = !ofOtherModel(node.model);
      for (size_t i = 1; i < values.size(); ++i)
        for (const Term &term : values[i].terms)
          reachesCompared = reachesCompared || !term.otherModel;
      if (ofOtherModel(node.model))
        otherModelAssumption("`" + node.text + "`");
      value.terms.push_back({micro, 1.0, !reachesCompared});
      return value;
    }
    case ApiOp::Backward: {
      const Value *loss = object.kind == K::Tensor ? &object : firstOf(K::Tensor);
      backward(loss ? *loss : Value{}, node);
      return {};
    }
    case ApiOp::ZeroGrad:
      // An EMA copy or second network: not the compared model.
      if (node.model >= 0 ? ofOtherModel(node.model) : node.untrainedModule) {
        otherModelAssumption("`" + node.children[0]->text + "`");
        return {};
      }
      if (isLoopOptimizer(object))
        codeResetGrads(allParams());
      return {};
    case ApiOp::ResetGrad:
      if (object.kind == K::Buffer && node.op != "detach_") {
        Value target = object;
        updateBuffer(target, "*", Value::of(0.0), node);
        return {};
      }
      if (object.kind != K::Grad && object.kind != K::Params)
        return {};
      if (node.op == "detach_")
        return {}; // detaches, keeps the values
      if (node.op == "fill_" &&
          !(values.size() > 1 && values[1].isNumber() && values[1].number == 0))
        throw Refuse{"`" + node.text + "`" + lineText(node.line) +
                     " fills a gradient with a value other than 0"};
      codeResetGrads(object.params);
      return {};
    case ApiOp::ScaleGrad: {
      if (object.kind == K::Tensor && node.children[0]->kind == NodeKind::Read) {
        std::optional<double> operand = argNumber(1, "factor");
        if (!operand || *operand == 0)
          throw Refuse{"`" + node.text + "`" + lineText(node.line) + ": the factor is unknown"};
        store(node.children[0]->place, scaled(object, node.divides ? 1.0 / *operand : *operand));
        return {};
      }
      const Value &operand = values.size() > 1 ? values[1] : Value{};
      if (object.kind == K::Buffer) {
        Value target = object;
        if (!operand.isNumber() || (node.divides && operand.number == 0))
          throw Refuse{"`" + node.text + "`" + lineText(node.line) +
                       " scales a gradient buffer by a value the interpreter does not know"};
        updateBuffer(target, node.divides ? "/" : "*", operand, node);
        return {};
      }
      if (object.kind != K::Grad)
        return {};
      if (node.op == "=" && operand.kind == K::Buffer && !clears(*node.children[1])) {
        writeGrads(object.params, operand, node); // p.mutable_grad() = acc / N
        return {};
      }
      if (node.op == "=") {
        // grad = grad / N (a scaled gradient of the same parameters) or a reset.
        if (operand.kind == K::Grad && operand.params == object.params)
          codeScaleGrads(object.params, operand.factor);
        else if (clears(*node.children[1]))
          codeResetGrads(object.params);
        else
          throw Refuse{"`" + node.text + "`" + lineText(node.line) +
                       " overwrites a gradient with a value the interpreter does not follow"};
        return {};
      }
      // An AMP unscale or a clip coefficient the code computes elsewhere: a
      // factor of 1 on every parameter alike, unless the finding is this line.
      if (!operand.isNumber() && (node.line == setting_.focusLine || node.line == 0))
        throw Refuse{"`" + node.text + "`" + lineText(node.line) +
                     " scales a gradient by a value the interpreter does not know"};
      if (!operand.isNumber()) {
        assume("`" + node.text + "`" + lineText(node.line), "a factor of 1",
               "the factor is a value the interpreter does not know (a loss scale's unscale, "
               "a clip coefficient); the finding is not about it");
        return {};
      }
      if (node.divides && operand.number == 0)
        throw Refuse{"`" + node.text + "`" + lineText(node.line) + " divides by zero"};
      codeScaleGrads(object.params, node.divides ? 1.0 / operand.number : operand.number);
      return {};
    }
    case ApiOp::ClipNorm:
    case ApiOp::ClipValue: {
      if (values.size() > 1 && values[1].otherModel)
        return {}; // clips another model's gradients
      std::optional<double> limit = argNumber(2, "limit");
      if (!limit) {
        limit = 1.0;
        assume("clip limit" + lineText(node.line), "1", "not a constant in the code");
      }
      codeClip(node.api == ApiOp::ClipValue, *limit, node.line);
      return {};
    }
    case ApiOp::AllReduce: {
      std::vector<int> params;
      for (const Value &value : values)
        for (int i : paramsIn(value))
          if (std::find(params.begin(), params.end(), i) == params.end())
            params.push_back(i);
      if (params.empty()) {
        skip(node.op + "() of a value that is not a gradient", node.line);
        return {};
      }
      codeAllReduce(params, node.averages);
      return {};
    }
    case ApiOp::Step: step(object); return {};
    case ApiOp::WorldSize:
      if (!code_.worldSizeFromCode)
        assume(code_.worldSizeName, std::to_string(w_), "not a constant in the code");
      return Value::of(w_);
    case ApiOp::Parameters: {
      Value value;
      value.kind = K::Params;
      if (node.op == "weight" || node.op == "bias") {
        for (size_t i = 0; i < ranks_[0].model.numParams(); ++i)
          if (endsWith(ranks_[0].model.paramName(i), node.op))
            value.params.push_back(static_cast<int>(i));
        return value;
      }
      value.otherModel = ofOtherModel(node.model);
      if (!value.otherModel)
        value.params = allParams();
      return value;
    }
    case ApiOp::ParamGroups: {
      Value value;
      value.kind = K::Groups;
      return value;
    }
    case ApiOp::Grad: {
      // The gradient of a tensor that is not a parameter of the stand-in
      // (a bare `torch::zeros(..., requires_grad())` weight): dropping it
      // would run a loop other than the one written.
      if (object.kind != K::Params)
        throw Refuse{"`" + node.text + "`" + lineText(node.line) + " reads the gradient of `" +
                     node.children[0]->text +
                     "`, which the interpreter does not map to the stand-in model's parameters"};
      Value value = object;
      value.kind = K::Grad;
      value.factor = 1.0;
      return value;
    }
    case ApiOp::Chunk: {
      Value value;
      value.kind = K::Chunks;
      std::optional<double> count = argNumber(1, "count");
      value.count = count && node.op != "split" ? static_cast<int>(*count) : -1;
      return value;
    }
    case ApiOp::Size:
      if (node.op == "defined")
        return object.kind == K::Grad ? Value::of(anyBackward_ ? 1 : 0) : Value{};
      if (object.kind == K::Chunks && object.count >= 0)
        return Value::of(object.count);
      if (object.kind == K::Params)
        return Value::of(static_cast<double>(object.params.size()));
      if (object.kind == K::Buffer && node.op == "size" && values.size() == 1)
        return Value::of(static_cast<double>(object.slots.size()));
      // Before the data loop, a tensor's rows are the data set's (`centers.size(0) / part`
      // batches): not known.
      if (node.op == "size" && values.size() > 1 && values[1].isNumber() && values[1].number == 0 &&
          node.children[0]->isTensor && !outsideDataLoop()) {
        // The stand-in loss is already a mean over the micro-batch's rows.
        assume("`" + node.text + "`" + lineText(node.line), "1",
               "the stand-in loss is already a mean over the micro-batch's rows");
        return Value::of(1);
      }
      return {};
    case ApiOp::Index: {
      if (object.kind == K::Params && values.size() > 1 && values[1].isNumber()) {
        size_t index = static_cast<size_t>(values[1].number);
        if (index < object.params.size()) {
          Value one = object;
          one.params = {object.params[index]};
          return one;
        }
      }
      if (object.kind == K::Buffer && values.size() > 1 && values[1].isNumber()) {
        size_t index = static_cast<size_t>(values[1].number);
        if (index >= object.slots.size())
          throw Refuse{"`" + node.text + "`" + lineText(node.line) +
                       " indexes a gradient buffer past its end"};
        Value one = object;
        one.slots = {object.slots[index]};
        return one;
      }
      if (object.kind == K::Groups || object.kind == K::Module || object.kind == K::Optimizer)
        return object;
      return {};
    }
    case ApiOp::Detach: {
      if (node.op == "detach" && (object.kind == K::Grad || object.kind == K::Buffer))
        return object; // the same values, without autograd history
      if (node.op == "detach" && object.kind == K::Tensor) {
        Value value;
        value.kind = K::Tensor;
        return value;
      }
      return {};
    }
    case ApiOp::PushBack: {
      if (node.children[0]->kind != NodeKind::Read || values.size() < 2)
        return {};
      Value list = object;
      const Value &element = values[1];
      if (element.kind == K::Grad || element.kind == K::Params) {
        if (list.kind != element.kind) {
          list = element;
          list.params.clear();
        }
        for (int i : element.params)
          list.params.push_back(i);
        store(node.children[0]->place, list);
      } else if (element.kind == K::Buffer) {
        if (list.kind != K::Buffer) {
          list = Value{};
          list.kind = K::Buffer;
        }
        Value one = materialisedSlots(element);
        list.slots.insert(list.slots.end(), one.slots.begin(), one.slots.end());
        store(node.children[0]->place, list);
      } else if (element.kind == K::Tensor) {
        if (list.kind != K::Tensor) {
          list = Value{};
          list.kind = K::Tensor;
        }
        list.terms.insert(list.terms.end(), element.terms.begin(), element.terms.end());
        store(node.children[0]->place, list);
      }
      return {};
    }
    case ApiOp::Identity:
      if (object.kind == K::Groups && node.op == "params") {
        Value value;
        value.kind = K::Params;
        value.params = allParams();
        return value;
      }
      return object;
    case ApiOp::TensorScale: {
      std::optional<double> factor = argNumber(1, "factor");
      if (object.kind != K::Tensor && object.kind != K::Grad)
        return {};
      // `torch::mul(loss, weights)` with a tensor it does not follow: as the
      // operator form (`loss * weights`) reads it.
      if (!factor && values.size() > 1 && node.children.size() > 1)
        return arithmetic(node.divides ? "/" : "*", object,
                          opaqueTensorIf(values[1], node.children[1].get()), false, node);
      if (!factor || (node.divides && *factor == 0))
        throw Refuse{"`" + node.text + "`" + lineText(node.line) +
                     " scales a loss by a value the interpreter does not know"};
      return scaled(object, node.divides ? 1.0 / *factor : *factor);
    }
    case ApiOp::TensorOp: {
      if (std::optional<Value> buffer = bufferOp(node, values))
        return *buffer;
      refuseUntrackedGradientWrite(node, values);
      Value combined;
      for (const Value &value : values) {
        if (value.kind == K::Grad || value.kind == K::Params) {
          if (combined.kind != value.kind) {
            combined = value;
            combined.params.clear();
          }
          for (int i : value.params)
            combined.params.push_back(i);
        } else if (value.kind == K::Tensor &&
                   (combined.kind == K::Tensor || combined.kind == K::Unknown)) {
          combined.kind = K::Tensor;
          mergeTerms(combined, value.terms, 1.0);
        }
      }
      if (combined.kind == K::Unknown && node.isTensor)
        combined.kind = K::Tensor;
      if (combined.kind == K::Tensor && combined.terms.empty())
        carryUntracedScale(combined, values);
      return combined;
    }
    case ApiOp::TensorAssign: {
      const Value &value = values.size() > 1 ? values[1] : Value{};
      if (object.kind == K::Buffer) {
        if (node.op == "=") {
          if (value.kind != K::Buffer && value.kind != K::Grad && !clears(*node.children[1]))
            throw Refuse{"`" + node.text + "`" + lineText(node.line) +
                         " writes a value the interpreter does not follow into a gradient buffer"};
          // The value may share the target's storage (`acc[k] = acc[k] * 0.5`): copy it first.
          Value source = value;
          if (value.kind == K::Buffer) {
            source = freshBuffer(paramsOfBuffer(value));
            addInto(source, value, 1.0, node);
          }
          Value target = object;
          updateBuffer(target, "*", Value::of(0.0), node);
          if (!clears(*node.children[1]))
            addInto(target, source, 1.0, node);
        } else {
          Value target = object;
          updateBuffer(target, node.op.substr(0, node.op.size() - 1), value, node);
        }
        return {};
      }
      // `p.grad().data() = p.grad().data() / world_size`: assigning to a
      // tensor handle that is not a variable copies into its storage, so the
      // gradient is scaled in place.
      if (object.kind == K::Grad && value.kind == K::Grad && node.op == "=" &&
          value.params == object.params && object.factor != 0.0) {
        codeScaleGrads(object.params, value.factor / object.factor);
        return {};
      }
      if (value.kind == K::Grad || value.kind == K::Buffer)
        throw Refuse{"`" + node.text + "`" + lineText(node.line) +
                     " stores a gradient where the interpreter does not follow it"};
      skip("assignment to " + node.children[0]->text, node.line);
      return {};
    }
    case ApiOp::SchedulerStep: {
      if (node.scheduler < 0 ||
          code_.schedulers[static_cast<size_t>(node.scheduler)].optimizer < 0) {
        skip(node.op + "() (a schedule the interpreter cannot tie to an optimizer is not run)",
             node.line);
        return {};
      }
      SchedulerSpec spec = code_.schedulers[static_cast<size_t>(node.scheduler)];
      if (spec.standIn)
        assume(spec.name, "StepLR(step_size=1, gamma=0.5)",
               "its schedule is not one the runtime models; a stand-in that halves the rate on "
               "every call shows how often it advances");
      // A period longer than the run (StepLR(opt, 2000, 0.1) over 12
      // micro-batches) never decays in it: shrunk, like the data, to show
      // how often the schedule advances.
      if (spec.stepSize >= budget_) {
        assume(spec.name + ".step_size", "1",
               "the code's " + std::to_string(spec.stepSize) + " is longer than the run's " +
                   std::to_string(budget_) + " micro-batches; shrunk so that its decay shows");
        spec.stepSize = 1;
      }
      int calls = ++schedulerCalls_[node.scheduler];
      double lr = code_.optimizers[static_cast<size_t>(spec.optimizer)].lr *
                  std::pow(spec.gamma, stepLRDecays(calls, spec.stepSize));
      learningRates_[spec.optimizer] = lr;
      for (Rank &rank : ranks_)
        if (auto found = rank.optimizers.find(spec.optimizer); found != rank.optimizers.end())
          found->second->setLr(lr);
      if (spec.optimizer == code_.loopOptimizer || code_.loopOptimizer < 0)
        result_.scheduler = spec;
      return {};
    }
    }
    return {};
  }

  // ---- statements

  Value call(int function, std::vector<Value> args, unsigned line) {
    if (frames_.size() >= kCallDepth)
      throw Refuse{"calls nest deeper than 64" + lineText(line)};
    const Function &fn = code_.functions[static_cast<size_t>(function)];
    frames_.emplace_back();
    for (size_t i = 0; i < fn.parameters.size(); ++i)
      if (i < args.size() && args[i].kind != Value::Kind::Unknown)
        frames_.back().locals[fn.parameters[i].id] = args[i];
    returned_ = Value{};
    if (fn.body)
      execute(*fn.body);
    frames_.pop_back();
    Value result = std::move(returned_);
    returned_ = Value{};
    return result;
  }

  /// The entry's parameters that every call in the file gives the same constant.
  std::vector<Value> entryArguments() const {
    std::vector<Value> args;
    for (const std::optional<double> &constant :
         code_.functions[static_cast<size_t>(code_.entry)].parameterConstants)
      args.push_back(constant ? Value::of(*constant) : Value{});
    return args;
  }

  /// Code that runs before (or after) the data loop the model found.
  bool outsideDataLoop() const {
    return code_.hasDataLoop && dataLoopDepth_ == 0 && !code_.stepFunction;
  }

  /// A step function runs once per micro-batch: integer parameters get the
  /// call's index; a tensor parameter is that micro-batch's loss.
  void runStepFunction() {
    const Function &fn = code_.functions[static_cast<size_t>(code_.entry)];
    for (int index = 0; index < budget_ * 4; ++index) {
      if (consumed_ >= budget_)
        throw Stop{};
      loopTokens_.assign(1, ++tokenCounter_);
      std::vector<Value> args;
      for (size_t i = 0; i < fn.parameters.size(); ++i) {
        if (fn.integerParameters[i]) {
          assume(fn.parameters[i].name, "0, 1, 2, ...", "the step function's call index");
          args.push_back(Value::of(index));
        } else {
          args.push_back({});
        }
      }
      call(code_.entry, std::move(args), 0);
    }
    throw Refuse{"the step function ran " + std::to_string(budget_ * 4) + " times and took " +
                 std::to_string(consumed_) + " micro-batches"};
  }

  /// `torch::zeros_like(p)`, `torch::Tensor()`, `{}`: a value that clears a gradient.
  static bool clears(const Node &node) {
    return node.kind == NodeKind::Api && node.api == ApiOp::TensorOp &&
           (node.op == "zeros_like" || node.op == "zeros" || node.op == "empty_like" ||
            (node.op == "{...}" && node.children.size() <= 1));
  }

  bool touchesGradients(const Node &node) const {
    if (node.kind == NodeKind::Api && node.api == ApiOp::Grad)
      return true;
    for (const std::unique_ptr<Node> &child : node.children)
      if (child && touchesGradients(*child))
        return true;
    return false;
  }

  enum class Unbounded { Run, RunSteps, RunOnce, Skip };

  /// What a loop whose length the code does not show does.
  Unbounded unbounded(const Node &node, bool insideMicroBatch) {
    if (setting_.epochMicroBatches > 0 && node.isDataLoop) {
      int m = setting_.epochMicroBatches;
      result_.epochSizeAssumed = true;
      assume("data", std::to_string(m) + " micro-batches per epoch",
             "the data loader's length is not in the code; each epoch takes " +
                 std::to_string(m / n_) + " windows of N and " + std::to_string(m % n_) +
                 " micro-batches more");
      return Unbounded::Run;
    }
    if (setting_.epochMicroBatches > 0 && node.enclosesDataLoop) {
      assume("epochs", std::to_string(setting_.epochs),
             "the number of epochs is not in the code; the run takes " +
                 std::to_string(setting_.epochs));
      return Unbounded::Run;
    }
    if (node.isDataLoop || node.enclosesDataLoop) {
      assume("data", std::to_string(budget_) + " micro-batches",
             "the data loader's length is not in the code; the run takes " +
                 std::to_string(setting_.windows) + " windows of N");
      return Unbounded::Run;
    }
    if (node.hasForward && insideMicroBatch) {
      assume("forward passes per micro-batch" + lineText(node.line), "1",
             "`" + node.text +
                 "` has no length in the code; its forward passes all read the "
                 "enclosing iteration's micro-batch");
      return Unbounded::RunOnce;
    }
    if (node.hasForward) {
      assume("micro-batches per iteration" + lineText(node.line), std::to_string(n_),
             "`" + node.text + "` has no length in the code; it is taken as N");
      return Unbounded::RunSteps;
    }
    if (!node.hasTrainingWork) {
      skip("loop `" + node.text + "` (its length is unknown; it does not train)", node.line);
      return Unbounded::Skip;
    }
    throw Refuse{"the loop `" + node.text + "`" + lineText(node.line) +
                 " trains, and its length is not known to the interpreter"};
  }

  /// `for (i = 0; i < B; ++i)` with B a number: B (the data loop's index
  /// counts its iterations from 0), else 0.
  long knownDataLength(const Node &node) {
    const Node *condition = node.rangeOver ? nullptr : node.children[1].get();
    if (!condition || condition->kind != NodeKind::Binary || condition->op != "<")
      return 0;
    Value bound = epochBoundOr(evaluate(*condition->children[1]), *condition->children[1]);
    return bound.isNumber() ? static_cast<long>(bound.number) : 0;
  }

  Flow loop(const Node &node) {
    Value range;
    if (node.rangeOver)
      range = evaluate(*node.children[0]);
    else
      execute(*node.children[0]);
    std::optional<Unbounded> policy;
    std::vector<Value> elements;
    bool counted = false;
    if (node.rangeOver) {
      using K = Value::Kind;
      if (range.kind == K::Unknown && touchesGradients(*node.children[3])) {
        assume("`" + node.text + "`" + lineText(node.line), "the model's parameters",
               "a loop over parameter gradients whose list the interpreter cannot see");
        range.kind = K::Params;
        range.params = allParams();
      }
      if (range.kind == K::Params || range.kind == K::Grad) {
        for (int i : range.params) {
          Value one = range;
          one.kind = K::Params;
          one.params = {i};
          elements.push_back(one);
        }
        counted = true;
      } else if (range.kind == K::Buffer) {
        for (const std::shared_ptr<BufferSlot> &slot : range.slots) {
          Value one = range;
          one.slots = {slot};
          elements.push_back(one);
        }
        counted = true;
      } else if (range.kind == K::Groups) {
        elements.push_back(range);
        counted = true;
      } else if (range.kind == K::Chunks && range.count >= 0) {
        elements.resize(static_cast<size_t>(range.count));
        counted = true;
      }
    }
    bool epochs = node.isDataLoop && setting_.epochMicroBatches > 0;
    if (node.isDataLoop && !node.rangeOver && dataBound_.empty()) {
      const Node *condition = node.children[1].get();
      if (condition && condition->kind == NodeKind::Binary && condition->op == "<")
        dataBound_ = condition->children[1]->text;
    }
    if (epochs) {
      if (epoch_ > 0)
        result_.epochSizes.push_back(consumed_ - epochStart_);
      if (++epoch_ > setting_.epochs) {
        epoch_ = setting_.epochs;
        throw Stop{};
      }
      epochStart_ = consumed_;
      // `i < B` with B unknown: B is the epoch's length.
      const Node *condition = node.rangeOver ? nullptr : node.children[1].get();
      if (condition && condition->kind == NodeKind::Binary && condition->op == "<" &&
          !evaluate(*condition->children[1]).isNumber()) {
        int m = setting_.epochMicroBatches;
        result_.epochSizeAssumed = true;
        assume("`" + dataBound_ + "`", std::to_string(m),
               "the data loop's length is not in the code; each epoch takes " +
                   std::to_string(m / n_) + " windows of N and " + std::to_string(m % n_) +
                   " micro-batches more");
      }
    }
    // A loop inside the data loop that only runs forward passes (one per
    // example, concatenated before one backward) reads the enclosing
    // iteration's micro-batch, not a micro-batch per iteration.
    bool sameMicroBatch = !node.isDataLoop && !node.enclosesDataLoop && dataLoopDepth_ > 0 &&
                          !node.hasTrainingWork && !loopTokens_.empty();
    long enclosingToken = loopTokens_.empty() ? 0 : loopTokens_.back();
    loopTokens_.push_back(0);
    dataLoopDepth_ += node.isDataLoop ? 1 : 0;
    Flow result = Flow::Normal;
    for (long iteration = 0;; ++iteration) {
      tick();
      if (node.isDataLoop && !epochs && consumed_ >= budget_)
        throw Stop{};
      if (epochs && consumed_ - epochStart_ > 100'000)
        throw Refuse{"an epoch of the loop" + lineText(node.line) +
                     " ran over 100,000 micro-batches"};
      bool proceed = true;
      if (node.rangeOver && counted) {
        proceed = static_cast<size_t>(iteration) < elements.size();
      } else if (node.rangeOver || !node.postCondition || iteration > 0) {
        Value condition = node.rangeOver ? Value{} : evaluate(*node.children[1]);
        if (condition.isNumber()) {
          proceed = condition.number != 0;
        } else {
          if (!policy)
            policy = unbounded(node, sameMicroBatch);
          proceed =
              (*policy == Unbounded::Run && (!epochs || iteration < setting_.epochMicroBatches)) ||
              (*policy == Unbounded::RunSteps && iteration < n_) ||
              (*policy == Unbounded::RunOnce && iteration < 1);
        }
      }
      if (!proceed)
        break;
      loopTokens_.back() = sameMicroBatch ? enclosingToken : ++tokenCounter_;
      if (epochs) {
        dataIteration_ = iteration;
        dataLength_ = policy == Unbounded::Run ? setting_.epochMicroBatches : knownDataLength(node);
      }
      if (node.rangeOver)
        store(node.place,
              counted && static_cast<size_t>(iteration) < elements.size()
                  ? elements[static_cast<size_t>(iteration)]
                  : Value{},
              true);
      Flow flow = execute(*node.children[3]);
      if (flow == Flow::Break)
        break;
      if (flow == Flow::Return) {
        result = Flow::Return;
        break;
      }
      execute(*node.children[2]);
      if (!node.isDataLoop && !node.enclosesDataLoop && iteration > 1'000'000)
        throw Refuse{"the loop `" + node.text + "`" + lineText(node.line) +
                     " ran more than 1,000,000 times"};
    }
    loopTokens_.pop_back();
    if (node.isWindowLoop)
      flushDeferredSync(); // the window's micro-batches are done: the moved all-reduce runs
    dataLoopDepth_ -= node.isDataLoop ? 1 : 0;
    if (epochs) {
      dataIteration_ = -1;
      dataLength_ = 0;
    }
    if (epochs && setting_.flushAtEpochEnd && !pending_.empty()) {
      // The leftover window weighs like a full one (the mean over its own r
      // micro-batches): when each was scaled alike, N/r times what .grad holds.
      bool alike = std::all_of(pendingScales_.begin(), pendingScales_.end(), [&](double scale) {
        return std::abs(scale - pendingScales_.front()) <= 1e-12 * std::abs(scale);
      });
      if (alike && static_cast<int>(pending_.size()) < n_)
        scaleGrads(allParams(), static_cast<double>(n_) / static_cast<double>(pending_.size()));
      step(Value{});
      zeroGrads(allParams());
    }
    return result;
  }

  Flow execute(const Node &node) {
    tick();
    switch (node.kind) {
    case NodeKind::Block:
      for (const std::unique_ptr<Node> &child : node.children) {
        Flow flow = execute(*child);
        if (flow != Flow::Normal)
          return flow;
      }
      return Flow::Normal;
    case NodeKind::Declare: {
      if (node.place.shared && shared_.count(node.place.id))
        return Flow::Normal; // a static local keeps its value
      Value value = node.children.empty() ? Value{} : evaluate(*node.children[0]);
      if (node.optimizer >= 0 && value.kind != Value::Kind::Optimizer) {
        value = Value{};
        value.kind = Value::Kind::Optimizer;
        value.optimizer = node.optimizer;
      }
      store(node.place, truncated(std::move(value), node.integer), true);
      return Flow::Normal;
    }
    case NodeKind::If: {
      Value condition = evaluate(*node.children[0]);
      if (!condition.isNumber()) {
        bool trains = setting_.decidedConditions.count(node.children[0]->text) ||
                      node.children[1]->hasTrainingWork || node.children[2]->hasTrainingWork ||
                      (setting_.focusLine && (reaches(*node.children[1], setting_.focusLine) ||
                                              reaches(*node.children[2], setting_.focusLine)));
        // The window's own guard decides what the finding is about: no stand-in.
        if (trains && node.children[0]->isWindowGuard)
          throw Refuse{"the condition `" + node.text + "`" + lineText(node.line) +
                       " decides whether training work runs, and the interpreter cannot "
                       "evaluate it"};
        // A flag or a check the code does not give (`use_scaler`,
        // `std::isfinite(norm)`): the run takes the branch that reaches the
        // finding, else the one it holds in.
        if (trains) {
          const std::string &text = node.children[0]->text;
          auto decided = setting_.decidedConditions.find(text);
          const Node &then = *node.children[1], &otherwise = *node.children[2];
          bool focusThen = setting_.focusLine && reaches(then, setting_.focusLine);
          bool focusElse = setting_.focusLine && reaches(otherwise, setting_.focusLine);
          // Neither branch holds the finding: an early exit (`if (!finite) {
          // zero_grad(); return false; }`) would skip the code after it.
          bool skipsTheRest = !focusThen && !focusElse && leaves(then) && !leaves(otherwise);
          bool taken = decided != setting_.decidedConditions.end() ? decided->second
                       : focusElse && !focusThen                   ? false
                                                                   : !skipsTheRest;
          result_.decidedConditions[text] = taken;
          assume("`" + node.children[0]->text + "`" + lineText(node.line), taken ? "true" : "false",
                 std::string("a condition the interpreter cannot evaluate; the run takes the "
                             "branch ") +
                     (focusThen || focusElse ? "that reaches the finding"
                      : skipsTheRest         ? "that goes on to the code after it"
                                             : "it holds in"));
          return execute(*node.children[taken ? 1 : 2]);
        }
        skip("if (" + node.text + ") (its condition is unknown; neither branch trains)", node.line);
        return Flow::Normal;
      }
      return execute(*node.children[condition.number != 0 ? 1 : 2]);
    }
    case NodeKind::Loop: return loop(node);
    case NodeKind::Break: return Flow::Break;
    case NodeKind::Continue: return Flow::Continue;
    case NodeKind::Return:
      returned_ = node.children.empty() ? Value{} : evaluate(*node.children[0]);
      return Flow::Return;
    case NodeKind::Unknown:
      if (node.hasTrainingWork)
        throw Refuse{"`" + node.text + "`" + lineText(node.line) + " (" + node.op +
                     ") is not handled by the interpreter"};
      skip(node.op + " statement", node.line);
      return Flow::Normal;
    default: evaluate(node); return Flow::Normal;
    }
  }
};

} // namespace

Execution execute(const LoopCode &code, const ExecutionSetting &setting) {
  Execution first = Interpreter(code, setting).run();
  // N as the code computed it (a field set to 8) decides the windows of data.
  if (first.stepsSeen && first.stepsSeen != first.accumulationSteps && !setting.accumulationSteps) {
    ExecutionSetting seen = setting;
    seen.accumulationSteps = first.stepsSeen;
    seen.stepsSeenInCode = true;
    return Interpreter(code, seen).run();
  }
  return first;
}

namespace {

/// One window of the reference: `count` micro-batches from global index `first`.
struct ReferenceWindow {
  int first = 0, count = 0;
};

/// One step of `optimizer` per window on the mean loss over its micro-batches
/// (and ranks, when `meanOverRanks`); micro-batch m reads the data the
/// interpreter gives the m-th micro-batch it runs.
Execution referenceOverWindows(const OptimizerSpec &optimizer, int steps, int worldSize,
                               bool meanOverRanks, const ClipUse &clipUse,
                               const ExecutionSetting &setting,
                               const std::optional<SchedulerSpec> &scheduler,
                               const std::vector<ReferenceWindow> &windows) {
  const runtime::Backend &backend = *setting.backend;
  Execution result;
  result.accumulationSteps = steps;
  result.worldSize = worldSize;
  result.optimizer = optimizer;
  runtime::Model model = makeModel(setting.data);
  AnyOptimizer update(optimizer, backend);
  result.initialParameters = flatten(model);
  result.windowTrace.push_back(result.initialParameters);
  for (const ReferenceWindow &window : windows) {
    float scale = static_cast<float>(setting.referenceLossScale) /
                  static_cast<float>(meanOverRanks ? window.count * worldSize : window.count);
    runtime::GradBuffer grads(model, runtime::DType::F32);
    for (int m = window.first; m < window.first + window.count; ++m)
      for (int rank = 0; rank < worldSize; ++rank)
        runtime::forwardBackward(
            model, runtime::microBatch(setting.data, m / steps, m % steps, rank, steps, worldSize),
            runtime::LossKind::Mse, runtime::Reduction::Mean, scale, grads, backend);
    if (clipUse.used) {
      if (clipUse.byValue)
        runtime::clipGradValue(grads, clipUse.limit, backend);
      else
        runtime::clipGradNorm(grads, clipUse.limit, backend);
    }
    if (result.steps == 0)
      result.firstAppliedGradient = grads.flatten();
    result.stepLearningRates.push_back(
        scheduler ? optimizer.lr *
                        std::pow(scheduler->gamma, stepLRDecays(result.steps, scheduler->stepSize))
                  : optimizer.lr);
    result.appliedGradientNorms.push_back(vectorNorm(grads.flatten()));
    std::vector<float> before = flatten(model);
    update.step(model, grads);
    std::vector<float> after = flatten(model);
    if (result.steps == 0) {
      result.firstUpdate = after;
      for (size_t i = 0; i < after.size(); ++i)
        result.firstUpdate[i] -= before[i];
    }
    result.windowTrace.push_back(std::move(after));
    ++result.steps;
    result.microBatches += window.count;
    result.fates.stepped += window.count;
    if (scheduler)
      update.setLr(optimizer.lr *
                   std::pow(scheduler->gamma, stepLRDecays(result.steps, scheduler->stepSize)));
  }
  return result;
}

} // namespace

Execution referenceRun(const OptimizerSpec &optimizer, int steps, int worldSize, bool meanOverRanks,
                       const ClipUse &clipUse, const ExecutionSetting &setting,
                       const std::optional<SchedulerSpec> &scheduler) {
  std::vector<ReferenceWindow> windows;
  for (int window = 0; window < setting.windows; ++window)
    windows.push_back({window * steps, steps});
  return referenceOverWindows(optimizer, steps, worldSize, meanOverRanks, clipUse, setting,
                              scheduler, windows);
}

Execution referenceEpochRun(const OptimizerSpec &optimizer, int steps, int worldSize,
                            bool meanOverRanks, const ClipUse &clipUse,
                            const ExecutionSetting &setting, const std::vector<int> &epochSizes) {
  std::vector<ReferenceWindow> windows;
  int first = 0;
  for (int size : epochSizes) {
    for (int done = 0; done < size; done += steps)
      windows.push_back({first + done, std::min(steps, size - done)});
    first += size;
  }
  Execution result = referenceOverWindows(optimizer, steps, worldSize, meanOverRanks, clipUse,
                                          setting, std::nullopt, windows);
  result.epochSizes = epochSizes;
  for (const ReferenceWindow &window : windows)
    result.windowEnds.push_back(window.first + window.count);
  return result;
}

} // namespace gradlint::interp
