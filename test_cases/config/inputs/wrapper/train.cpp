// A project's optimizer wrapper, defined in another library: step() and
// zero_grad() are declared only. With OptimizerWrappers naming it, gradlint
// sees that zero_grad() runs on every micro-batch and wipes the window.
#include <torch/torch.h>

class ShardedOptimizer {
public:
  explicit ShardedOptimizer(std::vector<torch::Tensor> parameters);
  void step();
  void zero_grad();
};

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets) {
  ShardedOptimizer optimizer(model->parameters());
  const int accum_steps = 4;
  for (size_t i = 0; i < inputs.size(); ++i) {
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0)
      optimizer.step();
  }
}
