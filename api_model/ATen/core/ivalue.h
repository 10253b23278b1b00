#pragma once
#include <ATen/core/TensorBody.h>
#include <c10/util/intrusive_ptr.h>
#include <string>
#include <vector>

namespace c10 {
namespace ivalue {
struct TORCH_API Future : c10::intrusive_ptr_target {
  void wait();
  bool completed() const;
};
} // namespace ivalue
struct TORCH_API IValue final {
  IValue();
  IValue(const IValue& rhs);
  IValue(IValue&& rhs) noexcept;
  ~IValue();
  IValue& operator=(IValue&& rhs) & noexcept;
  IValue& operator=(IValue const& rhs) &;
  IValue(at::TensorBase t);
  IValue(double d);
  IValue(int64_t i);
  IValue(int32_t i);
  IValue(bool b);
  IValue(std::string v);
  IValue(const char* v);
  IValue(std::vector<at::Tensor> v);
  IValue(std::vector<IValue> v);
  bool isTensor() const;
  at::Tensor toTensor() &&;
  at::Tensor& toTensor() &;
  const at::Tensor& toTensor() const&;
  bool isTuple() const;
  bool isDouble() const;
  double toDouble() const;
  bool isInt() const;
  int64_t toInt() const;
  bool isBool() const;
  bool toBool() const;
  std::vector<at::Tensor> toTensorVector() const;
  std::string tagKind() const;
};
} // namespace c10

namespace torch {
using c10::IValue;
} // namespace torch
