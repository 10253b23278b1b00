// Backend.h - the array kernels of the reference runtime behind one interface.
//
// A Backend runs the array kernels (small dense matmuls, elementwise ops,
// reductions, optimizer updates). Two implementations exist:
//   * cpu  - CpuKernels.cpp, always available, plain loops;
//   * cuda - CudaKernels.cu, compiled only when CMake finds nvcc and usable
//            only when a CUDA device is present at run time.
// Both call the per-element functions of KernelMath.h.
//
// Every method takes and returns HOST pointers; the CUDA backend copies its
// inputs to the device, runs one kernel and copies the results back. Sizes are
// element counts. Row-major layout throughout; a Linear layer's weight is
// [out, in] like torch::nn::Linear, so y = x * W^T + b.
//
// Determinism: every kernel visits its inputs in a fixed order (reductions use
// a fixed tree on the device), so a backend returns bit-identical results for
// identical inputs. CPU and CUDA agree to float rounding, not bitwise
// (transcendentals differ).
#pragma once

#include "KernelMath.h"

#include <cstdint>
#include <memory>
#include <string>

namespace gradlint {
namespace runtime {

enum class BackendKind {
  Cpu,  // always available
  Cuda, // requires a CUDA build and a device
  Auto, // Cuda when available, otherwise Cpu
};

class Backend {
public:
  virtual ~Backend() = default;

  // "cpu" or "cuda".
  virtual const char *name() const = 0;
  virtual BackendKind kind() const = 0;

  // --- dense layers -------------------------------------------------------
  // y[b, o] = sum_i x[b, i] * W[o, i] + bias[o]   (bias may be null)
  virtual void linearForward(const float *x, const float *W, const float *bias, float *y, int batch,
                             int in, int out) const = 0;
  // Given dy = dL/dy [batch, out] of y = x W^T + b, OVERWRITES
  //   dW[o, i] = sum_b dy[b, o] * x[b, i]    (dW may be null)
  //   db[o]    = sum_b dy[b, o]              (db may be null)
  //   dx[b, i] = sum_o dy[b, o] * W[o, i]    (dx may be null)
  // Sums over b run in increasing b order, accumulated in double.
  virtual void linearBackward(const float *x, const float *W, const float *dy, float *dW, float *db,
                              float *dx, int batch, int in, int out) const = 0;

  // --- elementwise ----------------------------------------------------------
  // y = act(x)
  virtual void activationForward(Activation act, const float *x, float *y, int64_t n) const = 0;
  // dx = act'(x) * dy (uses x for relu, y = act(x) for tanh)
  virtual void activationBackward(Activation act, const float *x, const float *y, const float *dy,
                                  float *dx, int64_t n) const = 0;
  // x = value
  virtual void fill(float *x, int64_t n, float value) const = 0;
  // y = y + alpha * x   (fp32, no rounding to a storage type)
  virtual void axpy(float *y, const float *x, int64_t n, float alpha) const = 0;
  // x = roundTo(x, t)
  virtual void roundTo(float *x, int64_t n, DType t) const = 0;
  // dst = roundTo(dst + roundTo(src, t), t)   (gradient accumulation, `.grad += g`)
  virtual void accumulate(float *dst, const float *src, int64_t n, DType t) const = 0;
  // x = roundTo(x * factor, t)   (grad.mul_(factor); div_(N) is mul by 1/N)
  virtual void scale(float *x, int64_t n, float factor, DType t) const = 0;
  // x = roundTo(clamp(x, -clip, clip), t)
  virtual void clampAbs(float *x, int64_t n, float clip, DType t) const = 0;

  // --- reductions -------------------------------------------------------------
  // sum x[i]^2 in double.
  virtual double sumSquares(const float *x, int64_t n) const = 0;
  // max |x[i]| (0 for n == 0; inf/NaN propagate).
  virtual double maxAbs(const float *x, int64_t n) const = 0;

  // --- losses -----------------------------------------------------------------
  // MSE over n elements: returns sum (pred - target)^2 (double); when grad is
  // not null, OVERWRITES grad = 2 * gradScale * (pred - target).
  virtual double mseLoss(const float *pred, const float *target, float *grad, int64_t n,
                         float gradScale) const = 0;
  // Softmax cross entropy over `batch` rows of `classes` logits: returns the
  // SUM over rows of logsumexp(z) - z[label]; when grad is not null,
  // OVERWRITES grad = gradScale * (softmax(z) - onehot(label)).
  virtual double crossEntropyLoss(const float *logits, const int32_t *labels, float *grad,
                                  int batch, int classes, float gradScale) const = 0;

  // --- optimizer updates (in place on param and state) --------------------------
  // momentumBuf may be null only when s.momentum == 0.
  virtual void sgdStep(float *param, const float *grad, float *momentumBuf, int64_t n,
                       const kernels::SgdScalars &s) const = 0;
  virtual void adamStep(float *param, const float *grad, float *expAvg, float *expAvgSq, int64_t n,
                        const kernels::AdamScalars &s) const = 0;
};

// The CPU backend (a process-wide stateless singleton).
const Backend &cpuBackend();

// True when this build contains the CUDA backend.
bool cudaBackendBuilt();
// Number of CUDA devices the CUDA runtime reports; 0 when the backend is not
// built, no driver is installed or cudaGetDeviceCount fails.
int cudaDeviceCount();
// cudaBackendBuilt() && cudaDeviceCount() > 0.
bool cudaAvailable();
// The CUDA backend (device 0), or null when !cudaAvailable().
const Backend *cudaBackend();

// Cpu -> cpuBackend(); Cuda -> cudaBackend() or throws std::runtime_error when
// it is unavailable; Auto -> cudaBackend() when available, else cpuBackend().
const Backend &selectBackend(BackendKind kind);

// "cpu" / "cuda" / "auto" <-> BackendKind (parse throws std::invalid_argument).
const char *backendKindName(BackendKind kind);
BackendKind parseBackendKind(const std::string &name);

} // namespace runtime
} // namespace gradlint
