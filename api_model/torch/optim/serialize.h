#pragma once
// gradlint LibTorch API model: LibTorch's <torch/optim/serialize.h>; the model declares its names in
// <torch/optim.h>.
#include <torch/optim.h>
