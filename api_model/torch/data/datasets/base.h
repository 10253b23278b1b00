#pragma once
// gradlint LibTorch API model: LibTorch's <torch/data/datasets/base.h>; the model declares its names in
// <torch/data.h>.
#include <torch/data.h>
