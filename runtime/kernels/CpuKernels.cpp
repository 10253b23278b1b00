// CpuKernels.cpp - host loops calling KernelMath (see CpuKernels.h).
#include "CpuKernels.h"

#include <cmath>

namespace gradlint {
namespace runtime {

using namespace kernels;

void CpuBackend::linearForward(const float *x, const float *W, const float *bias, float *y,
                               int batch, int in, int out) const {
  for (int b = 0; b < batch; ++b) {
    const float *xr = x + static_cast<int64_t>(b) * in;
    for (int o = 0; o < out; ++o) {
      const float *wr = W + static_cast<int64_t>(o) * in;
      double acc = 0.0;
      for (int i = 0; i < in; ++i)
        acc += static_cast<double>(xr[i]) * wr[i];
      if (bias)
        acc += bias[o];
      y[static_cast<int64_t>(b) * out + o] = static_cast<float>(acc);
    }
  }
}

void CpuBackend::linearBackward(const float *x, const float *W, const float *dy, float *dW,
                                float *db, float *dx, int batch, int in, int out) const {
  if (dW) {
    for (int o = 0; o < out; ++o)
      for (int i = 0; i < in; ++i) {
        double acc = 0.0;
        for (int b = 0; b < batch; ++b)
          acc += static_cast<double>(dy[static_cast<int64_t>(b) * out + o]) *
                 x[static_cast<int64_t>(b) * in + i];
        dW[static_cast<int64_t>(o) * in + i] = static_cast<float>(acc);
      }
  }
  if (db) {
    for (int o = 0; o < out; ++o) {
      double acc = 0.0;
      for (int b = 0; b < batch; ++b)
        acc += dy[static_cast<int64_t>(b) * out + o];
      db[o] = static_cast<float>(acc);
    }
  }
  if (dx) {
    for (int b = 0; b < batch; ++b)
      for (int i = 0; i < in; ++i) {
        double acc = 0.0;
        for (int o = 0; o < out; ++o)
          acc += static_cast<double>(dy[static_cast<int64_t>(b) * out + o]) *
                 W[static_cast<int64_t>(o) * in + i];
        dx[static_cast<int64_t>(b) * in + i] = static_cast<float>(acc);
      }
  }
}

void CpuBackend::activationForward(Activation act, const float *x, float *y, int64_t n) const {
  for (int64_t i = 0; i < n; ++i)
    y[i] = kernels::activationForward(act, x[i]);
}

void CpuBackend::activationBackward(Activation act, const float *x, const float *y, const float *dy,
                                    float *dx, int64_t n) const {
  for (int64_t i = 0; i < n; ++i)
    dx[i] = kernels::activationBackward(act, x[i], y[i], dy[i]);
}

void CpuBackend::fill(float *x, int64_t n, float value) const {
  for (int64_t i = 0; i < n; ++i)
    x[i] = value;
}

void CpuBackend::axpy(float *y, const float *x, int64_t n, float alpha) const {
  for (int64_t i = 0; i < n; ++i)
    y[i] = y[i] + alpha * x[i];
}

void CpuBackend::roundTo(float *x, int64_t n, DType t) const {
  for (int64_t i = 0; i < n; ++i)
    x[i] = kernels::roundTo(x[i], t);
}

void CpuBackend::accumulate(float *dst, const float *src, int64_t n, DType t) const {
  for (int64_t i = 0; i < n; ++i)
    dst[i] = accumulateRounded(dst[i], src[i], t);
}

void CpuBackend::scale(float *x, int64_t n, float factor, DType t) const {
  for (int64_t i = 0; i < n; ++i)
    x[i] = kernels::roundTo(x[i] * factor, t);
}

void CpuBackend::clampAbs(float *x, int64_t n, float clip, DType t) const {
  for (int64_t i = 0; i < n; ++i)
    x[i] = kernels::roundTo(clipValue(x[i], clip), t);
}

double CpuBackend::sumSquares(const float *x, int64_t n) const {
  double acc = 0.0;
  for (int64_t i = 0; i < n; ++i)
    acc += static_cast<double>(x[i]) * x[i];
  return acc;
}

double CpuBackend::maxAbs(const float *x, int64_t n) const {
  double m = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const double a = std::fabs(static_cast<double>(x[i]));
    if (std::isnan(a))
      return a;
    if (a > m)
      m = a;
  }
  return m;
}

double CpuBackend::mseLoss(const float *pred, const float *target, float *grad, int64_t n,
                           float gradScale) const {
  double acc = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    acc += squaredError(pred[i], target[i]);
    if (grad)
      grad[i] = mseGrad(pred[i], target[i], gradScale);
  }
  return acc;
}

double CpuBackend::crossEntropyLoss(const float *logits, const int32_t *labels, float *grad,
                                    int batch, int classes, float gradScale) const {
  double acc = 0.0;
  for (int b = 0; b < batch; ++b) {
    const int64_t off = static_cast<int64_t>(b) * classes;
    acc +=
        crossEntropyRow(logits + off, classes, labels[b], gradScale, grad ? grad + off : nullptr);
  }
  return acc;
}

void CpuBackend::sgdStep(float *param, const float *grad, float *momentumBuf, int64_t n,
                         const SgdScalars &s) const {
  float unused = 0.0f;
  for (int64_t i = 0; i < n; ++i)
    sgdUpdate(param[i], grad[i], momentumBuf ? momentumBuf[i] : unused, s);
}

void CpuBackend::adamStep(float *param, const float *grad, float *expAvg, float *expAvgSq,
                          int64_t n, const AdamScalars &s) const {
  for (int64_t i = 0; i < n; ++i)
    adamUpdate(param[i], grad[i], expAvg[i], expAvgSq[i], s);
}

} // namespace runtime
} // namespace gradlint
