#pragma once
// gradlint LibTorch API model: c10::SymInt, the symbolic-shape integer that sym_size() and
// sym_sizes() return. The members user code calls: LibTorch 1.13's expect_int, is_symbolic
// and as_int_unchecked, and LibTorch 2.x's guard_int, maybe_as_int and is_heap_allocated
// (listed in torch/gradlint_libtorch2_names.h).
#include <c10/macros/Macros.h>
#include <c10/util/Optional.h>
#include <cstdint>

namespace c10 {
class C10_API SymInt {
 public:
  /*implicit*/ SymInt(int64_t d);
  SymInt();
  bool is_symbolic() const;
  int64_t expect_int() const;
  int64_t as_int_unchecked() const;
  // LibTorch 2.x:
  int64_t guard_int(const char* file, int64_t line) const;
  c10::optional<int64_t> maybe_as_int() const;
  bool is_heap_allocated() const;
};
} // namespace c10
