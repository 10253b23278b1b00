// Loop shapes of real code (issue 12): several optimizers with their own
// windows, one-way thresholds that are no window, and backward()/step()
// reached through a std::function.
#include "ModelTestSupport.h"

using namespace gradlint;
using namespace gradlint::test;

namespace {

using K = EventKind;
using C = EventCondition;

/// The loops of `analysis` whose step() is `optimizer`'s.
std::vector<const TrainingLoop *> loopsStepping(const Analysis &analysis,
                                                const std::string &optimizer) {
  std::vector<const TrainingLoop *> result;
  for (const TrainingLoop &loop : analysis.loops())
    for (const TrainingEvent *step : loop.eventsOf(K::Step))
      if (nameOf(step->optimizer) == optimizer) {
        result.push_back(&loop);
        break;
      }
  return result;
}

} // namespace

// ---- several optimizers, each with its own window

TEST(OptimizerWindows, ActorCriticGivesOneLoopPerOptimizer) {
  GL_ANALYSE(a, R"cpp(
void update(Net& actor, Net& critic, torch::optim::Adam& actor_opt, torch::optim::Adam& critic_opt,
            std::vector<torch::Tensor>& states, std::vector<torch::Tensor>& returns, int accum) {
  for (int i = 0; i < (int)states.size(); ++i) {
    auto state = states[i];
    if (i % accum == 0)
      critic_opt.zero_grad();
    auto value = critic.forward(state);
    auto critic_loss = torch::mse_loss(value, returns[i]) / accum;
    critic_loss.backward();
    if ((i + 1) % accum == 0)
      critic_opt.step();
    state = states[i].detach();
    if (i % accum == 0)
      actor_opt.zero_grad();
    auto actor_loss = -(actor.forward(state) * value.detach()).mean() / accum;
    actor_loss.backward();
    if ((i + 1) % accum == 0)
      actor_opt.step();
  }
}
)cpp");
  ASSERT_EQ(a.loops().size(), 2u) << a.dump();
  const TrainingLoop &critic = a.loops()[0], &actor = a.loops()[1];
  EXPECT_EQ(critic.loop, actor.loop) << "both windows are windows of the same loop";
  EXPECT_EQ(kindsOf(critic),
            (std::vector<K>{K::GradReset, K::LossComputation, K::Backward, K::Step}))
      << a.dump();
  EXPECT_EQ(kindsOf(actor), (std::vector<K>{K::GradReset, K::Backward, K::Step})) << a.dump();
  for (const TrainingLoop *loop : {&critic, &actor}) {
    ASSERT_TRUE(loop->hasWindow()) << a.dump();
    EXPECT_EQ(onlyEvent(*loop, K::GradReset)->condition, C::WindowStart);
    EXPECT_EQ(onlyEvent(*loop, K::Backward)->condition, C::EveryMicroBatch);
    EXPECT_EQ(onlyEvent(*loop, K::Step)->condition, C::Boundary);
    EXPECT_TRUE(ordersIncrease(*loop));
  }
  EXPECT_EQ(nameOf(onlyEvent(critic, K::GradReset)->optimizer), "critic_opt");
  EXPECT_EQ(nameOf(onlyEvent(critic, K::Step)->optimizer), "critic_opt");
  EXPECT_EQ(a.pos(onlyEvent(critic, K::Backward)->loc), a.at("critic_loss.backward"));
  EXPECT_EQ(nameOf(onlyEvent(actor, K::GradReset)->optimizer), "actor_opt");
  EXPECT_EQ(nameOf(onlyEvent(actor, K::Step)->optimizer), "actor_opt");
  EXPECT_EQ(a.pos(onlyEvent(actor, K::Backward)->loc), a.at("actor_loss.backward"));
  EXPECT_EQ(a.pos(actor.window->guard.loc), a.atAfter("actor_loss.backward", "(i + 1) % accum"));
}

TEST(OptimizerWindows, BoundaryResetOfTheSecondOptimizerComesBeforeItsStep) {
  GL_ANALYSE(a, R"cpp(
void update(Net& actor, Net& critic, torch::optim::Adam& actor_opt, torch::optim::Adam& critic_opt,
            std::vector<torch::Tensor>& states, int accum) {
  for (int i = 0; i < (int)states.size(); ++i) {
    auto value = critic.forward(states[i]);
    (value.pow(2).mean() / accum).backward();
    if ((i + 1) % accum == 0) {
      critic_opt.step();
      critic_opt.zero_grad();
    }
    if ((i + 1) % accum == 0)
      actor_opt.zero_grad();
    (-(actor.forward(states[i]) * value.detach()).mean() / accum).backward();
    if ((i + 1) % accum == 0)
      actor_opt.step();
  }
}
)cpp");
  std::vector<const TrainingLoop *> actor = loopsStepping(a, "actor_opt");
  ASSERT_EQ(actor.size(), 1u) << a.dump();
  EXPECT_EQ(kindsOf(*actor[0]), (std::vector<K>{K::GradReset, K::Backward, K::Step})) << a.dump();
  const TrainingEvent *reset = onlyEvent(*actor[0], K::GradReset);
  ASSERT_NE(reset, nullptr);
  EXPECT_EQ(reset->condition, C::Boundary);
  EXPECT_LT(reset->order, actor[0]->boundaryStep()->order)
      << "the actor's boundary step is its own, after the reset";
  std::vector<const TrainingLoop *> critic = loopsStepping(a, "critic_opt");
  ASSERT_EQ(critic.size(), 1u);
  EXPECT_EQ(kindsOf(*critic[0]), (std::vector<K>{K::Backward, K::Step, K::GradReset}));
}

TEST(OptimizerWindows, GanWithTwoAccumulatingOptimizersHasTwoWindows) {
  GL_ANALYSE(a, R"cpp(
void train(Net& gen, Net& disc, torch::optim::Adam& g_opt, torch::optim::Adam& d_opt,
           std::vector<torch::Tensor>& zs) {
  const int d_accum = 2, g_accum = 4;
  for (int i = 0; i < (int)zs.size(); ++i) {
    auto fake = gen.forward(zs[i]);
    (disc.forward(fake.detach()).mean() / d_accum).backward();
    if ((i + 1) % d_accum == 0) {
      d_opt.step();
      d_opt.zero_grad();
    }
    g_opt.zero_grad();
    (-disc.forward(fake).mean() / g_accum).backward();
    if ((i + 1) % g_accum == 0)
      g_opt.step();
  }
}
)cpp");
  std::vector<const TrainingLoop *> d = loopsStepping(a, "d_opt"), g = loopsStepping(a, "g_opt");
  ASSERT_EQ(d.size(), 1u) << a.dump();
  ASSERT_EQ(g.size(), 1u) << a.dump();
  ASSERT_TRUE(d[0]->hasWindow());
  ASSERT_TRUE(g[0]->hasWindow());
  EXPECT_EQ(d[0]->window->steps.text, "d_accum");
  EXPECT_EQ(g[0]->window->steps.text, "g_accum");
  const TrainingEvent *gReset = onlyEvent(*g[0], K::GradReset);
  ASSERT_NE(gReset, nullptr) << a.dump();
  EXPECT_EQ(gReset->condition, C::EveryMicroBatch);
  EXPECT_FALSE(gReset->steppedEveryMicroBatch);
  EXPECT_EQ(onlyEvent(*g[0], K::Step)->condition, C::Boundary);
}

TEST(OptimizerWindows, OneOptimizerWithTwoLossesStaysOneWindow) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs, int accum) {
  for (int i = 0; i < (int)xs.size(); ++i) {
    if (i % accum == 0)
      opt.zero_grad();
    auto out = net.forward(xs[i]);
    (out.mean() / accum).backward({}, true);
    (out.pow(2).mean() / accum).backward();
    if ((i + 1) % accum == 0)
      opt.step();
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  EXPECT_EQ(kindsOf(loop), (std::vector<K>{K::GradReset, K::Backward, K::Backward, K::Step}));
}

TEST(OptimizerWindows, SecondOptimizerSteppingEveryMicroBatchIsNotSplit) {
  GL_ANALYSE(a, R"cpp(
void train(Net& gen, Net& disc, torch::optim::Adam& g_opt, torch::optim::Adam& d_opt,
           std::vector<torch::Tensor>& zs, int accum) {
  for (int i = 0; i < (int)zs.size(); ++i) {
    d_opt.zero_grad();
    disc.forward(gen.forward(zs[i]).detach()).mean().backward();
    d_opt.step();
    (-disc.forward(gen.forward(zs[i])).mean() / accum).backward();
    if ((i + 1) % accum == 0) {
      g_opt.step();
      g_opt.zero_grad();
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  EXPECT_TRUE(loop.events.front().steppedEveryMicroBatch) << a.dump();
}

// ---- one-way thresholds

TEST(Thresholds, CounterNeverResetIsNoWindow) {
  GL_ANALYSE(a, R"cpp(
struct Agent {
  Net q;
  torch::optim::Adam opt{q.parameters(), torch::optim::AdamOptions(1e-3)};
  int memory_counter = 0;
  void learn(torch::Tensor x) {
    opt.zero_grad();
    q.forward(x).mean().backward();
    opt.step();
  }
  void run(std::vector<torch::Tensor>& xs) {
    for (auto& x : xs) {
      memory_counter++;
      if (memory_counter > 64)
        learn(x);
    }
  }
};
)cpp");
  GL_SINGLE_LOOP(loop, a);
  EXPECT_FALSE(loop.window.has_value()) << a.dump();
  EXPECT_FALSE(loop.hasWindow());
}

TEST(Thresholds, MemberCountedUpElsewhereIsNoWindow) {
  GL_ANALYSE(a, R"cpp(
struct Learner {
  Net net;
  torch::optim::SGD opt{net.parameters(), torch::optim::SGDOptions(0.1)};
  int seen_ = 0;
  int warmup_ = 1000;
  void observe(int n) { seen_ = seen_ + n; }
  void train(std::vector<torch::Tensor>& xs) {
    for (auto& x : xs) {
      observe(1);
      net.forward(x).mean().backward();
      if (seen_ >= warmup_) {
        opt.step();
        opt.zero_grad();
      }
    }
  }
};
)cpp");
  GL_SINGLE_LOOP(loop, a);
  EXPECT_FALSE(loop.window.has_value()) << a.dump();
}

TEST(Thresholds, CounterResetInTheBranchIsAWindow) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs, int accum) {
  int micro = 0;
  for (auto& x : xs) {
    (net.forward(x).mean() / accum).backward();
    if (++micro >= accum) {
      opt.step();
      opt.zero_grad();
      micro = 0;
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  EXPECT_EQ(loop.window->guard.form, GuardForm::CounterReachesN);
  EXPECT_EQ(loop.window->steps.text, "accum");
  EXPECT_EQ(nameOf(loop.window->guard.counter), "micro");
}

TEST(Thresholds, CounterDecrementedByNIsAWindow) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs, int accum) {
  int pending = 0;
  for (auto& x : xs) {
    (net.forward(x).mean() / accum).backward();
    if (++pending >= accum) {
      opt.step();
      opt.zero_grad();
      pending -= accum;
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  EXPECT_TRUE(loop.hasWindow()) << a.dump();
}

// ---- std::function

TEST(Callbacks, LocalStdFunctionAssignedALambdaIsFollowed) {
  GL_ANALYSE(a, R"cpp(
#include <functional>
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs, int accum) {
  std::function<void()> on_step;
  on_step = [&] { opt.step(); };
  for (int i = 0; i < (int)xs.size(); ++i) {
    (net.forward(xs[i]).mean() / accum).backward();
    if ((i + 1) % accum == 0)
      on_step();
  }
}
)cpp");
  std::vector<const TrainingLoop *> loops = loopsStepping(a, "opt");
  ASSERT_EQ(loops.size(), 1u) << a.dump();
  const TrainingLoop &loop = *loops[0];
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  const TrainingEvent *step = onlyEvent(loop, K::Step);
  ASSERT_NE(step, nullptr);
  EXPECT_EQ(step->condition, C::Boundary);
  EXPECT_EQ(a.pos(step->loc), a.at("opt.step()"));
  ASSERT_EQ(step->callChain.size(), 1u);
  EXPECT_EQ(a.pos(step->callChain[0].call->getBeginLoc()), a.at("on_step();"));
}

TEST(Callbacks, MemberInitialisedInConstructorIsFollowed) {
  GL_ANALYSE(a, R"cpp(
#include <functional>
struct Trainer {
  Net net;
  torch::optim::SGD opt{net.parameters(), torch::optim::SGDOptions(0.1)};
  std::function<void(torch::Tensor)> micro_batch;
  Trainer() : micro_batch([this](torch::Tensor x) { (net.forward(x).mean() / 4).backward(); }) {}
  void fit(std::vector<torch::Tensor>& xs) {
    for (int i = 0; i < (int)xs.size(); ++i) {
      micro_batch(xs[i]);
      if ((i + 1) % 4 == 0) {
        opt.step();
        opt.zero_grad();
      }
    }
  }
};
)cpp");
  std::vector<const TrainingLoop *> loops = loopsStepping(a, "opt");
  ASSERT_EQ(loops.size(), 1u) << a.dump();
  const TrainingEvent *backward = onlyEvent(*loops[0], K::Backward);
  ASSERT_NE(backward, nullptr) << a.dump();
  EXPECT_EQ(backward->condition, C::EveryMicroBatch);
  EXPECT_EQ(backward->scaling.size(), 1u);
  EXPECT_TRUE(loops[0]->hasWindow());
}

TEST(Callbacks, ParameterBoundToTheOneCallersLambdaIsFollowed) {
  GL_ANALYSE(a, R"cpp(
#include <functional>
void fit(std::vector<torch::Tensor>& xs, torch::optim::SGD& opt,
         const std::function<void(const torch::Tensor&)>& micro_batch) {
  for (int i = 0; i < (int)xs.size(); ++i) {
    micro_batch(xs[i]);
    if ((i + 1) % 8 == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs) {
  fit(xs, opt, [&](const torch::Tensor& x) { (net.forward(x).mean() / 8).backward(); });
}
)cpp");
  std::vector<const TrainingLoop *> loops = loopsStepping(a, "opt");
  ASSERT_EQ(loops.size(), 1u) << a.dump();
  EXPECT_NE(onlyEvent(*loops[0], K::Backward), nullptr) << a.dump();
  EXPECT_TRUE(loops[0]->hasWindow());
}

TEST(Callbacks, TwoDifferentLambdasAreNotGuessed) {
  GL_ANALYSE(a, R"cpp(
#include <functional>
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs, int accum,
           bool eager) {
  std::function<void()> hook = [&] { opt.zero_grad(); };
  if (!eager)
    hook = [] {};
  for (int i = 0; i < (int)xs.size(); ++i) {
    (net.forward(xs[i]).mean() / accum).backward();
    hook();
    if ((i + 1) % accum == 0)
      opt.step();
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  EXPECT_EQ(kindsOf(loop), (std::vector<K>{K::Backward, K::Step})) << a.dump();
}

TEST(Callbacks, TwoCallersWithDifferentLambdasAreNotGuessed) {
  GL_ANALYSE(a, R"cpp(
#include <functional>
void fit(std::vector<torch::Tensor>& xs, torch::optim::SGD& opt, std::function<void()> hook) {
  for (int i = 0; i < (int)xs.size(); ++i) {
    xs[i].sum().backward();
    hook();
    if ((i + 1) % 4 == 0)
      opt.step();
  }
}
void a(std::vector<torch::Tensor>& xs, torch::optim::SGD& opt) {
  fit(xs, opt, [&] { opt.zero_grad(); });
}
void b(std::vector<torch::Tensor>& xs, torch::optim::SGD& opt) {
  fit(xs, opt, [] {});
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  EXPECT_EQ(kindsOf(loop), (std::vector<K>{K::Backward, K::Step})) << a.dump();
}

// ---- how a loop ends: what becomes of a window left open (issue 14)

namespace {

const TrainingLoop *windowedLoop(const Analysis &analysis) {
  for (const TrainingLoop &loop : analysis.loops())
    if (loop.kind == LoopKind::Loop && loop.hasWindow())
      return &loop;
  return nullptr;
}

} // namespace

TEST(LoopEnd, LoopIndexRestartsEachEpoch) {
  GL_ANALYSE(a, R"cpp(
void train(Net &net, std::vector<torch::Tensor> &xs, int epochs) {
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  for (int e = 0; e < epochs; ++e)
    for (size_t i = 0; i < xs.size(); ++i) {
      net.forward(xs[i]).mean().backward();
      if ((i + 1) % 4 == 0) { opt.step(); opt.zero_grad(); }
    }
}
)cpp");
  const TrainingLoop *loop = windowedLoop(a);
  ASSERT_NE(loop, nullptr) << a.dump();
  EXPECT_EQ(loop->end.counter, CounterScope::RestartsWithLoop);
  EXPECT_NE(loop->end.epochLoop, nullptr);
  EXPECT_EQ(loop->end.flush, nullptr);
  EXPECT_EQ(loop->end.epochReset, nullptr);
  ASSERT_NE(loop->end.batchCount, nullptr);
  EXPECT_FALSE(loop->end.batchCountMultipleOfSteps);
}

TEST(LoopEnd, CounterBeforeTheEpochLoopRunsAcrossAndTheEpochResetIsSeen) {
  GL_ANALYSE(a, R"cpp(
void clear(torch::optim::SGD &opt) { opt.zero_grad(); }
void train(Net &net, std::vector<torch::Tensor> &xs, int epochs) {
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  long step = 0;
  for (int e = 0; e < epochs; ++e) {
    clear(opt);
    for (auto &x : xs) {
      net.forward(x).mean().backward();
      if (++step % 4 == 0) { opt.step(); opt.zero_grad(); }
    }
  }
}
)cpp");
  const TrainingLoop *loop = windowedLoop(a);
  ASSERT_NE(loop, nullptr) << a.dump();
  EXPECT_EQ(loop->end.counter, CounterScope::RunsAcross);
  EXPECT_NE(loop->end.epochReset, nullptr); // through the helper
  EXPECT_EQ(loop->end.batchCount, nullptr);
}

TEST(LoopEnd, CounterSetToZeroPerEpochRestartsAndAFlushIsSeen) {
  GL_ANALYSE(a, R"cpp(
struct Trainer {
  int micro_ = 0;
  void flush(torch::optim::SGD &opt) { if (micro_ != 0) opt.step(); }
  void run(Net &net, torch::optim::SGD &opt, std::vector<torch::Tensor> &xs, int epochs) {
    for (int e = 0; e < epochs; ++e) {
      micro_ = 0;
      for (auto &x : xs) {
        net.forward(x).mean().backward();
        if (++micro_ == 4) { opt.step(); opt.zero_grad(); micro_ = 0; }
      }
      flush(opt);
    }
  }
};
)cpp");
  const TrainingLoop *loop = windowedLoop(a);
  ASSERT_NE(loop, nullptr) << a.dump();
  EXPECT_EQ(loop->end.counter, CounterScope::RestartsWithLoop);
  EXPECT_NE(loop->end.flush, nullptr);
}

TEST(LoopEnd, ConstantBoundThatIsAMultipleOfN) {
  GL_ANALYSE(a, R"cpp(
void train(Net &net, std::vector<torch::Tensor> &xs, int windows) {
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  const int accum = 4;
  for (int i = 0; i < accum * windows; ++i) {
    net.forward(xs[i]).mean().backward();
    if ((i + 1) % accum == 0) { opt.step(); opt.zero_grad(); }
  }
}
)cpp");
  const TrainingLoop *loop = windowedLoop(a);
  ASSERT_NE(loop, nullptr) << a.dump();
  EXPECT_TRUE(loop->end.batchCountMultipleOfSteps);
}

// ---- half-precision parameters (issue 14)

TEST(ParameterPrecision, ConversionInTheCallerIsSeen) {
  GL_ANALYSE(a, R"cpp(
void train(Net &net, std::vector<torch::Tensor> &xs) {
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  for (size_t i = 0; i < xs.size(); ++i) {
    net.forward(xs[i]).mean().backward();
    if ((i + 1) % 8 == 0) { opt.step(); opt.zero_grad(); }
  }
}
void run(Net &net, std::vector<torch::Tensor> &xs) {
  net.to(torch::kBFloat16);
  train(net, xs);
}
)cpp");
  const TrainingLoop *loop = windowedLoop(a);
  ASSERT_NE(loop, nullptr) << a.dump();
  EXPECT_NE(loop->halfPrecision.conversion, nullptr);
  EXPECT_EQ(loop->halfPrecision.type, "bfloat16");
}

TEST(ParameterPrecision, AConversionToFloatMeansAnFp32Path) {
  GL_ANALYSE(a, R"cpp(
void train(Net &net, std::vector<torch::Tensor> &xs) {
  net.to(torch::kHalf);
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  for (size_t i = 0; i < xs.size(); ++i) {
    net.forward(xs[i]).mean().backward();
    if ((i + 1) % 8 == 0) { opt.step(); opt.zero_grad(); }
  }
  net.to(torch::kFloat);
}
)cpp");
  const TrainingLoop *loop = windowedLoop(a);
  ASSERT_NE(loop, nullptr) << a.dump();
  EXPECT_EQ(loop->halfPrecision.conversion, nullptr);
}

TEST(ParameterPrecision, HalfInputsAloneAreNotHalfParameters) {
  GL_ANALYSE(a, R"cpp(
void train(Net &net, std::vector<torch::Tensor> &xs) {
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  for (size_t i = 0; i < xs.size(); ++i) {
    net.forward(xs[i].to(torch::kHalf)).mean().backward();
    if ((i + 1) % 8 == 0) { opt.step(); opt.zero_grad(); }
  }
}
)cpp");
  const TrainingLoop *loop = windowedLoop(a);
  ASSERT_NE(loop, nullptr) << a.dump();
  EXPECT_EQ(loop->halfPrecision.conversion, nullptr);
}

// ---- hand-written gradient buffers (accum-grad-buffer-double-count)

const TrainingEvent *firstEventOf(const TrainingLoop &loop, EventKind kind) {
  std::vector<const TrainingEvent *> events = loop.eventsOf(kind);
  return events.empty() ? nullptr : events.front();
}

TEST(GradBuffer, ElementAddAndWriteBackNameTheBuffer) {
  GL_ANALYSE(a, R"cpp(
void train(Net &net, std::vector<torch::Tensor> &xs) {
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  std::vector<torch::Tensor> params = net.parameters(), acc;
  for (auto &p : params) acc.push_back(torch::zeros_like(p));
  for (size_t i = 0; i < xs.size(); ++i) {
    net.forward(xs[i]).mean().backward();
    for (size_t k = 0; k < params.size(); ++k) acc[k] += params[k].grad();
    if ((i + 1) % 4 == 0) {
      for (size_t k = 0; k < params.size(); ++k) params[k].grad().copy_(acc[k] / 4);
      opt.step(); opt.zero_grad();
    }
  }
}
)cpp");
  const TrainingLoop *loop = windowedLoop(a);
  ASSERT_NE(loop, nullptr) << a.dump();
  const TrainingEvent *add = firstEventOf(*loop, EventKind::GradBufferAdd);
  ASSERT_NE(add, nullptr) << a.dump();
  ASSERT_NE(add->buffer, nullptr);
  EXPECT_EQ(add->buffer->getNameAsString(), "acc");
  EXPECT_NE(add->gradientRead, nullptr);
  EXPECT_EQ(add->condition, EventCondition::EveryMicroBatch);
  const TrainingEvent *writeBack = firstEventOf(*loop, EventKind::GradDivide);
  ASSERT_NE(writeBack, nullptr) << a.dump();
  EXPECT_TRUE(writeBack->overwritesGradient);
  EXPECT_EQ(writeBack->buffer, add->buffer);
  EXPECT_EQ(writeBack->condition, EventCondition::Boundary);
}

TEST(GradBuffer, ANormIsAStatisticNotABuffer) {
  GL_ANALYSE(a, R"cpp(
void train(Net &net, std::vector<torch::Tensor> &xs) {
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  torch::Tensor total = torch::zeros({});
  for (size_t i = 0; i < xs.size(); ++i) {
    net.forward(xs[i]).mean().backward();
    for (auto &p : net.parameters()) total += p.grad().norm();
    if ((i + 1) % 4 == 0) { opt.step(); opt.zero_grad(); }
  }
}
)cpp");
  const TrainingLoop *loop = windowedLoop(a);
  ASSERT_NE(loop, nullptr) << a.dump();
  EXPECT_EQ(firstEventOf(*loop, EventKind::GradBufferAdd), nullptr) << a.dump();
}

TEST(GradBuffer, AddingIntoTheGradientItselfIsNotABuffer) {
  GL_ANALYSE(a, R"cpp(
void train(Net &net, std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &extra) {
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  std::vector<torch::Tensor> params = net.parameters();
  for (size_t i = 0; i < xs.size(); ++i) {
    net.forward(xs[i]).mean().backward();
    for (size_t k = 0; k < params.size(); ++k) params[k].mutable_grad().add_(params[k].grad());
    if ((i + 1) % 4 == 0) { opt.step(); opt.zero_grad(); }
  }
}
)cpp");
  const TrainingLoop *loop = windowedLoop(a);
  ASSERT_NE(loop, nullptr) << a.dump();
  EXPECT_EQ(firstEventOf(*loop, EventKind::GradBufferAdd), nullptr) << a.dump();
}
