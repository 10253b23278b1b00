// Events: kinds, source order, conditions relative to the window, helpers,
// lambdas, Trainer members, training step functions, all-reduce ops and
// templates.
#include "ModelTestSupport.h"

using namespace gradlint;
using namespace gradlint::test;

using K = EventKind;
using C = EventCondition;

TEST(Events, TypicalLoopKindsOrderAndConditions) {
  GL_ANALYSE(a, R"cpp(
void train(std::shared_ptr<Net> model, torch::optim::SGD& opt,
           const std::vector<torch::Tensor>& xs, const std::vector<torch::Tensor>& ys,
           int accum_steps) {
  for (int i = 0; i < (int)xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  EXPECT_EQ(kindsOf(loop), (std::vector<K>{K::LossComputation, K::Backward, K::Step, K::GradReset}))
      << a.dump();
  EXPECT_EQ(conditionsOf(loop),
            (std::vector<C>{C::EveryMicroBatch, C::EveryMicroBatch, C::Boundary, C::Boundary}));
  EXPECT_TRUE(ordersIncrease(loop));
  ASSERT_EQ(loop.events.size(), 4u);
  EXPECT_EQ(a.pos(loop.events[0].loc), a.at("torch::mse_loss"));
  EXPECT_EQ(a.pos(loop.events[1].loc), a.at("loss.backward"));
  EXPECT_EQ(a.pos(loop.events[2].loc), a.at("opt.step"));
  EXPECT_EQ(a.pos(loop.events[3].loc), a.at("opt.zero_grad"));
  EXPECT_EQ(nameOf(loop.events[2].optimizer), "opt");
  EXPECT_EQ(nameOf(loop.events[3].optimizer), "opt");
  for (const TrainingEvent &event : loop.events) {
    EXPECT_FALSE(event.guardedByUnrelatedCondition);
    EXPECT_TRUE(event.callChain.empty());
    EXPECT_FALSE(event.insideInnerLoop);
  }
  ASSERT_NE(loop.boundaryStep(), nullptr);
  EXPECT_EQ(loop.boundaryStep()->kind, K::Step);
  EXPECT_EQ(a.pos(loop.reportLocation(loop.events[3])), a.at("opt.zero_grad"));
}

TEST(Events, ZeroGradAtTopRunsEveryMicroBatch) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::Adam& opt, std::vector<torch::Tensor>& xs, int accum_steps) {
  for (int i = 0; i < (int)xs.size(); ++i) {
    opt.zero_grad();
    auto loss = net.forward(xs[i]).sum() / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) opt.step();
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  ASSERT_TRUE(loop.hasWindow());
  EXPECT_EQ(kindsOf(loop), (std::vector<K>{K::GradReset, K::Backward, K::Step})) << a.dump();
  EXPECT_EQ(conditionsOf(loop),
            (std::vector<C>{C::EveryMicroBatch, C::EveryMicroBatch, C::Boundary}));
  EXPECT_LT(loop.events[0].order, loop.events[1].order);
}

TEST(Events, WindowStartGuardSymbolicN) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs, int accum_steps) {
  for (int i = 0; i < (int)xs.size(); ++i) {
    if (i % accum_steps == 0) opt.zero_grad();
    auto loss = net.forward(xs[i]).sum() / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) opt.step();
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  const TrainingEvent *reset = onlyEvent(loop, K::GradReset);
  ASSERT_NE(reset, nullptr) << a.dump();
  EXPECT_EQ(reset->condition, C::WindowStart);
  EXPECT_FALSE(reset->guardedByUnrelatedCondition);
}

// With a constant N = 4 and boundary `(i + 1) % N == 0` (residue 3):
// `i % N == 0` is the window start, `i % 4 == 2` another once-per-window spot,
// and `i % 100 == 0` is unrelated to the window.
TEST(Events, ConstantNWindowStartElsewhereAndUnrelated) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs) {
  const int N = 4;
  for (int i = 0; i < (int)xs.size(); ++i) {
    if (i % N == 0) opt.zero_grad();
    auto loss = net.forward(xs[i]).sum() / N;
    loss.backward();
    if (i % 4 == 2) torch::nn::utils::clip_grad_norm_(net.parameters(), 1.0);
    if (i % 100 == 0) torch::nn::utils::clip_grad_value_(net.parameters(), 5.0);
    if ((i + 1) % N == 0) opt.step();
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  EXPECT_EQ(kindsOf(loop), (std::vector<K>{K::GradReset, K::Backward, K::Clip, K::Clip, K::Step}))
      << a.dump();
  EXPECT_EQ(conditionsOf(loop),
            (std::vector<C>{C::WindowStart, C::EveryMicroBatch, C::OncePerWindowElsewhere,
                            C::EveryMicroBatch, C::Boundary}))
      << a.dump();
  ASSERT_EQ(loop.events.size(), 5u);
  EXPECT_FALSE(loop.events[2].guardedByUnrelatedCondition);
  EXPECT_TRUE(loop.events[3].guardedByUnrelatedCondition);
}

TEST(Events, NotBoundaryViaInequalityAndElseBranch) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs, int accum_steps) {
  for (int i = 0; i < (int)xs.size(); ++i) {
    auto loss = net.forward(xs[i]).sum() / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps != 0) net.zero_grad();
    if ((i + 1) % accum_steps == 0) {
      opt.step();
      opt.zero_grad();
    } else {
      torch::nn::utils::clip_grad_norm_(net.parameters(), 1.0);
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  EXPECT_EQ(kindsOf(loop),
            (std::vector<K>{K::Backward, K::GradReset, K::Step, K::GradReset, K::Clip}))
      << a.dump();
  EXPECT_EQ(conditionsOf(loop), (std::vector<C>{C::EveryMicroBatch, C::NotBoundary, C::Boundary,
                                                C::Boundary, C::NotBoundary}))
      << a.dump();
  ASSERT_EQ(loop.events.size(), 5u);
  EXPECT_EQ(loop.events[1].optimizer, nullptr) << "Module::zero_grad has no optimizer";
}

TEST(Events, ClipEveryMicroBatchVersusBoundary) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs, int accum_steps) {
  for (int i = 0; i < (int)xs.size(); ++i) {
    auto loss = net.forward(xs[i]).sum() / accum_steps;
    loss.backward();
    torch::nn::utils::clip_grad_norm_(net.parameters(), 1.0);
    if ((i + 1) % accum_steps == 0) {
      torch::nn::utils::clip_grad_value_(net.parameters(), 0.5);
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  std::vector<const TrainingEvent *> clips = loop.eventsOf(K::Clip);
  ASSERT_EQ(clips.size(), 2u) << a.dump();
  EXPECT_EQ(clips[0]->condition, C::EveryMicroBatch);
  EXPECT_EQ(a.pos(clips[0]->loc), a.at("torch::nn::utils::clip_grad_norm_"));
  EXPECT_EQ(clips[1]->condition, C::Boundary);
  ASSERT_NE(loop.boundaryStep(), nullptr);
  EXPECT_LT(clips[1]->order, loop.boundaryStep()->order);
}

TEST(Events, NonGradientTensorOpsAreNotEvents) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs, int accum_steps) {
  auto running = torch::zeros({1});
  for (int i = 0; i < (int)xs.size(); ++i) {
    auto loss = net.forward(xs[i]).sum() / accum_steps;
    loss.backward();
    running.zero_();
    running.div_(accum_steps);
    if ((i + 1) % accum_steps == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  EXPECT_EQ(kindsOf(loop), (std::vector<K>{K::Backward, K::Step, K::GradReset})) << a.dump();
}

TEST(Events, ParameterGradientResetForms) {
  GL_ANALYSE(a, R"cpp(
namespace optim = torch::optim;
using Opt = optim::AdamW;
void train(std::shared_ptr<Net> model, std::unique_ptr<Opt>& o, std::vector<torch::Tensor>& xs,
           int accum_steps) {
  for (int i = 0; i < (int)xs.size(); ++i) {
    auto loss = model->forward(xs[i]).sum() / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      o->step();
      for (auto& p : model->parameters()) p.mutable_grad().zero_();
      for (auto& p : model->parameters()) p.mutable_grad() = torch::Tensor();
      model->zero_grad();
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  EXPECT_EQ(kindsOf(loop),
            (std::vector<K>{K::Backward, K::Step, K::GradReset, K::GradReset, K::GradReset}))
      << a.dump();
  for (const TrainingEvent *reset : loop.eventsOf(K::GradReset))
    EXPECT_EQ(reset->condition, C::Boundary);
  const TrainingEvent *step = onlyEvent(loop, K::Step);
  ASSERT_NE(step, nullptr);
  EXPECT_EQ(a.pos(step->loc), a.at("o->step"));
}

// docs/specification.md: match through pointers and `std::unique_ptr`. A GAN whose
// discriminator steps every micro-batch while the generator accumulates: the
// events must tell the two optimizers apart (MisplacedZeroGradCheck skips the
// resets of an optimizer that steps every micro-batch by comparing them).
TEST(Events, SmartPointerOptimizersAreToldApart) {
  GL_ANALYSE(a, R"cpp(
void train(Net& gen, Net& disc, std::unique_ptr<torch::optim::Adam>& g_opt,
           std::shared_ptr<torch::optim::Adam> d_opt, std::vector<torch::Tensor>& zs,
           int accum_steps) {
  for (int i = 0; i < (int)zs.size(); ++i) {
    d_opt->zero_grad();
    auto d_loss = disc.forward(gen.forward(zs[i]).detach()).mean();
    d_loss.backward();
    d_opt->step();
    auto g_loss = -disc.forward(gen.forward(zs[i])).mean() / accum_steps;
    g_loss.backward();
    if ((i + 1) % accum_steps == 0) {
      g_opt->step();
      g_opt->zero_grad();
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  EXPECT_EQ(kindsOf(loop), (std::vector<K>{K::GradReset, K::Backward, K::Step, K::Backward, K::Step,
                                           K::GradReset}))
      << a.dump();
  ASSERT_EQ(loop.events.size(), 6u);
  const TrainingEvent &dReset = loop.events[0], &dStep = loop.events[2];
  const TrainingEvent &gStep = loop.events[4], &gReset = loop.events[5];
  EXPECT_EQ(dStep.condition, C::EveryMicroBatch);
  EXPECT_EQ(gStep.condition, C::Boundary);
  EXPECT_TRUE(dReset.steppedEveryMicroBatch);
  EXPECT_FALSE(gStep.steppedEveryMicroBatch);
  EXPECT_FALSE(gReset.steppedEveryMicroBatch);
  EXPECT_EQ(nameOf(dReset.optimizer), "d_opt");
  EXPECT_EQ(nameOf(dStep.optimizer), "d_opt");
  EXPECT_EQ(nameOf(gStep.optimizer), "g_opt");
  EXPECT_EQ(nameOf(gReset.optimizer), "g_opt");
  EXPECT_NE(dStep.optimizer, gStep.optimizer);
}

TEST(Events, ResetInGradientOnlyHelperReportsAtHelperCall) {
  GL_ANALYSE(a, R"cpp(
void clear_grads(torch::nn::Module& m) { m.zero_grad(); }
void train(std::shared_ptr<Net> model, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs,
           int accum_steps) {
  for (int i = 0; i < (int)xs.size(); ++i) {
    clear_grads(*model);
    auto loss = model->forward(xs[i]).sum() / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) opt.step();
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  const TrainingEvent *reset = onlyEvent(loop, K::GradReset);
  ASSERT_NE(reset, nullptr) << a.dump();
  EXPECT_EQ(reset->condition, C::EveryMicroBatch);
  ASSERT_EQ(reset->callChain.size(), 1u);
  EXPECT_EQ(nameOf(reset->callChain[0].callee), "clear_grads");
  EXPECT_EQ(a.pos(reset->loc), a.at("m.zero_grad"));
  EXPECT_EQ(a.pos(loop.reportLocation(*reset)), a.at("clear_grads(*model)"));
  EXPECT_LT(reset->order, onlyEvent(loop, K::Backward)->order);
}

TEST(Events, ResetInHelperThatTrainsReportsInsideHelper) {
  GL_ANALYSE(a, R"cpp(
void micro_step(Net& net, torch::optim::SGD& o, const torch::Tensor& x, int n) {
  o.zero_grad();
  auto loss = net.forward(x).sum() / n;
  loss.backward();
}
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs, int accum_steps) {
  for (int i = 0; i < (int)xs.size(); ++i) {
    micro_step(net, opt, xs[i], accum_steps);
    if ((i + 1) % accum_steps == 0) opt.step();
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  EXPECT_EQ(kindsOf(loop), (std::vector<K>{K::GradReset, K::Backward, K::Step})) << a.dump();
  const TrainingEvent *reset = onlyEvent(loop, K::GradReset);
  ASSERT_NE(reset, nullptr);
  ASSERT_EQ(reset->callChain.size(), 1u);
  EXPECT_EQ(a.pos(loop.reportLocation(*reset)), a.at("o.zero_grad"));
  EXPECT_EQ(nameOf(reset->optimizer), "opt") << "o is bound to the caller's opt";
  const TrainingEvent *backward = onlyEvent(loop, K::Backward);
  ASSERT_NE(backward, nullptr);
  ASSERT_EQ(backward->scaling.size(), 1u);
  EXPECT_TRUE(backward->scaling[0].isAccumulationSteps) << "n is bound to accum_steps";
}

TEST(Events, LambdaCalledInLoop) {
  GL_ANALYSE(a, R"cpp(
void train(std::shared_ptr<Net> model, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs,
           std::vector<torch::Tensor>& ys, int accum_steps) {
  auto forward_backward = [&](const torch::Tensor& x, const torch::Tensor& y) {
    auto loss = torch::mse_loss(model->forward(x), y) / accum_steps;
    loss.backward();
  };
  for (int i = 0; i < (int)xs.size(); ++i) {
    forward_backward(xs[i], ys[i]);
    if ((i + 1) % accum_steps == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  EXPECT_EQ(kindsOf(loop), (std::vector<K>{K::LossComputation, K::Backward, K::Step, K::GradReset}))
      << a.dump();
  const TrainingEvent *backward = onlyEvent(loop, K::Backward);
  ASSERT_NE(backward, nullptr);
  ASSERT_EQ(backward->callChain.size(), 1u);
  auto *method = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(backward->callChain[0].callee);
  ASSERT_NE(method, nullptr);
  EXPECT_TRUE(method->getParent()->isLambda());
  EXPECT_EQ(backward->condition, C::EveryMicroBatch);
  ASSERT_EQ(backward->scaling.size(), 1u);
  EXPECT_TRUE(backward->scaling[0].isAccumulationSteps);
}

TEST(Events, LoopInsideLambda) {
  GL_ANALYSE(a, R"cpp(
void run(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs, int accum_steps) {
  auto epoch = [&]() {
    for (int i = 0; i < (int)xs.size(); ++i) {
      opt.zero_grad();
      auto loss = net.forward(xs[i]).sum() / accum_steps;
      loss.backward();
      if ((i + 1) % accum_steps == 0) opt.step();
    }
  };
  epoch();
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  EXPECT_EQ(loop.kind, LoopKind::Loop);
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  EXPECT_EQ(loop.window->steps.text, "accum_steps");
  EXPECT_EQ(conditionsOf(loop),
            (std::vector<C>{C::EveryMicroBatch, C::EveryMicroBatch, C::Boundary}))
      << a.dump();
}

TEST(Events, TrainerMemberFunctions) {
  GL_ANALYSE(a, R"cpp(
class Trainer {
 public:
  Trainer(std::shared_ptr<Net> net, int accum_steps)
      : net_(net), optimizer_(net->parameters(), torch::optim::SGDOptions(0.1)),
        accum_steps_(accum_steps) {}
  void fit(const std::vector<torch::Tensor>& xs) {
    for (int i = 0; i < (int)xs.size(); ++i) {
      micro_step(xs[i]);
      if ((i + 1) % accum_steps_ == 0) {
        this->optimizer_.step();
        optimizer_.zero_grad();
      }
    }
  }
 private:
  void micro_step(const torch::Tensor& x) {
    auto loss = net_->forward(x).sum() / accum_steps_;
    loss.backward();
  }
  std::shared_ptr<Net> net_;
  torch::optim::SGD optimizer_;
  int accum_steps_;
};
)cpp");
  GL_SINGLE_LOOP(loop, a);
  EXPECT_EQ(nameOf(loop.function), "fit");
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  EXPECT_EQ(loop.window->steps.text, "accum_steps_");
  EXPECT_EQ(kindsOf(loop), (std::vector<K>{K::Backward, K::Step, K::GradReset})) << a.dump();
  EXPECT_EQ(conditionsOf(loop), (std::vector<C>{C::EveryMicroBatch, C::Boundary, C::Boundary}));
  const TrainingEvent *backward = onlyEvent(loop, K::Backward);
  ASSERT_NE(backward, nullptr);
  ASSERT_EQ(backward->callChain.size(), 1u);
  EXPECT_EQ(nameOf(backward->callChain[0].callee), "micro_step");
  ASSERT_EQ(backward->scaling.size(), 1u);
  EXPECT_TRUE(backward->scaling[0].isAccumulationSteps);
  const TrainingEvent *step = onlyEvent(loop, K::Step);
  ASSERT_NE(step, nullptr);
  EXPECT_EQ(nameOf(step->optimizer), "optimizer_");
  EXPECT_TRUE(llvm::isa_and_nonnull<clang::FieldDecl>(step->optimizer));
  EXPECT_EQ(step->optimizer, onlyEvent(loop, K::GradReset)->optimizer);
}

TEST(Events, StepFunctionWithMemberCounter) {
  GL_ANALYSE(a, R"cpp(
struct Trainer {
  std::shared_ptr<Net> model_;
  torch::optim::AdamW* opt_;
  int accum_steps_ = 4;
  int micro_ = 0;
  void train_step(const torch::Tensor& x, const torch::Tensor& y) {
    auto loss = torch::mse_loss(model_->forward(x), y) / accum_steps_;
    loss.backward();
    if (++micro_ % accum_steps_ == 0) {
      opt_->step();
      opt_->zero_grad();
    }
  }
};
)cpp");
  GL_SINGLE_LOOP(loop, a);
  EXPECT_EQ(loop.kind, LoopKind::StepFunction);
  EXPECT_EQ(loop.loop, nullptr);
  EXPECT_EQ(nameOf(loop.function), "train_step");
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  EXPECT_EQ(loop.window->guard.form, GuardForm::Modulo);
  EXPECT_EQ(loop.window->steps.text, "accum_steps_");
  EXPECT_EQ(nameOf(loop.window->guard.counter), "micro_");
  EXPECT_TRUE(llvm::isa_and_nonnull<clang::FieldDecl>(loop.window->guard.counter));
  EXPECT_EQ(canonicalResidue(loop.window->guard.residue, std::nullopt), -1);
  EXPECT_EQ(kindsOf(loop), (std::vector<K>{K::LossComputation, K::Backward, K::Step, K::GradReset}))
      << a.dump();
  EXPECT_EQ(conditionsOf(loop),
            (std::vector<C>{C::EveryMicroBatch, C::EveryMicroBatch, C::Boundary, C::Boundary}));
  EXPECT_EQ(nameOf(onlyEvent(loop, K::Step)->optimizer), "opt_");
}

TEST(Events, StepFunctionWithStaticCounterAndEarlyReturn) {
  GL_ANALYSE(a, R"cpp(
void train_step(Net& net, torch::optim::SGD& sgd, const torch::Tensor& x, int k) {
  static int calls = 0;
  auto out = net.forward(x);
  (out.sum() / k).backward();
  if (++calls % k != 0) return;
  sgd.step();
  sgd.zero_grad();
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  EXPECT_EQ(loop.kind, LoopKind::StepFunction);
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  EXPECT_EQ(loop.window->steps.text, "k");
  EXPECT_EQ(nameOf(loop.window->guard.counter), "calls");
  EXPECT_TRUE(loop.window->guard.viaEarlyContinue);
  EXPECT_EQ(conditionsOf(loop), (std::vector<C>{C::EveryMicroBatch, C::Boundary, C::Boundary}))
      << a.dump();
}

TEST(Events, PlainFunctionWithoutCounterIsNotAStepFunction) {
  GL_ANALYSE(a, R"cpp(
void train_step(Net& net, torch::optim::SGD& sgd, const torch::Tensor& x) {
  sgd.zero_grad();
  net.forward(x).sum().backward();
  sgd.step();
}
)cpp");
  EXPECT_TRUE(a.loops().empty()) << a.dump();
}

// ---- all-reduce ----------------------------------------------------------

TEST(AllReduce, DefaultIsSumAndRunsEveryMicroBatch) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, c10::intrusive_ptr<c10d::ProcessGroup> pg,
           std::vector<torch::Tensor>& xs, int accum_steps) {
  for (int i = 0; i < (int)xs.size(); ++i) {
    auto loss = net.forward(xs[i]).sum() / accum_steps;
    loss.backward();
    for (auto& p : net.parameters()) {
      std::vector<torch::Tensor> grads{p.grad()};
      pg->allreduce(grads)->wait();
    }
    if ((i + 1) % accum_steps == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  const TrainingEvent *sync = onlyEvent(loop, K::AllReduce);
  ASSERT_NE(sync, nullptr) << a.dump();
  EXPECT_EQ(sync->reduceOp, ReduceOpKind::Sum);
  EXPECT_EQ(sync->condition, C::EveryMicroBatch);
  EXPECT_EQ(a.pos(sync->loc), a.at("pg->allreduce"));
}

TEST(AllReduce, AverageOptionInBoundary) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, c10::intrusive_ptr<c10d::ProcessGroup> pg,
           std::vector<torch::Tensor>& xs, int accum_steps) {
  for (int i = 0; i < (int)xs.size(); ++i) {
    auto loss = net.forward(xs[i]).sum() / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      std::vector<torch::Tensor> grads;
      for (auto& p : net.parameters()) grads.push_back(p.grad());
      c10d::AllreduceOptions opts;
      opts.reduceOp = c10d::ReduceOp::AVG;
      pg->allreduce(grads, opts)->wait();
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  const TrainingEvent *sync = onlyEvent(loop, K::AllReduce);
  ASSERT_NE(sync, nullptr) << a.dump();
  EXPECT_EQ(sync->reduceOp, ReduceOpKind::Average);
  EXPECT_EQ(sync->condition, C::Boundary);
  EXPECT_LT(sync->order, onlyEvent(loop, K::Step)->order);
}

TEST(AllReduce, LossValueAllReduceIsNotAnEvent) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, c10::intrusive_ptr<c10d::ProcessGroup> pg,
           std::vector<torch::Tensor>& xs, int accum_steps) {
  for (int i = 0; i < (int)xs.size(); ++i) {
    auto loss = net.forward(xs[i]).sum() / accum_steps;
    loss.backward();
    std::vector<torch::Tensor> logged{loss.detach()};
    pg->allreduce(logged)->wait();
    if ((i + 1) % accum_steps == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  EXPECT_TRUE(loop.eventsOf(K::AllReduce).empty()) << a.dump();
}

TEST(AllReduce, GradientSyncHelperReportsAtHelperCall) {
  GL_ANALYSE(a, R"cpp(
void average_gradients(Net& net, c10::intrusive_ptr<c10d::ProcessGroup>& pg) {
  for (auto& p : net.parameters()) {
    std::vector<torch::Tensor> t{p.grad()};
    pg->allreduce(t)->wait();
    p.mutable_grad().div_(pg->getSize());
  }
}
void train(Net& net, torch::optim::SGD& opt, c10::intrusive_ptr<c10d::ProcessGroup> pg,
           std::vector<torch::Tensor>& xs, int accum_steps) {
  for (int i = 0; i < (int)xs.size(); ++i) {
    auto loss = net.forward(xs[i]).sum() / accum_steps;
    loss.backward();
    average_gradients(net, pg);
    if ((i + 1) % accum_steps == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  const TrainingEvent *sync = onlyEvent(loop, K::AllReduce);
  ASSERT_NE(sync, nullptr) << a.dump();
  EXPECT_EQ(sync->condition, C::EveryMicroBatch);
  EXPECT_EQ(sync->reduceOp, ReduceOpKind::Sum);
  ASSERT_EQ(sync->callChain.size(), 1u);
  EXPECT_EQ(nameOf(sync->callChain[0].callee), "average_gradients");
  EXPECT_EQ(a.pos(loop.reportLocation(*sync)), a.at("average_gradients(net, pg)"));
  const TrainingEvent *divide = onlyEvent(loop, K::GradDivide);
  ASSERT_NE(divide, nullptr) << a.dump();
  ASSERT_EQ(divide->scaling.size(), 1u);
  EXPECT_TRUE(divide->scaling[0].isWorldSize);
  EXPECT_FALSE(divide->scaling[0].isAccumulationSteps);
  EXPECT_TRUE(loop.worldSize.known());
}

// ---- templates -----------------------------------------------------------

TEST(Templates, DependentTypesFallBackToNames) {
  GL_ANALYSE(a, R"cpp(
template <typename Optimizer, typename Model, typename Batch>
void train(Optimizer& opt, Model& model, std::vector<Batch>& batches, int accum_steps) {
  for (size_t i = 0; i < batches.size(); ++i) {
    opt.zero_grad();
    auto loss = model.compute_loss(batches[i]);
    loss.backward();
    if ((i + 1) % accum_steps == 0) opt.step();
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  EXPECT_EQ(loop.window->steps.text, "accum_steps");
  EXPECT_EQ(kindsOf(loop), (std::vector<K>{K::GradReset, K::Backward, K::Step})) << a.dump();
  EXPECT_EQ(conditionsOf(loop),
            (std::vector<C>{C::EveryMicroBatch, C::EveryMicroBatch, C::Boundary}));
  EXPECT_EQ(nameOf(onlyEvent(loop, K::Step)->optimizer), "opt");
}

TEST(Templates, DependentLossDivisionIsAScaleFactor) {
  GL_ANALYSE(a, R"cpp(
template <typename Opt, typename Model, typename Batch>
void train(Opt& opt, Model& model, std::vector<Batch>& batches, int accum_steps) {
  for (size_t i = 0; i < batches.size(); ++i) {
    auto loss = model.compute_loss(batches[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  const TrainingEvent *backward = onlyEvent(loop, K::Backward);
  ASSERT_NE(backward, nullptr) << a.dump();
  ASSERT_EQ(backward->scaling.size(), 1u) << a.dump();
  EXPECT_TRUE(backward->scaling[0].isAccumulationSteps);
}

TEST(Templates, OptimizerTemplateWithConcreteTensors) {
  GL_ANALYSE(a, R"cpp(
template <typename Optimizer>
void train(Optimizer& opt, Net& net, std::vector<torch::Tensor>& xs, int accum_steps) {
  for (int i = 0; i < (int)xs.size(); ++i) {
    auto loss = torch::mse_loss(net.forward(xs[i]), xs[i]) / accum_steps;
    loss.backward();
    torch::nn::utils::clip_grad_norm_(net.parameters(), 1.0);
    if ((i + 1) % accum_steps == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  EXPECT_EQ(kindsOf(loop),
            (std::vector<K>{K::LossComputation, K::Backward, K::Clip, K::Step, K::GradReset}))
      << a.dump();
  EXPECT_EQ(onlyEvent(loop, K::Clip)->condition, C::EveryMicroBatch);
}
