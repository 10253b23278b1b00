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
 public:
#include <c10/util/gradlint_generated_error_methods.inc>
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
class C10_API EnforceFiniteError : public Error {
  using Error::Error;
};
class C10_API OnnxfiBackendSystemError : public Error {
  using Error::Error;
};
class C10_API LinAlgError : public Error {
  using Error::Error;
};
class C10_API OutOfMemoryError : public Error {
  using Error::Error;
};
C10_API std::string GetExceptionString(const std::exception& e);

class C10_API WarningHandler {
 public:
  virtual ~WarningHandler() = default;
  virtual void process(const SourceLocation& source_location, const std::string& msg, const bool verbatim);
};
namespace Warning {
class C10_API WarningHandlerGuard {
 public:
  WarningHandlerGuard(WarningHandler* new_handler);
  ~WarningHandlerGuard();
};
C10_API void warn(const SourceLocation& source_location, const std::string& msg, bool verbatim);
C10_API void warn(SourceLocation source_location, const char* msg, bool verbatim);
C10_API void set_warning_handler(WarningHandler* handler) noexcept(true);
C10_API WarningHandler* get_warning_handler() noexcept(true);
C10_API void set_warnAlways(bool) noexcept(true);
C10_API bool get_warnAlways(void) noexcept(true);
struct C10_API WarnAlways {
 public:
  explicit WarnAlways(bool setting = true);
  ~WarnAlways();
};
} // namespace Warning

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
