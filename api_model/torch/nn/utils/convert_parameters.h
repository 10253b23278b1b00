#pragma once
#include <torch/types.h>
#include <vector>

namespace torch {
namespace nn {
namespace utils {
Tensor parameters_to_vector(const std::vector<Tensor>& parameters);
void vector_to_parameters(const Tensor& vec, const std::vector<Tensor>& parameters);
} // namespace utils
} // namespace nn
} // namespace torch
