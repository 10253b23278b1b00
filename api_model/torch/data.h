#pragma once
#include <torch/data/dataloader.h>
#include <torch/data/datasets.h>
#include <torch/data/example.h>
#include <torch/data/samplers.h>
#include <torch/data/transforms.h>

namespace torch {
namespace data {
using datasets::BatchDataset;
using datasets::Dataset;
} // namespace data
} // namespace torch
#include <torch/data/gradlint_generated_data.h>
