#pragma once
#include <ATen/core/Tensor.h>
#include <c10/util/Optional.h>
#include <iosfwd>
#include <type_traits>
#include <vector>

namespace at {
namespace indexing {
const int64_t INDEX_MAX = 0x7fffffffffffffffLL;
const int64_t INDEX_MIN = -INDEX_MAX - 1;
enum class TensorIndexType { None, Ellipsis, Integer, Boolean, Slice, Tensor };
constexpr c10::nullopt_t None = c10::nullopt;
struct TORCH_API EllipsisIndexType final {
  EllipsisIndexType() {}
};
TORCH_API extern const EllipsisIndexType Ellipsis;

struct TORCH_API Slice final {
 public:
  Slice(c10::optional<int64_t> start_index = {}, c10::optional<int64_t> stop_index = {},
        c10::optional<int64_t> step_index = {});
  int64_t start() const;
  int64_t stop() const;
  int64_t step() const;
};

struct TORCH_API TensorIndex final {
  TensorIndex(c10::nullopt_t);
  TensorIndex(at::indexing::EllipsisIndexType);
  TensorIndex(const char* str);
  TensorIndex(int64_t integer);
  TensorIndex(int integer);
  template <class T, class = typename std::enable_if<GRADLINT_MODEL_IS_SAME(bool, T)>::type>
  TensorIndex(T boolean);
  TensorIndex(Slice slice);
  TensorIndex(Tensor tensor);
  bool is_none() const;
  bool is_ellipsis() const;
  bool is_integer() const;
  bool is_boolean() const;
  bool is_slice() const;
  bool is_tensor() const;
 public:
#include <ATen/gradlint_generated_tensorindex_methods.inc>
};
TORCH_API std::ostream& operator<<(std::ostream& stream, const Slice& slice);
TORCH_API std::ostream& operator<<(std::ostream& stream, const TensorIndex& tensor_index);
TORCH_API std::ostream& operator<<(std::ostream& stream, const std::vector<TensorIndex>& tensor_indices);
} // namespace indexing
} // namespace at
