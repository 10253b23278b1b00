#pragma once
#include <ATen/ATen.h>
#include <ATen/core/ivalue.h>
#include <c10/util/intrusive_ptr.h>
#include <chrono>
#include <exception>
#include <functional>
#include <vector>

constexpr auto kNoTimeout = std::chrono::milliseconds(0);

namespace c10d {
constexpr const char* const kSeqNumStoreKey = "SEQ_NUM_STORE_KEY";

enum class OpType : std::uint8_t {
  BROADCAST = 0,
  ALLREDUCE = 1,
  ALLREDUCE_COALESCED = 2,
  REDUCE = 3,
  ALLGATHER = 4,
  _ALLGATHER_BASE = 5,
  ALLGATHER_COALESCED = 6,
  GATHER = 7,
  SCATTER = 8,
  REDUCE_SCATTER = 9,
  ALLTOALL_BASE = 10,
  ALLTOALL = 11,
  SEND = 12,
  RECV = 13,
  RECVANYSOURCE = 14,
  BARRIER = 15,
  _REDUCE_SCATTER_BASE = 16,
  UNKNOWN = 100,
};

TORCH_API std::string opTypeToString(OpType opType);
TORCH_API bool isP2POp(OpType opType, bool batchP2P = false);

class TORCH_API Work : public torch::CustomClassHolder {
 public:
  Work(int rank = -1, OpType opType = OpType::UNKNOWN, const char* profilingTitle = nullptr,
       const c10::optional<std::vector<at::Tensor>>& inputTensors = {});
  ~Work() override;
  virtual bool isCompleted();
  virtual bool isSuccess() const;
  virtual std::exception_ptr exception() const;
  virtual int sourceRank() const;
  virtual std::vector<at::Tensor> result();
  virtual void synchronize();
  virtual bool wait(std::chrono::milliseconds timeout = kNoTimeout);
  virtual void abort();
  virtual c10::intrusive_ptr<c10::ivalue::Future> getFuture();
  OpType retrieveOpType();
  static c10::intrusive_ptr<Work> create_from_future(c10::intrusive_ptr<c10::ivalue::Future>);

 protected:
  void finish(std::exception_ptr exception = nullptr);
  void finishAndThrow(std::exception_ptr exception);
  bool completed_ = false;
  std::exception_ptr exception_;
  const int rank_;
  OpType opType_;
};
} // namespace c10d
