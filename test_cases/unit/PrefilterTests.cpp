// The prefilter's scanner (driver/analysis/Prefilter) against Clang's own
// lexer: whatever identifier or #include Clang sees in a text, the scanner
// must see too, however the text spells its line endings, splices and
// digraphs. A miss would skip a file that has a training loop.
#include "driver/analysis/Prefilter.h"
#include "test_cases/support/ClangRawLexer.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

namespace gradlint {
namespace {

using testing::LexedByClang;
using testing::lexWithClang;

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

namespace gradlint {
namespace {
TEST(Prefilter, FuzzFoundSpellings) {
  // What the prefilter fuzzer found, each once missed.
  EXPECT_TRUE(scanSource("2\xffstep").hasStep);       // a number ends at invalid UTF-8
  EXPECT_TRUE(scanSource("opt.step\xff();").hasStep); // so does an identifier
  EXPECT_TRUE(scanSource("R\"\\\r(\"step").hasStep);  // splices are reverted in raw strings
  EXPECT_TRUE(scanSource("R\"\r\"step").hasStep);     // a bad raw string ends at the next quote
  EXPECT_TRUE(scanSource("%:step").hasStep);          // a directive's name is a token
  static const char nuls[] = "\0\0#include \"h.h\"\n";
  EXPECT_EQ(scanSource(llvm::StringRef(nuls, sizeof nuls - 1)).includes.size(), 1u); // NULs: spaces
  EXPECT_FALSE(scanSource("#\n").hasStep);                // an empty directive name
  EXPECT_TRUE(scanSource("7'\x91 R\"\nstep").hasStep);    // ' then non-ASCII: a char literal
  EXPECT_TRUE(scanSource("\xc2\x85R\"\r\"step").unclear); // identifier or raw string?
  EXPECT_TRUE(scanSource("st\\\n\rep").hasStep);          // \n\r is one line ending
  EXPECT_TRUE(scanSource("5$.step").hasStep);             // '$' ends a number
  EXPECT_TRUE(scanSource("%:R\"\n\"step").hasStep);       // #R" starts a raw string
  EXPECT_EQ(scanSource("#include\"a.h\"\n%:import\"\"").includes.size(), 2u); // #include"x"
  EXPECT_TRUE(scanSource("3'$'step").hasStep);         // and is no digit separator's
  EXPECT_TRUE(scanSource("0p+step").hasStep);          // p+ only in a hex float
  EXPECT_TRUE(scanSource("0x1e+step").hasStep);        // e+ not in a hex number (MS mode)
  EXPECT_FALSE(scanSource("1e+step").hasStep);         // but in a decimal one
  EXPECT_TRUE(scanSource("0X'p+step").hasStep);        // a separator's p takes no sign
  EXPECT_TRUE(scanSource("1'e+step").hasStep);         // nor its e
  EXPECT_TRUE(scanSource("#0'z%step").hasStep);        // a line marker's number has separators
  EXPECT_TRUE(scanSource("0Xe-R\"\nstep").unclear);    // e- in a hex number: mode-dependent
  EXPECT_TRUE(scanSource("1p+2").unclear);             // p+ outside a hex float: C++17 only
  EXPECT_FALSE(scanSource("1e+5 0x1p-3").unclear);     // taken in every mode
  EXPECT_TRUE(scanSource("0\xd9\x95's+step").unclear); // a number into non-ASCII
}

// Every program of ours with a training loop, the positive cases and the
// buggy examples, passes the prefilter (is parsed), with the flags the tests
// analyse them with.
TEST(Prefilter, PassesEveryPositiveCaseAndBuggyExample) {
  std::vector<std::string> programs;
  std::error_code error;
  std::string root = GRADLINT_TEST_SOURCE_DIR;
  for (llvm::sys::fs::directory_iterator dir(root + "/test_cases", error), end;
       dir != end && !error; dir.increment(error)) {
    if (!llvm::sys::path::filename(dir->path()).starts_with("accum-"))
      continue;
    std::error_code inner;
    for (llvm::sys::fs::directory_iterator file(dir->path(), inner), last; file != last && !inner;
         file.increment(inner))
      if (llvm::sys::path::filename(file->path()).starts_with("positive_"))
        programs.push_back(file->path());
  }
  for (llvm::sys::fs::directory_iterator file(root + "/examples", error), last;
       file != last && !error; file.increment(error))
    if (llvm::StringRef(file->path()).ends_with("_buggy.cpp"))
      programs.push_back(file->path());
  ASSERT_GT(programs.size(), 100u) << "the cases were not found under " << root;
  Prefilter prefilter;
  for (const std::string &program : programs) {
    auto text = llvm::MemoryBuffer::getFile(program);
    ASSERT_TRUE(bool(text)) << program;
    EXPECT_TRUE(prefilter.mayContainTrainingLoop(program, (*text)->getBuffer(), {"-std=c++17"},
                                                 llvm::sys::path::parent_path(program).str()))
        << program << " would be skipped";
  }
}

} // namespace
} // namespace gradlint
