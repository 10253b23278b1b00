// Scaling: the factors applied to the loss on its way to backward(), and to
// gradients (GradDivide events).
#include "ModelTestSupport.h"

using namespace gradlint;
using namespace gradlint::test;

namespace {

/// A loop over xs with boundary `(i + 1) % accum_steps == 0`; `body` computes
/// and back-propagates the loss. `prelude` goes before the loop.
std::string loopWith(const std::string &body, const std::string &before = "",
                     const std::string &extraParams = "") {
  return "void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs,\n"
         "           int accum_steps" +
         extraParams + ") {\n" + before + "  for (int i = 0; i < (int)xs.size(); ++i) {\n" + body +
         "    if ((i + 1) % accum_steps == 0) {\n"
         "      opt.step();\n"
         "      opt.zero_grad();\n"
         "    }\n"
         "  }\n"
         "}\n";
}

} // namespace

TEST(Scaling, DivideOperator) {
  GL_ANALYSE(a, loopWith("    auto loss = net.forward(xs[i]).sum() / accum_steps;\n"
                         "    loss.backward();\n"));
  GL_SINGLE_LOOP(loop, a);
  const TrainingEvent *backward = onlyEvent(loop, EventKind::Backward);
  ASSERT_NE(backward, nullptr) << a.dump();
  ASSERT_EQ(backward->scaling.size(), 1u) << a.dump();
  const ScaleFactor &f = backward->scaling[0];
  EXPECT_TRUE(f.isAccumulationSteps);
  EXPECT_FALSE(f.isWorldSize);
  EXPECT_EQ(a.text(f.divisor), "accum_steps");
  EXPECT_EQ(a.pos(f.loc), a.at("/ accum_steps"));
  EXPECT_NE(f.site, nullptr);
  EXPECT_FALSE(loop.worldSize.known());
}

TEST(Scaling, CompoundDivideAssignment) {
  GL_ANALYSE(a, loopWith("    auto loss = net.forward(xs[i]).sum();\n"
                         "    loss /= accum_steps;\n"
                         "    loss.backward();\n"));
  GL_SINGLE_LOOP(loop, a);
  const TrainingEvent *backward = onlyEvent(loop, EventKind::Backward);
  ASSERT_NE(backward, nullptr);
  ASSERT_EQ(backward->scaling.size(), 1u) << a.dump();
  EXPECT_TRUE(backward->scaling[0].isAccumulationSteps);
  EXPECT_EQ(a.pos(backward->scaling[0].loc), a.at("/= accum_steps"));
}

TEST(Scaling, MultiplyByReciprocal) {
  GL_ANALYSE(a, loopWith("    auto loss = net.forward(xs[i]).sum() * (1.0 / accum_steps);\n"
                         "    loss.backward();\n"));
  GL_SINGLE_LOOP(loop, a);
  const TrainingEvent *backward = onlyEvent(loop, EventKind::Backward);
  ASSERT_NE(backward, nullptr);
  ASSERT_EQ(backward->scaling.size(), 1u) << a.dump();
  EXPECT_TRUE(backward->scaling[0].isAccumulationSteps);
  EXPECT_EQ(a.text(backward->scaling[0].divisor), "accum_steps");
}

TEST(Scaling, DivMethod) {
  GL_ANALYSE(a, loopWith("    auto raw = net.forward(xs[i]).sum();\n"
                         "    raw.div(accum_steps).backward();\n"));
  GL_SINGLE_LOOP(loop, a);
  const TrainingEvent *backward = onlyEvent(loop, EventKind::Backward);
  ASSERT_NE(backward, nullptr);
  ASSERT_EQ(backward->scaling.size(), 1u) << a.dump();
  EXPECT_TRUE(backward->scaling[0].isAccumulationSteps);
  EXPECT_EQ(a.pos(backward->scaling[0].loc), a.at("div(accum_steps)"));
  EXPECT_EQ(a.pos(backward->loc), a.at("raw.div("));
}

TEST(Scaling, ParenthesizedStaticCastDivision) {
  GL_ANALYSE(a, loopWith("    auto raw = net.forward(xs[i]).sum();\n"
                         "    (raw / static_cast<double>(accum_steps)).backward();\n"));
  GL_SINGLE_LOOP(loop, a);
  const TrainingEvent *backward = onlyEvent(loop, EventKind::Backward);
  ASSERT_NE(backward, nullptr);
  EXPECT_EQ(a.pos(backward->loc), a.at("(raw /"));
  ASSERT_EQ(backward->scaling.size(), 1u) << a.dump();
  EXPECT_TRUE(backward->scaling[0].isAccumulationSteps);
}

TEST(Scaling, HelperReturningScaledLoss) {
  GL_ANALYSE(a, "torch::Tensor scaled(const torch::Tensor& l, int n) { return l / n; }\n" +
                    loopWith("    auto loss = scaled(net.forward(xs[i]).sum(), accum_steps);\n"
                             "    loss.backward();\n"));
  GL_SINGLE_LOOP(loop, a);
  const TrainingEvent *backward = onlyEvent(loop, EventKind::Backward);
  ASSERT_NE(backward, nullptr);
  ASSERT_EQ(backward->scaling.size(), 1u) << a.dump();
  EXPECT_TRUE(backward->scaling[0].isAccumulationSteps) << "n is bound to accum_steps";
  EXPECT_EQ(a.pos(backward->scaling[0].loc), a.at("/ n"));
}

TEST(Scaling, UnscaledLossHasNoFactor) {
  GL_ANALYSE(
      a,
      loopWith("    auto loss = torch::nn::functional::cross_entropy(net.forward(xs[i]), xs[i]);\n"
               "    loss.backward();\n"));
  GL_SINGLE_LOOP(loop, a);
  const TrainingEvent *backward = onlyEvent(loop, EventKind::Backward);
  ASSERT_NE(backward, nullptr);
  EXPECT_TRUE(backward->scaling.empty()) << a.dump();
}

TEST(Scaling, DivisionByOtherValueIsNotAccumulationSteps) {
  GL_ANALYSE(a, loopWith("    auto loss = net.forward(xs[i]).sum() / temperature;\n"
                         "    loss.backward();\n",
                         "", ", double temperature"));
  GL_SINGLE_LOOP(loop, a);
  const TrainingEvent *backward = onlyEvent(loop, EventKind::Backward);
  ASSERT_NE(backward, nullptr);
  ASSERT_EQ(backward->scaling.size(), 1u) << a.dump();
  EXPECT_FALSE(backward->scaling[0].isAccumulationSteps);
  EXPECT_FALSE(backward->scaling[0].isWorldSize);
}

TEST(Scaling, LossByNTimesWorldSizeFlags) {
  GL_ANALYSE(a, loopWith("    auto loss = net.forward(xs[i]).sum() / (accum_steps * world);\n"
                         "    loss.backward();\n",
                         "  const int world = pg->getSize();\n",
                         ", c10::intrusive_ptr<c10d::ProcessGroup> pg"));
  GL_SINGLE_LOOP(loop, a);
  const TrainingEvent *backward = onlyEvent(loop, EventKind::Backward);
  ASSERT_NE(backward, nullptr);
  ASSERT_FALSE(backward->scaling.empty()) << a.dump();
  bool dividesByN = false, dividesByW = false;
  for (const ScaleFactor &f : backward->scaling) {
    dividesByN = dividesByN || f.isAccumulationSteps;
    dividesByW = dividesByW || f.isWorldSize;
    EXPECT_EQ(a.pos(f.loc), a.at("/ (accum_steps")) << "the site is the `/`";
  }
  EXPECT_TRUE(dividesByN) << a.dump();
  EXPECT_TRUE(dividesByW) << a.dump();
  EXPECT_TRUE(loop.worldSize.known());
  EXPECT_EQ(loop.worldSize.text, "world") << "W, not the whole divisor";
}

TEST(Scaling, WorldSizeOnlyDivisor) {
  GL_ANALYSE(a, loopWith("    auto loss = net.forward(xs[i]).sum();\n"
                         "    loss /= pg->getSize();\n"
                         "    loss.backward();\n",
                         "", ", c10::intrusive_ptr<c10d::ProcessGroup> pg"));
  GL_SINGLE_LOOP(loop, a);
  const TrainingEvent *backward = onlyEvent(loop, EventKind::Backward);
  ASSERT_NE(backward, nullptr);
  ASSERT_EQ(backward->scaling.size(), 1u) << a.dump();
  EXPECT_TRUE(backward->scaling[0].isWorldSize);
  EXPECT_FALSE(backward->scaling[0].isAccumulationSteps);
  EXPECT_TRUE(loop.worldSize.known());
}

TEST(Scaling, WorldSizeFromEnvironment) {
  GL_ANALYSE(a, "#include <cstdlib>\n" +
                    loopWith("    auto loss = net.forward(xs[i]).sum() / accum_steps;\n"
                             "    loss = loss / ranks;\n"
                             "    loss.backward();\n",
                             "  const int ranks = std::atoi(std::getenv(\"WORLD_SIZE\"));\n"));
  GL_SINGLE_LOOP(loop, a);
  const TrainingEvent *backward = onlyEvent(loop, EventKind::Backward);
  ASSERT_NE(backward, nullptr);
  ASSERT_EQ(backward->scaling.size(), 2u) << a.dump();
  int n = 0, w = 0;
  for (const ScaleFactor &f : backward->scaling) {
    n += f.isAccumulationSteps;
    w += f.isWorldSize;
  }
  EXPECT_EQ(n, 1) << a.dump();
  EXPECT_EQ(w, 1) << a.dump();
}

TEST(Scaling, GradientDivideInBoundary) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs, int accum_steps) {
  for (int i = 0; i < (int)xs.size(); ++i) {
    net.forward(xs[i]).sum().backward();
    if ((i + 1) % accum_steps == 0) {
      for (auto& p : net.parameters()) p.mutable_grad().div_(accum_steps);
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  EXPECT_EQ(kindsOf(loop), (std::vector<EventKind>{EventKind::Backward, EventKind::GradDivide,
                                                   EventKind::Step, EventKind::GradReset}))
      << a.dump();
  const TrainingEvent *divide = onlyEvent(loop, EventKind::GradDivide);
  ASSERT_NE(divide, nullptr);
  EXPECT_EQ(divide->condition, EventCondition::Boundary);
  EXPECT_EQ(a.pos(divide->loc), a.at("p.mutable_grad().div_"));
  ASSERT_EQ(divide->scaling.size(), 1u);
  EXPECT_TRUE(divide->scaling[0].isAccumulationSteps);
  EXPECT_FALSE(divide->scaling[0].isWorldSize);
  EXPECT_EQ(a.pos(divide->scaling[0].loc), a.at("div_(accum_steps)"));
  EXPECT_TRUE(onlyEvent(loop, EventKind::Backward)->scaling.empty());
}

TEST(Scaling, GradientMultiplyByReciprocalAndCompoundDivide) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, c10::intrusive_ptr<c10d::ProcessGroup> pg,
           std::vector<torch::Tensor>& xs, int gas) {
  const int world_size = pg->getSize();
  for (int i = 0; i < (int)xs.size(); ++i) {
    net.forward(xs[i]).sum().backward();
    if ((i + 1) % gas == 0) {
      for (auto& p : net.parameters()) {
        p.mutable_grad().mul_(1.0 / gas);
        auto g = p.mutable_grad();
        g /= world_size;
      }
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  std::vector<const TrainingEvent *> divides = loop.eventsOf(EventKind::GradDivide);
  ASSERT_EQ(divides.size(), 2u) << a.dump();
  ASSERT_EQ(divides[0]->scaling.size(), 1u);
  EXPECT_TRUE(divides[0]->scaling[0].isAccumulationSteps);
  EXPECT_FALSE(divides[0]->scaling[0].isWorldSize);
  ASSERT_EQ(divides[1]->scaling.size(), 1u);
  EXPECT_TRUE(divides[1]->scaling[0].isWorldSize);
  EXPECT_FALSE(divides[1]->scaling[0].isAccumulationSteps);
  for (const TrainingEvent *divide : divides)
    EXPECT_EQ(divide->condition, EventCondition::Boundary);
}

// ---- Nested windows: the loss divisor against the inner loop's trip count.

namespace {

/// An outer loop over batches whose body runs `inner` (an inner micro-batch
/// loop) and then steps.
std::string nestedWith(const std::string &inner, const std::string &params = "int64_t n") {
  return "void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& batches, " +
         params + ") {\n  for (auto& batch : batches) {\n" + inner +
         "    opt.step();\n"
         "    opt.zero_grad();\n"
         "  }\n"
         "}\n";
}

const ScaleFactor *onlyLossFactor(const TrainingLoop &loop) {
  const TrainingEvent *backward = onlyEvent(loop, EventKind::Backward);
  return backward && backward->scaling.size() == 1 ? &backward->scaling[0] : nullptr;
}

} // namespace

TEST(TripCount, ChunkVectorDividedByChunkCount) {
  GL_ANALYSE(a, nestedWith("    auto chunks = batch.chunk(n);\n"
                           "    for (auto& c : chunks)\n"
                           "      (net.forward(c).sum() / n).backward();\n"));
  GL_SINGLE_LOOP(loop, a);
  ASSERT_TRUE(loop.window) << a.dump();
  EXPECT_EQ(loop.window->guard.form, GuardForm::NestedLoop);
  EXPECT_EQ(loop.window->steps.text, "n");
  const ScaleFactor *factor = onlyLossFactor(loop);
  ASSERT_NE(factor, nullptr) << a.dump();
  EXPECT_TRUE(factor->isAccumulationSteps);
  EXPECT_FALSE(factor->mayBeAccumulationSteps);
}

TEST(TripCount, DividedByTheChunkVectorsSize) {
  GL_ANALYSE(a, nestedWith("    std::vector<torch::Tensor> chunks = batch.chunk(n);\n"
                           "    for (size_t c = 0; c < chunks.size(); ++c)\n"
                           "      (net.forward(chunks[c]).sum() / "
                           "static_cast<double>(chunks.size())).backward();\n"));
  GL_SINGLE_LOOP(loop, a);
  const ScaleFactor *factor = onlyLossFactor(loop);
  ASSERT_NE(factor, nullptr) << a.dump();
  EXPECT_TRUE(factor->isAccumulationSteps) << a.dump();
}

TEST(TripCount, RangeOverChunkVectorDividedByItsSize) {
  GL_ANALYSE(
      a, nestedWith(
             "    auto chunks = batch.chunk(n);\n"
             "    for (auto& c : chunks)\n"
             "      (net.forward(c).sum() / static_cast<int64_t>(chunks.size())).backward();\n"));
  GL_SINGLE_LOOP(loop, a);
  const ScaleFactor *factor = onlyLossFactor(loop);
  ASSERT_NE(factor, nullptr) << a.dump();
  EXPECT_TRUE(factor->isAccumulationSteps) << a.dump();
}

TEST(TripCount, RangeOverAContainerDividedByItsSize) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, std::vector<std::vector<torch::Tensor>>& groups) {
  for (auto& xs : groups) {
    for (auto& x : xs)
      (net.forward(x).sum() / static_cast<double>(xs.size())).backward();
    opt.step();
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  const ScaleFactor *factor = onlyLossFactor(loop);
  ASSERT_NE(factor, nullptr) << a.dump();
  EXPECT_TRUE(factor->isAccumulationSteps) << a.dump();
}

TEST(TripCount, WhileCounterFromZeroWithReciprocal) {
  GL_ANALYSE(a, nestedWith("    int m = 0;\n"
                           "    while (m < n) {\n"
                           "      (net.forward(batch).sum() * (1.0 / n)).backward();\n"
                           "      ++m;\n"
                           "    }\n",
                           "int n"));
  GL_SINGLE_LOOP(loop, a);
  ASSERT_TRUE(loop.window) << a.dump();
  EXPECT_EQ(loop.window->steps.text, "n");
  const ScaleFactor *factor = onlyLossFactor(loop);
  ASSERT_NE(factor, nullptr) << a.dump();
  EXPECT_TRUE(factor->isAccumulationSteps) << a.dump();
}

TEST(TripCount, WhileCounterNotFromZeroIsNotTheCount) {
  GL_ANALYSE(a, nestedWith("    int m = 1;\n"
                           "    while (m < n) {\n"
                           "      (net.forward(batch).sum() / n).backward();\n"
                           "      ++m;\n"
                           "    }\n",
                           "int n"));
  GL_SINGLE_LOOP(loop, a);
  const ScaleFactor *factor = onlyLossFactor(loop);
  ASSERT_NE(factor, nullptr) << a.dump();
  // n - 1 micro-batches, and n may be anything: the code does not show it is n.
  EXPECT_FALSE(factor->isAccumulationSteps) << a.dump();
  EXPECT_TRUE(factor->mayBeAccumulationSteps) << a.dump();
}

TEST(TripCount, SplitBySizeOfBatchOverNIsUnknown) {
  GL_ANALYSE(a, nestedWith("    for (auto& piece : torch::split(batch, batch.size(0) / n))\n"
                           "      (net.forward(piece).sum() / n).backward();\n"));
  GL_SINGLE_LOOP(loop, a);
  const ScaleFactor *factor = onlyLossFactor(loop);
  ASSERT_NE(factor, nullptr) << a.dump();
  EXPECT_FALSE(factor->isAccumulationSteps);
  EXPECT_TRUE(factor->mayBeAccumulationSteps) << a.dump();
}

TEST(TripCount, SplitBySizeDividedByThatSizeIsAMiss) {
  GL_ANALYSE(a, nestedWith("    for (auto& piece : batch.split(n))\n"
                           "      (net.forward(piece).sum() / n).backward();\n"));
  GL_SINGLE_LOOP(loop, a);
  const ScaleFactor *factor = onlyLossFactor(loop);
  ASSERT_NE(factor, nullptr) << a.dump();
  EXPECT_FALSE(factor->isAccumulationSteps);
  EXPECT_FALSE(factor->mayBeAccumulationSteps);
}

TEST(TripCount, TensorSplitSectionsIsTheCount) {
  GL_ANALYSE(a, nestedWith("    for (auto& piece : batch.tensor_split(n))\n"
                           "      (net.forward(piece).sum() / n).backward();\n"));
  GL_SINGLE_LOOP(loop, a);
  const ScaleFactor *factor = onlyLossFactor(loop);
  ASSERT_NE(factor, nullptr) << a.dump();
  EXPECT_TRUE(factor->isAccumulationSteps) << a.dump();
}

TEST(TripCount, ChunkDividedByMicroBatchSizeIsAMiss) {
  GL_ANALYSE(a, nestedWith("    auto chunks = batch.chunk(n);\n"
                           "    for (auto& c : chunks)\n"
                           "      (net.forward(c).sum() / c.size(0)).backward();\n"));
  GL_SINGLE_LOOP(loop, a);
  const ScaleFactor *factor = onlyLossFactor(loop);
  ASSERT_NE(factor, nullptr) << a.dump();
  EXPECT_FALSE(factor->isAccumulationSteps);
  EXPECT_FALSE(factor->mayBeAccumulationSteps);
}

// ---- Communicators of the translation unit: their bodies are walked.

TEST(Communicator, AveragingBodyGivesSumAllReduceAndWorldSizeDivision) {
  GL_ANALYSE(a, R"cpp(
class Comm {
public:
  explicit Comm(c10::intrusive_ptr<c10d::ProcessGroup> pg) : pg_(pg), world_(pg->getSize()) {}
  void all_reduce(torch::Tensor& t) {
    std::vector<torch::Tensor> v{t};
    pg_->allreduce(v)->wait();
    t /= world_;
  }
private:
  c10::intrusive_ptr<c10d::ProcessGroup> pg_;
  int world_;
};
void train(Net& net, torch::optim::SGD& opt, Comm& comm, std::vector<torch::Tensor>& xs,
           int accum_steps) {
  for (int i = 0; i < (int)xs.size(); ++i) {
    (net.forward(xs[i]).sum() / accum_steps).backward();
    if ((i + 1) % accum_steps == 0) {
      for (auto& p : net.parameters())
        comm.all_reduce(p.mutable_grad());
      opt.step();
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  const TrainingEvent *sync = onlyEvent(loop, EventKind::AllReduce);
  ASSERT_NE(sync, nullptr) << a.dump();
  // The body's all-reduce is on a buffer of the argument: the call stands for
  // it, with its SUM.
  EXPECT_EQ(sync->reduceOp, ReduceOpKind::Sum);
  EXPECT_EQ(a.pos(sync->loc), a.at("comm.all_reduce"));
  const TrainingEvent *divide = onlyEvent(loop, EventKind::GradDivide);
  ASSERT_NE(divide, nullptr) << a.dump();
  EXPECT_EQ(divide->condition, EventCondition::Boundary);
  EXPECT_GT(divide->order, sync->order);
  ASSERT_EQ(divide->scaling.size(), 1u);
  EXPECT_TRUE(divide->scaling[0].isWorldSize);
  ASSERT_EQ(divide->callChain.size(), 1u);
  EXPECT_EQ(nameOf(divide->callChain[0].callee), "all_reduce");
}

TEST(Communicator, HandRolledBodyKeepsTheCallAsTheAllReduce) {
  GL_ANALYSE(a, R"cpp(
class Comm {
public:
  explicit Comm(c10::intrusive_ptr<c10d::ProcessGroup> pg) : world_(pg->getSize()) {}
  void all_reduce(torch::Tensor t) {
    t.add_(t.clone());
    t.div_(size());
  }
  int size() const { return world_; }
private:
  int world_;
};
void train(Net& net, torch::optim::SGD& opt, Comm& comm, std::vector<torch::Tensor>& xs,
           int accum_steps) {
  for (int i = 0; i < (int)xs.size(); ++i) {
    (net.forward(xs[i]).sum() / accum_steps).backward();
    if ((i + 1) % accum_steps == 0) {
      for (auto& p : net.parameters())
        comm.all_reduce(p.grad());
      opt.step();
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  const TrainingEvent *sync = onlyEvent(loop, EventKind::AllReduce);
  ASSERT_NE(sync, nullptr) << a.dump();
  EXPECT_EQ(a.pos(sync->loc), a.at("comm.all_reduce"));
  const TrainingEvent *divide = onlyEvent(loop, EventKind::GradDivide);
  ASSERT_NE(divide, nullptr) << a.dump();
  EXPECT_GT(divide->order, sync->order);
  ASSERT_EQ(divide->scaling.size(), 1u);
  EXPECT_TRUE(divide->scaling[0].isWorldSize);
}

// ---- The optimizer behind step(): its algorithm and learning-rate scaling.

namespace {

/// A flat window whose optimizer `opt` is declared by `optimizer`.
std::string optimizerLoop(const std::string &optimizer) {
  return "void train(Net& net, std::vector<torch::Tensor>& xs, double lr, int accum_steps) {\n" +
         optimizer +
         "  for (int i = 0; i < (int)xs.size(); ++i) {\n"
         "    net.forward(xs[i]).sum().backward();\n"
         "    if ((i + 1) % accum_steps == 0) {\n"
         "      opt.step();\n"
         "      opt.zero_grad();\n"
         "    }\n"
         "  }\n"
         "}\n";
}

} // namespace

TEST(LearningRate, SgdOptionsDividedBySteps) {
  GL_ANALYSE(a,
             optimizerLoop("  torch::optim::SGD opt(net.parameters(),\n"
                           "      torch::optim::SGDOptions(lr / accum_steps).momentum(0.9));\n"));
  GL_SINGLE_LOOP(loop, a);
  const TrainingEvent *step = loop.boundaryStep();
  ASSERT_NE(step, nullptr) << a.dump();
  EXPECT_EQ(step->algorithm, OptimizerAlgorithm::Sgd);
  ASSERT_EQ(step->learningRateScaling.size(), 1u) << a.dump();
  EXPECT_TRUE(step->learningRateScaling[0].isAccumulationSteps);
  EXPECT_EQ(a.pos(step->learningRateScaling[0].loc), a.at("/ accum_steps"));
}

TEST(LearningRate, AdamOptionsVariableSetter) {
  GL_ANALYSE(a, optimizerLoop("  torch::optim::AdamOptions options(1e-3);\n"
                              "  options.lr(lr / accum_steps);\n"
                              "  torch::optim::Adam opt(net.parameters(), options);\n"));
  GL_SINGLE_LOOP(loop, a);
  const TrainingEvent *step = loop.boundaryStep();
  ASSERT_NE(step, nullptr) << a.dump();
  EXPECT_EQ(step->algorithm, OptimizerAlgorithm::Adaptive);
  ASSERT_EQ(step->learningRateScaling.size(), 1u) << a.dump();
  EXPECT_TRUE(step->learningRateScaling[0].isAccumulationSteps);
}

TEST(LearningRate, ParamGroupSetLr) {
  GL_ANALYSE(
      a, optimizerLoop("  torch::optim::RMSprop opt(net.parameters(), "
                       "torch::optim::RMSpropOptions(lr));\n"
                       "  opt.param_groups()[0].options().set_lr(lr * (1.0 / accum_steps));\n"));
  GL_SINGLE_LOOP(loop, a);
  const TrainingEvent *step = loop.boundaryStep();
  ASSERT_NE(step, nullptr) << a.dump();
  EXPECT_EQ(step->algorithm, OptimizerAlgorithm::Adaptive);
  ASSERT_EQ(step->learningRateScaling.size(), 1u) << a.dump();
  EXPECT_TRUE(step->learningRateScaling[0].isAccumulationSteps);
}

TEST(LearningRate, UndividedLearningRateHasNoScaling) {
  GL_ANALYSE(a, optimizerLoop("  torch::optim::SGD opt(net.parameters(), "
                              "torch::optim::SGDOptions(lr / 10));\n"));
  GL_SINGLE_LOOP(loop, a);
  const TrainingEvent *step = loop.boundaryStep();
  ASSERT_NE(step, nullptr) << a.dump();
  EXPECT_EQ(step->algorithm, OptimizerAlgorithm::Sgd);
  for (const ScaleFactor &factor : step->learningRateScaling)
    EXPECT_FALSE(factor.isAccumulationSteps);
}
