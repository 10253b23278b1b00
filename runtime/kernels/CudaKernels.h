// CudaKernels.h - entry points of the CUDA backend (CudaKernels.cu).
//
// Only Backend.cpp includes this header, and only when the build contains the
// CUDA backend (GRADLINT_RUNTIME_HAVE_CUDA). Users select the backend through
// selectBackend() / cudaBackend() in Backend.h instead.
#pragma once

#include "Backend.h"

#include <memory>

namespace gradlint {
namespace runtime {
namespace cuda {

// cudaGetDeviceCount(), or 0 when it fails (no driver, no device).
int deviceCount();

// A Backend running the array kernels on device 0. Throws std::runtime_error
// when no device is usable. Methods take host pointers and stage through
// device memory (see Backend.h).
std::unique_ptr<Backend> makeBackend();

} // namespace cuda
} // namespace runtime
} // namespace gradlint
