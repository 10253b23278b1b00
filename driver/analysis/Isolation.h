// Crash isolation: each translation unit is analysed in a child process, so
// that a crash or a hang inside Clang or the model costs that file only. The
// child is a fork of this process (no start-up to pay), or, where the loops
// may run on a GPU, this same executable re-run with hidden flags (a CUDA
// context does not survive a fork).
#pragma once

#include "driver/analysis/Analyzer.h"

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace gradlint {

/// What the hidden flags ask of this process when it is an isolated child.
struct ChildRequest {
  bool active = false;
  std::string file;  ///< the one file to analyse, as the user wrote it
  int resultFd = -1; ///< where the encoded FileAnalysis goes
  long parentPid = 0;
  std::string command; ///< the file's compile command (encodeCommand), if the parent sent it
};

/// Removes the hidden child flags from `args` (argv) and returns them.
ChildRequest takeChildRequest(std::vector<const char *> &args);

/// Runs `analyse` on a thread with a 512 MiB stack (Clang's parser recurses
/// once per nesting level) and waits for it.
FileAnalysis analyseOnLargeStack(const std::function<FileAnalysis()> &analyse);

/// Child side: runs `analyse` (on a thread with a large stack) and writes its
/// result to the parent. With `memoryLimitMiB` (0: none), the process's
/// address space (RLIMIT_AS) is limited to that while it analyses; running
/// out of memory exits with a status the parent reports as the limit.
/// Returns the process's exit status.
int serveChild(const ChildRequest &child, uint64_t memoryLimitMiB,
               const std::function<FileAnalysis()> &analyse);

/// How the parent runs the analyses.
struct IsolationSettings {
  bool enabled = true;         ///< false: in this process (--no-isolation)
  double timeoutSeconds = 0;   ///< per file (--timeout); 0 means none
  uint64_t memoryLimitMiB = 0; ///< per file (--memory-limit), for the error message; 0: none
  /// Start each child as a new process (exec) instead of a fork; the CLI
  /// does so when the children run loops (--confirm, --emit-runs), which may
  /// create a CUDA context.
  bool freshProcess = false;
};

/// Runs `analyse` in a forked child of this process (its state as it is, no
/// exec), under `settings`' time and memory limits; a crash, a time-out or a
/// memory overrun becomes the file's error (FileAnalysis::analysisFailed).
/// For the language server, which keeps running: only the calling thread
/// exists in the child, which touches neither stdin nor stdout.
FileAnalysis analyseInForkedChild(const std::string &file, const IsolationSettings &settings,
                                  const std::function<FileAnalysis()> &analyse);

/// Held around each fork() of analyseInForkedChild: a thread that changes
/// state a child will use (a mutex it would lock) holds it too, so that no
/// child starts with that mutex locked by a thread it does not have.
std::mutex &forkMutex();

/// Parent side: analyses files in children, or in-process with --no-isolation.
class Isolator {
public:
  /// `argv` is this process's command line, as main received it. `cache`:
  /// the preamble cache the analyses use (none: nullptr); a forked child
  /// reports what it did with it, and the prefixes that failed to build are
  /// remembered here for the next children.
  Isolator(int argc, char **argv, const IsolationSettings &settings, PreambleCache *cache);

  /// `inProcess` is the analysis itself, run here when isolation is off and
  /// in a forked child otherwise. `command` (encodeCommand) goes to a fresh
  /// child process, so that it need not look it up. The caller holds no
  /// lock that the analysis takes (forkMutex() included).
  FileAnalysis analyse(const std::string &file, const std::function<FileAnalysis()> &inProcess,
                       const std::string &command = "");

private:
  FileAnalysis analyseInFreshProcess(const std::string &file, const std::string &command);

  std::string executable_;
  std::vector<std::string> arguments_; ///< argv[1..]
  IsolationSettings settings_;
  PreambleCache *cache_;
};

} // namespace gradlint
