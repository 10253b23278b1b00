#pragma once
// gradlint LibTorch API model: LibTorch's <torch/nn/modules/instancenorm.h>; the model declares its names in
// <torch/nn.h>.
#include <torch/nn.h>
