#pragma once
// gradlint LibTorch API model: LibTorch's <torch/data/samplers/stream.h>; the model declares its names in
// <torch/data.h>.
#include <torch/data.h>
