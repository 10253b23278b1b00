// parseGuard() on condition expressions, canonicalResidue() and
// SymbolicValue::describe().
#include "ModelTestSupport.h"
#include "model/UserCode.h"

using namespace gradlint;
using namespace gradlint::test;

namespace {

const char *const kConditions = R"cpp(
bool should_step(int it, int every) { return (it + 1) % every == 0; }
void guards(int i, int n, int micro, bool last) {
  if ((i + 1) % n == 0) {}           // 0
  if (i % n == 0) {}                 // 1
  if ((i + 1) % n != 0) {}           // 2
  if (!should_step(i, n)) {}         // 3
  if (i > 0) {}                      // 4
  if (micro >= n) {}                 // 5
  if (i % n == n - 1) {}             // 6
  if ((i + 1) % n == 0 || last) {}   // 7
  if (++micro == n) {}               // 8
  if (i % 4 == 3) {}                 // 9
  const bool sync = 0 == (i + 1) % n;
  if (sync) {}                       // 10
  if (micro == 0) {}                 // 11
  if (last) {}                       // 12
}
)cpp";

class ParseGuard : public ::testing::Test {
protected:
  void SetUp() override {
    analysis_ = std::make_unique<Analysis>(kConditions, /*withTorch=*/false);
    ASSERT_TRUE(analysis_->parsed());
    ifs_ = analysis_->ifStatements();
    ASSERT_EQ(ifs_.size(), 13u);
    facts_ = std::make_unique<ValueFacts>(analysis_->context());
    for (clang::Decl *decl : analysis_->context().getTranslationUnitDecl()->decls())
      if (isUserCode(analysis_->context().getSourceManager(), decl->getLocation()))
        facts_->collectOrigins(decl);
  }

  std::optional<ParsedGuard> parse(unsigned index, bool negated = false) {
    return parseGuard(ifs_.at(index)->getCond(), nullptr, negated, *facts_);
  }
  std::string text(const ResolvedExpr &e) { return facts_->text(facts_->resolve(e).expr); }

  std::unique_ptr<Analysis> analysis_;
  std::vector<const clang::IfStmt *> ifs_;
  std::unique_ptr<ValueFacts> facts_;
};

} // namespace

TEST_F(ParseGuard, BoundaryModulo) {
  auto g = parse(0);
  ASSERT_TRUE(g.has_value());
  EXPECT_TRUE(g->holds);
  EXPECT_EQ(g->pattern.form, GuardForm::Modulo);
  EXPECT_EQ(nameOf(g->pattern.counter), "i");
  EXPECT_EQ(g->pattern.residue, -1);
  EXPECT_EQ(text(g->pattern.steps), "n");
  EXPECT_FALSE(g->pattern.viaFlag || g->pattern.viaHelper || g->pattern.lastBatchExtension);
}

TEST_F(ParseGuard, NegatedBranchDoesNotHold) {
  auto g = parse(0, /*negated=*/true);
  ASSERT_TRUE(g.has_value());
  EXPECT_FALSE(g->holds);
  EXPECT_EQ(g->pattern.residue, -1);
}

TEST_F(ParseGuard, WindowStartResidueZero) {
  auto g = parse(1);
  ASSERT_TRUE(g.has_value());
  EXPECT_TRUE(g->holds);
  EXPECT_EQ(g->pattern.residue, 0);
}

TEST_F(ParseGuard, InequalityDoesNotHold) {
  auto g = parse(2);
  ASSERT_TRUE(g.has_value());
  EXPECT_FALSE(g->holds);
  EXPECT_EQ(g->pattern.residue, -1);
  // ... and in the else branch / after `continue` it holds.
  auto e = parse(2, /*negated=*/true);
  ASSERT_TRUE(e.has_value());
  EXPECT_TRUE(e->holds);
}

TEST_F(ParseGuard, NegatedHelperPredicate) {
  auto g = parse(3);
  ASSERT_TRUE(g.has_value());
  EXPECT_FALSE(g->holds);
  EXPECT_TRUE(g->pattern.viaHelper);
  EXPECT_EQ(nameOf(g->pattern.counter), "i");
  EXPECT_EQ(text(g->pattern.steps), "n");
  EXPECT_EQ(g->pattern.residue, -1);
}

TEST_F(ParseGuard, UnrelatedComparisonIsNotAPattern) {
  EXPECT_FALSE(parse(4).has_value());
  EXPECT_FALSE(parse(12).has_value()) << "a bool parameter says nothing about windows";
}

TEST_F(ParseGuard, CounterAtLeastN) {
  auto g = parse(5);
  ASSERT_TRUE(g.has_value());
  EXPECT_TRUE(g->holds);
  EXPECT_EQ(g->pattern.form, GuardForm::CounterReachesN);
  EXPECT_EQ(nameOf(g->pattern.counter), "micro");
  EXPECT_EQ(text(g->pattern.steps), "n");
}

TEST_F(ParseGuard, NMinusOne) {
  auto g = parse(6);
  ASSERT_TRUE(g.has_value());
  EXPECT_TRUE(g->holds);
  EXPECT_EQ(g->pattern.form, GuardForm::Modulo);
  EXPECT_EQ(g->pattern.residue, -1);
}

TEST_F(ParseGuard, DisjunctionIsLastBatchExtension) {
  auto g = parse(7);
  ASSERT_TRUE(g.has_value());
  EXPECT_TRUE(g->holds);
  EXPECT_EQ(g->pattern.form, GuardForm::Modulo);
  EXPECT_TRUE(g->pattern.lastBatchExtension);
  EXPECT_EQ(g->pattern.residue, -1);
}

TEST_F(ParseGuard, PreIncrementEqualsN) {
  auto g = parse(8);
  ASSERT_TRUE(g.has_value());
  EXPECT_TRUE(g->holds);
  EXPECT_EQ(g->pattern.form, GuardForm::CounterReachesN);
  EXPECT_EQ(nameOf(g->pattern.counter), "micro");
  EXPECT_EQ(text(g->pattern.steps), "n");
  EXPECT_EQ(g->pattern.residue, -1);
}

TEST_F(ParseGuard, ConstantModulus) {
  auto g = parse(9);
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->pattern.residue, 3);
  EXPECT_EQ(facts_->constantInt(g->pattern.steps), std::optional<int64_t>(4));
  EXPECT_EQ(canonicalResidue(g->pattern.residue, 4), canonicalResidue(-1, 4));
}

TEST_F(ParseGuard, BoolFlagWithReversedComparison) {
  auto g = parse(10);
  ASSERT_TRUE(g.has_value());
  EXPECT_TRUE(g->holds);
  EXPECT_TRUE(g->pattern.viaFlag);
  EXPECT_EQ(g->pattern.residue, -1);
  EXPECT_EQ(nameOf(g->pattern.counter), "i");
}

TEST_F(ParseGuard, CounterAtZeroIsWindowStart) {
  auto g = parse(11);
  ASSERT_TRUE(g.has_value());
  EXPECT_TRUE(g->holds);
  EXPECT_EQ(g->pattern.form, GuardForm::CounterReachesN);
  EXPECT_EQ(g->pattern.residue, 0);
  EXPECT_EQ(g->pattern.steps.expr, nullptr);
}

TEST(Residue, Canonical) {
  EXPECT_EQ(canonicalResidue(-1, 4), 3);
  EXPECT_EQ(canonicalResidue(5, 4), 1);
  EXPECT_EQ(canonicalResidue(0, 4), 0);
  EXPECT_EQ(canonicalResidue(-1, std::nullopt), -1);
}

TEST(SymbolicValueTest, Describe) {
  SymbolicValue named;
  named.text = "accum_steps";
  EXPECT_EQ(named.describe(), "accum_steps");
  EXPECT_FALSE(named.known());
  named.constant = 4;
  EXPECT_EQ(named.describe(), "accum_steps = 4");
  EXPECT_TRUE(named.known());
  EXPECT_FALSE(named.provablyOne());
  SymbolicValue literal;
  literal.text = "1";
  literal.constant = 1;
  EXPECT_EQ(literal.describe(), "1");
  EXPECT_TRUE(literal.provablyOne());
  EXPECT_EQ(SymbolicValue().describe(), "N");
}
