#pragma once
#include <c10/macros/Macros.h>
#include <c10/util/intrusive_ptr.h>
#include <cstdint>
#include <mutex>

namespace at {
class Tensor;
struct TORCH_API Generator {
  Generator();
  void set_current_seed(uint64_t seed);
  uint64_t current_seed() const;
  uint64_t seed();
  bool defined() const;
  std::mutex& mutex();
 public:
#include <ATen/core/gradlint_generated_generator_methods.inc>
};
} // namespace at
