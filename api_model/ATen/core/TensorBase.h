#pragma once
#include <ATen/core/TensorAccessor.h>
#include <c10/core/Device.h>
#include <c10/core/Layout.h>
#include <c10/core/MemoryFormat.h>
#include <c10/core/Scalar.h>
#include <c10/core/ScalarType.h>
#include <c10/core/TensorOptions.h>
#include <c10/util/ArrayRef.h>
#include <c10/util/Exception.h>
#include <c10/util/Optional.h>
#include <c10/util/intrusive_ptr.h>
#include <c10/util/string_view.h>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>

namespace torch {
namespace autograd {
struct Node;
} // namespace autograd
} // namespace torch

namespace at {
class Tensor;
class TensorBase;
using TensorList = ArrayRef<Tensor>;
using ITensorListRef = ArrayRef<Tensor>;  // model: c10::IListRef<Tensor> in LibTorch

// Model of at::TensorBase: the members LibTorch declares on TensorBase
// (reset, defined, sizes, ...) are declared here so that resolved names match.
class TORCH_API TensorBase {
 public:
  template <typename T, size_t N>
  TensorAccessor<T, N> accessor() const&;
  template <typename T, size_t N>
  TensorAccessor<T, N> accessor() && = delete;
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
            typename index_t = int64_t>
  GenericPackedTensorAccessor<T, N, PtrTraits, index_t> generic_packed_accessor() const&;
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
  PackedTensorAccessor32<T, N, PtrTraits> packed_accessor32() const&;
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
  PackedTensorAccessor64<T, N, PtrTraits> packed_accessor64() const&;
  struct unsafe_borrow_t { explicit unsafe_borrow_t() = default; };

  TensorBase() = default;
  TensorBase(const TensorBase&) = default;
  TensorBase(TensorBase&&) = default;
  ~TensorBase() noexcept;

  int64_t dim() const;
  int64_t storage_offset() const;
  TensorBase contiguous(MemoryFormat memory_format = MemoryFormat::Contiguous) const;
  const TensorBase& fill_(const c10::Scalar& scalar) const;
  const TensorBase& zero_() const;
  TensorBase to(at::TensorOptions options = {}, bool non_blocking = false, bool copy = false,
                c10::optional<at::MemoryFormat> memory_format = {}) const;
  bool is_complex() const;
  bool is_floating_point() const;
  bool is_signed() const;
  int64_t size(int64_t dim) const;
  int64_t stride(int64_t dim) const;
  bool defined() const;
  void reset();
  TensorBase& operator=(const TensorBase& x) &;
  TensorBase& operator=(TensorBase&& x) &;
  TensorBase& operator=(const TensorBase&) && = delete;
  TensorBase& operator=(TensorBase&&) && = delete;
  bool is_same(const TensorBase& other) const noexcept;
  size_t use_count() const noexcept;
  size_t weak_use_count() const noexcept;
  std::string toString() const;
  IntArrayRef sizes() const;
  IntArrayRef strides() const;
  int64_t ndimension() const;
  bool is_contiguous(at::MemoryFormat memory_format = at::MemoryFormat::Contiguous) const;
  bool is_non_overlapping_and_dense() const;
  size_t nbytes() const;
  int64_t numel() const;
  size_t itemsize() const;
  int64_t element_size() const;
  ScalarType scalar_type() const;
  bool has_storage() const;
  bool is_alias_of(const at::TensorBase& other) const;
  bool is_conj() const;
  bool is_neg() const;
  Layout layout() const;
  caffe2::TypeMeta dtype() const;
  Device device() const;
  int64_t get_device() const;
  bool is_cpu() const;
  bool is_cuda() const;
  bool is_ipu() const;
  bool is_xpu() const;
  bool is_xla() const;
  bool is_hpu() const;
  bool is_lazy() const;
  bool is_hip() const;
  bool is_ve() const;
  bool is_sparse() const;
  bool is_sparse_csr() const;
  bool is_mkldnn() const;
  bool is_mps() const;
  bool is_ort() const;
  bool is_vulkan() const;
  bool is_metal() const;
  bool is_quantized() const;
  bool is_meta() const;
  bool is_inference() const;
  bool is_nested() const;
  bool has_names() const;
  TensorOptions options() const;
  void* data_ptr() const;
  template <typename T>
  T* data_ptr() const;
  void print() const;

  const TensorBase& set_requires_grad(bool requires_grad) const;
  bool requires_grad() const;
  at::TensorBase tensor_data() const;
  at::TensorBase variable_data() const;
  const std::shared_ptr<torch::autograd::Node>& grad_fn() const;
  void remove_hook(unsigned pos) const;
  c10::SymInt sym_size(int64_t dim) const;
  template <typename T>
  using hook_return_void_t = std::enable_if_t<std::is_void<std::invoke_result_t<T&, TensorBase>>::value, unsigned>;
  template <typename T>
  using hook_return_var_t =
      std::enable_if_t<std::is_same<std::invoke_result_t<T&, TensorBase>, TensorBase>::value, unsigned>;
  template <typename T>
  unsigned register_hook(T&& hook) const;
  bool is_leaf() const;
  int64_t output_nr() const;
  void set_data(const TensorBase& new_data) const;
  TensorBase data() const;
  int64_t _version() const;
  void retain_grad() const;
  bool retains_grad() const;
  const TensorBase& requires_grad_(bool _requires_grad = true) const;
  bool is_view() const;
  const TensorBase& _base() const;
  const std::string& name() const;

 protected:
  void* impl_ = nullptr;  // model: c10::intrusive_ptr<TensorImpl, UndefinedTensorImpl>
 public:
#include <ATen/core/gradlint_generated_tensorbase_methods.inc>
};

} // namespace at
