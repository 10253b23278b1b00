// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-trailing-micro-batches not-confirmed: 2 of 10 \(20\.0%\) micro-batches never reached a step
// A train_one_epoch() function called once per epoch: its counter is local, so it restarts each
// call and the trailing micro-batches of every epoch are carried into the next call's first step.
#include <torch/torch.h>

double train_one_epoch(torch::nn::Sequential &model, torch::optim::Optimizer &optim,
                       const std::vector<torch::Tensor> &feats,
                       const std::vector<torch::Tensor> &labels, int accumulate) {
  double running = 0.0;
  int pending = 0;
  for (size_t k = 0; k < feats.size(); ++k) {
    auto loss = torch::nn::functional::cross_entropy(model->forward(feats[k]), labels[k]);
    (loss / accumulate).backward();
    running += loss.item<double>();
    pending += 1;
    if (pending == accumulate) {
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: (conditional) the last partial window of the loop never reaches {{.*}} [accum-trailing-micro-batches]
      optim.step();
      optim.zero_grad();
      pending = 0;
    }
  }
  // CHECK-FIXES-UNSAFE: {{^}}  }{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}  if (pending != 0) {{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}    optim.step();{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}    optim.zero_grad();{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}    pending = 0;{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}  }{{$}}
  return running / static_cast<double>(feats.size());
}

void run(torch::nn::Sequential &model, const std::vector<torch::Tensor> &feats,
         const std::vector<torch::Tensor> &labels) {
  torch::optim::SGD optim(model->parameters(), 0.1);
  for (int epoch = 0; epoch < 10; ++epoch) {
    double avg = train_one_epoch(model, optim, feats, labels, 4);
    std::cout << "epoch " << epoch << " loss " << avg << std::endl;
  }
}
