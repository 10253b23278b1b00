// ProcessGroup.cpp
#include "ProcessGroup.h"

#include <stdexcept>
#include <string>

namespace gradlint {
namespace runtime {

ProcessGroup::ProcessGroup(int worldSize, const Backend &backend)
    : worldSize_(worldSize), backend_(&backend) {
  if (worldSize < 1)
    throw std::invalid_argument("ProcessGroup: world size must be >= 1");
}

void ProcessGroup::checkRanks(const std::vector<GradBuffer *> &ranks) const {
  if (static_cast<int>(ranks.size()) != worldSize_)
    throw std::invalid_argument("allReduce: " + std::to_string(ranks.size()) +
                                " rank buffers for a world of " + std::to_string(worldSize_));
  for (const GradBuffer *r : ranks) {
    if (!r)
      throw std::invalid_argument("allReduce: null rank buffer");
    if (!r->sameLayout(*ranks[0]))
      throw std::invalid_argument("allReduce: rank buffers differ in shape or dtype");
  }
}

void ProcessGroup::reduceTensor(const std::vector<GradBuffer *> &ranks, size_t index, ReduceOp op) {
  const DType dtype = ranks[0]->dtype();
  const int64_t n = ranks[0]->tensor(index).numel();
  std::vector<float> acc(ranks[0]->tensor(index).values());
  for (size_t r = 1; r < ranks.size(); ++r)
    backend_->axpy(acc.data(), ranks[r]->tensor(index).data(), n, 1.0f);
  const float factor = op == ReduceOp::Avg ? 1.0f / static_cast<float>(worldSize_) : 1.0f;
  backend_->scale(acc.data(), n, factor, dtype); // rounds to the storage type
  for (GradBuffer *r : ranks) {
    float *d = r->mutableData(index);
    for (int64_t k = 0; k < n; ++k)
      d[k] = acc[static_cast<size_t>(k)];
  }
  bytes_ += static_cast<uint64_t>(n) * static_cast<uint64_t>(dtypeSize(dtype));
}

void ProcessGroup::allReduce(const std::vector<GradBuffer *> &ranks, ReduceOp op) {
  checkRanks(ranks);
  for (size_t i = 0; i < ranks[0]->numTensors(); ++i)
    reduceTensor(ranks, i, op);
  ++calls_;
}

void ProcessGroup::allReduceTensor(const std::vector<GradBuffer *> &ranks, size_t index,
                                   ReduceOp op) {
  checkRanks(ranks);
  if (index >= ranks[0]->numTensors())
    throw std::invalid_argument("allReduceTensor: no tensor " + std::to_string(index));
  reduceTensor(ranks, index, op);
  ++calls_;
}

const char *reduceOpName(ReduceOp op) { return op == ReduceOp::Sum ? "sum" : "avg"; }

} // namespace runtime
} // namespace gradlint
