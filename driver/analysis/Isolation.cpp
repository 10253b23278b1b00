#include "driver/analysis/Isolation.h"

#include "driver/analysis/AnalysisJson.h"
#include "driver/cache/PreambleCache.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/thread.h"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <new>
#include <poll.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace gradlint {

namespace {

const char kChildFileFlag[] = "--internal-analyse-one=";
const char kResultFdFlag[] = "--internal-result-fd=";
const char kParentPidFlag[] = "--internal-parent-pid=";
const char kCommandFdFlag[] = "--internal-command-fd=";
/// The child reads its compile command here (a memfd: any size, no blocking).
constexpr int kChildCommandFd = 4;
/// The child's result pipe: a fixed descriptor number above stdio.
constexpr int kChildResultFd = 3;
/// Clang's parser and the model recurse over the AST; 10,000 nested `if`s
/// need more than the 8 MiB a thread gets by default. Only touched pages cost
/// memory. Deeper still, the child crashes and the file gets an error.
constexpr unsigned kAnalysisStackBytes = 512u << 20;
/// The child's exit status when an allocation failed under --memory-limit.
constexpr int kOutOfMemoryExit = 4;

[[noreturn]] void exitOutOfMemory() {
  static const char message[] = "gradlint: out of memory under --memory-limit\n";
  ssize_t ignored = ::write(2, message, sizeof message - 1);
  (void)ignored;
  _exit(kOutOfMemoryExit);
}

void outOfMemoryHandler(void *, const char *, bool) { exitOutOfMemory(); }

/// This process's address space now (VmSize), in bytes; 0 when unknown.
uint64_t currentAddressSpace() {
  std::ifstream statm("/proc/self/statm");
  uint64_t pages = 0;
  if (!(statm >> pages))
    return 0;
  return pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

/// Limits the address space this process may add to what it has now (the
/// program, its libraries, the analysis stack, a CUDA context that --confirm
/// created); an allocation that fails then ends the process with
/// kOutOfMemoryExit (operator new, and LLVM's own mallocs).
void limitAddressSpace(uint64_t mebibytes) {
  if (mebibytes == 0)
    return;
  std::set_new_handler([] { exitOutOfMemory(); });
  llvm::install_bad_alloc_error_handler(outOfMemoryHandler, nullptr);
  uint64_t start = currentAddressSpace();
  if (const char *trace = std::getenv("GRADLINT_TEST_TRACE_ADDRESS_SPACE"))
    if (FILE *out = std::fopen(trace, "a")) {
      std::fprintf(out, "%llu\n", static_cast<unsigned long long>(start >> 20));
      std::fclose(out);
    }
  rlim_t bytes = static_cast<rlim_t>(start + (mebibytes << 20));
  struct rlimit limit;
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_max != RLIM_INFINITY &&
      limit.rlim_max < bytes)
    bytes = limit.rlim_max; // cannot raise the hard limit
  limit.rlim_cur = bytes;
  setrlimit(RLIMIT_AS, &limit);
}

/// Whether the start of a failed child's log says that memory ran out.
bool logSaysOutOfMemory(const std::string &text) {
  for (const char *sign : {"out of memory", "Cannot allocate memory", "bad_alloc"})
    if (text.find(sign) != std::string::npos)
      return true;
  return false;
}

bool startsWith(const char *text, const char *prefix) {
  return std::strncmp(text, prefix, std::strlen(prefix)) == 0;
}

/// Test hook, inert unless GRADLINT_TEST_CRASH_ON is set: a comma-separated
/// list of <mode>:<substring>, where mode is segv, abort or hang; the child
/// whose file path contains the substring crashes or hangs that way.
void crashForTestIfAsked(const std::string &file) {
  const char *spec = std::getenv("GRADLINT_TEST_CRASH_ON");
  if (!spec)
    return;
  std::string list = spec;
  size_t start = 0;
  while (start < list.size()) {
    size_t comma = list.find(',', start);
    std::string item =
        list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? list.size() : comma + 1;
    size_t colon = item.find(':');
    if (colon == std::string::npos)
      continue;
    std::string mode = item.substr(0, colon), substring = item.substr(colon + 1);
    if (substring.empty() || file.find(substring) == std::string::npos)
      continue;
    if (mode == "segv") {
      // A real fault, as a bug would cause: a raised SIGSEGV would return from
      // LLVM's stack-trace handler instead of killing the process.
      // (Through a volatile address, so the compiler cannot see the fault.)
      volatile std::uintptr_t address = 16;
      *reinterpret_cast<volatile int *>(address) = 1;
    }
    if (mode == "abort")
      std::abort();
    if (mode == "hang")
      for (;;)
        pause();
  }
}

bool writeAll(int fd, const std::vector<std::uint8_t> &bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t written = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (written < 0 && errno == EINTR)
      continue;
    if (written <= 0)
      return false;
    done += static_cast<size_t>(written);
  }
  return true;
}

std::string signalName(int signal) {
  switch (signal) {
  case SIGSEGV: return "Segmentation fault";
  case SIGABRT: return "Aborted";
  case SIGBUS: return "Bus error";
  case SIGFPE: return "Floating point exception";
  case SIGILL: return "Illegal instruction";
  case SIGKILL: return "Killed";
  case SIGTERM: return "Terminated";
  case SIGPIPE: return "Broken pipe";
  default: return "signal " + std::to_string(signal);
  }
}

std::string formatSeconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  return text;
}

FileAnalysis failed(const std::string &file, const std::string &message) {
  FileAnalysis analysis;
  analysis.errors.push_back({file, message});
  analysis.analysisFailed = true;
  return analysis;
}

/// A descriptor at or above 10, close-on-exec, so that it can never be the
/// child's result descriptor number nor leak into another worker's child.
int highDescriptor(int fd) {
  int high = fcntl(fd, F_DUPFD_CLOEXEC, 10);
  ::close(fd);
  return high;
}

} // namespace

FileAnalysis analyseOnLargeStack(const std::function<FileAnalysis()> &analyse) {
  FileAnalysis analysis;
  llvm::thread worker(std::optional<unsigned>(kAnalysisStackBytes), [&] { analysis = analyse(); });
  worker.join();
  return analysis;
}

/// The whole content of the command memfd the parent passed (empty on error).
static std::string readCommand(int fd) {
  std::string text;
  char chunk[65536];
  for (off_t offset = 0;;) {
    ssize_t got = ::pread(fd, chunk, sizeof chunk, offset);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      break;
    text.append(chunk, static_cast<size_t>(got));
    offset += got;
  }
  ::close(fd);
  return text.empty() ? std::string("invalid") : text;
}

ChildRequest takeChildRequest(std::vector<const char *> &args) {
  ChildRequest child;
  std::vector<const char *> kept;
  for (size_t i = 0; i < args.size(); ++i) {
    const char *arg = args[i];
    if (i > 0 && startsWith(arg, kChildFileFlag)) {
      child.active = true;
      child.file = arg + std::strlen(kChildFileFlag);
    } else if (i > 0 && startsWith(arg, kResultFdFlag)) {
      child.resultFd = std::atoi(arg + std::strlen(kResultFdFlag));
    } else if (i > 0 && startsWith(arg, kParentPidFlag)) {
      child.parentPid = std::atol(arg + std::strlen(kParentPidFlag));
    } else if (i > 0 && startsWith(arg, kCommandFdFlag)) {
      child.command = readCommand(std::atoi(arg + std::strlen(kCommandFdFlag)));
    } else {
      kept.push_back(arg);
    }
  }
  args = std::move(kept);
  return child;
}

/// A child's stderr: an unnamed temporary file (O_TMPFILE), so a gradlint
/// killed mid-run leaves nothing behind; keep() gives it a name (0600) when
/// the analysis failed and the child wrote anything.
class ChildLog {
public:
  ChildLog() {
    llvm::SmallString<128> directory;
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, directory);
    fd = ::open(directory.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    llvm::SmallString<128> path;
    if (fd < 0 && !llvm::sys::fs::createTemporaryFile("gradlint-analysis", "log", fd, path)) {
      ::fchmod(fd, 0600); // no O_TMPFILE here: unnamed right away instead
      llvm::sys::fs::remove(path);
    }
  }
  ~ChildLog() {
    if (fd >= 0)
      ::close(fd);
  }
  ChildLog(const ChildLog &) = delete;
  ChildLog &operator=(const ChildLog &) = delete;

  /// The first 64 KiB the child wrote.
  std::string head() const {
    std::string text(1 << 16, '\0');
    ssize_t got = fd >= 0 ? ::pread(fd, text.data(), text.size(), 0) : -1;
    text.resize(got > 0 ? static_cast<size_t>(got) : 0);
    return text;
  }

  /// "; its output (a stack trace) is in <path>" when the child wrote anything
  /// and a named copy could be written.
  std::string keep() {
    struct stat info;
    if (fd < 0 || ::fstat(fd, &info) != 0 || info.st_size == 0)
      return "";
    int named = -1;
    llvm::SmallString<128> path;
    if (llvm::sys::fs::createTemporaryFile("gradlint-analysis", "log", named, path))
      return "";
    ::fchmod(named, 0600); // a stack trace can quote the user's code
    bool copied = true;
    char chunk[65536];
    for (off_t offset = 0; copied && offset < info.st_size;) {
      ssize_t got = ::pread(fd, chunk, sizeof chunk, offset);
      if (got <= 0)
        break;
      copied = writeAll(named, std::vector<std::uint8_t>(chunk, chunk + got));
      offset += got;
    }
    ::close(named);
    if (!copied) {
      llvm::sys::fs::remove(path);
      return "";
    }
    return "; its output (a stack trace) is in " + std::string(path);
  }

  int fd = -1;
};

/// Reads the result of child `pid` from `readFd` (closed here) until it ends
/// or `timeoutSeconds` pass (then the child is killed), reaps the child and
/// turns a crash, a time-out or a memory overrun into the file's error.
FileAnalysis awaitChild(pid_t pid, int readFd, ChildLog &log, const std::string &file,
                        double timeoutSeconds, uint64_t memoryLimitMiB) {
  using Clock = std::chrono::steady_clock;
  bool limited = timeoutSeconds > 0;
  Clock::time_point deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(limited ? timeoutSeconds : 0));
  std::vector<std::uint8_t> bytes;
  bool timedOut = false;
  for (;;) {
    int waitMs = -1;
    if (limited) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) {
        timedOut = true;
        break;
      }
      waitMs = static_cast<int>(std::min<long long>(left.count() + 1, 60 * 60 * 1000));
    }
    pollfd wanted{readFd, POLLIN, 0};
    int ready = poll(&wanted, 1, waitMs);
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready == 0)
      continue; // the deadline check above decides
    std::uint8_t chunk[65536];
    ssize_t got = ::read(readFd, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      break; // end of file: the child finished or died
    bytes.insert(bytes.end(), chunk, chunk + got);
  }
  ::close(readFd);
  if (timedOut)
    kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timedOut)
    return failed(file, "analysis timed out after " + formatSeconds(timeoutSeconds) +
                            " s (--timeout; 0 for no limit)" + log.keep());
  bool exitedOutOfMemory = WIFEXITED(status) && WEXITSTATUS(status) == kOutOfMemoryExit;
  if (memoryLimitMiB > 0 && (exitedOutOfMemory || ((WIFSIGNALED(status) || WIFEXITED(status)) &&
                                                   status != 0 && logSaysOutOfMemory(log.head()))))
    return failed(file, "analysis exceeded the memory limit of " + std::to_string(memoryLimitMiB) +
                            " MiB (--memory-limit; 0 for no limit)" +
                            (exitedOutOfMemory ? std::string() : log.keep()));
  if (WIFSIGNALED(status))
    return failed(file, "analysis crashed (" + signalName(WTERMSIG(status)) +
                            "); the other files were analysed" + log.keep());
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return failed(file, "analysis failed (the analysis process exited with status " +
                            std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")" +
                            log.keep());
  FileAnalysis analysis;
  if (auto error = decodeAnalysis(bytes, analysis))
    return failed(file, "analysis returned an unreadable result: " + *error);
  return analysis;
}

int serveChild(const ChildRequest &child, uint64_t memoryLimitMiB,
               const std::function<FileAnalysis()> &analyse) {
  // Die with the parent (a killed gradlint leaves no analyses running).
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (child.parentPid && getppid() != child.parentPid)
    _exit(3);
  crashForTestIfAsked(child.file);
  FileAnalysis analysis = analyseOnLargeStack([&] {
    // Once the large stack exists: the limit bounds what the analysis adds.
    limitAddressSpace(memoryLimitMiB);
    return analyse();
  });
  bool written = writeAll(child.resultFd, encodeAnalysis(analysis));
  // Skip static destructors: the parent waits for this exit.
  _exit(written ? 0 : 3);
}

std::mutex &forkMutex() {
  static std::mutex mutex;
  return mutex;
}

FileAnalysis analyseInForkedChild(const std::string &file, const IsolationSettings &settings,
                                  const std::function<FileAnalysis()> &analyse) {
  if (!settings.enabled)
    return analyseOnLargeStack(analyse);
  ChildLog log;
  int pipeFds[2];
  pid_t pid;
  pid_t parent = getpid();
  int error = 0;
  {
    // The parent holds the write end only under this lock: a child forked by
    // another thread meanwhile would inherit it and keep the pipe open, and a
    // crash here would then wait for that child (a hang's time limit).
    std::lock_guard<std::mutex> forking(forkMutex());
    if (pipe2(pipeFds, O_CLOEXEC) != 0)
      return failed(file, std::string("cannot start the analysis process: pipe: ") +
                              std::strerror(errno));
    pid = fork();
    if (pid < 0) {
      error = errno;
      ::close(pipeFds[0]);
    }
    if (pid != 0)
      ::close(pipeFds[1]);
  }
  if (pid < 0)
    return failed(file,
                  std::string("cannot start the analysis process: fork: ") + std::strerror(error));
  if (pid == 0) {
    // Only this thread exists here. The child never touches the server's
    // streams: stdin and stdout are /dev/null, stderr is the log.
    ::close(pipeFds[0]);
    int devNull = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    if (devNull >= 0) {
      ::dup2(devNull, 0);
      ::dup2(devNull, 1);
    }
    ::dup2(log.fd >= 0 ? log.fd : devNull, 2);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
      _exit(3); // the parent died before the signal was armed
    crashForTestIfAsked(file);
    FileAnalysis analysis = analyseOnLargeStack([&] {
      limitAddressSpace(settings.memoryLimitMiB);
      return analyse();
    });
    bool written = writeAll(pipeFds[1], encodeAnalysis(analysis));
    _exit(written ? 0 : 3);
  }
  return awaitChild(pid, pipeFds[0], log, file, settings.timeoutSeconds, settings.memoryLimitMiB);
}

Isolator::Isolator(int argc, char **argv, const IsolationSettings &settings, PreambleCache *cache)
    : settings_(settings), cache_(cache) {
  executable_ = llvm::sys::fs::getMainExecutable(argv[0], reinterpret_cast<void *>(&signalName));
  for (int i = 1; i < argc; ++i)
    arguments_.push_back(argv[i]);
}

FileAnalysis Isolator::analyse(const std::string &file,
                               const std::function<FileAnalysis()> &inProcess,
                               const std::string &command) {
  if (!settings_.enabled)
    return analyseOnLargeStack(inProcess);
  if (settings_.freshProcess)
    return analyseInFreshProcess(file, command);
  // The child starts with this process's cache counters, which the children
  // never change here: what it reports is its own use.
  FileAnalysis analysis = analyseInForkedChild(file, settings_, [&] {
    FileAnalysis result = inProcess();
    if (cache_)
      result.childCacheUse = cacheUseOf(*cache_);
    return result;
  });
  if (cache_) {
    std::lock_guard<std::mutex> forking(forkMutex());
    cache_->adopt(analysis.childCacheUse.failedKeys, analysis.childCacheUse.unusable,
                  analysis.childCacheUse.note);
  }
  return analysis;
}

FileAnalysis Isolator::analyseInFreshProcess(const std::string &file, const std::string &command) {
  auto cannotStart = [&](const char *what, int error) {
    return failed(file, std::string("cannot start the analysis process: ") + what + ": " +
                            std::strerror(error));
  };
  int pipeFds[2];
  if (pipe2(pipeFds, O_CLOEXEC) != 0)
    return cannotStart("pipe", errno);
  int readFd = highDescriptor(pipeFds[0]), writeFd = highDescriptor(pipeFds[1]);
  if (readFd < 0 || writeFd < 0) {
    int error = errno;
    if (readFd >= 0)
      ::close(readFd);
    if (writeFd >= 0)
      ::close(writeFd);
    return cannotStart("pipe", error);
  }

  std::vector<std::string> arguments;
  arguments.push_back(executable_);
  arguments.insert(arguments.end(), arguments_.begin(), arguments_.end());
  // Before a "--" (compiler arguments follow it), so that the child sees them as options.
  auto dashes = std::find(arguments.begin() + 1, arguments.end(), "--");
  arguments.insert(dashes, {kChildFileFlag + file, kResultFdFlag + std::to_string(kChildResultFd),
                            kParentPidFlag + std::to_string(getpid())});
  // The command travels in a memfd: a command line can exceed what argv takes.
  int commandFd = -1;
  if (!command.empty()) {
    commandFd = memfd_create("gradlint-command", MFD_CLOEXEC);
    if (commandFd >= 0)
      commandFd = highDescriptor(commandFd); // dup2 onto itself would keep CLOEXEC
    std::vector<std::uint8_t> bytes(command.begin(), command.end());
    if (commandFd < 0 || !writeAll(commandFd, bytes)) {
      int error = errno;
      if (commandFd >= 0)
        ::close(commandFd);
      ::close(readFd);
      ::close(writeFd);
      return cannotStart("memfd", error);
    }
    arguments.insert(std::find(arguments.begin() + 1, arguments.end(), "--"),
                     kCommandFdFlag + std::to_string(kChildCommandFd));
  }
  std::vector<char *> argv;
  for (std::string &argument : arguments)
    argv.push_back(argument.data());
  argv.push_back(nullptr);

  // The child reports through its result descriptor only; what Clang or a
  // crash handler prints goes to a log that is kept only if the analysis fails.
  ChildLog log;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  if (log.fd >= 0)
    posix_spawn_file_actions_adddup2(&actions, log.fd, 2);
  else
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, writeFd, kChildResultFd);
  if (commandFd >= 0)
    posix_spawn_file_actions_adddup2(&actions, commandFd, kChildCommandFd);
  pid_t pid = 0;
  int spawned = posix_spawn(&pid, executable_.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(writeFd);
  if (commandFd >= 0)
    ::close(commandFd);
  if (spawned != 0) {
    ::close(readFd);
    return cannotStart(executable_.c_str(), spawned);
  }

  return awaitChild(pid, readFd, log, file, settings_.timeoutSeconds, settings_.memoryLimitMiB);
}

} // namespace gradlint
