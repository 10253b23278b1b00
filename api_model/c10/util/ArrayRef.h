#pragma once
#include <c10/macros/Macros.h>
#include <c10/util/Optional.h>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <type_traits>
#include <vector>

namespace c10 {

template <typename T>
class ArrayRef final {
 public:
  using iterator = const T*;
  using const_iterator = const T*;
  using size_type = size_t;
  using value_type = T;
  using reverse_iterator = std::reverse_iterator<iterator>;

 private:
  const T* Data = nullptr;
  size_type Length = 0;

 public:
  constexpr ArrayRef() = default;
  constexpr ArrayRef(const T& OneElt) : Data(&OneElt), Length(1) {}
  constexpr ArrayRef(const T* data, size_t length) : Data(data), Length(length) {}
  constexpr ArrayRef(const T* begin, const T* end) : Data(begin), Length(end - begin) {}
  template <typename A>
  ArrayRef(const std::vector<T, A>& Vec) : Data(Vec.data()), Length(Vec.size()) {}
  template <size_t N>
  constexpr ArrayRef(const std::array<T, N>& Arr) : Data(Arr.data()), Length(N) {}
  template <size_t N>
  constexpr ArrayRef(const T (&Arr)[N]) : Data(Arr), Length(N) {}
  constexpr ArrayRef(const std::initializer_list<T>& Vec)
      : Data(Vec.begin() == Vec.end() ? nullptr : Vec.begin()), Length(Vec.size()) {}

  constexpr iterator begin() const { return Data; }
  constexpr iterator end() const { return Data + Length; }
  constexpr const_iterator cbegin() const { return Data; }
  constexpr const_iterator cend() const { return Data + Length; }
  constexpr bool empty() const { return Length == 0; }
  constexpr const T* data() const { return Data; }
  constexpr size_t size() const { return Length; }
  const T& front() const;
  const T& back() const;
  bool equals(ArrayRef RHS) const;
  ArrayRef<T> slice(size_t N, size_t M) const;
  ArrayRef<T> slice(size_t N) const;
  constexpr const T& operator[](size_t Index) const { return Data[Index]; }
  const T& at(size_t Index) const;
  std::vector<T> vec() const;
 public:
#include <c10/util/gradlint_generated_arrayref_methods.inc>
};

template <typename T>
bool operator==(ArrayRef<T> a1, ArrayRef<T> a2);
template <typename T>
bool operator!=(ArrayRef<T> a1, ArrayRef<T> a2);
template <typename T>
bool operator==(const std::vector<T>& a1, ArrayRef<T> a2);
template <typename T>
bool operator==(ArrayRef<T> a1, const std::vector<T>& a2);

template <typename T>
std::ostream& operator<<(std::ostream& out, ArrayRef<T> list);

using IntArrayRef = ArrayRef<int64_t>;

template <typename T>
class OptionalArrayRef final {
 public:
  constexpr OptionalArrayRef() noexcept = default;
  constexpr OptionalArrayRef(nullopt_t) noexcept {}
  OptionalArrayRef(const OptionalArrayRef& other) = default;
  OptionalArrayRef(OptionalArrayRef&& other) = default;
  OptionalArrayRef(const optional<ArrayRef<T>>& other) noexcept;
  template <
      typename U = ArrayRef<T>,
      std::enable_if_t<
          !GRADLINT_MODEL_IS_FORWARDED(U, OptionalArrayRef) && !GRADLINT_MODEL_IS_FORWARDED(U, nullopt_t) &&
              GRADLINT_MODEL_IS_CONSTRUCTIBLE(ArrayRef<T>, U&&),
          bool> = false>
  OptionalArrayRef(U&& value);
  OptionalArrayRef(std::initializer_list<T> Vec);
  OptionalArrayRef& operator=(const OptionalArrayRef& other) = default;
  OptionalArrayRef& operator=(OptionalArrayRef&& other) = default;
  bool has_value() const noexcept;
  explicit operator bool() const noexcept;
  ArrayRef<T> value() const;
  ArrayRef<T> operator*() const;
  // Model: declaration-only; LibTorch's optional<ArrayRef<T>> member is left out.
};

using OptionalIntArrayRef = OptionalArrayRef<int64_t>;
using IntList = ArrayRef<int64_t>;

} // namespace c10

namespace at {
using c10::ArrayRef;
using c10::IntArrayRef;
using c10::OptionalIntArrayRef;
} // namespace at
