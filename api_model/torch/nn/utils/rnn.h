#pragma once
// gradlint LibTorch API model: LibTorch's <torch/nn/utils/rnn.h>; the model declares its names in
// <torch/nn/utils.h>.
#include <torch/nn/utils.h>
