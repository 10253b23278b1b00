#pragma once
// gradlint LibTorch API model: c10d::ProcessGroupNCCL (LibTorch 1.13.1). In LibTorch the
// class exists only with USE_C10D_NCCL; the model declares it unconditionally.
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#include <torch/csrc/distributed/c10d/Store.hpp>
#include <string>
#include <vector>

namespace c10d {
constexpr const char* NCCL_BACKEND_NAME = "nccl";

class TORCH_API ProcessGroupNCCL : public ProcessGroup {
 public:
  struct Options : ProcessGroup::Options {
    explicit Options(bool is_high_priority_stream = false);
    static c10::intrusive_ptr<Options> create(bool is_high_priority_stream = false) {
      return c10::make_intrusive<Options>(is_high_priority_stream);
    }
    bool is_high_priority_stream;
  };

  ProcessGroupNCCL(const c10::intrusive_ptr<Store>& store, int rank, int size,
                   c10::intrusive_ptr<Options> options = Options::create());
  C10_DEPRECATED ProcessGroupNCCL(const c10::intrusive_ptr<Store>& store, int rank, int size,
                                  const std::string& groupName,
                                  c10::intrusive_ptr<Options> options = Options::create())
      : ProcessGroupNCCL(store, rank, size, options) {}
  ~ProcessGroupNCCL() override;
  c10::intrusive_ptr<Options> getOptions() { return options_; }
  const std::string getBackendName() const override;
  void startCoalescing() override;
  void endCoalescing(std::vector<c10::intrusive_ptr<Work>>& reqs) override;
  c10::intrusive_ptr<Work> broadcast(std::vector<at::Tensor>& tensors, const BroadcastOptions& opts = BroadcastOptions()) override;
  c10::intrusive_ptr<Work> allreduce(std::vector<at::Tensor>& tensors, const AllreduceOptions& opts = AllreduceOptions()) override;
  c10::intrusive_ptr<Work> allreduce_coalesced(std::vector<at::Tensor>& tensors, const AllreduceCoalescedOptions& opts = AllreduceCoalescedOptions()) override;
  c10::intrusive_ptr<Work> reduce(std::vector<at::Tensor>& tensors, const ReduceOptions& opts = ReduceOptions()) override;
  c10::intrusive_ptr<Work> allgather(std::vector<std::vector<at::Tensor>>& outputTensors, std::vector<at::Tensor>& inputTensors, const AllgatherOptions& opts = AllgatherOptions()) override;
  c10::intrusive_ptr<Work> _allgather_base(at::Tensor& outputBuffer, at::Tensor& inputBuffer, const AllgatherOptions& opts = AllgatherOptions()) override;
  c10::intrusive_ptr<Work> allgather_coalesced(std::vector<std::vector<at::Tensor>>& outputTensorLists, std::vector<at::Tensor>& inputTensors, const AllgatherOptions& opts = AllgatherOptions()) override;
  c10::intrusive_ptr<Work> gather(std::vector<std::vector<at::Tensor>>& outputTensors, std::vector<at::Tensor>& inputTensors, const GatherOptions& opts = GatherOptions()) override;
  c10::intrusive_ptr<Work> scatter(std::vector<at::Tensor>& outputTensors, std::vector<std::vector<at::Tensor>>& inputTensors, const ScatterOptions& opts = ScatterOptions()) override;
  c10::intrusive_ptr<Work> reduce_scatter(std::vector<at::Tensor>& outputTensors, std::vector<std::vector<at::Tensor>>& inputTensors, const ReduceScatterOptions& opts = ReduceScatterOptions()) override;
  c10::intrusive_ptr<Work> _reduce_scatter_base(at::Tensor& outputBuffer, at::Tensor& inputBuffer, const ReduceScatterOptions& opts = ReduceScatterOptions()) override;
  c10::intrusive_ptr<Work> alltoall_base(at::Tensor& outputBuffer, at::Tensor& inputBuffer, std::vector<int64_t>& outputSplitSizes, std::vector<int64_t>& inputSplitSizes, const AllToAllOptions& opts = AllToAllOptions()) override;
  c10::intrusive_ptr<Work> alltoall(std::vector<at::Tensor>& outputTensors, std::vector<at::Tensor>& inputTensors, const AllToAllOptions& opts = AllToAllOptions()) override;
  c10::intrusive_ptr<Work> send(std::vector<at::Tensor>& tensors, int dstRank, int tag) override;
  c10::intrusive_ptr<Work> recv(std::vector<at::Tensor>& tensors, int srcRank, int tag) override;
  c10::intrusive_ptr<Work> recvAnysource(std::vector<at::Tensor>& tensors, int tag) override;
  c10::intrusive_ptr<Work> barrier(const BarrierOptions& opts = BarrierOptions()) override;
  static void groupStart();
  static void groupEnd();
  void setSequenceNumberForGroup() override;
  uint64_t getSequenceNumberForGroup() override;
  bool isUCCAvailable() const;

 protected:
  const c10::intrusive_ptr<Options> options_;
};
} // namespace c10d
