#pragma once
// Model of c10::optional (LibTorch 1.13 ships its own optional class in namespace c10,
// with c10::nullopt_t / c10::nullopt). A light class with the public members of
// LibTorch's optional, declared only, so that parameters of optional type and their
// defaults cost little to parse (see "Parse cost" in README.md). Default arguments that
// LibTorch spells `= c10::nullopt` are written `= {}` in the model (the same empty
// optional without a converting-constructor overload resolution per parameter).
#include <c10/macros/Macros.h>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace c10 {

struct nullopt_t {
  constexpr explicit nullopt_t(int) {}
};
constexpr nullopt_t nullopt{0};

struct in_place_t {
  explicit in_place_t() = default;
};
constexpr in_place_t in_place{};

class bad_optional_access : public std::logic_error {
 public:
  explicit bad_optional_access(const std::string& what_arg);
  explicit bad_optional_access(const char* what_arg);
};

template <class T>
class optional;

// optional<T>'s converting constructor takes any U that T can be constructed from, except
// optional, nullopt_t and in_place_t themselves (traits of c10/macros/Macros.h).
#define GRADLINT_MODEL_OPTIONAL_FROM(T, U)                                                              \
  (!GRADLINT_MODEL_IS_FORWARDED(U, ::c10::optional<T>) && !GRADLINT_MODEL_IS_FORWARDED(U, ::c10::nullopt_t) && \
   !GRADLINT_MODEL_IS_FORWARDED(U, ::c10::in_place_t) && GRADLINT_MODEL_IS_CONSTRUCTIBLE(T, U&&))

template <class T>
class optional {
 public:
  typedef T value_type;

  constexpr optional() noexcept {}
  constexpr optional(nullopt_t) noexcept {}
  optional(const optional& rhs);
  optional(optional&& rhs) noexcept(std::is_nothrow_move_constructible<T>::value);
  template <class... Args>
  explicit optional(in_place_t, Args&&... args);
  template <class U = T, typename = std::enable_if_t<GRADLINT_MODEL_OPTIONAL_FROM(T, U)>>
  /* implicit */ optional(U&& u);
  ~optional();

  optional& operator=(nullopt_t) noexcept;
  optional& operator=(const optional& rhs);
  optional& operator=(optional&& rhs) noexcept(std::is_nothrow_move_assignable<T>::value &&
                                                std::is_nothrow_move_constructible<T>::value);
  template <class U = T, typename = std::enable_if_t<GRADLINT_MODEL_OPTIONAL_FROM(T, U)>>
  optional& operator=(U&& v);

  template <class... Args>
  void emplace(Args&&... args);
  void swap(optional<T>& rhs);
  void reset() noexcept;

  const T* operator->() const;
  T* operator->();
  const T& operator*() const&;
  T& operator*() &;
  T&& operator*() &&;
  explicit operator bool() const noexcept;
  bool has_value() const noexcept;
  const T& value() const&;
  T& value() &;
  T&& value() &&;
  template <class V>
  T value_or(V&& v) const&;
  template <class V>
  T value_or(V&& v) &&;
};

template <class T>
optional<typename std::decay<T>::type> make_optional(T&& v);

template <class T>
bool operator==(const optional<T>& x, const optional<T>& y);
template <class T>
bool operator!=(const optional<T>& x, const optional<T>& y);
template <class T>
bool operator<(const optional<T>& x, const optional<T>& y);
template <class T>
bool operator>(const optional<T>& x, const optional<T>& y);
template <class T>
bool operator<=(const optional<T>& x, const optional<T>& y);
template <class T>
bool operator>=(const optional<T>& x, const optional<T>& y);
template <class T>
bool operator==(const optional<T>& x, nullopt_t) noexcept;
template <class T>
bool operator==(nullopt_t, const optional<T>& x) noexcept;
template <class T>
bool operator!=(const optional<T>& x, nullopt_t) noexcept;
template <class T>
bool operator!=(nullopt_t, const optional<T>& x) noexcept;
template <class T, class U>
bool operator==(const optional<T>& x, const U& v);
template <class T, class U>
bool operator==(const U& v, const optional<T>& x);
template <class T, class U>
bool operator!=(const optional<T>& x, const U& v);
template <class T, class U>
bool operator!=(const U& v, const optional<T>& x);

template <class T>
void swap(optional<T>& x, optional<T>& y);

} // namespace c10
