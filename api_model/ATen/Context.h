#pragma once
#include <ATen/core/Generator.h>
#include <c10/macros/Macros.h>
#include <cstdint>

namespace at {
class TORCH_API Context {
 public:
  bool hasCUDA() const;
  bool hasMPS() const;
  bool userEnabledCuDNN() const;
  void setUserEnabledCuDNN(bool e);
  bool benchmarkCuDNN() const;
  void setBenchmarkCuDNN(bool);
  bool deterministicCuDNN() const;
  void setDeterministicCuDNN(bool);
  void setDeterministicAlgorithms(bool, bool warn_only = false);
  // The other methods of LibTorch 1.13.1 ATen/Context.h, generated.
#include <ATen/gradlint_generated_context_methods.inc>
};
TORCH_API Context& globalContext();
TORCH_API void manual_seed(uint64_t seed);
TORCH_API bool hasCUDA();
} // namespace at
