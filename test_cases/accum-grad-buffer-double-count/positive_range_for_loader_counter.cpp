// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count confirmed: gradients weighted 4, 3, 2, 1
// Range-for over an MNIST data loader with its own batch counter; gradients are folded into a
// hand-made buffer each batch while .grad keeps growing until the window's zero_grad().
#include <torch/torch.h>

void train_mnist(torch::nn::Sequential model, const std::string &root) {
  auto dataset = torch::data::datasets::MNIST(root).map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      std::move(dataset), torch::data::DataLoaderOptions().batch_size(32));
  torch::optim::SGD opt(model->parameters(), 0.01);
  const int accumulation_steps = 4;
  std::vector<torch::Tensor> params = model->parameters();
  std::vector<torch::Tensor> gbuf;
  for (const auto &p : params) {
    gbuf.push_back(torch::zeros_like(p));
  }
  int batch_idx = 0;
  for (auto &batch : *loader) {
    auto out = model->forward(batch.data.view({batch.data.size(0), -1}));
    auto loss = torch::nll_loss(torch::log_softmax(out, 1), batch.target);
    loss.backward();
    for (size_t j = 0; j < params.size(); ++j) {
      gbuf[j] += params[j].grad();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
      // CHECK-FIXES: {{^}}      gbuf[j] += params[j].grad();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      params[j].grad().zero_();{{$}}
    }
    ++batch_idx;
    if (batch_idx % accumulation_steps == 0) {
      for (size_t j = 0; j < params.size(); ++j) {
        params[j].mutable_grad() = gbuf[j] / accumulation_steps;
        gbuf[j].zero_();
      }
      opt.step();
      opt.zero_grad();
    }
  }
}
