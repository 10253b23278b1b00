#pragma once
#include <c10/macros/Macros.h>
#include <atomic>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace c10 {
template <class T, class NullType>
class weak_intrusive_ptr;

class C10_API intrusive_ptr_target {
 protected:
  virtual ~intrusive_ptr_target();
  intrusive_ptr_target() noexcept;
  intrusive_ptr_target(intrusive_ptr_target&&) noexcept;
  intrusive_ptr_target& operator=(intrusive_ptr_target&&) noexcept;
  intrusive_ptr_target(const intrusive_ptr_target&) noexcept;
  intrusive_ptr_target& operator=(const intrusive_ptr_target&) noexcept;

 private:
  template <typename T, typename NullType>
  friend class intrusive_ptr;
  // Model: declaration-only; LibTorch's std::atomic<size_t> refcount_/weakcount_ are left out.
  virtual void release_resources();
};

namespace detail {
template <class TTarget>
struct intrusive_target_default_null_type final {
  static constexpr TTarget* singleton() noexcept { return nullptr; }
};
} // namespace detail

// Model of c10::intrusive_ptr: same names and user-facing operations; the
// reference counting is not modelled.
template <class TTarget, class NullType = detail::intrusive_target_default_null_type<TTarget>>
class intrusive_ptr final {
 private:
  TTarget* target_;
  template <class TTarget2, class NullType2>
  friend class intrusive_ptr;

 public:
  using element_type = TTarget;

  intrusive_ptr() noexcept : target_(NullType::singleton()) {}
  intrusive_ptr(std::nullptr_t) noexcept : target_(NullType::singleton()) {}
  explicit intrusive_ptr(TTarget* target) : target_(target) {}
  intrusive_ptr(const intrusive_ptr& rhs) : target_(rhs.target_) {}
  intrusive_ptr(intrusive_ptr&& rhs) noexcept : target_(rhs.target_) { rhs.target_ = NullType::singleton(); }
  template <class From, class FromNullType,
            typename = std::enable_if_t<std::is_convertible<From*, TTarget*>::value>>
  intrusive_ptr(const intrusive_ptr<From, FromNullType>& rhs) : target_(rhs.target_) {}
  template <class From, class FromNullType,
            typename = std::enable_if_t<std::is_convertible<From*, TTarget*>::value>>
  intrusive_ptr(intrusive_ptr<From, FromNullType>&& rhs) noexcept : target_(rhs.target_) {
    rhs.target_ = FromNullType::singleton();
  }
  ~intrusive_ptr() noexcept {}

  intrusive_ptr& operator=(const intrusive_ptr& rhs) & noexcept { target_ = rhs.target_; return *this; }
  intrusive_ptr& operator=(intrusive_ptr&& rhs) & noexcept { target_ = rhs.target_; return *this; }
  template <class From, class FromNullType>
  intrusive_ptr& operator=(const intrusive_ptr<From, FromNullType>& rhs) & noexcept {
    target_ = rhs.target_;
    return *this;
  }

  TTarget* get() const noexcept { return target_; }
  TTarget& operator*() const noexcept { return *target_; }
  TTarget* operator->() const noexcept { return target_; }
  explicit operator bool() const noexcept { return target_ != NullType::singleton(); }
  void reset() noexcept { target_ = NullType::singleton(); }
  void swap(intrusive_ptr& r) noexcept { std::swap(target_, r.target_); }
  bool defined() const noexcept { return target_ != NullType::singleton(); }
  size_t use_count() const noexcept;
  size_t weak_use_count() const noexcept;
  bool unique() const noexcept;
  TTarget* release() noexcept {
    TTarget* t = target_;
    target_ = NullType::singleton();
    return t;
  }
  static intrusive_ptr reclaim(TTarget* owning_ptr) { return intrusive_ptr(owning_ptr); }
  template <class... Args>
  static intrusive_ptr make(Args&&... args) {
    return intrusive_ptr(new TTarget(std::forward<Args>(args)...));
  }
  static intrusive_ptr unsafe_steal_from_new(TTarget* raw_ptr) { return intrusive_ptr(raw_ptr); }
 public:
#include <c10/util/gradlint_generated_intrusive_ptr_methods.inc>
};

template <class TTarget, class NullType = detail::intrusive_target_default_null_type<TTarget>, class... Args>
inline intrusive_ptr<TTarget, NullType> make_intrusive(Args&&... args) {
  return intrusive_ptr<TTarget, NullType>::make(std::forward<Args>(args)...);
}

template <class T1, class N1, class T2, class N2>
inline bool operator==(const intrusive_ptr<T1, N1>& lhs, const intrusive_ptr<T2, N2>& rhs) noexcept {
  return lhs.get() == rhs.get();
}
template <class T1, class N1, class T2, class N2>
inline bool operator!=(const intrusive_ptr<T1, N1>& lhs, const intrusive_ptr<T2, N2>& rhs) noexcept {
  return lhs.get() != rhs.get();
}
template <class T1, class N1>
inline bool operator==(const intrusive_ptr<T1, N1>& lhs, std::nullptr_t) noexcept {
  return lhs.get() == nullptr;
}
template <class T1, class N1>
inline bool operator!=(const intrusive_ptr<T1, N1>& lhs, std::nullptr_t) noexcept {
  return lhs.get() != nullptr;
}
template <class TTarget, class NullType>
inline void swap(intrusive_ptr<TTarget, NullType>& lhs, intrusive_ptr<TTarget, NullType>& rhs) noexcept {
  lhs.swap(rhs);
}

template <typename TTarget, class NullType = detail::intrusive_target_default_null_type<TTarget>>
class weak_intrusive_ptr final {
 public:
  explicit weak_intrusive_ptr(const intrusive_ptr<TTarget, NullType>& ptr);
  template <class From, class FromNullType>
  weak_intrusive_ptr(weak_intrusive_ptr<From, FromNullType>&& rhs) noexcept;
  template <class From, class FromNullType>
  weak_intrusive_ptr(const weak_intrusive_ptr<From, FromNullType>& rhs);
  intrusive_ptr<TTarget, NullType> lock() const noexcept;
  bool expired() const noexcept;
 public:
#include <c10/util/gradlint_generated_weak_intrusive_ptr_methods.inc>
};

} // namespace c10

namespace c10 {
class C10_API weak_intrusive_ptr_target : public intrusive_ptr_target {};
} // namespace c10

namespace torch {
// Base of TorchScript custom classes (c10d types derive from it), as in LibTorch.
class CustomClassHolder : public c10::intrusive_ptr_target {};
} // namespace torch
