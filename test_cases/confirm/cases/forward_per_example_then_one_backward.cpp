// Each batch holds several examples of different lengths: the classifier runs
// once per example, the outputs are concatenated and one loss is taken per
// batch. A countdown steps every `accumulate` batches. The per-example loop
// has no length in the code; its forward passes all read the same
// micro-batch. The loss is not divided by the window's length.
// CONFIRM-VERDICT: accum-missing-loss-division confirmed: update 4\.0[0-9]*x the large-batch update
// CONFIRM-ASSUMED: accum-missing-loss-division forward passes per micro-batch (line 32) = 1
#include <torch/torch.h>

struct Group {
  std::vector<torch::Tensor> examples;
  torch::Tensor labels;
};

struct Classifier : torch::nn::Module {
  Classifier() {
    body = register_module("body", torch::nn::Linear(10, 3));
  }
  torch::Tensor forward(const torch::Tensor &example) {
    return body->forward(example.mean(0, /*keepdim=*/true));
  }
  torch::nn::Linear body{nullptr};
};

double epoch(Classifier &model, torch::optim::Optimizer &optimizer,
             const std::vector<Group> &groups, int accumulate) {
  double total = 0.0;
  int countdown = accumulate;
  optimizer.zero_grad();
  for (const Group &group : groups) {
    std::vector<torch::Tensor> scores;
    for (const torch::Tensor &example : group.examples)
      scores.push_back(model.forward(example));
    torch::Tensor loss = torch::nn::functional::cross_entropy(torch::cat(scores, 0), group.labels);
    loss.backward();
    total += loss.item<double>();
    if (--countdown == 0) {
      optimizer.step();
      optimizer.zero_grad();
      countdown = accumulate;
    }
  }
  return total;
}

int main() {
  Classifier model;
  torch::optim::SGD sgd(model.parameters(), torch::optim::SGDOptions(0.05));
  std::vector<Group> groups;
  epoch(model, sgd, groups, 4);
}
