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
