#pragma once
// gradlint LibTorch API model: c10d::ProcessGroupGloo (LibTorch 1.13.1). In LibTorch the
// class exists only with USE_C10D_GLOO; the model declares it unconditionally.
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#include <torch/csrc/distributed/c10d/Store.hpp>
#include <torch/csrc/distributed/c10d/Types.hpp>
#include <memory>
#include <string>
#include <vector>

namespace gloo {
namespace transport {
class Device;
class UnboundBuffer;
} // namespace transport
} // namespace gloo

namespace c10d {
constexpr const char* GLOO_BACKEND_NAME = "gloo";

class TORCH_API ProcessGroupGloo : public ProcessGroup {
 public:
  class TORCH_API AsyncWork : public Work {
   public:
    ~AsyncWork() override = default;
    static void execute(c10::intrusive_ptr<AsyncWork> work);
    virtual void run() = 0;
    std::vector<at::Tensor> result() override;
    c10::intrusive_ptr<c10::ivalue::Future> getFuture() override;
  };

  // Model: LibTorch derives GlooStore from ::gloo::rendezvous::Store (not modelled), so its
  // overrides are plain members here.
  class TORCH_API GlooStore {
   public:
    GlooStore(const c10::intrusive_ptr<::c10d::Store>& store);
    void setUint(const std::string& key, const std::vector<uint8_t>& value);
    void set(const std::string& key, const std::vector<char>& value);
    std::vector<uint8_t> getUint(const std::string& key);
    std::vector<char> get(const std::string& key);
    void wait(const std::vector<std::string>& keys);
    void wait(const std::vector<std::string>& keys, const std::chrono::milliseconds& timeout);
  };

  class TORCH_API SendWork : public Work {
   public:
    explicit SendWork(at::Tensor& tensor, std::unique_ptr<::gloo::transport::UnboundBuffer> buffer);
    bool wait(std::chrono::milliseconds timeout = kNoTimeout) override;
    void abort() override;
  };

  class TORCH_API RecvWork : public Work {
   public:
    explicit RecvWork(at::Tensor& tensor, std::unique_ptr<::gloo::transport::UnboundBuffer> buffer,
                      const char* profilingTitle = nullptr);
    int sourceRank() const override;
    bool wait(std::chrono::milliseconds timeout = kNoTimeout) override;
    void abort() override;
  };

  struct TORCH_API Options : public ProcessGroup::Options {
    explicit Options(std::chrono::milliseconds timeout = kProcessGroupDefaultTimeout);
    static c10::intrusive_ptr<Options> create(std::chrono::milliseconds timeout = kProcessGroupDefaultTimeout) {
      return c10::make_intrusive<Options>(timeout);
    }
    std::vector<std::shared_ptr<::gloo::transport::Device>> devices;
    int threads;
  };

  const std::string getBackendName() const override;
  static std::shared_ptr<::gloo::transport::Device> createDeviceForInterface(const std::string& interface);
  static std::shared_ptr<::gloo::transport::Device> createDeviceForHostname(const std::string& hostname);
  static std::shared_ptr<::gloo::transport::Device> createDefaultDevice();

  explicit ProcessGroupGloo(const c10::intrusive_ptr<Store>& store, int rank, int size,
                            c10::intrusive_ptr<Options> options = Options::create());
  ~ProcessGroupGloo() override;
  c10::intrusive_ptr<Options> getOptions() { return options_; }
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
  c10::intrusive_ptr<Work> alltoall_base(at::Tensor& outputBuffer, at::Tensor& inputBuffer, std::vector<int64_t>& outputSplitSizes, std::vector<int64_t>& inputSplitSizes, const AllToAllOptions& opts = AllToAllOptions()) override;
  c10::intrusive_ptr<Work> send(std::vector<at::Tensor>& tensors, int dstRank, int tag) override;
  c10::intrusive_ptr<Work> recv(std::vector<at::Tensor>& tensors, int srcRank, int tag) override;
  c10::intrusive_ptr<Work> recvAnysource(std::vector<at::Tensor>& tensors, int tag) override;
  c10::intrusive_ptr<Work> barrier(const BarrierOptions& opts = BarrierOptions()) override;
  void monitoredBarrier(const BarrierOptions& opts = BarrierOptions(), bool waitAllRanks = false) override;
  void setSequenceNumberForGroup() override;
  uint64_t getSequenceNumberForGroup() override;
  int getNumThreads();

 protected:
  const c10::intrusive_ptr<Options> options_;
};
} // namespace c10d
