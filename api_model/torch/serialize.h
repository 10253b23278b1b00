#pragma once
#include <torch/serialize/archive.h>
#include <torch/types.h>
#include <vector>

namespace torch {
template <typename Value, typename... SaveToArgs>
void save(const Value& value, SaveToArgs&&... args);
template <typename... SaveToArgs>
void save(const std::vector<torch::Tensor>& tensor_vec, SaveToArgs&&... args);
template <typename Value, typename... LoadFromArgs>
void load(Value& value, LoadFromArgs&&... args);
template <typename... LoadFromArgs>
void load(std::vector<torch::Tensor>& tensor_vec, LoadFromArgs&&... args);
} // namespace torch
#include <torch/serialize/gradlint_generated_serialize.h>
