#pragma once
// gradlint LibTorch API model: torch::data data loaders (simplified; LibTorch 1.13 names).
#include <torch/arg.h>
#include <torch/data/datasets.h>
#include <torch/data/samplers.h>
#include <torch/types.h>
#include <chrono>
#include <cstddef>
#include <memory>
#include <type_traits>

namespace torch {
namespace data {
struct DataLoaderOptions {
  DataLoaderOptions() = default;
  /* implicit */ DataLoaderOptions(size_t batch_size);
  GRADLINT_MODEL_ARG(size_t, batch_size);  // = 1
  GRADLINT_MODEL_ARG(size_t, workers);  // = 0
  GRADLINT_MODEL_ARG(optional<size_t>, max_jobs);
  GRADLINT_MODEL_ARG(optional<std::chrono::milliseconds>, timeout);
  GRADLINT_MODEL_ARG(bool, enforce_ordering);  // = true
  GRADLINT_MODEL_ARG(bool, drop_last);  // = false
};

template <typename Batch>
class Iterator {
 public:
  using difference_type = std::ptrdiff_t;
  using value_type = Batch;
  using pointer = Batch*;
  using reference = Batch&;
  using iterator_category = std::input_iterator_tag;
  Iterator& operator++();
  Batch& operator*();
  Batch* operator->();
  bool operator==(const Iterator& other) const;
  bool operator!=(const Iterator& other) const;
};

template <typename Dataset, typename Batch, typename BatchRequest>
class DataLoaderBase {
 public:
  using BatchType = Batch;
  using BatchRequestType = BatchRequest;
  virtual ~DataLoaderBase() = default;
  Iterator<Batch> begin();
  Iterator<Batch> end();
  void join();
  const DataLoaderOptions& options() const noexcept;
};

template <typename Dataset, typename Sampler>
class StatelessDataLoader
    : public DataLoaderBase<Dataset, typename Dataset::BatchType, typename Sampler::BatchRequestType> {
 public:
  using super = DataLoaderBase<Dataset, typename Dataset::BatchType, typename Sampler::BatchRequestType>;
  StatelessDataLoader(Dataset dataset, Sampler sampler, DataLoaderOptions options);
};

template <typename Dataset>
class StatefulDataLoader
    : public DataLoaderBase<Dataset, typename Dataset::BatchType::value_type, typename Dataset::BatchRequestType> {
 public:
  using super = DataLoaderBase<Dataset, typename Dataset::BatchType::value_type, typename Dataset::BatchRequestType>;
  StatefulDataLoader(Dataset dataset, DataLoaderOptions options);
};

template <typename Dataset, typename Sampler>
std::enable_if_t<!Dataset::is_stateful, std::unique_ptr<StatelessDataLoader<Dataset, Sampler>>> make_data_loader(
    Dataset dataset, Sampler sampler, DataLoaderOptions options);

template <typename Sampler = samplers::RandomSampler, typename Dataset>
std::enable_if_t<!(Dataset::is_stateful || !std::is_constructible<Sampler, size_t>::value),
                 std::unique_ptr<StatelessDataLoader<Dataset, Sampler>>>
make_data_loader(Dataset dataset, DataLoaderOptions options = DataLoaderOptions());

template <typename Dataset, typename = std::enable_if_t<Dataset::is_stateful>>
std::unique_ptr<StatefulDataLoader<Dataset>> make_data_loader(Dataset dataset,
                                                             DataLoaderOptions options = DataLoaderOptions());
} // namespace data
} // namespace torch
