#pragma once
// gradlint LibTorch API model: c10/cuda/CUDAFunctions.h (LibTorch 1.13.1).
#include <c10/core/Device.h>

namespace c10 {
namespace cuda {
TORCH_API DeviceIndex device_count() noexcept;
TORCH_API DeviceIndex device_count_ensure_non_zero();
TORCH_API DeviceIndex current_device();
TORCH_API void set_device(DeviceIndex device);
TORCH_API void device_synchronize();
} // namespace cuda
} // namespace c10
