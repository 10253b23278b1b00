// The language server's analyses, debounced, on one worker thread: a
// document's job waits until it is due, a newer version replaces the queued
// one, and the job due first runs first.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace gradlint::lsp {

using Clock = std::chrono::steady_clock;

/// One analysis to run: the text of a document version, once `due`.
struct AnalysisJob {
  std::string uri;
  std::string path;
  int64_t version = 0;
  std::string text;
  Clock::time_point due;
};

class Scheduler {
public:
  /// Runs a job on the worker without the lock, and returns what to do with
  /// its result; that runs with the lock held, before `job` goes away.
  using Work = std::function<std::function<void()>(const AnalysisJob &job)>;

  /// One lock guards the queue and the state of the server using it, so that
  /// a result is judged against the document versions of the moment.
  std::unique_lock<std::mutex> lock() { return std::unique_lock<std::mutex>(mutex_); }

  void start(Work work);

  // With the lock held.
  /// Queues `job`, due in `delayMs`, in place of the document's queued job.
  void scheduleLocked(AnalysisJob job, int delayMs);
  void cancelLocked(const std::string &uri);
  void clearLocked();
  /// The worker takes no more jobs (and the server publishes nothing more).
  void requestStopLocked() { stopping_ = true; }
  bool stoppingLocked() const { return stopping_; }

  /// Stops the worker and joins it; false when it is analysing and is left
  /// running (Clang cannot be interrupted mid-parse). Without the lock.
  bool stop();

private:
  void loop();

  Work work_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::map<std::string, AnalysisJob> queue_; ///< newest pending version by URI
  bool stopping_ = false;
  bool analysing_ = false;
  std::thread worker_;
};

} // namespace gradlint::lsp
