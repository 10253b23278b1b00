#pragma once
// gradlint LibTorch API model: c10/cuda/CUDAGuard.h (LibTorch 1.13.1).
#include <c10/cuda/CUDAStream.h>
#include <c10/util/Optional.h>

namespace c10 {
namespace cuda {
struct CUDAGuard {
  explicit CUDAGuard() = delete;
  explicit CUDAGuard(DeviceIndex device_index);
  explicit CUDAGuard(Device device);
  CUDAGuard(const CUDAGuard&) = delete;
  CUDAGuard& operator=(const CUDAGuard&) = delete;
  void set_device(Device device);
  void reset_device(Device device);
  void set_index(DeviceIndex device_index);
  Device original_device() const;
  Device current_device() const;
};
struct OptionalCUDAGuard {
  explicit OptionalCUDAGuard();
  explicit OptionalCUDAGuard(optional<Device> device_opt);
  explicit OptionalCUDAGuard(optional<DeviceIndex> device_index_opt);
  void set_device(Device device);
  void reset_device(Device device);
  void set_index(DeviceIndex device_index);
  optional<Device> original_device() const;
  optional<Device> current_device() const;
  void reset();
};
struct CUDAStreamGuard {
  explicit CUDAStreamGuard() = delete;
  explicit CUDAStreamGuard(CUDAStream stream);
  void reset_stream(CUDAStream stream);
  CUDAStream original_stream() const;
  CUDAStream current_stream() const;
  Device current_device() const;
  Device original_device() const;
};
} // namespace cuda
} // namespace c10
