// The language server's forked analyses (driver/analysis/Isolation): one
// child's result must not wait for another child, whichever thread forked it.
#include "driver/analysis/Isolation.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <future>
#include <mutex>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

namespace gradlint {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// A fork by another thread (under forkMutex, as the contract asks) while an
// analysis is starting must not inherit that analysis's result pipe: a child
// that lives on (a hanging analysis) would hold the pipe open, and the quick
// analysis's result would wait for it (an isolated crash then read as the
// other document's time-out).
TEST(Isolation, AQuickAnalysisDoesNotWaitForAChildForkedMeanwhile) {
  std::unique_lock<std::mutex> forking(forkMutex());
  Clock::time_point started = Clock::now();
  std::future<double> quick = std::async(std::launch::async, [] {
    Clock::time_point begin = Clock::now();
    FileAnalysis analysis =
        analyseInForkedChild("quick.cpp", IsolationSettings{}, [] { return FileAnalysis{}; });
    EXPECT_TRUE(analysis.errors.empty());
    return secondsSince(begin);
  });
  // Time for the quick analysis to reach the fork lock.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  pid_t lingering = fork();
  ASSERT_GE(lingering, 0);
  if (lingering == 0) {
    ::sleep(30); // a hanging analysis, as far as the pipes can tell
    _exit(0);
  }
  forking.unlock();
  std::future_status status = quick.wait_for(std::chrono::seconds(15));
  kill(lingering, SIGKILL);
  waitpid(lingering, nullptr, 0);
  ASSERT_EQ(status, std::future_status::ready);
  double seconds = quick.get();
  EXPECT_LT(seconds, 10.0) << "the quick analysis waited for a child it has nothing to do with";
  EXPECT_LT(secondsSince(started), 15.0);
}

} // namespace
} // namespace gradlint
