// A progress line for multi-file runs on a terminal:
//   [3/20] src/trainer.cpp
// rewritten in place on stderr and erased at the end. Nothing at all when
// stderr is not a terminal (CI logs, pipes) or for a single file.
#pragma once

#include <mutex>
#include <string>

namespace gradlint {

class Progress {
public:
  Progress(size_t total, bool enabled);
  ~Progress();
  void started(const std::string &file);
  void finished();

private:
  void draw(const std::string &file);
  size_t total_, done_ = 0;
  bool enabled_;
  std::mutex mutex_;
};

/// Whether progress should be shown: stderr is a terminal and TERM is not "dumb".
bool progressWanted(size_t files);

} // namespace gradlint
