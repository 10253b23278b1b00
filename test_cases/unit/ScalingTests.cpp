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
