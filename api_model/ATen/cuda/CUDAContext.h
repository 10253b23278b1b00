#pragma once
// gradlint LibTorch API model: ATen/cuda/CUDAContext.h (LibTorch 1.13.1), without the CUDA
// runtime's types (cudaDeviceProp, cublasHandle_t).
#include <ATen/Context.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAStream.h>

namespace at {
namespace cuda {
using c10::cuda::CUDAStream;
using c10::cuda::getCurrentCUDAStream;
using c10::cuda::getDefaultCUDAStream;
using c10::cuda::getStreamFromPool;
using c10::cuda::setCurrentCUDAStream;
TORCH_API int64_t getNumGPUs();
TORCH_API bool is_available();
TORCH_API int warp_size();
} // namespace cuda
} // namespace at
