#pragma once
#include <c10/macros/Macros.h>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

// std::vector<T>::iterator / const_iterator, named without instantiating std::vector<T>
// (Sequential, ModuleList, ModuleDict and OrderedDict declare their iterator types from
// vectors that the declarations alone never need). The same types; libstdc++ spells them
// __gnu_cxx::__normal_iterator, other libraries get the member typedefs.
#if defined(__GLIBCXX__)
#define GRADLINT_MODEL_VECTOR_ITERATOR(...) ::__gnu_cxx::__normal_iterator<__VA_ARGS__*, ::std::vector<__VA_ARGS__>>
#define GRADLINT_MODEL_VECTOR_CONST_ITERATOR(...) \
  ::__gnu_cxx::__normal_iterator<const __VA_ARGS__*, ::std::vector<__VA_ARGS__>>
#else
#define GRADLINT_MODEL_VECTOR_ITERATOR(...) typename ::std::vector<__VA_ARGS__>::iterator
#define GRADLINT_MODEL_VECTOR_CONST_ITERATOR(...) typename ::std::vector<__VA_ARGS__>::const_iterator
#endif

namespace torch {
template <typename Key, typename Value>
class OrderedDict {
 public:
  class Item;
  using Iterator = GRADLINT_MODEL_VECTOR_ITERATOR(Item);
  using ConstIterator = GRADLINT_MODEL_VECTOR_CONST_ITERATOR(Item);

  explicit OrderedDict(std::string key_description = "Key");
  OrderedDict(const OrderedDict& other);
  OrderedDict& operator=(const OrderedDict& other);
  OrderedDict(OrderedDict&& other) = default;
  OrderedDict& operator=(OrderedDict&& other) = default;
  ~OrderedDict() = default;
  /*implicit*/ OrderedDict(std::initializer_list<Item> initializer_list);

  const std::string& key_description() const noexcept;
  Item& front();
  const Item& front() const;
  Item& back();
  const Item& back() const;
  Item& operator[](size_t index);
  const Item& operator[](size_t index) const;
  Value& operator[](const Key& key);
  const Value& operator[](const Key& key) const;
  Value* find(const Key& key) noexcept;
  const Value* find(const Key& key) const noexcept;
  bool contains(const Key& key) const noexcept;
  Iterator begin();
  ConstIterator begin() const;
  Iterator end();
  ConstIterator end() const;
  size_t size() const noexcept;
  bool is_empty() const noexcept;
  void reserve(size_t requested_capacity);
  template <typename K, typename V>
  Value& insert(K&& key, V&& value);
  Value& insert(Key key, Value&& value);
  void update(OrderedDict&& other);
  void update(const OrderedDict& other);
  void erase(const Key& key);
  void clear();
  const std::vector<Item>& items() const noexcept;
  ::std::vector<Key> keys() const;
  ::std::vector<Value> values() const;
  ::std::vector<std::pair<Key, Value>> pairs() const;
  // Model: declaration-only; LibTorch's private std::vector<Item> items_ (and its index) are left out.
};

template <typename Key, typename Value>
class OrderedDict<Key, Value>::Item {
 public:
  Item(Key key, Value value) : pair_(std::move(key), std::move(value)) {}
  Value& operator*() { return value(); }
  const Value& operator*() const { return value(); }
  Value* operator->() { return &value(); }
  const Value* operator->() const { return &value(); }
  const Key& key() const noexcept { return pair_.first; }
  Value& value() noexcept { return pair_.second; }
  const Value& value() const noexcept { return pair_.second; }
  const std::pair<Key, Value>& pair() const noexcept { return pair_; }

 private:
  ::std::pair<Key, Value> pair_;
};
} // namespace torch
