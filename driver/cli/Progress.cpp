#include "driver/cli/Progress.h"

#include "llvm/Support/Process.h"

#include <cstdlib>
#include <cstring>
#include <iostream>

namespace gradlint {

Progress::Progress(size_t total, bool enabled) : total_(total), enabled_(enabled) {}

Progress::~Progress() {
  if (enabled_)
    std::cerr << "\r\033[K" << std::flush; // erase the line: the report follows clean
}

void Progress::started(const std::string &file) {
  if (!enabled_)
    return;
  std::lock_guard<std::mutex> lock(mutex_);
  draw(file);
}

void Progress::finished() {
  if (!enabled_)
    return;
  std::lock_guard<std::mutex> lock(mutex_);
  ++done_;
}

void Progress::draw(const std::string &file) {
  std::string line = "[" + std::to_string(done_) + "/" + std::to_string(total_) + "] " + file;
  unsigned width = llvm::sys::Process::StandardErrColumns();
  if (width > 1 && line.size() >= width)
    line = line.substr(0, width - 1); // one physical line, so \r can rewrite it
  std::cerr << "\r\033[K" << line << std::flush;
}

bool progressWanted(size_t files) {
  const char *term = std::getenv("TERM");
  return files > 1 && llvm::sys::Process::StandardErrIsDisplayed() &&
         !(term && std::strcmp(term, "dumb") == 0);
}

} // namespace gradlint
