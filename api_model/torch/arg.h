#pragma once
#include <utility>

// Same expansion as LibTorch's TORCH_ARG: chained setter, const/non-const getter, member.
#define TORCH_ARG(T, name)                                      \
 public:                                                        \
  inline auto name(const T& new_##name)->decltype(*this) {      \
    this->name##_ = new_##name;                                 \
    return *this;                                               \
  }                                                             \
  inline auto name(T&& new_##name)->decltype(*this) {           \
    this->name##_ = std::move(new_##name);                      \
    return *this;                                               \
  }                                                             \
  inline const T& name() const noexcept {                       \
    return this->name##_;                                       \
  }                                                             \
  inline T& name() noexcept {                                   \
    return this->name##_;                                       \
  }                                                             \
                                                                \
 private:                                                       \
  T name##_

// Model-internal form of TORCH_ARG for the model's own options structs: the same
// chained setters and getters (same names, signatures and access), declared only and
// without the `name_` data member, so that an options struct does not instantiate
// c10::optional<T> / c10::variant<...> members or check their default initializers.
// The LibTorch default of each option is kept as a comment where it is used.
// User code keeps the full TORCH_ARG above (fields with in-class initializers).
#define GRADLINT_MODEL_ARG(T, name)                  \
 public:                                             \
  auto name(const T& new_##name)->decltype(*this);   \
  auto name(T&& new_##name)->decltype(*this);        \
  const T& name() const noexcept;                    \
  T& name() noexcept;                                \
                                                     \
 private:                                            \
  static_assert(true, "")
