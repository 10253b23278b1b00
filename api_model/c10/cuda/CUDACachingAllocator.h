#pragma once
// gradlint LibTorch API model: c10/cuda/CUDACachingAllocator.h (LibTorch 1.13.1), the
// cache controls user code calls.
#include <c10/cuda/CUDAStream.h>

namespace c10 {
namespace cuda {
namespace CUDACachingAllocator {
TORCH_API void emptyCache();
TORCH_API void setMemoryFraction(double fraction, int device);
TORCH_API void resetPeakStats(int device);
TORCH_API void resetAccumulatedStats(int device);
} // namespace CUDACachingAllocator
} // namespace cuda
} // namespace c10
