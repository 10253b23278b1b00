#include "driver/lsp/Scheduler.h"

#include <algorithm>

namespace gradlint::lsp {

void Scheduler::start(Work work, unsigned workers) {
  work_ = std::move(work);
  for (unsigned i = 0; i < workers; ++i)
    workers_.emplace_back([this] { loop(); });
}

void Scheduler::scheduleLocked(AnalysisJob job, int delayMs) {
  // Replacing the queued job coalesces a burst of changes into the newest text.
  job.due = Clock::now() + std::chrono::milliseconds(delayMs);
  std::string uri = job.uri;
  queue_[uri] = std::move(job);
  wake_.notify_all();
}

void Scheduler::cancelLocked(const std::string &uri) { queue_.erase(uri); }

void Scheduler::clearLocked() {
  queue_.clear();
  wake_.notify_all();
}

bool Scheduler::stop() {
  bool busy;
  {
    std::lock_guard<std::mutex> guard(mutex_);
    stopping_ = true;
    busy = !analysing_.empty();
  }
  wake_.notify_all();
  if (busy)
    return false;
  for (std::thread &worker : workers_)
    if (worker.joinable())
      worker.join();
  return true;
}

void Scheduler::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    if (stopping_)
      return;
    // The job due first, of the documents no other worker is analysing.
    auto next = queue_.end();
    for (auto it = queue_.begin(); it != queue_.end(); ++it)
      if (!analysing_.count(it->first) &&
          (next == queue_.end() || it->second.due < next->second.due))
        next = it;
    if (next == queue_.end()) {
      wake_.wait(lock);
      continue;
    }
    Clock::time_point due = next->second.due; // a copy: the job may be replaced while we wait
    if (due > Clock::now()) {
      wake_.wait_until(lock, due);
      continue;
    }
    AnalysisJob job = std::move(next->second);
    queue_.erase(next);
    analysing_.insert(job.uri);
    lock.unlock();

    std::function<void()> finish = work_(job);

    lock.lock();
    analysing_.erase(job.uri);
    finish();
    wake_.notify_all(); // a newer version of this document may be waiting
  }
}

} // namespace gradlint::lsp
