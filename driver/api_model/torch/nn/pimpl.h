#pragma once
#include <torch/arg.h>
#include <torch/serialize/archive.h>
#include <torch/types.h>
#include <memory>
#include <iosfwd>
#include <type_traits>
#include <utility>

namespace torch {
namespace detail {
struct ModuleHolderIndicator {};
template <typename T>
using is_module_holder = std::is_base_of<ModuleHolderIndicator, std::decay_t<T>>;
template <typename T, typename C>
using is_module_holder_of = std::is_same<std::decay_t<T>, std::decay_t<C>>;  // model: simplified
template <typename C, typename... Args>
struct return_type_of_forward {
  using type = decltype(::std::declval<C>().forward(::std::declval<Args>()...));
};
template <typename C, typename... Args>
using return_type_of_forward_t = typename return_type_of_forward<C, Args...>::type;
} // namespace detail

namespace nn {
template <typename Contained>
class ModuleHolder : torch::detail::ModuleHolderIndicator {
 protected:
  std::shared_ptr<Contained> impl_;

 public:
  using ContainedType = Contained;

  ModuleHolder() : impl_(default_construct()) {}
  /* implicit */ ModuleHolder(std::nullptr_t) : impl_(nullptr) {}
  template <typename Head, typename... Tail,
            typename = typename std::enable_if<
                !(std::is_same<std::decay_t<Head>, ModuleHolder>::value && (sizeof...(Tail) == 0))>::type>
  explicit ModuleHolder(Head&& head, Tail&&... tail)
      : impl_(new Contained(std::forward<Head>(head), std::forward<Tail>(tail)...)) {}
  /* implicit */ ModuleHolder(std::shared_ptr<Contained> module) : impl_(std::move(module)) {}

  explicit operator bool() const noexcept { return !is_empty(); }
  Contained* operator->() { return get(); }
  const Contained* operator->() const { return get(); }
  Contained& operator*() { return *get(); }
  const Contained& operator*() const { return *get(); }
  const std::shared_ptr<Contained>& ptr() const { return impl_; }
  Contained* get() { return impl_.get(); }
  const Contained* get() const { return impl_.get(); }
  template <typename... Args>
  auto operator()(Args&&... args) -> torch::detail::return_type_of_forward_t<Contained, Args...> {
    return impl_->forward(::std::forward<Args>(args)...);
  }
  template <typename Arg>
  decltype(auto) operator[](Arg&& arg) {
    return (*impl_)[::std::forward<Arg>(arg)];
  }
  bool is_empty() const noexcept { return impl_ == nullptr; }

 private:
  template <typename T = Contained, typename = std::enable_if_t<std::is_default_constructible<T>::value>>
  std::shared_ptr<Contained> default_construct() {
    return std::make_shared<Contained>();
  }
  template <typename T = Contained>
  std::enable_if_t<!std::is_default_constructible<T>::value, std::shared_ptr<Contained>> default_construct() {
    return nullptr;
  }
};

template <typename ModuleType>
std::ostream& operator<<(std::ostream& stream, const nn::ModuleHolder<ModuleType>& module);
template <typename ModuleType>
serialize::OutputArchive& operator<<(serialize::OutputArchive& archive, const nn::ModuleHolder<ModuleType>& module);
template <typename ModuleType>
serialize::InputArchive& operator>>(serialize::InputArchive& archive, nn::ModuleHolder<ModuleType>& module);
} // namespace nn
} // namespace torch

#define TORCH_MODULE_IMPL(Name, ImplType)                              \
  class Name : public torch::nn::ModuleHolder<ImplType> { /* NOLINT */ \
   public:                                                             \
    using torch::nn::ModuleHolder<ImplType>::ModuleHolder;             \
    using Impl C10_UNUSED = ImplType;                                  \
  }

#define TORCH_MODULE(Name) TORCH_MODULE_IMPL(Name, Name##Impl)
