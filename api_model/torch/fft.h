#pragma once
// gradlint LibTorch API model: LibTorch's <torch/fft.h>; the model declares its names in
// <torch/torch.h>.
#include <torch/torch.h>
