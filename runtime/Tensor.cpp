// Tensor.cpp
#include "Tensor.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace gradlint {
namespace runtime {

int64_t shapeNumel(const Shape &shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0)
      throw std::invalid_argument("negative dimension in shape " + shapeString(shape));
    n *= d;
  }
  return n;
}

std::string shapeString(const Shape &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

Tensor::Tensor(Shape shape, float fill)
    : shape_(std::move(shape)), data_(static_cast<size_t>(shapeNumel(shape_)), fill) {}

Tensor::Tensor(Shape shape, std::vector<float> data)
    : shape_(std::move(shape)), data_(std::move(data)) {
  if (static_cast<int64_t>(data_.size()) != shapeNumel(shape_))
    throw std::invalid_argument("Tensor: " + std::to_string(data_.size()) +
                                " values do not fill shape " + shapeString(shape_));
}

Tensor Tensor::rows(int64_t begin, int64_t end) const {
  if (shape_.empty() || begin < 0 || end < begin || end > shape_[0])
    throw std::invalid_argument("Tensor::rows: bad range for shape " + shapeString(shape_));
  Shape s = shape_;
  s[0] = end - begin;
  const int64_t rowSize = shape_[0] ? numel() / shape_[0] : 0;
  std::vector<float> d(data_.begin() + begin * rowSize, data_.begin() + end * rowSize);
  return Tensor(std::move(s), std::move(d));
}

Tensor Tensor::concatRows(const std::vector<const Tensor *> &parts) {
  if (parts.empty())
    throw std::invalid_argument("Tensor::concatRows: nothing to concatenate");
  Shape s = parts[0]->shape();
  if (s.empty())
    throw std::invalid_argument("Tensor::concatRows: scalar");
  s[0] = 0;
  std::vector<float> d;
  for (const Tensor *p : parts) {
    Shape trailing = p->shape();
    if (trailing.size() != s.size() ||
        !std::equal(trailing.begin() + 1, trailing.end(), s.begin() + 1))
      throw std::invalid_argument("Tensor::concatRows: shape " + shapeString(trailing) +
                                  " does not match " + shapeString(parts[0]->shape()));
    s[0] += trailing[0];
    d.insert(d.end(), p->values().begin(), p->values().end());
  }
  return Tensor(std::move(s), std::move(d));
}

bool Tensor::bitwiseEqual(const Tensor &other) const {
  return shape_ == other.shape_ && data_.size() == other.data_.size() &&
         (data_.empty() ||
          std::memcmp(data_.data(), other.data_.data(), data_.size() * sizeof(float)) == 0);
}

} // namespace runtime
} // namespace gradlint
