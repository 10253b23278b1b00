#pragma once
// gradlint LibTorch API model: torch/csrc/autograd/function.h; custom functions are in
// custom_function.h (torch::autograd::Node is not modelled).
#include <torch/csrc/autograd/custom_function.h>
