#pragma once
// gradlint LibTorch API model: LibTorch's <torch/nn/modules/_functions.h>; the model declares its names in
// <torch/nn.h>.
#include <torch/nn.h>
