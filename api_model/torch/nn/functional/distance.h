#pragma once
// gradlint LibTorch API model: LibTorch's <torch/nn/functional/distance.h>; the model declares its names in
// <torch/nn.h>.
#include <torch/nn.h>
