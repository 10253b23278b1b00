// Accumulation windows: every boundary-guard form of docs/specification.md ("Words").
#include "ModelTestSupport.h"

#include "clang/AST/StmtCXX.h"

using namespace gradlint;
using namespace gradlint::test;

namespace {

/// Checks the flags of a window guard in one go.
struct Flags {
  bool viaEarlyContinue = false;
  bool viaFlag = false;
  bool viaHelper = false;
  bool lastBatchExtension = false;
};

void expectFlags(const BoundaryGuard &guard, Flags expected) {
  EXPECT_EQ(guard.viaEarlyContinue, expected.viaEarlyContinue) << "viaEarlyContinue";
  EXPECT_EQ(guard.viaFlag, expected.viaFlag) << "viaFlag";
  EXPECT_EQ(guard.viaHelper, expected.viaHelper) << "viaHelper";
  EXPECT_EQ(guard.lastBatchExtension, expected.lastBatchExtension) << "lastBatchExtension";
}

} // namespace

TEST(Window, ModuloPlusOneGuard) {
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
  EXPECT_EQ(loop.kind, LoopKind::Loop);
  EXPECT_EQ(nameOf(loop.function), "train");
  EXPECT_EQ(a.pos(loop.loc), a.at("for (int i"));
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  const AccumulationWindow &w = *loop.window;
  EXPECT_EQ(w.guard.form, GuardForm::Modulo);
  EXPECT_EQ(w.steps.text, "accum_steps");
  EXPECT_FALSE(w.steps.constant.has_value());
  EXPECT_EQ(nameOf(w.guard.counter), "i");
  EXPECT_EQ(canonicalResidue(w.guard.residue, std::nullopt), -1);
  EXPECT_NE(w.guard.condition, nullptr);
  EXPECT_EQ(a.pos(w.guard.loc), a.at("(i + 1) % accum_steps"));
  expectFlags(w.guard, {});
}

TEST(Window, ModuloEqualsNMinusOneWithConstantN) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::Adam& adam, std::vector<torch::Tensor>& xs) {
  const int gas = 4;
  for (int i = 0; i < 100; ++i) {
    auto out = net.forward(xs[i]);
    (out.sum() / gas).backward();
    if (i % gas == gas - 1) {
      adam.step();
      adam.zero_grad();
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  const AccumulationWindow &w = *loop.window;
  EXPECT_EQ(w.guard.form, GuardForm::Modulo);
  EXPECT_EQ(w.steps.text, "gas");
  ASSERT_TRUE(w.steps.constant.has_value());
  EXPECT_EQ(*w.steps.constant, 4);
  EXPECT_EQ(w.steps.describe(), "gas = 4");
  EXPECT_EQ(canonicalResidue(w.guard.residue, w.steps.constant), 3);
  EXPECT_EQ(nameOf(w.guard.counter), "i");
  expectFlags(w.guard, {});
}

TEST(Window, ModuloEqualsNMinusOneSymbolic) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& sgd, std::vector<torch::Tensor>& xs, int k) {
  for (int it = 0; it < (int)xs.size(); ++it) {
    auto l = net.forward(xs[it]).pow(2).mean() / k;
    l.backward();
    if (it % k == k - 1) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  EXPECT_EQ(loop.window->guard.form, GuardForm::Modulo);
  EXPECT_EQ(loop.window->steps.text, "k");
  EXPECT_EQ(loop.window->guard.residue, -1) << "i % N == N - 1 is residue N - 1";
  EXPECT_EQ(nameOf(loop.window->guard.counter), "it");
}

TEST(Window, ReversedComparisonWithConfigField) {
  GL_ANALYSE(a, R"cpp(
struct Config { int accum_steps = 8; double lr = 0.1; };
void train(Net& net, torch::optim::SGD& opt, const Config& cfg,
           std::vector<torch::Tensor>& xs, std::vector<torch::Tensor>& ys) {
  for (int step = 0; step < (int)xs.size(); ++step) {
    auto loss = torch::mse_loss(net.forward(xs[step]), ys[step]) / cfg.accum_steps;
    loss.backward();
    if (0 == (step + 1) % cfg.accum_steps) {
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  EXPECT_EQ(loop.window->guard.form, GuardForm::Modulo);
  EXPECT_EQ(loop.window->steps.text, "cfg.accum_steps");
  EXPECT_EQ(nameOf(loop.window->guard.counter), "step");
  EXPECT_EQ(loop.window->guard.residue, -1);
  expectFlags(loop.window->guard, {});
}

TEST(Window, CounterReachesN) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& batches,
           int accum_steps) {
  int micro = 0;
  for (auto& batch : batches) {
    auto loss = net.forward(batch).sum() / accum_steps;
    loss.backward();
    if (++micro == accum_steps) {
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
  EXPECT_EQ(loop.window->steps.text, "accum_steps");
  EXPECT_EQ(nameOf(loop.window->guard.counter), "micro");
  expectFlags(loop.window->guard, {});
  const TrainingEvent *step = onlyEvent(loop, EventKind::Step);
  ASSERT_NE(step, nullptr) << a.dump();
  EXPECT_EQ(step->condition, EventCondition::Boundary);
}

TEST(Window, EarlyContinue) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs, int accum_steps) {
  for (int i = 0; i < (int)xs.size(); ++i) {
    auto loss = net.forward(xs[i]).sum() / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps != 0) continue;
    opt.step();
    opt.zero_grad();
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  EXPECT_EQ(loop.window->guard.form, GuardForm::Modulo);
  EXPECT_EQ(loop.window->steps.text, "accum_steps");
  EXPECT_EQ(loop.window->guard.residue, -1);
  expectFlags(loop.window->guard, {/*viaEarlyContinue=*/true});
  EXPECT_EQ(kindsOf(loop),
            (std::vector<EventKind>{EventKind::Backward, EventKind::Step, EventKind::GradReset}));
  EXPECT_EQ(conditionsOf(loop),
            (std::vector<EventCondition>{EventCondition::EveryMicroBatch, EventCondition::Boundary,
                                         EventCondition::Boundary}));
}

// `if ((i + 1) % N) continue;` is the same guard with an implicit int -> bool.
TEST(Window, EarlyContinueOnImplicitBoolModulo) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs, int accum_steps) {
  for (int i = 0; i < (int)xs.size(); ++i) {
    auto loss = net.forward(xs[i]).sum() / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps) continue;
    opt.step();
    opt.zero_grad();
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  EXPECT_EQ(loop.window->guard.form, GuardForm::Modulo);
  EXPECT_EQ(loop.window->guard.residue, -1);
  expectFlags(loop.window->guard, {/*viaEarlyContinue=*/true});
  const TrainingEvent *step = onlyEvent(loop, EventKind::Step);
  ASSERT_NE(step, nullptr) << a.dump();
  EXPECT_EQ(step->condition, EventCondition::Boundary);
}

TEST(Window, BoolFlag) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs, int accum_steps) {
  for (int i = 0; i < (int)xs.size(); ++i) {
    const bool sync = (i + 1) % accum_steps == 0;
    auto loss = net.forward(xs[i]).sum() / accum_steps;
    loss.backward();
    if (sync) {
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  EXPECT_EQ(loop.window->guard.form, GuardForm::Modulo);
  EXPECT_EQ(loop.window->steps.text, "accum_steps");
  EXPECT_EQ(nameOf(loop.window->guard.counter), "i");
  expectFlags(loop.window->guard, {false, /*viaFlag=*/true});
}

// `if (!boundary) continue;` with a flag: both viaFlag and viaEarlyContinue.
TEST(Window, BoolFlagEarlyContinue) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs, int accum_steps) {
  for (int i = 0; i < (int)xs.size(); ++i) {
    bool boundary = (i + 1) % accum_steps == 0;
    auto loss = net.forward(xs[i]).sum() / accum_steps;
    loss.backward();
    if (!boundary) continue;
    opt.step();
    opt.zero_grad();
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  EXPECT_EQ(loop.window->steps.text, "accum_steps");
  expectFlags(loop.window->guard, {/*viaEarlyContinue=*/true, /*viaFlag=*/true});
  EXPECT_EQ(conditionsOf(loop),
            (std::vector<EventCondition>{EventCondition::EveryMicroBatch, EventCondition::Boundary,
                                         EventCondition::Boundary}))
      << a.dump();
}

TEST(Window, HelperPredicateResolvesCallerArguments) {
  GL_ANALYSE(a, R"cpp(
bool should_step(int it, int every) { return (it + 1) % every == 0; }
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs, int accum_steps) {
  for (int batch_idx = 0; batch_idx < (int)xs.size(); ++batch_idx) {
    auto loss = net.forward(xs[batch_idx]).sum() / accum_steps;
    loss.backward();
    if (should_step(batch_idx, accum_steps)) {
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  const AccumulationWindow &w = *loop.window;
  EXPECT_EQ(w.guard.form, GuardForm::Modulo);
  EXPECT_EQ(w.steps.text, "accum_steps") << "N is the caller's argument, not `every`";
  EXPECT_EQ(nameOf(w.guard.counter), "batch_idx") << "the counter is the caller's argument";
  EXPECT_EQ(w.guard.residue, -1);
  expectFlags(w.guard, {false, false, /*viaHelper=*/true});
  // The scaling `loss / accum_steps` is recognised as dividing by that N.
  const TrainingEvent *backward = onlyEvent(loop, EventKind::Backward);
  ASSERT_NE(backward, nullptr);
  ASSERT_EQ(backward->scaling.size(), 1u) << a.dump();
  EXPECT_TRUE(backward->scaling[0].isAccumulationSteps);
}

TEST(Window, LastBatchExtension) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs, int accum_steps) {
  const int num_batches = (int)xs.size();
  for (int i = 0; i < num_batches; ++i) {
    auto loss = net.forward(xs[i]).sum() / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0 || i + 1 == num_batches) {
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  EXPECT_EQ(loop.window->guard.form, GuardForm::Modulo);
  EXPECT_EQ(loop.window->steps.text, "accum_steps");
  EXPECT_EQ(nameOf(loop.window->guard.counter), "i");
  expectFlags(loop.window->guard, {false, false, false, /*lastBatchExtension=*/true});
  const TrainingEvent *step = onlyEvent(loop, EventKind::Step);
  ASSERT_NE(step, nullptr);
  EXPECT_EQ(step->condition, EventCondition::Boundary);
}

TEST(Window, FlagWithLastBatchExtension) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::AdamW& opt, std::vector<torch::Tensor>& xs, int gas) {
  for (size_t i = 0; i < xs.size(); ++i) {
    (net.forward(xs[i]).sum() / gas).backward();
    const bool do_step = (i + 1) % gas == 0 || i + 1 == xs.size();
    if (do_step) {
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  EXPECT_EQ(loop.window->guard.form, GuardForm::Modulo);
  EXPECT_EQ(loop.window->steps.text, "gas");
  expectFlags(loop.window->guard, {false, /*viaFlag=*/true, false, /*lastBatchExtension=*/true});
}

TEST(Window, ConstantOneIsNoWindow) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs) {
  const int k = 1;
  for (int i = 0; i < (int)xs.size(); ++i) {
    auto loss = net.forward(xs[i]).sum();
    loss.backward();
    if ((i + 1) % k == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  EXPECT_FALSE(loop.hasWindow()) << a.dump();
  if (loop.window)
    EXPECT_TRUE(loop.window->steps.provablyOne());
}

TEST(Window, StepEveryIterationIsNoWindow) {
  GL_ANALYSE(a, R"cpp(
void train(std::shared_ptr<Net> model, torch::optim::SGD& optimizer,
           std::vector<torch::Tensor>& data, std::vector<torch::Tensor>& target) {
  for (size_t batch = 0; batch < data.size(); ++batch) {
    optimizer.zero_grad();
    auto output = model->forward(data[batch]);
    auto loss = torch::nll_loss(output, target[batch]);
    loss.backward();
    optimizer.step();
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  EXPECT_FALSE(loop.window.has_value()) << a.dump();
  EXPECT_FALSE(loop.hasWindow());
  EXPECT_EQ(kindsOf(loop), (std::vector<EventKind>{EventKind::GradReset, EventKind::LossComputation,
                                                   EventKind::Backward, EventKind::Step}));
  for (const TrainingEvent &event : loop.events)
    EXPECT_EQ(event.condition, EventCondition::EveryMicroBatch);
}

TEST(Window, NestedLoopOverChunks) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& batches,
           std::vector<torch::Tensor>& targets, int num_chunks) {
  for (size_t b = 0; b < batches.size(); ++b) {
    opt.zero_grad();
    for (int c = 0; c < num_chunks; ++c) {
      auto x = batches[b].narrow(0, c, 1);
      auto loss = torch::mse_loss(net.forward(x), targets[b].narrow(0, c, 1)) / num_chunks;
      loss.backward();
    }
    opt.step();
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  const AccumulationWindow &w = *loop.window;
  EXPECT_EQ(w.guard.form, GuardForm::NestedLoop);
  EXPECT_EQ(w.steps.text, "num_chunks");
  ASSERT_NE(w.guard.innerLoop, nullptr);
  EXPECT_EQ(a.pos(w.guard.innerLoop->getBeginLoc()), a.at("for (int c"));
  EXPECT_EQ(a.pos(loop.loc), a.at("for (size_t b"));

  EXPECT_EQ(kindsOf(loop), (std::vector<EventKind>{EventKind::GradReset, EventKind::LossComputation,
                                                   EventKind::Backward, EventKind::Step}));
  EXPECT_EQ(conditionsOf(loop), (std::vector<EventCondition>{
                                    EventCondition::WindowStart, EventCondition::EveryMicroBatch,
                                    EventCondition::EveryMicroBatch, EventCondition::Boundary}));
  const TrainingEvent *backward = onlyEvent(loop, EventKind::Backward);
  ASSERT_NE(backward, nullptr);
  EXPECT_TRUE(backward->insideInnerLoop);
  EXPECT_FALSE(onlyEvent(loop, EventKind::Step)->insideInnerLoop);
  ASSERT_EQ(backward->scaling.size(), 1u) << a.dump();
  EXPECT_TRUE(backward->scaling[0].isAccumulationSteps);
}

TEST(Window, NestedRangeForOverChunkCall) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& batches) {
  for (auto& batch : batches) {
    for (auto& part : batch.chunk(4)) {
      auto loss = net.forward(part).sum() / 4;
      loss.backward();
    }
    opt.step();
    opt.zero_grad();
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  EXPECT_EQ(loop.window->guard.form, GuardForm::NestedLoop);
  ASSERT_TRUE(loop.window->steps.constant.has_value()) << a.dump();
  EXPECT_EQ(*loop.window->steps.constant, 4);
  EXPECT_EQ(conditionsOf(loop),
            (std::vector<EventCondition>{EventCondition::EveryMicroBatch, EventCondition::Boundary,
                                         EventCondition::Boundary}));
  const TrainingEvent *backward = onlyEvent(loop, EventKind::Backward);
  ASSERT_NE(backward, nullptr);
  ASSERT_EQ(backward->scaling.size(), 1u) << a.dump();
  EXPECT_TRUE(backward->scaling[0].isAccumulationSteps);
}

// The boundary guard lives in a helper; N is the helper's parameter, bound
// to the caller's `accum_steps`.
TEST(Window, GuardInHelperResolvesParameterToCallerArgument) {
  GL_ANALYSE(a, R"cpp(
void maybe_step(torch::optim::Optimizer& o, int it, int every) {
  if ((it + 1) % every == 0) {
    o.step();
    o.zero_grad();
  }
}
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs, int accum_steps) {
  for (int i = 0; i < (int)xs.size(); ++i) {
    auto loss = net.forward(xs[i]).sum() / accum_steps;
    loss.backward();
    maybe_step(opt, i, accum_steps);
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  EXPECT_EQ(loop.window->steps.text, "accum_steps");
  EXPECT_EQ(nameOf(loop.window->guard.counter), "i");
  EXPECT_EQ(loop.window->guard.residue, -1);
  const TrainingEvent *step = onlyEvent(loop, EventKind::Step);
  ASSERT_NE(step, nullptr) << a.dump();
  EXPECT_EQ(step->condition, EventCondition::Boundary);
  ASSERT_EQ(step->callChain.size(), 1u);
  EXPECT_EQ(nameOf(step->callChain[0].callee), "maybe_step");
  EXPECT_EQ(nameOf(step->optimizer), "opt") << "the optimizer is the caller's argument";
  // The helper runs step(): a reset in it is reported at the reset itself.
  const TrainingEvent *reset = onlyEvent(loop, EventKind::GradReset);
  ASSERT_NE(reset, nullptr);
  EXPECT_EQ(reset->condition, EventCondition::Boundary);
  EXPECT_EQ(a.pos(loop.reportLocation(*reset)), a.at("o.zero_grad"));
  // The backward's factor divides by the same N.
  const TrainingEvent *backward = onlyEvent(loop, EventKind::Backward);
  ASSERT_NE(backward, nullptr);
  ASSERT_EQ(backward->scaling.size(), 1u);
  EXPECT_TRUE(backward->scaling[0].isAccumulationSteps);
}

TEST(Window, WhileLoopWithCounterIncrementedBeforeGuard) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs, int gas) {
  int seen = 0;
  size_t pos = 0;
  while (pos < xs.size()) {
    auto loss = net.forward(xs[pos++]).sum() / gas;
    loss.backward();
    ++seen;
    if (seen % gas == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  EXPECT_NE(llvm::dyn_cast_or_null<clang::WhileStmt>(loop.loop), nullptr);
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  EXPECT_EQ(loop.window->guard.form, GuardForm::Modulo);
  EXPECT_EQ(loop.window->steps.text, "gas");
  EXPECT_EQ(nameOf(loop.window->guard.counter), "seen");
  EXPECT_EQ(loop.window->guard.residue, 0);
}

TEST(Window, DoWhileLoopCounter) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& xs, int n) {
  int micro = 0;
  size_t k = 0;
  do {
    auto loss = net.forward(xs[k]).sum() / n;
    loss.backward();
    if (++micro >= n) {
      opt.step();
      opt.zero_grad();
      micro = 0;
    }
  } while (++k < xs.size());
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  EXPECT_NE(llvm::dyn_cast_or_null<clang::DoStmt>(loop.loop), nullptr);
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  EXPECT_EQ(loop.window->guard.form, GuardForm::CounterReachesN);
  EXPECT_EQ(loop.window->steps.text, "n");
  EXPECT_EQ(nameOf(loop.window->guard.counter), "micro");
}

TEST(Window, RangeForWithSeparateCounterAndEarlyContinue) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& loader, int accum_steps) {
  int step = 0;
  for (auto& batch : loader) {
    auto loss = net.forward(batch).sum() / accum_steps;
    loss.backward();
    if (++step % accum_steps != 0) continue;
    opt.step();
    opt.zero_grad();
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  EXPECT_NE(llvm::dyn_cast_or_null<clang::CXXForRangeStmt>(loop.loop), nullptr);
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  EXPECT_EQ(loop.window->guard.form, GuardForm::Modulo);
  EXPECT_EQ(nameOf(loop.window->guard.counter), "step");
  EXPECT_EQ(loop.window->guard.residue, -1);
  expectFlags(loop.window->guard, {/*viaEarlyContinue=*/true});
}

TEST(Window, StepFunctionWithStateStruct) {
  GL_ANALYSE(a, R"cpp(
struct AccumState { int micro = 0; int k = 8; };
void on_batch(AccumState& st, Net& net, torch::optim::SGD& opt, const torch::Tensor& x) {
  auto loss = net.forward(x).sum() / st.k;
  loss.backward();
  if (++st.micro == st.k) {
    opt.step();
    opt.zero_grad();
    st.micro = 0;
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  EXPECT_EQ(loop.kind, LoopKind::StepFunction);
  EXPECT_EQ(nameOf(loop.function), "on_batch");
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  EXPECT_EQ(loop.window->guard.form, GuardForm::CounterReachesN);
  EXPECT_EQ(loop.window->steps.text, "st.k");
  EXPECT_EQ(nameOf(loop.window->guard.counter), "micro");
  const TrainingEvent *backward = onlyEvent(loop, EventKind::Backward);
  ASSERT_NE(backward, nullptr);
  ASSERT_EQ(backward->scaling.size(), 1u) << a.dump();
  EXPECT_TRUE(backward->scaling[0].isAccumulationSteps);
}

TEST(Window, NestedWindowResetInsideInnerLoop) {
  GL_ANALYSE(a, R"cpp(
void train(Net& net, torch::optim::SGD& opt, std::vector<torch::Tensor>& batches, int micro) {
  for (auto& batch : batches) {
    for (auto& part : torch::chunk(batch, micro)) {
      opt.zero_grad();
      (net.forward(part).sum() / micro).backward();
    }
    opt.step();
  }
}
)cpp");
  GL_SINGLE_LOOP(loop, a);
  ASSERT_TRUE(loop.hasWindow()) << a.dump();
  EXPECT_EQ(loop.window->guard.form, GuardForm::NestedLoop);
  EXPECT_EQ(loop.window->steps.text, "micro");
  EXPECT_EQ(kindsOf(loop),
            (std::vector<EventKind>{EventKind::GradReset, EventKind::Backward, EventKind::Step}))
      << a.dump();
  const TrainingEvent *reset = onlyEvent(loop, EventKind::GradReset);
  ASSERT_NE(reset, nullptr);
  EXPECT_TRUE(reset->insideInnerLoop);
  EXPECT_EQ(reset->condition, EventCondition::EveryMicroBatch);
  EXPECT_EQ(onlyEvent(loop, EventKind::Step)->condition, EventCondition::Boundary);
}
