#pragma once
#include <ATen/core/Generator.h>
#include <c10/macros/Macros.h>
#include <c10/util/string_view.h>
#include <cstdint>

namespace at {
enum class Float32MatmulPrecision { HIGHEST, HIGH, MEDIUM };
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
  static void alertNotDeterministic(c10::string_view const& caller);
  Float32MatmulPrecision float32MatmulPrecision() const;
  // The other methods of LibTorch 1.13.1 ATen/Context.h, generated.
#include <ATen/gradlint_generated_context_methods.inc>
};

struct TORCH_API NoTF32Guard {
  NoTF32Guard();
  ~NoTF32Guard();
  static bool should_disable_tf32();
};
TORCH_API c10::Allocator* getCPUAllocator();
TORCH_API Context& globalContext();
TORCH_API void manual_seed(uint64_t seed);
TORCH_API bool hasCUDA();
} // namespace at
