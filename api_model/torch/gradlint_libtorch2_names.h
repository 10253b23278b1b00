#pragma once
// gradlint LibTorch API model: names of LibTorch 2.x that 1.13.1 lacks but training code
// writes, declared with their 2.x signatures so that such code is analysed in model mode.
// Not part of the 1.13 model proper: test api-model/coverage ignores them (they are not in
// the 1.13 headers), and api_model/README.md lists them. <torch/all.h> includes this file.
//   torch::mps::{is_available, manual_seed, synchronize, commit}          <torch/mps.h>
//   torch::xpu::{device_count, is_available}                             <torch/xpu.h>
//   torch::optim::ReduceLROnPlateauScheduler (SchedulerMode, ThresholdMode, step)
//                                 <torch/optim/schedulers/reduce_on_plateau_scheduler.h>
//   at::scaled_dot_product_attention (torch::scaled_dot_product_attention through
//     `namespace torch { using namespace at; }`)
//   at::autocast::{is_autocast_enabled, set_autocast_enabled, get_autocast_dtype,
//     set_autocast_dtype}(at::DeviceType, ...)
//   c10::SymInt::{guard_int, maybe_as_int, is_heap_allocated}             <c10/core/SymInt.h>
#include <ATen/ATen.h>
#include <ATen/autocast_mode.h>
#include <c10/core/SymInt.h>
#include <torch/mps.h>
#include <torch/optim/schedulers/reduce_on_plateau_scheduler.h>
#include <torch/xpu.h>

namespace at {
TORCH_API at::Tensor scaled_dot_product_attention(const at::Tensor& query, const at::Tensor& key,
                                                  const at::Tensor& value,
                                                  const c10::optional<at::Tensor>& attn_mask = {},
                                                  double dropout_p = 0.0, bool is_causal = false,
                                                  c10::optional<double> scale = {}, bool enable_gqa = false);
namespace autocast {
TORCH_API bool is_autocast_enabled(at::DeviceType device_type);
TORCH_API void set_autocast_enabled(at::DeviceType device_type, bool enabled);
TORCH_API at::ScalarType get_autocast_dtype(at::DeviceType device_type);
TORCH_API void set_autocast_dtype(at::DeviceType device_type, at::ScalarType dtype);
} // namespace autocast
} // namespace at
