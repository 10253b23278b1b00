#pragma once
// gradlint LibTorch API model: <torch/xpu.h> of LibTorch 2.x (not in 1.13; see
// torch/gradlint_libtorch2_names.h).
#include <c10/macros/Macros.h>
#include <cstddef>
#include <cstdint>

namespace torch {
namespace xpu {
size_t TORCH_API device_count();
bool TORCH_API is_available();
} // namespace xpu
} // namespace torch
