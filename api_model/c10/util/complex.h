#pragma once
#include <c10/macros/Macros.h>
#include <complex>

namespace c10 {
template <typename T>
struct alignas(sizeof(T) * 2) complex {
  T real_ = T(0);
  T imag_ = T(0);
  constexpr complex() = default;
  constexpr complex(const T& re, const T& im = T()) : real_(re), imag_(im) {}
  constexpr T real() const { return real_; }
  constexpr T imag() const { return imag_; }
  template <typename U>
  explicit operator std::complex<U>() const;
 public:
#include <c10/util/gradlint_generated_complex_methods.inc>
};
} // namespace c10
