#pragma once
// gradlint LibTorch API model: torch::optim::Optimizer (LibTorch 1.13).
#include <torch/arg.h>
#include <torch/serialize/archive.h>
#include <torch/types.h>
#include <functional>
#include <memory>
#include <string>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <utility>
#include <vector>

namespace ska {
// Model of ska::flat_hash_map (LibTorch's own hash map class): the usual map members,
// declared only. Cheaper to instantiate than std::unordered_map for Optimizer::state_.
template <typename K, typename V, typename H = std::hash<K>, typename E = std::equal_to<K>,
          typename A = std::allocator<std::pair<K, V>>>
class flat_hash_map {
 public:
  using key_type = K;
  using mapped_type = V;
  using value_type = std::pair<K, V>;
  using size_type = size_t;
  using difference_type = std::ptrdiff_t;
  using hasher = H;
  using key_equal = E;
  using allocator_type = A;
  using reference = value_type&;
  using const_reference = const value_type&;
  class const_iterator;
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = std::pair<K, V>;
    using difference_type = std::ptrdiff_t;
    using pointer = value_type*;
    using reference = value_type&;
    value_type& operator*() const;
    value_type* operator->() const;
    iterator& operator++();
    iterator operator++(int);
    friend bool operator==(const iterator& lhs, const iterator& rhs);
    friend bool operator!=(const iterator& lhs, const iterator& rhs);
  };
  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = std::pair<K, V>;
    using difference_type = std::ptrdiff_t;
    using pointer = const value_type*;
    using reference = const value_type&;
    const_iterator();
    /* implicit */ const_iterator(iterator other);
    const value_type& operator*() const;
    const value_type* operator->() const;
    const_iterator& operator++();
    const_iterator operator++(int);
    friend bool operator==(const const_iterator& lhs, const const_iterator& rhs);
    friend bool operator!=(const const_iterator& lhs, const const_iterator& rhs);
  };

  flat_hash_map();
  flat_hash_map(const flat_hash_map& other);
  flat_hash_map(flat_hash_map&& other) noexcept;
  flat_hash_map(std::initializer_list<value_type> il);
  flat_hash_map& operator=(const flat_hash_map& other);
  flat_hash_map& operator=(flat_hash_map&& other) noexcept;
  ~flat_hash_map();

  V& operator[](const K& key);
  V& operator[](K&& key);
  V& at(const K& key);
  const V& at(const K& key) const;
  iterator find(const K& key);
  const_iterator find(const K& key) const;
  size_t count(const K& key) const;
  bool contains(const K& key) const;
  iterator begin();
  const_iterator begin() const;
  const_iterator cbegin() const;
  iterator end();
  const_iterator end() const;
  const_iterator cend() const;
  size_t size() const;
  bool empty() const;
  void clear();
  void reserve(size_t num_elements);
  template <typename... Args>
  std::pair<iterator, bool> emplace(Args&&... args);
  std::pair<iterator, bool> insert(const value_type& value);
  std::pair<iterator, bool> insert(value_type&& value);
  template <typename M>
  std::pair<iterator, bool> insert_or_assign(const K& key, M&& m);
  size_t erase(const K& key);
  iterator erase(const_iterator pos);
  void swap(flat_hash_map& other);
};
} // namespace ska

namespace c10 {
template <class T>
class List; // LBFGS's state serialization (torch::optim::deque_to_list)
} // namespace c10

namespace torch {
namespace optim {

class TORCH_API OptimizerParamState {
 public:
  virtual std::unique_ptr<OptimizerParamState> clone() const;
  virtual void serialize(torch::serialize::InputArchive& archive);
  virtual void serialize(torch::serialize::OutputArchive& archive) const;
  virtual ~OptimizerParamState() = default;
};

template <typename Derived>
class OptimizerCloneableParamState : public OptimizerParamState {
  std::unique_ptr<OptimizerParamState> clone() const override;
};

class TORCH_API OptimizerOptions {
 public:
  virtual std::unique_ptr<OptimizerOptions> clone() const;
  virtual void serialize(torch::serialize::InputArchive& archive);
  virtual void serialize(torch::serialize::OutputArchive& archive) const;
  virtual ~OptimizerOptions() = default;
  virtual double get_lr() const;
  virtual void set_lr(const double lr);
};

template <typename Derived>
class OptimizerCloneableOptions : public OptimizerOptions {
 private:
  std::unique_ptr<OptimizerOptions> clone() const override;
};

class TORCH_API OptimizerParamGroup {
 public:
  OptimizerParamGroup(const OptimizerParamGroup& param_group);
  OptimizerParamGroup(std::vector<Tensor> params);
  OptimizerParamGroup(std::vector<Tensor> params, std::unique_ptr<OptimizerOptions> options);
  bool has_options() const;
  OptimizerOptions& options();
  const OptimizerOptions& options() const;
  void set_options(std::unique_ptr<OptimizerOptions> options);
  std::vector<Tensor>& params();
  const std::vector<Tensor>& params() const;

 protected:
  // Model: LibTorch's protected data members, with their names and types, declared
  // static so that the class does not instantiate std::vector / std::unique_ptr for
  // them (see "Parse cost" in README.md); non-static members in LibTorch.
  static std::vector<Tensor> params_;
  static std::unique_ptr<OptimizerOptions> options_;
};

class TORCH_API Optimizer {
 public:
  Optimizer(const Optimizer& optimizer) = delete;
  Optimizer(Optimizer&& optimizer) = default;
  explicit Optimizer(std::vector<OptimizerParamGroup> param_groups, std::unique_ptr<OptimizerOptions> defaults);
  explicit Optimizer(std::vector<Tensor> parameters, std::unique_ptr<OptimizerOptions> defaults);
  void add_param_group(const OptimizerParamGroup& param_group);
  virtual ~Optimizer() = default;
  using LossClosure = std::function<Tensor()>;
  virtual Tensor step(LossClosure closure = nullptr) = 0;
  void add_parameters(const std::vector<Tensor>& parameters);
  void zero_grad();
  const std::vector<Tensor>& parameters() const noexcept;
  std::vector<Tensor>& parameters() noexcept;
  size_t size() const noexcept;
  OptimizerOptions& defaults() noexcept;
  const OptimizerOptions& defaults() const noexcept;
  std::vector<OptimizerParamGroup>& param_groups() noexcept;
  const std::vector<OptimizerParamGroup>& param_groups() const noexcept;
  ska::flat_hash_map<std::string, std::unique_ptr<OptimizerParamState>>& state() noexcept;
  const ska::flat_hash_map<std::string, std::unique_ptr<OptimizerParamState>>& state() const noexcept;
  virtual void save(serialize::OutputArchive& archive) const;
  virtual void load(serialize::InputArchive& archive);

 protected:
  // Model: LibTorch's protected data members, with their names and types, declared
  // static so that the class does not instantiate std::vector / std::unique_ptr for
  // them (see "Parse cost" in README.md); non-static members in LibTorch.
  static std::vector<OptimizerParamGroup> param_groups_;
  static ska::flat_hash_map<std::string, std::unique_ptr<OptimizerParamState>> state_;
  static std::unique_ptr<OptimizerOptions> defaults_;
};

TORCH_API serialize::OutputArchive& operator<<(serialize::OutputArchive& archive, const Optimizer& optimizer);
TORCH_API serialize::InputArchive& operator>>(serialize::InputArchive& archive, Optimizer& optimizer);

} // namespace optim
} // namespace torch
