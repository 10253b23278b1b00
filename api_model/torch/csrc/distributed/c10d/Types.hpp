#pragma once
#include <torch/csrc/distributed/c10d/Store.hpp>
#include <ATen/core/Tensor.h>
#include <c10/util/intrusive_ptr.h>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace c10d {
struct TORCH_API _SupplementBase : torch::CustomClassHolder {
  ~_SupplementBase() override {}
};

struct NCCLPreMulSumSupplement : _SupplementBase {
  double double_factor{0.0};
  std::vector<at::Tensor> tensor_factors;
  NCCLPreMulSumSupplement(double f) : double_factor{f} {}
  NCCLPreMulSumSupplement(std::vector<at::Tensor> f) : tensor_factors{std::move(f)} {}
};

struct TORCH_API ReduceOp : torch::CustomClassHolder {
  enum RedOpType : uint8_t {
    SUM = 0,
    AVG = 1,
    PRODUCT = 2,
    MIN = 3,
    MAX = 4,
    BAND = 5,
    BOR = 6,
    BXOR = 7,
    PREMUL_SUM = 8,
    UNUSED = 9
  };
  ReduceOp() {}
  ReduceOp(RedOpType op) : op_(op) {}
  ReduceOp(RedOpType op, c10::intrusive_ptr<_SupplementBase> optional_supplement);
  ReduceOp(const ReduceOp& other) : op_(other.op_), supplement_(other.supplement_) {}
  const ReduceOp& operator=(const ReduceOp& other) {
    op_ = other.op_;
    supplement_ = other.supplement_;
    return *this;
  }
  operator RedOpType() const { return op_; }
  bool operator==(const std::uint8_t other);
  bool operator==(const ReduceOp::RedOpType other);
  bool operator==(const ReduceOp& other);
  RedOpType op_ = SUM;
  c10::intrusive_ptr<_SupplementBase> supplement_;
};

template <typename T>
ReduceOp makeNCCLPreMulSum(const T& factor);

constexpr auto kUnsetTimeout = std::chrono::milliseconds(-1);

struct BroadcastOptions {
  int64_t rootRank = 0;
  int64_t rootTensor = 0;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};
struct AllreduceOptions {
  ReduceOp reduceOp = ReduceOp::SUM;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};
struct AllreduceCoalescedOptions : AllreduceOptions {};
struct ReduceOptions {
  ReduceOp reduceOp = ReduceOp::SUM;
  int64_t rootRank = 0;
  int64_t rootTensor = 0;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};
struct AllgatherOptions {
  std::chrono::milliseconds timeout = kUnsetTimeout;
};
struct GatherOptions {
  int64_t rootRank = 0;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};
struct ScatterOptions {
  int64_t rootRank = 0;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};
struct ReduceScatterOptions {
  ReduceOp reduceOp = ReduceOp::SUM;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};
struct AllToAllOptions {
  std::chrono::milliseconds timeout = kUnsetTimeout;
};
struct BarrierOptions {
  std::vector<int64_t> device_ids;
  std::chrono::milliseconds timeout = kUnsetTimeout;
};
struct DistributedBackendOptions {
  c10::intrusive_ptr<::c10d::Store> store;
  int group_rank;
  int group_size;
  std::chrono::duration<float> timeout;
  std::string group_id;
  std::vector<int64_t> global_ranks_in_group;
};
} // namespace c10d
