#pragma once
// gradlint LibTorch API model: LibTorch's <torch/nn/modules/container/any_module_holder.h>; the model declares its names in
// <torch/nn.h>.
#include <torch/nn.h>
