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

namespace c10 {}
namespace at {
using namespace c10;
}
namespace caffe2 {
using namespace c10;
}
