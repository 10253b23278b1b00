#pragma once
// gradlint LibTorch API model: LibTorch's <torch/data/worker_exception.h>; the model declares its names in
// <torch/data.h>.
#include <torch/data.h>
