#pragma once
// gradlint LibTorch API model: LibTorch's <torch/data/samplers/serialize.h>; the model declares its names in
// <torch/data.h>.
#include <torch/data.h>
