// CpuKernels.h - the array kernels as plain host loops over KernelMath.
//
// CpuBackend implements Backend (see Backend.h for the contract of each
// method). Loops run in a fixed order and dot products / reductions
// accumulate in double, so results are bit-identical from run to run.
#pragma once

#include "Backend.h"

namespace gradlint {
namespace runtime {

class CpuBackend final : public Backend {
public:
  const char *name() const override { return "cpu"; }
  BackendKind kind() const override { return BackendKind::Cpu; }

  void linearForward(const float *x, const float *W, const float *bias, float *y, int batch, int in,
                     int out) const override;
  void linearBackward(const float *x, const float *W, const float *dy, float *dW, float *db,
                      float *dx, int batch, int in, int out) const override;

  void activationForward(Activation act, const float *x, float *y, int64_t n) const override;
  void activationBackward(Activation act, const float *x, const float *y, const float *dy,
                          float *dx, int64_t n) const override;
  void fill(float *x, int64_t n, float value) const override;
  void axpy(float *y, const float *x, int64_t n, float alpha) const override;
  void roundTo(float *x, int64_t n, DType t) const override;
  void accumulate(float *dst, const float *src, int64_t n, DType t) const override;
  void scale(float *x, int64_t n, float factor, DType t) const override;
  void clampAbs(float *x, int64_t n, float clip, DType t) const override;

  double sumSquares(const float *x, int64_t n) const override;
  double maxAbs(const float *x, int64_t n) const override;

  double mseLoss(const float *pred, const float *target, float *grad, int64_t n,
                 float gradScale) const override;
  double crossEntropyLoss(const float *logits, const int32_t *labels, float *grad, int batch,
                          int classes, float gradScale) const override;

  void sgdStep(float *param, const float *grad, float *momentumBuf, int64_t n,
               const kernels::SgdScalars &s) const override;
  void adamStep(float *param, const float *grad, float *expAvg, float *expAvgSq, int64_t n,
                const kernels::AdamScalars &s) const override;
};

} // namespace runtime
} // namespace gradlint
