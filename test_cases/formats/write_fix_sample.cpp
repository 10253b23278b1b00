// Renders a finding that carries a hand-made fix-it, as SARIF or JSON, for
// formats_tests.py: the fix replaces the first occurrence of <old text> in
// <file> by <new text>, whatever the checks would do there.
// A second finding, without a fix, shows that only fixed findings get one.
//
// usage: write_fix_sample sarif|json <file> <old text> <new text>
#include "driver/output/Output.h"

#include <fstream>
#include <iostream>
#include <sstream>

using namespace gradlint;

namespace {

/// 1-based line and byte column of `offset` in `text`.
void lineAndColumn(const std::string &text, size_t offset, unsigned &line, unsigned &column) {
  line = 1;
  size_t lineStart = 0;
  for (size_t i = 0; i < offset; ++i)
    if (text[i] == '\n') {
      ++line;
      lineStart = i + 1;
    }
  column = static_cast<unsigned>(offset - lineStart + 1);
}

std::string lineText(const std::string &text, size_t offset) {
  size_t start = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  start = (start == std::string::npos || offset == 0) ? 0 : start + 1;
  size_t end = text.find('\n', offset);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 5) {
    std::cerr << "usage: write_fix_sample sarif|json <file> <old text> <new text>\n";
    return 2;
  }
  std::string format = argv[1], file = argv[2], oldText = argv[3], newText = argv[4];
  std::ifstream in(file, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  size_t offset = text.find(oldText);
  if (!in || offset == std::string::npos) {
    std::cerr << file << ": error: cannot read the file or find '" << oldText << "' in it\n";
    return 2;
  }

  TextEdit edit;
  edit.file = file;
  edit.offset = static_cast<unsigned>(offset);
  edit.length = static_cast<unsigned>(oldText.size());
  lineAndColumn(text, offset, edit.line, edit.column);
  lineAndColumn(text, offset + oldText.size(), edit.endLine, edit.endColumn);
  edit.replacement = newText;

  Diagnostic fixed;
  fixed.check = "accum-missing-loss-division";
  fixed.severity = "warning";
  fixed.location = {file, edit.line, edit.column, lineText(text, offset)};
  fixed.message = "loss passed to backward() is not divided by the accumulation steps";
  fixed.fix = FixIt{"divide the loss by the accumulation steps", true, {edit}};

  Diagnostic unfixed = fixed;
  unfixed.check = "accum-misplaced-zero-grad";
  unfixed.message = "a finding without a fix";
  unfixed.fix.reset();

  RunResult result;
  result.diagnostics = {fixed, unfixed};
  result.files = 1;
  if (format == "sarif")
    writeSarif(result, {}, std::cout);
  else
    writeJson(result, std::cout);
  return 0;
}
