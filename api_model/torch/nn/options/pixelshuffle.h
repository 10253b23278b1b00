#pragma once
// gradlint LibTorch API model: LibTorch's <torch/nn/options/pixelshuffle.h>; the model declares its names in
// <torch/nn.h>.
#include <torch/nn.h>
