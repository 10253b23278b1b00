#pragma once
// gradlint LibTorch API model: <torch/mps.h> of LibTorch 2.x (not in 1.13; see
// torch/gradlint_libtorch2_names.h). The Objective-C command-buffer and dispatch-queue
// accessors are left out.
#include <c10/macros/Macros.h>
#include <cstddef>
#include <cstdint>

namespace torch {
namespace mps {
bool TORCH_API is_available();
void TORCH_API manual_seed(uint64_t seed);
void TORCH_API synchronize();
void TORCH_API commit();
} // namespace mps
} // namespace torch
