#pragma once
#include <c10/util/ArrayRef.h>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace torch {
template <size_t D, typename T = int64_t>
class ExpandingArray {
 public:
  /*implicit*/ ExpandingArray(std::initializer_list<T> list);
  /*implicit*/ ExpandingArray(std::vector<T> vec);
  /*implicit*/ ExpandingArray(at::ArrayRef<T> values);
  /*implicit*/ ExpandingArray(T single_size);
  /*implicit*/ ExpandingArray(const std::array<T, D>& values);
  std::array<T, D>& operator*();
  const std::array<T, D>& operator*() const;
  std::array<T, D>* operator->();
  const std::array<T, D>* operator->() const;
  operator at::ArrayRef<T>() const;
  size_t size() const noexcept;

 protected:
  std::array<T, D> values_;
};

template <size_t D, typename T = int64_t>
class ExpandingArrayWithOptionalElem : public ExpandingArray<D, c10::optional<T>> {
 public:
  using ExpandingArray<D, c10::optional<T>>::ExpandingArray;
  /*implicit*/ ExpandingArrayWithOptionalElem(std::initializer_list<T> list);
  /*implicit*/ ExpandingArrayWithOptionalElem(std::vector<T> vec);
  /*implicit*/ ExpandingArrayWithOptionalElem(at::ArrayRef<T> values);
  /*implicit*/ ExpandingArrayWithOptionalElem(T single_size);
};
} // namespace torch
