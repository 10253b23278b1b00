// KernelMath.h - the per-element math of the reference runtime.
//
// Every function here is GRADLINT_HD inline: it compiles for the host (C++17,
// no dependencies) and, under nvcc, for the device as well. The CPU array
// kernels (CpuKernels.cpp) and the CUDA kernels (CudaKernels.cu) both call
// exactly these functions, so the two backends share one definition of the
// numerics. Nothing in this header allocates, throws or touches global state.
//
// Conventions:
//  * Parameters, gradients and optimizer state are fp32. Reduced-precision
//    storage (fp16, bf16) is simulated by rounding an fp32 value to the nearest
//    value representable in the storage type ("round-trip"), so the result is
//    an fp32 number that is exactly representable in that type.
//  * Optimizer updates follow PyTorch (torch.optim.SGD / Adam / AdamW, the
//    single-tensor CPU implementation); scalars that depend on the step count
//    (bias corrections) are computed once per step on the host in double and
//    passed in.
#pragma once

#include <cstdint>
#include <cstring>
#include <math.h>

#if defined(__CUDACC__)
#define GRADLINT_HD __host__ __device__
#else
#define GRADLINT_HD
#endif

namespace gradlint {
namespace runtime {

// How a gradient buffer (or any array) stores its values.
enum class DType : int {
  F32 = 0,  // IEEE binary32
  F16 = 1,  // IEEE binary16: 1 sign, 5 exponent, 10 mantissa bits
  BF16 = 2, // bfloat16: 1 sign, 8 exponent, 7 mantissa bits
};

// Bytes one element occupies in its storage type (4, 2, 2).
GRADLINT_HD inline int dtypeSize(DType t) { return t == DType::F32 ? 4 : 2; }

// Activation functions of the MLP's hidden layer.
enum class Activation : int { Tanh = 0, Relu = 1 };

namespace kernels {

// ---------------------------------------------------------------------------
// Bit casts (memcpy is allowed in device code; on the device use intrinsics).
GRADLINT_HD inline uint32_t floatBits(float x) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(x);
#else
  uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
#endif
}

GRADLINT_HD inline float bitsToFloat(uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
#endif
}

// ---------------------------------------------------------------------------
// IEEE binary16.

// fp32 -> binary16 bits, round to nearest, ties to even. Magnitudes that round
// past the largest finite half (65504) become +-inf (everything >= 65520);
// magnitudes below 2^-14 become subnormals (multiples of 2^-24); magnitudes
// <= 2^-25 become (signed) zero. NaN stays NaN (quiet).
GRADLINT_HD inline uint16_t floatToHalfBits(float x) {
  const uint32_t f = floatBits(x);
  const uint32_t sign = (f >> 16) & 0x8000u;
  const uint32_t a = f & 0x7fffffffu;
  if (a >= 0x7f800000u) // inf or NaN
    return static_cast<uint16_t>(sign | (a > 0x7f800000u ? 0x7e00u : 0x7c00u));
  if (a >= 0x477ff000u) // >= 65520: rounds to infinity
    return static_cast<uint16_t>(sign | 0x7c00u);
  if (a < 0x38800000u) {        // < 2^-14: half subnormal or zero
    const uint32_t e = a >> 23; // biased fp32 exponent
    if (e < 102u)               // < 2^-25: rounds to zero (2^-25 itself is a tie -> 0)
      return static_cast<uint16_t>(sign);
    // value = m * 2^(e - 150); units of 2^-24 are m >> (126 - e).
    const uint32_t m = (a & 0x7fffffu) | 0x800000u;
    const uint32_t shift = 126u - e; // 14..24
    uint32_t q = m >> shift;
    const uint32_t rem = m & ((1u << shift) - 1u);
    const uint32_t halfway = 1u << (shift - 1u);
    if (rem > halfway || (rem == halfway && (q & 1u)))
      ++q; // may carry into the smallest normal
    return static_cast<uint16_t>(sign | q);
  }
  // Normal half: rebias the exponent (127 -> 15) and round the 13 dropped bits.
  uint32_t r = a + 0xc8000fffu + ((a >> 13) & 1u); // -(112 << 23) + 0xfff + odd
  return static_cast<uint16_t>(sign | (r >> 13));
}

// binary16 bits -> fp32 (exact).
GRADLINT_HD inline float halfBitsToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t mant = h & 0x3ffu;
  if (exp == 0) {
    const float v = static_cast<float>(mant) * 5.9604644775390625e-8f; // mant * 2^-24
    return sign ? -v : v;
  }
  if (exp == 31)
    return bitsToFloat(sign | 0x7f800000u | (mant << 13));
  return bitsToFloat(sign | ((exp + 112u) << 23) | (mant << 13));
}

// fp32 -> nearest binary16 -> fp32.
GRADLINT_HD inline float roundToHalf(float x) { return halfBitsToFloat(floatToHalfBits(x)); }

// ---------------------------------------------------------------------------
// bfloat16: the upper 16 bits of an fp32, rounded to nearest even. Same range
// as fp32 (values just below FLT_MAX may round up to inf, like IEEE).
GRADLINT_HD inline uint16_t floatToBf16Bits(float x) {
  uint32_t f = floatBits(x);
  if ((f & 0x7fffffffu) > 0x7f800000u) // NaN: keep it a quiet NaN
    return static_cast<uint16_t>((f >> 16) | 0x40u);
  f += 0x7fffu + ((f >> 16) & 1u);
  return static_cast<uint16_t>(f >> 16);
}

GRADLINT_HD inline float bf16BitsToFloat(uint16_t b) {
  return bitsToFloat(static_cast<uint32_t>(b) << 16);
}

GRADLINT_HD inline float roundToBf16(float x) { return bf16BitsToFloat(floatToBf16Bits(x)); }

// Round an fp32 value to the nearest value of the storage type.
GRADLINT_HD inline float roundTo(float x, DType t) {
  switch (t) {
  case DType::F16: return roundToHalf(x);
  case DType::BF16: return roundToBf16(x);
  default: return x;
  }
}

// ---------------------------------------------------------------------------
// Gradient accumulation in a storage type, as `.grad += g` does for a
// half-precision parameter: the incoming gradient `g` is itself a value of the
// storage type (what a half-precision backward produces), the sum is formed
// in fp32 and rounded back to the storage type.
GRADLINT_HD inline float accumulateRounded(float stored, float g, DType t) {
  return roundTo(stored + roundTo(g, t), t);
}

// ---------------------------------------------------------------------------
// Activations. Backward functions take both the input `x` and the output `y`
// of the forward so each can use whichever PyTorch uses (tanh: y, relu: x).
GRADLINT_HD inline float tanhForward(float x) { return tanhf(x); }
GRADLINT_HD inline float tanhBackward(float y, float dy) { return dy * (1.0f - y * y); }
GRADLINT_HD inline float reluForward(float x) { return x > 0.0f ? x : 0.0f; }
// d relu / dx at 0 is taken as 0 (PyTorch's threshold_backward).
GRADLINT_HD inline float reluBackward(float x, float dy) { return x > 0.0f ? dy : 0.0f; }

GRADLINT_HD inline float activationForward(Activation a, float x) {
  return a == Activation::Relu ? reluForward(x) : tanhForward(x);
}
GRADLINT_HD inline float activationBackward(Activation a, float x, float y, float dy) {
  return a == Activation::Relu ? reluBackward(x, dy) : tanhBackward(y, dy);
}

// ---------------------------------------------------------------------------
// Clipping: clip_grad_value_ clamps every element to [-clip, clip].
GRADLINT_HD inline float clipValue(float g, float clip) {
  return g > clip ? clip : (g < -clip ? -clip : g);
}

// ---------------------------------------------------------------------------
// Losses (per element / per row).

// Squared error of one element, and the gradient of gradScale * (p - t)^2.
GRADLINT_HD inline double squaredError(float pred, float target) {
  const double d = static_cast<double>(pred) - static_cast<double>(target);
  return d * d;
}
GRADLINT_HD inline float mseGrad(float pred, float target, float gradScale) {
  return 2.0f * gradScale * (pred - target);
}

// Softmax cross entropy of one row of logits against an integer label:
// returns logsumexp(z) - z[label] (computed in double, max-shifted) and, when
// `grad` is not null, writes gradScale * (softmax(z) - onehot(label)) to it.
GRADLINT_HD inline double crossEntropyRow(const float *z, int classes, int label, float gradScale,
                                          float *grad) {
  double mx = z[0];
  for (int c = 1; c < classes; ++c)
    mx = z[c] > mx ? z[c] : mx;
  double s = 0.0;
  for (int c = 0; c < classes; ++c)
    s += exp(static_cast<double>(z[c]) - mx);
  const double lse = mx + log(s);
  if (grad) {
    for (int c = 0; c < classes; ++c) {
      const double p = exp(static_cast<double>(z[c]) - lse);
      grad[c] = static_cast<float>(static_cast<double>(gradScale) * (p - (c == label ? 1.0 : 0.0)));
    }
  }
  return lse - static_cast<double>(z[label]);
}

// ---------------------------------------------------------------------------
// SGD (torch.optim.SGD):
//   d = g + weightDecay * p
//   if momentum != 0: buf = first step ? d : momentum * buf + (1 - dampening) * d
//                     d = nesterov ? d + momentum * buf : buf
//   p -= lr * d
struct SgdScalars {
  float lr = 0.0f;
  float momentum = 0.0f;
  float dampening = 0.0f;
  float weightDecay = 0.0f;
  bool nesterov = false;
  bool firstStep = true; // the momentum buffer does not exist yet
};

GRADLINT_HD inline void sgdUpdate(float &p, float g, float &buf, const SgdScalars &s) {
  float d = g;
  if (s.weightDecay != 0.0f)
    d = d + s.weightDecay * p;
  if (s.momentum != 0.0f) {
    buf = s.firstStep ? d : s.momentum * buf + (1.0f - s.dampening) * d;
    d = s.nesterov ? d + s.momentum * buf : buf;
  }
  p = p - s.lr * d;
}

// Adam / AdamW (torch.optim.Adam / AdamW, amsgrad off), step t >= 1:
//   AdamW: p *= 1 - lr * weightDecay            (decoupled weight decay)
//   Adam:  g += weightDecay * p                 (L2 penalty in the gradient)
//   m = beta1 * m + (1 - beta1) * g
//   v = beta2 * v + (1 - beta2) * g * g
//   p -= (lr / (1 - beta1^t)) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)
// eps is added outside the square root.
struct AdamScalars {
  float lr = 0.0f;
  float beta1 = 0.9f;
  float beta2 = 0.999f;
  float oneMinusBeta1 = 0.1f;   // 1 - beta1, formed in double
  float oneMinusBeta2 = 0.001f; // 1 - beta2, formed in double
  float eps = 1e-8f;
  float weightDecay = 0.0f;
  float decayFactor = 1.0f;      // 1 - lr * weightDecay, formed in double (AdamW)
  bool decoupled = true;         // true: AdamW, false: Adam
  float stepSize = 0.0f;         // lr / (1 - beta1^t)
  float biasCorrection2Sqrt = 1; // sqrt(1 - beta2^t)
};

// The scalars of step t (t >= 1), computed in double like PyTorch does.
GRADLINT_HD inline AdamScalars makeAdamScalars(double lr, double beta1, double beta2, double eps,
                                               double weightDecay, bool decoupled, long long t) {
  AdamScalars s;
  s.lr = static_cast<float>(lr);
  s.beta1 = static_cast<float>(beta1);
  s.beta2 = static_cast<float>(beta2);
  s.oneMinusBeta1 = static_cast<float>(1.0 - beta1);
  s.oneMinusBeta2 = static_cast<float>(1.0 - beta2);
  s.eps = static_cast<float>(eps);
  s.weightDecay = static_cast<float>(weightDecay);
  s.decayFactor = static_cast<float>(1.0 - lr * weightDecay);
  s.decoupled = decoupled;
  const double bc1 = 1.0 - pow(beta1, static_cast<double>(t));
  const double bc2 = 1.0 - pow(beta2, static_cast<double>(t));
  s.stepSize = static_cast<float>(lr / bc1);
  s.biasCorrection2Sqrt = static_cast<float>(sqrt(bc2));
  return s;
}

GRADLINT_HD inline void adamUpdate(float &p, float g, float &m, float &v, const AdamScalars &s) {
  if (s.weightDecay != 0.0f) {
    if (s.decoupled)
      p = p * s.decayFactor;
    else
      g = g + s.weightDecay * p;
  }
  m = s.beta1 * m + s.oneMinusBeta1 * g;
  v = s.beta2 * v + s.oneMinusBeta2 * g * g;
  const float denom = sqrtf(v) / s.biasCorrection2Sqrt + s.eps;
  p = p - s.stepSize * (m / denom);
}

} // namespace kernels
} // namespace runtime
} // namespace gradlint
