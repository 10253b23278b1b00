// Backend.cpp - backend selection (see Backend.h).
#include "Backend.h"

#include "CpuKernels.h"
#if defined(GRADLINT_RUNTIME_HAVE_CUDA)
#include "CudaKernels.h"
#endif

#include <mutex>
#include <stdexcept>

namespace gradlint {
namespace runtime {

const Backend &cpuBackend() {
  static const CpuBackend backend;
  return backend;
}

bool cudaBackendBuilt() {
#if defined(GRADLINT_RUNTIME_HAVE_CUDA)
  return true;
#else
  return false;
#endif
}

int cudaDeviceCount() {
#if defined(GRADLINT_RUNTIME_HAVE_CUDA)
  static const int count = cuda::deviceCount();
  return count;
#else
  return 0;
#endif
}

bool cudaAvailable() { return cudaBackendBuilt() && cudaDeviceCount() > 0; }

const Backend *cudaBackend() {
#if defined(GRADLINT_RUNTIME_HAVE_CUDA)
  if (!cudaAvailable())
    return nullptr;
  static std::once_flag once;
  static std::unique_ptr<Backend> backend;
  std::call_once(once, [] { backend = cuda::makeBackend(); });
  return backend.get();
#else
  return nullptr;
#endif
}

const Backend &selectBackend(BackendKind kind) {
  switch (kind) {
  case BackendKind::Cpu: return cpuBackend();
  case BackendKind::Cuda: {
    const Backend *b = cudaBackend();
    if (!b)
      throw std::runtime_error(cudaBackendBuilt()
                                   ? "gradlint runtime: the cuda backend needs a CUDA device"
                                   : "gradlint runtime: built without the cuda backend");
    return *b;
  }
  case BackendKind::Auto: {
    const Backend *b = cudaBackend();
    return b ? *b : cpuBackend();
  }
  }
  return cpuBackend();
}

const char *backendKindName(BackendKind kind) {
  switch (kind) {
  case BackendKind::Cpu: return "cpu";
  case BackendKind::Cuda: return "cuda";
  case BackendKind::Auto: return "auto";
  }
  return "?";
}

BackendKind parseBackendKind(const std::string &name) {
  if (name == "cpu")
    return BackendKind::Cpu;
  if (name == "cuda")
    return BackendKind::Cuda;
  if (name == "auto")
    return BackendKind::Auto;
  throw std::invalid_argument("unknown backend '" + name + "' (expected cpu, cuda or auto)");
}

} // namespace runtime
} // namespace gradlint
