#pragma once
// gradlint LibTorch API model: LibTorch's <torch/data/transforms/tensor.h>; the model declares its names in
// <torch/data.h>.
#include <torch/data.h>
