// GradBuffer.cpp
#include "GradBuffer.h"

#include "Model.h"

#include <cmath>
#include <stdexcept>

namespace gradlint {
namespace runtime {

const char *dtypeName(DType t) {
  switch (t) {
  case DType::F32: return "fp32";
  case DType::F16: return "fp16";
  case DType::BF16: return "bf16";
  }
  return "?";
}

GradBuffer::GradBuffer(const Model &model, DType dtype) : GradBuffer(model.paramShapes(), dtype) {}

GradBuffer::GradBuffer(const std::vector<Shape> &shapes, DType dtype) : dtype_(dtype) {
  for (const Shape &s : shapes)
    grads_.emplace_back(s, 0.0f);
}

int64_t GradBuffer::numel() const {
  int64_t n = 0;
  for (const Tensor &g : grads_)
    n += g.numel();
  return n;
}

bool GradBuffer::matches(const Model &model) const {
  if (grads_.size() != model.numParams())
    return false;
  for (size_t i = 0; i < grads_.size(); ++i)
    if (grads_[i].shape() != model.param(i).shape())
      return false;
  return true;
}

bool GradBuffer::sameLayout(const GradBuffer &other) const {
  if (dtype_ != other.dtype_ || grads_.size() != other.grads_.size())
    return false;
  for (size_t i = 0; i < grads_.size(); ++i)
    if (grads_[i].shape() != other.grads_[i].shape())
      return false;
  return true;
}

void GradBuffer::zero() {
  for (Tensor &g : grads_)
    for (float &v : g.values())
      v = 0.0f;
}

void GradBuffer::scale(float factor, const Backend &backend) {
  for (Tensor &g : grads_)
    backend.scale(g.data(), g.numel(), factor, dtype_);
}

void GradBuffer::accumulate(size_t i, const float *g, const Backend &backend) {
  Tensor &t = grads_.at(i);
  backend.accumulate(t.data(), g, t.numel(), dtype_);
}

void GradBuffer::accumulate(const GradBuffer &other, const Backend &backend) {
  if (other.grads_.size() != grads_.size())
    throw std::invalid_argument("GradBuffer::accumulate: different number of tensors");
  for (size_t i = 0; i < grads_.size(); ++i) {
    if (other.grads_[i].shape() != grads_[i].shape())
      throw std::invalid_argument("GradBuffer::accumulate: shape mismatch at tensor " +
                                  std::to_string(i));
    accumulate(i, other.grads_[i].data(), backend);
  }
}

void GradBuffer::set(size_t i, const Tensor &values) {
  Tensor &t = grads_.at(i);
  if (values.numel() != t.numel())
    throw std::invalid_argument("GradBuffer::set: size mismatch at tensor " + std::to_string(i));
  for (int64_t k = 0; k < t.numel(); ++k)
    t[k] = kernels::roundTo(values[k], dtype_);
}

void GradBuffer::roundToStorage(const Backend &backend) {
  for (Tensor &g : grads_)
    backend.roundTo(g.data(), g.numel(), dtype_);
}

double GradBuffer::sumSquares(const Backend &backend) const {
  double s = 0.0;
  for (const Tensor &g : grads_)
    s += backend.sumSquares(g.data(), g.numel());
  return s;
}

double GradBuffer::norm(const Backend &backend) const { return std::sqrt(sumSquares(backend)); }

std::vector<float> GradBuffer::flatten() const {
  std::vector<float> out;
  out.reserve(static_cast<size_t>(numel()));
  for (const Tensor &g : grads_)
    out.insert(out.end(), g.values().begin(), g.values().end());
  return out;
}

bool GradBuffer::bitwiseEqual(const GradBuffer &other) const {
  if (dtype_ != other.dtype_ || grads_.size() != other.grads_.size())
    return false;
  for (size_t i = 0; i < grads_.size(); ++i)
    if (!grads_[i].bitwiseEqual(other.grads_[i]))
      return false;
  return true;
}

} // namespace runtime
} // namespace gradlint
