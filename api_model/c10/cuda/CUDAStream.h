#pragma once
// gradlint LibTorch API model: c10/cuda/CUDAStream.h (LibTorch 1.13.1), without the CUDA
// runtime's types (cudaStream_t).
#include <c10/core/Device.h>
#include <cstdint>
#include <ostream>

namespace c10 {
namespace cuda {
class TORCH_API CUDAStream {
 public:
  Device device() const;
  DeviceIndex device_index() const;
  DeviceType device_type() const;
  int64_t id() const;
  bool query() const;
  void synchronize() const;
  int priority() const;
  bool operator==(const CUDAStream& other) const noexcept;
  bool operator!=(const CUDAStream& other) const noexcept;
};
TORCH_API CUDAStream getStreamFromPool(const bool isHighPriority = false, DeviceIndex device = -1);
TORCH_API CUDAStream getDefaultCUDAStream(DeviceIndex device_index = -1);
TORCH_API CUDAStream getCurrentCUDAStream(DeviceIndex device_index = -1);
TORCH_API void setCurrentCUDAStream(CUDAStream stream);
TORCH_API std::ostream& operator<<(std::ostream& stream, const CUDAStream& s);
} // namespace cuda
} // namespace c10
