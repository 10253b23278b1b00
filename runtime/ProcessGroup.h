// ProcessGroup.h - a simulated data-parallel process group of W ranks.
//
// Each rank is represented by its own GradBuffer (and usually its own Model
// replica and micro-batches). allReduce() leaves every rank with the reduced
// values, like c10d::ProcessGroup::allreduce on the gradients, and counts the
// communication so a run can show "N all-reduces per step instead of 1".
//
// Counting convention: one call of allReduce / allReduceTensor adds 1 to
// calls() and adds the payload of ONE rank to bytes(): the number of elements
// reduced times the storage size of the gradient dtype (4 for fp32, 2 for
// fp16/bf16). That is the size of the tensor each rank hands to the
// collective (what `numel() * element_size()` gives in PyTorch), independent
// of W and of the algorithm (a ring moves ~2(W-1)/W of it per rank).
#pragma once

#include "GradBuffer.h"
#include "kernels/Backend.h"

#include <cstdint>
#include <vector>

namespace gradlint {
namespace runtime {

enum class ReduceOp {
  Sum, // every rank gets sum_r g_r
  Avg, // every rank gets (sum_r g_r) / W
};

class ProcessGroup {
public:
  // Throws std::invalid_argument when worldSize < 1.
  explicit ProcessGroup(int worldSize, const Backend &backend = cpuBackend());

  int size() const { return worldSize_; }

  // All-reduce of every tensor of every rank's buffer (one coalesced call).
  // ranks.size() must equal size(); all buffers must have the same shapes and
  // dtype (std::invalid_argument otherwise). The sum is formed in fp32 in rank
  // order 0, 1, ..., W-1 (deterministic), Avg then multiplies by 1/W in fp32,
  // and the result is rounded to the storage type.
  void allReduce(const std::vector<GradBuffer *> &ranks, ReduceOp op);
  // The same for tensor `index` only (one call per parameter, as in loops
  // that all-reduce `p.grad()` parameter by parameter).
  void allReduceTensor(const std::vector<GradBuffer *> &ranks, size_t index, ReduceOp op);

  uint64_t calls() const { return calls_; }
  uint64_t bytes() const { return bytes_; }
  void resetCounters() {
    calls_ = 0;
    bytes_ = 0;
  }

private:
  void checkRanks(const std::vector<GradBuffer *> &ranks) const;
  void reduceTensor(const std::vector<GradBuffer *> &ranks, size_t index, ReduceOp op);

  int worldSize_;
  const Backend *backend_;
  uint64_t calls_ = 0;
  uint64_t bytes_ = 0;
};

const char *reduceOpName(ReduceOp op); // "sum", "avg"

} // namespace runtime
} // namespace gradlint
