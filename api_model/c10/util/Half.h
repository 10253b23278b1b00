#pragma once
#include <c10/macros/Macros.h>
#include <cstdint>
#include <iosfwd>

namespace c10 {
struct alignas(2) Half {
  unsigned short x;
  struct from_bits_t {};
  static constexpr from_bits_t from_bits() { return from_bits_t(); }
  Half() = default;
  constexpr Half(unsigned short bits, from_bits_t) : x(bits) {}
  Half(float value);
  operator float() const;
};
C10_API std::ostream& operator<<(std::ostream& out, const Half& value);
} // namespace c10
