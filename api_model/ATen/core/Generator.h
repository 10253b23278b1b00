#pragma once
#include <c10/macros/Macros.h>
#include <cstdint>

namespace at {
struct TORCH_API Generator {
  Generator();
  void set_current_seed(uint64_t seed);
  uint64_t current_seed() const;
  uint64_t seed();
  bool defined() const;
};
} // namespace at
