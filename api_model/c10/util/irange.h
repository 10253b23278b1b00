#pragma once
// gradlint LibTorch API model: c10/util/irange.h (LibTorch 1.13.1), declarations.
#include <c10/macros/Macros.h>
#include <type_traits>

namespace c10 {
namespace detail {
template <typename I, bool one_sided = false>
struct integer_iterator {
  I operator*() const;
  I const* operator->() const;
  integer_iterator& operator++();
  integer_iterator operator++(int);
  bool operator==(const integer_iterator& other) const;
  bool operator!=(const integer_iterator& other) const;
};
} // namespace detail

template <typename I, bool one_sided = false>
struct integer_range {
 public:
  integer_range(I begin, I end);
  using iterator = detail::integer_iterator<I, one_sided>;
  iterator begin() const;
  iterator end() const;
};

template <typename Integer1, typename Integer2,
          std::enable_if_t<std::is_integral<Integer1>::value, bool> = true,
          std::enable_if_t<std::is_integral<Integer2>::value, bool> = true>
integer_range<Integer2> irange(Integer1 begin, Integer2 end);
template <typename Integer, std::enable_if_t<std::is_integral<Integer>::value, bool> = true>
integer_range<Integer, true> irange(Integer end);
} // namespace c10
