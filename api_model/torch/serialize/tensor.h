#pragma once
// gradlint LibTorch API model: LibTorch's <torch/serialize/tensor.h>; the model declares its names in
// <torch/serialize.h>.
#include <torch/serialize.h>
