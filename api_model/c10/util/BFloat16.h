#pragma once
#include <c10/macros/Macros.h>
#include <cstdint>
#include <iosfwd>

namespace c10 {
struct alignas(2) BFloat16 {
  uint16_t x;
  struct from_bits_t {};
  static constexpr from_bits_t from_bits() { return from_bits_t(); }
  BFloat16() = default;
  constexpr BFloat16(unsigned short bits, from_bits_t) : x(bits) {}
  BFloat16(float value);
  operator float() const;
};
C10_API std::ostream& operator<<(std::ostream& out, const BFloat16& value);
} // namespace c10
