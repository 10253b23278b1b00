#pragma once
// gradlint LibTorch API model: at::Tensor (mirrors LibTorch 1.13 TensorBody.h).
// Method signatures follow LibTorch 1.13.1; overloads that take Dimname,
// SymInt, Storage, Stream or quantizer types are omitted.
#include <ATen/core/DeprecatedTypeProperties.h>
#include <ATen/core/Generator.h>
#include <ATen/core/TensorBase.h>
#include <ATen/core/Reduction.h>
#include <iosfwd>
#include <tuple>
#include <type_traits>
#include <vector>

namespace at {
namespace indexing {
struct TensorIndex;
} // namespace indexing

class TORCH_API Tensor : public TensorBase {
 public:
  Tensor() = default;
  Tensor(const Tensor& tensor) = default;
  Tensor(Tensor&& tensor) = default;
  explicit Tensor(const TensorBase& base) : TensorBase(base) {}
  /*implicit*/ Tensor(TensorBase&& base) : TensorBase(static_cast<TensorBase&&>(base)) {}

  Tensor contiguous(MemoryFormat memory_format = MemoryFormat::Contiguous) const;
  Tensor conj() const;

  using TensorBase::size;
  using TensorBase::stride;

  Tensor& operator=(const TensorBase& x) &;
  Tensor& operator=(TensorBase&& x) &;
  Tensor& operator=(const Tensor& x) &;
  Tensor& operator=(Tensor&& x) &;
  Tensor& operator=(Scalar v) &&;
  Tensor& operator=(const Tensor& rhs) &&;
  Tensor& operator=(Tensor&& rhs) &&;

  Tensor toType(ScalarType t) const;
  template <typename T>
  T* data() const;
  template <typename T>
  T item() const;

  Tensor operator~() const;
  Tensor operator-() const;
  Tensor& operator+=(const Tensor& other);
  Tensor& operator+=(Scalar other);
  Tensor& operator-=(const Tensor& other);
  Tensor& operator-=(Scalar other);
  Tensor& operator*=(const Tensor& other);
  Tensor& operator*=(Scalar other);
  Tensor& operator/=(const Tensor& other);
  Tensor& operator/=(Scalar other);
  Tensor& operator&=(const Tensor& other);
  Tensor& operator|=(const Tensor& other);
  Tensor& operator^=(const Tensor& other);
  Tensor operator[](Scalar index) const;
  Tensor operator[](Tensor index) const;
  Tensor operator[](int64_t index) const;

  Tensor index(ArrayRef<at::indexing::TensorIndex> indices) const;
  Tensor index(std::initializer_list<at::indexing::TensorIndex> indices) const;
  Tensor& index_put_(ArrayRef<at::indexing::TensorIndex> indices, Tensor const& rhs);
  Tensor& index_put_(ArrayRef<at::indexing::TensorIndex> indices, const Scalar& v);
  Tensor& index_put_(std::initializer_list<at::indexing::TensorIndex> indices, Tensor const& rhs);
  Tensor& index_put_(std::initializer_list<at::indexing::TensorIndex> indices, const Scalar& v);

  Tensor cpu() const;
  Tensor cuda() const;
  Tensor hip() const;
  Tensor ve() const;
  Tensor vulkan() const;
  Tensor metal() const;
  Tensor meta() const;

  void backward(const Tensor& gradient = {}, c10::optional<bool> retain_graph = {},
                bool create_graph = false, c10::optional<TensorList> inputs = {}) const;
  const Tensor& set_requires_grad(bool requires_grad) const;
  Tensor& mutable_grad() const;
  const Tensor& grad() const;
  const Tensor& _fw_grad(uint64_t level) const;
  void _set_fw_grad(const TensorBase& new_grad, uint64_t level, bool is_inplace_op) const;

  // ---- generated-from-signature operator methods (LibTorch 1.13.1) ----
  //Tensor * add(Tensor & b);
  at::Tensor abs() const;
  at::Tensor& abs_() const;
  at::Tensor absolute() const;
  at::Tensor sgn() const;
  at::Tensor acos() const;
  at::Tensor& acos_() const;
  at::Tensor add(const at::Tensor& other, const at::Scalar& alpha=1) const;
  at::Tensor& add_(const at::Tensor& other, const at::Scalar& alpha=1) const;
  at::Tensor add(const at::Scalar& other, const at::Scalar& alpha=1) const;
  at::Tensor& add_(const at::Scalar& other, const at::Scalar& alpha=1) const;
  at::Tensor all(int64_t dim, bool keepdim=false) const;
  bool allclose(const at::Tensor& other, double rtol=1e-05, double atol=1e-08, bool equal_nan=false) const;
  at::Tensor any(int64_t dim, bool keepdim=false) const;
  at::Tensor argmax(c10::optional<int64_t> dim={}, bool keepdim=false) const;
  at::Tensor argmin(c10::optional<int64_t> dim={}, bool keepdim=false) const;
  at::Tensor asin() const;
  at::Tensor atan() const;
  at::Tensor baddbmm(const at::Tensor& batch1, const at::Tensor& batch2, const at::Scalar& beta=1, const at::Scalar& alpha=1) const;
  at::Tensor bernoulli(c10::optional<at::Generator> generator={}) const;
  at::Tensor& bernoulli_(const at::Tensor& p, c10::optional<at::Generator> generator={}) const;
  at::Tensor& bernoulli_(double p=0.5, c10::optional<at::Generator> generator={}) const;
  at::Tensor bernoulli(double p, c10::optional<at::Generator> generator={}) const;
  at::Tensor bitwise_not() const;
  at::Tensor logical_not() const;
  at::Tensor logical_xor(const at::Tensor& other) const;
  at::Tensor logical_and(const at::Tensor& other) const;
  at::Tensor logical_or(const at::Tensor& other) const;
  at::Tensor bmm(const at::Tensor& mat2) const;
  at::Tensor broadcast_to(at::IntArrayRef size) const;
  at::Tensor ceil() const;
  at::Tensor& ceil_() const;
  ::std::vector<at::Tensor> chunk(int64_t chunks, int64_t dim=0) const;
  ::std::vector<at::Tensor> tensor_split(int64_t sections, int64_t dim=0) const;
  ::std::vector<at::Tensor> tensor_split(at::IntArrayRef indices, int64_t dim=0) const;
  ::std::vector<at::Tensor> tensor_split(const at::Tensor& tensor_indices_or_sections, int64_t dim=0) const;
  at::Tensor clamp(const c10::optional<at::Scalar> & min, const c10::optional<at::Scalar> & max={}) const;
  at::Tensor clamp(const c10::optional<at::Tensor> & min={}, const c10::optional<at::Tensor> & max={}) const;
  at::Tensor& clamp_(const c10::optional<at::Scalar> & min, const c10::optional<at::Scalar> & max={}) const;
  at::Tensor& clamp_(const c10::optional<at::Tensor> & min={}, const c10::optional<at::Tensor> & max={}) const;
  at::Tensor clamp_max(const at::Scalar& max) const;
  at::Tensor clamp_max(const at::Tensor& max) const;
  at::Tensor& clamp_max_(const at::Scalar& max) const;
  at::Tensor& clamp_max_(const at::Tensor& max) const;
  at::Tensor clamp_min(const at::Scalar& min) const;
  at::Tensor clamp_min(const at::Tensor& min) const;
  at::Tensor& clamp_min_(const at::Scalar& min) const;
  at::Tensor& clamp_min_(const at::Tensor& min) const;
  at::Tensor clip(const c10::optional<at::Scalar> & min, const c10::optional<at::Scalar> & max={}) const;
  at::Tensor clip(const c10::optional<at::Tensor> & min={}, const c10::optional<at::Tensor> & max={}) const;
  at::Tensor& clip_(const c10::optional<at::Scalar> & min, const c10::optional<at::Scalar> & max={}) const;
  at::Tensor& clip_(const c10::optional<at::Tensor> & min={}, const c10::optional<at::Tensor> & max={}) const;
  at::Tensor& copy_(const at::Tensor& src, bool non_blocking=false) const;
  at::Tensor cos() const;
  at::Tensor& cos_() const;
  at::Tensor cosh() const;
  at::Tensor count_nonzero(at::IntArrayRef dim) const;
  at::Tensor count_nonzero(c10::optional<int64_t> dim={}) const;
  at::Tensor cumprod(int64_t dim, c10::optional<at::ScalarType> dtype={}) const;
  at::Tensor cumsum(int64_t dim, c10::optional<at::ScalarType> dtype={}) const;
  at::Tensor& cumsum_(int64_t dim, c10::optional<at::ScalarType> dtype={}) const;
  at::Tensor diag_embed(int64_t offset=0, int64_t dim1=-2, int64_t dim2=-1) const;
  at::Tensor diagonal(int64_t offset=0, int64_t dim1=0, int64_t dim2=1) const;
  at::Tensor& fill_diagonal_(const at::Scalar& fill_value, bool wrap=false) const;
  at::Tensor diff(int64_t n=1, int64_t dim=-1, const c10::optional<at::Tensor> & prepend={}, const c10::optional<at::Tensor> & append={}) const;
  at::Tensor div(const at::Tensor& other) const;
  at::Tensor& div_(const at::Tensor& other) const;
  at::Tensor div(const at::Tensor& other, c10::optional<c10::string_view> rounding_mode) const;
  at::Tensor& div_(const at::Tensor& other, c10::optional<c10::string_view> rounding_mode) const;
  at::Tensor div(const at::Scalar& other) const;
  at::Tensor& div_(const at::Scalar& other) const;
  at::Tensor div(const at::Scalar& other, c10::optional<c10::string_view> rounding_mode) const;
  at::Tensor& div_(const at::Scalar& other, c10::optional<c10::string_view> rounding_mode) const;
  at::Tensor divide(const at::Tensor& other) const;
  at::Tensor& divide_(const at::Tensor& other) const;
  at::Tensor divide(const at::Scalar& other) const;
  at::Tensor& divide_(const at::Scalar& other) const;
  at::Tensor divide(const at::Tensor& other, c10::optional<c10::string_view> rounding_mode) const;
  at::Tensor& divide_(const at::Tensor& other, c10::optional<c10::string_view> rounding_mode) const;
  at::Tensor divide(const at::Scalar& other, c10::optional<c10::string_view> rounding_mode) const;
  at::Tensor& divide_(const at::Scalar& other, c10::optional<c10::string_view> rounding_mode) const;
  at::Tensor true_divide(const at::Tensor& other) const;
  at::Tensor true_divide(const at::Scalar& other) const;
  at::Tensor dot(const at::Tensor& tensor) const;
  at::Tensor new_empty(at::IntArrayRef size, at::TensorOptions options={}) const;
  at::Tensor new_empty(at::IntArrayRef size, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory) const;
  at::Tensor new_full(at::IntArrayRef size, const at::Scalar& fill_value, at::TensorOptions options={}) const;
  at::Tensor new_full(at::IntArrayRef size, const at::Scalar& fill_value, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory) const;
  at::Tensor new_zeros(at::IntArrayRef size, at::TensorOptions options={}) const;
  at::Tensor new_zeros(at::IntArrayRef size, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory) const;
  at::Tensor new_ones(at::IntArrayRef size, at::TensorOptions options={}) const;
  at::Tensor new_ones(at::IntArrayRef size, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory) const;
  const at::Tensor& resize_(at::IntArrayRef size, c10::optional<at::MemoryFormat> memory_format={}) const;
  at::Tensor erf() const;
  at::Tensor exp() const;
  at::Tensor& exp_() const;
  at::Tensor expm1() const;
  at::Tensor expand(at::IntArrayRef size, bool implicit=false) const;
  at::Tensor expand_as(const at::Tensor& other) const;
  at::Tensor flatten(int64_t start_dim=0, int64_t end_dim=-1) const;
  at::Tensor unflatten(int64_t dim, at::IntArrayRef sizes) const;
  at::Tensor& fill_(const at::Scalar& value) const;
  at::Tensor& fill_(const at::Tensor& value) const;
  at::Tensor floor() const;
  at::Tensor& floor_() const;
  at::Tensor floor_divide(const at::Tensor& other) const;
  at::Tensor floor_divide(const at::Scalar& other) const;
  at::Tensor frac() const;
  at::Tensor& index_copy_(int64_t dim, const at::Tensor& index, const at::Tensor& source) const;
  at::Tensor index_copy(int64_t dim, const at::Tensor& index, const at::Tensor& source) const;
  at::Tensor isclose(const at::Tensor& other, double rtol=1e-05, double atol=1e-08, bool equal_nan=false) const;
  at::Tensor isnan() const;
  bool is_nonzero() const;
  bool is_same_size(const at::Tensor& other) const;
  ::std::tuple<at::Tensor,at::Tensor> kthvalue(int64_t k, int64_t dim=-1, bool keepdim=false) const;
  at::Tensor nan_to_num(c10::optional<double> nan={}, c10::optional<double> posinf={}, c10::optional<double> neginf={}) const;
  at::Tensor& nan_to_num_(c10::optional<double> nan={}, c10::optional<double> posinf={}, c10::optional<double> neginf={}) const;
  at::Tensor log() const;
  at::Tensor& log_() const;
  at::Tensor log10() const;
  at::Tensor log1p() const;
  at::Tensor log2() const;
  at::Tensor xlogy(const at::Tensor& other) const;
  at::Tensor xlogy(const at::Scalar& other) const;
  at::Tensor log_softmax(int64_t dim, c10::optional<at::ScalarType> dtype={}) const;
  at::Tensor logsumexp(at::IntArrayRef dim, bool keepdim=false) const;
  at::Tensor matmul(const at::Tensor& other) const;
  ::std::tuple<at::Tensor,at::Tensor> max(int64_t dim, bool keepdim=false) const;
  at::Tensor amax(at::IntArrayRef dim={}, bool keepdim=false) const;
  at::Tensor mean(c10::optional<at::ScalarType> dtype={}) const;
  at::Tensor mean(at::OptionalIntArrayRef dim, bool keepdim=false, c10::optional<at::ScalarType> dtype={}) const;
  at::Tensor nanmean(at::OptionalIntArrayRef dim={}, bool keepdim=false, c10::optional<at::ScalarType> dtype={}) const;
  at::Tensor median() const;
  ::std::tuple<at::Tensor,at::Tensor> median(int64_t dim, bool keepdim=false) const;
  ::std::tuple<at::Tensor,at::Tensor> min(int64_t dim, bool keepdim=false) const;
  at::Tensor amin(at::IntArrayRef dim={}, bool keepdim=false) const;
  at::Tensor mm(const at::Tensor& mat2) const;
  ::std::tuple<at::Tensor,at::Tensor> mode(int64_t dim=-1, bool keepdim=false) const;
  at::Tensor mul(const at::Tensor& other) const;
  at::Tensor& mul_(const at::Tensor& other) const;
  at::Tensor mul(const at::Scalar& other) const;
  at::Tensor& mul_(const at::Scalar& other) const;
  at::Tensor multiply(const at::Tensor& other) const;
  at::Tensor& multiply_(const at::Tensor& other) const;
  at::Tensor multiply(const at::Scalar& other) const;
  at::Tensor& multiply_(const at::Scalar& other) const;
  at::Tensor mv(const at::Tensor& vec) const;
  at::Tensor narrow_copy(int64_t dim, int64_t start, int64_t length) const;
  at::Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  at::Tensor narrow(int64_t dim, const at::Tensor& start, int64_t length) const;
  at::Tensor permute(at::IntArrayRef dims) const;
  at::Tensor movedim(at::IntArrayRef source, at::IntArrayRef destination) const;
  at::Tensor movedim(int64_t source, int64_t destination) const;
  at::Tensor numpy_T() const;
  at::Tensor mT() const;
  at::Tensor adjoint() const;
  at::Tensor pin_memory(c10::optional<at::Device> device={}) const;
  at::Tensor reciprocal() const;
  at::Tensor& reciprocal_() const;
  at::Tensor neg() const;
  at::Tensor& neg_() const;
  at::Tensor negative() const;
  at::Tensor repeat(at::IntArrayRef repeats) const;
  at::Tensor repeat_interleave(const at::Tensor& repeats, c10::optional<int64_t> dim={}, c10::optional<int64_t> output_size={}) const;
  at::Tensor repeat_interleave(int64_t repeats, c10::optional<int64_t> dim={}, c10::optional<int64_t> output_size={}) const;
  at::Tensor reshape(at::IntArrayRef shape) const;
  at::Tensor reshape_as(const at::Tensor& other) const;
  at::Tensor round() const;
  at::Tensor& round_() const;
  at::Tensor round(int64_t decimals) const;
  at::Tensor& round_(int64_t decimals) const;
  at::Tensor relu() const;
  at::Tensor& relu_() const;
  at::Tensor rsqrt() const;
  at::Tensor select(int64_t dim, int64_t index) const;
  at::Tensor sigmoid() const;
  at::Tensor& sigmoid_() const;
  at::Tensor sin() const;
  at::Tensor& sin_() const;
  at::Tensor sinh() const;
  at::Tensor detach() const;
  at::Tensor& detach_() const;
  at::Tensor slice(int64_t dim=0, c10::optional<int64_t> start={}, c10::optional<int64_t> end={}, int64_t step=1) const;
  at::Tensor softmax(int64_t dim, c10::optional<at::ScalarType> dtype={}) const;
  ::std::vector<at::Tensor> split(int64_t split_size, int64_t dim=0) const;
  ::std::vector<at::Tensor> split(at::IntArrayRef split_size, int64_t dim=0) const;
  ::std::vector<at::Tensor> split_with_sizes(at::IntArrayRef split_sizes, int64_t dim=0) const;
  at::Tensor squeeze() const;
  at::Tensor squeeze(int64_t dim) const;
  at::Tensor& squeeze_() const;
  at::Tensor& squeeze_(int64_t dim) const;
  at::Tensor sum(c10::optional<at::ScalarType> dtype={}) const;
  at::Tensor sum(at::OptionalIntArrayRef dim, bool keepdim=false, c10::optional<at::ScalarType> dtype={}) const;
  at::Tensor nansum(at::OptionalIntArrayRef dim={}, bool keepdim=false, c10::optional<at::ScalarType> dtype={}) const;
  at::Tensor sum_to_size(at::IntArrayRef size) const;
  at::Tensor sqrt() const;
  at::Tensor& sqrt_() const;
  at::Tensor square() const;
  at::Tensor& square_() const;
  at::Tensor std(bool unbiased=true) const;
  at::Tensor std(at::OptionalIntArrayRef dim, bool unbiased=true, bool keepdim=false) const;
  at::Tensor std(at::OptionalIntArrayRef dim, c10::optional<int64_t> correction, bool keepdim=false) const;
  at::Tensor prod(c10::optional<at::ScalarType> dtype={}) const;
  at::Tensor prod(int64_t dim, bool keepdim=false, c10::optional<at::ScalarType> dtype={}) const;
  at::Tensor t() const;
  at::Tensor& t_() const;
  at::Tensor tan() const;
  at::Tensor tanh() const;
  at::Tensor& tanh_() const;
  at::Tensor tile(at::IntArrayRef dims) const;
  at::Tensor transpose(int64_t dim0, int64_t dim1) const;
  at::Tensor& transpose_(int64_t dim0, int64_t dim1) const;
  at::Tensor flip(at::IntArrayRef dims) const;
  at::Tensor roll(at::IntArrayRef shifts, at::IntArrayRef dims={}) const;
  at::Tensor trunc() const;
  at::Tensor fix() const;
  at::Tensor type_as(const at::Tensor& other) const;
  at::Tensor unsqueeze(int64_t dim) const;
  at::Tensor& unsqueeze_(int64_t dim) const;
  at::Tensor var(bool unbiased=true) const;
  at::Tensor var(at::OptionalIntArrayRef dim, bool unbiased=true, bool keepdim=false) const;
  at::Tensor var(at::OptionalIntArrayRef dim, c10::optional<int64_t> correction, bool keepdim=false) const;
  at::Tensor view_as(const at::Tensor& other) const;
  at::Tensor where(const at::Tensor& condition, const at::Tensor& other) const;
  at::Tensor norm(const c10::optional<at::Scalar> & p, at::ScalarType dtype) const;
  at::Tensor norm(const at::Scalar& p=2) const;
  at::Tensor norm(const c10::optional<at::Scalar> & p, at::IntArrayRef dim, bool keepdim, at::ScalarType dtype) const;
  at::Tensor norm(const c10::optional<at::Scalar> & p, at::IntArrayRef dim, bool keepdim=false) const;
  at::Tensor clone(c10::optional<at::MemoryFormat> memory_format={}) const;
  at::Tensor& zero_() const;
  at::Tensor sub(const at::Tensor& other, const at::Scalar& alpha=1) const;
  at::Tensor& sub_(const at::Tensor& other, const at::Scalar& alpha=1) const;
  at::Tensor sub(const at::Scalar& other, const at::Scalar& alpha=1) const;
  at::Tensor& sub_(const at::Scalar& other, const at::Scalar& alpha=1) const;
  at::Tensor subtract(const at::Tensor& other, const at::Scalar& alpha=1) const;
  at::Tensor& subtract_(const at::Tensor& other, const at::Scalar& alpha=1) const;
  at::Tensor subtract(const at::Scalar& other, const at::Scalar& alpha=1) const;
  at::Tensor& subtract_(const at::Scalar& other, const at::Scalar& alpha=1) const;
  at::Tensor addmm(const at::Tensor& mat1, const at::Tensor& mat2, const at::Scalar& beta=1, const at::Scalar& alpha=1) const;
  at::Tensor& addmm_(const at::Tensor& mat1, const at::Tensor& mat2, const at::Scalar& beta=1, const at::Scalar& alpha=1) const;
  at::Tensor to_dense(c10::optional<at::ScalarType> dtype={}) const;
  ::std::vector<at::Tensor> unbind(int64_t dim=0) const;
  at::Tensor to_sparse(int64_t sparse_dim) const;
  at::Tensor to_sparse() const;
  at::Tensor to(at::TensorOptions options={}, bool non_blocking=false, bool copy=false, c10::optional<at::MemoryFormat> memory_format={}) const;
  at::Tensor to(c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory, bool non_blocking, bool copy, c10::optional<at::MemoryFormat> memory_format) const;
  at::Tensor to(at::Device device, at::ScalarType dtype, bool non_blocking=false, bool copy=false, c10::optional<at::MemoryFormat> memory_format={}) const;
  at::Tensor to(at::ScalarType dtype, bool non_blocking=false, bool copy=false, c10::optional<at::MemoryFormat> memory_format={}) const;
  at::Tensor to(const at::Tensor& other, bool non_blocking=false, bool copy=false, c10::optional<at::MemoryFormat> memory_format={}) const;
  at::Scalar item() const;
  at::Tensor& masked_fill_(const at::Tensor& mask, const at::Scalar& value) const;
  at::Tensor masked_fill(const at::Tensor& mask, const at::Scalar& value) const;
  at::Tensor& masked_fill_(const at::Tensor& mask, const at::Tensor& value) const;
  at::Tensor masked_fill(const at::Tensor& mask, const at::Tensor& value) const;
  at::Tensor& masked_scatter_(const at::Tensor& mask, const at::Tensor& source) const;
  at::Tensor masked_scatter(const at::Tensor& mask, const at::Tensor& source) const;
  at::Tensor view(at::IntArrayRef size) const;
  at::Tensor view(at::ScalarType dtype) const;
  at::Tensor& put_(const at::Tensor& index, const at::Tensor& source, bool accumulate=false) const;
  at::Tensor& index_add_(int64_t dim, const at::Tensor& index, const at::Tensor& source, const at::Scalar& alpha=1) const;
  at::Tensor index_add(int64_t dim, const at::Tensor& index, const at::Tensor& source, const at::Scalar& alpha=1) const;
  at::Tensor& index_fill_(int64_t dim, const at::Tensor& index, const at::Scalar& value) const;
  at::Tensor index_fill(int64_t dim, const at::Tensor& index, const at::Scalar& value) const;
  at::Tensor& index_fill_(int64_t dim, const at::Tensor& index, const at::Tensor& value) const;
  at::Tensor index_fill(int64_t dim, const at::Tensor& index, const at::Tensor& value) const;
  at::Tensor scatter(int64_t dim, const at::Tensor& index, const at::Tensor& src) const;
  at::Tensor& scatter_(int64_t dim, const at::Tensor& index, const at::Tensor& src) const;
  at::Tensor scatter(int64_t dim, const at::Tensor& index, const at::Scalar& value) const;
  at::Tensor& scatter_(int64_t dim, const at::Tensor& index, const at::Scalar& value) const;
  at::Tensor scatter(int64_t dim, const at::Tensor& index, const at::Tensor& src, c10::string_view reduce) const;
  at::Tensor& scatter_(int64_t dim, const at::Tensor& index, const at::Tensor& src, c10::string_view reduce) const;
  at::Tensor scatter(int64_t dim, const at::Tensor& index, const at::Scalar& value, c10::string_view reduce) const;
  at::Tensor& scatter_(int64_t dim, const at::Tensor& index, const at::Scalar& value, c10::string_view reduce) const;
  at::Tensor scatter_add(int64_t dim, const at::Tensor& index, const at::Tensor& src) const;
  at::Tensor& scatter_add_(int64_t dim, const at::Tensor& index, const at::Tensor& src) const;
  at::Tensor& eq_(const at::Scalar& other) const;
  at::Tensor& eq_(const at::Tensor& other) const;
  at::Tensor bitwise_and(const at::Scalar& other) const;
  at::Tensor bitwise_and(const at::Tensor& other) const;
  at::Tensor bitwise_or(const at::Scalar& other) const;
  at::Tensor bitwise_or(const at::Tensor& other) const;
  at::Tensor bitwise_xor(const at::Scalar& other) const;
  at::Tensor bitwise_xor(const at::Tensor& other) const;
  at::Tensor& tril_(int64_t diagonal=0) const;
  at::Tensor& triu_(int64_t diagonal=0) const;
  at::Tensor& lerp_(const at::Tensor& end, const at::Scalar& weight) const;
  at::Tensor& lerp_(const at::Tensor& end, const at::Tensor& weight) const;
  at::Tensor& random_(int64_t from, c10::optional<int64_t> to, c10::optional<at::Generator> generator={}) const;
  at::Tensor& random_(int64_t to, c10::optional<at::Generator> generator={}) const;
  at::Tensor& random_(c10::optional<at::Generator> generator={}) const;
  at::Tensor& uniform_(double from=0, double to=1, c10::optional<at::Generator> generator={}) const;
  at::Tensor& log_normal_(double mean=1, double std=2, c10::optional<at::Generator> generator={}) const;
  at::Tensor& exponential_(double lambd=1, c10::optional<at::Generator> generator={}) const;
  at::Tensor diag(int64_t diagonal=0) const;
  at::Tensor cross(const at::Tensor& other, c10::optional<int64_t> dim={}) const;
  at::Tensor triu(int64_t diagonal=0) const;
  at::Tensor tril(int64_t diagonal=0) const;
  at::Tensor trace() const;
  at::Tensor ne(const at::Scalar& other) const;
  at::Tensor ne(const at::Tensor& other) const;
  at::Tensor& ne_(const at::Scalar& other) const;
  at::Tensor& ne_(const at::Tensor& other) const;
  at::Tensor eq(const at::Scalar& other) const;
  at::Tensor eq(const at::Tensor& other) const;
  at::Tensor ge(const at::Scalar& other) const;
  at::Tensor ge(const at::Tensor& other) const;
  at::Tensor& ge_(const at::Scalar& other) const;
  at::Tensor& ge_(const at::Tensor& other) const;
  at::Tensor le(const at::Scalar& other) const;
  at::Tensor le(const at::Tensor& other) const;
  at::Tensor& le_(const at::Scalar& other) const;
  at::Tensor& le_(const at::Tensor& other) const;
  at::Tensor gt(const at::Scalar& other) const;
  at::Tensor gt(const at::Tensor& other) const;
  at::Tensor& gt_(const at::Scalar& other) const;
  at::Tensor& gt_(const at::Tensor& other) const;
  at::Tensor lt(const at::Scalar& other) const;
  at::Tensor lt(const at::Tensor& other) const;
  at::Tensor& lt_(const at::Scalar& other) const;
  at::Tensor& lt_(const at::Tensor& other) const;
  at::Tensor take(const at::Tensor& index) const;
  at::Tensor index_select(int64_t dim, const at::Tensor& index) const;
  at::Tensor masked_select(const at::Tensor& mask) const;
  at::Tensor nonzero() const;
  at::Tensor gather(int64_t dim, const at::Tensor& index, bool sparse_grad=false) const;
  at::Tensor addcmul(const at::Tensor& tensor1, const at::Tensor& tensor2, const at::Scalar& value=1) const;
  at::Tensor& addcmul_(const at::Tensor& tensor1, const at::Tensor& tensor2, const at::Scalar& value=1) const;
  at::Tensor addcdiv(const at::Tensor& tensor1, const at::Tensor& tensor2, const at::Scalar& value=1) const;
  at::Tensor& addcdiv_(const at::Tensor& tensor1, const at::Tensor& tensor2, const at::Scalar& value=1) const;
  at::Tensor swapaxes(int64_t axis0, int64_t axis1) const;
  at::Tensor sign() const;
  at::Tensor& sign_() const;
  at::Tensor dist(const at::Tensor& other, const at::Scalar& p=2) const;
  at::Tensor atan2(const at::Tensor& other) const;
  at::Tensor lerp(const at::Tensor& end, const at::Scalar& weight) const;
  at::Tensor lerp(const at::Tensor& end, const at::Tensor& weight) const;
  at::Tensor fmod(const at::Scalar& other) const;
  at::Tensor fmod(const at::Tensor& other) const;
  at::Tensor remainder(const at::Scalar& other) const;
  at::Tensor& remainder_(const at::Scalar& other) const;
  at::Tensor remainder(const at::Tensor& other) const;
  at::Tensor& remainder_(const at::Tensor& other) const;
  at::Tensor min() const;
  at::Tensor max() const;
  at::Tensor maximum(const at::Tensor& other) const;
  at::Tensor max(const at::Tensor& other) const;
  at::Tensor minimum(const at::Tensor& other) const;
  at::Tensor min(const at::Tensor& other) const;
  ::std::tuple<at::Tensor,at::Tensor> sort(int64_t dim=-1, bool descending=false) const;
  ::std::tuple<at::Tensor,at::Tensor> sort(c10::optional<bool> stable, int64_t dim=-1, bool descending=false) const;
  at::Tensor argsort(int64_t dim=-1, bool descending=false) const;
  at::Tensor argsort(bool stable, int64_t dim=-1, bool descending=false) const;
  ::std::tuple<at::Tensor,at::Tensor> topk(int64_t k, int64_t dim=-1, bool largest=true, bool sorted=true) const;
  at::Tensor all() const;
  at::Tensor any() const;
  at::Tensor unfold(int64_t dimension, int64_t size, int64_t step) const;
  bool equal(const at::Tensor& other) const;
  at::Tensor pow(const at::Tensor& exponent) const;
  at::Tensor pow(const at::Scalar& exponent) const;
  at::Tensor& pow_(const at::Scalar& exponent) const;
  at::Tensor& pow_(const at::Tensor& exponent) const;
  at::Tensor& normal_(double mean=0, double std=1, c10::optional<at::Generator> generator={}) const;
  at::Tensor isfinite() const;
  at::Tensor isinf() const;
  at::Tensor isposinf() const;
  at::Tensor isneginf() const;
  at::Tensor inverse() const;
  at::Tensor outer(const at::Tensor& vec2) const;
  // ---- end of operator methods ----

  Tensor to(caffe2::TypeMeta type_meta, bool non_blocking = false, bool copy = false) const;
  Tensor to(Device device, caffe2::TypeMeta type_meta, bool non_blocking = false, bool copy = false) const;

  template <typename F, typename... Args>
  decltype(auto) m(F func, Args&&... params) const {
    return func(*this, std::forward<Args>(params)...);
  }

  at::Tensor tensor_data() const;
  at::Tensor variable_data() const;

  template <typename T>
  using hook_return_void_t = std::enable_if_t<std::is_void<std::invoke_result_t<T&, Tensor>>::value, unsigned>;
  template <typename T>
  using hook_return_var_t = std::enable_if_t<std::is_same<std::invoke_result_t<T&, Tensor>, Tensor>::value, unsigned>;
  template <typename T>
  unsigned register_hook(T&& hook) const;

  Tensor data() const;
  void _backward(TensorList inputs, const c10::optional<Tensor>& gradient, c10::optional<bool> keep_graph,
                 bool create_graph) const;
  const Tensor& requires_grad_(bool _requires_grad = true) const;
  template <typename T, size_t N>
  TensorAccessor<T, N> accessor() const&;
  template <typename T, size_t N>
  TensorAccessor<T, N> accessor() && = delete;
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits,
            typename index_t = int64_t>
  GenericPackedTensorAccessor<T, N, PtrTraits, index_t> packed_accessor() const&;
  DeprecatedTypeProperties& type() const;
  using TensorBase::sym_size;
  // The other methods of LibTorch 1.13.1 TensorBody.h, generated.
#include <ATen/core/gradlint_generated_tensor_methods.inc>
};

TORCH_API std::ostream& print(std::ostream& stream, const Tensor& tensor, int64_t linesize);
TORCH_API std::ostream& operator<<(std::ostream& out, const Tensor& t);

} // namespace at
