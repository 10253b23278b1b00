#pragma once
#include <ATen/core/TensorBody.h>
#include <c10/util/intrusive_ptr.h>
#include <functional>
#include <iosfwd>
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
 public:
#include <ATen/core/gradlint_generated_ivalue_methods.inc>
};

struct TORCH_API Capsule {
  c10::intrusive_ptr<torch::CustomClassHolder> obj_ptr;
  explicit Capsule(c10::intrusive_ptr<torch::CustomClassHolder> ptr);
};
template <typename T>
struct OptionalArray {
  c10::optional<std::vector<T>> list;
  OptionalArray();
  OptionalArray(std::vector<T> val);
  OptionalArray& operator=(c10::optional<ArrayRef<T>> ref);
  OptionalArray& operator=(c10::OptionalArrayRef<T> ref);
  operator c10::OptionalArrayRef<T>();
};
namespace ivalue {
struct TORCH_API ComplexHolder : c10::intrusive_ptr_target {
  template <typename T>
  ComplexHolder(c10::complex<T> c);
  ComplexHolder(c10::complex<double> c);
  c10::complex<double> val;
};
} // namespace ivalue
using IValueComparator = std::function<bool(const IValue& a, const IValue& b)>;
TORCH_API IValueComparator getLessThanComparator(const IValue& v);
TORCH_API IValueComparator getGreaterThanComparator(const IValue& v);
TORCH_API bool checkObjectSortSchema(const c10::ClassTypePtr& t, std::stringstream& why_not);

struct TORCH_API WeakIValue final {
  WeakIValue();
  WeakIValue(const WeakIValue& rhs);
  WeakIValue(WeakIValue&& rhs) noexcept;
  ~WeakIValue();
  WeakIValue(const IValue& rhs);
 public:
#include <ATen/core/gradlint_generated_weakivalue_methods.inc>
};
} // namespace c10

namespace torch {
using c10::IValue;
} // namespace torch
