#pragma once
// gradlint LibTorch API model (mirrors LibTorch 1.13 names). Declarations only.
#define TORCH_API
#define C10_API
#define TORCH_ARG_API
#define C10_UNUSED __attribute__((__unused__))
#define C10_NODISCARD [[nodiscard]]
#define C10_DEPRECATED [[deprecated]]
#define C10_DEPRECATED_MESSAGE(m) [[deprecated(m)]]
#define C10_LIKELY(e) (__builtin_expect(static_cast<bool>(e), 1))
#define C10_UNLIKELY(e) (__builtin_expect(static_cast<bool>(e), 0))
#define C10_HOST_DEVICE
#define C10_DEVICE
#define C10_HOST
#define C10_ALWAYS_INLINE inline
#define C10_NOINLINE
#define C10_STRINGIZE_IMPL(x) #x
#define C10_STRINGIZE(x) C10_STRINGIZE_IMPL(x)

// Model-internal: type traits that the model's constructor constraints check on every
// conversion (optional, variant, TensorOptions, Scalar, ModuleHolder). With Clang's
// builtins they need no <type_traits> class instantiations (see "Parse cost" in
// README.md); the fallbacks are the <type_traits> spellings. GRADLINT_MODEL_IS_FORWARDED(U, X)
// is std::is_same<std::decay_t<U>, X> for a U deduced from U&& (U is X, X&, const X or
// const X&). __remove_cvref is not used: Clang 19 evaluated it, in a default template
// argument, with the template parameter's default.
#if defined(__clang__) && defined(__has_builtin)
#if __has_builtin(__is_same) && __has_builtin(__is_constructible) && __has_builtin(__is_base_of)
#define GRADLINT_MODEL_IS_SAME(T, U) __is_same(T, U)
#define GRADLINT_MODEL_IS_FORWARDED(U, X) \
  (__is_same(U, X) || __is_same(U, X&) || __is_same(U, const X) || __is_same(U, const X&))
#define GRADLINT_MODEL_IS_CONSTRUCTIBLE(...) __is_constructible(__VA_ARGS__)
#define GRADLINT_MODEL_IS_BASE_OF(B, D) __is_base_of(B, D)
#endif
#endif
#ifndef GRADLINT_MODEL_IS_SAME
#include <type_traits>
#define GRADLINT_MODEL_IS_SAME(T, U) ::std::is_same<T, U>::value
#define GRADLINT_MODEL_IS_FORWARDED(U, X) ::std::is_same<::std::decay_t<U>, X>::value
#define GRADLINT_MODEL_IS_CONSTRUCTIBLE(...) ::std::is_constructible<__VA_ARGS__>::value
#define GRADLINT_MODEL_IS_BASE_OF(B, D) ::std::is_base_of<B, D>::value
#endif

namespace c10 {
namespace hip {}
} // namespace c10
namespace at {
using namespace c10;
}
namespace caffe2 {
using namespace c10;
}

// Types the model declares but does not define (what generated signatures use).
#include <c10/util/gradlint_model_types.h>
// The standard headers LibTorch's headers include (see gradlint_std_headers.h).
#ifndef GRADLINT_API_MODEL_MINIMAL_STD
#include <c10/util/gradlint_std_headers.h>
#endif
