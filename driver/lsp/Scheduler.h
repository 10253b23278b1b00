// The language server's analyses, debounced, on a few worker threads: a
// document's job waits until it is due, a newer version replaces the queued
// one, the job due first runs first, and a document is analysed by one
// worker at a time (a slow document leaves the other workers to the rest).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

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

  /// Two workers: one document that takes long (up to the time limit) does
  /// not hold up the others.
  void start(Work work, unsigned workers = 2);

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
  std::set<std::string> analysing_; ///< URIs a worker is analysing now
  std::vector<std::thread> workers_;
};

} // namespace gradlint::lsp
