#pragma once
// gradlint LibTorch API model: c10d::ProcessGroup (LibTorch 1.13.1 ProcessGroup.hpp).
#include <ATen/ATen.h>
#include <c10/macros/Macros.h>
#include <torch/csrc/distributed/c10d/Types.hpp>
#include <torch/csrc/distributed/c10d/Work.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

constexpr auto kProcessGroupDefaultTimeout = std::chrono::milliseconds(30 * 60 * 1000);

namespace c10d {
class TORCH_API ProcessGroup : public torch::CustomClassHolder {
 public:
  struct TORCH_API Options : torch::CustomClassHolder {
    explicit Options(std::string backend, std::chrono::milliseconds timeout = kProcessGroupDefaultTimeout)
        : timeout(timeout), backend(backend) {}
    ~Options() override = default;
    std::chrono::milliseconds timeout;
    const std::string backend;
  };

  explicit ProcessGroup(int rank, int size);
  ~ProcessGroup() override;
  int getRank() const { return rank_; }
  int getSize() const { return size_; }
  virtual const std::string getBackendName() const;
  virtual void startCoalescing();
  virtual void endCoalescing(std::vector<c10::intrusive_ptr<Work>>& reqs);
  virtual c10::intrusive_ptr<Work> broadcast(std::vector<at::Tensor>& tensors, const BroadcastOptions& opts = BroadcastOptions());
  virtual c10::intrusive_ptr<Work> allreduce(std::vector<at::Tensor>& tensors, const AllreduceOptions& opts = AllreduceOptions());
  virtual c10::intrusive_ptr<Work> allreduce_coalesced(std::vector<at::Tensor>& tensors, const AllreduceCoalescedOptions& opts = AllreduceCoalescedOptions());
  virtual c10::intrusive_ptr<Work> reduce(std::vector<at::Tensor>& tensors, const ReduceOptions& opts = ReduceOptions());
  virtual c10::intrusive_ptr<Work> allgather(std::vector<std::vector<at::Tensor>>& outputTensors, std::vector<at::Tensor>& inputTensors, const AllgatherOptions& opts = AllgatherOptions());
  virtual c10::intrusive_ptr<Work> _allgather_base(at::Tensor& outputBuffer, at::Tensor& inputBuffer, const AllgatherOptions& opts = AllgatherOptions());
  virtual c10::intrusive_ptr<Work> allgather_coalesced(std::vector<std::vector<at::Tensor>>& outputTensorLists, std::vector<at::Tensor>& inputTensors, const AllgatherOptions& opts = AllgatherOptions());
  virtual c10::intrusive_ptr<Work> gather(std::vector<std::vector<at::Tensor>>& outputTensors, std::vector<at::Tensor>& inputTensors, const GatherOptions& opts = GatherOptions());
  virtual c10::intrusive_ptr<Work> scatter(std::vector<at::Tensor>& outputTensors, std::vector<std::vector<at::Tensor>>& inputTensors, const ScatterOptions& opts = ScatterOptions());
  virtual c10::intrusive_ptr<Work> reduce_scatter(std::vector<at::Tensor>& outputTensors, std::vector<std::vector<at::Tensor>>& inputTensors, const ReduceScatterOptions& opts = ReduceScatterOptions());
  virtual c10::intrusive_ptr<Work> _reduce_scatter_base(at::Tensor& outputBuffer, at::Tensor& inputBuffer, const ReduceScatterOptions& opts = ReduceScatterOptions());
  virtual c10::intrusive_ptr<Work> alltoall_base(at::Tensor& outputBuffer, at::Tensor& inputBuffer, std::vector<int64_t>& outputSplitSizes, std::vector<int64_t>& inputSplitSizes, const AllToAllOptions& opts = AllToAllOptions());
  virtual c10::intrusive_ptr<Work> alltoall(std::vector<at::Tensor>& outputTensors, std::vector<at::Tensor>& inputTensors, const AllToAllOptions& opts = AllToAllOptions());
  virtual c10::intrusive_ptr<Work> send(std::vector<at::Tensor>& tensors, int dstRank, int tag);
  virtual c10::intrusive_ptr<Work> recv(std::vector<at::Tensor>& tensors, int srcRank, int tag);
  virtual c10::intrusive_ptr<Work> recvAnysource(std::vector<at::Tensor>& tensors, int tag);
  virtual c10::intrusive_ptr<Work> barrier(const BarrierOptions& opts = BarrierOptions());
  virtual void monitoredBarrier(const BarrierOptions& opts, bool waitAllRanks = false);
  virtual void setSequenceNumberForGroup();
  virtual uint64_t getSequenceNumberForGroup();

 protected:
  void init();
  const int rank_;
  const int size_;
};
} // namespace c10d
