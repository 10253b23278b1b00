#pragma once
// gradlint LibTorch API model: LibTorch's <torch/nn/modules/batchnorm.h>; the model declares its names in
// <torch/nn.h>.
#include <torch/nn.h>
