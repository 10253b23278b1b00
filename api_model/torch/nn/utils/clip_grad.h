#pragma once
#include <torch/types.h>
#include <initializer_list>
#include <vector>

namespace torch {
namespace nn {
namespace utils {
// All three overloads of each function, as in LibTorch 1.13 (defined inline there).
double clip_grad_norm_(std::vector<Tensor> parameters, double max_norm, double norm_type = 2.0,
                       bool error_if_nonfinite = false);
double clip_grad_norm_(std::initializer_list<Tensor> parameters, double max_norm, double norm_type = 2.0,
                       bool error_if_nonfinite = false);
double clip_grad_norm_(Tensor parameter, double max_norm, double norm_type = 2.0, bool error_if_nonfinite = false);
void clip_grad_value_(std::vector<Tensor> parameters, double clip_value);
void clip_grad_value_(std::initializer_list<Tensor> parameters, double clip_value);
void clip_grad_value_(Tensor parameter, double clip_value);
} // namespace utils
} // namespace nn
} // namespace torch
