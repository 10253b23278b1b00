// CudaKernels.cu - the array kernels as CUDA kernels over KernelMath.
//
// Each Backend method copies its host inputs to the device, launches one or
// two kernels and copies the results back (the runtime's arrays are tiny; the
// point is to run the same KernelMath code on the GPU, not speed). Kernels that
// reduce use a single block with a fixed-shape tree, so results are
// deterministic. Built with --fmad=false so products and sums round like the
// CPU code.
#include "CudaKernels.h"

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace gradlint {
namespace runtime {
namespace cuda {

using namespace kernels;

namespace {

constexpr int kThreads = 256;       // threads per block of elementwise kernels
constexpr int kReduceThreads = 256; // the single block of a reduction (power of two)

void check(cudaError_t err, const char *what) {
  if (err != cudaSuccess)
    throw std::runtime_error(std::string("gradlint runtime CUDA error in ") + what + ": " +
                             cudaGetErrorString(err));
}

int blocksFor(int64_t n) {
  int64_t b = (n + kThreads - 1) / kThreads;
  if (b < 1)
    b = 1;
  if (b > 65535)
    b = 65535; // grid-stride loops cover the rest
  return static_cast<int>(b);
}

// A device array of T, optionally initialised from host memory.
template <typename T> class DeviceArray {
public:
  explicit DeviceArray(int64_t n, const T *host = nullptr) : n_(n) {
    if (n_ > 0) {
      check(cudaMalloc(&ptr_, static_cast<size_t>(n_) * sizeof(T)), "cudaMalloc");
      if (host)
        check(cudaMemcpy(ptr_, host, static_cast<size_t>(n_) * sizeof(T), cudaMemcpyHostToDevice),
              "cudaMemcpy H2D");
    }
  }
  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &operator=(const DeviceArray &) = delete;
  ~DeviceArray() {
    if (ptr_)
      cudaFree(ptr_);
  }
  T *get() const { return ptr_; }
  void toHost(T *host) const {
    if (n_ > 0 && host)
      check(cudaMemcpy(host, ptr_, static_cast<size_t>(n_) * sizeof(T), cudaMemcpyDeviceToHost),
            "cudaMemcpy D2H");
  }

private:
  T *ptr_ = nullptr;
  int64_t n_;
};

// Null host pointer -> null device pointer, otherwise a copy.
template <typename T> std::unique_ptr<DeviceArray<T>> optionalArray(int64_t n, const T *host) {
  if (!host)
    return nullptr;
  return std::unique_ptr<DeviceArray<T>>(new DeviceArray<T>(n, host));
}

void finishLaunch(const char *what) {
  check(cudaGetLastError(), what);
  check(cudaDeviceSynchronize(), what);
}

// ---------------------------------------------------------------------------
// Kernels.

__global__ void linearForwardKernel(const float *x, const float *W, const float *bias, float *y,
                                    int batch, int in, int out) {
  const int64_t total = static_cast<int64_t>(batch) * out;
  for (int64_t k = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; k < total;
       k += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int b = static_cast<int>(k / out), o = static_cast<int>(k % out);
    const float *xr = x + static_cast<int64_t>(b) * in;
    const float *wr = W + static_cast<int64_t>(o) * in;
    double acc = 0.0;
    for (int i = 0; i < in; ++i)
      acc += static_cast<double>(xr[i]) * wr[i];
    if (bias)
      acc += bias[o];
    y[k] = static_cast<float>(acc);
  }
}

__global__ void linearBackwardWeightKernel(const float *x, const float *dy, float *dW, int batch,
                                           int in, int out) {
  const int64_t total = static_cast<int64_t>(out) * in;
  for (int64_t k = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; k < total;
       k += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int o = static_cast<int>(k / in), i = static_cast<int>(k % in);
    double acc = 0.0;
    for (int b = 0; b < batch; ++b)
      acc += static_cast<double>(dy[static_cast<int64_t>(b) * out + o]) *
             x[static_cast<int64_t>(b) * in + i];
    dW[k] = static_cast<float>(acc);
  }
}

__global__ void linearBackwardBiasKernel(const float *dy, float *db, int batch, int out) {
  for (int o = blockIdx.x * blockDim.x + threadIdx.x; o < out; o += gridDim.x * blockDim.x) {
    double acc = 0.0;
    for (int b = 0; b < batch; ++b)
      acc += dy[static_cast<int64_t>(b) * out + o];
    db[o] = static_cast<float>(acc);
  }
}

__global__ void linearBackwardInputKernel(const float *W, const float *dy, float *dx, int batch,
                                          int in, int out) {
  const int64_t total = static_cast<int64_t>(batch) * in;
  for (int64_t k = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; k < total;
       k += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int b = static_cast<int>(k / in), i = static_cast<int>(k % in);
    double acc = 0.0;
    for (int o = 0; o < out; ++o)
      acc += static_cast<double>(dy[static_cast<int64_t>(b) * out + o]) *
             W[static_cast<int64_t>(o) * in + i];
    dx[k] = static_cast<float>(acc);
  }
}

#define GRADLINT_GRID_STRIDE(i, n)                                                                 \
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < (n);           \
       i += static_cast<int64_t>(gridDim.x) * blockDim.x)

__global__ void activationForwardKernel(Activation act, const float *x, float *y, int64_t n) {
  GRADLINT_GRID_STRIDE(i, n) y[i] = activationForward(act, x[i]);
}

__global__ void activationBackwardKernel(Activation act, const float *x, const float *y,
                                         const float *dy, float *dx, int64_t n) {
  GRADLINT_GRID_STRIDE(i, n) dx[i] = activationBackward(act, x[i], y[i], dy[i]);
}

__global__ void fillKernel(float *x, int64_t n, float value) {
  GRADLINT_GRID_STRIDE(i, n) x[i] = value;
}

__global__ void axpyKernel(float *y, const float *x, int64_t n, float alpha) {
  GRADLINT_GRID_STRIDE(i, n) y[i] = y[i] + alpha * x[i];
}

__global__ void roundToKernel(float *x, int64_t n, DType t) {
  GRADLINT_GRID_STRIDE(i, n) x[i] = kernels::roundTo(x[i], t);
}

__global__ void accumulateKernel(float *dst, const float *src, int64_t n, DType t) {
  GRADLINT_GRID_STRIDE(i, n) dst[i] = accumulateRounded(dst[i], src[i], t);
}

__global__ void scaleKernel(float *x, int64_t n, float factor, DType t) {
  GRADLINT_GRID_STRIDE(i, n) x[i] = kernels::roundTo(x[i] * factor, t);
}

__global__ void clampAbsKernel(float *x, int64_t n, float clip, DType t) {
  GRADLINT_GRID_STRIDE(i, n) x[i] = kernels::roundTo(clipValue(x[i], clip), t);
}

__global__ void mseKernel(const float *pred, const float *target, float *grad, double *terms,
                          int64_t n, float gradScale) {
  GRADLINT_GRID_STRIDE(i, n) {
    terms[i] = squaredError(pred[i], target[i]);
    if (grad)
      grad[i] = mseGrad(pred[i], target[i], gradScale);
  }
}

__global__ void crossEntropyKernel(const float *logits, const int32_t *labels, float *grad,
                                   double *terms, int batch, int classes, float gradScale) {
  GRADLINT_GRID_STRIDE(b, batch) {
    const int64_t off = b * classes;
    terms[b] =
        crossEntropyRow(logits + off, classes, labels[b], gradScale, grad ? grad + off : nullptr);
  }
}

__global__ void sgdKernel(float *param, const float *grad, float *buf, int64_t n, SgdScalars s) {
  GRADLINT_GRID_STRIDE(i, n) {
    float unused = 0.0f;
    sgdUpdate(param[i], grad[i], buf ? buf[i] : unused, s);
  }
}

__global__ void adamKernel(float *param, const float *grad, float *m, float *v, int64_t n,
                           AdamScalars s) {
  GRADLINT_GRID_STRIDE(i, n) adamUpdate(param[i], grad[i], m[i], v[i], s);
}

// Reductions: one block of kReduceThreads threads. Thread t combines elements
// t, t + T, t + 2T, ... in order, then a fixed binary tree combines the
// threads. Mode 0: sum of squares of floats; 1: max |x| of floats (NaN wins);
// 2: sum of doubles.
__device__ double combine(int mode, double a, double b) {
  if (mode == 1) {
    if (a != a)
      return a;
    if (b != b)
      return b;
    return a > b ? a : b;
  }
  return a + b;
}

__global__ void reduceKernel(int mode, const float *xf, const double *xd, int64_t n,
                             double *result) {
  __shared__ double partial[kReduceThreads];
  double acc = 0.0;
  for (int64_t i = threadIdx.x; i < n; i += kReduceThreads) {
    double term;
    if (mode == 0)
      term = static_cast<double>(xf[i]) * xf[i];
    else if (mode == 1)
      term = fabs(static_cast<double>(xf[i]));
    else
      term = xd[i];
    acc = combine(mode, acc, term);
  }
  partial[threadIdx.x] = acc;
  __syncthreads();
  for (int stride = kReduceThreads / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      partial[threadIdx.x] = combine(mode, partial[threadIdx.x], partial[threadIdx.x + stride]);
    __syncthreads();
  }
  if (threadIdx.x == 0)
    *result = partial[0];
}

double reduceOnDevice(int mode, const float *xf, const double *xd, int64_t n) {
  DeviceArray<double> result(1);
  reduceKernel<<<1, kReduceThreads>>>(mode, xf, xd, n, result.get());
  finishLaunch("reduceKernel");
  double host = 0.0;
  result.toHost(&host);
  return host;
}

// ---------------------------------------------------------------------------
class CudaBackend final : public Backend {
public:
  CudaBackend() { check(cudaSetDevice(0), "cudaSetDevice"); }

  const char *name() const override { return "cuda"; }
  BackendKind kind() const override { return BackendKind::Cuda; }

  void linearForward(const float *x, const float *W, const float *bias, float *y, int batch, int in,
                     int out) const override {
    DeviceArray<float> dx(static_cast<int64_t>(batch) * in, x);
    DeviceArray<float> dW(static_cast<int64_t>(out) * in, W);
    auto dbias = optionalArray<float>(out, bias);
    DeviceArray<float> dy(static_cast<int64_t>(batch) * out);
    linearForwardKernel<<<blocksFor(static_cast<int64_t>(batch) * out), kThreads>>>(
        dx.get(), dW.get(), dbias ? dbias->get() : nullptr, dy.get(), batch, in, out);
    finishLaunch("linearForwardKernel");
    dy.toHost(y);
  }

  void linearBackward(const float *x, const float *W, const float *dy, float *dW, float *db,
                      float *dx, int batch, int in, int out) const override {
    DeviceArray<float> ddy(static_cast<int64_t>(batch) * out, dy);
    if (dW) {
      DeviceArray<float> dxin(static_cast<int64_t>(batch) * in, x);
      DeviceArray<float> ddW(static_cast<int64_t>(out) * in);
      linearBackwardWeightKernel<<<blocksFor(static_cast<int64_t>(out) * in), kThreads>>>(
          dxin.get(), ddy.get(), ddW.get(), batch, in, out);
      finishLaunch("linearBackwardWeightKernel");
      ddW.toHost(dW);
    }
    if (db) {
      DeviceArray<float> ddb(out);
      linearBackwardBiasKernel<<<blocksFor(out), kThreads>>>(ddy.get(), ddb.get(), batch, out);
      finishLaunch("linearBackwardBiasKernel");
      ddb.toHost(db);
    }
    if (dx) {
      DeviceArray<float> dWin(static_cast<int64_t>(out) * in, W);
      DeviceArray<float> ddx(static_cast<int64_t>(batch) * in);
      linearBackwardInputKernel<<<blocksFor(static_cast<int64_t>(batch) * in), kThreads>>>(
          dWin.get(), ddy.get(), ddx.get(), batch, in, out);
      finishLaunch("linearBackwardInputKernel");
      ddx.toHost(dx);
    }
  }

  void activationForward(Activation act, const float *x, float *y, int64_t n) const override {
    DeviceArray<float> dx(n, x), dy(n);
    activationForwardKernel<<<blocksFor(n), kThreads>>>(act, dx.get(), dy.get(), n);
    finishLaunch("activationForwardKernel");
    dy.toHost(y);
  }

  void activationBackward(Activation act, const float *x, const float *y, const float *dy,
                          float *dx, int64_t n) const override {
    DeviceArray<float> ax(n, x), ay(n, y), ady(n, dy), adx(n);
    activationBackwardKernel<<<blocksFor(n), kThreads>>>(act, ax.get(), ay.get(), ady.get(),
                                                         adx.get(), n);
    finishLaunch("activationBackwardKernel");
    adx.toHost(dx);
  }

  void fill(float *x, int64_t n, float value) const override {
    DeviceArray<float> a(n);
    fillKernel<<<blocksFor(n), kThreads>>>(a.get(), n, value);
    finishLaunch("fillKernel");
    a.toHost(x);
  }

  void axpy(float *y, const float *x, int64_t n, float alpha) const override {
    DeviceArray<float> ay(n, y), ax(n, x);
    axpyKernel<<<blocksFor(n), kThreads>>>(ay.get(), ax.get(), n, alpha);
    finishLaunch("axpyKernel");
    ay.toHost(y);
  }

  void roundTo(float *x, int64_t n, DType t) const override {
    DeviceArray<float> a(n, x);
    roundToKernel<<<blocksFor(n), kThreads>>>(a.get(), n, t);
    finishLaunch("roundToKernel");
    a.toHost(x);
  }

  void accumulate(float *dst, const float *src, int64_t n, DType t) const override {
    DeviceArray<float> ad(n, dst), as(n, src);
    accumulateKernel<<<blocksFor(n), kThreads>>>(ad.get(), as.get(), n, t);
    finishLaunch("accumulateKernel");
    ad.toHost(dst);
  }

  void scale(float *x, int64_t n, float factor, DType t) const override {
    DeviceArray<float> a(n, x);
    scaleKernel<<<blocksFor(n), kThreads>>>(a.get(), n, factor, t);
    finishLaunch("scaleKernel");
    a.toHost(x);
  }

  void clampAbs(float *x, int64_t n, float clip, DType t) const override {
    DeviceArray<float> a(n, x);
    clampAbsKernel<<<blocksFor(n), kThreads>>>(a.get(), n, clip, t);
    finishLaunch("clampAbsKernel");
    a.toHost(x);
  }

  double sumSquares(const float *x, int64_t n) const override {
    DeviceArray<float> a(n, x);
    return reduceOnDevice(0, a.get(), nullptr, n);
  }

  double maxAbs(const float *x, int64_t n) const override {
    DeviceArray<float> a(n, x);
    return reduceOnDevice(1, a.get(), nullptr, n);
  }

  double mseLoss(const float *pred, const float *target, float *grad, int64_t n,
                 float gradScale) const override {
    DeviceArray<float> ap(n, pred), at(n, target);
    std::unique_ptr<DeviceArray<float>> ag(grad ? new DeviceArray<float>(n) : nullptr);
    DeviceArray<double> terms(n);
    mseKernel<<<blocksFor(n), kThreads>>>(ap.get(), at.get(), ag ? ag->get() : nullptr, terms.get(),
                                          n, gradScale);
    finishLaunch("mseKernel");
    if (ag)
      ag->toHost(grad);
    return reduceOnDevice(2, nullptr, terms.get(), n);
  }

  double crossEntropyLoss(const float *logits, const int32_t *labels, float *grad, int batch,
                          int classes, float gradScale) const override {
    const int64_t n = static_cast<int64_t>(batch) * classes;
    DeviceArray<float> al(n, logits);
    DeviceArray<int32_t> alab(batch, labels);
    std::unique_ptr<DeviceArray<float>> ag(grad ? new DeviceArray<float>(n) : nullptr);
    DeviceArray<double> terms(batch);
    crossEntropyKernel<<<blocksFor(batch), kThreads>>>(
        al.get(), alab.get(), ag ? ag->get() : nullptr, terms.get(), batch, classes, gradScale);
    finishLaunch("crossEntropyKernel");
    if (ag)
      ag->toHost(grad);
    return reduceOnDevice(2, nullptr, terms.get(), batch);
  }

  void sgdStep(float *param, const float *grad, float *momentumBuf, int64_t n,
               const SgdScalars &s) const override {
    DeviceArray<float> ap(n, param), ag(n, grad);
    auto ab = optionalArray<float>(n, momentumBuf);
    sgdKernel<<<blocksFor(n), kThreads>>>(ap.get(), ag.get(), ab ? ab->get() : nullptr, n, s);
    finishLaunch("sgdKernel");
    ap.toHost(param);
    if (ab)
      ab->toHost(momentumBuf);
  }

  void adamStep(float *param, const float *grad, float *expAvg, float *expAvgSq, int64_t n,
                const AdamScalars &s) const override {
    DeviceArray<float> ap(n, param), ag(n, grad), am(n, expAvg), av(n, expAvgSq);
    adamKernel<<<blocksFor(n), kThreads>>>(ap.get(), ag.get(), am.get(), av.get(), n, s);
    finishLaunch("adamKernel");
    ap.toHost(param);
    am.toHost(expAvg);
    av.toHost(expAvgSq);
  }
};

} // namespace

int deviceCount() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError(); // clear the sticky error state of the failed query
    return 0;
  }
  return count;
}

std::unique_ptr<Backend> makeBackend() {
  if (deviceCount() <= 0)
    throw std::runtime_error("gradlint runtime: no CUDA device");
  return std::unique_ptr<Backend>(new CudaBackend());
}

} // namespace cuda
} // namespace runtime
} // namespace gradlint
