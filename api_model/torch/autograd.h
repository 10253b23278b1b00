#pragma once
#include <torch/csrc/autograd/autograd.h>
#include <torch/csrc/autograd/custom_function.h>
#include <torch/csrc/autograd/grad_mode.h>
#include <torch/types.h>
#include <torch/csrc/autograd/gradlint_generated_autograd.h>
