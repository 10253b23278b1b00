// GradBuffer.h - the `.grad` tensors of a model, stored in fp32, fp16 or bf16.
//
// Values are kept as floats that are exactly representable in the storage
// type; every operation that writes them rounds to the storage type (round to
// nearest even; fp16 with subnormals, underflow to 0 and overflow to inf), so
// e.g. fp16 underflow over many micro-batches shows up exactly as it would in
// half-precision `.grad` tensors. Parameters and optimizer state stay fp32
// (the "fp32 master weights" arrangement); optimizers read the stored values.
#pragma once

#include "Tensor.h"
#include "kernels/Backend.h"

#include <cstdint>
#include <vector>

namespace gradlint {
namespace runtime {

class Model;

const char *dtypeName(DType t); // "fp32", "fp16", "bf16"

class GradBuffer {
public:
  GradBuffer() = default;
  // One zero tensor per parameter of `model`, same shapes and order.
  explicit GradBuffer(const Model &model, DType dtype = DType::F32);
  GradBuffer(const std::vector<Shape> &shapes, DType dtype = DType::F32);

  DType dtype() const { return dtype_; }
  size_t numTensors() const { return grads_.size(); }
  const Tensor &tensor(size_t i) const { return grads_.at(i); }
  const Shape &shape(size_t i) const { return grads_.at(i).shape(); }
  int64_t numel() const; // elements over all tensors
  int64_t elementSize() const { return dtypeSize(dtype_); }
  int64_t bytes() const { return numel() * elementSize(); } // storage bytes over all tensors
  // True when the shapes (and order) match `model`'s parameters.
  bool matches(const Model &model) const;
  bool sameLayout(const GradBuffer &other) const; // same shapes and dtype

  // grad.zero_() on every tensor.
  void zero();
  // grad.mul_(factor) on every tensor (grad.div_(N) is scale(1.0f / N)).
  void scale(float factor, const Backend &backend = cpuBackend());
  // Tensor i += g (g: numel(i) fp32 values), rounded as described above.
  void accumulate(size_t i, const float *g, const Backend &backend = cpuBackend());
  // Every tensor += the other buffer's (same shapes; its dtype may differ).
  void accumulate(const GradBuffer &other, const Backend &backend = cpuBackend());
  // Tensor i = values (rounded to the storage type); sizes must match.
  void set(size_t i, const Tensor &values);
  // Direct access to tensor i. Writers must keep values representable in the
  // storage type (call roundToStorage() afterwards when unsure).
  float *mutableData(size_t i) { return grads_.at(i).data(); }
  void roundToStorage(const Backend &backend = cpuBackend());

  // L2 norm over all tensors (sqrt of the double sum of squares).
  double norm(const Backend &backend = cpuBackend()) const;
  // Sum of squares over all tensors (double).
  double sumSquares(const Backend &backend = cpuBackend()) const;
  // The stored values as fp32 tensors (a copy).
  std::vector<Tensor> toFloat() const { return grads_; }
  // All values of all tensors, concatenated in order (fp32).
  std::vector<float> flatten() const;

  bool bitwiseEqual(const GradBuffer &other) const;

private:
  DType dtype_ = DType::F32;
  std::vector<Tensor> grads_;
};

} // namespace runtime
} // namespace gradlint
