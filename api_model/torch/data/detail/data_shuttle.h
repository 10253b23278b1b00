#pragma once
// gradlint LibTorch API model: LibTorch's <torch/data/detail/data_shuttle.h>; the model declares its names in
// <torch/data.h>.
#include <torch/data.h>
