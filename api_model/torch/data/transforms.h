#pragma once
#include <torch/data/example.h>
#include <torch/types.h>
#include <functional>
#include <vector>

namespace torch {
namespace data {
namespace transforms {
template <typename InputBatch, typename OutputBatch>
class BatchTransform {
 public:
  using InputBatchType = InputBatch;
  using OutputBatchType = OutputBatch;
  virtual ~BatchTransform() = default;
  virtual OutputBatch apply_batch(InputBatch input_batch) = 0;
};

template <typename Input, typename Output>
class Transform : public BatchTransform<std::vector<Input>, std::vector<Output>> {
 public:
  using InputType = Input;
  using OutputType = Output;
  virtual OutputType apply(InputType input) = 0;
  std::vector<Output> apply_batch(std::vector<Input> input_batch) override;
};

template <typename Input, typename Output = Input>
class BatchLambda : public BatchTransform<Input, Output> {
 public:
  using typename BatchTransform<Input, Output>::InputBatchType;
  using typename BatchTransform<Input, Output>::OutputBatchType;
  using FunctionType = std::function<OutputBatchType(InputBatchType)>;
  explicit BatchLambda(FunctionType function);
  OutputBatchType apply_batch(InputBatchType input_batch) override;
  // Model: declaration-only; LibTorch's private function_ member is left out.
};

template <typename Input, typename Output = Input>
class Lambda : public Transform<Input, Output> {
 public:
  using typename Transform<Input, Output>::InputType;
  using typename Transform<Input, Output>::OutputType;
  using FunctionType = std::function<Output(Input)>;
  explicit Lambda(FunctionType function);
  OutputType apply(InputType input) override;
  // Model: declaration-only; LibTorch's private function_ member is left out.
};

template <typename T, typename BatchType = std::vector<T>>
using Collation = BatchTransform<BatchType, T>;
template <typename T, typename BatchType = std::vector<T>>
using Collate = BatchLambda<BatchType, T>;

template <typename T = Example<>>
struct Stack;
template <>
struct Stack<Example<>> : public Collation<Example<>> {
  Example<> apply_batch(std::vector<Example<>> examples) override;
};
template <>
struct Stack<TensorExample> : public Collation<Example<Tensor, example::NoTarget>> {
  TensorExample apply_batch(std::vector<TensorExample> examples) override;
};

template <typename Target = Tensor>
class TensorTransform : public Transform<Example<Tensor, Target>, Example<Tensor, Target>> {
 public:
  using E = Example<Tensor, Target>;
  using typename Transform<E, E>::InputType;
  using typename Transform<E, E>::OutputType;
  virtual Tensor operator()(Tensor input) = 0;
  OutputType apply(InputType input) override;
};

template <typename Target = Tensor>
class TensorLambda : public TensorTransform<Target> {
 public:
  using FunctionType = std::function<Tensor(Tensor)>;
  explicit TensorLambda(FunctionType function);
  Tensor operator()(Tensor input) override;
  // Model: declaration-only; LibTorch's private std::function member is left out (a
  // non-dependent member type: the template definition alone would instantiate it).
};

template <typename Target = Tensor>
struct Normalize : public TensorTransform<Target> {
  Normalize(ArrayRef<double> mean, ArrayRef<double> stddev);
  torch::Tensor operator()(Tensor input) override;
  torch::Tensor mean, stddev;
};
} // namespace transforms
} // namespace data
} // namespace torch
