#pragma once
#include <c10/core/Device.h>
#include <c10/core/Layout.h>
#include <c10/core/MemoryFormat.h>
#include <c10/core/ScalarType.h>
#include <c10/util/Optional.h>
#include <type_traits>
#include <utility>

namespace c10 {

struct C10_API TensorOptions {
  TensorOptions();
  /* implicit */ TensorOptions(Layout layout);
  template <typename T, typename = std::enable_if_t<GRADLINT_MODEL_IS_FORWARDED(T, Device)>>
  /* implicit */ TensorOptions(T&& device);
  template <typename... Args, typename = std::enable_if_t<GRADLINT_MODEL_IS_CONSTRUCTIBLE(Device, Args&&...)>>
  /* implicit */ TensorOptions(Args&&... args);
  /* implicit */ TensorOptions(caffe2::TypeMeta dtype);
  /* implicit */ TensorOptions(ScalarType dtype);
  /* implicit */ TensorOptions(MemoryFormat memory_format);

  C10_NODISCARD TensorOptions device(c10::optional<Device> device) const noexcept;
  template <typename... Args>
  C10_NODISCARD TensorOptions device(Args&&... args) const noexcept;
  C10_NODISCARD TensorOptions device_index(int16_t device_index) const noexcept;
  C10_NODISCARD TensorOptions dtype(c10::optional<caffe2::TypeMeta> dtype) const noexcept;
  C10_NODISCARD TensorOptions dtype(c10::optional<ScalarType> dtype) const noexcept;
  template <typename T>
  TensorOptions& dtype();
  C10_NODISCARD TensorOptions layout(c10::optional<Layout> layout) const noexcept;
  C10_NODISCARD TensorOptions requires_grad(c10::optional<bool> requires_grad) const noexcept;
  C10_NODISCARD TensorOptions pinned_memory(c10::optional<bool> pinned_memory) const noexcept;
  C10_NODISCARD TensorOptions memory_format(c10::optional<MemoryFormat> memory_format) const noexcept;

  Device device() const noexcept;
  bool has_device() const noexcept;
  c10::optional<Device> device_opt() const noexcept;
  int32_t device_index() const noexcept;
  caffe2::TypeMeta dtype() const noexcept;
  bool has_dtype() const noexcept;
  c10::optional<caffe2::TypeMeta> dtype_opt() const noexcept;
  Layout layout() const noexcept;
  bool has_layout() const noexcept;
  c10::optional<Layout> layout_opt() const noexcept;
  bool requires_grad() const noexcept;
  bool has_requires_grad() const noexcept;
  c10::optional<bool> requires_grad_opt() const noexcept;
  bool pinned_memory() const noexcept;
  bool has_pinned_memory() const noexcept;
  bool is_sparse() const;
  bool has_memory_format() const noexcept;
  c10::optional<MemoryFormat> memory_format_opt() const noexcept;
  TensorOptions merge_in(TensorOptions options) const noexcept;
 public:
#include <c10/core/gradlint_generated_tensoroptions_methods.inc>
};

TensorOptions dtype(caffe2::TypeMeta dtype);
TensorOptions dtype(ScalarType dtype);
TensorOptions layout(Layout layout);
TensorOptions device(Device device);
TensorOptions device_index(int16_t device_index);
TensorOptions requires_grad(bool requires_grad = true);
TensorOptions memory_format(MemoryFormat memory_format);
template <typename T>
TensorOptions dtype();

C10_API std::ostream& operator<<(std::ostream& stream, const TensorOptions& options);
} // namespace c10
