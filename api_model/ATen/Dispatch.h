#pragma once
// gradlint LibTorch API model: LibTorch's <ATen/Dispatch.h>; the model declares its names in
// <ATen/ATen.h>.
#include <ATen/ATen.h>
