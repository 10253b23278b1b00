// Tensor.h - a small host tensor: a shape and a std::vector<float>, row-major.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace gradlint {
namespace runtime {

using Shape = std::vector<int64_t>;

// Number of elements of a shape (1 for the empty shape, a scalar).
int64_t shapeNumel(const Shape &shape);
// "[2, 3]"
std::string shapeString(const Shape &shape);

class Tensor {
public:
  Tensor() = default; // a scalar-less empty tensor: shape {0}, no data
  // Filled with `fill`. Throws std::invalid_argument on a negative dimension.
  explicit Tensor(Shape shape, float fill = 0.0f);
  // Takes `data`; throws std::invalid_argument when its size != numel(shape).
  Tensor(Shape shape, std::vector<float> data);

  const Shape &shape() const { return shape_; }
  int rank() const { return static_cast<int>(shape_.size()); }
  int64_t dim(int i) const { return shape_.at(static_cast<size_t>(i)); }
  int64_t numel() const { return static_cast<int64_t>(data_.size()); }

  float *data() { return data_.data(); }
  const float *data() const { return data_.data(); }
  std::vector<float> &values() { return data_; }
  const std::vector<float> &values() const { return data_; }

  float &operator[](int64_t i) { return data_[static_cast<size_t>(i)]; }
  float operator[](int64_t i) const { return data_[static_cast<size_t>(i)]; }
  // 2-D access (row-major); no bounds checks beyond vector::at in debug use.
  float &at(int64_t r, int64_t c) { return data_[static_cast<size_t>(r * shape_.back() + c)]; }
  float at(int64_t r, int64_t c) const { return data_[static_cast<size_t>(r * shape_.back() + c)]; }

  // Rows [begin, end) of a tensor of rank >= 1.
  Tensor rows(int64_t begin, int64_t end) const;
  // Concatenation along dimension 0 (all trailing dimensions must match).
  static Tensor concatRows(const std::vector<const Tensor *> &parts);

  // Bitwise equality of shape and data (NaN payloads included).
  bool bitwiseEqual(const Tensor &other) const;

private:
  Shape shape_{0};
  std::vector<float> data_;
};

} // namespace runtime
} // namespace gradlint
