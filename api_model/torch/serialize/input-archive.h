#pragma once
// gradlint LibTorch API model: LibTorch's <torch/serialize/input-archive.h>; the model declares its names in
// <torch/serialize.h>.
#include <torch/serialize.h>
