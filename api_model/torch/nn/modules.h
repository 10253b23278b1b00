#pragma once
// gradlint LibTorch API model: torch::nn modules (LibTorch 1.13 names and hierarchy).
#include <torch/nn/cloneable.h>
#include <torch/nn/module.h>
#include <torch/nn/options.h>
#include <torch/nn/pimpl.h>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <typeinfo>
#include <utility>
#include <vector>

namespace torch {
namespace nn {
namespace utils {
namespace rnn {
class PackedSequence;
} // namespace rnn
} // namespace utils

// ---- AnyModule (type-erased module used by Sequential) ----
class AnyValue {
 public:
  template <typename T>
  explicit AnyValue(T&& value);
  template <typename T>
  T* try_get();
  template <typename T>
  T get();
  AnyValue(AnyValue&&) = default;
  AnyValue& operator=(AnyValue&&) = default;
  AnyValue(const AnyValue& other);
  AnyValue& operator=(const AnyValue& other);
  const std::type_info& type_info() const noexcept;
};

class AnyModule {
 public:
  AnyModule() = default;
  template <typename ModuleType>
  explicit AnyModule(std::shared_ptr<ModuleType> module);
  template <typename ModuleType, typename = std::enable_if_t<GRADLINT_MODEL_IS_BASE_OF(Module, ModuleType)>>
  explicit AnyModule(ModuleType&& module);
  template <typename ModuleType>
  explicit AnyModule(const ModuleHolder<ModuleType>& module_holder);
  AnyModule(AnyModule&&) = default;
  AnyModule& operator=(AnyModule&&) = default;
  AnyModule(const AnyModule& other);
  AnyModule& operator=(const AnyModule& other);
  template <typename... ArgumentTypes>
  AnyValue any_forward(ArgumentTypes&&... arguments);
  template <typename ReturnType = torch::Tensor, typename... ArgumentTypes>
  ReturnType forward(ArgumentTypes&&... arguments);
  template <typename T>
  T& get();
  std::shared_ptr<Module> ptr() const;
  bool is_empty() const noexcept;
  AnyModule clone(optional<Device> device = {}) const;
  const std::type_info& type_info() const;
};

// ---- Linear / Flatten / Identity ----
class TORCH_API IdentityImpl : public Cloneable<IdentityImpl> {
 public:
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
};
TORCH_MODULE(Identity);

class TORCH_API LinearImpl : public Cloneable<LinearImpl> {
 public:
  LinearImpl(int64_t in_features, int64_t out_features);
  explicit LinearImpl(const LinearOptions& options_);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
  LinearOptions options;
  Tensor weight;
  Tensor bias;
};
TORCH_MODULE(Linear);

class TORCH_API FlattenImpl : public Cloneable<FlattenImpl> {
 public:
  explicit FlattenImpl(const FlattenOptions& options_ = {});
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
  FlattenOptions options;
};
TORCH_MODULE(Flatten);

// ---- activations ----
class TORCH_API ReLUImpl : public torch::nn::Cloneable<ReLUImpl> {
 public:
  explicit ReLUImpl(const ReLUOptions& options_ = {});
  Tensor forward(Tensor input);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  ReLUOptions options;
};
TORCH_MODULE(ReLU);

class TORCH_API LeakyReLUImpl : public torch::nn::Cloneable<LeakyReLUImpl> {
 public:
  explicit LeakyReLUImpl(const LeakyReLUOptions& options_ = {});
  Tensor forward(Tensor input);
  void reset() override;
  LeakyReLUOptions options;
  void pretty_print(std::ostream& stream) const override;
};
TORCH_MODULE(LeakyReLU);

class TORCH_API GELUImpl : public torch::nn::Cloneable<GELUImpl> {
 public:
  explicit GELUImpl(GELUOptions options_ = {});
  Tensor forward(const Tensor& input);
  void reset() override;
  GELUOptions options;
  void pretty_print(std::ostream& stream) const override;
};
TORCH_MODULE(GELU);

class TORCH_API SigmoidImpl : public torch::nn::Cloneable<SigmoidImpl> {
 public:
  Tensor forward(const Tensor& input);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
};
TORCH_MODULE(Sigmoid);

class TORCH_API TanhImpl : public torch::nn::Cloneable<TanhImpl> {
 public:
  Tensor forward(const Tensor& input);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
};
TORCH_MODULE(Tanh);

class TORCH_API SoftmaxImpl : public torch::nn::Cloneable<SoftmaxImpl> {
 public:
  explicit SoftmaxImpl(int64_t dim);
  explicit SoftmaxImpl(const SoftmaxOptions& options_);
  Tensor forward(const Tensor& input);
  void reset() override;
  SoftmaxOptions options;
  void pretty_print(std::ostream& stream) const override;
};
TORCH_MODULE(Softmax);

class TORCH_API LogSoftmaxImpl : public torch::nn::Cloneable<LogSoftmaxImpl> {
 public:
  explicit LogSoftmaxImpl(int64_t dim);
  explicit LogSoftmaxImpl(const LogSoftmaxOptions& options_);
  Tensor forward(const Tensor& input);
  void reset() override;
  LogSoftmaxOptions options;
  void pretty_print(std::ostream& stream) const override;
};
TORCH_MODULE(LogSoftmax);

// ---- dropout ----
namespace detail {
template <typename Derived>
class _DropoutNd : public torch::nn::Cloneable<Derived> {
 public:
  _DropoutNd(double p);
  explicit _DropoutNd(const DropoutOptions& options_ = {});
  void reset() override {}
  DropoutOptions options;
};
} // namespace detail
class TORCH_API DropoutImpl : public detail::_DropoutNd<DropoutImpl> {
 public:
  using detail::_DropoutNd<DropoutImpl>::_DropoutNd;
  Tensor forward(Tensor input);
  void pretty_print(std::ostream& stream) const override;
};
TORCH_MODULE(Dropout);
class TORCH_API Dropout2dImpl : public detail::_DropoutNd<Dropout2dImpl> {
 public:
  using detail::_DropoutNd<Dropout2dImpl>::_DropoutNd;
  Tensor forward(Tensor input);
  void pretty_print(std::ostream& stream) const override;
};
TORCH_MODULE(Dropout2d);

// ---- normalization ----
template <size_t D, typename Derived, typename DerivedOptions>
class NormImplBase : public torch::nn::Cloneable<Derived> {
 public:
  NormImplBase(const DerivedOptions& options_);
  void reset() override {}
  void reset_running_stats();
  void reset_parameters();
  DerivedOptions options;
  Tensor weight;
  Tensor bias;
  Tensor running_mean;
  Tensor running_var;
  Tensor num_batches_tracked;
};
template <size_t D, typename Derived>
class BatchNormImplBase : public NormImplBase<D, Derived, BatchNormOptions> {
 public:
  using NormImplBase<D, Derived, BatchNormOptions>::NormImplBase;
  Tensor forward(const Tensor& input);
  void pretty_print(std::ostream& stream) const override;
};
class TORCH_API BatchNorm1dImpl : public BatchNormImplBase<1, BatchNorm1dImpl> {
 public:
  using BatchNormImplBase<1, BatchNorm1dImpl>::BatchNormImplBase;
};
TORCH_MODULE(BatchNorm1d);
class TORCH_API BatchNorm2dImpl : public BatchNormImplBase<2, BatchNorm2dImpl> {
 public:
  using BatchNormImplBase<2, BatchNorm2dImpl>::BatchNormImplBase;
};
TORCH_MODULE(BatchNorm2d);

class TORCH_API LayerNormImpl : public torch::nn::Cloneable<LayerNormImpl> {
 public:
  LayerNormImpl(std::vector<int64_t> normalized_shape);
  explicit LayerNormImpl(LayerNormOptions options_);
  void reset() override;
  void reset_parameters();
  Tensor forward(const Tensor& input);
  void pretty_print(std::ostream& stream) const override;
  LayerNormOptions options;
  Tensor weight;
  Tensor bias;
};
TORCH_MODULE(LayerNorm);

// ---- embedding ----
class TORCH_API EmbeddingImpl : public torch::nn::Cloneable<EmbeddingImpl> {
 public:
  EmbeddingImpl(int64_t num_embeddings, int64_t embedding_dim);
  explicit EmbeddingImpl(EmbeddingOptions options_);
  void reset() override;
  void reset_parameters();
  Tensor forward(const Tensor& indices);
  void pretty_print(std::ostream& stream) const override;
  EmbeddingOptions options;
  Tensor weight;
};
class Embedding : public torch::nn::ModuleHolder<EmbeddingImpl> {
 public:
  using torch::nn::ModuleHolder<EmbeddingImpl>::ModuleHolder;
  static Embedding from_pretrained(const torch::Tensor& embeddings, const EmbeddingFromPretrainedOptions& options = {});
};

// ---- convolution ----
template <size_t D, typename Derived>
class ConvNdImpl : public torch::nn::Cloneable<Derived> {
 public:
  explicit ConvNdImpl(detail::ConvNdOptions<D> options_);
  void reset() override {}
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  detail::ConvNdOptions<D> options;
  Tensor weight;
  Tensor bias;
};
class TORCH_API Conv1dImpl : public ConvNdImpl<1, Conv1dImpl> {
 public:
  Conv1dImpl(int64_t input_channels, int64_t output_channels, ExpandingArray<1> kernel_size);
  explicit Conv1dImpl(Conv1dOptions options_);
  Tensor forward(const Tensor& input);
};
TORCH_MODULE(Conv1d);
class TORCH_API Conv2dImpl : public ConvNdImpl<2, Conv2dImpl> {
 public:
  Conv2dImpl(int64_t input_channels, int64_t output_channels, ExpandingArray<2> kernel_size);
  explicit Conv2dImpl(Conv2dOptions options_);
  Tensor forward(const Tensor& input);
};
TORCH_MODULE(Conv2d);

// ---- pooling ----
template <size_t D, typename Derived>
class MaxPoolImpl : public torch::nn::Cloneable<Derived> {
 public:
  MaxPoolImpl(ExpandingArray<D> kernel_size);
  explicit MaxPoolImpl(const MaxPoolOptions<D>& options_);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  MaxPoolOptions<D> options;
};
class TORCH_API MaxPool1dImpl : public MaxPoolImpl<1, MaxPool1dImpl> {
 public:
  using MaxPoolImpl<1, MaxPool1dImpl>::MaxPoolImpl;
  Tensor forward(const Tensor& input);
  std::tuple<Tensor, Tensor> forward_with_indices(const Tensor& input);
};
TORCH_MODULE(MaxPool1d);
class TORCH_API MaxPool2dImpl : public MaxPoolImpl<2, MaxPool2dImpl> {
 public:
  using MaxPoolImpl<2, MaxPool2dImpl>::MaxPoolImpl;
  Tensor forward(const Tensor& input);
  std::tuple<Tensor, Tensor> forward_with_indices(const Tensor& input);
};
TORCH_MODULE(MaxPool2d);
template <size_t D, typename Derived>
class AvgPoolImpl : public torch::nn::Cloneable<Derived> {
 public:
  AvgPoolImpl(ExpandingArray<D> kernel_size);
  explicit AvgPoolImpl(const AvgPoolOptions<D>& options_);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  AvgPoolOptions<D> options;
};
class TORCH_API AvgPool2dImpl : public AvgPoolImpl<2, AvgPool2dImpl> {
 public:
  using AvgPoolImpl<2, AvgPool2dImpl>::AvgPoolImpl;
  Tensor forward(const Tensor& input);
};
TORCH_MODULE(AvgPool2d);
template <size_t D, typename output_size_t, typename Derived>
class AdaptiveAvgPoolImpl : public torch::nn::Cloneable<Derived> {
 public:
  AdaptiveAvgPoolImpl(output_size_t output_size);
  explicit AdaptiveAvgPoolImpl(const AdaptiveAvgPoolOptions<D, output_size_t>& options_);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  AdaptiveAvgPoolOptions<D, output_size_t> options;
};
class TORCH_API AdaptiveAvgPool2dImpl
    : public AdaptiveAvgPoolImpl<2, ExpandingArrayWithOptionalElem<2>, AdaptiveAvgPool2dImpl> {
 public:
  using AdaptiveAvgPoolImpl<2, ExpandingArrayWithOptionalElem<2>, AdaptiveAvgPool2dImpl>::AdaptiveAvgPoolImpl;
  Tensor forward(const Tensor& input);
};
TORCH_MODULE(AdaptiveAvgPool2d);

// ---- recurrent ----
namespace detail {
template <typename Derived>
class TORCH_API RNNImplBase : public torch::nn::Cloneable<Derived> {
 public:
  void reset() override;
  void reset_parameters();
  void flatten_parameters();
  std::vector<Tensor> all_weights() const;
};
} // namespace detail
class TORCH_API LSTMImpl : public detail::RNNImplBase<LSTMImpl> {
 public:
  LSTMImpl(int64_t input_size, int64_t hidden_size);
  explicit LSTMImpl(const LSTMOptions& options_);
  std::tuple<Tensor, std::tuple<Tensor, Tensor>> forward(const Tensor& input,
                                                         torch::optional<std::tuple<Tensor, Tensor>> hx_opt = {});
  std::tuple<torch::nn::utils::rnn::PackedSequence, std::tuple<Tensor, Tensor>> forward_with_packed_input(
      const torch::nn::utils::rnn::PackedSequence& packed_input, torch::optional<std::tuple<Tensor, Tensor>> hx_opt = {});
  LSTMOptions options;
};
TORCH_MODULE(LSTM);
class TORCH_API GRUImpl : public detail::RNNImplBase<GRUImpl> {
 public:
  GRUImpl(int64_t input_size, int64_t hidden_size);
  explicit GRUImpl(const GRUOptions& options_);
  std::tuple<Tensor, Tensor> forward(const Tensor& input, Tensor hx = {});
  std::tuple<torch::nn::utils::rnn::PackedSequence, Tensor> forward_with_packed_input(
      const torch::nn::utils::rnn::PackedSequence& packed_input, Tensor hx = {});
  GRUOptions options;
};
TORCH_MODULE(GRU);

// ---- losses ----
#define GRADLINT_MODEL_LOSS_MODULE(Name, OptionsType, ...)                   \
  struct TORCH_API Name##Impl : Cloneable<Name##Impl> {                      \
    explicit Name##Impl(OptionsType options_ = {});                          \
    void reset() override;                                                   \
    void pretty_print(std::ostream& stream) const override;                  \
    Tensor forward(const Tensor& input, const Tensor& target);               \
    OptionsType options;                                                     \
    __VA_ARGS__                                                              \
  };                                                                         \
  TORCH_MODULE(Name);
GRADLINT_MODEL_LOSS_MODULE(L1Loss, L1LossOptions)
GRADLINT_MODEL_LOSS_MODULE(KLDivLoss, KLDivLossOptions)
GRADLINT_MODEL_LOSS_MODULE(MSELoss, MSELossOptions)
GRADLINT_MODEL_LOSS_MODULE(BCELoss, BCELossOptions)
GRADLINT_MODEL_LOSS_MODULE(SmoothL1Loss, SmoothL1LossOptions)
GRADLINT_MODEL_LOSS_MODULE(HuberLoss, HuberLossOptions)
GRADLINT_MODEL_LOSS_MODULE(NLLLoss, NLLLossOptions, Tensor weight;)
GRADLINT_MODEL_LOSS_MODULE(CrossEntropyLoss, CrossEntropyLossOptions, Tensor weight;)
GRADLINT_MODEL_LOSS_MODULE(BCEWithLogitsLoss, BCEWithLogitsLossOptions, Tensor weight; Tensor pos_weight;)
#undef GRADLINT_MODEL_LOSS_MODULE

// ---- containers ----
class TORCH_API FunctionalImpl : public torch::nn::Cloneable<FunctionalImpl> {
 public:
  using Function = std::function<Tensor(Tensor)>;
  explicit FunctionalImpl(Function function);
  template <typename SomeFunction, typename... Args,
            typename = std::enable_if_t<(sizeof...(Args) > 0)>>
  explicit FunctionalImpl(SomeFunction original_function, Args&&... args);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(Tensor input);
  Tensor operator()(Tensor input);
  bool is_serializable() const override;
};
TORCH_MODULE(Functional);

class SequentialImpl : public Cloneable<SequentialImpl> {
 public:
  using Iterator = GRADLINT_MODEL_VECTOR_ITERATOR(AnyModule);  // std::vector<AnyModule>::iterator
  using ConstIterator = GRADLINT_MODEL_VECTOR_CONST_ITERATOR(AnyModule);

  SequentialImpl() = default;
  template <typename... Modules>
  explicit SequentialImpl(Modules&&... modules);
  std::shared_ptr<Module> clone(const optional<Device>& device = {}) const override;
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  template <typename ReturnType = Tensor, typename... InputTypes>
  ReturnType forward(InputTypes&&... inputs);
  template <typename ModuleType>
  void push_back(std::shared_ptr<ModuleType> module_ptr);
  template <typename ModuleType>
  void push_back(std::string name, std::shared_ptr<ModuleType> module_ptr);
  template <typename M, typename = std::enable_if_t<std::is_base_of<Module, std::decay_t<M>>::value>>
  void push_back(M&& module);
  template <typename M>
  void push_back(const ModuleHolder<M>& module_holder);
  template <typename M>
  void push_back(std::string name, const ModuleHolder<M>& module_holder);
  void push_back(AnyModule any_module);
  void push_back(std::string name, AnyModule any_module);
  Iterator begin();
  ConstIterator begin() const;
  Iterator end();
  ConstIterator end() const;
  template <typename T>
  T& at(size_t index);
  std::shared_ptr<Module> ptr(size_t index) const;
  Module& operator[](size_t index);
  size_t size() const noexcept;
  bool is_empty() const noexcept;
  template <typename Container>
  void extend(const Container& container);
};
class Sequential : public torch::nn::ModuleHolder<SequentialImpl> {
 public:
  using torch::nn::ModuleHolder<SequentialImpl>::ModuleHolder;
  Sequential();
};

class ModuleListImpl : public Cloneable<ModuleListImpl> {
 public:
  using Iterator = GRADLINT_MODEL_VECTOR_ITERATOR(std::shared_ptr<Module>);  // std::vector<...>::iterator
  using ConstIterator = GRADLINT_MODEL_VECTOR_CONST_ITERATOR(std::shared_ptr<Module>);
  ModuleListImpl() = default;
  template <typename... Modules>
  explicit ModuleListImpl(Modules&&... modules);
  std::shared_ptr<Module> clone(const optional<Device>& device = {}) const override;
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  void push_back(std::shared_ptr<Module> module);
  template <typename M, typename = std::enable_if_t<std::is_base_of<Module, std::decay_t<M>>::value>>
  void push_back(M&& module);
  template <typename M>
  void push_back(const ModuleHolder<M>& module_holder);
  Iterator begin();
  ConstIterator begin() const;
  Iterator end();
  ConstIterator end() const;
  template <typename T>
  T& at(size_t index);
  std::shared_ptr<Module> ptr(size_t index) const;
  Module& operator[](size_t index);
  size_t size() const noexcept;
  bool is_empty() const noexcept;
  template <typename Container>
  void extend(const Container& container);
  void insert(size_t index, std::shared_ptr<Module> module);
  template <typename M>
  void insert(size_t index, const ModuleHolder<M>& module_holder);
  template <typename M, typename = std::enable_if_t<std::is_base_of<Module, std::decay_t<M>>::value>>
  void insert(size_t index, M&& module);
};
TORCH_MODULE(ModuleList);

class ModuleDictImpl : public Cloneable<ModuleDictImpl> {
 public:
  using Iterator = torch::OrderedDict<std::string, std::shared_ptr<Module>>::Iterator;
  using ConstIterator = torch::OrderedDict<std::string, std::shared_ptr<Module>>::ConstIterator;
  ModuleDictImpl() = default;
  explicit ModuleDictImpl(const std::vector<std::pair<std::string, std::shared_ptr<Module>>>& modules);
  explicit ModuleDictImpl(const torch::OrderedDict<std::string, std::shared_ptr<Module>>& modules);
  std::shared_ptr<Module> clone(const optional<Device>& device = {}) const override;
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  std::vector<std::pair<std::string, std::shared_ptr<Module>>> items() const;
  std::vector<std::string> keys() const;
  std::vector<std::shared_ptr<Module>> values() const;
  Iterator begin();
  ConstIterator begin() const;
  Iterator end();
  ConstIterator end() const;
  size_t size() const noexcept;
  bool empty() const noexcept;
  bool contains(const std::string& key) const noexcept;
  void clear();
  std::shared_ptr<Module> operator[](const std::string& key) const;
  template <typename T>
  T& at(const std::string& key);
  std::shared_ptr<Module> pop(const std::string& key);
  void update(const std::vector<std::pair<std::string, std::shared_ptr<Module>>>& modules);
};
TORCH_MODULE(ModuleDict);

} // namespace nn
} // namespace torch
