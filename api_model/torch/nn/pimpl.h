#pragma once
#include <torch/arg.h>
#include <torch/serialize/archive.h>
#include <torch/types.h>
#include <memory>
#include <iosfwd>
#include <type_traits>
#include <utility>

// The constructor template's constraint, std::is_same<std::decay_t<Head>, ModuleHolder>, is
// spelled GRADLINT_MODEL_IS_FORWARDED (c10/macros/Macros.h): each TORCH_MODULE class inherits
// this constructor, and checking the constraint through <type_traits> instantiated several
// trait classes per module class.
namespace torch {
namespace nn {
class Module;
} // namespace nn
namespace detail {
struct ModuleHolderIndicator {};
// torch/detail/static.h (NamedAnyModule's and ModuleList::insert's constraint).
template <typename M, typename T = void>
using enable_if_module_t = std::enable_if_t<GRADLINT_MODEL_IS_BASE_OF(torch::nn::Module, std::decay_t<M>), T>;
template <typename T>
using is_module_holder = std::is_base_of<ModuleHolderIndicator, std::decay_t<T>>;
template <typename T, typename C>
using is_module_holder_of = std::is_same<std::decay_t<T>, std::decay_t<C>>;  // model: simplified
// Stands in for ModuleHolder's std::shared_ptr<Contained> member: copying, moving and
// destroying a holder stay non-trivial (and noexcept), as with the shared_ptr, without
// instantiating std::shared_ptr<Contained> per module.
class ModuleHolderStorage {
 public:
  ModuleHolderStorage() noexcept;
  ModuleHolderStorage(const ModuleHolderStorage& other) noexcept;
  ModuleHolderStorage(ModuleHolderStorage&& other) noexcept;
  ModuleHolderStorage& operator=(const ModuleHolderStorage& other) noexcept;
  ModuleHolderStorage& operator=(ModuleHolderStorage&& other) noexcept;
  ~ModuleHolderStorage();
};
template <typename C, typename... Args>
struct return_type_of_forward {
  using type = decltype(::std::declval<C>().forward(::std::declval<Args>()...));
};
template <typename C, typename... Args>
using return_type_of_forward_t = typename return_type_of_forward<C, Args...>::type;
} // namespace detail

namespace nn {
// Model: declaration-only. LibTorch's ModuleHolder holds a std::shared_ptr<Contained> impl_;
// the model declares the same members without that data member (and without bodies that
// would need it), so that each TORCH_MODULE does not instantiate std::shared_ptr<XImpl>
// ("Parse cost" in README.md). A private ModuleHolderStorage keeps the special members
// non-trivial as in LibTorch.
template <typename Contained>
class ModuleHolder : torch::detail::ModuleHolderIndicator {
 public:
  using ContainedType = Contained;

  ModuleHolder();
  /* implicit */ ModuleHolder(std::nullptr_t);
  template <typename Head, typename... Tail,
            typename = typename std::enable_if<
                !(GRADLINT_MODEL_IS_FORWARDED(Head, ModuleHolder) && (sizeof...(Tail) == 0))>::type>
  explicit ModuleHolder(Head&& head, Tail&&... tail);
  /* implicit */ ModuleHolder(std::shared_ptr<Contained> module);

  explicit operator bool() const noexcept;
  Contained* operator->();
  const Contained* operator->() const;
  Contained& operator*();
  const Contained& operator*() const;
  const std::shared_ptr<Contained>& ptr() const;
  Contained* get();
  const Contained* get() const;
  template <typename... Args>
  auto operator()(Args&&... args) -> torch::detail::return_type_of_forward_t<Contained, Args...> {
    return get()->forward(::std::forward<Args>(args)...);
  }
  template <typename Arg>
  decltype(auto) operator[](Arg&& arg) {
    return (*get())[::std::forward<Arg>(arg)];
  }
  bool is_empty() const noexcept;

 private:
  torch::detail::ModuleHolderStorage storage_;
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
