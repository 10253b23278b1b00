#pragma once
#include <c10/core/ScalarType.h>
#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>
#include <c10/util/complex.h>
#include <cstdint>
#include <type_traits>

namespace c10 {

class C10_API Scalar {
 public:
  Scalar();
  Scalar(uint8_t vv);
  Scalar(int8_t vv);
  Scalar(int16_t vv);
  Scalar(int vv);
  Scalar(int64_t vv);
  Scalar(float vv);
  Scalar(double vv);
  Scalar(at::Half vv);
  Scalar(at::BFloat16 vv);
  Scalar(c10::complex<float> vv);
  Scalar(c10::complex<double> vv);
  template <typename T, typename std::enable_if<GRADLINT_MODEL_IS_SAME(T, bool), bool>::type* = nullptr>
  Scalar(T vv);
  Scalar(const Scalar& rhs);
  Scalar(Scalar&& rhs) noexcept;
  ~Scalar();
  Scalar& operator=(Scalar&& other);
  Scalar& operator=(const Scalar& other);

  double toDouble() const;
  float toFloat() const;
  int64_t toLong() const;
  int toInt() const;
  int16_t toShort() const;
  int8_t toChar() const;
  uint8_t toByte() const;
  bool toBool() const;
  at::Half toHalf() const;
  at::BFloat16 toBFloat16() const;
  c10::complex<double> toComplexDouble() const;
  c10::complex<float> toComplexFloat() const;
  c10::complex<c10::Half> toComplexHalf() const;
  template <typename T>
  T to() const;
  bool isFloatingPoint() const;
  bool isIntegral(bool includeBool) const;
  bool isComplex() const;
  bool isBoolean() const;
  Scalar operator-() const;
  Scalar conj() const;
  Scalar log() const;
  template <typename T>
  bool equal(T num) const;
  ScalarType type() const;
 public:
#include <c10/core/gradlint_generated_scalar_methods.inc>
};

C10_API std::ostream& operator<<(std::ostream& out, const Scalar& s);
C10_API std::string toString(const Scalar& s);

} // namespace c10
