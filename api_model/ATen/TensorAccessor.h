#pragma once
// gradlint LibTorch API model: ATen/TensorAccessor.h forwards to ATen/core/TensorAccessor.h.
#include <ATen/core/TensorAccessor.h>
