#pragma once
#include <c10/core/GradMode.h>

namespace torch {
namespace autograd {
using GradMode = at::GradMode;
using AutoGradMode = at::AutoGradMode;
} // namespace autograd
} // namespace torch
