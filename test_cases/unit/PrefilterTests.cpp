// The prefilter's scanner (driver/analysis/Prefilter) against Clang's own
// lexer: whatever identifier or #include Clang sees in a text, the scanner
// must see too, however the text spells its line endings, splices and
// digraphs. A miss would skip a file that has a training loop.
#include "driver/analysis/Prefilter.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>

namespace gradlint {
namespace {

struct LexedByClang {
  std::set<std::string> identifiers;
  std::set<std::string> quotedIncludes;
};

/// Identifiers (spelled after splicing) and `#include "x"` names, as Clang's
/// raw lexer reads `text` (C++17, no trigraphs).
LexedByClang lexWithClang(const std::string &text) {
  clang::SourceManagerForFile file("input.cpp", text);
  clang::SourceManager &sources = file.get();
  clang::LangOptions options;
  options.CPlusPlus = options.CPlusPlus11 = options.CPlusPlus14 = options.CPlusPlus17 = true;
  options.Digraphs = true;
  clang::Lexer lexer(sources.getMainFileID(), sources.getBufferOrFake(sources.getMainFileID()),
                     sources, options);
  LexedByClang out;
  clang::Token token, previous, beforePrevious;
  bool directiveStart = false, includeDirective = false;
  while (!lexer.LexFromRawLexer(token)) {
    std::string spelling = clang::Lexer::getSpelling(token, sources, options);
    if (token.is(clang::tok::raw_identifier))
      out.identifiers.insert(spelling);
    if (token.isAtStartOfLine())
      directiveStart = includeDirective = false;
    if (token.is(clang::tok::hash) && token.isAtStartOfLine()) {
      directiveStart = true;
    } else if (directiveStart && token.is(clang::tok::raw_identifier) && spelling == "include") {
      includeDirective = true;
      directiveStart = false;
    } else if (includeDirective && token.is(clang::tok::string_literal)) {
      out.quotedIncludes.insert(spelling.substr(1, spelling.size() - 2));
      includeDirective = false;
    } else {
      directiveStart = includeDirective = false;
    }
  }
  if (token.is(clang::tok::raw_identifier))
    out.identifiers.insert(clang::Lexer::getSpelling(token, sources, options));
  return out;
}

std::set<std::string> quotedIncludesOf(const ScannedFile &scan) {
  std::set<std::string> names;
  for (const ScannedFile::Include &include : scan.includes)
    if (!include.angled)
      names.insert(include.name);
  return names;
}

const char *const kSeeds[] = {
    R"(#include "trainer.h"
#include <torch/torch.h>
void train(torch::optim::SGD &opt, torch::Tensor loss) {
  // calls step() below
  loss.backward();
  /* "step" */ opt.step();
}
)",
    R"(#define RUN(o) o.step()
  #  include "nested/helper.hpp"
const char *s = "backward";
void f(Model &m) { auto l = m.loss(); l.backward(); RUN(m.opt); }
)",
    R"(%:include "digraph.h"
auto r = R"x(step)x"; int backward = 1'000; // step
template <class T> void go(T &t) { t.step(); }
)",
};

/// A variant of `seed` as other editors and generators write it: its line
/// endings CRLF or CR (or mixed), and splices at random places.
std::string variantOf(const std::string &seed, std::mt19937 &random) {
  std::string out;
  int lineEndings = random() % 4; // LF, CRLF, CR, mixed
  const char *const splices[] = {"\\\n", "\\\r\n", "\\ \n", "\\\t\r"};
  for (char c : seed) {
    if (c == '\n') {
      int style = lineEndings == 3 ? random() % 3 : lineEndings;
      out += style == 0 ? "\n" : style == 1 ? "\r\n" : "\r";
      continue;
    }
    out += c;
    if (random() % 9 == 0)
      out += splices[random() % 4];
  }
  return out;
}

TEST(Prefilter, SeesEveryIdentifierAndIncludeClangSees) {
  std::mt19937 random(20261202);
  int variants = 0;
  for (const char *seed : kSeeds)
    for (int round = 0; round < 400; ++round, ++variants) {
      std::string text = variantOf(seed, random);
      LexedByClang clang = lexWithClang(text);
      ScannedFile scan = scanSource(text);
      if (clang.identifiers.count("step"))
        EXPECT_TRUE(scan.hasStep) << "missed `step` in:\n" << text;
      if (clang.identifiers.count("backward"))
        EXPECT_TRUE(scan.hasBackward) << "missed `backward` in:\n" << text;
      std::set<std::string> seen = quotedIncludesOf(scan);
      for (const std::string &include : clang.quotedIncludes)
        EXPECT_TRUE(seen.count(include) || scan.computedInclude)
            << "missed #include \"" << include << "\" in:\n"
            << text;
    }
  EXPECT_EQ(variants, 1200);
}

// The oracle itself can fail: a splice inside `step` is an identifier to Clang.
TEST(Prefilter, ClangJoinsASplicedIdentifier) {
  EXPECT_TRUE(lexWithClang("opt.st\\\nep();").identifiers.count("step"));
  EXPECT_FALSE(lexWithClang("opt.st ep();").identifiers.count("step"));
}

TEST(Prefilter, CarriageReturnOnlyLineEndings) {
  ScannedFile scan = scanSource("// a comment\rloss.backward();\ropt.step();\r");
  EXPECT_TRUE(scan.hasStep);
  EXPECT_TRUE(scan.hasBackward);
  EXPECT_EQ(quotedIncludesOf(scanSource("// x\r#include \"a.h\"\r")), std::set<std::string>{"a.h"});
}

TEST(Prefilter, SplicesWithSpaceAndTrigraphs) {
  EXPECT_TRUE(scanSource("l.back\\  \nward();").hasBackward);
  // With trigraphs on (-std=c++14), ??/ is a backslash: a splice.
  EXPECT_TRUE(scanSource("opt.st?\?/\nep();").hasStep);
  // With them off, the comment ends at the line: either reading counts.
  EXPECT_TRUE(scanSource("// ?\?/\nopt.step();").hasStep);
  EXPECT_EQ(quotedIncludesOf(scanSource("?\?=include \"t.h\"\n")), std::set<std::string>{"t.h"});
}

TEST(Prefilter, CommentsAndLiteralsStillDoNotCount) {
  ScannedFile scan = scanSource("// step\r/* backward */ const char *s = \"st\\\nep\";\r");
  EXPECT_FALSE(scan.hasStep);
  EXPECT_FALSE(scan.hasBackward);
}

TEST(Prefilter, PastablePieces) {
  // CAT(back, ward)() with `#define CAT(a, b) a##b` in any header.
  ScannedFile scan = scanSource("CAT(back, ward)(); CAT3(s, te, p)();");
  EXPECT_FALSE(scan.hasBackward);
  EXPECT_TRUE(pastable("backward", scan.backwardPieces));
  EXPECT_TRUE(pastable("step", scan.stepPieces));
  // Pieces that cover only part of the word do not.
  ScannedFile partial = scanSource("int b, a, c, k; int back, war;");
  EXPECT_FALSE(pastable("backward", partial.backwardPieces));
  EXPECT_FALSE(pastable("step", scanSource("int st, e;").stepPieces));
}

} // namespace
} // namespace gradlint
