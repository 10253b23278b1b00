#pragma once
#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <torch/csrc/autograd/grad_mode.h>
#include <torch/types.h>
#include <cstdint>

namespace torch {
using NoGradGuard = at::NoGradGuard;
using AutoGradMode = at::AutoGradMode;
using at::manual_seed;
using at::init_num_threads;
using at::get_num_threads;
using at::set_num_threads;
using at::get_num_interop_threads;
using at::set_num_interop_threads;
TORCH_API bool equal_if_defined(Tensor t1, Tensor t2);
} // namespace torch
