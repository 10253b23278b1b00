#include "driver/lsp/Scheduler.h"

#include <algorithm>

namespace gradlint::lsp {

void Scheduler::start(Work work) {
  work_ = std::move(work);
  worker_ = std::thread([this] { loop(); });
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
    busy = analysing_;
  }
  wake_.notify_all();
  if (busy && worker_.joinable())
    return false;
  if (worker_.joinable())
    worker_.join();
  return true;
}

void Scheduler::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    if (stopping_)
      return;
    if (queue_.empty()) {
      wake_.wait(lock);
      continue;
    }
    auto next = std::min_element(queue_.begin(), queue_.end(), [](const auto &a, const auto &b) {
      return a.second.due < b.second.due;
    });
    Clock::time_point due = next->second.due; // a copy: the job may be replaced while we wait
    if (due > Clock::now()) {
      wake_.wait_until(lock, due);
      continue;
    }
    AnalysisJob job = std::move(next->second);
    queue_.erase(next);
    analysing_ = true;
    lock.unlock();

    std::function<void()> finish = work_(job);

    lock.lock();
    analysing_ = false;
    finish();
  }
}

} // namespace gradlint::lsp
