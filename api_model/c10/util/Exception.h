#pragma once
#include <c10/macros/Macros.h>
#include <exception>
#include <string>

namespace c10 {
class C10_API Error : public std::exception {
 public:
  Error(std::string msg, std::string backtrace, const void* caller = nullptr);
  const char* what() const noexcept override;
  const std::string& msg() const;
};
class C10_API IndexError : public Error {
  using Error::Error;
};
class C10_API ValueError : public Error {
  using Error::Error;
};
class C10_API TypeError : public Error {
  using Error::Error;
};
class C10_API NotImplementedError : public Error {
  using Error::Error;
};
namespace detail {
// Model-only sink for the error macros: accepts any message pieces.
template <typename... Args>
[[noreturn]] void torchCheckFail(const Args&... args);
template <typename... Args>
void torchWarn(const Args&... args);
} // namespace detail
} // namespace c10

#define TORCH_CHECK(cond, ...) \
  if (C10_UNLIKELY(!(cond))) { ::c10::detail::torchCheckFail(__VA_ARGS__); }
#define TORCH_CHECK_INDEX(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define TORCH_CHECK_VALUE(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define TORCH_CHECK_TYPE(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define TORCH_CHECK_NOT_IMPLEMENTED(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define TORCH_INTERNAL_ASSERT(cond, ...) TORCH_CHECK(cond, "internal assert")
#define TORCH_INTERNAL_ASSERT_DEBUG_ONLY(cond, ...) TORCH_CHECK(cond, "internal assert")
#define TORCH_WARN(...) ::c10::detail::torchWarn(__VA_ARGS__)
#define TORCH_WARN_ONCE(...) ::c10::detail::torchWarn(__VA_ARGS__)
#define AT_ERROR(...) ::c10::detail::torchCheckFail(__VA_ARGS__)
#define AT_ASSERT(cond, ...) TORCH_CHECK(cond, "assert")
#define AT_CHECK(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
